"""Which name a mistyped one was meant to be: the matching the hints and the shell's meta-commands share."""

from __future__ import annotations

import difflib

CLOSE = 0.75  # difflib ratio from which a name or keyword counts as a near miss


def close(name: str, target: str) -> bool:
    """Whether ``name`` is ``target`` but for case, or a close spelling of it."""
    return name.lower() == target.lower() or difflib.SequenceMatcher(
        None, name.lower(), target.lower()).ratio() >= CLOSE


def nearest_name(name: str, names: list) -> str | None:
    """The one of ``names`` ``name`` was most likely meant to be (the same but for case, else a close
    spelling), or None."""
    exact = [n for n in names if n.lower() == name.lower()]
    if exact:
        return exact[0]
    found = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return found[0] if found else None
