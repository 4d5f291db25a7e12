"""``@frozen`` values: immutable, slotted, compared and hashed by their fields, picklable."""

from __future__ import annotations

import copy
import inspect
import pickle
from dataclasses import FrozenInstanceError
from typing import ClassVar

import pytest

from core.frozen import frozen, replace


@frozen
class Point:
    """A value with a default and a class constant."""

    x: int
    y: int = 0
    kind: ClassVar[str] = "point"

    @property
    def total(self) -> int:
        return self.x + self.y


@frozen
class Pair:
    x: int
    y: int = 0


def test_a_value_is_built_from_its_fields_with_their_defaults() -> None:
    assert (Point(1).x, Point(1).y, Point(1, 2).total, Point(x=3, y=4).y) == (1, 0, 3, 4)
    assert Point.kind == "point"
    assert str(inspect.signature(Point)) == "(x: 'int', y: 'int' = 0) -> None"
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]  # the missing field under test


def test_a_value_refuses_assignment_and_deletion_and_has_no_dict() -> None:
    point = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        point.x = 5  # type: ignore[misc]  # the assignment a frozen value must refuse
    with pytest.raises(FrozenInstanceError):
        del point.y
    with pytest.raises(AttributeError):
        point.z = 1  # type: ignore[attr-defined]  # no such field, and no __dict__ to take it
    assert not hasattr(point, "__dict__")


def test_values_are_equal_only_to_the_same_class_with_the_same_fields() -> None:
    assert Point(1, 2) == Point(1, 2)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert Point(1, 2) != Point(2, 1)
    other: object = Pair(1, 2)
    assert Point(1, 2) != other
    assert Point(1, 2) != (1, 2)
    assert len({Point(1, 2), Point(1, 2), Pair(1, 2)}) == 2


def test_a_value_shows_its_fields_and_matches_by_position() -> None:
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    match Point(7, 8):
        case Point(a, b):
            assert (a, b) == (7, 8)
        case _:
            raise AssertionError("a positional pattern must match")


def test_a_value_survives_pickling_and_copying() -> None:
    point = Point(1, 2)
    assert pickle.loads(pickle.dumps(point)) == point
    assert copy.copy(point) == point
    assert copy.deepcopy(Point(1, [3])) == Point(1, [3])  # type: ignore[arg-type]  # any value


def test_classes_with_as_many_fields_share_code_but_keep_their_own_names() -> None:
    """``__init__``, ``__eq__`` and ``__hash__`` come from code shared by field count: each class
    still takes and compares its own fields."""

    @frozen
    class Span:
        start: int
        end: int = 9

    assert (Pair(y=5, x=1).x, Span(end=3, start=2).end, Span(1).end) == (1, 3, 9)
    assert str(inspect.signature(Span)) == "(start: 'int', end: 'int' = 9) -> None"
    assert Span(1, 2) == Span(1, 2)
    assert Span(1, 2) != Span(1, 3)
    assert hash(Span(1, 2)) == hash(Span(1, 2)) != hash(Span(2, 1))
    assert Span.__init__.__qualname__.endswith("Span.__init__")
    with pytest.raises(TypeError):
        Span(end=1)  # type: ignore[call-arg]  # the missing field under test


def test_a_required_field_after_a_defaulted_one_is_refused_as_a_dataclass_does() -> None:
    class Late:
        first: int = 0
        second: int

    with pytest.raises(TypeError, match="second"):
        frozen(Late)


def test_a_value_without_fields_is_built_compared_and_shown() -> None:
    @frozen
    class Nothing:
        pass

    assert Nothing() == Nothing()
    assert hash(Nothing()) == hash(Nothing())
    assert repr(Nothing()).endswith("Nothing()")


def test_replace_copies_a_value_with_some_fields_changed_and_refuses_unknown_ones() -> None:
    point = Point(1, 2)
    assert replace(point, y=5) == Point(1, 5)
    assert replace(point) == point
    assert point == Point(1, 2)  # the value itself is unchanged
    with pytest.raises(TypeError, match="z"):
        replace(point, z=3)


def test_a_value_is_checked_by_its_post_init_when_built_and_when_replaced() -> None:
    @frozen
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    assert Positive(2).n == 2
    with pytest.raises(ValueError, match="positive"):
        Positive(0)
    with pytest.raises(ValueError, match="positive"):
        replace(Positive(1), n=-1)
