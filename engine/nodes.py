"""``@node``: immutable value classes for syntax trees, cheap to define.

The PartiQL AST and the expression model define ~80 small frozen classes.
``dataclasses.dataclass(frozen=True, slots=True)`` generates each with half a
dozen ``exec`` calls and builds every class twice, which cost ~50 ms of the
shell's start-up; ``node`` generates the same methods (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, frozen ``__setattr__``) with one
``exec`` per class. ``_fields`` lists the fields in order, like
``dataclasses.fields``, and ``__slots__`` holds them.
"""

from __future__ import annotations

_MISSING = object()


def node(cls):
    """Turn an annotated class into a frozen, slotted value class."""
    names = tuple(name for name in cls.__dict__.get("__annotations__", {}))
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    body = {key: value for key, value in cls.__dict__.items()
            if key not in names and key not in ("__dict__", "__weakref__")}
    body["__slots__"] = names
    body["_fields"] = names
    new = type(cls)(cls.__name__, cls.__bases__, body)
    new.__qualname__ = cls.__qualname__
    # why each slot's own setter: a frozen class cannot assign its fields, and calling the slot's
    # descriptor skips the lookup by name that ``object.__setattr__`` makes (a third of a field's cost)
    scope = {"_cls": new, **{f"_d_{n}": v for n, v in defaults.items()},
             **{f"_set_{n}": new.__dict__[n].__set__ for n in names}}
    exec(_source(names, defaults), scope)
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        setattr(new, method, scope[method])
    return new


def _source(names: tuple, defaults: dict) -> str:
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in names)
    sets = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
    fields = "".join(f"self.{n}, " for n in names)
    other = " and ".join(f"self.{n} == other.{n}" for n in names) or "True"
    shown = ", ".join(f"{n}={{self.{n}!r}}" for n in names)
    return (
        f"def __init__(self, {params}):\n{sets}"
        f"def __repr__(self):\n    return f'{{type(self).__qualname__}}({shown})'\n"
        f"def __eq__(self, other):\n"
        f"    if type(other) is not type(self):\n        return NotImplemented\n"
        f"    return {other}\n"
        f"def __hash__(self):\n    return hash((type(self).__name__, {fields}))\n"
        f"def __setattr__(self, name, value):\n"
        f"    raise AttributeError(f'cannot assign to field {{name!r}} of a frozen node')\n"
        f"def __delattr__(self, name):\n"
        f"    raise AttributeError(f'cannot delete field {{name!r}} of a frozen node')\n")
