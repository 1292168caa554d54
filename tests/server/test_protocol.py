"""OneSend: a response's head and body leave in one write (the delayed-ACK trap, issue #14 point 2)."""

from __future__ import annotations

from partiql.server.protocol import OneSend


class Transport:
    def __init__(self):
        self.writes, self.closed = [], False

    def write(self, data):
        self.writes.append(data)

    def close(self):
        self.closed = True

    def get_extra_info(self, name):
        return f"info:{name}"


class Loop:
    def __init__(self):
        self.soon = []

    def call_soon(self, callback):
        self.soon.append(callback)
        return Handle()

    def run_soon(self):
        for callback in self.soon:
            callback()


class Handle:
    def __init__(self):
        self.cancelled = False

    def cancel(self):
        self.cancelled = True


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


def test_head_and_body_are_one_write():
    transport, loop = Transport(), Loop()
    wrapped = OneSend(transport, loop)
    wrapped.write(HEAD)
    wrapped.write(b"{}")
    loop.run_soon()
    assert transport.writes == [HEAD + b"{}"]


def test_a_head_alone_is_flushed_at_the_end_of_the_iteration():
    transport, loop = Transport(), Loop()
    OneSend(transport, loop).write(HEAD)
    assert transport.writes == []
    loop.run_soon()
    assert transport.writes == [HEAD]


def test_close_flushes_first_and_other_writes_pass_through():
    transport, loop = Transport(), Loop()
    wrapped = OneSend(transport, loop)
    wrapped.write(b"chunk")
    wrapped.write(HEAD)
    wrapped.close()
    assert transport.writes == [b"chunk", HEAD] and transport.closed
    assert wrapped.get_extra_info("socket") == "info:socket"
