"""The verbs of agent.md §7 on real session files: each survives a close and a reopen, cold (no
checkpoint) and warm (from the checkpoint written on close), and a crash on either side of an
edit's ``user/message`` reaching the disk leaves one of the two consistent states, never a mix."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from core.agent.history import fold_history
from core.errors import ProviderError
from core.events import ROOT, Attachment, UserMessage
from core.host import SessionHost
from core.llm.messages import ModelRequest
from core.llm.offline import OfflineAssistant
from core.session.conversation import shown
from core.session.live import LiveSession
from core.session.store import SessionStore
from tests import wire as v
from tests.core.agent.fakes import Reply, ScriptedModel
from tests.core.test_host_store import START, Run, make_store, read_log, run_killed_child
from tests.core.verb_crash_child import EDITED
from tests.fakes import FakeClock

REFUSED = ProviderError("bad_request", "The endpoint refused the request.")
NOTE = b"buy milk\n"


def answering(request: ModelRequest) -> Reply:
    """An answer naming what it answers, so every exchange of a history can be told apart."""
    return Reply(f"answer to {request.messages[-1].text}")


def model(*failing: int) -> ScriptedModel:
    """Answers every request; the requests numbered in ``failing`` (from 0) fail."""
    return ScriptedModel([Reply(error=REFUSED) if n in failing else answering for n in range(40)])


def view(session: LiveSession) -> dict[str, Any]:
    """What a reader and the model see of the session: the whole fold state, the conversation
    tree, the session's choices, the shown entries and the history of the shown leaf."""
    conversation = session.conversation()
    leaf = conversation.leaf
    return {
        "folds": session._memory.folds.to_json(),  # what the checkpoint carries
        "conversation": conversation,
        "inputs": session.inputs(),
        "choices": session.choices(),
        "shown": [entry.to_json() for entry in shown(conversation, session.entries)],
        "history": () if leaf == ROOT else fold_history(session.entries, conversation, leaf),
    }


def seq_of(session: LiveSession, text: str) -> int:
    return next(
        e.seq for e in session.entries if isinstance(e.event, UserMessage) and e.event.text == text
    )


async def exchange(run: Run, text: str, attachments: tuple[Attachment, ...] = ()) -> None:
    run.host.submit(text, attachments=attachments)
    await run.idle()


async def attach(host: SessionHost, session: LiveSession) -> None:
    record = await session.add_attachment("list.txt", NOTE)
    assert isinstance(record, Attachment)
    host.submit("see the list", attachments=[record])


def edit(host: SessionHost, session: LiveSession) -> None:
    host.agent.edit(seq_of(session, "b"), "b, better", "UTC")


def regenerate(host: SessionHost, session: LiveSession) -> None:
    host.agent.regenerate(seq_of(session, "b"))


def hide(host: SessionHost, session: LiveSession) -> None:
    host.agent.hide(seq_of(session, "b"))


def unhide(host: SessionHost, session: LiveSession) -> None:
    host.agent.hide(seq_of(session, "b"))
    host.agent.hide(seq_of(session, "b"), hidden=False)


def select(host: SessionHost, session: LiveSession) -> None:
    """Back to the first version of "b" (a regenerate made a second one before)."""
    b = seq_of(session, "b")
    assert len(session.conversation().versions(b)) == 2
    host.agent.select(session.conversation().leaf_for(b))


def retry(host: SessionHost, session: LiveSession) -> None:
    assert host.retry(seq_of(session, "b"))


def choose_model(host: SessionHost, _session: LiveSession) -> None:
    host.agent.choose_model("offline", None, 0.3)


def set_instructions(host: SessionHost, _session: LiveSession) -> None:
    host.agent.set_instructions("Answer in one line.")


Verb = Callable[[SessionHost, LiveSession], Awaitable[None] | None]
VERBS: dict[str, tuple[Verb, tuple[int, ...]]] = {
    # name: (the verb, the model requests that fail: "b" is request 1)
    "edit": (edit, ()),
    "regenerate": (regenerate, ()),
    "hide": (hide, ()),
    "unhide": (unhide, ()),
    "select": (select, ()),
    "retry": (retry, (1,)),
    "choose_model": (choose_model, ()),
    "set_instructions": (set_instructions, ()),
    "attachment": (attach, ()),
}


async def reopen_view(store: SessionStore, session_id: str, clock: FakeClock) -> dict[str, Any]:
    """The view of the reopened session before anything runs, checked again once verified."""
    session = await store.open(session_id)
    seen = view(session)
    assert await session.verification()  # a warm open's checkpoint stood
    assert view(session) == seen
    if session.inputs().pending == ():  # nothing to answer: the host adds no event either
        run = Run(session, OfflineAssistant(clock), clock)
        run.host.start()
        await run.idle()
        assert view(session) == seen
        await run.host.dispose()
    else:
        await session.close()
    return seen


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_each_verb_is_shown_and_sent_the_same_after_a_cold_and_a_warm_reopen(
    tmp_path: Path, verb: str
) -> None:
    act, failing = VERBS[verb]
    clock = FakeClock(START)
    store = make_store(tmp_path, clock)

    async def main() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], bool]:
        session = await store.create()
        run = Run(session, model(*failing), clock)
        run.host.start()
        for text in ("a", "b", "c"):
            await exchange(run, text)
        if verb == "select":
            regenerate(run.host, session)
            await run.idle()
        result = act(run.host, session)
        if result is not None:
            await result
        await run.idle()
        before = view(session)
        await run.host.dispose()
        folder = tmp_path / "sessions" / session.id
        assert (folder / "checkpoint.json").exists()
        reopened = await store.open(session.id)
        warm_open = not reopened.verified  # a warm open verifies its checkpoint later
        await reopened.close()
        warm = await reopen_view(store, session.id, clock)
        (folder / "checkpoint.json").unlink()
        (folder / "offsets.bin").unlink()
        cold = await reopen_view(store, session.id, clock)
        return before, warm, cold, warm_open

    before, warm, cold, warm_open = asyncio.run(main())
    assert warm_open
    assert warm == before
    assert cold == before
    assert_verb_took_effect(verb, before)


def assert_verb_took_effect(verb: str, seen: dict[str, Any]) -> None:
    """The view holds the verb's effect (so equal views compare something)."""
    texts = [e["data"].get("text") for e in seen["shown"] if e["type"] == v.USER_MESSAGE]
    history = [m.text for m in seen["history"]]
    expected = {
        "edit": (["a", "b, better"], ["a", "answer to a", "b, better", "answer to b, better"]),
        "regenerate": (["a", "b"], ["a", "answer to a", "b", "answer to b"]),
        "hide": (["a", "c"], ["a", "answer to a", "c", "answer to c"]),
        "select": (["a", "b", "c"], ["a", "answer to a", "b", "answer to b", "c", "answer to c"]),
        "retry": (["a", "b", "c"], ["a", "answer to a", "b", "answer to b", "c", "answer to c"]),
        "attachment": (["a", "b", "c", "see the list"], None),
    }
    everything = ["a", "b", "c"], [f"{p}{t}" for t in "abc" for p in ("", "answer to ")]
    shown_texts, sent = expected.get(verb, everything)
    assert texts == shown_texts
    if sent is not None:
        assert history == sent
    conversation, choices = seen["conversation"], seen["choices"]
    if verb in ("edit", "regenerate"):
        assert len(conversation.versions(conversation.leaf)) == 2
    if verb == "choose_model":
        assert choices.model is not None
        assert choices.model.temperature == 0.3
    if verb == "set_instructions":
        assert choices.instructions == "Answer in one line."
    if verb == "attachment":
        (message,) = [m for m in seen["history"] if m.attachments]
        assert message.attachments[0].size == len(NOTE)


def test_an_attachment_reads_back_after_a_reopen(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = make_store(tmp_path, clock)

    async def main() -> bytes | None:
        session = await store.create()
        run = Run(session, model(), clock)
        run.host.start()
        await attach(run.host, session)
        await run.idle()
        await run.host.dispose()
        reopened = await store.open(session.id)
        (message,) = [e.event for e in reopened.entries if isinstance(e.event, UserMessage)]
        data = await reopened.read_attachment(message.attachments[0].sha256)
        await reopened.close()
        return data

    assert asyncio.run(main()) == NOTE


# -- a crash on either side of an edit reaching the disk -------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("cut", ["before", "message", "turn"])
def test_a_crash_around_an_edit_leaves_the_conversation_before_or_after_it_never_a_mix(
    tmp_path: Path, cut: str
) -> None:
    clock = FakeClock(START)
    store = make_store(tmp_path, clock)

    async def two_exchanges() -> tuple[str, dict[str, Any]]:
        session = await store.create()
        run = Run(session, OfflineAssistant(clock), clock)
        run.host.start()
        for text in ("hello", "thanks!"):
            await exchange(run, text)
        before = view(session)
        await run.host.dispose()
        return session.id, before

    session_id, before = asyncio.run(two_exchanges())
    run_killed_child(
        "tests.core.verb_crash_child", str(tmp_path), session_id, START.isoformat(), cut
    )
    on_disk = read_log(tmp_path, session_id)
    edits = [e for e in on_disk if e["type"] == v.USER_MESSAGE and "revises" in e["data"]]
    if cut == "before":
        assert edits == []
    else:
        (edited,) = edits
        after = [e["type"] for e in on_disk[edited["seq"] + 1 :]]
        assert after == ([] if cut == "message" else [v.TURN_START, v.CONTEXT_TIME])

    async def reopen() -> tuple[dict[str, Any], dict[str, Any], int]:
        session = await store.open(session_id)
        opened = view(session)
        run = Run(session, OfflineAssistant(clock), clock)
        run.host.start()
        await run.idle()
        answered, count = view(session), len(session.entries)
        await run.host.dispose()
        return opened, answered, count

    opened, answered, count = asyncio.run(reopen())
    if cut == "before":  # nothing of the edit: the session is as it was, and stays so
        assert opened == before
        assert answered == before
        assert count == len(on_disk)
        return
    edit_seq = edits[0]["seq"]
    for seen in (opened, answered):  # the edit whole: the leaf, a version of "hello", alone
        conversation = seen["conversation"]
        assert conversation.leaf == edit_seq
        assert conversation.versions(0) == (0, edit_seq)
        shown_inputs = [e["seq"] for e in seen["shown"] if e["type"] == v.USER_MESSAGE]
        assert shown_inputs == [edit_seq]
        assert all(m.text != "hello" for m in seen["history"])
    assert opened["inputs"].pending == (edit_seq,)  # its turn runs when the session next runs
    assert [m.role for m in answered["history"]] == ["user", "assistant"]
    assert answered["history"][0].text == EDITED
    turn_ends = [e for e in answered["shown"] if e["type"] == v.TURN_END]
    assert [e["data"]["status"] for e in turn_ends] == ["completed"]
    assert answered["inputs"].pending == ()
