"""Shared by the tests that check returned items are the caller's own copies."""


def vandalise(value) -> None:
    """Change every map and list inside ``value``, innermost first, and ``value`` itself."""
    children = value.values() if isinstance(value, dict) else value
    for child in list(children):
        if isinstance(child, (dict, list)):
            vandalise(child)
    if isinstance(value, dict):
        value["vandal"] = 99
    else:
        value.append("vandal")
