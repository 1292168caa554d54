"""Issue #13's acceptance: a data modeller's game-scores session, typed into the interactive shell's own
loop (prompt_toolkit's pipe input), end to end: a typed numeric GSI key added with ALTER, the leaderboard
read with ``.limit 3`` and ``.next``, a transaction that fails with its reasons table, and the hints for a
double-quoted string and for a Scan an index would answer."""

from __future__ import annotations

import threading

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import partiql
from partiql.shell import repl

PLAYERS = [("u101", "Galaxy Invaders", 5842), ("u102", "Galaxy Invaders", 1000), ("u103", "Galaxy Invaders", 7000),
           ("u104", "Galaxy Invaders", 3000), ("u105", "Galaxy Invaders", 6500), ("u101", "Meteor Blasters", 1200)]
SESSION = [
    "CREATE TABLE GameScores PRIMARY KEY (UserId STRING HASH, GameTitle STRING RANGE);",
    *(f"INSERT INTO GameScores VALUE {{'UserId': '{u}', 'GameTitle': '{g}', 'TopScore': {s}}};"
      for u, g, s in PLAYERS),
    "ALTER TABLE GameScores CREATE GSI (Leaderboard ON (GameTitle HASH, TopScore NUMBER RANGE) PROJECTING ALL);",
    ".limit 3",
    "SELECT UserId, TopScore FROM \"GameScores\".\"Leaderboard\" WHERE GameTitle = 'Galaxy Invaders' "
    "ORDER BY TopScore DESC;",
    ".next",
    ".limit off",
    "BEGIN TRANSACTION;",
    "UPDATE GameScores SET TopScore = 9000 WHERE UserId = 'u102' AND GameTitle = 'Galaxy Invaders';",
    "INSERT INTO GameScores VALUE {'UserId': 'u101', 'GameTitle': 'Meteor Blasters', 'TopScore': 1};",
    "COMMIT;",
    ".queue",
    "ROLLBACK;",
    'SELECT * FROM GameScores WHERE UserId = "u102";',
    "SELECT UserId FROM GameScores WHERE GameTitle = 'Meteor Blasters';",
]


def test_the_game_scores_session(make_session):
    db = partiql.connect()
    session, streams = make_session(db, interactive=True)
    with create_pipe_input() as pipe:
        typist = threading.Thread(target=lambda: [pipe.send_text(line + "\r") for line in SESSION + ["\x04"]])
        typist.start()
        assert repl.run(session, input=pipe, output=DummyOutput()) == 0
        typist.join()
    out = streams.out.getvalue()
    lines = out.splitlines()

    # the numeric index key was typed: every item is in the index, and it is ordered by number
    assert "Table GameScores altered · UpdateTable on GameScores" in lines
    assert db.describe("GameScores")["GlobalSecondaryIndexes"][0]["ItemCount"] == 6

    # the leaderboard, three at a time: 7000, 6500, 5842, then 3000, 1000
    first = lines.index(next(line for line in lines if "u103" in line))
    assert [line.split("│")[1].strip() for line in lines[first:first + 3]] == ["u103", "u105", "u101"]
    assert "3 items · Query on GameScores.Leaderboard · 0.5 RCU (table 0, Leaderboard 0.5) · more: .next" in lines
    second = lines.index(next(line for line in lines if "u104" in line))
    assert [line.split("│")[1].strip() for line in lines[second:second + 2]] == ["u104", "u102"]
    assert "2 items · Query on GameScores.Leaderboard · 0.5 RCU (table 0, Leaderboard 0.5)" in lines

    # the transaction fails whole, with its reasons as a table; the UPDATE did not happen
    assert ("TransactionCanceledException: Transaction cancelled, please refer cancellation reasons for specific "
            "reasons [None, DuplicateItem]") in lines
    header = next(line for line in lines if "statement" in line and "code" in line)
    assert [cell.strip() for cell in header.split("│")[1:-1]] == ["#", "statement", "code", "message"]
    row = next(line for line in lines if "│ DuplicateItem" in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells[0] == "2" and cells[2:] == ["DuplicateItem", "Duplicate primary key exists in table"]
    assert db.execute("SELECT TopScore FROM GameScores WHERE UserId = 'u102' AND GameTitle = 'Galaxy Invaders'"
                      ).items == [{"TopScore": 1000}]
    # (a failed COMMIT keeps its queue: .queue shows it, ROLLBACK drops it)
    assert ("nothing was written; the 2 statements stay queued: COMMIT again, .queue shows them, ROLLBACK drops "
            "them") in lines
    assert "transaction: 2 queued" in lines and "transaction rolled back: 2 statements dropped, none run" in lines

    # the hints
    assert "warning: \"u102\" is an attribute name; strings take single quotes: 'u102'" in lines
    assert ('warning: GameScores.Leaderboard is keyed on GameTitle: FROM "GameScores"."Leaderboard" would be '
            "a Query") in lines
