"""The crash matrix's checks of the verbs (agent.md §7), on the committed events of a session.

Owns: a naive model of the conversation tree read straight from the JSON envelopes (every input's
parent walked one by one, the leaf, hidden exchanges, each input's turns, their statuses and
steps), and the checks that compare what the engine folds, shows and sends with it. Must not:
trust the engine's folds for the expected side (``core.session`` is only what is checked), or
write anything. ``crash_checks`` calls these after every kill and on every reopen; its docstring
lists them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.agent.history import MAX_EVENTS, fold_history
from core.events import ROOT, Entry, TurnStart, UserMessage, decode_entry
from core.session.conversation import Conversation, parent_of, shown
from core.session.folds import SessionFolds
from core.session.live import LiveSession
from tests import wire as v

Block = tuple[tuple[str, str], ...]
"""One exchange of a history: its messages as (role, text), the input first."""

UNBOUNDED = 10**12


def entries_of(envelopes: Sequence[Mapping[str, Any]]) -> list[Entry]:
    return [decode_entry(envelope) for envelope in envelopes]


def fresh_folds(entries: Sequence[Entry], seed_length: int) -> SessionFolds:
    """The session folds fed every entry from scratch (no checkpoint, no scan)."""
    folds = SessionFolds(seed_length)
    for entry in entries:
        folds.feed(entry)
    return folds


@dataclass
class Tree:
    """The conversation as the envelopes say it, with no fold: see the module docstring."""

    texts: dict[int, str] = field(default_factory=dict)
    parents: dict[int, int] = field(default_factory=dict)
    roots: dict[int, int] = field(default_factory=dict)
    """Input seq -> the first input of its versions (itself when it revises nothing)."""
    groups: dict[int, list[int]] = field(default_factory=dict)
    """The first input of some versions -> all of them, in log order."""
    leaf: int = ROOT
    hidden: set[int] = field(default_factory=set)
    turns: dict[int, list[int]] = field(default_factory=dict)
    """Input seq -> the seqs of its ``turn/start`` events, in log order."""
    status: dict[int, str] = field(default_factory=dict)
    """``turn/start`` seq -> its ``turn/end`` status (absent: the turn never ended)."""
    steps: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    """``turn/start`` seq -> its assistant and tool messages as (role, text)."""
    carried: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    """``turn/start`` seq -> the steps a later turn of its input carries on from (agent.md §7):
    its steps without text-only partial answers."""
    problems: list[str] = field(default_factory=list)

    def path(self, leaf: int) -> list[int]:
        """The inputs from the root to ``leaf``, oldest first, walking parents one by one."""
        found: list[int] = []
        seq = leaf
        while seq != ROOT and seq in self.parents and len(found) <= len(self.parents):
            found.append(seq)
            seq = self.parents[seq]
        return found[::-1]

    def latest_turn(self, input_seq: int) -> int | None:
        turns = self.turns.get(input_seq)
        return turns[-1] if turns else None

    def failed(self) -> set[int]:
        """The inputs whose latest turn failed (and was not run again since)."""
        return {seq for seq, turns in self.turns.items() if self.status.get(turns[-1]) == "failed"}

    def versions(self, seq: int) -> tuple[int, ...]:
        """It and every input revising it (or revising one of those), in log order."""
        group = self.groups.get(self.roots.get(seq, seq), [seq])
        return tuple(group) if len(group) > 1 else (seq,)


def read_tree(envelopes: Sequence[Mapping[str, Any]]) -> Tree:
    """A forward pass over the envelopes; a reference to anything but an earlier input is a
    problem (and is not followed)."""
    tree = Tree()
    previous = ROOT
    open_start: int | None = None
    start_of_turn: dict[int, int] = {}
    for envelope in envelopes:
        seq, kind, data = envelope["seq"], envelope["type"], envelope["data"]
        if kind == v.USER_MESSAGE:
            parent = data.get("parent", previous)
            if parent != ROOT and parent not in tree.texts:
                tree.problems.append(f"seq {seq}: parent {parent} is not an earlier input")
                parent = previous
            root = seq
            if "revises" in data:
                if data["revises"] in tree.texts:
                    root = tree.roots[data["revises"]]
                else:
                    tree.problems.append(f"seq {seq}: revises {data['revises']}, no earlier input")
            tree.roots[seq] = root
            tree.groups.setdefault(root, []).append(seq)
            tree.parents[seq] = parent
            tree.texts[seq] = data["text"]
            tree.leaf = previous = seq
        elif kind == v.PATH_SELECT:
            if data["leaf"] in tree.texts:
                tree.leaf = data["leaf"]
            else:
                tree.problems.append(f"seq {seq}: path/select of {data['leaf']}, no earlier input")
        elif kind == v.EXCHANGE_HIDE:
            if data["input"] not in tree.texts:
                tree.problems.append(f"seq {seq}: exchange/hide of {data['input']}, no input")
            (tree.hidden.add if data["hidden"] else tree.hidden.discard)(data["input"])
        elif kind == v.TURN_START:
            if data["input"] not in tree.texts:
                tree.problems.append(f"seq {seq}: turn/start on {data['input']}, no earlier input")
            tree.turns.setdefault(data["input"], []).append(seq)
            tree.steps[seq], tree.carried[seq] = [], []
            start_of_turn[data["turn"]] = open_start = seq
        elif kind in (v.ASSISTANT_MESSAGE, v.TOOL_RESULT) and open_start is not None:
            text = data["text"] if kind == v.ASSISTANT_MESSAGE else data["content"]
            step = ("assistant" if kind == v.ASSISTANT_MESSAGE else "tool", text)
            tree.steps[open_start].append(step)
            if not _partial(kind, data):
                tree.carried[open_start].append(step)
        elif kind == v.TURN_END:
            start = start_of_turn.get(data["turn"])
            if start is not None:
                tree.status[start] = data["status"]
            open_start = None
    return tree


def _partial(kind: str, data: Mapping[str, Any]) -> bool:
    """A text-only answer cut off by a stop, a failure or a crash."""
    return kind == v.ASSISTANT_MESSAGE and data["finish"] == "interrupted" and not data["toolCalls"]


def tree_violations(entries: Sequence[Entry], conversation: Conversation, tree: Tree) -> list[str]:
    """The fold's tree is the naive one: references, leaf, parents, hidden, failed, versions."""
    found = list(tree.problems)
    if conversation.leaf != tree.leaf:
        found.append(f"the leaf is {conversation.leaf}, the log says {tree.leaf}")
    for seq in tree.path(tree.leaf):
        follows = parent_of(entries, conversation, seq)
        if follows != tree.parents[seq]:
            found.append(f"input {seq} follows {follows}, the log says {tree.parents[seq]}")
    found += [
        f"input {seq} has versions {conversation.versions(seq)}, not {tree.versions(seq)}"
        for seq in tree.texts
        if conversation.versions(seq) != tree.versions(seq)
    ]
    if set(conversation.hidden) != tree.hidden:
        found.append(f"hidden {sorted(conversation.hidden)}, the log says {sorted(tree.hidden)}")
    if set(conversation.failed) != tree.failed():
        found.append(f"failed {sorted(conversation.failed)}, the log says {sorted(tree.failed())}")
    return found


def shown_violations(entries: Sequence[Entry], conversation: Conversation, tree: Tree) -> list[str]:
    """``shown`` yields the path's visible inputs in seq order, and only latest turns."""
    found: list[str] = []
    path = tree.path(tree.leaf)
    expected = [seq for seq in path if seq not in tree.hidden]
    inputs: list[int] = []
    turns: list[int] = []
    for entry in shown(conversation, entries):
        if isinstance(entry.event, UserMessage):
            inputs.append(entry.seq)
        elif isinstance(entry.event, TurnStart):
            turns.append(entry.seq)
            latest = tree.latest_turn(entry.event.input)
            if entry.seq != latest or entry.event.input not in expected:
                found.append(
                    f"shown turn at {entry.seq} (input {entry.event.input}) is not the latest "
                    f"turn ({latest}) of a shown input"
                )
    if inputs != expected:
        found.append(f"shown inputs {inputs}, the path without hidden ones is {expected}")
    answers = sorted(t for seq in expected if (t := tree.latest_turn(seq)) is not None)
    if turns != answers:
        found.append(f"shown turns {turns}, the shown inputs' latest turns are {answers}")
    return found


def expected_blocks(tree: Tree, input_seq: int, floor: int = 0) -> list[Block]:
    """The exchanges the turn on ``input_seq`` sends (agent.md §7), from the naive tree: each
    input, then the carried steps of the turns that ended interrupted or failed right before its
    latest turn (those starting at or after ``floor``, the history's event bound), then the
    latest turn's steps."""
    blocks: list[Block] = []
    for seq in tree.path(input_seq):
        latest = tree.latest_turn(seq)
        if seq in tree.hidden or latest is None:
            continue
        if tree.status.get(latest) == "failed" and seq != input_seq:
            continue
        steps = list(tree.steps[latest])
        for earlier in reversed(tree.turns[seq][:-1]):
            if earlier < floor or tree.status.get(earlier) not in ("interrupted", "failed"):
                break
            steps[:0] = tree.carried[earlier]
        blocks.append((("user", tree.texts[seq]), *steps))
    return blocks


def blocks_of(messages: Sequence[tuple[str, str]]) -> list[Block]:
    """A history cut into exchanges: each starts at a user message."""
    blocks: list[list[tuple[str, str]]] = []
    for message in messages:
        if message[0] == "user" or not blocks:
            blocks.append([])
        blocks[-1].append(message)
    return [tuple(block) for block in blocks]


def _is_subsequence(part: Sequence[Block], whole: Sequence[Block]) -> bool:
    remaining = iter(whole)
    return all(any(block == other for other in remaining) for block in part)


def history_violations(
    entries: Sequence[Entry], conversation: Conversation, tree: Tree
) -> list[str]:
    """The history of the shown path's last input: unbounded, exactly the naive exchanges; with
    the real window bounds, whole naive exchanges in order, its own last (when it ran)."""
    leaf = tree.leaf
    if leaf == ROOT:
        return []
    expected = expected_blocks(tree, leaf)
    whole = fold_history(
        entries,
        conversation,
        leaf,
        max_turns=UNBOUNDED,
        max_events=len(entries) + 1,
        max_chars=UNBOUNDED,
    )
    got = blocks_of([(m.role, m.text) for m in whole])
    found: list[str] = []
    if got != expected:
        found.append(
            f"the history of input {leaf} is {got[-3:]}..., the log says {expected[-3:]}..."
        )
    bounded = blocks_of([(m.role, m.text) for m in fold_history(entries, conversation, leaf)])
    floor = max(0, len(entries) - MAX_EVENTS)
    if not _is_subsequence(bounded, expected_blocks(tree, leaf, floor)):
        found.append(f"the bounded history of input {leaf} is not whole exchanges of its path")
    latest = tree.latest_turn(leaf)
    within = latest is not None and latest >= len(entries) - MAX_EVENTS
    if (
        within
        and leaf not in tree.hidden
        and bounded[-1:] != expected_blocks(tree, leaf, floor)[-1:]
    ):
        found.append(f"the bounded history of input {leaf} does not end with its own exchange")
    return found


def attachment_violations(folder: Path, envelopes: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every file a committed message names is in the session folder, whole."""
    found: list[str] = []
    for sha, size, seq in named_files(envelopes):
        try:
            data = (folder / "attachments" / sha).read_bytes()
        except OSError as error:
            found.append(f"seq {seq}: attachment {sha[:12]} cannot be read: {error}")
            continue
        if hashlib.sha256(data).hexdigest() != sha or len(data) != size:
            found.append(f"seq {seq}: attachment {sha[:12]} does not hold its bytes")
    return found


def named_files(envelopes: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, int]]:
    """(sha256, size, seq) of every attachment a ``user/message`` names."""
    return [
        (item["sha256"], item["size"], envelope["seq"])
        for envelope in envelopes
        if envelope["type"] == v.USER_MESSAGE
        for item in envelope["data"].get("attachments", ())
    ]


def folds_violations(session: LiveSession) -> list[str]:
    """The folds an open session reports (its fold state, ``conversation()``, ``inputs()``,
    ``choices()``) equal a fresh fold of every one of its entries: a checkpoint that carried
    wrong state would differ."""
    fresh = fresh_folds(session.entries, session.seed_length)
    engine = session._memory.folds  # the state a checkpoint carries (the test reads it)
    mine, theirs = engine.to_json(), fresh.to_json()
    found = [
        f"fold {key!r} is {mine.get(key)!r:.300}, from scratch {theirs.get(key)!r:.300}"
        for key in sorted(mine.keys() | theirs.keys())
        if mine.get(key) != theirs.get(key)
    ]
    views: dict[str, tuple[object, object]] = {
        "conversation": (session.conversation(), fresh.snapshot()),
        "inputs": (session.inputs(), fresh.inputs()),
        "choices": (session.choices(), fresh.choices()),
    }
    for name, (reported, expected) in views.items():
        found += [
            f"{name}().{key} is {mine!r:.300}, from scratch {theirs!r:.300}"
            for key, mine, theirs in _differences(reported, expected)
        ]
    return found


def _differences(one: object, other: object) -> list[tuple[str, object, object]]:
    """The fields in which two values of one dataclass differ."""
    return [
        (item.name, getattr(one, item.name), getattr(other, item.name))
        for item in dataclasses.fields(one)  # type: ignore[arg-type]  # the views are dataclasses
        if getattr(one, item.name) != getattr(other, item.name)
    ]


async def readback_violations(session: LiveSession) -> list[str]:
    """Every attachment a message of the open session names reads back through the session."""
    found: list[str] = []
    for sha, _size, seq in named_files(session.events):
        data = await session.read_attachment(sha)
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            found.append(f"seq {seq}: read_attachment({sha[:12]}) does not give its bytes")
    return found


def verb_counts(envelopes: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How much of each verb a log holds (the matrix's figures)."""
    names = ("edits", "selects", "hides", "retries", "failed_turns", "choices", "attachments")
    counts = dict.fromkeys(names, 0)
    inputs: dict[int, int] = {}  # turn number -> its input
    failed: set[int] = set()
    for envelope in envelopes:
        kind, data = envelope["type"], envelope["data"]
        if kind == v.USER_MESSAGE:
            counts["edits"] += "revises" in data
            counts["attachments"] += len(data.get("attachments", ()))
        elif kind == v.PATH_SELECT:
            counts["selects"] += 1
        elif kind == v.EXCHANGE_HIDE:
            counts["hides"] += 1
        elif kind in (v.SESSION_MODEL, v.SESSION_INSTRUCTIONS):
            counts["choices"] += 1
        elif kind == v.TURN_START:
            inputs[data["turn"]] = data["input"]
            counts["retries"] += data["input"] in failed
            failed.discard(data["input"])
        elif kind == v.TURN_END and data["status"] == "failed":
            counts["failed_turns"] += 1
            failed.add(inputs.get(data["turn"], ROOT))
    return counts
