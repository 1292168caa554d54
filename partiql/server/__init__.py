"""``partiql serve``: DynamoDB's HTTP API over a partiql-ddb database.

Every AWS SDK, the AWS CLI and GUI tools reach the database through
DynamoDB's JSON 1.0 protocol. ``handler.Handler.handle`` is the protocol
without sockets; ``runner.Server`` serves it with uvicorn (imported only
when serving); ``targets`` maps ``X-Amz-Target`` prefixes to APIs;
``ttl`` expires items; ``sigv4`` verifies signatures; ``cli`` is the command.
"""

from __future__ import annotations

from .runner import Server

__all__ = ["Server"]
