"""Tool calls a model wrote as text, recognised where its server left them unparsed. Pure: no I/O.

Small local models often choose the right tool and write the call in their answer instead of the
server's ``tool_calls`` (docs/compatibility.md, "A tool call written as text"). Three shapes are
recognised, and only in an answer to a request that offered tools:

- a Qwen/Hermes block: ``<tool_call>{"name": …, "arguments": {…}}</tool_call>`` (one or more; the
  closing tag may be missing at the very end, where a server stopped on it);
- a code fence (```` ```json ```` or a bare ```` ``` ````) holding nothing but one JSON object of
  exactly ``name`` and ``arguments``;
- an answer that is nothing but such an object (Qwen2.5-Coder-0.5B on llama.cpp, issue 19).

Each counts only when the name is an offered tool and the arguments (an object, or a JSON text
of one) validate against that tool's parameter schema (``schema_errors``: the subset Chime's tools
use). Anything else stays prose, whatever JSON it shows. The answer's text is then the text without
the recognised blocks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.events import ToolCall
from core.frozen import frozen
from core.jsonread import TOOL_ARGUMENTS, JsonRefusedError, parse_json
from core.jsonvalue import compact_json

_HERMES = re.compile(r"<tool_call>\s*(\{.*?\})\s*(?:</tool_call>|\Z)", re.DOTALL)
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n\s*(\{.*?\})\s*\n?```", re.DOTALL)
_WHOLE = re.compile(r"\A\s*(\{.*\})\s*\Z", re.DOTALL)
_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


@frozen
class TextCalls:
    """The calls found in an answer's text, and the text without them."""

    text: str
    calls: tuple[ToolCall, ...]


def calls_in_text(text: str, tools: Sequence[Mapping[str, Any]]) -> TextCalls | None:
    """The tool calls ``text`` writes out for the offered ``tools`` (OpenAI-style definitions),
    or None when it writes none that is offered and valid. Hermes blocks win over fences, and
    fences over a whole-answer object."""
    offered = {_name(t): _parameters(t) for t in tools}
    offered.pop("", None)
    if not offered or not ("<tool_call>" in text or "```" in text or _WHOLE.match(text)):
        return None
    for pattern in (_HERMES, _FENCE, _WHOLE):
        found = [(m, _call(m.group(1), offered)) for m in pattern.finditer(text)]
        calls = [(m, c) for m, c in found if c is not None]
        if calls:
            kept = _without(text, [m for m, _c in calls])
            ids = (f"text_call_{i}" for i in range(len(calls)))
            return TextCalls(kept, tuple(ToolCall(next(ids), *c) for _m, c in calls))
    return None


def _call(raw: str, offered: Mapping[str, Mapping[str, Any]]) -> tuple[str, str] | None:
    """``(name, arguments as JSON text)`` when ``raw`` is one call of an offered tool."""
    try:
        value = parse_json(raw, TOOL_ARGUMENTS)
    except JsonRefusedError:
        return None
    if not isinstance(value, dict) or set(value) != {"name", "arguments"}:
        return None
    name, arguments = value["name"], value["arguments"]
    if isinstance(arguments, str):
        try:
            arguments = parse_json(arguments, TOOL_ARGUMENTS) if arguments.strip() else {}
        except JsonRefusedError:
            return None
    if not isinstance(name, str) or name not in offered or not isinstance(arguments, dict):
        return None
    if schema_errors(arguments, offered[name]):
        return None
    return name, compact_json(arguments)


def schema_errors(value: Any, schema: Mapping[str, Any], at: str = "arguments") -> list[str]:
    """Where ``value`` breaks ``schema``: the JSON Schema subset of tool parameters (``type``,
    ``properties``, ``required``, ``additionalProperties: false``, ``anyOf``); other keywords
    are not checked. Empty: it validates."""
    if "anyOf" in schema:
        options = schema["anyOf"]
        if not any(not schema_errors(value, option, at) for option in options):
            return [f"{at} matches none of its forms"]
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _TYPES:
        exact = isinstance(value, _TYPES[kind]) and not (
            isinstance(value, bool) and kind in ("number", "integer")
        )
        if not exact:
            return [f"{at} is not a {kind}"]
    if not isinstance(value, dict):
        return []
    properties = schema.get("properties", {})
    errors = [f"{at}.{key} is missing" for key in schema.get("required", ()) if key not in value]
    if schema.get("additionalProperties") is False:
        errors += [f"{at}.{key} is not allowed" for key in value if key not in properties]
    for key, item in value.items():
        if isinstance(properties.get(key), Mapping):
            errors += schema_errors(item, properties[key], f"{at}.{key}")
    return errors


def _without(text: str, matches: Sequence[re.Match[str]]) -> str:
    pieces, start = [], 0
    for match in matches:
        pieces.append(text[start : match.start()])
        start = match.end()
    pieces.append(text[start:])
    return re.sub(r"\n{3,}", "\n\n", "".join(pieces)).strip()


def _name(tool: Mapping[str, Any]) -> str:
    function = tool.get("function", tool)
    name = function.get("name") if isinstance(function, Mapping) else None
    return name if isinstance(name, str) else ""


def _parameters(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    function = tool.get("function", tool)
    parameters = function.get("parameters") if isinstance(function, Mapping) else None
    return parameters if isinstance(parameters, Mapping) else {"type": "object"}
