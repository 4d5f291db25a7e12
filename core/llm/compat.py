"""The request shapes each OpenAI-compatible server family accepts, in one table. Pure: no I/O.

Every per-family difference Chime knows of lives here (docs/compatibility.md is the same table in
prose); the wire module (``core.llm.openai_wire``) builds requests from a ``Quirks`` value and the
network door (``core.llm.openai_compat``) only asks it which family a server is and where its
context length is read. Must not: send anything, or know about sessions or Qt.

A family is chosen from the settings' preset, then refined by what the server says it is
(``family_from_probe``): ``owned_by`` of ``GET /models`` (``llamacpp`` for llama.cpp's C++
server, ``me`` for llama-cpp-python, ``vllm``, ``library`` for Ollama, ``organization_owner``
for LM Studio, ``deepseek``), a ``/props`` answer (llama.cpp C++) or an ``/api/version`` answer
(Ollama). A server that says nothing recognisable is ``generic``: the shapes every family
accepts.

What the families differ in (choices where a family's documentation is silent are marked "safe":
the form every known family accepts):

- ``tool_content``: the ``content`` of an assistant message that carries ``tool_calls``.
  llama-cpp-python's server rejects ``null`` (HTTP 500, "Input should be 'system'", and the
  message stays in the history, so every later turn fails); OpenAI documents ``null``; everything
  else takes both, so all but OpenAI get ``""`` (safe).
- ``tool_choice``: ``"auto"`` is sent with every request that has tools, for every family:
  llama-cpp-python takes a missing ``tool_choice`` as ``"none"`` and leaves the tools out of the
  prompt; elsewhere ``"auto"`` is the documented default, so saying it changes nothing.
- ``streams_tools``: whether a request with tools may be streamed. llama-cpp-python's
  function-calling chat format raises "Automatic streaming tool choice is not supported" as soon
  as the model picks a tool under ``"auto"`` (after its 200: the answer is empty), so a step with
  tools is asked unstreamed there and its text arrives whole; every other family streams.
- ``forced_tool``: how Test connection makes the model call a tool: ``named`` (a
  ``{"type": "function", ...}`` choice: OpenAI, DeepSeek, vLLM), ``required`` (llama.cpp C++,
  LM Studio), or ``asked`` (the probe asks in words and sends ``"auto"``: Ollama ignores
  ``tool_choice``; llama-cpp-python forces a named tool by grammar even with a chat format that
  never offers tools under ``"auto"``, so only an ``"auto"`` probe says whether reminders work).
- ``max_tokens_field``: OpenAI's reasoning models refuse ``max_tokens`` and take
  ``max_completion_tokens``; every other family reads ``max_tokens``.
- ``context_source``: where the server reports its context length in tokens: ``props``
  (llama.cpp C++: ``GET /props``, ``n_ctx``), ``ollama_show`` (``POST /api/show``: the model's
  ``context_length``, bounded by the ``num_ctx`` it runs with), ``lmstudio_models``
  (``GET /api/v0/models/<model>``: ``loaded_context_length``), ``models`` (vLLM:
  ``max_model_len`` in ``GET /models``), or ``none`` (llama-cpp-python, OpenAI, DeepSeek).
- ``default_context``: the context length assumed when the server does not report one and the
  settings do not name one: the server's own default where it has one (llama-cpp-python's
  ``--n_ctx`` is 2048, Ollama's ``num_ctx`` and llama.cpp's ``-c`` 4096 on current releases),
  else a figure below the smallest current model of the service.
- ``text_calls``: whether a tool call the model wrote as text is recognised
  (``core.llm.text_calls``): every family that serves local models, whose templates and tool
  parsers leave some models' calls in ``content`` (a ``<tool_call>`` block, a fenced JSON object);
  not the hosted APIs (OpenAI, DeepSeek), which parse their own models' calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from core.frozen import frozen

Family = Literal[
    "openai", "deepseek", "ollama", "lmstudio", "llamacpp", "llamacpp-python", "vllm", "generic"
]
ToolContent = Literal["null", "empty"]
ForcedTool = Literal["named", "required", "asked"]
ContextSource = Literal["props", "ollama_show", "lmstudio_models", "models", "none"]


@frozen
class Quirks:
    """What one server family accepts (see the module docstring for each field)."""

    family: Family
    label: str
    tool_content: ToolContent
    streams_tools: bool
    forced_tool: ForcedTool
    max_tokens_field: str
    context_source: ContextSource
    default_context: int
    text_calls: bool = True


_TABLE: tuple[Quirks, ...] = (
    Quirks(
        "openai", "OpenAI", "null", True, "named", "max_completion_tokens", "none", 128_000, False
    ),
    Quirks("deepseek", "DeepSeek", "empty", True, "named", "max_tokens", "none", 64_000, False),
    Quirks("ollama", "Ollama", "empty", True, "asked", "max_tokens", "ollama_show", 4096),
    Quirks(
        "lmstudio", "LM Studio", "empty", True, "required", "max_tokens", "lmstudio_models", 4096
    ),
    Quirks(
        "llamacpp", "llama.cpp server (C++)", "empty", True, "required", "max_tokens", "props", 4096
    ),
    Quirks(
        "llamacpp-python",
        "llama-cpp-python server",
        "empty",
        False,
        "asked",
        "max_tokens",
        "none",
        2048,
    ),
    Quirks("vllm", "vLLM", "empty", True, "named", "max_tokens", "models", 8192),
    Quirks(
        "generic", "OpenAI-compatible server", "empty", True, "asked", "max_tokens", "none", 4096
    ),
)
QUIRKS: Mapping[Family, Quirks] = MappingProxyType({q.family: q for q in _TABLE})
"""Every family's quirks, in the order of the compatibility matrix."""

PRESET_FAMILIES: Mapping[str, Family] = MappingProxyType(
    {
        "openai": "openai",
        "deepseek": "deepseek",
        "ollama": "ollama",
        "lmstudio": "lmstudio",
        "llamacpp": "llamacpp",
        "vllm": "vllm",
    }
)
"""The family a preset names before the server is asked (``custom``: ``generic``)."""

_OWNERS: Mapping[str, Family] = MappingProxyType(
    {
        "llamacpp": "llamacpp",
        "me": "llamacpp-python",
        "vllm": "vllm",
        "library": "ollama",
        "ollama": "ollama",
        "organization_owner": "lmstudio",
        "deepseek": "deepseek",
        "openai": "openai",
        "system": "openai",
        "openai-internal": "openai",
    }
)
"""``owned_by`` values of ``GET /models`` that name the serving software."""


def quirks_for_preset(preset_key: str) -> Quirks:
    """The quirks a preset implies before the server has said anything."""
    return QUIRKS[PRESET_FAMILIES.get(preset_key, "generic")]


def family_from_owners(owners: list[str]) -> Family | None:
    """The family the ``owned_by`` values of ``GET /models`` name, or None when they name none
    (or disagree)."""
    named = {_OWNERS[o] for o in owners if o in _OWNERS}
    return named.pop() if len(named) == 1 else None


def looks_like_props(body: Any) -> bool:
    """Whether a ``GET /props`` answer is llama.cpp's C++ server's."""
    return isinstance(body, dict) and (
        "default_generation_settings" in body or "n_ctx" in body or "build_info" in body
    )


def looks_like_ollama_version(body: Any) -> bool:
    """Whether a ``GET /api/version`` answer is Ollama's (``{"version": "0.6.2"}``)."""
    return isinstance(body, dict) and isinstance(body.get("version"), str) and len(body) == 1


def context_from_props(body: Any) -> int | None:
    """llama.cpp's context length from ``/props`` (``n_ctx``, top level or in the default
    generation settings)."""
    if not isinstance(body, dict):
        return None
    settings = body.get("default_generation_settings")
    nested = settings.get("n_ctx") if isinstance(settings, dict) else None
    return _tokens(body.get("n_ctx")) or _tokens(nested)


def context_from_ollama_show(body: Any) -> int | None:
    """Ollama's context from ``/api/show``: the model's ``<arch>.context_length``, bounded by the
    ``num_ctx`` of its parameters (the window Ollama really runs it with), else its default."""
    if not isinstance(body, dict):
        return None
    info = body.get("model_info")
    lengths = [
        _tokens(v)
        for k, v in (info.items() if isinstance(info, dict) else ())
        if k.endswith(".context_length")
    ]
    model_length = next((n for n in lengths if n), None)
    num_ctx = _num_ctx(body.get("parameters"))
    running = num_ctx or QUIRKS["ollama"].default_context
    return min(running, model_length) if model_length else num_ctx


def context_from_lmstudio(body: Any) -> int | None:
    """LM Studio's context from ``/api/v0/models/<model>``: the loaded length, else the most."""
    if not isinstance(body, dict):
        return None
    return _tokens(body.get("loaded_context_length")) or _tokens(body.get("max_context_length"))


def context_from_models(entries: list[Any], model: str) -> int | None:
    """vLLM's ``max_model_len`` of ``model`` (or of the only model) in ``GET /models``."""
    matching = [e for e in entries if isinstance(e, dict) and e.get("id") == model]
    chosen = matching or [e for e in entries if isinstance(e, dict)][:1]
    return _tokens(chosen[0].get("max_model_len")) if chosen else None


def _num_ctx(parameters: Any) -> int | None:
    """``num_ctx`` from Ollama's parameters text (one ``name value`` pair per line)."""
    if not isinstance(parameters, str):
        return None
    for line in parameters.splitlines():
        name, _, value = line.strip().partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return _tokens(int(value.strip()))
    return None


def _tokens(value: Any) -> int | None:
    """A plausible context length (a positive int), else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if value > 0 else None
