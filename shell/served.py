"""A shell on a file that ``partiql serve`` serves, when that server is gone: offer to open the file here.

The shell connected through the server because the server held the file
(``partiql.connect(FILE)`` follows the lock's URL). When a request then finds
no one listening and the file is free (the server exited, and its lock went
with it), an interactive shell asks whether to open the file itself, and goes
on with it: the transaction queue, parameters and settings are the session's
and stay. A script is told how (it never changes databases on its own). A
file still held (a server that hangs, or one starting again) is left alone.
"""

from __future__ import annotations

from partiql.engine.storage.file_lock import holder


def offer_local(session) -> None:
    """After an unreachable endpoint: open the served file here, if it is free and the user agrees."""
    path = getattr(session.db, "served_file", None)
    if path is None or holder(path)[0]:
        return
    if session.confirm is None:
        session.notice(f"hint: the server of {path} is gone and the file is free: partiql {path} opens it here")
        return
    if not session.confirm(f"The server of {path} is gone and the file is free. Open it here?"):
        return
    import partiql

    try:
        fresh = partiql.connect(path, **session.local_options)
    except (OSError, ValueError) as error:  # StorageError, DatabaseLocked (someone was quicker)
        session.notice(f"cannot open {path}: {error}", "error")
        return
    fresh.scan_policy = session.db.scan_policy
    session.db.close()
    session.replace_connection(fresh)
    where = f"through the server at {fresh.where}" if fresh.remote else "on the file itself"
    session.notice(f"opened {path}: statements run {where}")
