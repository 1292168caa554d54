"""A loop lighter than Lark's own over Lark's LALR tables and contextual lexer (see ``LalrLoop``)."""

from __future__ import annotations

from typing import Any

from lark import Lark, Token
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

# ---------------------------------------------------------------- the LALR loop

_new_token = str.__new__  # a Token is a str with slots (Lark's ``Token._future_new`` fills the same ones)

class GiveUp(Exception):
    """The loop met a character or a token Lark's tables refuse."""


def _reduction(rule, callbacks) -> tuple:
    """(size, tree-builder callback, rule name) of a reduce action; no callback when the
    rule only hands its one child on (a `?rule` with one symbol)."""
    callback = callbacks[rule]
    size = len(rule.expansion)
    return size, None if type(callback) is ExpandSingleChild and size == 1 else callback, rule.origin.name


class LalrLoop:
    """Lark's LALR tables and contextual lexer, run by a loop lighter than Lark's own.

    Lark builds everything from the grammar and stays the parser of record:
    the loop takes the same tokens (each parser state's terminal regex and
    lexer callbacks) and makes the same reductions through the same
    tree-builder callbacks, but gives up (``GiveUp``) at the first character
    or token the tables refuse, and ``_parse`` lets Lark parse the text again
    to raise its error. Why: Lark's general loop (a Python call per token, per
    reduction and per assertion) was most of the cost of parsing a short
    statement; here a reduction that hands its child on is a mere state change.
    """

    def __init__(self, lark: Lark):
        lalr = lark.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> _Parser
        table = lalr.parse_table
        self._starts, self._ends = table.start_states, table.end_states
        self._actions = {
            state: {kind: arg if action is Shift else _reduction(arg, lalr.callbacks)
                    for kind, (action, arg) in row.items()}
            for state, row in table.states.items()}
        self._lexers = lark.parser.lexer.lexer.lexers  # the ContextualLexer's (the post-lexer passes tokens on)
        self._scanners: dict[int, tuple] = {}
        self._chains: dict[tuple, int] = {}  # (below, top, kind) -> the top state after its run (``_chain``)

    def parse(self, text: str, start: str) -> Any:
        """What Lark's parser returns for ``text`` from rule ``start``; ``GiveUp`` where it raises.

        why one loop for the lexer and the shifts: each token is lexed with the
        terminals of the parser's state at that point (``states[-1]``), as Lark's
        contextual lexer does, and most tokens are shifted without a reduction; a
        generator and a call per token were a fifth of a short statement's parse."""
        states, values, end_state = [self._starts[start]], [], self._ends[start]
        actions, scanners = self._actions, self._scanners
        pos, line, line_start, size = 0, 1, 0, len(text)
        while pos < size:
            if text[pos] == " ":  # why: most tokens are a space apart, and in this grammar a space can only
                pos += 1          # begin the ignored whitespace (a test checks every terminal): no regex
                continue
            match, callbacks, ignored, newlines = scanners.get(states[-1]) or self._scanner(states[-1])
            found = match(text, pos)
            if found is None:
                raise GiveUp
            value, kind = found[0], found.lastgroup
            begin, begin_line, column = pos, line, pos - line_start + 1
            if kind in newlines and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if kind in ignored and kind not in callbacks:
                continue
            token = _new_token(Token, value)  # Token(kind, value, ...) without its two Python-level calls
            token.type, token.value, token.start_pos, token.end_pos = kind, value, begin, pos
            token.line, token.column, token.end_line, token.end_column = begin_line, column, line, pos - line_start + 1
            if kind in callbacks:
                token = callbacks[kind](token)
            if kind in ignored:
                continue
            action = actions[states[-1]].get(token.type)
            states.append(action if type(action) is int else self._reduce(states, values, token.type, end_state))
            values.append(token)
        if self._reduce(states, values, "$END", end_state) is not None:
            raise GiveUp  # why: a table that shifts $END is no table of Lark's
        return values[-1]

    def _reduce(self, states: list, values: list, kind: str, end_state: int) -> int | None:
        """Reduce as the tables say for a next token of type ``kind``; the state to
        shift it to, or None once ``$END`` completes the statement."""
        actions, chains = self._actions, self._chains
        while True:
            top = states[-1]
            action = actions[top].get(kind)
            if action is None:
                raise GiveUp
            if type(action) is int:
                return action
            size, callback, origin = action
            if callback is None:  # a run of reductions handing their one child on: one lookup (``_chain``)
                link = (states[-2], top, kind)
                chained = chains.get(link)
                if chained is None:
                    chained = chains[link] = self._chain(states[-2], top, kind, end_state)
                states[-1] = chained
            else:
                children = values[-size:] if size else []
                if size:
                    del states[-size:]
                    del values[-size:]
                values.append(callback(children))
                states.append(actions[states[-1]][origin])
            if kind == "$END" and states[-1] == end_state:
                return None

    def _chain(self, below: int, top: int, kind: str, end_state: int) -> int:
        """The state on top after the run of reductions that hand their one child on, from ``top``
        over ``below``, for a next token of type ``kind``. why: an operand climbs the levels of
        precedence, one such reduction each; each swaps the top state for the one the state below
        goes to, so the run depends on (below, top, kind) alone, and is looked up once."""
        actions = self._actions
        while True:
            action = actions[top].get(kind)
            if type(action) is not tuple or action[1] is not None:
                return top
            top = actions[below][action[2]]
            if kind == "$END" and top == end_state:
                return top

    def _scanner(self, state: int) -> tuple:
        """(regex match, lexer callbacks, ignored types, types that may hold a newline) of
        the lexer Lark uses in ``state``."""
        lexer = self._lexers[state]
        if len(lexer.scanner._mres) != 1:  # Lark splits the regex only when one fails to compile
            raise GiveUp
        (regex,) = lexer.scanner._mres
        found = self._scanners[state] = (regex.match, lexer.callback, lexer.ignore_types, lexer.newline_types)
        return found
