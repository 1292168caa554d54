"""``.help`` laid out for an 80-column terminal, and its topics: the DDL syntax and transactions (issue #13.5)."""

from __future__ import annotations

import textwrap

from . import blocks

WIDTH = 80
USAGE_COLUMN = 26  # a longer usage puts its description on the next line

CREATE_HELP = """CREATE TABLE [IF NOT EXISTS] name [(attr TYPE, …)]
  PRIMARY KEY (attr [TYPE] HASH [, attr [TYPE] RANGE])
  [BILLING MODE PROVISIONED (r RCU, w WCU) | BILLING MODE ON DEMAND]
  [GSI (index ON (attr [TYPE] HASH [, attr [TYPE] RANGE])
        PROJECTING ALL | KEYS ONLY | INCLUDE (attr, …)
        [PROVISIONED (r RCU, w WCU)])]
  [LSI (index ON (attr HASH, attr [TYPE] RANGE) PROJECTING …)]
  [STREAM NEW_AND_OLD_IMAGES | NEW_IMAGE | OLD_IMAGE | KEYS_ONLY]
TYPE is STRING, NUMBER or BINARY (S, N, B); every key attribute needs one,
in the column list or in the key. A GSI may be keyed on up to four HASH and
four RANGE attributes, HASH ones first, in the order a Query pins them
(DynamoDB's multi-attribute keys). Examples:

  CREATE TABLE GameScores
    PRIMARY KEY (UserId STRING HASH, GameTitle STRING RANGE)
    GSI (ByTitle ON (GameTitle HASH, TopScore NUMBER RANGE) PROJECTING ALL);
  CREATE TABLE Orders PRIMARY KEY (OrderId STRING HASH)
    GSI (ByTenantRegion ON (TenantId STRING HASH, Region STRING HASH,
                            Status STRING RANGE, CreatedAt NUMBER RANGE)
         PROJECTING ALL);"""

ALTER_HELP = """ALTER TABLE name SET BILLING MODE PROVISIONED (r RCU, w WCU) | ON DEMAND
ALTER TABLE name CREATE GSI (index ON (attr [TYPE] HASH [, attr [TYPE] RANGE])
                             PROJECTING ALL | KEYS ONLY | INCLUDE (attr, …))
ALTER TABLE name DROP GSI index
ALTER TABLE name SET STREAM NEW_AND_OLD_IMAGES | NEW_IMAGE | OLD_IMAGE
                             | KEYS_ONLY
ALTER TABLE name DROP STREAM
DROP TABLE [IF EXISTS] name
A new index's key attribute takes its type from the key or from the table's
attributes; a new index that holds none of the table's items says why. Example:

  ALTER TABLE Orders CREATE GSI
    (ByTotal ON (Status STRING HASH, Total NUMBER RANGE) PROJECTING ALL);"""

TOPICS = {"create": CREATE_HELP, "alter": ALTER_HELP, "drop": ALTER_HELP,
          **{word: blocks.HELP for word in blocks.TOPICS}}


def topic(argument: str) -> str | None:
    """The help of a topic word (``CREATE``, ``alter``, ``transaction``, …), or None."""
    return TOPICS.get(argument.strip().rstrip(";").lower())


def command_lines(chosen: list) -> list[str]:
    """One entry a command: its usage, and its description wrapped at 80 columns, never mid-word."""
    lines = []
    for entry in chosen:
        usage = f"{entry.name} {entry.usage}".rstrip()
        text = entry.summary + (f" (also {', '.join(entry.aliases)})" if entry.aliases else "")
        indent = " " * (USAGE_COLUMN + 2)
        wrapped = textwrap.wrap(text, WIDTH - len(indent), break_long_words=False, break_on_hyphens=False)
        if len(usage) > USAGE_COLUMN:
            lines.append(usage)
            lines += [indent + line for line in wrapped]
        else:
            lines.append(usage.ljust(USAGE_COLUMN) + "  " + wrapped[0])
            lines += [indent + line for line in wrapped[1:]]
    return lines


def paragraph(text: str) -> list[str]:
    """``text`` wrapped at 80 columns."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)
