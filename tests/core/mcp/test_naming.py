"""The names the model sees for MCP tools, and the tools' share of a request (core/mcp/naming.py)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from core.mcp.naming import MAX_TOOLS, definition_tokens, exposed_names, fit_tools

REMINDERS = ("schedule_create", "schedule_list", "schedule_delete")
_VALID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def test_a_plain_name_reads_as_server_and_tool() -> None:
    assert exposed_names([("time", "get_current_time")]) == {
        ("time", "get_current_time"): "time__get_current_time"
    }


def test_a_changed_or_long_name_gets_a_hash_of_its_own() -> None:
    names = exposed_names([("my server", "get.time"), ("s", "t" * 80)])
    spaced, long = names[("my server", "get.time")], names[("s", "t" * 80)]
    assert re.fullmatch(r"my_server__get_time_[0-9a-f]{8}", spaced)
    assert len(long) == 64
    assert long.startswith("s__ttt")


def test_plain_names_that_meet_are_both_hashed() -> None:
    names = exposed_names([("a__b", "c"), ("a", "b__c")])
    assert len(set(names.values())) == 2
    assert all(n.startswith("a__b__c_") for n in names.values())


def test_a_reminder_tool_name_is_never_taken() -> None:
    names = exposed_names([("schedule", "create")], reserved=["schedule__create"])
    assert names[("schedule", "create")] != "schedule__create"


_part = st.text(max_size=70)


@given(st.lists(st.tuples(_part, _part), max_size=30), st.lists(_part, max_size=3))
def test_names_are_valid_unique_apart_from_reserved_and_stable(
    tools: list[tuple[str, str]], reserved: list[str]
) -> None:
    names = exposed_names(tools, [*REMINDERS, *reserved])
    assert set(names) == set(tools)
    assert all(_VALID.fullmatch(n) for n in names.values())
    assert len(set(names.values())) == len(names)
    assert not set(names.values()) & {*REMINDERS, *reserved}
    assert exposed_names(reversed(tools), [*REMINDERS, *reserved]) == names


def _tool(name: str, words: int = 10) -> dict[str, object]:
    return {
        "type": "function",
        "function": {"name": name, "description": "word " * words, "parameters": {}},
    }


def test_a_thousand_tools_keep_within_a_quarter_of_the_budget_and_say_what_was_left_out() -> None:
    tools = [_tool(f"many__t{i}") for i in range(1000)]
    fitted = fit_tools(tools, 8000)
    assert sum(definition_tokens(d) for d in fitted.kept) <= 2000
    assert len(fitted.kept) + len(fitted.left_out) == 1000
    assert fitted.left_out[0] == f"many__t{len(fitted.kept)}"
    assert [d["function"]["name"] for d in fitted.kept] == [  # type: ignore[index] -- test data
        f"many__t{i}" for i in range(len(fitted.kept))
    ]


def test_without_a_token_bound_the_count_still_is() -> None:
    fitted = fit_tools([_tool(f"t{i}") for i in range(200)], None)
    assert len(fitted.kept) == MAX_TOOLS
    assert len(fitted.left_out) == 200 - MAX_TOOLS


def test_a_tool_too_large_for_the_share_is_left_out_but_smaller_ones_after_it_stay() -> None:
    fitted = fit_tools([_tool("big", 5000), _tool("small")], 4000)
    assert fitted.left_out == ("big",)
    assert [d["function"]["name"] for d in fitted.kept] == ["small"]  # type: ignore[index] -- test data


def test_a_hashed_name_already_taken_gets_a_longer_hash() -> None:
    from core.mcp.naming import _hashed

    taken = _hashed("s__t_x", "s", "t.x", 8)
    names = exposed_names([("s", "t.x")], reserved=[taken])
    assert names[("s", "t.x")] == _hashed("s__t_x", "s", "t.x", 12)
