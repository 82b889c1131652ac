"""Linear layouts as CuTe layouts and back.

:func:`to_cute` writes a :class:`~cutepy.linear.LinearLayout` as the CuTe value of the same
function: a distributed layout as a rank-2 TV layout ``(thread, value) -> tile index``
(``thread = lane + W*warp + W*N*block``, ``value = register``, the tile index
colexicographic over the shape), a shared layout as ``tile coordinate -> offset``. CuTe's
layouts add their modes and a linear layout XORs its bases; the two agree exactly when the
bases' bits are pairwise disjoint, so that is when the answer is a :class:`Layout` (one
mode of size 2 per basis, coalesced). Otherwise the bases may be a CuTe ``Swizzle<B,M,S>``
(linear, and its own inverse) applied to disjoint ones: :func:`find_swizzle_of` tries every
swizzle on the output bits and the answer is ``Swizzle o 0 o Layout``. Else no CuTe value
has that function, and the error names the first basis that collides with earlier ones.

:func:`from_cute` reads a CuTe layout back: the value of each input bit is a basis, and
the layout is linear when its modes have power-of-two sizes and their bits are disjoint.

>>> from cutepy.linear import from_gluon
>>> L = from_gluon({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 4,
...                 "order": [1, 0]}, [4, 4])
>>> to_cute(L)
Sw<2,0,2> o 0 o (4,4):(4,1)
>>> from_cute(to_cute(L), kind="shared", shape=[4, 4]) == L
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..algebra.coalesce import coalesce_flat
from ..algebra.composed import ComposedLayout, composed_parts, is_layout, pointer_flag
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from . import f2
from .gluon import DISTRIBUTED_DIMS, SHARED_DIMS
from .layout import LinearLayout, as_int

#: most output bits a swizzle search looks at (CuTe swizzles of 64-bit offsets)
MAX_SWIZZLE_BITS = 40


def _log2(x: int) -> int:
    return x.bit_length() - 1


def _disjoint_clash(cols: Sequence[int]) -> int | None:
    """Index of the first column sharing a bit with an earlier one (``None``: all disjoint)."""
    seen = 0
    for k, c in enumerate(cols):
        if c & seen:
            return k
        seen |= c
    return None


def swizzles(nbits: int) -> list[Swizzle]:
    """Every CuTe ``Swizzle<B,M,S>`` (``B >= 1``, ``|S| >= B``) whose bits lie below ``nbits``, in
    the order of preference: fewest bits, then ``S > 0`` first, smallest ``|S|``, smallest ``M``.

    Pre: ``0 <= nbits <= MAX_SWIZZLE_BITS``. Post: no identity swizzle in the list.

    >>> [str(s) for s in swizzles(3)]
    ['Sw<1,0,1>', 'Sw<1,1,1>', 'Sw<1,0,-1>', 'Sw<1,1,-1>', 'Sw<1,0,2>', 'Sw<1,0,-2>']
    """
    if not 0 <= nbits <= MAX_SWIZZLE_BITS:
        raise CutepyError(f"swizzles: {nbits} output bits is outside [0, {MAX_SWIZZLE_BITS}]")
    out = []
    for b in range(1, nbits + 1):
        for s_abs in range(b, nbits):
            for sign in (1, -1):
                for m in range(0, nbits - b - s_abs + 1):
                    out.append(Swizzle(b, m, sign * s_abs))
    return out


def find_swizzle_of(cols: Sequence[int], nbits: int) -> Swizzle | None:
    """The preferred swizzle ``Sw`` with ``Sw(c)`` pairwise disjoint over ``cols`` (bits below
    ``nbits``), ``Swizzle(0, 0, 0)`` when the columns are disjoint already, else ``None``.

    Pre: columns below ``2**nbits``. Post: ``Sw`` is an involution, so ``cols == Sw(disjoint)``.

    >>> find_swizzle_of([1, 2, 4 | 1, 8 | 2], 4)
    Sw<2,0,2>
    """
    if _disjoint_clash(cols) is None:
        return Swizzle(0, 0, 0)
    for sw in swizzles(min(nbits, MAX_SWIZZLE_BITS)):
        if _disjoint_clash([sw(c) for c in cols]) is None:
            return sw
    return None


def _mode(cols: Sequence[int]) -> tuple[Any, Any]:
    """One mode with a size-2 sub-mode per column, coalesced: ``(shape, stride)``."""
    if not cols:
        return 1, 0
    return coalesce_flat(tuple(2 for _ in cols), tuple(cols))


def _bit_names(L: LinearLayout) -> list[tuple[str, int]]:
    return [(name, i) for name, bs in L._bases.items() for i in range(len(bs))]


def _cute_of(modes: list[list[int]], nbits: int, L: LinearLayout, names: list[tuple[str, int]]) -> Any:
    cols = [c for m in modes for c in m]
    sw = find_swizzle_of(cols, nbits)
    if sw is None:
        k = _disjoint_clash(cols)
        dim, i = names[k]
        raise CutepyError(
            f"to_cute: basis {i} of input dim {dim!r} ({L._bases[dim][i] if dim in L._bases else cols[k]}) "
            "shares output bits with earlier bases, and no CuTe swizzle separates them: a CuTe layout adds "
            "its modes, this map XORs them"
        )
    inner = [[sw(c) for c in m] for m in modes]
    shapes, strides = zip(*(_mode(m) for m in inner))
    layout = Layout(tuple(shapes), tuple(strides))
    if sw.bits == 0:
        return layout
    return ComposedLayout(sw, 0, layout)


def to_cute(L: LinearLayout) -> Any:
    """The same function as a CuTe value: a TV layout (distributed) or coordinate -> offset (shared).

    Pre: ``L`` has inputs ``register, lane, warp, block`` (distributed) or ``offset, block``
    (shared) and outputs ``dim0, dim1, ...`` (as :func:`from_gluon` returns).
    Post: distributed: rank-2 ``(threads, values)`` with ``T(lane + W*warp + W*N*block, register)
    == colex(L(...))``; shared: rank of the tensor, mode ``i`` of size ``shape[i]``, and
    ``T(coord) == offset`` (+ offsets-per-block * block) with ``L(offset) == coord``. A ``Layout``
    when the bases' bits are disjoint, else ``Swizzle o 0 o Layout``; otherwise
    ``CutepyError`` naming the first basis CuTe cannot express.

    >>> from cutepy.linear import from_gluon
    >>> to_cute(from_gluon({"kind": "BlockedLayout", "size_per_thread": [2, 1], "threads_per_warp": [4, 8],
    ...                     "warps_per_cta": [1, 1], "order": [0, 1]}, [8, 8]))
    (32,2):(2,1)
    """
    if not isinstance(L, LinearLayout):
        raise CutepyError(f"to_cute: expected a LinearLayout, got {type(L).__name__}")
    dims = list(L.in_dims)
    nbits = L.out_bits()
    if set(dims) <= set(DISTRIBUTED_DIMS) and "offset" not in dims:
        names = [
            (d, i) for d in ("lane", "warp", "block", "register") for i in range(len(L._bases.get(d, ())))
        ]
        cols = {d: [L._flat(b) for b in L._bases.get(d, ())] for d in DISTRIBUTED_DIMS}
        modes = [cols["lane"] + cols["warp"] + cols["block"], cols["register"]]
        return _cute_of(modes, nbits, L, names)
    if set(dims) <= set(SHARED_DIMS):
        if not L.is_invertible():
            cols = L.columns()
            if not L.is_injective():
                k = next(k for k in range(len(cols)) if _rank_prefix(cols, k + 1) <= k)
                dim, i = _bit_names(L)[k]
                raise CutepyError(
                    f"to_cute: basis {i} of input dim {dim!r} ({L._bases[dim][i]}) repeats what earlier "
                    "bases reach (several offsets hold one element): a CuTe coordinate -> offset layout "
                    "has one offset per element"
                )
            raise CutepyError(
                f"to_cute: the shared layout reaches only part of its tensor {list(L.out_dims.values())} "
                "(it is not surjective), so no coordinate -> offset layout has its function"
            )
        inv = L.invert()  # coordinate -> (offset, block): one column per coordinate bit
        modes = [[inv._flat(b) for b in inv._bases[d]] for d in inv._bases]
        names = [(d, i) for d in inv._bases for i in range(len(inv._bases[d]))]
        return _cute_of(modes, L.in_bits(), inv, names)
    raise CutepyError(
        f"to_cute: input dims {dims}: expected {list(DISTRIBUTED_DIMS)} (distributed) or "
        f"{list(SHARED_DIMS)} (shared)"
    )


def _rank_prefix(cols: Sequence[int], n: int) -> int:
    return f2.f2_rank(cols[:n])


# ---- CuTe -> linear -----------------------------------------------------------------------------


def _flat_modes(layout: Layout) -> list[tuple[int, int, tuple[int, ...]]]:
    """(size, stride, path) of each flat mode, with its position for error messages."""
    out = []

    def walk(s: Any, d: Any, path: tuple[int, ...]) -> None:
        if isinstance(s, tuple):
            for i, (ss, dd) in enumerate(zip(s, d)):
                walk(ss, dd, path + (i,))
        else:
            out.append((s, d, path))

    walk(layout.shape, layout.stride, ())
    return out


def refuse_pointer_flag(F: Any, what: str) -> None:
    """A pointer-flag layout (``Sw o smem_ptr[b](unset) o L``, as ``gmma_smem_layout`` gives)
    swizzles byte addresses, not the element offsets a linear layout maps to: say how to read
    it instead of calling it non-linear."""
    if (flag := pointer_flag(F)) is not None:
        raise CutepyError(
            f"{what} {F} swizzles the byte addresses of {flag.bits}-bit elements (pointer-flag form); "
            "its element offsets are as_position_independent_swizzle_layout(...) of it"
        )


def bit_columns(F: Any, what: str) -> list[int]:
    """The value of each index bit of a linear CuTe layout (colexicographic index, mode 0 lowest):
    ``F(i)`` is the XOR of the columns of ``i``'s set bits. The one home of a layout's F2 columns
    (``cutepy.equivalence.gf2`` reads its XOR maps from here); a ``CutepyError`` names the mode
    that is not F2-linear (``what`` says which layout it is in the message)."""
    refuse_pointer_flag(F, what)
    if (parts := composed_parts(F)) is not None:
        outer, offset, inner = parts
        if not isinstance(outer, Swizzle) or offset != 0 or not isinstance(inner, Layout):
            raise CutepyError(
                f"from_cute: {what} {F} is not linear: only Swizzle o 0 o Layout composed layouts are "
                "(an offset or a layout outer adds, it does not XOR)"
            )
        return [outer(c) for c in bit_columns(inner, what)]
    if not isinstance(F, Layout):
        raise CutepyError(f"from_cute: expected a Layout or a swizzled layout, got {type(F).__name__}")
    cols: list[int] = []
    seen = 0
    for size, stride, path in _flat_modes(F):
        where = f"mode {list(path)} ({size}:{stride}) of {what} {F}"
        if size == 1 and type(size) is int:
            continue  # one value: no index bit, its stride is never used
        if type(size) is not int or type(stride) is not int:
            raise CutepyError(f"from_cute: {where} is symbolic; only integer layouts are linear maps")
        if size & (size - 1):
            raise CutepyError(f"from_cute: {where} has a size that is not a power of two: not F2-linear")
        if stride < 0:
            raise CutepyError(f"from_cute: {where} has a negative stride: not F2-linear")
        for j in range(_log2(size)):
            c = stride << j
            if c & seen:
                raise CutepyError(
                    f"from_cute: {where} is not linear: its step {c} carries into bits other modes use "
                    "(a CuTe layout adds; it is F2-linear only when its modes' bits are disjoint)"
                )
            seen |= c
            cols.append(c)
    return cols


def _split(value: int, shape: Sequence[int]) -> list[int]:
    out = []
    for s in shape:
        out.append(value & (s - 1))
        value >>= _log2(s)
    return out


def _pow2_shape(shape: Any, what: str) -> list[int]:
    if not isinstance(shape, Sequence) or isinstance(shape, str) or not shape:
        raise CutepyError(f"from_cute: shape must be a non-empty list of powers of two, got "
                          f"{it.short_repr(shape)}")
    out = [as_int(s) for s in shape]
    for s in out:
        if s is None or s <= 0 or s & (s - 1):
            raise CutepyError(f"from_cute: {what} shape {it.short_repr(list(shape))}: sizes must be "
                              f"powers of two")
    return out


def from_cute(
    layout: Any,
    kind: str = "distributed",
    shape: Sequence[int] | None = None,
    warp_size: int = 32,
    blocks: int = 1,
) -> LinearLayout:
    """The LinearLayout of a CuTe layout whose offsets are F2-linear (the inverse of :func:`to_cute`).

    Pre: ``kind="distributed"``: a rank-2 TV layout ``(thread, value) -> tile index`` over a
    tensor of ``shape``; threads split into ``warp_size`` lanes, then warps, then ``blocks``
    blocks. ``kind="shared"``: a layout ``coordinate -> offset`` of the tensor's rank (shape
    defaults to the modes' sizes); the top ``log2(blocks)`` offset bits are the block. A bare
    ``Swizzle`` gives its own F2 matrix (``offset -> offset``). Sizes powers of two.
    Post: inputs ``register, lane, warp, block`` or ``offset, block`` (``[]`` bases for a
    size-1 dim), outputs ``dim0, ...``; ``from_cute(to_cute(L), ...) == L``. A mode that is
    not linear raises ``CutepyError`` naming it.

    >>> from_cute(Swizzle(1, 0, 1)).bases
    {'offset': [[1], [3]]}
    >>> from_cute(Layout((4, 2), (2, 1)), shape=[8]).bases["lane"]
    [[2], [4]]
    """
    if isinstance(layout, Swizzle):
        n = max((layout.yyy_mask | layout.zzz_mask).bit_length(), 0)
        return LinearLayout({"offset": [[layout(1 << k)] for k in range(n)]}, [("offset", 1 << n)])
    if not isinstance(kind, str) or kind not in ("distributed", "shared"):
        raise CutepyError(f"from_cute: kind is 'distributed' or 'shared', got {it.short_repr(kind)}")
    if type(blocks) is not int or blocks <= 0 or blocks & (blocks - 1):
        raise CutepyError(f"from_cute: blocks = {it.short_repr(blocks)}: expected a power of two")
    if not is_layout(layout):
        raise CutepyError(f"from_cute: expected a Layout or a swizzled layout, got {type(layout).__name__}")
    if kind == "distributed":
        if type(warp_size) is not int or warp_size <= 0 or warp_size & (warp_size - 1):
            raise CutepyError(f"from_cute: warp_size = {it.short_repr(warp_size)}: expected a power of two")
        if shape is None:
            raise CutepyError("from_cute: a distributed (TV) layout needs the tensor's shape")
        shape = _pow2_shape(shape, "tensor")
        if it.rank_tuple(layout.shape) != 2:
            raise CutepyError(
                f"from_cute: a TV layout has rank 2 (thread, value); {layout} has rank "
                f"{it.rank_tuple(layout.shape)}"
            )
        cols = bit_columns(layout, "the TV layout")
        threads = _log2_size(it.size(layout.shape[0]), "thread mode", layout)
        _log2_size(it.size(layout.shape[1]), "value mode", layout)
        total = sum(_log2(s) for s in shape)
        for k, c in enumerate(cols):
            if c >> total:
                raise CutepyError(
                    f"from_cute: input bit {k} of {layout} reaches index {c}, outside the tensor {shape}"
                )
        t_cols, v_cols = cols[:threads], cols[threads:]
        lanes = min(threads, _log2(warp_size))
        nblock = _log2(blocks)
        if nblock > threads - lanes:
            raise CutepyError(
                f"from_cute: {blocks} blocks need more threads than the layout's {1 << threads}"
            )
        warps_end = threads - nblock
        parts = {
            "register": v_cols,
            "lane": t_cols[:lanes],
            "warp": t_cols[lanes:warps_end],
            "block": t_cols[warps_end:],
        }
        outs = [(f"dim{i}", s) for i, s in enumerate(shape)]
        return LinearLayout({d: [_split(c, shape) for c in parts[d]] for d in DISTRIBUTED_DIMS}, outs)
    # shared: coordinate -> offset, inverted
    mode_sizes = [it.size(m) for m in (layout.shape if isinstance(layout.shape, tuple) else (layout.shape,))]
    shape = _pow2_shape(list(shape) if shape is not None else mode_sizes, "tensor")
    if it.size(layout.shape) != _prod(shape):
        raise CutepyError(
            f"from_cute: {layout} has {it.size(layout.shape)} coordinates but the shape "
            f"{shape} has {_prod(shape)}"
        )
    cols = bit_columns(layout, "the shared layout")
    n = len(cols)
    coord_to_offset = (
        LinearLayout({"in": [[c] for c in cols]}, [("offset", 1 << n)])
        if all(c >> n == 0 for c in cols)
        else None
    )
    if coord_to_offset is None or not coord_to_offset.is_invertible():
        raise CutepyError(
            f"from_cute: the shared layout {layout} is not a bijection onto [0, {1 << n}): "
            "each element needs its own offset"
        )
    inv = coord_to_offset.invert()  # offset -> flat coordinate
    offs = [_split(b[0], shape) for b in inv._bases["offset"]]
    nblock = _log2(blocks)
    if nblock > n:
        raise CutepyError(f"from_cute: {blocks} blocks exceed the layout's {1 << n} offsets")
    outs = [(f"dim{i}", s) for i, s in enumerate(shape)]
    return LinearLayout({"offset": offs[: n - nblock], "block": offs[n - nblock :]}, outs)


def _prod(xs: Sequence[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def _log2_size(size: Any, what: str, layout: Any) -> int:
    if type(size) is not int or size <= 0 or size & (size - 1):
        raise CutepyError(f"from_cute: the {what} of {layout} has size {size}, not a power of two")
    return _log2(size)
