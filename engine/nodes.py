"""``@node``: immutable value classes for syntax trees, cheap to define.

The PartiQL AST and the expression model define ~80 small frozen classes.
``dataclasses.dataclass(frozen=True, slots=True)`` generates each with half a
dozen ``exec`` calls and builds every class twice, which cost ~50 ms of the
shell's start-up; ``node`` gives the same methods (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, frozen ``__setattr__``) with one
small ``exec`` per class (``__init__``; the others are shared). ``_fields``
lists the fields in order, like ``dataclasses.fields``, and ``__slots__``
holds them.
"""

from __future__ import annotations


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
    scope = {**{f"_d_{n}": v for n, v in defaults.items()}, **{f"_set_{n}": new.__dict__[n].__set__ for n in names}}
    exec(_init_source(names, defaults), scope)
    new.__init__ = scope["__init__"]
    for method in (__repr__, __eq__, __hash__, __setattr__, __delattr__):
        setattr(new, method.__name__, method)
    return new


def _init_source(names: tuple, defaults: dict) -> str:
    """``__init__`` written out: it runs for every node a parse builds (the other methods are shared,
    as compiling them for each of ~80 classes was a tenth of the shell's start-up)."""
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in names)
    sets = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
    return f"def __init__(self, {params}):\n{sets}"


def _values(self) -> tuple:
    return tuple(getattr(self, name) for name in self._fields)


def __repr__(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
    return f"{type(self).__qualname__}({shown})"


def __eq__(self, other) -> bool:
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def __hash__(self) -> int:
    return hash((type(self).__name__, *_values(self)))


def __setattr__(self, name, value):
    raise AttributeError(f"cannot assign to field {name!r} of a frozen node")


def __delattr__(self, name):
    raise AttributeError(f"cannot delete field {name!r} of a frozen node")
