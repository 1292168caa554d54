""".search: SearchVectors from the shell (there is no PartiQL for it: vector-search.md §5.1 rule 4).

    .search TABLE INDEX [0.1, 0.2, …] [--top K] [--where JSON] [--project a,b] [--explain]
    .search TABLE INDEX --like KEY …

The query vector is a JSON array, or ``--like KEY`` the vector of the item whose key is KEY (JSON: ``"p1"``,
``5``, or ``{"pk": "p1", "sk": 3}``). ``--where`` takes the SearchSchema equalities as a JSON object
(``{"Category": "shoes", "Brand": "acme"}``), made into a SearchConditionExpression with placeholders.
``--explain`` prints the SearchVectors request and what it would examine and cost, without searching.
"""

from __future__ import annotations

import argparse
import json
import shlex
from decimal import Decimal

from partiql.vector_search import preview, preview_text, search, search_request

from .diagnostics import ShellError, local_only

USAGE = "TABLE INDEX VECTOR|--like KEY [--top K] [--where J] [--explain]"
SUMMARY = ("nearest items of a vector index (SearchVectors): results, scores and the bytes examined; "
           "--project A,B names the attributes returned")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ShellError(f".search: {message} (.search {USAGE})")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=".search", add_help=False)
    parser.add_argument("table")
    parser.add_argument("index")
    parser.add_argument("vector", nargs="*")
    parser.add_argument("--like")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--where")
    parser.add_argument("--project")
    parser.add_argument("--explain", action="store_true")
    return parser


def _json(text: str, what: str):
    try:
        return json.loads(text, parse_float=Decimal, parse_int=Decimal)
    except ValueError as error:
        raise ShellError(f".search: {what} is not JSON: {error}") from None


def request_of(session, argument: str) -> tuple:
    """(the SearchVectors request of ``.search``'s arguments, whether to preview it)."""
    try:
        args = _parser().parse_args(shlex.split(argument))
    except ValueError as error:
        raise ShellError(f".search: {error}") from None
    args.vector = " ".join(args.vector) or None  # (a JSON array with spaces arrives in pieces)
    try:
        request = search_request(
            session.db.engine, args.table, args.index, _json(args.vector, "the vector") if args.vector else None,
            like=_json(args.like, "--like") if args.like is not None else None, top=args.top,
            where=_json(args.where, "--where") if args.where is not None else None,
            project=[n.strip() for n in args.project.split(",") if n.strip()] if args.project else None)
    except ValueError as error:
        raise ShellError(f".search: {error} (.search {USAGE})") from None
    return request, args.explain


def run(session, argument: str) -> None:
    """``.search``: the results as the output format shows items, a score column first, then a status line."""
    from .formatting import render_items

    local_only(session, ".search")
    request, explain = request_of(session, argument)
    engine = session.db.engine
    if explain:
        try:
            session.show(preview_text(preview(engine, request)))
        except ValueError as error:
            raise ShellError(f".search: {error}") from None
        return
    items, examined = search(engine, request)
    if items:
        session.show(render_items(items, session.settings.format, ["score"]))
    session.notice(f"{len(items)} result{'s' * (len(items) != 1)} · SearchVectors on {request['TableName']}."
                   f"{request['IndexName']} · {examined:,.0f} bytes examined (VectorSearchRequestBytes)")
