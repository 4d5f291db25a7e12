"""The tools of a conversation's MCP servers as a toolset beside the reminder tools (a
``PreparedToolset`` of ``core.agent.tool_registry``). Owns which tools a request offers, the
person's approval of each call and what the log records of it; must not speak the protocol (the
injected ``McpClient``, ``app.mcp``, does) nor know Qt.

Before each request (``prepare``) the servers the conversation offers are asked for their tools
(the client starts a server on first use); a server that cannot be reached is reported with a
sentence and offers nothing this time. The tools get their exposed names (``core.mcp.naming``)
and are fitted to the tools' share of the budget; the ones left out are reported once per change.

A call (``run_call``): its arguments must be a JSON object; unless the person always allows the
tool, ``approve`` asks (Allow once / Always / Deny); DENY is an error result with
``outcome: "denied"`` telling the model the person refused. Allowed, ``on_start`` records
``tool/start`` durably, then the client calls the tool: its answer is read by
``core.mcp.results`` (images saved like attachments), a timeout or a failure (the server crashed
mid-call, an unreadable answer) is an error result with ``outcome`` ``timeout`` / ``failed``
and a sentence. Cancellation (Stop) propagates: the turn records ``outcome: "cancelled"``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from core.agent.tool_registry import OnStart, ToolOutcome
from core.events import Attachment
from core.jsonread import TOOL_TEXT, JsonRefusedError, parse_json
from core.mcp.naming import exposed_names, fit_tools
from core.mcp.results import bounded, read_result
from core.mcp.types import ApprovalRequest, Decision, ToolInfo

MAX_DESCRIPTION = 4096
"""Characters of a tool's description the model reads (the person sees it whole in Settings)."""
MAX_ARGUMENTS_SHOWN = 16 * 1024
_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


class McpCallError(Exception):
    """A call or a listing that did not give an answer: ``kind`` and one sentence."""

    def __init__(self, kind: Literal["timeout", "failed"], sentence: str) -> None:
        super().__init__(sentence)
        self.kind = kind
        self.sentence = sentence


class McpClient(Protocol):
    """What the toolset needs of the protocol side (``app.mcp.pool.McpPool``)."""

    async def list_tools(self, server: str) -> Sequence[ToolInfo]: ...

    async def call_tool(
        self, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> Mapping[str, Any]: ...


class AlwaysAllowed(Protocol):
    """The per-tool "always allow" the person chose (kept in settings, revocable there)."""

    def allows(self, server: str, tool: str) -> bool: ...

    def allow(self, server: str, tool: str) -> None: ...


@dataclass(frozen=True, slots=True)
class McpHooks:
    """The app's side: the client, the question to the person, what is kept, what is said."""

    client: McpClient
    approve: Callable[[ApprovalRequest], Awaitable[Decision]]
    always: AlwaysAllowed
    save_image: Callable[[str, bytes], Awaitable[Attachment | None]]
    report: Callable[[str], None]
    """One sentence for the window (a server that could not start, tools left out)."""


def denied_text(server: str, tool: str) -> str:
    return (
        f"The person denied this call of the tool {tool} (MCP server {server}). It did not run. "
        "Do not call it again unless they ask for it."
    )


class McpToolset:
    """The MCP tools ``offered()`` names for one session (``session_id``)."""

    def __init__(
        self,
        session_id: str,
        offered: Callable[[], Sequence[str]],
        hooks: McpHooks,
        reserved: Sequence[str] = (),
    ) -> None:
        self._session_id = session_id
        self._offered = offered
        self._hooks = hooks
        self._reserved = tuple(reserved)
        self._definitions: tuple[Mapping[str, Any], ...] = ()
        self._tools: dict[str, ToolInfo] = {}
        self._left_out: tuple[str, ...] = ()
        self._said: set[str] = set()
        """Sentences already reported (a server that cannot start is said once, not per step)."""

    def definitions(self) -> Sequence[Mapping[str, Any]]:
        return self._definitions

    async def call(self, name: str, arguments: Any) -> object:
        raise AssertionError("MCP calls run through run_call")  # pragma: no cover - registry

    async def prepare(self, prompt_tokens: int | None) -> None:
        infos: list[ToolInfo] = []
        said: set[str] = set()
        for server in dict.fromkeys(self._offered()):
            try:
                infos.extend(await self._hooks.client.list_tools(server))
            except McpCallError as error:
                said.add(error.sentence)
                if error.sentence not in self._said:
                    self._hooks.report(error.sentence)
        self._said = said
        names = exposed_names(((i.server, i.name) for i in infos), self._reserved)
        named = [replace(i, exposed=names[(i.server, i.name)]) for i in infos]
        tools = {info.exposed: info for info in named}
        fitted = fit_tools([_definition(info) for info in tools.values()], prompt_tokens)
        self._definitions = fitted.kept
        self._tools = tools
        if fitted.left_out and fitted.left_out != self._left_out:
            self._hooks.report(_left_out_sentence(len(tools), fitted.left_out))
        self._left_out = fitted.left_out

    def server_of(self, name: str) -> str | None:
        """The server of the offered tool ``name`` (None: not offered)."""
        info = self._tools.get(name)
        return info.server if info is not None else None

    async def run_call(
        self, call_id: str, name: str, arguments: Any, on_start: OnStart
    ) -> ToolOutcome:
        info = self._tools[name]
        server = info.server
        if not isinstance(arguments, dict):
            return ToolOutcome("The arguments must be a JSON object.", True, server=server)
        if not self._hooks.always.allows(server, info.name):
            decision = await self._hooks.approve(self._question(call_id, info, arguments))
            if decision is Decision.DENY:
                text = denied_text(server, info.name)
                return ToolOutcome(text, True, server=server, outcome="denied")
            if decision is Decision.ALWAYS:
                self._hooks.always.allow(server, info.name)
        await on_start(server)
        try:
            raw = await self._hooks.client.call_tool(server, info.name, arguments)
        except McpCallError as error:
            return ToolOutcome(error.sentence, True, server=server, outcome=error.kind)
        return await self._outcome(info, raw)

    async def _outcome(self, info: ToolInfo, raw: Mapping[str, Any]) -> ToolOutcome:
        reading = read_result(raw)
        images: list[Attachment] = []
        for number, image in enumerate(reading.images, start=1):
            suffix = image.media_type.removeprefix("image/").split("+")[0][:10] or "img"
            saved = await self._hooks.save_image(f"{info.name}-{number}.{suffix}", image.data)
            if saved is not None:
                images.append(saved)
        return ToolOutcome(
            reading.text,
            reading.is_error,
            server=info.server,
            images=tuple(images),
            links=reading.links,
        )

    def _question(self, call_id: str, info: ToolInfo, arguments: dict[str, Any]) -> ApprovalRequest:
        shown = json.dumps(arguments, ensure_ascii=False, indent=2)
        return ApprovalRequest(
            self._session_id,
            call_id,
            info.server,
            info.name,
            bounded(shown, MAX_ARGUMENTS_SHOWN),
            info.description,
        )


def _definition(info: ToolInfo) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": info.exposed,
            "description": info.description[:MAX_DESCRIPTION],
            "parameters": _schema(info.input_schema),
        },
    }


def _schema(schema: object) -> Mapping[str, Any]:
    """The tool's input schema when it is a readable object schema, else an open object."""
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return _EMPTY_SCHEMA
    try:
        parse_json(json.dumps(schema, ensure_ascii=False), TOOL_TEXT)
    except (RecursionError, JsonRefusedError, TypeError, ValueError):
        return _EMPTY_SCHEMA
    return schema


def _left_out_sentence(total: int, left_out: Sequence[str]) -> str:
    shown = ", ".join(left_out[:5])
    more = f" and {len(left_out) - 5:,} more" if len(left_out) > 5 else ""
    return (
        f"The conversation's MCP servers offer {total:,} tools; {len(left_out):,} were left out "
        f"so they do not crowd the model's context: {shown}{more}."
    )
