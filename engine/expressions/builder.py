"""A template compiled into one straight-line Python function (names, values) -> model."""

from __future__ import annotations

from .model import Path, Value
from .syntax import NameRef, ValueRef


# ------------------------------------------------------------------ builders
# A template compiles into one Python function (names, values) -> model that
# builds, line by line, only the nodes holding placeholders; subtrees without
# placeholders are built once and shared (the model is immutable). Straight-line
# code, one node per line, so deep expressions need no deep recursion at run time.

class _Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.env: dict[str, object] = {"Path": Path, "Value": Value}

    def constant(self, obj) -> str:
        name = f"c{len(self.env)}"
        self.env[name] = obj
        return name

    def emit(self, expression: str) -> str:
        name = f"t{len(self.lines)}"
        self.lines.append(f"    {name} = {expression}")
        return name

    def node(self, node) -> tuple[str, bool]:
        """(Python name of the rebuilt node, whether it is a shared constant)."""
        kind = type(node)
        if kind is ValueRef:
            return self.emit(f"Value(values[{node.key!r}])"), False
        if kind is Path:
            if not any(type(e) is NameRef for e in node.elements):
                return self.constant(node), True
            elements = "".join(f"names[{e.key!r}], " if type(e) is NameRef else f"{e!r}, "
                               for e in node.elements)
            return self.emit(f"Path(({elements}))"), False
        if kind is tuple:
            parts = []
            for item in node:  # loops, not comprehensions: one frame less per nesting level
                parts.append(self.node(item))
            if all(constant for _, constant in parts):
                return self.constant(node), True
            return self.emit("(" + "".join(f"{name}, " for name, _ in parts) + ")"), False
        parts = []
        for slot in kind.__slots__:
            field = getattr(node, slot)
            parts.append((repr(field), True) if type(field) is str else self.node(field))
        if all(constant for _, constant in parts):
            return self.constant(node), True
        arguments = ", ".join(name for name, _ in parts)
        return self.emit(f"{self.constant(kind)}({arguments})"), False


def compile_builder(template):
    """The function (names, values) -> model node that substitutes ``template``'s placeholders."""
    emitter = _Emitter()
    result, constant = emitter.node(template)
    if constant:
        value = emitter.env[result]
        return lambda names, values: value
    source = "def build(names, values):\n" + "\n".join(emitter.lines) + f"\n    return {result}\n"
    exec(compile(source, "<expression builder>", "exec"), emitter.env)
    return emitter.env["build"]
