"""One conversation of a ChatGPT export as a Chime session's events (``read_conversation``).
Pure: no I/O, no clock (the time to use when the export gives none is passed in).

The events, in order: the title (``session/title``), the shown branch's instructions
(``session/instructions``), then per unit of ``core.importing.chatgpt_tree.exchanges`` its
``user/message`` (``parent`` written only where the previous input is not its parent, ``revises``
for a version), and for an answered one ``turn/start``, one ``assistant/message`` (the answer's
texts, its reasoning, the model ChatGPT named as ``{"provider": "chatgpt", "name": slug}``) and
``turn/end`` ``completed``; last a ``path/select`` when the shown input is not the last written.
Each event is stamped with its message's own time (the conversation's, when it has none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.events import (
    ROOT,
    AssistantMessage,
    Attachment,
    Event,
    ModelRef,
    PathSelected,
    SessionInstructions,
    SessionTitle,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.importing.chatgpt_content import NodeText
from core.importing.chatgpt_tree import NONE, Exchanges, Unit, exchanges

PROVIDER = "chatgpt"
"""The ``model.provider`` of an imported answer."""
Attach = Callable[[str, str], Attachment | None]
"""``attach(file id, name)``: the attachment made of a file the export holds (stored by the
caller), or None when it holds none or Chime cannot attach it."""


def _no_files(_file_id: str, _name: str) -> Attachment | None:
    return None


@dataclass(slots=True)
class Imported:
    """A conversation to write as a new session: its title, creation time (ms since 1970),
    its events with their times, and what could not be imported."""

    title: str
    created_ms: int
    events: list[tuple[int, Event]] = field(default_factory=list)
    images: int = 0
    files: int = 0
    skipped: int = 0
    """Answers before the first user message, and contents of an unknown type."""


def read_conversation(value: object, fallback_ms: int, attach: Attach = _no_files) -> Imported:
    """The session of one export element; ValueError when it is not a conversation. A user
    message's pictures and files that ``attach`` makes attachments of are its attachments
    (their "not imported" line goes)."""
    if not isinstance(value, dict) or not isinstance(value.get("mapping"), dict):
        raise ValueError("a conversation without its messages (“mapping”)")
    title = value.get("title")
    created = _ms(value.get("create_time")) or _ms(value.get("update_time")) or fallback_ms
    found = exchanges(value["mapping"], value.get("current_node"))
    imported = Imported(title.strip() if isinstance(title, str) else "", created)
    model = value.get("default_model_slug")
    _write(imported, found, model if isinstance(model, str) and model else "ChatGPT", attach)
    return imported


def _write(imported: Imported, found: Exchanges, default_model: str, attach: Attach) -> None:
    events = imported.events
    start = imported.created_ms
    if imported.title:
        events.append((start, SessionTitle(imported.title)))
    if found.instructions:
        events.append((start, SessionInstructions(found.instructions)))
    seqs: list[int] = []
    last_input, turn = ROOT, 0
    for unit in found.units:
        at = _unit_ms(found, unit.user) or (events[-1][0] if events else start)
        parent = seqs[unit.parent] if unit.parent != NONE else ROOT
        revises = seqs[unit.revises] if unit.revises != NONE else None
        seq = len(events)
        node = found.texts[unit.user]
        said, files = _attached(imported, node, attach)
        message = UserMessage(
            f"{unit.user}-{len(seqs)}" if unit.revises != NONE else unit.user,
            said,
            UserSource(None),
            parent if parent != last_input else None,
            revises,
            files,
        )
        events.append((at, message))
        seqs.append(seq)
        last_input = seq
        if unit.answer:
            turn += 1
            _answer(imported, found, unit, seq, turn, default_model)
    imported.skipped += found.dropped_answers + sum(t.unknown for t in found.texts.values())
    if found.shown != NONE and seqs[found.shown] != last_input:
        events.append((events[-1][0], PathSelected(seqs[found.shown])))


def _attached(
    imported: Imported, node: NodeText, attach: Attach
) -> tuple[str, tuple[Attachment, ...]]:
    """A user message's text and attachments: each picture or file ``attach`` makes an attachment
    of leaves the text; the others stay named there and are counted as not imported."""
    paragraphs = node.text.split("\n\n")
    files: list[Attachment] = []
    for file_id, name, line, picture in node.refs:
        found = attach(file_id, name) if file_id else None
        if found is not None and line in paragraphs:
            paragraphs.remove(line)
            files.append(found)
        elif picture:
            imported.images += 1
        else:
            imported.files += 1
    return "\n\n".join(paragraphs), tuple(dict.fromkeys(files))


def _answer(
    imported: Imported, found: Exchanges, unit: Unit, seq: int, turn: int, default_model: str
) -> None:
    events = imported.events
    texts = [found.texts[key] for key in unit.answer]
    at = events[-1][0]
    end = max([at, *(_unit_ms(found, key) for key in unit.answer)])
    model = next((t.model for t in reversed(texts) if t.model), default_model)
    answer = "\n\n".join(t.text for t in texts if t.text)
    reasoning = "\n\n".join(t.reasoning for t in texts if t.reasoning) or None
    imported.images += sum(t.images for t in texts)
    events.append((at, TurnStart(turn, seq)))
    message = AssistantMessage(
        unit.answer[-1], answer, (), ModelRef(PROVIDER, model), "stop", reasoning=reasoning
    )
    events.append((end, message))
    events.append((end, TurnEnd(turn, "completed")))


def _unit_ms(found: Exchanges, key: str) -> int:
    return int(found.times.get(key, 0.0) * 1000)


def _ms(value: Any) -> int:
    """Seconds since 1970 (ChatGPT's times) as ms; 0 when absent or out of range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value * 1000) if 0 < value < 253402300799 else 0
