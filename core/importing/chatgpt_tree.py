"""The message tree of one ChatGPT conversation as Chime's inputs and answers. Pure: no I/O.

ChatGPT keeps a conversation as a tree (``mapping``: each node names its ``parent`` and
``children``); ``current_node`` is the end of the branch that was shown. Chime keeps a tree of
inputs (agent.md §7): every ``user/message`` follows a parent input, may revise another (a
version), and is answered by its own turn. So (``exchanges``):

- each user node becomes an input; the assistant and tool nodes after it, up to the next user
  node, become its answer (one ``assistant/message``, their texts in order);
- several user children of one node (the user edited a message) become versions of one input;
- several answers to one user node (the user regenerated) become versions too: each further answer
  gets its own copy of the input, as Chime's Regenerate records it (agent.md §7). An answer that
  branches in its middle (after a tool's output) gives one version per branch, each with the
  whole answer up to its end;
- the shown branch is the input whose exchange holds ``current_node`` (the newest node when the
  export names none, or one it does not hold); system, hidden and empty nodes are passed through.

Nothing is dropped but answers that precede the first user message (they answer no input in
Chime: counted in ``dropped_answers``). The result is in the order Chime writes it: a unit after
its parent and the version it revises, otherwise by time.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.importing.chatgpt_content import NodeText, read_node

NONE = -1
"""No unit: the root as a parent, or no version revised."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One Chime input and its answer. ``parent``/``revises`` are indices into the unit list
    (``NONE``: the root / no version); ``answer`` holds the node ids of the answer, in order."""

    user: str
    answer: tuple[str, ...]
    parent: int
    revises: int


@dataclass(slots=True)
class Exchanges:
    """The units in write order, the index of the shown one (``NONE``: no input at all), the
    node texts they refer to, and the shown branch's instructions (a system message's text)."""

    units: list[Unit] = field(default_factory=list)
    shown: int = NONE
    texts: dict[str, NodeText] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    instructions: str = ""
    dropped_answers: int = 0


class _Tree:
    """The mapping with empty, hidden and system nodes passed through (``children`` of a node are
    the nearest user or answer nodes below it)."""

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        self.texts: dict[str, NodeText] = {}
        self.times: dict[str, float] = {}
        self.raw_children: dict[str, list[str]] = {}
        self.parent: dict[str, str] = {}
        for key, node in mapping.items():
            if not isinstance(node, dict):
                continue
            self.texts[key] = read_node(node)
            self.times[key] = _time(node)
            kids = node.get("children")
            self.raw_children[key] = (
                [k for k in kids if isinstance(k, str)] if isinstance(kids, list) else []
            )
        seen: set[str] = set()
        for key, kids in self.raw_children.items():
            for kid in kids:
                if kid in self.texts and kid not in seen and kid != key:
                    seen.add(kid)
                    self.parent[kid] = key
        self.roots = [k for k in self.texts if k not in self.parent]
        self._memo: dict[str, list[str]] = {}

    def children(self, key: str) -> list[str]:
        """The user and answer nodes below ``key``, passing through the others, oldest first."""
        if key in self._memo:
            return self._memo[key]
        found: list[str] = []
        stack = list(reversed(self._own(key)))
        while stack:
            kid = stack.pop()
            if self.texts[kid].kind in ("user", "answer"):
                found.append(kid)
            else:
                stack.extend(reversed(self._own(kid)))
        self._memo[key] = found
        return found

    def _own(self, key: str) -> list[str]:
        kids = [k for k in self.raw_children.get(key, ()) if self.parent.get(k) == key]
        return sorted(kids, key=lambda k: self.times.get(k, 0.0))


def exchanges(mapping: Mapping[str, Any], current: object) -> Exchanges:
    """The conversation's units (see the module docstring)."""
    tree = _Tree(mapping)
    found: list[Unit] = []
    contains: dict[str, list[int]] = {}
    ends: dict[int, str] = {}
    first_of: dict[str, int] = {}
    queue: deque[tuple[str, int, str]] = deque()
    dropped = _start(tree, queue)
    while queue:
        user, parent, sibling = queue.popleft()
        revises = first_of.get(sibling, NONE)
        for chain, end in _answers(tree, user):
            index = len(found)
            found.append(Unit(user, chain, parent, first_of.get(user, revises)))
            first_of.setdefault(user, index)
            ends[index] = end
            for key in (user, *chain):
                contains.setdefault(key, []).append(index)
            _follow(tree, end, index, queue)
    result = Exchanges(texts=tree.texts, times=tree.times, dropped_answers=dropped)
    result.units, position = _in_write_order(found, tree.times)
    key = _current(tree, current, contains)
    if key:
        held = contains[key]
        shown = next((i for i in held if ends[i] == key), held[0])
        result.shown = position[shown]
        result.instructions = _instructions(tree, key)
    return result


def _start(tree: _Tree, queue: deque[tuple[str, int, str]]) -> int:
    """Queue the first user messages (below the roots, through answers without an input: each
    after the first is a version of it); returns how many answers came before any user message."""
    dropped = 0
    first = ""
    stack = [kid for root in reversed(tree.roots) for kid in reversed(_entry(tree, root))]
    while stack:
        key = stack.pop()
        if tree.texts[key].kind == "user":
            queue.append((key, NONE, first))
            first = first or key
            continue
        dropped += 1
        stack.extend(reversed(tree.children(key)))
    return dropped


def _entry(tree: _Tree, root: str) -> list[str]:
    return [root] if tree.texts[root].kind in ("user", "answer") else tree.children(root)


def _answers(tree: _Tree, user: str) -> list[tuple[tuple[str, ...], str]]:
    """Every answer to ``user``: (its nodes, the node it ends at), one per branch; an input with
    no answer gives one empty answer."""
    found: list[tuple[tuple[str, ...], str]] = []
    stack: list[tuple[str, tuple[str, ...]]] = [(user, ())]
    while stack:
        key, chain = stack.pop()
        kids = tree.children(key)
        answers = [k for k in kids if tree.texts[k].kind == "answer"]
        if len(answers) < len(kids) or not answers:
            found.append((chain, key))
        stack.extend((k, (*chain, k)) for k in reversed(answers))
    return found


def _follow(tree: _Tree, end: str, index: int, queue: deque[tuple[str, int, str]]) -> None:
    """Queue the user messages after an answer: the first an input, the others its versions."""
    users = [k for k in tree.children(end) if tree.texts[k].kind == "user"]
    for key in users:
        queue.append((key, index, users[0] if key != users[0] else ""))


def _current(tree: _Tree, current: object, contains: Mapping[str, list[int]]) -> str:
    """The node the shown branch ends at: ``current`` or its nearest held ancestor; the newest
    held node when ``current`` is not in the tree ("" when nothing is held)."""
    key = current if isinstance(current, str) and current in tree.texts else ""
    while key and key not in contains:
        key = tree.parent.get(key, "")
    if key or not contains:
        return key
    return max(contains, key=lambda k: (tree.times.get(k, 0.0), contains[k][-1]))


def _instructions(tree: _Tree, key: str) -> str:
    """The text of the first system message on the path to ``key`` ("" when none has one)."""
    texts: list[str] = []
    while key:
        text = tree.texts[key]
        if text.kind == "system":
            texts.append(text.text)
        key = tree.parent.get(key, "")
    return texts[-1] if texts else ""


def _in_write_order(units: list[Unit], times: Mapping[str, float]) -> tuple[list[Unit], list[int]]:
    """The units renumbered so each comes after its parent and what it revises, else by time
    (ties in the order found); also where each unit went."""
    waiting: dict[int, list[int]] = {}
    left: dict[int, int] = {}
    ready: list[tuple[float, int]] = []
    for index, unit in enumerate(units):
        needs = {n for n in (unit.parent, unit.revises) if n != NONE}
        left[index] = len(needs)
        if not needs:
            heapq.heappush(ready, (times.get(unit.user, 0.0), index))
        for need in needs:
            waiting.setdefault(need, []).append(index)
    order: list[int] = []
    while ready:
        _, index = heapq.heappop(ready)
        order.append(index)
        for after in waiting.get(index, ()):
            left[after] -= 1
            if left[after] == 0:
                heapq.heappush(ready, (times.get(units[after].user, 0.0), after))
    position = {old: new for new, old in enumerate(order)}
    written = [
        Unit(u.user, u.answer, position.get(u.parent, NONE), position.get(u.revises, NONE))
        for u in (units[i] for i in order)
    ]
    return written, [position[i] for i in range(len(units))]


def _time(node: Mapping[str, Any]) -> float:
    """A node's creation time in seconds (0 when unknown)."""
    message = node.get("message")
    value = message.get("create_time") if isinstance(message, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return float(value) if 0 <= value < 253402300799 else 0.0
