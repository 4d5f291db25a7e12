"""Properties of the ChatGPT tree → Chime inputs mapping, over random trees: the shown branch is
the path Chime shows, nothing said is lost, and every parent and version comes before its use."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import AssistantMessage, UserMessage
from core.importing.chatgpt import read_conversation
from tests.core.importing.chatgpt_export import Conversation
from tests.core.importing.test_chatgpt import shown_texts


@st.composite
def trees(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    """A conversation of 1-30 nodes (user, assistant, tool, empty system) under random parents
    with random times, and its shown node."""
    conversation = Conversation("prop")
    keys = ["sys"]
    size = draw(st.integers(1, 30))
    for n in range(size):
        parent = draw(st.sampled_from(keys))
        role = draw(st.sampled_from(["user", "user", "assistant", "assistant", "tool", "system"]))
        text = "" if role == "system" else f"{role[0]}{n}"
        at = draw(st.floats(1_600_000_000, 1_700_000_000) | st.none())
        conversation.say(f"n{n}", parent, role, text, at=at)
        keys.append(f"n{n}")
    current = draw(st.sampled_from(keys))
    value = conversation.to_json()
    value["current_node"] = current
    return value, _branch(value["mapping"], current)


def _branch(mapping: dict[str, Any], current: str) -> list[str]:
    """The user texts from the root to ``current``, oldest first."""
    texts: list[str] = []
    key: str | None = current
    while key is not None:
        message = mapping[key]["message"]
        if message and message["author"]["role"] == "user":
            texts.append(message["content"]["parts"][0])
        key = mapping[key]["parent"]
    return texts[::-1]


@settings(max_examples=300, deadline=None)
@given(trees())
def test_the_shown_branch_is_the_path_chime_shows(case: tuple[dict[str, Any], list[str]]) -> None:
    value, branch = case
    imported = read_conversation(value, 0)
    shown = shown_texts(imported.events)
    if branch:
        assert shown == branch
    else:  # shown above every question: the newest branch stands in (never an empty view)
        assert bool(shown) == any(t.startswith("u") for t in _all_user_texts(value))


def _all_user_texts(value: dict[str, Any]) -> list[str]:
    return [
        n["message"]["content"]["parts"][0]
        for n in value["mapping"].values()
        if n["message"] and n["message"]["author"]["role"] == "user"
    ]


@settings(max_examples=300, deadline=None)
@given(trees())
def test_every_message_is_kept_and_references_point_back(
    case: tuple[dict[str, Any], list[str]],
) -> None:
    value, _branch_texts = case
    imported = read_conversation(value, 0)
    events = [e for _m, e in imported.events]
    inputs = {s for s, e in enumerate(events) if isinstance(e, UserMessage)}
    said = {e.text for e in events if isinstance(e, UserMessage)}
    answered = "\n\n".join(e.text for e in events if isinstance(e, AssistantMessage))
    mapping = value["mapping"]
    first_user_seen = _users_reachable_only_through_answers(mapping)
    for key, node in mapping.items():
        message = node["message"]
        if not message or not message["content"]["parts"][0]:
            continue
        text = message["content"]["parts"][0]
        role = message["author"]["role"]
        if role == "user":
            assert text in said
        elif role in ("assistant", "tool") and key not in first_user_seen:
            assert text in answered.split("\n\n")
    for seq, event in enumerate(events):
        if isinstance(event, UserMessage):
            assert event.parent is None or event.parent < seq
            assert event.parent is None or event.parent == -1 or event.parent in inputs
            assert event.revises is None or (event.revises < seq and event.revises in inputs)


def _users_reachable_only_through_answers(mapping: dict[str, Any]) -> set[str]:
    """Answers with no user message above them: they answer no input (counted, not kept)."""
    orphans: set[str] = set()
    for key in mapping:
        probe: str | None = key
        seen_user = False
        while probe is not None:
            message = mapping[probe]["message"]
            if message and message["author"]["role"] == "user":
                seen_user = True
                break
            probe = mapping[probe]["parent"]
        if not seen_user:
            orphans.add(key)
    return orphans
