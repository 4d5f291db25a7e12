"""OpenAI-compatible endpoint presets for the settings dialog (agent.md §5.2). Pure: a table only.

Each preset is a base URL the user can accept or edit, and whether the service needs an API key.
Local servers listen on their documented default ports; ``custom`` starts empty. No I/O here:
whether a server is really running is learnt by ``OpenAICompatProvider.list_models``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preset:
    """One choice in the settings dialog. ``key`` is a stable identifier for the settings file."""

    key: str
    label: str
    base_url: str
    needs_api_key: bool
    local: bool


PRESETS: tuple[Preset, ...] = (
    Preset("ollama", "Ollama", "http://localhost:11434/v1", needs_api_key=False, local=True),
    Preset("lmstudio", "LM Studio", "http://localhost:1234/v1", needs_api_key=False, local=True),
    Preset(
        "llamacpp", "llama.cpp server", "http://localhost:8080/v1", needs_api_key=False, local=True
    ),
    Preset("vllm", "vLLM", "http://localhost:8000/v1", needs_api_key=False, local=True),
    Preset("openai", "OpenAI", "https://api.openai.com/v1", needs_api_key=True, local=False),
    Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", needs_api_key=True, local=False),
    Preset("custom", "Custom endpoint", "", needs_api_key=False, local=False),
)
"""In the order the dialog lists them. A local server started with ``--api-key`` still works:
the key field is optional for every preset, ``needs_api_key`` only marks it as expected."""


def preset(key: str) -> Preset | None:
    """The preset with this key, or None."""
    return next((p for p in PRESETS if p.key == key), None)


def preset_for_url(base_url: str) -> Preset:
    """The preset whose base URL equals ``base_url`` (ignoring a trailing slash), else ``custom``."""
    wanted = base_url.strip().rstrip("/")
    for candidate in PRESETS:
        if candidate.base_url and candidate.base_url == wanted:
            return candidate
    custom = preset("custom")
    assert custom is not None
    return custom
