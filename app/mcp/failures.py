"""What a call through a connection can end in besides an answer, apart from the SDK (so the pool
can name them without importing it: the SDK takes seconds to import, and loads only when a server
first starts)."""

from __future__ import annotations


class CallTimedOutError(Exception):
    """The server did not answer within the call's timeout (the SDK cancelled the request)."""


class ConnectionClosedError(Exception):
    """The connection ended: the server crashed, was killed or closed its end."""


class ServerRefusedError(Exception):
    """The server answered with a JSON-RPC error; the message is its own."""
