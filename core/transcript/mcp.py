"""The transcript row of an MCP tool call (kind ``mcp``): its server, its state, the images and
links it returned. Pure: no I/O, no Qt, no words (``ui.wording.call_state_text`` says a state).

How a call's row follows the log (desktop.md §MCP):

- ``assistant/message`` with a call whose name is none of the reminder tools, in a turn still
  running: ``WAITING`` (the person is asked first; the log holds no trace of the question);
- ``tool/start`` for it: ``RUNNING``;
- ``tool/result``: with a ``server`` it stays an MCP row and its ``outcome`` (or ``isError``)
  gives the final state; without one (a tool this version does not know, refused at once) it
  is an ordinary ``tool`` row again;
- the turn ends while the call has no result: a running one is ``UNFINISHED`` (Chime stopped
  during the call, which is never run again); one still waiting was never run and is an ordinary
  ``tool`` row again.
"""

from __future__ import annotations

import re
from enum import StrEnum

from core.events import Attachment, ToolLink, ToolResult
from core.frozen import frozen
from core.readable import ToolKind

_REMINDER_TOOLS = frozenset(kind.value for kind in ToolKind) - {ToolKind.OTHER.value}
_OUTSIDE_NAME = re.compile(r"[^A-Za-z0-9_-]")


class CallState(StrEnum):
    """Where an MCP call stands."""

    WAITING = "waiting"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    DENIED = "denied"
    CANCELLED = "cancelled"
    UNFINISHED = "unfinished"
    TIMEOUT = "timeout"


_OUTCOMES = {
    "denied": CallState.DENIED,
    "cancelled": CallState.CANCELLED,
    "unfinished": CallState.UNFINISHED,
    "timeout": CallState.TIMEOUT,
    "failed": CallState.FAILED,
}
OPEN_STATES = frozenset({CallState.WAITING, CallState.RUNNING})


@frozen
class McpCall:
    """An MCP row's values: ``server`` ("" until the log names it), ``tool`` (the server's own
    name of the tool when the exposed name shows it, else the exposed name), ``state``, and the
    result's ``images`` (files of the session's attachments) and resource ``links``."""

    server: str
    tool: str
    state: CallState
    images: tuple[Attachment, ...] = ()
    links: tuple[ToolLink, ...] = ()


def may_be_mcp(name: str) -> bool:
    """A call of this name is not a reminder tool: it may be an MCP server's."""
    return name not in _REMINDER_TOOLS


def tool_name(server: str, exposed: str) -> str:
    """The server's own tool name read off the exposed ``<server>__<tool>`` name (the exposed
    name itself when it does not start so)."""
    prefix = _OUTSIDE_NAME.sub("_", server) + "__"
    if server and exposed.startswith(prefix) and len(exposed) > len(prefix):
        return exposed[len(prefix) :]
    return exposed


def state_of(result: ToolResult) -> CallState:
    """The final state a result says."""
    if result.outcome is not None:
        return _OUTCOMES.get(result.outcome, CallState.FAILED)
    return CallState.FAILED if result.is_error else CallState.DONE


def waiting(call: McpCall | None, name: str) -> McpCall:
    """A new call's values: waiting for the person's answer."""
    return call or McpCall("", name, CallState.WAITING)


def started(call: McpCall | None, name: str) -> McpCall:
    """The call's values once ``tool/start`` says it runs."""
    base = call or McpCall("", name, CallState.RUNNING)
    return replace_call(base, state=CallState.RUNNING)


def finished(call: McpCall | None, name: str, result: ToolResult) -> McpCall | None:
    """The call's values once its result arrived; None when the result is no MCP server's."""
    if result.server is None:
        return None
    return McpCall(
        result.server,
        tool_name(result.server, name),
        state_of(result),
        result.images,
        result.links,
    )


def closed(call: McpCall) -> McpCall | None:
    """At the end of its turn: a running call without result is unfinished; one still waiting
    never ran (None: an ordinary tool row); any other stays as it is."""
    match call.state:
        case CallState.RUNNING:
            return replace_call(call, state=CallState.UNFINISHED)
        case CallState.WAITING:
            return None
        case _:
            return call


def replace_call(call: McpCall, *, state: CallState) -> McpCall:
    """``call`` in another state (``frozen`` values have no ``dataclasses.replace``)."""
    return McpCall(call.server, call.tool, state, call.images, call.links)


__all__ = [
    "OPEN_STATES",
    "CallState",
    "McpCall",
    "closed",
    "finished",
    "may_be_mcp",
    "started",
    "state_of",
    "tool_name",
    "waiting",
]
