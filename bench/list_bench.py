"""Sessions list benchmark: 1,000 conversations grouped, pinned, in folders and archived stay
fluent. Prints figures with their goals.

    .venv/bin/python bench/list_bench.py [--sessions 1000] [--runs 5]

The sidebar (``ui.session_list.SessionListPanel``, 260×700 px, offscreen) is given ``--sessions``
conversations over the last 60 days (titles of a whole first line), 20 pinned, 5 folders holding
150 of them, 30 archived, and timed as the app drives it:

1. open: the first ``set_sessions`` with the arrangement, and the first paint;
2. refresh: ``set_sessions`` again with one conversation's activity moved to now (what every
   event of an open conversation does through ``AppController.refresh_sidebar``), with a repaint;
3. scroll: page by page from the top to the bottom, each step with its repaint: the longest step;
4. search: typing "garden plan" one key at a time into the filter (the list turns flat and is
   filtered as each key is typed), each key with its repaint: the longest key, then clearing it.

Baseline, in the same run: a bare ``QListView`` over a ``QStringListModel`` of the same titles
behind a ``QSortFilterProxyModel`` with Qt's own delegate, put through the same steps (what any
Qt list of this length costs at least). Figures are medians of ``--runs``, in CPU time of the GUI thread
(``--wall`` for wall-clock time, which ~8 busy processes on 2 cores inflate several times); each is
also given as a ratio to the baseline's. Each figure is the longest stall of its step: the step and its repaint,
or one of the event-loop turns after it (the list lays out a long list in batches there). Goal:
every step under 50 ms (a frame a person does not notice as a
stall); the ratios are informative, not a gate.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSortFilterProxyModel, QStringListModel, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QListView, QWidget  # noqa: E402

from core.organise import Organisation  # noqa: E402
from ui.session_list import SessionListItem, SessionListPanel  # noqa: E402

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
WORDS = [
    "garden",
    "plan",
    "budget",
    "coffee",
    "meeting",
    "review",
    "kitchen",
    "travel",
    "morning",
    "letter",
    "invoice",
    "recipe",
]
GOAL_MS = 50.0
CLOCK: list[Callable[[], float]] = [time.thread_time]
"""CPU time of the GUI thread (``--wall``: wall-clock time, which a busy machine inflates)."""
SETTLE_TURNS = 12
"""Event-loop turns timed after each step (the list's batched layout takes a few)."""
QUERY = "garden plan"


def items(count: int, seed: int = 7) -> list[SessionListItem]:
    pick = random.Random(seed)
    found = []
    for n in range(count):
        words = " ".join(pick.choice(WORDS) for _ in range(pick.randint(4, 14)))
        at = NOW - timedelta(minutes=pick.randint(0, 60 * 24 * 60))
        found.append(SessionListItem(f"s{n:05d}", f"{words} {n}", at, search_text=words))
    return found


def arrangement(shown: list[SessionListItem]) -> Organisation:
    org = Organisation()
    for n in range(5):
        org = org.add_folder(f"f{n + 1}", f"Folder {n + 1}")
    for n, item in enumerate(shown[:200]):
        if n < 20:
            org = org.pin(item.id, True)
        elif n < 170:
            org = org.move(item.id, f"f{n % 5 + 1}")
        else:
            org = org.archive(item.id, True)
    return org


class Subject:
    """One list under test: how to fill it, refresh it, scroll it and type into its filter."""

    def __init__(
        self,
        widget: QWidget,
        view: QListView,
        fill: Callable[[list[SessionListItem]], None],
        type_text: Callable[[str], None],
    ) -> None:
        self.widget, self.view, self.fill, self.type_text = widget, view, fill, type_text


def chime_list(shown: list[SessionListItem]) -> Subject:
    panel = SessionListPanel(lambda: NOW)
    panel.set_organisation(arrangement(shown))
    return Subject(
        panel, panel.list, lambda fresh: panel.set_sessions(fresh, None), panel.filter.setText
    )


def bare_list(_shown: list[SessionListItem]) -> Subject:
    view = QListView()
    model = QStringListModel(view)  # owned by the view: alive as long as it is
    proxy = QSortFilterProxyModel(view)
    proxy.setSourceModel(model)
    proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    view.setModel(proxy)
    view.setUniformItemSizes(True)

    def fill(fresh: list[SessionListItem]) -> None:
        ordered = sorted(fresh, key=lambda s: s.last_activity, reverse=True)
        model.setStringList([s.title for s in ordered])

    return Subject(view, view, fill, proxy.setFilterFixedString)


def ms(step: Callable[[], object], subject: Subject) -> float:
    """The longest stall of ``step``: the step with its repaint, or one of the event-loop turns
    after it (a batched layout goes on there) until the list is idle."""
    started = CLOCK[0]()
    step()
    subject.view.viewport().repaint()
    longest = CLOCK[0]() - started
    for _turn in range(SETTLE_TURNS):
        started = CLOCK[0]()
        QApplication.processEvents()
        longest = max(longest, CLOCK[0]() - started)
    return longest * 1000


def run_once(make: Callable[[list[SessionListItem]], Subject], count: int) -> dict[str, float]:
    shown = items(count)
    subject = make(shown)
    subject.widget.resize(260, 700)
    subject.widget.show()
    QApplication.processEvents()
    figures = {"open": ms(lambda: subject.fill(shown), subject)}
    moved = [*shown[1:], SessionListItem(shown[0].id, shown[0].title, NOW, live=True)]
    figures["refresh"] = ms(lambda: subject.fill(moved), subject)
    bar = subject.view.verticalScrollBar()
    steps = []
    while bar.value() < bar.maximum():
        before = bar.value()
        steps.append(ms(lambda: bar.setValue(bar.value() + bar.pageStep()), subject))
        if bar.value() == before:
            break
    figures["scroll"] = max(steps, default=0.0)
    keys = [ms(lambda n=n: subject.type_text(QUERY[: n + 1]), subject) for n in range(len(QUERY))]
    figures["search"] = max(keys)
    figures["clear"] = ms(lambda: subject.type_text(""), subject)
    subject.widget.close()
    subject.widget.deleteLater()
    QApplication.processEvents()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    args = parser.parse_args()
    if args.wall:
        CLOCK[0] = time.perf_counter
    app = QApplication.instance() or QApplication([])
    del app
    ours: list[dict[str, float]] = []
    bare: list[dict[str, float]] = []
    for _ in range(args.runs):  # interleaved, so a busy machine weighs on both alike
        bare.append(run_once(bare_list, args.sessions))
        ours.append(run_once(chime_list, args.sessions))
    what = "wall-clock" if args.wall else "CPU time of the GUI thread"
    print(
        f"sessions list, {args.sessions} conversations, medians of {args.runs} runs ({what}, ms):"
    )
    names = {
        "open": "open + first paint",
        "refresh": "refresh after an event + repaint",
        "scroll": "longest scroll step (a page + repaint)",
        "search": f"longest key typing “{QUERY}”",
        "clear": "clearing the search",
    }
    for key, name in names.items():
        mine = statistics.median(r[key] for r in ours)
        floor = statistics.median(r[key] for r in bare)
        verdict = "OK" if mine < GOAL_MS else "MISSED"
        ratio = mine / floor if floor > 0 else float("inf")
        print(
            f"  {name}: {mine:.1f} (bare Qt list {floor:.1f}, ratio {ratio:.1f}x); "
            f"goal < {GOAL_MS:.0f} {verdict}"
        )
    sys.stdout.flush()
    os._exit(0)  # WORKAROUND(PySide6 teardown, see app.main.run): skip finalizer-time GC


if __name__ == "__main__":
    raise SystemExit(main())
