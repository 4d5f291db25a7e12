"""The conversation tree (agent.md §7) against a naive reference: every input's parent spelled out,
paths walked one parent at a time, versions and branch ends recomputed from scratch."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import (
    ROOT,
    AssistantMessage,
    Entry,
    Event,
    ExchangeHidden,
    ModelRef,
    PathSelected,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.conversation import ConversationFolder, parent_of, path_of, shown
from core.session.folds import SessionFolds

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("scripted", "m")

# An op: ("say", None) a new input following the leaf; ("edit", k) a version of the k-th input;
# ("select", k) the k-th input as leaf; ("hide", k) / ("show", k); ("turn", status) a turn on the
# newest input without one, or on the k-th failed one.
OPS = st.lists(
    st.tuples(st.just("say"), st.none())
    | st.tuples(st.sampled_from(["edit", "select", "hide", "show", "retry"]), st.integers(0, 30))
    | st.tuples(st.just("turn"), st.sampled_from(["completed", "failed", "cancelled"])),
    max_size=30,
)


class Reference:
    """The tree the naive way: a parent per input, a leaf, version groups, hidden inputs."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.leaf = ROOT
        self.revises: dict[int, int] = {}
        self.hidden: set[int] = set()

    def path(self, leaf: int) -> list[int]:
        path = []
        while leaf != ROOT:
            path.append(leaf)
            leaf = self.parent[leaf]
        return path[::-1]

    def group(self, seq: int) -> list[int]:
        root = seq
        while root in self.revises:
            root = self.revises[root]
        members = [s for s in self.parent if self._root(s) == root]
        return sorted(members)

    def _root(self, seq: int) -> int:
        while seq in self.revises:
            seq = self.revises[seq]
        return seq

    def branch_end(self, version: int) -> int:
        """The newest input whose path goes through ``version``."""
        return max(seq for seq in self.parent if version in self.path(seq))


def build(ops: list[Any]) -> tuple[list[Entry], Reference]:
    """A log written the way the agent writes it, and the reference tree beside it."""
    log: list[Entry] = []
    ref = Reference()
    folds = SessionFolds()

    def add(event: Event) -> int:
        log.append(Entry(len(log), AT, event))
        folds.feed(log[-1])
        return len(log) - 1

    def add_input(parent: int, revises: int | None) -> None:
        written = None if parent == folds.conversation.last_input and revises is None else parent
        seq = add(
            UserMessage(f"u{len(log)}", f"text {len(log)}", UserSource(None), written, revises)
        )
        ref.parent[seq] = parent
        if revises is not None:
            ref.revises[seq] = revises
        ref.leaf = seq

    for op, arg in ops:
        inputs = sorted(ref.parent)
        if op == "say":
            add_input(ref.leaf, None)
        elif op == "turn":
            waiting = [
                s
                for s in inputs
                if not any(isinstance(e.event, TurnStart) and e.event.input == s for e in log)
            ]
            if waiting:
                number = folds.inputs().last_turn + 1
                add(TurnStart(number, waiting[-1]))
                add(AssistantMessage(f"a{len(log)}", f"answer {len(log)}", (), MODEL, "stop"))
                add(TurnEnd(number, arg))
        elif inputs:
            target = inputs[arg % len(inputs)]
            if op == "edit":
                add_input(ref.parent[target], target)
            elif op == "select":
                add(PathSelected(target))
                ref.leaf = target
            elif op == "retry" and target in folds.failed:
                number = folds.inputs().last_turn + 1
                add(TurnStart(number, target))
                add(AssistantMessage(f"a{len(log)}", f"retried {len(log)}", (), MODEL, "stop"))
                add(TurnEnd(number, "completed"))
            elif op in ("hide", "show"):
                add(ExchangeHidden(target, op == "hide"))
                (ref.hidden.add if op == "hide" else ref.hidden.discard)(target)
    return log, ref


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_paths_versions_and_leaves_match_the_naive_tree(ops: list[Any]) -> None:
    log, ref = build(ops)
    folds = SessionFolds()
    for entry in log:
        folds.feed(entry)
    conversation = folds.snapshot()
    assert conversation.leaf == ref.leaf
    assert conversation.hidden == ref.hidden
    for seq in ref.parent:
        on_path = [s for s in ref.parent if s in conversation.path_of(seq)]
        assert on_path == ref.path(seq)
        assert parent_of(log, conversation, seq) == ref.parent[seq]
        assert list(conversation.versions(seq)) == ref.group(seq)
        assert conversation.leaf_for(seq) == ref.branch_end(seq)


@settings(max_examples=150, deadline=None)
@given(OPS, st.integers(min_value=0))
def test_the_tree_survives_a_checkpoint_at_any_point(ops: list[Any], cut: int) -> None:
    log, _ = build(ops)
    cut %= len(log) + 1
    folds = SessionFolds()
    for entry in log[:cut]:
        folds.feed(entry)
    resumed = SessionFolds.from_json(folds.to_json(), folds.schedule)
    whole = SessionFolds()
    for entry in log:
        whole.feed(entry)
        if entry.seq >= cut:
            resumed.feed(entry)
    assert resumed.to_json() == whole.to_json()
    assert resumed.snapshot() == whole.snapshot()


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_the_shown_entries_are_the_path_with_each_inputs_latest_answer(ops: list[Any]) -> None:
    log, ref = build(ops)
    folds = SessionFolds()
    for entry in log:
        folds.feed(entry)
    seen = list(shown(folds.snapshot(), log))
    path = [s for s in ref.path(ref.leaf) if s not in ref.hidden]
    assert [e.seq for e in seen if isinstance(e.event, UserMessage)] == path
    for entry in seen:
        if isinstance(entry.event, TurnStart):
            later = [
                e.seq
                for e in log
                if isinstance(e.event, TurnStart) and e.event.input == entry.event.input
            ]
            assert entry.seq == later[-1]
            assert entry.event.input in path


def test_a_path_is_a_few_runs_of_consecutive_inputs() -> None:
    # 0 1 2 (3 revises 1, parent 0) 4: the path of 4 is 0, 3, 4; 1 and 2 are off it.
    parents = {3: 0}
    path = path_of(4, parents, [3])
    assert path.runs == ((3, 4), (0, 0))
    assert [s for s in range(5) if s in path] == [0, 3, 4]
    assert path_of(ROOT, parents, [3]).runs == ()


def test_a_select_of_a_later_seq_is_ignored_and_of_a_non_input_shows_the_input_before() -> None:
    folder = ConversationFolder()
    for seq in (0, 3, 6):  # inputs; answers in between
        folder.user_message(seq, None, None)
    folder.select(7, 9)
    assert folder.leaf == 6
    folder.select(7, 4)  # an answer's seq: the path is that of input 3
    path = folder.snapshot(frozenset()).path
    assert [s for s in (0, 3, 6) if s in path] == [0, 3]


def test_a_parent_that_does_not_come_first_ends_the_path() -> None:
    assert path_of(5, {5: 7}, [5]).runs == ((5, 5),)


def test_a_folder_state_of_another_shape_is_refused() -> None:
    state = ConversationFolder().to_json()
    for bad in [{**state, "leaf": "x"}, {**state, "groups": [[1]]}, {**state, "hidden": [-5]}]:
        try:
            ConversationFolder.from_json(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad}")
