"""TransactWriteItems and TransactGetItems on model objects, with idempotency tokens (item-api §5.15, §5.16).

A mixin of ``Engine``: every method runs under the engine lock, so a
transaction is isolated and all-or-nothing; a throttled transaction is
cancelled naming its throttled member (spec throughput.md §5).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import limits
from .actions import NOT_FOUND, WriteAction, collections_of
from .capacity import Consumed
from .errors import (CancellationReason, ConditionalCheckFailedException, DynamoDBError,
                     IdempotentParameterMismatchException, TransactionCanceledException, ValidationException,
                     reason_code)
from .partition import Record
from .table import Mutation
from .throughput import Draw
from .throughput.draws import read_resource, write_draws
from .throughput.metrics import READ


@dataclass
class _Idempotent:
    fingerprint: object
    at: float
    result: object


class Transactions:
    """The transaction operations of ``Engine``."""

    def transact_write(self, actions: list[WriteAction], token: str | None = None,
                       fingerprint=None, metrics: list | None = None) -> list[Consumed]:
        """TransactWriteItems: every condition, then every write, or nothing.

        Returns each action's capacity (``per_table`` sums them as DynamoDB reports).

        All conditions are evaluated (no short-circuit); when an action hits a
        validation problem only the first such action is reported (item-api §5.15).
        """
        with self.lock:
            replay = self._replay(token, fingerprint)
            if replay is not None:
                return replay
            consumed, hold = self._transact_write(actions, token, fingerprint, metrics)
        if hold:  # (realism: the transaction's answer comes when it ends; others meet its items meanwhile)
            self.realism.wait(self, hold)
        return consumed

    def _transact_write(self, actions: list[WriteAction], token, fingerprint, metrics) -> tuple:
        """The transaction under the lock: its capacity, and the seconds realism holds its items (0: none)."""
        self._check_distinct(actions, "Transaction request cannot include multiple operations on one item")
        outcomes = [self._prepare_transactional(action) for action in actions]
        reasons = [reason for _, reason in outcomes]
        invalid = [i for i, reason in enumerate(reasons) if reason.code == "ValidationError"]
        if invalid:
            reasons = [reason if i == invalid[0] else CancellationReason()
                       for i, reason in enumerate(reasons)]
        if any(reason.code != "None" for reason in reasons):
            raise TransactionCanceledException(reasons)
        if self.throughput.on:
            self._admit_transaction([mutation for mutation, _ in outcomes])
        writes = [mutation for action, (mutation, _) in zip(actions, outcomes)
                  if action.kind != "ConditionCheck"]
        self.apply(writes)
        collections_of(metrics, writes)
        consumed = [mutation.consumed for mutation, _ in outcomes]
        self._remember(token, fingerprint, consumed)
        realism = self.realism
        return consumed, (realism.transacted(self, [m for m, _ in outcomes]) if realism is not None else 0.0)

    def _prepare_transactional(self, action: WriteAction) -> tuple[Mutation | None, CancellationReason]:
        table = self.tables.get(action.table)
        if table is None:
            return None, CancellationReason("ResourceNotFound", NOT_FOUND)
        try:
            located = table.locate(*self._action_key(table, action))
            old = table.lookup(located)
            self._check_statement_size(table, action, old)
        except ValidationException as error:
            return None, CancellationReason("ValidationError", error.message)
        if self.realism is not None and self.realism.holds(self, "TransactWriteItems", table.name, located):
            return None, self.realism.conflict_reason()
        try:
            self._check_condition(action, old)
        except ConditionalCheckFailedException as error:
            code, message = action.failure
            return None, CancellationReason(code, message, error.item)
        try:
            return self._mutation(table, action, located, old, transactional=True), CancellationReason()
        except ValidationException as error:
            return None, CancellationReason("ValidationError", error.message)
        except DynamoDBError as error:
            return None, CancellationReason(reason_code(error), error.message)

    def _admit_transaction(self, mutations: list[Mutation]) -> None:
        """Admit a transaction whole (charged) or cancel it naming the throttled member (spec §5)."""
        draws, owners = [], []
        for position, mutation in enumerate(mutations):
            found = write_draws(self.throughput.state(mutation.table), mutation)
            draws += found
            owners += [position] * len(found)
        refusal = self.throughput.verdict(draws)
        if refusal is not None and self.throughput.enforcing:
            self._cancel_throttled(len(mutations), owners[_position_of(draws, refusal.draw)], refusal)

    @staticmethod
    def _cancel_throttled(count: int, position: int, refusal) -> None:
        error = refusal.error()
        reasons = [CancellationReason() for _ in range(count)]
        reasons[position] = CancellationReason(reason_code(error), error.message)
        raise TransactionCanceledException(reasons)

    def transact_get(self, reads: list[tuple[str, tuple]]) -> tuple[list[Record | None], list[Consumed]]:
        """TransactGetItems: every record read at one instant; 2 × R(b) each."""
        with self.lock:
            self._check_distinct([WriteAction("Get", t, k) for t, k in reads],
                                 "Transaction request cannot include multiple operations on one item")
            tables = [self.table(table_name) for table_name, _ in reads]
            if self.realism is not None:  # (an ongoing transaction's items cancel it: TransactionConflict)
                self.realism.transact_reads(self, tables, [key for _, key in reads])
            draws = self._admit_transact_reads(tables, reads) if self.throughput.on else None
            records, consumed = [], []
            for table, (_, key) in zip(tables, reads):
                record = table.lookup(table.locate(*key))
                units = self._read_units(table, record, True, True)
                records.append(record)
                consumed.append(units)
            if draws:
                for draw, units in zip(draws, consumed):
                    draw.units = units.read_units
                self.throughput.charge(draws)
            return records, consumed

    def _admit_transact_reads(self, tables: list, reads: list) -> list:
        """The draws to charge once the reads ran (none when report mode serves a refused one)."""
        draws = []
        for table, (_, key) in zip(tables, reads):
            h, pk, sort = table.locate(*key)
            resource = read_resource(self.throughput.state(table), None)
            draws.append(Draw(resource, READ, h, 0.0, pk, sort[0] if sort else None))
        refusal = self.throughput.verdict(draws, reading=True)
        if refusal is None:
            return draws
        if self.throughput.enforcing:
            self._cancel_throttled(len(draws), _position_of(draws, refusal.draw), refusal)
        return []

    def _check_distinct(self, actions, message: str) -> None:
        seen = set()
        for action in actions:
            table = self.tables.get(action.table)
            if table is None:
                continue
            try:
                key = self._action_key(table, action)
            except ValidationException:  # why: a key of the wrong type cancels the transaction with this
                continue                  # action's ValidationError reason (recorded-2026-11 A5), below
            located = (action.table, *table.locate(*key)[1:])
            if located in seen:
                raise ValidationException(message)
            seen.add(located)

    def _replay(self, token, fingerprint):
        if token is None:
            return None
        now = self.epoch()
        self._tokens = {t: e for t, e in self._tokens.items()
                        if now - e.at < limits.IDEMPOTENCY_WINDOW_SECONDS}
        entry = self._tokens.get(token)
        if entry is None:
            return None
        if entry.fingerprint != fingerprint:
            raise IdempotentParameterMismatchException()
        return entry.result

    def _remember(self, token, fingerprint, result) -> None:
        if token is not None:
            self._tokens[token] = _Idempotent(fingerprint, self.epoch(), result)


def _position_of(draws: list, draw) -> int:
    return next(i for i, found in enumerate(draws) if found is draw)
