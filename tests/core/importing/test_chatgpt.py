"""The ChatGPT export's conversations as Chime events: branches as versions, the shown branch,
code, images, tool output, instructions, times; and the malformed cases."""

from __future__ import annotations

import json

import pytest

from core.events import (
    AssistantMessage,
    Attachment,
    PathSelected,
    SessionInstructions,
    SessionTitle,
    TurnEnd,
    UserMessage,
)
from core.importing.chatgpt import read_conversation
from core.importing.session_lines import event_lines, header_line
from core.session.conversation import ConversationFolder
from core.session.lines import parse_header, parse_line
from tests.core.importing.chatgpt_export import T0, Conversation, branched, with_code_and_image


def shown_texts(events: list) -> list[str]:
    folder = ConversationFolder()
    for seq, (_ms, event) in enumerate(events):
        if isinstance(event, UserMessage):
            folder.user_message(seq, event.parent, event.revises)
        elif isinstance(event, PathSelected):
            folder.select(seq, event.leaf)
    path = folder.snapshot(frozenset()).path
    return [e.text for s, (_m, e) in enumerate(events) if isinstance(e, UserMessage) and s in path]


def test_the_shown_branch_is_the_conversation_and_the_others_are_versions() -> None:
    imported = read_conversation(branched().to_json(), 0)
    events = [e for _ms, e in imported.events]
    assert events[0] == SessionTitle("Trip to Lisbon")
    inputs = [(s, e) for s, e in enumerate(events) if isinstance(e, UserMessage)]
    texts = [e.text for _s, e in inputs]
    # the regenerated answer is a second copy of the question, revising the first
    assert texts.count("Plan three days in Lisbon") == 2
    assert inputs[1][1].revises == inputs[0][0]
    answers = [e.text for e in events if isinstance(e, AssistantMessage)]
    assert answers == ["Day 1: Alfama.", "Day 1: Belém.", "Sintra.", "Cascais."]
    edited = next(e for _s, e in inputs if e.text == "Add a beach day")
    first = next(s for s, e in inputs if e.text == "Add a day trip")
    assert edited.revises == first
    assert shown_texts(imported.events) == ["Plan three days in Lisbon", "Add a beach day"]
    assert all(e.status == "completed" for e in events if isinstance(e, TurnEnd))


def test_another_shown_node_selects_its_branch() -> None:
    conversation = branched()
    conversation.current = "a2"
    imported = read_conversation(conversation.to_json(), 0)
    assert shown_texts(imported.events) == ["Plan three days in Lisbon", "Add a day trip"]
    assert isinstance(imported.events[-1][1], PathSelected)


def test_code_tool_output_and_images() -> None:
    imported = read_conversation(with_code_and_image().to_json(), 0)
    events = [e for _ms, e in imported.events]
    question = next(e for e in events if isinstance(e, UserMessage))
    assert question.text == "[Image not imported: chart.png]\n\nWhat does this chart show?"
    answer = next(e for e in events if isinstance(e, AssistantMessage))
    assert answer.text.startswith("```python\nprint(sum([1, 2]))\n```\n\n```\n3\n```\n\nIt sums")
    assert answer.model.provider == "chatgpt"
    assert answer.model.name == "gpt-4o"
    assert imported.images == 1


def test_times_are_the_messages_own_and_never_go_back() -> None:
    conversation = Conversation("Times")
    conversation.say("u1", "sys", "user", "first", at=T0 + 100)
    conversation.say("a1", "u1", "assistant", "answer", at=T0 + 50)  # a clock that went back
    imported = read_conversation(conversation.to_json(), 0)
    header = parse_header(header_line("s1", imported.created_ms).rstrip(b"\n"))
    assert header.created_at == "2023-11-14T22:13:20.000Z"
    lines = list(event_lines(imported.created_ms, imported.events))
    ats = [parse_line(line.rstrip(b"\n"), seq)[0] for seq, line in enumerate(lines)]
    assert ats[1] == "2023-11-14T22:15:00.000Z"  # the question, 100 s after the start
    assert ats == sorted(ats)


def test_a_system_message_becomes_the_instructions_and_roles_are_kept() -> None:
    conversation = Conversation("Sys")
    conversation.say("s2", "sys", "system", "Answer in French.")
    conversation.say("a0", "s2", "assistant", "Bonjour !")  # before any question: no input
    conversation.say("u1", "a0", "user", "Hello")
    conversation.say("t1", "u1", "tool", "search results")
    conversation.say("a1", "t1", "assistant", "Salut.")
    imported = read_conversation(conversation.to_json(), 0)
    events = [e for _ms, e in imported.events]
    assert SessionInstructions("Answer in French.") in events
    answer = next(e for e in events if isinstance(e, AssistantMessage))
    assert answer.text == "search results\n\nSalut."
    assert imported.skipped == 1


def test_thoughts_become_reasoning_and_hidden_messages_are_skipped() -> None:
    conversation = Conversation("Think")
    conversation.say("u1", "sys", "user", "Why?")
    conversation.add(
        "th",
        "u1",
        "assistant",
        {"content_type": "thoughts", "thoughts": [{"summary": "s", "content": "Let me think."}]},
    )
    conversation.add("rr", "th", "assistant", {"content_type": "reasoning_recap", "content": "x"})
    conversation.say("hid", "rr", "assistant", "secret", hidden=True)
    conversation.say("a1", "hid", "assistant", "Because.")
    imported = read_conversation(conversation.to_json(), 0)
    answer = next(e for _m, e in imported.events if isinstance(e, AssistantMessage))
    assert (answer.text, answer.reasoning) == ("Because.", "Let me think.")


@pytest.mark.parametrize(
    "value",
    [[], "text", {"title": "x"}, {"mapping": []}],
)
def test_what_is_not_a_conversation_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="mapping"):
        read_conversation(value, 0)


def test_odd_nodes_do_not_break_the_import() -> None:
    value = branched().to_json()
    value["mapping"]["junk"] = "not a node"
    value["mapping"]["u1"]["children"].append(42)
    value["mapping"]["loop1"] = {"id": "loop1", "message": None, "children": ["loop2"]}
    value["mapping"]["loop2"] = {"id": "loop2", "message": None, "children": ["loop1"]}
    value["current_node"] = "nowhere"
    value["create_time"] = None
    value["title"] = None
    imported = read_conversation(json.loads(json.dumps(value)), 1234)
    assert imported.created_ms == int((T0 + 3600) * 1000)  # the update time stands in
    assert imported.title == ""
    assert len([e for _m, e in imported.events if isinstance(e, AssistantMessage)]) == 4


def test_a_conversation_without_messages_has_no_events() -> None:
    imported = read_conversation({"mapping": {}, "title": "Empty"}, 5000)
    assert imported.created_ms == 5000
    assert [e for _m, e in imported.events] == [SessionTitle("Empty")]


def test_pictures_and_files_the_export_holds_become_attachments() -> None:
    chart = Attachment("chart.png", "image/png", "a" * 64, 10)
    conversation = with_code_and_image()
    conversation.mapping["u1"]["message"]["metadata"]["attachments"].append(
        {"id": "file-Doc", "name": "notes.pdf", "mimeType": "application/pdf"}
    )
    asked: list[tuple[str, str]] = []

    def attach(file_id: str, name: str) -> Attachment | None:
        asked.append((file_id, name))
        return chart if file_id == "file-AbC123" else None

    imported = read_conversation(conversation.to_json(), 0, attach)
    question = next(e for _m, e in imported.events if isinstance(e, UserMessage))
    assert question.text == "What does this chart show?\n\n[File not imported: notes.pdf]"
    assert question.attachments == (chart,)
    assert asked == [("file-AbC123", "chart.png"), ("file-Doc", "notes.pdf")]
    assert (imported.images, imported.files) == (0, 1)
