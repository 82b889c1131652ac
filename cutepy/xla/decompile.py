"""From a CuTe layout back to an XLA layout (``minor_to_major`` and a tile chain).

Method: *derive from the strides, then verify*.

1. Read each mode of the layout (one per logical dim) as the *digits* of that dim's
   index: its leaves, least significant first, size-1 leaves dropped and contiguous
   leaves merged. The mode's size is the dim's padded extent ``D``.
2. Sort all digits by stride, largest first: the order the buffer stores them in.
   Offsets that overlap (a digit's span passes the stride above it), a zero stride
   (a broadcast) or a negative one have no XLA layout, and the error says so. Every
   other layout has one: a gap between strides is padding, which a tile bigger than
   what it tiles makes (``*`` merges first when the gap spans several digits), and
   tiles can move any dim part past any other, even against its dim's order.
3. Build tile chains that produce that order from the physical dims
   (``minor_to_major`` orders the dims by their largest stride; size-1 dims go most
   major):

   - *top down*, for the usual forms: a first tile splits the dims into (outer,
     inner) parts so that the untiled dims and the outer parts are in place, the
     inner parts forming the tail, which later tiles rearrange the same way. It
     finds ``T(8,128)``, ``T(8,128)(2,1)``, ``T(32,128)(32,1)``, Figure 1's
     ``T(2,2)``; it needs every gap to be a multiple of the stride below it;
   - *bottom up*, which always succeeds: a first tile pads the dims whose mode is
     bigger than the dim, then each tile moves the next digits, from the minor end,
     in front of the ones already placed (which ride along whole), and pads the
     placed ones where the next stride leaves a gap. Its chains are long.

   Domain padding (a mode bigger than its dim) comes from the first tile, which
   pads ``d`` to ``ceil(d/t)*t == D``.
4. Compile each chain with :func:`~cutepy.xla.compile_details` and return the first whose
   layout equals the input mode by mode (contiguous leaves merged, size-1 leaves
   dropped) on the same padded domain. A returned layout is never wrong; it may
   differ from the one the CuTe layout came from, since XLA spells one function in
   several ways (``T(8,128)`` on an ``[8,128]`` array is no tiling at all).

``L(n)`` is not recovered (the buffer's tail is no part of the function), nor any
attribute but ``minor_to_major`` and tiles.

>>> from cutepy import Layout
>>> str(from_cute(Layout(((2, 2), (2, 3)), ((2, 12), (1, 4))), (3, 5)))
'{1,0:T(2,2)}'
>>> str(from_cute(compile_details("s8[40,300]{1,0:T(8,128)(4,1)}")))
'{1,0:T(8,128)(4,1)}'
>>> str(from_cute(Layout((3, 5), (8, 1)))), str(from_cute(Layout(((2, 4),), ((4, 1),))))
('{1,0:T(5)(8)}', '{0:T(2)(4,1)(2,4,1)}')
>>> from_cute(Layout((2, 2), (1, 1)))
Traceback (most recent call last):
  ...
cutepy.CutepyError: (2,2):(1,1) has no XLA layout: its offsets overlap (digit 2:1 of dim 1 \
reaches 2 > stride 1 of the digit above it); XLA layouts are one-to-one
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..program.engine import ChainLayout, CompiledLayout
from .compile import compile_details
from .padding import round_up
from .shape import COMBINE_DIM, ArrayShape, Tile, XlaLayout


@dataclass(frozen=True)
class _Digit:
    """One part of a dim's index: ``size`` values at ``stride``, in a slot of ``slot``."""

    dim: int | None  # None: a phantom (padding only)
    level: int  # 0 = least significant part of its dim
    size: int
    stride: int
    slot: int


@dataclass(frozen=True)
class _Block:
    """One dim of the XLA shape while tiles apply: the digits it still holds."""

    digits: tuple[_Digit, ...]
    extent: int  # its size in the XLA shape (padding included)
    padded: bool = False  # a single digit in a bigger slot
    placed: bool = False  # bottom up: already at its final place
    base: int = 1  # bottom up: the stride of its lowest offset part (1 for a phantom)

    @property
    def full(self) -> int:
        n = 1
        for d in self.digits:
            n *= d.size
        return n


_ONE = _Block((), 1)


def _modes(layout: Layout, rank: int) -> list[Layout]:
    if rank == 1 and layout.rank() == 1:
        return [layout[0]] if type(layout.shape) is tuple else [layout]
    if layout.rank() != rank or (rank > 1 and type(layout.shape) is not tuple):
        raise CutepyError(f"{layout} has {layout.rank()} modes; the array has {rank} dims")
    return [layout[j] for j in range(rank)]


def _digits_of(mode: Layout, j: int, text: str) -> list[_Digit]:
    out: list[tuple[int, int]] = []
    for s, d in zip(it.flatten_tuple(mode.shape), it.flatten_tuple(mode.stride)):
        if type(s) is not int or type(d) is not int:
            raise CutepyError(f"{text} has no XLA layout: mode {j} is not made of integers")
        if s == 1:
            continue
        if d <= 0:
            why = "zero (a broadcast)" if d == 0 else "negative"
            raise CutepyError(f"{text} has no XLA layout: mode {j} has a {why} stride {d}; "
                              "XLA layouts are one-to-one and count upwards")
        if out and out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
        else:
            out.append((s, d))
    return [_Digit(j, k, s, d, s) for k, (s, d) in enumerate(out)]


def _sorted_digits(modes: list[Layout], text: str) -> list[_Digit]:
    """Every digit, major first (largest stride first); raises if XLA cannot store them so."""
    digits = [d for j, m in enumerate(modes) for d in _digits_of(m, j, text)]
    digits.sort(key=lambda d: -d.stride)
    for above, d in zip(digits, digits[1:]):
        span = d.stride * d.size
        if span > above.stride:
            raise CutepyError(
                f"{text} has no XLA layout: its offsets overlap (digit {d.size}:{d.stride} of dim "
                f"{d.dim} reaches {span} > stride {above.stride} of the digit above it); XLA layouts "
                "are one-to-one"
            )
    return digits


def _slotted(digits: list[_Digit]) -> list[_Digit] | None:
    """The digits with their slots (padding of one digit), and a phantom for a bottom hole.

    ``None`` when some hole spans several digits (only a ``*`` merge pads those).
    """
    out: list[_Digit] = []
    for i, d in enumerate(digits):
        if i == 0:
            out.append(d)
            continue
        above = digits[i - 1].stride
        if above % d.stride:
            return None
        out.append(_Digit(d.dim, d.level, d.size, d.stride, above // d.stride))
    if out and out[-1].stride > 1:
        out.append(_Digit(None, 0, 1, 1, out[-1].stride))
    return out


# --- matching -------------------------------------------------------------------------


def _solid(blocks: Sequence[_Block]) -> list[_Block]:
    return [b for b in blocks if b.digits]


def _matches(blocks: Sequence[_Block], target: Sequence[_Digit]) -> bool:
    """True if the blocks, 1s ignored, already store exactly ``target``."""
    pos = 0
    for b in _solid(blocks):
        n = len(b.digits)
        if tuple(target[pos:pos + n]) != b.digits:
            return False
        if b.padded:
            if b.extent != b.digits[0].slot:
                return False
        else:
            if b.extent != b.full:
                return False
            if any(d.slot != d.size for d in b.digits):
                return False
        pos += n
    return pos == len(target)


# --- top down ---------------------------------------------------------------------------


def _split(b: _Block, inner: set[_Digit], first: bool) -> tuple[int, _Block, _Block] | None:
    """Tile size, outer and inner blocks of ``b`` when its ``inner`` digits go to the tail."""
    mine = [d for d in b.digits if d in inner]
    if not mine:
        if b.digits and b.extent != b.full:
            return None  # needs the first tile's padding
        return 1, b, _ONE
    if mine != list(b.digits[len(b.digits) - len(mine):]):
        return None
    if b.padded:
        return b.extent, _ONE, b
    if len(mine) == len(b.digits) == 1 and not first and mine[0].slot != mine[0].size:
        return mine[0].slot, _ONE, _Block(b.digits, mine[0].slot, padded=True)
    t = 1
    for d in mine:
        t *= d.size
    if b.extent != b.full and (not first or round_up(b.extent, t) != b.full):
        return None
    rest = b.digits[: len(b.digits) - len(mine)]
    return t, _Block(rest, b.full // t), _Block(tuple(mine), t)


def _top_down(blocks: tuple[_Block, ...], target: tuple[_Digit, ...], first: bool,
              memo: dict[Any, Any]) -> list[tuple[int, ...]] | None:
    """Tiles that turn ``blocks`` into ``target``, the first one splitting every block that
    moves into (outer, inner) so that the outer part is final; ``None`` if there are none."""
    key = (blocks, target, first)
    if key in memo:
        return memo[key]
    memo[key] = None
    if _matches(blocks, target) and all(b.extent == b.full or b.padded for b in blocks if b.digits):
        memo[key] = []
        return []
    owners = {d: i for i, b in enumerate(blocks) for d in b.digits}
    result = None
    for q in range(len(target) - 1, -1, -1):
        inner = target[q:]
        if any(d not in owners and not (d.dim is None and first) for d in inner):
            continue
        phantoms = [d for d in inner if d not in owners]
        inner_set = set(inner)
        start = 0 if phantoms else min(owners[d] for d in inner)
        tile, outs, ins = [], [], []
        for p in phantoms:  # a tile longer than the shape pads leading 1s
            tile.append(p.slot)
            outs.append(_ONE)
            ins.append(_Block((p,), p.slot, padded=True))
        ok = True
        for b in blocks[start:]:
            sp = _split(b, inner_set, first)
            if sp is None:
                ok = False
                break
            tile.append(sp[0])
            outs.append(sp[1])
            ins.append(sp[2])
        if not ok or any(b.extent != b.full and not b.padded for b in blocks[:start] if b.digits):
            continue
        if not _matches(list(blocks[:start]) + outs, target[:q]):
            continue
        if q == 0 and _solid(ins) == _solid(blocks):
            continue  # no progress
        rest = _top_down(tuple(ins), inner, False, memo)
        if rest is not None:
            result = [tuple(tile)] + rest
            break
    memo[key] = result
    return result


# --- bottom up --------------------------------------------------------------------------


def _is_one(b: _Block) -> bool:
    return not b.digits and b.extent == 1 and not b.placed


def _level(blocks: list[_Block], start: int, ext: list[tuple[int, _Block]],
           choose: dict[int, tuple[int, _Block, _Block]],
           head: tuple[int, list[int], _Block] | None = None) -> tuple[tuple[int, ...], list[_Block]]:
    """Apply one tile over ``blocks[start:]`` (after leading phantom 1s ``ext``).

    ``choose[k]`` is (tile size, outer, inner) for block ``k``; others keep still (tile
    size 1). ``head``, if given, is a ``*``-merged run just before ``start``: where it
    begins, its tile entries and the inner block it becomes. A 1 that is not the last
    dim merges into the next one (``*``), so that the shape does not grow with 1s.
    """
    tile, outs, ins = [], [], []
    for t, inner in ext:
        tile.append(t)
        outs.append(_ONE)
        ins.append(inner)
    keep = start
    if head is not None:
        keep = head[0]
        tile.extend(head[1])
        outs.append(_ONE)
        ins.append(head[2])
    for i in range(start, len(blocks)):
        if _is_one(blocks[i]) and i < len(blocks) - 1:
            tile.append(COMBINE_DIM)
            continue
        t, o, n = choose.get(i, (1, blocks[i], _ONE))
        tile.append(t)
        outs.append(o)
        ins.append(n)
    return tuple(tile), blocks[:keep] + outs + ins


def _riding(blocks: list[_Block], after: int = -1) -> dict[int, tuple[int, _Block, _Block]]:
    return {k: (b.extent, _ONE, b) for k, b in enumerate(blocks) if b.placed and k > after}


def _pad_top(blocks: list[_Block], reach: int) -> tuple[tuple[int, ...], list[_Block]]:
    """One tile that pads the top of the placed blocks so that they span ``reach`` offsets.

    It merges (``*``) the fewest placed blocks, from the top, whose base stride divides
    ``reach``, and tiles them by ``reach // base`` (one tile, so padding only); with no
    placed block it pads a leading 1 (a phantom dim) instead.
    """
    placed = [k for k, b in enumerate(blocks) if b.placed]
    if not placed:
        return _level(blocks, 0, [(reach, _Block((), reach, padded=True, placed=True))], {})
    last = next(k for k in placed if reach % blocks[k].base == 0)
    first = placed[0]
    digits = tuple(d for b in blocks[first:last + 1] for d in b.digits)
    size = reach // blocks[last].base
    merged = _Block(digits, size, padded=True, placed=True, base=blocks[last].base)
    run = [COMBINE_DIM] * (last - first) + [size]
    return _level(blocks, last + 1, [], _riding(blocks, last), head=(first, run, merged))


def _bottom_up(blocks: list[_Block], digits: list[_Digit]) -> list[tuple[int, ...]]:
    """Tiles that place the digits from the minor end, a few per level; always succeeds."""
    tiles: list[tuple[int, ...]] = []
    need = [i for i, b in enumerate(blocks) if b.digits and b.extent != b.full]
    if need:  # the domain's padding: the first tile, whole dims
        choose = {i: (blocks[i].full, _ONE, _Block(blocks[i].digits, blocks[i].full)) for i in need}
        t, blocks = _level(blocks, need[0], [], choose)
        tiles.append(t)
    reach = 1  # the placed blocks span offsets [0, reach)
    i = len(digits) - 1
    while i >= 0:
        if digits[i].stride != reach:
            t, blocks = _pad_top(blocks, digits[i].stride)
            tiles.append(t)
            reach = digits[i].stride
        owner = {b.digits[-1]: k for k, b in enumerate(blocks) if b.digits and not b.placed}
        if digits[i] not in owner:  # split its block below it first
            k = next(k for k, b in enumerate(blocks) if digits[i] in b.digits)
            b = blocks[k]
            cut = b.digits.index(digits[i]) + 1
            low = _Block(b.digits[cut:], b.full // _Block(b.digits[:cut], 1).full)
            choose = _riding(blocks)
            choose[k] = (low.extent, _Block(b.digits[:cut], b.full // low.extent), low)
            t, blocks = _level(blocks, k, [], choose)
            tiles.append(t)
            continue
        group: list[tuple[int, _Digit]] = []
        j, top = i, reach
        while j >= 0 and digits[j] in owner and digits[j].stride == top and \
                (not group or owner[digits[j]] < group[0][0]):
            group.insert(0, (owner[digits[j]], digits[j]))
            top = digits[j].stride * digits[j].size
            j -= 1
        choose = _riding(blocks)
        for k, d in group:
            b = blocks[k]
            outer = _Block(b.digits[:-1], b.full // d.size) if len(b.digits) > 1 else _ONE
            choose[k] = (d.size, outer, _Block((d,), d.size, placed=True, base=d.stride))
        t, blocks = _level(blocks, group[0][0], [], choose)
        tiles.append(t)
        reach, i = top, j
    return tiles


# --- the public function ----------------------------------------------------------------


def _physical_orders(digits: list[_Digit], rank: int) -> list[list[int]]:
    """Physical dim orders to try: by each dim's largest stride, by its smallest, and the
    default (dim 0 most major); the dims of size 1 go first."""
    orders = []
    for pick in (min, max, None):
        where: dict[int, int] = {}
        for k, d in enumerate(digits):
            j = d.dim
            assert j is not None
            where[j] = j if pick is None else pick(where.get(j, k), k)
        phys = [j for j in range(rank - 1, -1, -1) if j not in where]
        phys += sorted(where, key=where.__getitem__)
        if phys not in orders:
            orders.append(phys)
    return orders


def _blocks(phys: list[int], digits: Sequence[_Digit], logical: Sequence[int]) -> tuple[_Block, ...]:
    """The physical dims as blocks of their digits, most significant first."""
    out = []
    for j in phys:
        mine = sorted((d for d in digits if d.dim == j), key=lambda d: -d.level)
        out.append(_Block(tuple(mine), logical[j]) if mine else _ONE)
    return tuple(out)


def _canonical(layout: Any, rank: int) -> list[list[tuple[int, int]]]:
    modes = _modes(layout, rank) if rank else []
    out = []
    for m in modes:
        leaves: list[tuple[int, int]] = []
        for s, d in zip(it.flatten_tuple(m.shape), it.flatten_tuple(m.stride)):
            if s == 1:
                continue
            if leaves and leaves[-1][0] * leaves[-1][1] == d:
                leaves[-1] = (leaves[-1][0] * s, leaves[-1][1])
            else:
                leaves.append((s, d))
        out.append(leaves)
    return out


def from_cute(layout: Layout | CompiledLayout, dims: Sequence[int] | None = None) -> XlaLayout:
    """The XLA layout (``minor_to_major`` and tiles) whose CuTe form is ``layout``.

    ``layout`` has one mode per logical dim: a :class:`~cutepy.Layout` (what
    :func:`~cutepy.xla.to_cute` returns) or what
    :func:`~cutepy.xla.compile_details` returned. ``dims`` are the logical dims (by
    default the compiled layout's logical shape, or the mode sizes); a mode bigger
    than its dim is padding, which the first tile makes. Raises
    :class:`~cutepy.CutepyError`, saying why, when no XLA layout has this
    function. The module docstring gives the method.

    Pre:  ``layout`` has one mode per logical dim, non-negative integer strides, and is
          one-to-one (else ``CutepyError`` saying why no XLA layout has this function).
    Post: ``to_cute(shape with the result)`` has the same offsets as ``layout`` on the logical
          region ``dims``.

    >>> from cutepy.core.layout import Layout
    >>> L = Layout((8, 1, ((2, 4), 160), (128, 128)), (20971520, 0, ((1, 256), 131072), (2, 1024)))
    >>> str(from_cute(L))
    '{3,2,0,1:T(8,128)(2,1)}'
    >>> str(from_cute(Layout((8, 8), (1, 8)), (7, 5)))
    '{0,1:T(8,8)}'
    >>> str(from_cute(Layout((5, 2, 5), (1, 26, 5))))  # a gap over two dims: '*' then pads them
    '{0,2,1:T(5,5)(*,26)(2,*,*,*,26)}'
    >>> from_cute(Layout((4, 2), (1, 0)))
    Traceback (most recent call last):
      ...
    cutepy.CutepyError: (4,2):(1,0) has no XLA layout: mode 1 has a zero (a broadcast) stride 0; \
XLA layouts are one-to-one and count upwards
    """
    if isinstance(layout, CompiledLayout):
        if layout.form != "layout":
            raise CutepyError(f"{layout} is a chain of layouts, not one: XLA's tiling of it "
                              f"has no single CuTe form ({'; '.join(layout.breaks)})")
        if dims is None:
            dims = layout.logical_shape
        layout = layout.layout
    if isinstance(layout, ChainLayout):
        raise CutepyError(f"{layout} is a chain of layouts, not one: XLA's tiling of it has no "
                          "single CuTe form")
    if type(layout) is not Layout:
        raise CutepyError(f"from_cute takes a CuTe Layout, got {type(layout).__name__}: {layout!r}")
    text = str(layout)
    if dims is None:
        rank = 0 if layout.size() == 1 and layout.rank() == 1 and type(layout.shape) is int else \
            layout.rank()
        dims = tuple(m.size() for m in _modes(layout, rank)) if rank else ()
    try:
        if any(isinstance(d, bool) for d in dims):
            raise TypeError
        logical = tuple(max(operator.index(d), 1) for d in dims)
    except TypeError:
        raise CutepyError(f"from_cute: dims {dims!r} are not a tuple of integers") from None
    rank = len(logical)
    if rank == 0:
        if layout.size() != 1:
            raise CutepyError(f"{text} has {layout.size()} elements; a scalar has one")
        return XlaLayout(())
    modes = _modes(layout, rank)
    domain = tuple(m.size() for m in modes)
    for j, (d, D) in enumerate(zip(logical, domain)):
        if D < d:
            raise CutepyError(f"{text}: mode {j} has {D} elements, fewer than dim {j} ({d})")
    digits = _sorted_digits(modes, text)
    orders = _physical_orders(digits, rank)
    candidates: list[tuple[list[int], list[tuple[int, ...]]]] = []
    target = _slotted(digits)
    if target is not None:
        found = []
        for phys in orders:
            top = _top_down(_blocks(phys, target, logical), tuple(target), True, {})
            if top is not None:
                found.append((len(top), sum(map(len, top)), phys, top))
        found.sort(key=lambda f: f[:2])
        candidates += [(phys, top) for _, _, phys, top in found]
    candidates.append((orders[0], _bottom_up(list(_blocks(orders[0], digits, logical)), digits)))
    want = _canonical(layout, rank)
    for phys, tiles in candidates:
        lay = XlaLayout(tuple(reversed(phys)), tiles=tuple(Tile(t) for t in tiles if t))
        got = compile_details(ArrayShape("f32", tuple(dims), layout=lay))
        if got.form == "layout" and got.domain == domain and _canonical(got.layout, rank) == want:
            return lay
    raise CutepyError(f"internal: no XLA layout found for {text} over {tuple(dims)}")
