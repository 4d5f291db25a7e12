"""The model provider the settings put in effect, and the settings dialog's endpoint checks.

The provider modules are imported on first use: the ``openai`` SDK alone costs half a second
of start-up. What answers is decided by ``app.settings.effective_provider``: ``Offline`` →
``OfflineAssistant`` (the default; no network), ``Endpoint`` → ``OpenAICompatProvider`` with the
base URL, model and API key. Listing models and "Test connection" use a throwaway provider and
report failures as the provider's own readable message.

A session's own choice (``session/model``, agent.md §7) is resolved by ``choice_factory`` against
the same settings: provider ``offline`` → the offline assistant, ``openai-compatible`` → the
settings' endpoint (base URL and key) with the chosen model; a ``null`` field is the setting's.
A choice that names neither provider nor model (a temperature only) leaves the provider to the
setting (``None``), so the app's own factory answers it.
"""

from __future__ import annotations

from collections.abc import Callable

from app.settings import Endpoint, Offline, Settings, effective_provider
from core.clock import Clock
from core.errors import ProviderError
from core.events import SessionModel
from core.llm.presets import PRESETS, preset_for_url
from core.llm.provider import ModelProvider
from ui.model_picker import ENDPOINT, OFFLINE
from ui.settings_dialog import PresetChoice

ProviderFactory = Callable[[], ModelProvider]
ChoiceFactory = Callable[[SessionModel], ModelProvider | None]
"""A session's own provider for its ``session/model`` choice; None: the setting's provider."""


def provider_factory(
    settings: Settings, api_key: str | Callable[[], str], clock: Clock
) -> ProviderFactory:
    """A factory of fresh providers for these settings (one per open session). ``api_key`` may
    be a getter, called only when an endpoint provider is made (the keyring is slow to open)."""
    answerer = effective_provider(settings)
    return lambda: make_provider(answerer, api_key, clock)


def make_provider(
    answerer: Offline | Endpoint, api_key: str | Callable[[], str], clock: Clock
) -> ModelProvider:
    """A fresh provider for ``answerer`` (the SDK's modules imported on first use)."""
    if isinstance(answerer, Offline):
        from core.llm.offline import OfflineAssistant

        return OfflineAssistant(clock)
    from core.llm.openai_compat import OpenAICompatProvider  # the openai SDK: import only when used

    key = api_key() if callable(api_key) else api_key
    return OpenAICompatProvider(answerer.base_url, answerer.model, key or None)


def chosen_provider(choice: SessionModel | None, settings: Settings) -> Offline | Endpoint | None:
    """What a session's choice makes answer with these settings; None when it leaves that to the
    setting. An endpoint needs the settings' base URL: without one the offline assistant answers
    (as ``effective_provider`` decides for the setting itself)."""
    if choice is None or (choice.provider is None and choice.model is None):
        return None
    setting = effective_provider(settings)
    provider = choice.provider or (OFFLINE if isinstance(setting, Offline) else ENDPOINT)
    if provider == OFFLINE or not settings.base_url:
        return Offline()
    return Endpoint(settings.base_url, choice.model or settings.model)


def choice_factory(
    settings: Settings, api_key: str | Callable[[], str], clock: Clock
) -> ChoiceFactory:
    """Makes each session's provider for its own choice (see the module docstring)."""

    def make(choice: SessionModel) -> ModelProvider | None:
        chosen = chosen_provider(choice, settings)
        return None if chosen is None else make_provider(chosen, api_key, clock)

    return make


def endpoint_name(settings: Settings) -> str:
    """The settings' endpoint as the model picker names it (its preset's label, else the host of
    its base URL); "" when the settings use the offline assistant."""
    if not isinstance(effective_provider(settings), Endpoint):
        return ""
    known = preset_for_url(settings.base_url)
    if known.key != "custom":
        return known.label
    from urllib.parse import urlsplit

    return urlsplit(settings.base_url).netloc or settings.base_url


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
