"""The names the model sees for MCP tools, and how many tool definitions a request may carry.
Pure: no I/O; must not know which servers run.

Names (written down here and in docs/spec/agent.md §3.1):

- The exposed name of tool ``t`` of server ``s`` is ``s__t`` with every character outside
  ``[A-Za-z0-9_-]`` replaced by ``_``, when that is at most ``MAX_NAME`` (64) characters and was
  not changed by the replacement: a server's README then reads the same as what the model calls.
- Otherwise (a character replaced, or too long) it is the first 55 characters of that form, ``_``
  and the first 8 hex digits of the SHA-256 of ``s``, NUL, ``t``: two different tools never share
  the name, and the name depends on that tool alone (stable across restarts and other servers).
- A name already taken (a reminder tool, or two plain names that meet: ``a__b`` + ``c`` and ``a`` +
  ``b__c``) is hashed the same way; the hash lengthens in the rare case it is still taken. Tools
  are named in (server, tool) order, so the same tools always get the same names.

Budget (``fit_tools``): MCP tool definitions may take at most ``TOOLS_SHARE`` (a quarter) of the
tokens a request may carry (``core.llm.budget`` estimates; None, a provider without a bounded
context: no token bound) and at most ``MAX_TOOLS`` (128, OpenAI's own limit) definitions. Tools
are kept whole, in the order given (the conversation's servers in their order, each server's tools
as it listed them) until the next one would pass either bound; the rest are left out, and the
caller says which.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.llm.budget import text_tokens

MAX_NAME = 64
_HASH = 8
_ALLOWED = re.compile(r"[^A-Za-z0-9_-]")
TOOLS_SHARE = 4
"""MCP tools may take ``1 / TOOLS_SHARE`` of the request's token budget."""
MAX_TOOLS = 128


def _digest(server: str, tool: str) -> str:
    return hashlib.sha256(f"{server}\0{tool}".encode("utf-8", "surrogatepass")).hexdigest()


def _hashed(plain: str, server: str, tool: str, length: int) -> str:
    return f"{plain[: MAX_NAME - length - 1]}_{_digest(server, tool)[:length]}"


def exposed_names(
    tools: Iterable[tuple[str, str]], reserved: Collection[str] = ()
) -> dict[tuple[str, str], str]:
    """The model-facing name of each ``(server, tool)``, unique and apart from ``reserved``."""
    pairs = sorted(set(tools))
    plain = {pair: _ALLOWED.sub("_", f"{pair[0]}__{pair[1]}") for pair in pairs}
    counts: dict[str, int] = {}
    for name in plain.values():
        counts[name] = counts.get(name, 0) + 1
    taken = set(reserved)
    names: dict[tuple[str, str], str] = {}
    for pair in pairs:
        raw, name = f"{pair[0]}__{pair[1]}", plain[pair]
        hashed = name != raw or len(name) > MAX_NAME or counts[name] > 1 or name in taken
        length = _HASH
        while hashed:
            name = _hashed(plain[pair], *pair, length)
            if name not in taken or length >= MAX_NAME // 2:
                break
            length += 4
        taken.add(name)
        names[pair] = name
    return names


@dataclass(frozen=True, slots=True)
class Fitted:
    """The definitions a request carries, and the exposed names left out for the budget."""

    kept: tuple[Mapping[str, Any], ...]
    left_out: tuple[str, ...]


def definition_tokens(definition: Mapping[str, Any]) -> int:
    """The estimate of one tool definition (its compact JSON), as ``fixed_tokens`` counts it."""
    return text_tokens(json.dumps(definition, ensure_ascii=False, separators=(",", ":")))


def fit_tools(definitions: Sequence[Mapping[str, Any]], prompt_tokens: int | None) -> Fitted:
    """The definitions within the tools' share of ``prompt_tokens`` (None: no token bound)."""
    room = None if prompt_tokens is None else max(0, prompt_tokens) // TOOLS_SHARE
    kept: list[Mapping[str, Any]] = []
    left: list[str] = []
    spent = 0
    for definition in definitions:
        cost = definition_tokens(definition)
        if len(kept) < MAX_TOOLS and (room is None or spent + cost <= room):
            kept.append(definition)
            spent += cost
        else:
            left.append(str(definition.get("function", {}).get("name", "")))
    return Fitted(tuple(kept), tuple(left))
