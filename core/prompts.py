"""Saved prompts (issue 21): named instructions, with an optional temperature and model, that a
conversation can take. Pure: no I/O. The library lives in settings.json (``app.settings``).

``read_prompts`` validates the library read from settings.json (ValueError says what is wrong);
``matching`` is what the ``/`` picker shows for what was typed after the ``/``: names that start
with it first, then names and texts that contain it, case-insensitively, in library order.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_PROMPTS = 200
MAX_NAME = 80
MAX_TEXT = 20_000
"""As long as a conversation's own instructions may be (``ui.session_settings``)."""


@dataclass(frozen=True, slots=True)
class SavedPrompt:
    """A named prompt: its text, and the temperature and model it asks for (None / "": the
    conversation's own)."""

    name: str
    text: str
    temperature: float | None = None
    model: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise ValueError(f"a saved prompt needs a name of at most {MAX_NAME} characters")
        if len(self.text) > MAX_TEXT:
            raise ValueError(f"a saved prompt's text has at most {MAX_TEXT} characters")
        if len(self.model) > MAX_NAME * 4:
            raise ValueError("a saved prompt's model is too long to be a name")
        if self.temperature is not None and not 0.0 <= self.temperature <= 2.0:
            raise ValueError("a saved prompt's temperature is a number from 0 to 2")


def read_prompts(value: object) -> tuple[SavedPrompt, ...]:
    """The library from its JSON (a list of objects; saved prompts pass as they are);
    ValueError when it is not one."""
    if not isinstance(value, list | tuple):
        raise ValueError("prompts must be a list")
    if len(value) > MAX_PROMPTS:
        raise ValueError(f"at most {MAX_PROMPTS} saved prompts")
    found = [item if isinstance(item, SavedPrompt) else _prompt(item) for item in value]
    names = [p.name.casefold() for p in found]
    if len(set(names)) != len(names):
        raise ValueError("two saved prompts have the same name")
    return tuple(found)


def _prompt(item: object) -> SavedPrompt:
    if not isinstance(item, dict):
        raise ValueError("each saved prompt must be an object")
    name, text, model = (item.get(key, "") for key in ("name", "text", "model"))
    if not isinstance(name, str) or not isinstance(text, str) or not isinstance(model, str):
        raise ValueError("a saved prompt's name, text and model are strings")
    temperature = item.get("temperature")
    if temperature is not None and (
        isinstance(temperature, bool) or not isinstance(temperature, int | float)
    ):
        raise ValueError("a saved prompt's temperature is a number from 0 to 2")
    return SavedPrompt(name, text, None if temperature is None else float(temperature), model)


def named(prompts: tuple[SavedPrompt, ...], name: str) -> SavedPrompt | None:
    """The prompt called ``name`` (None: none is, or ``name`` is empty)."""
    return next((p for p in prompts if name and p.name == name), None)


def matching(prompts: tuple[SavedPrompt, ...], query: str) -> list[SavedPrompt]:
    """The prompts for what was typed after ``/`` (see the module docstring)."""
    wanted = query.strip().casefold()
    if not wanted:
        return list(prompts)
    starts = [p for p in prompts if p.name.casefold().startswith(wanted)]
    contains = [
        p
        for p in prompts
        if p not in starts and (wanted in p.name.casefold() or wanted in p.text.casefold())
    ]
    return starts + contains
