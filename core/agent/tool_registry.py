"""Tool names → handlers for the agent's tool runtime. Owns decoding arguments and turning every
failure into a tool result for the model (agent.md §3). Must not know which tools exist.

Result rules (written down here, the spec leaves the wording open):

- Arguments are the model's raw JSON text: ``""`` (or only whitespace) means ``{}``; text that is not
  JSON, or that the bounded decode refuses (``core.jsonread.TOOL_ARGUMENTS``: too large, nested
  too deeply, a number out of range), is an error result saying why, and the handler does not run.
- A name no toolset declared is an error result (``isError: true``) naming the known tools.
- ``ToolArgumentError`` from a handler is an error result carrying its message.
- A handler's return value is the tool's value: rendered with ``compact_json`` (schedule.md §2.7),
  ``isError: false`` even when the value is a schedule error object (those are ordinary values).
- Any other exception is an error result with a generic sentence; the registry's caller logs it.
  Cancellation is never caught.

A toolset may also be *prepared* and *recorded* (``PreparedToolset``, the MCP tools of
``core.mcp.toolset``): ``prepare(prompt_tokens)`` is awaited before each model request (its
definitions may change: a server started, tools listed, the budget fitted), and its calls run
through ``run_call``, which returns the whole ``ToolOutcome`` (server, images, links, outcome) and
awaits ``on_start(server)`` (the turn's ``tool/start`` and barrier) right before the call goes out.
A registry with no prepared toolset never rebuilds: its requests are exactly as before.

All registered tools are exclusive: the agent runs a step's tool calls one after another, never in
parallel (schedule.md §12).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from core.errors import ToolArgumentError
from core.events import Attachment, ToolLink, ToolOutcomeKind
from core.jsonread import TOOL_ARGUMENTS, JsonRefusedError, parse_json
from core.jsonvalue import compact_json

OnStart = Callable[[str], Awaitable[None]]
"""Awaited right before a recorded call goes out, with its server's name."""


class Toolset(Protocol):
    """What the registry needs from a group of tools (``ScheduleTools`` satisfies it)."""

    def definitions(self) -> Sequence[Mapping[str, Any]]: ...

    async def call(self, name: str, arguments: Any) -> object: ...


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    content: str
    is_error: bool
    failure: BaseException | None = None
    """The unexpected exception behind an internal error result, for the caller to log."""
    server: str | None = None
    images: tuple[Attachment, ...] = ()
    links: tuple[ToolLink, ...] = ()
    outcome: ToolOutcomeKind | None = None


@runtime_checkable
class PreparedToolset(Toolset, Protocol):
    """A toolset whose definitions are worked out before each request and whose calls are
    recorded (``tool/start`` first) and answered with a whole ``ToolOutcome``."""

    async def prepare(self, prompt_tokens: int | None) -> None: ...

    async def run_call(
        self, call_id: str, name: str, arguments: Any, on_start: OnStart
    ) -> ToolOutcome: ...

    def server_of(self, name: str) -> str | None: ...


class ToolRegistry:
    """An ordered set of toolsets; a tool name belongs to the first toolset that declares it."""

    def __init__(self, toolsets: Sequence[Toolset] = ()) -> None:
        self._toolsets: list[Toolset] = []
        self._handlers: dict[str, Toolset] = {}
        self._definitions: list[dict[str, Any]] = []
        for toolset in toolsets:
            self.register(toolset)

    def register(self, toolset: Toolset) -> None:
        self._toolsets.append(toolset)
        self._declare(toolset)

    async def prepare(self, prompt_tokens: int | None) -> None:
        """Prepares the prepared toolsets for the next request and declares their tools anew
        (nothing happens when there is none)."""
        prepared = [t for t in self._toolsets if isinstance(t, PreparedToolset)]
        if not prepared:
            return
        for each in prepared:
            await each.prepare(prompt_tokens)
        self._handlers, self._definitions = {}, []
        for toolset in self._toolsets:
            self._declare(toolset)

    def _declare(self, toolset: Toolset) -> None:
        for definition in toolset.definitions():
            name = str(definition.get("function", {}).get("name", ""))
            if name and name not in self._handlers:
                self._handlers[name] = toolset
                self._definitions.append(dict(definition))

    def server_of(self, name: str) -> str | None:
        """The server behind tool ``name`` (None: a tool of Chime's own, or no such tool)."""
        handler = self._handlers.get(name)
        return handler.server_of(name) if isinstance(handler, PreparedToolset) else None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._handlers)

    def definitions(self) -> tuple[dict[str, Any], ...]:
        return tuple(self._definitions)

    async def run(
        self,
        name: str,
        raw_arguments: str,
        *,
        before_call: Callable[[], Awaitable[object]] | None = None,
        call_id: str = "",
        on_start: OnStart | None = None,
    ) -> ToolOutcome:
        """Decodes and runs one call. ``before_call`` (the agent's barrier) is awaited only once
        the name is known and the arguments decoded, right before the handler runs; a prepared
        toolset's call gets ``call_id`` and ``on_start``."""
        handler = self._handlers.get(name)
        if handler is None:
            known = ", ".join(self._handlers) or "none"
            return ToolOutcome(f"Unknown tool {name!r}. Available tools: {known}.", is_error=True)
        try:
            arguments = decode_arguments(raw_arguments)
        except JsonRefusedError as error:
            return ToolOutcome(f"The arguments are not valid JSON: {error.detail}.", is_error=True)
        if before_call is not None:
            await before_call()
        if isinstance(handler, PreparedToolset):
            return await handler.run_call(call_id, name, arguments, on_start or _no_start)
        try:
            value = await handler.call(name, arguments)
            return ToolOutcome(compact_json(value), is_error=False)
        except ToolArgumentError as error:
            return ToolOutcome(str(error) or "Invalid arguments.", is_error=True)
        except Exception as error:  # a tool bug must become a result for the model, not a crash
            return ToolOutcome(
                f"The tool {name} failed unexpectedly.", is_error=True, failure=error
            )


async def _no_start(_server: str) -> None:
    return None


def decode_arguments(raw: str) -> Any:
    """The model's argument text as a JSON value; blank text is ``{}``. Raises JsonRefusedError."""
    if not raw.strip():
        return {}
    return parse_json(raw, TOOL_ARGUMENTS)
