"""Engine expression model → DynamoDB expression text (what EXPLAIN prints).

``Renderer`` is the inverse of ``parser``: every attribute name becomes a
``#n0, #n1…`` placeholder (one per distinct name, so reserved words, dots and
odd characters never matter) and every value a ``:v0, :v1…`` placeholder;
``names`` and ``values`` are the ExpressionAttributeNames / Values to send
with the text. One renderer serves all the expressions of one request, so
they share placeholders as DynamoDB expects.

Round trip: for every node the parser produces,
``parse_*(renderer.<kind>(node), ExpressionContext(renderer.names, renderer.values)) == node``.
Nodes only PartiQL produces (``Predicate``, nested ``Arithmetic``) are
rendered readably, parenthesised, even where DynamoDB's grammar has no
room for them.
"""

from __future__ import annotations

from .model import (
    Add,
    And,
    Arithmetic,
    Between,
    Call,
    Comparison,
    Delete,
    In,
    Not,
    Or,
    Path,
    Predicate,
    Remove,
    Set,
    Update,
    Value,
)

_SECTIONS = {Set: "SET", Remove: "REMOVE", Add: "ADD", Delete: "DELETE"}


class Renderer:
    """Renders conditions, updates and projections, allocating placeholders as it goes."""

    def __init__(self):
        self.names: dict[str, str] = {}  # '#n0' -> attribute name
        self.values: dict[str, object] = {}  # ':v0' -> engine value
        self._placeholders: dict[str, str] = {}  # attribute name -> '#n0'

    # ------------------------------------------------------------ public

    def condition(self, node) -> str:
        """A ConditionExpression / FilterExpression / KeyConditionExpression."""
        return _CONDITIONS[type(node)](self, node)

    def update(self, node: Update) -> str:
        """An UpdateExpression: one section per action kind, in order of first appearance."""
        sections: dict[str, list] = {}
        for action in node.actions:
            sections.setdefault(_SECTIONS[type(action)], []).append(action)
        # Placeholders are allocated in text order.
        return " ".join(f"{keyword} {', '.join(self._action(action) for action in actions)}"
                        for keyword, actions in sections.items())

    def projection(self, paths) -> str:
        """A ProjectionExpression."""
        return ", ".join(self.path(path) for path in paths)

    def path(self, path: Path) -> str:
        out = [self.name(path.elements[0])]
        for element in path.elements[1:]:
            out.append(f"[{element}]" if type(element) is int else f".{self.name(element)}")
        return "".join(out)

    def name(self, name: str) -> str:
        """The ``#nK`` placeholder of an attribute name (one per distinct name)."""
        placeholder = self._placeholders.get(name)
        if placeholder is None:
            placeholder = f"#n{len(self._placeholders)}"
            self._placeholders[name] = placeholder
            self.names[placeholder] = name
        return placeholder

    def value(self, value) -> str:
        """A fresh ``:vK`` placeholder for ``value``."""
        placeholder = f":v{len(self.values)}"
        self.values[placeholder] = value
        return placeholder

    def operand(self, node) -> str:
        return _OPERANDS[type(node)](self, node)

    # ------------------------------------------------------- conditions

    def _nested(self, node) -> str:
        # AND/OR inside AND/OR/NOT are parenthesised: the parser keeps that nesting.
        text = self.condition(node)
        return f"({text})" if type(node) in (And, Or) else text

    def _and(self, node: And) -> str:
        return " AND ".join(self._nested(operand) for operand in node.operands)

    def _or(self, node: Or) -> str:
        return " OR ".join(self._nested(operand) for operand in node.operands)

    def _not(self, node: Not) -> str:
        return f"NOT {self._nested(node.operand)}"

    def _comparison(self, node: Comparison) -> str:
        return f"{self.operand(node.left)} {node.op} {self.operand(node.right)}"

    def _between(self, node: Between) -> str:
        return f"{self.operand(node.subject)} BETWEEN {self.operand(node.low)} AND {self.operand(node.high)}"

    def _in(self, node: In) -> str:
        subject = self.operand(node.subject)  # placeholders in text order
        candidates = ", ".join(self.operand(candidate) for candidate in node.candidates)
        return f"{subject} IN ({candidates})"

    # --------------------------------------------------------- operands

    def _call(self, node: Call) -> str:
        return f"{node.name}({', '.join(self.operand(arg) for arg in node.args)})"

    def _value(self, node: Value) -> str:
        return self.value(node.value)

    def _arithmetic(self, node: Arithmetic) -> str:
        return f"{self._term(node.left)} {node.op} {self._term(node.right)}"

    def _term(self, node) -> str:
        # DynamoDB has no a + b + c; PartiQL can produce it, shown parenthesised.
        return f"({self._arithmetic(node)})" if type(node) is Arithmetic else self.operand(node)

    def _predicate(self, node: Predicate) -> str:
        # PartiQL only: a condition used as a BOOL operand.
        return f"({self.condition(node.condition)})"

    # ---------------------------------------------------------- updates

    def _action(self, action) -> str:
        kind = type(action)
        if kind is Set:
            return f"{self.path(action.path)} = {self.operand(action.value)}"
        if kind is Remove:
            return self.path(action.path)
        return f"{self.path(action.path)} {self.operand(action.value)}"


_CONDITIONS = {
    And: Renderer._and,
    Or: Renderer._or,
    Not: Renderer._not,
    Comparison: Renderer._comparison,
    Between: Renderer._between,
    In: Renderer._in,
    Call: Renderer._call,
    Predicate: Renderer._predicate,
}
_OPERANDS = {
    Path: Renderer.path,
    Value: Renderer._value,
    Call: Renderer._call,
    Arithmetic: Renderer._arithmetic,
    Predicate: Renderer._predicate,
}
