"""numpy's copy of one HASH value's entries, kept as writes come (the shortlist of ``index.VectorIndex``).

The vectors are the rows of one 32-bit matrix (grown by doubling), with each row's squared norm, its entry and
whether it is alive. A write puts its entry in its key's row (a new key: the next row) and a delete marks the
row dead, so a search after a write costs no rebuild; when more than half the rows are dead the index drops
the matrix and the next search builds it anew (compact).
"""

from __future__ import annotations

MINIMUM_ROWS = 16


class Matrix:
    """The rows of one HASH value's entries."""

    def __init__(self, np, entries: list, dimensions: int):
        self.np = np
        rows = max(MINIMUM_ROWS, len(entries))
        self.data = np.zeros((rows, dimensions), dtype=np.float32)
        if entries:
            self.data[:len(entries)] = np.frombuffer(b"".join(entry.vector.tobytes() for entry in entries),
                                                     dtype=np.float32).reshape(len(entries), dimensions)
        self.squares = np.zeros(rows, dtype=np.float64)
        self.squares[:len(entries)] = [entry.square for entry in entries]
        self.alive = np.zeros(rows, dtype=bool)
        self.alive[:len(entries)] = True
        self.entries = list(entries) + [None] * (rows - len(entries))
        self.rows = {entry.key: row for row, entry in enumerate(entries)}
        self.size = len(entries)  # rows in use, alive or dead
        self.dead = 0

    def put(self, entry) -> None:
        """``entry`` in its key's row (a new key: the next row)."""
        row = self.rows.get(entry.key)
        if row is None:
            if self.size == len(self.entries):
                self._grow()
            row, self.size = self.size, self.size + 1
            self.rows[entry.key] = row
        elif not self.alive[row]:
            self.dead -= 1
        self.data[row] = self.np.frombuffer(entry.vector.tobytes(), dtype=self.np.float32)
        self.squares[row], self.alive[row], self.entries[row] = entry.square, True, entry

    def remove(self, key: tuple) -> None:
        row = self.rows.pop(key)
        self.alive[row], self.entries[row] = False, None
        self.dead += 1

    @property
    def wasteful(self) -> bool:
        """Whether more than half its rows are dead (then it is dropped and built again)."""
        return self.dead > MINIMUM_ROWS and self.dead * 2 > self.size

    def _grow(self) -> None:
        np = self.np
        rows = 2 * len(self.entries)
        data = np.zeros((rows, self.data.shape[1]), dtype=np.float32)
        data[:self.size] = self.data[:self.size]
        squares, alive = np.zeros(rows, dtype=np.float64), np.zeros(rows, dtype=bool)
        squares[:self.size], alive[:self.size] = self.squares[:self.size], self.alive[:self.size]
        self.data, self.squares, self.alive = data, squares, alive
        self.entries += [None] * (rows - len(self.entries))
