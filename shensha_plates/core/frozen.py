"""Quicker construction of frozen, slotted dataclasses: :func:`quick_init`.

The ``__init__`` that ``@dataclass(frozen=True)`` writes must get round the class's own
``__setattr__`` (which refuses), so it sets every field with ``object.__setattr__``: a lookup and a
call through the generic attribute machinery per field. With ``slots=True`` every field is a slot
whose descriptor can be set directly, in about half the time. :func:`quick_init` gives such a class
an ``__init__`` that does so, with the same parameters (positions, names, defaults); the instances
are the same, and still frozen. The new ``__init__`` is written at the class's first construction,
so decorating costs nothing at import.

>>> from dataclasses import FrozenInstanceError, dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Pair:
...     a: int
...     b: str = "-"
>>> Pair(1), Pair(b="x", a=2)
(Pair(a=1, b='-'), Pair(a=2, b='x'))
>>> try:
...     Pair(1).a = 3
... except FrozenInstanceError:
...     print("frozen")
frozen
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

__all__ = ["quick_init"]

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a ``@dataclass(frozen=True, slots=True)`` class an ``__init__`` that sets its slots
    directly (written at the first construction). Put it above the ``@dataclass`` line. Fields with
    a default factory, keyword-only fields, ``InitVar`` and ``__post_init__`` are not supported."""
    dc: Any = cls  # the dataclass machinery is not typed for a class variable
    params = getattr(dc, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in dc.__dict__:
        raise TypeError(f"quick_init needs a frozen dataclass with slots, not {dc.__qualname__}")
    code = getattr(dc.__dict__.get("__init__"), "__code__", None)
    names = tuple(f.name for f in fields(dc))
    # the dataclass's own __init__ must take exactly the fields, positionally, in order (no InitVar,
    # init=False or keyword-only field), and nothing may happen after the fields are set
    if (code is None or code.co_varnames[1:code.co_argcount] != names or code.co_kwonlyargcount
            or hasattr(dc, "__post_init__") or any(f.default_factory is not MISSING for f in fields(dc))):
        raise TypeError(f"quick_init: {dc.__qualname__} has a __post_init__, an InitVar, or an init=False, "
                        "keyword-only or default-factory field")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _write_init(dc)
        dc.__init__ = init  # from now on the class's own
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{dc.__qualname__}.__init__"
    dc.__init__ = __init__
    return cls


def _write_init(cls: type) -> Callable[..., None]:
    namespace: dict[str, Any] = {}
    params, body = [], []
    for f in fields(cls):
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__  # the slot's descriptor
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    exec(f"def __init__(self, {', '.join(params)}):\n{''.join(body) or '    pass'}\n", namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
