"""shensha_plates.core.frozen.quick_init: the same instances as the dataclass's own __init__, still frozen, the same
parameters; refused where it cannot keep those promises."""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError, InitVar, dataclass, field

import pytest

from shensha_plates.core.frozen import quick_init


def _pair() -> tuple[type, type]:
    """Two identical frozen slotted dataclasses, the second with quick_init."""
    classes = []
    for quick in (False, True):
        @dataclass(frozen=True, slots=True)
        class C:
            a: int
            b: str | None
            c: tuple[int, ...] = ()
            d: object = None
        classes.append(quick_init(C) if quick else C)
    return classes[0], classes[1]


CALLS = [((1, "x"), {}), ((1, None, (2, 3)), {}), ((1,), {"b": "y", "d": 5}), ((), {"d": [1], "a": 2, "b": "z"}),
         ((0, "", (), ()), {})]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_same_instances_as_the_dataclass_init(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    plain, quick = _pair()
    for _ in range(2):  # the first call writes the new __init__, the second uses it
        p, q = plain(*args, **kwargs), quick(*args, **kwargs)
        assert dataclasses.astuple(p) == dataclasses.astuple(q)
        assert repr(p) == repr(q)  # both classes are _pair.<locals>.C
        if not isinstance(q.d, list):
            assert hash(p) == hash(q)
        assert q == quick(*args, **kwargs) and q != quick(7, "other")


def test_still_frozen_and_slotted() -> None:
    _, quick = _pair()
    q = quick(1, "x")
    with pytest.raises(FrozenInstanceError):
        q.a = 2
    with pytest.raises((AttributeError, TypeError)):
        q.new_attribute = 1
    assert not hasattr(q, "__dict__")


def test_the_init_is_written_once_with_the_same_parameters() -> None:
    plain, quick = _pair()
    stub = quick.__init__
    quick(1, "x")
    written = quick.__init__
    assert written is not stub
    quick(2, "y")
    assert quick.__init__ is written
    code, ref = written.__code__, plain.__init__.__code__
    assert code.co_varnames[:code.co_argcount] == ref.co_varnames[:ref.co_argcount]
    assert written.__defaults__ == plain.__init__.__defaults__


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {}), ((1, "x", (), None, 5), {}), ((1, "x"), {"e": 1}),
                                          ((1, "x"), {"a": 1})])
def test_bad_calls_fail_as_before(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    plain, quick = _pair()
    for cls in (plain, quick, quick):
        with pytest.raises(TypeError):
            cls(*args, **kwargs)


def test_refused_where_it_cannot_keep_its_promises() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class KwOnly:
        a: int = field(kw_only=True)

    @dataclass(frozen=True, slots=True)
    class NoInit:
        a: int = field(init=False, default=1)

    @dataclass(frozen=True, slots=True)
    class WithInitVar:
        a: int
        b: InitVar[int]

    @dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    class NotADataclass:
        __slots__ = ("a",)

    for cls in (NoSlots, NotFrozen, Factory, KwOnly, NoInit, WithInitVar, PostInit, NotADataclass):
        with pytest.raises(TypeError, match="quick_init"):
            quick_init(cls)
