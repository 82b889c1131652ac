"""The decisions the algebra reports while :func:`cutepy.tracing.recording` listens.

Each event is a small frozen dataclass holding the values the algorithm looked at when
it took one decision; :mod:`cutepy.derivation` words them as the steps of ``explain``.
An algorithm builds an event only when a recorder listens (see :mod:`cutepy.tracing`),
so the plain path never pays for them. Modes are ``(shape, stride)`` pairs; layouts are
:class:`~cutepy.layout.Layout` values. This module imports nothing of cutepy.

>>> Gap(mode=(4, 2), below=1, gap=2, covers=8)
Gap(mode=(4, 2), below=1, gap=2, covers=8)
>>> Merge(prev=(2, 1), mode=(6, 2)).mode
(6, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Mode = tuple  # (shape, stride) of one flat mode

_event = dataclass(frozen=True, slots=True)

# -- shared by several operations ------------------------------------------------------


@_event
class NoTiler:
    """The tiler is ``None``: the operation returns A unchanged."""


@_event
class KeptModes:
    """A by-mode operation leaves A's modes ``first..`` (past the tiler/profile) as they are."""

    first: int


# -- coalesce_flat: one Flatten, then one of Drop, Start, Keep, Merge per mode ----------------


@_event
class Flatten:
    """``coalesce_flat`` starts on these flat modes."""

    shape: tuple
    stride: tuple


@_event
class Drop:
    """A size-1 mode vanishes."""

    mode: Mode


@_event
class Start:
    """The first mode of size > 1 starts the result."""

    mode: Mode


@_event
class Keep:
    """``mode`` does not continue ``prev`` (``prev``'s extent is not ``mode``'s stride): both stay."""

    prev: Mode
    mode: Mode


@_event
class Merge:
    """``prev ++ mode`` becomes one mode, since ``prev``'s shape * stride is ``mode``'s stride."""

    prev: Mode
    mode: Mode


# -- coalesce with a profile, filter ---------------------------------------------------------


@_event
class ProfileMode:
    """Mode ``i`` (``layout``) coalesced by its ``profile`` gives ``result``."""

    i: int
    layout: Any
    profile: Any
    result: Any


@_event
class Filter:
    """``filter`` keeps the modes with non-zero stride (``dropped`` of them had stride 0)."""

    shape: tuple
    stride: tuple
    dropped: int


@_event
class Zeros:
    """``filter`` by a profile: stride-0 modes got size 1, giving ``layout``."""

    layout: Any


# -- complement -----------------------------------------------------------------------------


@_event
class Filtered:
    """``filter(A)``'s flat modes, the modes whose gaps the complement fills."""

    shape: tuple
    stride: tuple


@_event
class Cotarget:
    """No cotarget was given: it is ``cosize(filter(A))``."""

    cotarget: Any


@_event
class OnlyZero:
    """A reaches only offset 0: the complement is all of ``[0, size)``."""

    size: Any


@_event
class Sorted:
    """The filtered modes in the order of their strides."""

    modes: tuple


@_event
class Gap:
    """Below ``mode``'s stride, the modes so far reach ``below``: ``gap`` copies at stride ``below``.

    ``covers`` is where the modes reach once ``mode`` is added.
    """

    mode: Mode
    below: Any
    gap: Any
    covers: Any


@_event
class CotargetRest:
    """The last mode: ``rest = ceil(cotarget / below)`` copies at stride ``below``."""

    cotarget: Any
    below: Any
    rest: Any


# -- composition ----------------------------------------------------------------------------


@_event
class ComposedA:
    """A is a composed layout (or a swizzle): it composes B itself."""

    A: Any


@_event
class ReadA:
    """A was given as something else (a shape, text) and is now the layout ``A``."""

    A: Any


@_event
class SizeTiler:
    """B is a size ``B``, which stands for the layout ``B:1``."""

    B: Any


@_event
class ComposedB:
    """B is a composed layout: ``A o B`` keeps A outermost."""

    B: Any


@_event
class DroppedModes:
    """A by-mode composition drops A's modes ``first..``, which have no tiler (as C++)."""

    first: int


@_event
class LastOne:
    """``coalesce_x(A)``: A's last mode has size 1 and counts as 2, so that its stride survives."""


@_event
class CoalesceX:
    """``coalesce_x(A)`` for ``A o B`` is the flat layout ``shape:stride``."""

    A: Any
    B: Any
    shape: tuple
    stride: tuple


@_event
class Carry:
    """B's modes together reach ``usage[i]`` in digit ``i`` of ``coalesce_x(A)`` (of ``shape``)."""

    usage: tuple
    shape: tuple


@_event
class Leaf:
    """The next leaf of B, ``shape:stride``, goes through A's modes."""

    shape: Any
    stride: Any


@_event
class BasisLeaf:
    """The leaf's basis stride picks A's sub-mode ``sub``, whose ``coalesce_x`` is ``shape:stride_x``."""

    stride: Any
    sub: Any
    shape: tuple
    stride_x: tuple


@_event
class ZeroLeaf:
    """A stride-0 leaf of B stays ``shape:0``."""

    shape: Any


@_event
class Single:
    """A is the single mode ``mode``: the leaf ``rest`` gets stride ``stride``."""

    mode: Mode
    rest: Mode
    stride: Any


@_event
class Skip:
    """Mode ``i`` of A (``mode``) is stepped over by what is left of the leaf (``rest``).

    The leaf goes on with stride ``stride = ceil(rest stride / mode shape)``.
    """

    i: int
    mode: Mode
    rest: Mode
    stride: Any


@_event
class Take:
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


@_event
class LastMode:
    """A's last mode (``mode``) takes the rest of the leaf: ``rest shape : stride``."""

    mode: Mode
    rest: Mode
    stride: Any


# -- divides and products -------------------------------------------------------------------


@_event
class Divisor:
    """``logical_divide``: the divisor ``(T, complement(T, size(A)))``."""

    layout: Any


@_event
class Zipped:
    """A single-layout tiler: the logical result ``layout`` is already (tile, rest)."""

    layout: Any


@_event
class Unzipped:
    """A tuple tiler: every mode's tile part, then every rest part."""

    tiles: Any
    rest: Any


@_event
class Room:
    """``logical_product``: the complement of A reaches ``size = size(A) * cosize(B)``."""

    A: Any
    B: Any
    size: Any


@_event
class Padded:
    """Blocked and raked products: A and B padded to ``rank`` with ``1:0`` modes."""

    rank: int
    A: Any
    B: Any
    size: Any


@_event
class PairMode:
    """Mode ``i`` of a blocked/raked product: the pair ``pair`` coalesced to ``result``."""

    i: int
    pair: Any
    result: Any


@_event
class Copies:
    """``tile_to_shape``: ``shape`` copies per mode, laid out as ``layout``."""

    shape: tuple
    layout: Any


# -- inverses -------------------------------------------------------------------------------


@_event
class Positions:
    """``coalesce(A)``'s flat modes and the column-major position of each."""

    shape: tuple
    stride: tuple
    positions: tuple


@_event
class Chain:
    """``right_inverse``: ``mode`` continues the chain of strides; it maps to ``position``."""

    mode: Mode
    position: Any


@_event
class OffChain:
    """``right_inverse``: ``mode`` is off the chain, which needs stride ``needs`` next."""

    mode: Mode
    needs: Any


@_event
class ZeroMode:
    """``left_inverse``: the stride-0 ``mode`` reaches no new offset."""

    mode: Mode


@_event
class InverseStep:
    """``left_inverse``: ``count = stride / below`` offsets per step, mapped to ``position``."""

    stride: Any
    below: Any
    count: Any
    position: Any


@_event
class Close:
    """``left_inverse``: the largest-stride mode's ``size`` closes the inverse."""

    size: Any
