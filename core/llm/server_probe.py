"""Asks an OpenAI-compatible server what it is and how long its context is. Part of the network door.

Called by ``core.llm.openai_compat`` (which owns the HTTP client) once per provider, before its
first request; the answers are read by the pure ``core.llm.compat``. Every probe is a short GET
(or Ollama's POST ``/api/show``), all of them together bounded by ``PROBE_TIMEOUT``; any failure (refused, 404, not
JSON, too slow) only means "this server does not say", never an error: the preset's family and
the default context then apply. Must not: raise anything but cancellation, log the key, or probe
the hosted services (OpenAI, DeepSeek: their family is known and they report no context).

Order: ``GET <base>/models`` (its ``owned_by`` names most servers, and vLLM's entries carry
``max_model_len``), then, when that named none, ``GET <root>/props`` (llama.cpp C++) and
``GET <root>/api/version`` (Ollama), where ``<root>`` is the base URL without its ``/v1``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import httpx2

from core.frozen import frozen
from core.llm.compat import (
    QUIRKS,
    Family,
    Quirks,
    context_from_lmstudio,
    context_from_models,
    context_from_ollama_show,
    context_from_props,
    family_from_owners,
    looks_like_ollama_version,
    looks_like_props,
)

PROBE_TIMEOUT = 3.0
_HOSTED: frozenset[Family] = frozenset({"openai", "deepseek"})


@frozen
class ServerProfile:
    """What a server said about itself: its family's quirks and its context length (or None)."""

    quirks: Quirks
    context_tokens: int | None
    probed: bool


class _Asker:
    """GETs (and one POST) relative to a base URL, answering the JSON body or None."""

    def __init__(
        self, http: httpx2.AsyncClient, base_url: str, headers: dict[str, str], bound: float
    ) -> None:
        self._http = http
        self._bound = bound
        self.base = base_url.rstrip("/")
        self.root = self.base[: -len("/v1")] if self.base.endswith("/v1") else self.base
        self._headers = headers

    async def json(self, url: str, body: dict[str, Any] | None = None) -> Any:
        try:
            async with asyncio.timeout(self._bound):
                if body is None:
                    response = await self._http.get(url, headers=self._headers)
                else:
                    response = await self._http.post(url, headers=self._headers, json=body)
            return response.json() if response.status_code == 200 else None
        except (
            Exception
        ):  # a probe that fails (refused, timed out, not JSON) only means "does not say"
            return None


async def probe_server(
    http: httpx2.AsyncClient,
    base_url: str,
    headers: dict[str, str],
    model: str,
    guess: Quirks,
    *,
    bound: float = PROBE_TIMEOUT,
) -> ServerProfile:
    """The server's family and context length; ``guess`` (the preset's family) where it does
    not say. Hosted services are not asked. All the probes together take at most ``bound``
    seconds: a frozen server delays the first step by that much, not once per probe."""
    if guess.family in _HOSTED:
        return ServerProfile(guess, None, probed=False)
    try:
        async with asyncio.timeout(bound):
            return await _ask(_Asker(http, base_url, headers, bound), model, guess)
    except TimeoutError:
        return ServerProfile(guess, None, probed=False)


async def _ask(asker: _Asker, model: str, guess: Quirks) -> ServerProfile:
    listing = await asker.json(asker.base + "/models")
    entries = listing.get("data") if isinstance(listing, dict) else None
    entries = entries if isinstance(entries, list) else []
    owners = [e.get("owned_by") for e in entries if isinstance(e, dict)]
    family = family_from_owners([o for o in owners if isinstance(o, str)])
    props: Any = None
    if family is None:
        props = await asker.json(asker.root + "/props")
        family = "llamacpp" if looks_like_props(props) else None
    if family is None and looks_like_ollama_version(await asker.json(asker.root + "/api/version")):
        family = "ollama"
    quirks = QUIRKS[family] if family is not None else guess
    context = await _context(asker, quirks, model, entries, props)
    return ServerProfile(quirks, context, probed=True)


async def _context(
    asker: _Asker, quirks: Quirks, model: str, entries: list[Any], props: Any
) -> int | None:
    """The context length from where this family reports it."""
    match quirks.context_source:
        case "props":
            return context_from_props(props or await asker.json(asker.root + "/props"))
        case "ollama_show":
            shown = await asker.json(asker.root + "/api/show", {"model": model})
            return context_from_ollama_show(shown)
        case "lmstudio_models":
            return context_from_lmstudio(await asker.json(f"{asker.root}/api/v0/models/{model}"))
        case "models":
            return context_from_models(entries, model)
        case "none":
            return None


ModelsState = Literal["listed", "unreachable", "other"]


async def models_state(
    http: httpx2.AsyncClient, base_url: str, headers: dict[str, str], bound: float = PROBE_TIMEOUT
) -> ModelsState:
    """Whether ``GET <base>/models`` answers a model list now, cannot connect, or answers
    something else (a web page, an error): tells a server that is up from one that stopped,
    and both from a base URL that is no OpenAI-compatible API."""
    listing: Any = None
    for attempt in range(2):  # a pooled connection the server dropped fails once: ask anew
        try:
            async with asyncio.timeout(bound):
                response = await http.get(base_url.rstrip("/") + "/models", headers=headers)
                listing = response.json() if response.status_code == 200 else None
            break
        except httpx2.ConnectError:
            return "unreachable"
        except httpx2.TransportError:
            if attempt:
                return "unreachable"
        except Exception:  # too slow, not JSON: up, but not answering as an API
            return "other"
    listed = isinstance(listing, dict) and isinstance(listing.get("data"), list)
    return "listed" if listed else "other"
