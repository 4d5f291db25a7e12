"""``@frozen``: an immutable value class with slots, cheap to define and cheap to build. Pure.

Chime has a value per event, record and change; opening a log of 10^6 events builds one per line,
and the widgets import the vocabulary before the window's first paint. ``dataclasses`` costs too
much on both counts for these small classes: ``@dataclass(frozen=True, slots=True)`` compiles
seven generated functions to define one (~0.4 ms), and its ``__init__`` gets past its own frozen
guard with one ``object.__setattr__`` per field (~430 ns for four fields). ``frozen`` compiles
nothing per class: ``__init__`` (each field stored through its slot descriptor, ~250 ns),
``__eq__`` and ``__hash__`` are code shared by every class of as many fields, compiled once and
given the class's field names (``CodeType.replace``: the same bytecode a class of its own would
compile, so they run as fast); pickling and ``repr`` read the fields through one
``operator.attrgetter``. Defining a class costs about a tenth of compiling its methods did
(~1 M instructions saved for each of the ~60 value classes a start defines before the window's
first paint).

A class gets, from its annotated fields in order (``ClassVar`` ones excluded, defaults allowed
after the required ones): ``__init__`` (which ends by calling the class's ``__post_init__``, when
it has one, to validate), ``__repr__`` (``Name(a=1, b='x')``), ``__eq__`` and ``__hash__`` over
the fields (equal only to an instance of the very same class), assignment and deletion raising
``dataclasses.FrozenInstanceError``, ``__slots__`` and ``__match_args__`` (so ``case Name(a, b)``
works), and pickling and copying. It is not a dataclass: ``dataclasses.fields`` and
``dataclasses.replace`` do not apply; ``replace`` here is the latter's counterpart. Subclassing a
``frozen`` class is not supported.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_CODE: dict[tuple[str, int], CodeType] = {}
"""The code of ``__init__``, ``__eq__`` and ``__hash__`` for each field count, compiled once with
numbered fields (``_0`` or ``self._f0`` …) that ``_function`` renames to a class's fields."""


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """The immutable, slotted form of ``cls`` (see the module docstring)."""
    names = tuple(name for name, kind in cls.__annotations__.items() if "ClassVar" not in str(kind))
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    body = {
        key: value
        for key, value in cls.__dict__.items()
        if key not in names and key not in ("__dict__", "__weakref__")
    }
    body |= {"__slots__": names, "__match_args__": names}
    made: Any = type(cls.__name__, cls.__bases__, body)
    made.__frozen_fields__ = frozenset(names)
    for name, method in _methods(made, names, defaults).items():
        method.__qualname__ = f"{made.__qualname__}.{name}"
        method.__module__ = made.__module__
        setattr(made, name, method)
    made.__setattr__ = made.__delattr__ = _refuse
    result: type[T] = made
    return result


def _methods(made: Any, names: tuple[str, ...], defaults: dict[str, Any]) -> dict[str, Any]:
    """``__init__`` (each argument stored through its field's slot), ``__eq__`` and ``__hash__``
    from the shared code of their field count (the same bytecode a class of its own would
    compile), ``__reduce__`` (pickling and copying rebuild the value through ``__init__``: the
    frozen guard refuses the default way) and ``__repr__``."""
    first = next((n for n, name in enumerate(names) if name in defaults), len(names))
    late = [name for name in names[first:] if name not in defaults]
    if late:  # as a dataclass says it
        raise TypeError(f"non-default field {late[0]!r} follows a field with a default")
    stores = {f"_s{n}": getattr(made, name).__set__ for n, name in enumerate(names)}
    checked = "__post_init__" in made.__dict__
    kind = "init_checked" if checked else "init"
    init = _function(made, "__init__", _template(kind, len(names)), names, stores)
    init.__defaults__ = tuple(defaults[name] for name in names[first:]) or None
    init.__annotations__ = {
        **{name: kind for name, kind in made.__annotations__.items() if name in names},
        "return": None,
    }
    return {
        "__init__": init,
        "__eq__": _function(made, "__eq__", _template("eq", len(names)), names, globals()),
        "__hash__": _function(made, "__hash__", _template("hash", len(names)), names, globals()),
        **_shown(made.__qualname__, names),
    }


def _template(kind: str, count: int) -> CodeType:
    code = _CODE.get((kind, count))
    if code is None:
        mine = "".join(f"self._f{n}, " for n in range(count))
        theirs = "".join(f"other._f{n}, " for n in range(count))
        parameters = "".join(f", _{n}" for n in range(count))
        stores = "".join(f"    _s{n}(self, _{n})\n" for n in range(count)) or "    pass\n"
        source = {
            "init": f"def init(self{parameters}):\n{stores}",
            "init_checked": f"def init(self{parameters}):\n{stores}    self.__post_init__()\n",
            "eq": "def eq(self, other):\n"
            "    if other.__class__ is not self.__class__:\n"
            "        return NotImplemented\n"
            f"    return ({mine}) == ({theirs})\n",
            "hash": f"def hash_(self):\n    return hash(({mine}))\n",
        }[kind]
        scope: dict[str, Any] = {}
        exec(source, {}, scope)  # built from field numbers only
        code = _CODE[(kind, count)] = next(iter(scope.values())).__code__
    return code


def _function(
    made: Any, name: str, code: CodeType, names: tuple[str, ...], scope: dict[str, Any]
) -> FunctionType:
    """``code`` as ``made``'s method ``name``, taking (``init``) or reading (``self._f0`` …) the
    fields ``names`` where the shared code has numbered ones."""
    fields = tuple(
        names[int(used[2:])] if used.startswith("_f") and used[2:].isdigit() else used
        for used in code.co_names
    )
    varnames = ("self", *names) if name == "__init__" else code.co_varnames
    qualname = f"{made.__qualname__}.{name}"
    code = code.replace(co_names=fields, co_varnames=varnames, co_name=name, co_qualname=qualname)
    return FunctionType(code, scope, name)


def _shown(qualname: str, names: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """``__reduce__`` and ``__repr__``, over the fields read by one ``attrgetter``."""
    values = _values(names)

    def reduce(self: object) -> tuple[type, tuple[Any, ...]]:
        return (self.__class__, values(self))

    def show(self: object) -> str:
        shown = ", ".join(
            f"{name}={value!r}" for name, value in zip(names, values(self), strict=True)
        )
        return f"{qualname}({shown})"

    reduce.__name__, show.__name__ = "__reduce__", "__repr__"
    return {"__reduce__": reduce, "__repr__": show}


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """The fields of a value as a tuple, in order."""
    if len(names) > 1:
        return attrgetter(*names)
    if not names:
        return lambda _value: ()
    one = attrgetter(names[0])
    return lambda value: (one(value),)


def replace(value: T, /, **changes: Any) -> T:
    """A copy of the ``frozen`` ``value`` with ``changes`` to its fields (``dataclasses.replace``
    for these classes)."""
    kind: Any = value.__class__
    if not changes.keys() <= kind.__frozen_fields__:
        unknown = sorted(changes.keys() - kind.__frozen_fields__)
        raise TypeError(f"{kind.__qualname__} has no field {unknown[0]!r}")
    made: T = kind(
        *[
            changes[name] if name in changes else getattr(value, name)
            for name in kind.__match_args__
        ]
    )
    return made


def _refuse(self: object, name: str, *_value: object) -> None:
    from dataclasses import FrozenInstanceError  # with the first refusal: a start never needs it

    raise FrozenInstanceError(f"cannot assign to field {name!r}")
