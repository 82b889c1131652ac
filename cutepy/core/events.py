"""The decisions the algebra reports while :func:`cutepy.core.tracing.recording` listens.

Each event is a small frozen record holding the values the algorithm looked at when
it took one decision; :mod:`cutepy.derivation` words them as the steps of ``explain``.
An algorithm builds an event only when a recorder listens (see :mod:`cutepy.core.tracing`),
so the plain path never pays for them. Modes are ``(shape, stride)`` pairs; layouts are
:class:`~cutepy.core.layout.Layout` values. This module imports nothing of cutepy.

>>> Gap(mode=(4, 2), below=1, gap=2, covers=8)
Gap(mode=(4, 2), below=1, gap=2, covers=8)
>>> Merge(prev=(2, 1), mode=(6, 2)).mode
(6, 2)
"""

from __future__ import annotations

from typing import Any

Mode = tuple  # (shape, stride) of one flat mode


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

# -- shared by several operations ------------------------------------------------------


class NoTiler(Event):
    """The tiler is ``None``: the operation returns A unchanged."""


class KeptModes(Event):
    """A by-mode operation leaves A's modes ``first..`` (past the tiler/profile) as they are."""

    first: int


# -- coalesce_flat: one Flatten, then one of Drop, Start, Keep, Merge per mode ----------------


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


# -- coalesce with a profile, filter ---------------------------------------------------------


class ProfileMode(Event):
    """Mode ``i`` (``layout``) coalesced by its ``profile`` gives ``result``."""

    i: int
    layout: Any
    profile: Any
    result: Any


class Filter(Event):
    """``filter`` keeps the modes with non-zero stride (``dropped`` of them had stride 0)."""

    shape: tuple
    stride: tuple
    dropped: int


class Zeros(Event):
    """``filter`` by a profile: stride-0 modes got size 1, giving ``layout``."""

    layout: Any


# -- complement -----------------------------------------------------------------------------


class Filtered(Event):
    """``filter(A)``'s flat modes, the modes whose gaps the complement fills."""

    shape: tuple
    stride: tuple


class Cotarget(Event):
    """No cotarget was given: it is ``cosize(filter(A))``."""

    cotarget: Any


class OnlyZero(Event):
    """A reaches only offset 0: the complement is all of ``[0, size)``."""

    size: Any


class Sorted(Event):
    """The filtered modes in the order of their strides."""

    modes: tuple


class Gap(Event):
    """Below ``mode``'s stride, the modes so far reach ``below``: ``gap`` copies at stride ``below``.

    ``covers`` is where the modes reach once ``mode`` is added.
    """

    mode: Mode
    below: Any
    gap: Any
    covers: Any


class CotargetRest(Event):
    """The last mode: ``rest = ceil(cotarget / below)`` copies at stride ``below``."""

    cotarget: Any
    below: Any
    rest: Any


# -- composition ----------------------------------------------------------------------------


class ComposedA(Event):
    """A is a composed layout (or a swizzle): it composes B itself."""

    A: Any


class ReadA(Event):
    """A was given as something else (a shape, text) and is now the layout ``A``."""

    A: Any


class SizeTiler(Event):
    """B is a size ``B``, which stands for the layout ``B:1``."""

    B: Any


class ComposedB(Event):
    """B is a composed layout: ``A o B`` keeps A outermost."""

    B: Any


class DroppedModes(Event):
    """A by-mode composition drops A's modes ``first..``, which have no tiler (as C++)."""

    first: int


class LastOne(Event):
    """``coalesce_x(A)``: A's last mode has size 1 and counts as 2, so that its stride survives."""


class CoalesceX(Event):
    """``coalesce_x(A)`` for ``A o B`` is the flat layout ``shape:stride``."""

    A: Any
    B: Any
    shape: tuple
    stride: tuple


class Carry(Event):
    """B's modes together reach ``usage[i]`` in digit ``i`` of ``coalesce_x(A)`` (of ``shape``)."""

    usage: tuple
    shape: tuple


class Leaf(Event):
    """The next leaf of B, ``shape:stride``, goes through A's modes."""

    shape: Any
    stride: Any


class BasisLeaf(Event):
    """The leaf's basis stride picks A's sub-mode ``sub``, whose ``coalesce_x`` is ``shape:stride_x``."""

    stride: Any
    sub: Any
    shape: tuple
    stride_x: tuple


class ZeroLeaf(Event):
    """A stride-0 leaf of B stays ``shape:0``."""

    shape: Any


class Single(Event):
    """A is the single mode ``mode``: the leaf ``rest`` gets stride ``stride``."""

    mode: Mode
    rest: Mode
    stride: Any


class Skip(Event):
    """Mode ``i`` of A (``mode``) is stepped over by what is left of the leaf (``rest``).

    The leaf goes on with stride ``stride = ceil(rest stride / mode shape)``.
    """

    i: int
    mode: Mode
    rest: Mode
    stride: Any


class Take(Event):
    """Mode ``i`` of A gives the leaf ``rest`` a mode ``new:out``; ``left`` of its shape remains.

    ``shape = ceil(mode shape / rest stride)`` is what A's mode leaves at that stride,
    ``stride = ceil(rest stride / mode shape)`` the leaf's stride on the next mode.
    """

    i: int
    mode: Mode
    rest: Mode
    shape: Any
    stride: Any
    new: Any
    out: Any
    left: Any


class LastMode(Event):
    """A's last mode (``mode``) takes the rest of the leaf: ``rest shape : stride``."""

    mode: Mode
    rest: Mode
    stride: Any


# -- divides and products -------------------------------------------------------------------


class Divisor(Event):
    """``logical_divide``: the divisor ``(T, complement(T, size(A)))``."""

    layout: Any


class Zipped(Event):
    """A single-layout tiler: the logical result ``layout`` is already (tile, rest)."""

    layout: Any


class Unzipped(Event):
    """A tuple tiler: every mode's tile part, then every rest part."""

    tiles: Any
    rest: Any


class Room(Event):
    """``logical_product``: the complement of A reaches ``size = size(A) * cosize(B)``."""

    A: Any
    B: Any
    size: Any


class Padded(Event):
    """Blocked and raked products: A and B padded to ``rank`` with ``1:0`` modes."""

    rank: int
    A: Any
    B: Any
    size: Any


class PairMode(Event):
    """Mode ``i`` of a blocked/raked product: the pair ``pair`` coalesced to ``result``."""

    i: int
    pair: Any
    result: Any


class Copies(Event):
    """``tile_to_shape``: ``shape`` copies per mode, laid out as ``layout``."""

    shape: tuple
    layout: Any


# -- inverses -------------------------------------------------------------------------------


class Positions(Event):
    """``coalesce(A)``'s flat modes and the column-major position of each."""

    shape: tuple
    stride: tuple
    positions: tuple


class Chain(Event):
    """``right_inverse``: ``mode`` continues the chain of strides; it maps to ``position``."""

    mode: Mode
    position: Any


class OffChain(Event):
    """``right_inverse``: ``mode`` is off the chain, which needs stride ``needs`` next."""

    mode: Mode
    needs: Any


class ZeroMode(Event):
    """``left_inverse``: the stride-0 ``mode`` reaches no new offset."""

    mode: Mode


class InverseStep(Event):
    """``left_inverse``: ``count = stride / below`` offsets per step, mapped to ``position``."""

    stride: Any
    below: Any
    count: Any
    position: Any


class Close(Event):
    """``left_inverse``: the largest-stride mode's ``size`` closes the inverse."""

    size: Any
