"""The list's arrangement (core.organise): pins, folders and archive as values, the JSON kept in
organise.json, and ``arrange`` as a pure order: properties over any sessions and arrangement,
and the day groups at the edges of days in a zone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from core.organise import (
    DAY_GROUPS,
    FOLDER_NAME_CHARS,
    Group,
    Heading,
    Listed,
    Organisation,
    View,
    arrange,
    day_group,
    organisation_from_json,
)

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")
IDS = st.sampled_from([f"s{n}" for n in range(12)])
FOLDER_IDS = st.sampled_from(["f1", "f2", "f3"])

sessions = st.dictionaries(
    IDS,
    st.integers(min_value=-60 * 24 * 40, max_value=60).map(lambda m: NOW + timedelta(minutes=m)),
)


@st.composite
def organisations(draw: st.DrawFn) -> Organisation:
    org = Organisation()
    for step in draw(st.lists(st.integers(0, 4), max_size=25)):
        sid, fid = draw(IDS), draw(FOLDER_IDS)
        match step:
            case 0:
                org = org.pin(sid, draw(st.booleans()))
            case 1:
                org = org.archive(sid, draw(st.booleans()))
            case 2:
                org = org.add_folder(fid, draw(st.text(max_size=8)))
            case 3:
                org = org.move(sid, draw(st.none() | FOLDER_IDS))
            case _:
                org = org.remove_folder(fid)
    return org


def listed(rows: tuple[object, ...]) -> list[str]:
    return [row.id for row in rows if isinstance(row, Listed)]


@given(sessions, organisations())
def test_every_conversation_is_in_exactly_one_view_once(
    shown: dict[str, datetime], org: Organisation
) -> None:
    pairs = list(shown.items())
    in_list = listed(arrange(pairs, org, NOW, BERLIN))
    in_archive = listed(arrange(pairs, org, NOW, BERLIN, View.ARCHIVED))
    assert len(in_list) == len(set(in_list))
    assert sorted(in_list + in_archive) == sorted(shown)
    assert set(in_archive) == set(shown) & org.archived


@given(sessions, organisations())
def test_groups_come_in_order_and_each_is_newest_first(
    shown: dict[str, datetime], org: Organisation
) -> None:
    rows = arrange(list(shown.items()), org, NOW, BERLIN)
    headings = [row for row in rows if isinstance(row, Heading)]
    rank = [0 if h.group == Group.PINNED else 1 if h.group == Group.FOLDER else 2 for h in headings]
    assert rank == sorted(rank)
    days = [h.group for h in headings if h.group in DAY_GROUPS]
    assert days == sorted(days, key=DAY_GROUPS.index)
    assert [h.folder for h in headings if h.folder] == sorted(
        org.folders, key=lambda f: (f.name.casefold(), f.id)
    )  # every folder, empty ones too: something can be dropped into it
    group: Heading | None = None
    last: datetime | None = None
    for row in rows:
        if isinstance(row, Heading):
            group, last = row, None
            continue
        assert group is not None
        assert row.id not in org.archived
        at = shown[row.id]
        assert last is None or at <= last
        last = at
        if group.group == Group.PINNED:
            assert row.id in org.pinned
        elif group.folder is not None:
            assert org.folder_of(row.id) == group.folder.id
            assert row.id not in org.pinned
        else:
            assert day_group(at, NOW, BERLIN) == group.group


@given(organisations())
def test_the_json_reads_back_as_it_was_written(org: Organisation) -> None:
    again = organisation_from_json(json.loads(json.dumps(org.to_json())))
    assert again == org


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_any_json_reads_as_some_arrangement(raw: object) -> None:
    org = organisation_from_json(raw)
    assert all(org.folder(fid) is not None for _sid, fid in org.placed)


def test_the_file_s_well_formed_parts_are_kept() -> None:
    raw = {
        "pinned": ["a", 3, "b"],
        "archived": "c",
        "folders": [{"id": "f1", "name": "  Work \n stuff "}, {"id": "f1", "name": "twice"}, 7],
        "placed": {"a": "f1", "b": "nowhere", "c": 4},
    }
    org = organisation_from_json(raw)
    assert org.pinned == {"a", "b"}
    assert org.archived == frozenset()
    assert [(f.id, f.name) for f in org.folders] == [("f1", "Work stuff")]
    assert org.placed == (("a", "f1"),)


def test_folders_are_named_on_one_line_and_removing_one_keeps_its_conversations() -> None:
    org = Organisation().add_folder("f1", "x" * 500).move("a", "f1").pin("a", True)
    assert len(org.folders[0].name) == FOLDER_NAME_CHARS
    assert org.rename_folder("f1", "   ") == org  # an empty name keeps the old one
    assert org.move("a", "missing") == org
    assert org.new_folder_id() == "f2"
    gone = org.remove_folder("f1")
    assert gone.folders == ()
    assert gone.placed == ()
    assert gone.pinned == {"a"}
    assert org.archive("a", True).pinned == frozenset()  # archived: no longer pinned


def test_days_are_calendar_days_in_the_zone() -> None:
    now = datetime(2026, 8, 5, 0, 30, tzinfo=BERLIN)  # 22:30 UTC the day before
    assert day_group(datetime(2026, 8, 5, 0, 5, tzinfo=BERLIN), now, BERLIN) == Group.TODAY
    assert day_group(datetime(2026, 8, 4, 23, 55, tzinfo=BERLIN), now, BERLIN) == Group.YESTERDAY
    assert day_group(datetime(2026, 8, 4, 23, 55, tzinfo=BERLIN), now, UTC) == Group.TODAY
    assert day_group(datetime(2026, 7, 29, 1, 0, tzinfo=BERLIN), now, BERLIN) == Group.WEEK
    assert day_group(datetime(2026, 7, 28, 23, 0, tzinfo=BERLIN), now, BERLIN) == Group.OLDER
    assert day_group(now + timedelta(days=3), now, BERLIN) == Group.TODAY  # a clock set back
