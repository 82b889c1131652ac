"""The base of the decisions the algebra reports while :func:`cutepy.core.tracing.recording` listens.

Each event is a small frozen record holding the values the algorithm looked at when it took
one decision, and its :meth:`~Event.words`: the step ``explain`` shows for it. Each algorithm
family declares its events beside its code (``cutepy/algebra/complement.py`` holds ``Gap``,
``Sorted``, ...); this module holds the base and the events several operations share.
An algorithm builds an event only when a recorder listens (``if rec: rec.emit(Gap(...))``,
see :mod:`cutepy.core.tracing`), so the plain path never pays for them. Modes are
``(shape, stride)`` pairs; layouts are :class:`~cutepy.core.layout.Layout` values. This
module imports nothing of cutepy.

>>> KeptModes(2)
KeptModes(first=2)
>>> KeptModes(2).words(str)
'modes 2.. are kept as they are'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Mode = tuple  # (shape, stride) of one flat mode


def paren(x: Any) -> str:
    """A leaf as an operand in a step's words: parenthesised when it is a sum, product or quotient.

    >>> paren(3), paren("M/8"), paren(-4)
    ('3', '(M/8)', '-4')
    """
    s = str(x)
    return f"({s})" if any(c in s for c in "+-*/%") and not s.lstrip("-").isdigit() else s


class _Fields(type):
    """Makes each annotated name of an event class a slot: ``_fields`` lists them in order.

    (A ``dataclass(frozen=True, slots=True)`` per event costs about 0.8 ms at import each;
    this costs a few microseconds, and ``import cutepy`` stays fast.)
    """

    def __new__(mcls, name: str, bases: tuple, ns: dict) -> Any:
        fields = tuple(f for f in ns.get("__annotations__", {}) if not f.startswith("_"))
        ns["__slots__"] = fields
        ns["_fields"] = fields
        ns["__match_args__"] = fields  # ``case Gap(mode, below, gap, covers):`` in the derivation
        return super().__new__(mcls, name, bases, ns)


class Event(metaclass=_Fields):
    """An event: fields given by position or name, frozen, equal when the fields are.

    >>> e = KeptModes(2)
    >>> e, e == KeptModes(first=2), e.first
    (KeptModes(first=2), True, 2)
    >>> e.first = 3
    Traceback (most recent call last):
      ...
    AttributeError: KeptModes is frozen
    """

    __slots__ = ()
    _fields: tuple = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self._fields):
            raise TypeError(f"{type(self).__name__} takes {len(self._fields)} fields, got {len(args)}")
        for f, v in zip(self._fields, args):
            object.__setattr__(self, f, v)
        for f in self._fields[len(args):]:
            if f not in kwargs:
                raise TypeError(f"{type(self).__name__} needs the field {f!r}")
            object.__setattr__(self, f, kwargs.pop(f))
        if kwargs:
            raise TypeError(f"{type(self).__name__} has no fields {sorted(kwargs)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __repr__(self) -> str:
        body = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({body})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, f) for f in self._fields)))

    def words(self, tex: Callable[[Any], str]) -> Any:
        """The step ``explain`` shows for this event: ``text``, ``(text, latex)`` or
        ``(text, latex, layout)`` (a layout to picture); None where the explainer of the
        operation words it (it needs the derivation around the event). ``tex(x)`` writes a
        value in LaTeX (:mod:`cutepy.derivation` passes its own).
        """
        return None

# -- shared by several operations ------------------------------------------------------


class NoTiler(Event):
    """The tiler is ``None``: the operation returns A unchanged."""

    def words(self, tex: Any) -> str:
        return "no tiler: A is kept"


class KeptModes(Event):
    """A by-mode operation leaves A's modes ``first..`` (past the tiler/profile) as they are."""

    first: int

    def words(self, tex: Any) -> str:
        return f"modes {self.first}.. are kept as they are"


# -- one call of coalesce_flat: one Flatten, then one of Drop, Start, Keep, Merge per mode ------
# (a shared vocabulary: coalesce emits them, the derivation's recorder groups them into a run
# worded by the normal form's rules, and the normal form replays them)


class Flatten(Event):
    """``coalesce_flat`` starts on these flat modes."""

    shape: tuple
    stride: tuple


class Drop(Event):
    """A size-1 mode vanishes."""

    mode: Mode


class Start(Event):
    """The first mode of size > 1 starts the result."""

    mode: Mode


class Keep(Event):
    """``mode`` does not continue ``prev`` (``prev``'s extent is not ``mode``'s stride): both stay."""

    prev: Mode
    mode: Mode


class Merge(Event):
    """``prev ++ mode`` becomes one mode, since ``prev``'s shape * stride is ``mode``'s stride."""

    prev: Mode
    mode: Mode
