"""The model provider the settings put in effect, and the settings dialog's endpoint checks.

The provider modules are imported on first use: the ``openai`` SDK alone costs half a second
of start-up. What answers is decided by ``app.settings.effective_provider``: ``Offline`` →
``OfflineAssistant`` (the default; no network), ``Endpoint`` → ``OpenAICompatProvider`` with the
base URL, model and API key. Listing models and "Test connection" use a throwaway provider and
report failures as the provider's own readable message.
"""

from __future__ import annotations

from collections.abc import Callable

from app.settings import Endpoint, Settings, effective_provider
from core.clock import Clock
from core.errors import ProviderError
from core.llm.presets import PRESETS
from core.llm.provider import ModelProvider
from ui.settings_dialog import PresetChoice

ProviderFactory = Callable[[], ModelProvider]


def provider_factory(
    settings: Settings, api_key: str | Callable[[], str], clock: Clock
) -> ProviderFactory:
    """A factory of fresh providers for these settings (one per open session). ``api_key`` may
    be a getter, called only when an endpoint provider is made (the keyring is slow to open)."""
    provider = effective_provider(settings)
    if not isinstance(provider, Endpoint):
        from core.llm.offline import OfflineAssistant

        return lambda: OfflineAssistant(clock)
    from core.llm.openai_compat import OpenAICompatProvider  # the openai SDK: import only when used

    def make() -> ModelProvider:
        key = api_key() if callable(api_key) else api_key
        return OpenAICompatProvider(provider.base_url, provider.model, key or None)

    return make


def preset_choices() -> list[PresetChoice]:
    """The core's presets, as the settings dialog lists them."""
    return [PresetChoice(p.key, p.label, p.base_url, "", p.needs_api_key) for p in PRESETS]


async def list_models(base_url: str, api_key: str) -> tuple[list[str], str]:
    """(model names, "") or ([], why it failed in words)."""
    from core.llm.openai_compat import OpenAICompatProvider

    provider = OpenAICompatProvider(base_url, "", api_key or None, timeout=10.0, max_retries=0)
    try:
        return await provider.list_models(), ""
    except ProviderError as error:
        return [], error.message
    finally:
        await provider.aclose()


async def test_connection(base_url: str, model: str, api_key: str) -> tuple[bool, str]:
    """Whether the endpoint answers and offers ``model``, in words."""
    names, error = await list_models(base_url, api_key)
    if error:
        return False, error
    if model and model not in names:
        return False, f"Connected, but the endpoint has no model named {model!r}."
    return True, f"Connected: {len(names)} model(s) available."
