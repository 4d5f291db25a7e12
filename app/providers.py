"""The model provider the settings put in effect, and the settings dialog's endpoint checks.

The provider modules are imported on first use: the ``openai`` SDK alone costs half a second
of start-up. What answers is decided by ``app.settings.effective_provider``: ``Offline`` →
``OfflineAssistant`` (the default; no network), ``Endpoint`` → ``OpenAICompatProvider`` with the
base URL, model, API key, the preset (the server family first guessed) and the context length
the settings name (0: the server's own, else the family's default). Listing models and "Test
connection" use a throwaway provider and report failures as the provider's own readable message.

"Test connection" checks what Chime needs, in order: the model list (the URL and key are right,
the model is there), a streamed one-word chat, and a tool probe in the real request's shape
(Chime's own system prompt, the three reminder tools and a reminder request in plain words,
``reminder_probe``), waited for as long as a real turn (the provider's own timeout, not a short
one: a small CPU reads that prompt for a minute before the first token). The verdict says what
came back: a tool call the server parsed, a tool call written as text (which Chime reads), or
words only (reminders will not work with it). ``on_stage`` hears where the check is, so the
dialog can say it is waiting while the server reads the prompt; cancelling the task that awaits
``test_connection`` cancels the request and closes its connection.

A session's own choice (``session/model``, agent.md §7) is resolved by ``choice_factory`` against
the same settings: provider ``offline`` → the offline assistant, ``openai-compatible`` → the
settings' endpoint (base URL, key, preset and context length) with the chosen model; a ``null`` field is the setting's.
A choice that names neither provider nor model (a temperature only) leaves the provider to the
setting (``None``), so the app's own factory answers it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QLocale

from app.settings import Endpoint, Offline, Settings, effective_provider
from core.clock import Clock
from core.errors import ProviderError
from core.events import SessionModel
from core.llm.presets import PRESETS, preset_for_url
from core.llm.provider import ModelProvider
from ui.failure_words import failure_text
from ui.i18n import QT_TRANSLATE_NOOP
from ui.model_picker import ENDPOINT, OFFLINE
from ui.settings_dialog import PresetChoice
from ui.wording import provider_error_text

if TYPE_CHECKING:
    from core.llm.openai_compat import OpenAICompatProvider, ProbeStage, ToolCheck, ToolProbe

_log = logging.getLogger(__name__)

ProviderFactory = Callable[[], ModelProvider]
translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Providers", …)
NO_TOOLS = QT_TRANSLATE_NOOP(
    "Providers", "Connected, but this model does not call tools: reminders will not work with it."
)
_SOURCES = {
    "server": QT_TRANSLATE_NOOP("Providers", "reported by the server"),
    "settings": QT_TRANSLATE_NOOP("Providers", "as set here"),
    "default": QT_TRANSLATE_NOOP("Providers", "the server does not say; assumed"),
}
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
    key = api_key() if callable(api_key) else api_key
    return endpoint_provider(answerer, key)


def chosen_provider(choice: SessionModel | None, settings: Settings) -> Offline | Endpoint | None:
    """What a session's choice makes answer with these settings; None when it leaves that to the
    setting. An endpoint needs the settings' base URL: without one the offline assistant answers
    (as ``effective_provider`` decides for the setting itself). The settings' preset and context
    length go with the chosen model: they describe the server, not the model."""
    if choice is None or (choice.provider is None and choice.model is None):
        return None
    setting = effective_provider(settings)
    provider = choice.provider or (OFFLINE if isinstance(setting, Offline) else ENDPOINT)
    if provider == OFFLINE or not settings.base_url:
        return Offline()
    model = choice.model or settings.model
    return Endpoint(settings.base_url, model, settings.preset, settings.context_tokens)


def choice_factory(
    settings: Settings, api_key: str | Callable[[], str], clock: Clock
) -> ChoiceFactory:
    """Makes each session's provider for its own choice (see the module docstring)."""

    def make(choice: SessionModel) -> ModelProvider | None:
        chosen = chosen_provider(choice, settings)
        return None if chosen is None else make_provider(chosen, api_key, clock)

    return make


def endpoint_provider(endpoint: Endpoint, api_key: str, **options: Any) -> OpenAICompatProvider:
    """The network door for ``endpoint`` (the openai SDK is imported here, on first use)."""
    from core.llm.openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(
        endpoint.base_url,
        endpoint.model,
        api_key or None,
        preset=endpoint.preset,
        context_tokens=endpoint.context_tokens or None,
        **options,
    )


async def close_provider(provider: ModelProvider) -> None:
    """Closes a provider that holds connections (an endpoint's HTTP client); the offline
    assistant holds none. Best effort: a connection that fails to close is gone anyway, so a
    failure is logged, never raised."""
    aclose = getattr(provider, "aclose", None)
    if aclose is None:
        return
    try:
        await aclose()
    except Exception:
        _log.warning("closing the model provider failed", exc_info=True)


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
    provider = endpoint_provider(Endpoint(base_url, ""), api_key, timeout=10.0, max_retries=0)
    try:
        return await provider.list_models(), ""
    except ProviderError as error:
        return [], provider_error_text(error)
    finally:
        await provider.aclose()


PROBE_REMINDER = "Remind me in 10 minutes to stretch."
"""The probe's reminder request: plain words, as a person types one."""
TEXT_CALLS = QT_TRANSLATE_NOOP(
    "Providers",
    "Connected to %1: the model writes its tool calls as text, which Chime reads, so reminders "
    "work.",
)


def reminder_probe(time_context: str | None = None) -> ToolProbe:
    """The real request shape: Chime's system prompt, its reminder tools, the turn's time-context
    reading (a real turn sends one; the 0.5B Qwen set reminders without it and echoed it with it,
    issue 19) and a reminder request."""
    from core.host import load_system_prompt
    from core.llm.openai_compat import ToolProbe
    from core.schedule.tools import tool_definitions

    return ToolProbe(load_system_prompt(), tuple(tool_definitions()), PROBE_REMINDER, time_context)


async def test_connection(
    endpoint: Endpoint,
    api_key: str,
    on_stage: Callable[[ProbeStage], object] = lambda _stage: None,  # noqa: PT028 -- an app function named test_connection, not a pytest test
    *,
    time_context: str | None = None,  # noqa: PT028 -- as above
) -> tuple[bool, str]:
    """Whether the endpoint offers the model, streams a chat and the model calls tools, in words."""
    names, error = await list_models(endpoint.base_url, api_key)
    if error:
        return False, error
    if not endpoint.model:
        return True, translate(
            "Providers", "Connected: %1 model(s) available. Choose one to test it."
        ).replace("%1", str(len(names)))
    if endpoint.model not in names:
        return False, translate(
            "Providers", "Connected, but the endpoint has no model named “%1”."
        ).replace("%1", endpoint.model)
    provider = endpoint_provider(endpoint, api_key, max_retries=0)
    try:
        check = await provider.check_tools(probe=reminder_probe(time_context), on_stage=on_stage)
    except ProviderError as failure:
        return False, provider_error_text(failure)
    finally:
        await provider.aclose()
    return check.calls_tools, _checked(check)


def _checked(check: ToolCheck) -> str:
    budget = check.budget
    context = (
        translate("Providers", "Context: %1 tokens (%2).")
        .replace("%1", _grouped(budget.context_tokens))
        .replace("%2", translate("Providers", _SOURCES[budget.source]))
    )
    if not check.calls_tools:
        said = failure_text(check.refused) if check.refused is not None else check.refusal
        refusal = f" {said}" if said else ""
        return f"{translate('Providers', NO_TOOLS)}{refusal} {context}"
    if check.seen == "text":
        return f"{translate('Providers', TEXT_CALLS).replace('%1', check.family)} {context}"
    connected = translate(
        "Providers", "Connected to %1: the model streams answers and calls tools."
    ).replace("%1", check.family)
    return f"{connected} {context}"


def _grouped(number: int) -> str:
    """``4,096`` (``4.096`` in German): the number in the window's language."""
    locale = QLocale()
    return f"{number:,}" if locale.language() == QLocale.Language.C else locale.toString(number)
