"""Gluon layouts as Triton's linear layouts, built the way Triton builds them.

:func:`from_gluon` follows Triton's ``toLinearLayout`` (``LinearLayoutConversions.cpp``):
each family's per-CTA layout from ``identity1D``/``zeros1D`` products, then
``combineCtaCgaWithShape`` (grow the registers or offsets until the layout covers the
tensor, broadcast the bases that overflow it, multiply by the CGA's block layout).
``tests/data/triton_linear_layouts.json`` holds Triton 3.9's own answers for seeded random
specs of every family; the suite compares with it.

>>> L = from_gluon("BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[1, 1], "
...                "order=[1, 0], cga_layout=[])", [8, 8])
>>> L.bases["register"], L.bases["lane"]
([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import CutepyError
from ..core.inttuple import short_repr
from ..core.layout import Layout
from .layout import (
    LinearLayout,
    as_int,
    empty,
    identity1d,
    inferred,
    times,
    transpose_outs,
    with_in_dims,
    zeros1d,
)
from .spec import gluon_spec

DISTRIBUTED_DIMS = ("register", "lane", "warp", "block")
SHARED_DIMS = ("offset", "block")
#: largest tensor a conversion builds (elements), so that bad input never runs away
MAX_LOG2_ELEMENTS = 40


def _names(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def _pow2(x: Any) -> bool:
    return type(x) is int and x > 0 and x & (x - 1) == 0


def _ints(spec: dict, field: str, n: int | None = None, pow2: bool = True) -> list[int]:
    v = spec[field]
    if not isinstance(v, (list, tuple)) or (n is not None and len(v) != n):
        want = f"a list of {n} ints" if n is not None else "a list of ints"
        raise CutepyError(f"from_gluon: {spec['kind']}.{field} = {short_repr(v)}: expected {want}")
    for x in v:
        if type(x) is not int or (pow2 and not _pow2(x)):
            raise CutepyError(
                f"from_gluon: {spec['kind']}.{field} = {short_repr(v)}: entries must be "
                + ("powers of two" if pow2 else "ints")
            )
    return list(v)


def _order(spec: dict, rank: int, field: str = "order") -> list[int]:
    o = _ints(spec, field, rank, pow2=False)
    if sorted(o) != list(range(rank)):
        raise CutepyError(f"from_gluon: {spec['kind']}.{field} = {o}: not a permutation of 0..{rank - 1}")
    return o


def _int(spec: dict, field: str, choices: Sequence[int] | None = None) -> int:
    v = spec[field]
    if type(v) is not int or (choices is not None and v not in choices):
        raise CutepyError(
            f"from_gluon: {spec['kind']}.{field} = {short_repr(v)}: expected "
            + (f"one of {list(choices)}" if choices is not None else "an int")
        )
    return v


def _bool(spec: dict, field: str) -> bool:
    v = spec[field]
    if type(v) is not bool:
        raise CutepyError(f"from_gluon: {spec['kind']}.{field} = {short_repr(v)}: expected True or False")
    return v


def identity_nd(in_dim: str, sizes: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """Triton's ``identityStandardND``: ``in_dim`` runs over ``sizes``, ``order[0]`` fastest."""
    names = _names(len(sizes))
    ret = empty()
    for d in order:
        ret = times(ret, identity1d(sizes[d], in_dim, names[d]))
    return ret


def _broadcast_dot(sizes: Sequence[int], order: Sequence[int], k_dim: int, in_dim: str) -> LinearLayout:
    """Triton's ``broadcastedDotOperandLayout``: identity except zeros along ``k_dim``."""
    names = _names(len(sizes))
    ret = empty()
    for d in order:
        f = zeros1d if d == k_dim else identity1d
        ret = times(ret, f(sizes[d], in_dim, names[d]))
    return ret


def ensure_not_larger(L: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Triton's ``ensureLayoutNotLargerThan``: zero the largest bases of each too-large output
    (a broadcast) until it fits ``shape``; the inputs keep their sizes."""
    bases = L.bases
    outs = list(L.out_dims.items())
    new_outs = []
    for j, (name, actual) in enumerate(outs):
        desired = shape[name]
        if actual > desired:
            found = [(b[j], k, i) for k, bs in bases.items() for i, b in enumerate(bs) if b[j]]
            found.sort(key=lambda t: -t[0])  # stable: equal values keep input order
            for _, k, i in found:
                if actual <= desired:
                    break
                bases[k][i][j] = 0
                actual >>= 1
        new_outs.append(name)
    return inferred(bases, new_outs)


def ensure_not_smaller(L: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Triton's ``ensureLayoutNotSmallerThan``: more registers (or offsets) along each output
    (in the layout's output order) until it covers ``shape``."""
    first = next(iter(L.in_dims))
    ret = L
    for name, actual in L.out_dims.items():
        desired = shape[name]
        if desired > actual:
            ret = times(ret, identity1d(desired // actual, first, name))
    return ret


def _cga_layout(spec: dict, rank: int) -> LinearLayout:
    cga = spec.get("cga_layout", []) or []
    if not isinstance(cga, (list, tuple)):
        raise CutepyError(f"from_gluon: {spec['kind']}.cga_layout = {cga!r}: expected a list of bases")
    for b in cga:
        if (
            not isinstance(b, (list, tuple))
            or len(b) != rank
            or any(type(x) is not int or x < 0 or (x and x & (x - 1)) for x in b)
        ):
            raise CutepyError(
                f"from_gluon: {spec['kind']}.cga_layout basis {b!r}: expected {rank} "
                "non-negative powers of two (or 0)"
            )
    return inferred({"block": [list(b) for b in cga]}, _names(rank))


def combine_cta_cga(
    cta: LinearLayout,
    spec: dict,
    shape: Sequence[int],
    drop_zero_registers: bool = False,
    before_shrink: Any = None,
) -> LinearLayout:
    """Triton's ``combineCtaCgaWithShape``: fit the CTA layout to the tensor and add blocks
    (a blocked layout also drops the registers the fit broadcast, as Triton's does)."""
    rank = len(shape)
    names = _names(rank)
    labeled = dict(zip(names, shape))
    cga = transpose_outs(ensure_not_larger(_cga_layout(spec, rank), labeled), list(cta.out_dims))
    cta_shape = {d: max(1, labeled[d] // cga.out_dims[d]) for d in cta.out_dims}
    cta = ensure_not_smaller(cta, cta_shape)
    if before_shrink is not None:
        cta = before_shrink(cta)
    cta = ensure_not_larger(cta, cta_shape)
    if drop_zero_registers:
        b = cta.bases
        b["register"] = [r for r in b["register"] if any(r)]
        cta = LinearLayout(b, list(cta.out_dims.items()))
    return transpose_outs(times(cta, cga), names)


# ---- the families --------------------------------------------------------------------------------


def _blocked(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    order = _order(spec, rank)
    cta = times(
        times(
            identity_nd("register", _ints(spec, "size_per_thread", rank), order),
            identity_nd("lane", _ints(spec, "threads_per_warp", rank), order),
        ),
        identity_nd("warp", _ints(spec, "warps_per_cta", rank), order),
    )
    if _prod(spec["threads_per_warp"]) != 32:
        raise CutepyError(
            f"from_gluon: BlockedLayout.threads_per_warp = {spec['threads_per_warp']}: "
            "the product must be 32 (NVIDIA warps; use AMD layouts for 64)"
        )
    return combine_cta_cga(cta, spec, shape, drop_zero_registers=True)


def _prod(xs: Sequence[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def _mma_tile(
    tile: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]
) -> LinearLayout:
    """Triton's ``nvidiaMmaTile``: k_width registers and 4 lanes along the inner dim, 8 lanes along
    the outer, then register repeats along the outer and the inner dims."""
    rank = len(rep_order)
    names = _names(rank)
    cta = identity_nd("register", [1] * rank, rep_order)
    inner, outer = order[0], order[1]
    m, n = tile[outer], tile[inner]
    for f in (
        identity1d(k_width, "register", names[inner]),
        identity1d(4, "lane", names[inner]),
        identity1d(8, "lane", names[outer]),
        identity1d(m // 8, "register", names[outer]),
        identity1d(n // (k_width * 4), "register", names[inner]),
    ):
        cta = times(cta, f)
    return cta


def _row_major(rank: int) -> list[int]:
    return list(range(rank - 1, -1, -1))


def _mma_checked(spec: dict, rank: int) -> tuple[int, list[int], list[int]]:
    version = _ints(spec, "version", pow2=False)
    if len(version) != 2 or version[0] not in (2, 3):
        raise CutepyError(
            f"from_gluon: NVMMADistributedLayout.version = {version}: expected [2, 0] or [3, 0]"
        )
    warps = _ints(spec, "warps_per_cta", rank)
    instr = _ints(spec, "instr_shape", pow2=False)
    if version[0] == 2:
        if instr != ([16, 8] if rank == 2 else [1, 16, 8]) or rank not in (2, 3):
            raise CutepyError(
                f"from_gluon: an MMAv2 layout of rank {rank} has instr_shape "
                f"{[16, 8] if rank == 2 else [1, 16, 8]}, got {instr}"
            )
    else:
        if rank != 2 or len(instr) != 3 or instr[0] != 16 or instr[1] not in (8, 16, 32, 64, 128, 256):
            raise CutepyError(
                f"from_gluon: an MMAv3 layout is rank 2 with instr_shape [16, N, K], "
                f"N in 8..256; got rank {rank}, {instr}"
            )
        if _prod(warps) % 4:
            raise CutepyError(f"from_gluon: MMAv3 warps_per_cta = {warps}: wgmma needs a multiple of 4 warps")
    return version[0], warps, instr


def _mma_warp_order(version: int, rank: int) -> list[int]:
    return [0, 1] if version == 3 else _row_major(rank)


def _nvmma(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    version, warps, instr = _mma_checked(spec, rank)
    tile = instr if version == 2 else instr[:2]
    order = _row_major(rank)
    cta = _mma_tile(tile, 2, order, order)
    w = identity_nd("warp", warps, _mma_warp_order(version, rank))
    cta = times(cta, transpose_outs(w, list(cta.out_dims)))
    return combine_cta_cga(cta, spec, shape)


def _dot_order(op: int, rank: int) -> list[int]:
    k = rank - 1 if op == 0 else rank - 2
    non_k = rank - 2 if op == 0 else rank - 1
    return [k, non_k] + list(range(rank - 3, -1, -1))


def _dot(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    parent = spec["parent"]
    if parent["kind"] == "AMDMFMALayout":
        return _mfma_dot(spec, shape)
    if parent["kind"] != "NVMMADistributedLayout":
        raise CutepyError(
            f"from_gluon: DotOperandLayout of a {parent['kind']} parent is not supported "
            "(NVMMADistributedLayout and AMDMFMALayout parents are)"
        )
    version, warps, _ = _mma_checked(parent, rank)
    op = _int(spec, "operand_index", (0, 1))
    k_width = _int(spec, "k_width")
    if not _pow2(k_width) or k_width > 16:
        raise CutepyError(
            f"from_gluon: DotOperandLayout.k_width = {k_width}: expected a power of two up to 16"
        )
    if version == 3 and op == 1:
        raise CutepyError(
            "from_gluon: an MMAv3 (Hopper) B operand comes from shared memory; "
            "DotOperandLayout(operand_index=1) of a v3 parent has no register layout"
        )
    tile = [1] * rank
    if op == 0:
        tile[rank - 2], tile[rank - 1] = 16, k_width * 8
    else:
        tile[rank - 2], tile[rank - 1] = k_width * 8, 8
    order = _dot_order(op, rank)
    cta = _mma_tile(tile, k_width, order, order)
    k_dim = rank - 1 if op == 0 else rank - 2
    w = _broadcast_dot(warps, _mma_warp_order(version, rank), k_dim, "warp")
    cta = times(cta, transpose_outs(w, list(cta.out_dims)))
    # the operand's CGA layout is its parent's with the K component dropped (broadcast)
    cga = [[0 if i == k_dim else x for i, x in enumerate(b)] for b in parent.get("cga_layout") or []]
    return combine_cta_cga(cta, {**parent, "cga_layout": cga}, shape)


def _mfma(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    warps, instr, transposed = _mfma_checked(spec, rank)
    bits = _int(spec, "element_bitwidth", (32, 64))
    names = _names(rank)
    order = _row_major(rank)
    m = instr[0]
    # (register bases, lane bases) along (M, N); M is dim rank-2, N dim rank-1
    if m == 32:
        regs = [1, 2, 8, 16] if bits == 32 else [2, 4, 8, 16]
        lanes_n = [1, 2, 4, 8, 16]
        gap = [4] if bits == 32 else [1]
    else:
        regs = [1, 2] if bits == 32 else [4, 8]
        lanes_n = [1, 2, 4, 8]
        gap = [4, 8] if bits == 32 else [1, 2]
    # non-transposed: registers along M, lanes along N then the gap along M
    mdim, ndim = (rank - 2, rank - 1) if not transposed else (rank - 1, rank - 2)
    tile_outs = [names[order[0]], names[order[1]]]

    def vec(dim: int, v: int) -> list[int]:
        return [v if names[dim] == t else 0 for t in tile_outs]

    tile = LinearLayout(
        {
            "register": [vec(mdim, r) for r in regs],
            "lane": [vec(ndim, x) for x in lanes_n] + [vec(mdim, g) for g in gap],
        },
        list(zip(tile_outs, [32 if m == 32 else 16] * 2)),
    )
    tile = inferred(tile.bases, tile_outs)
    if rank == 3:
        tile = times(times(tile, identity1d(1, "register", names[0])), identity1d(1, "lane", names[0]))
    n_tile = len(tile.bases["register"])
    # tiles_per_warp repeats the tile inside a warp (registers), before the warps; not the batch dim
    tiles = list(spec["tiles_per_warp"])
    if rank == 3:
        tiles[0] = 1
    cta = times(times(tile, identity_nd("register", tiles, order)), identity_nd("warp", warps, order))
    return combine_cta_cga(cta, spec, shape, before_shrink=_registers_by_dim(n_tile))


def _registers_by_dim(n_tile: int) -> Any:
    """Triton lists an MFMA layout's repeated registers (after the ``n_tile`` of one instruction)
    dim by dim, in the layout's output order, each dim's in increasing value."""

    def by_dim(L: LinearLayout) -> LinearLayout:
        b = L.bases
        rest = b["register"][n_tile:]
        key = [(next((i for i, x in enumerate(r) if x), len(r)), max(r, default=0)) for r in rest]
        b["register"] = b["register"][:n_tile] + [r for _, r in sorted(zip(key, rest), key=lambda t: t[0])]
        return LinearLayout(b, list(L.out_dims.items()))

    return by_dim


def _mfma_checked(spec: dict, rank: int) -> tuple[list[int], list[int], bool]:
    if rank not in (2, 3):
        raise CutepyError(f"from_gluon: AMDMFMALayout is rank 2 or 3, got a rank-{rank} shape")
    warps = _ints(spec, "warps_per_cta", rank)
    instr = _ints(spec, "instr_shape", 3, pow2=False)
    if instr[:2] not in ([32, 32], [16, 16]):
        raise CutepyError(
            f"from_gluon: AMDMFMALayout.instr_shape = {instr}: [32, 32, K] and [16, 16, K] are supported"
        )
    _int(spec, "version", (1, 2, 3, 4))
    transposed = _bool(spec, "transposed")
    tiles = spec["tiles_per_warp"]
    if tiles is None:
        spec["tiles_per_warp"] = [1] * rank
    _ints(spec, "tiles_per_warp", rank)
    return warps, instr, transposed


def _mfma_dot(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Triton's ``mfmaDotToLinearLayout``: k_width registers along K, the lanes of one MFMA
    (along the non-K dim, then K), registers repeating along K up to the tensor's K."""
    rank = len(shape)
    parent = spec["parent"]
    warps, instr, _ = _mfma_checked(parent, rank)
    _int(parent, "element_bitwidth", (32, 64))
    op = _int(spec, "operand_index", (0, 1))
    k_width = _int(spec, "k_width")
    if not _pow2(k_width) or k_width > 32:
        raise CutepyError(
            f"from_gluon: DotOperandLayout.k_width = {k_width}: expected a power of two up to 32"
        )
    names = _names(rank)
    k_dim = rank - 1 if op == 0 else rank - 2
    non_k = rank - 2 if op == 0 else rank - 1
    regs = [[1 << i, 0] for i in range(k_width.bit_length() - 1)]
    if instr[0] == 32:
        lanes = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [k_width, 0]]
        k_tile = 2 * k_width
    else:
        lanes = [[0, 1], [0, 2], [0, 4], [0, 8], [k_width, 0], [2 * k_width, 0]]
        k_tile = 4 * k_width
    e = k_tile
    while e < shape[k_dim]:
        regs.append([e, 0])
        e *= 2
    tile = inferred({"register": regs, "lane": lanes}, [names[k_dim], names[non_k]])
    if rank == 3:
        tile = times(times(tile, identity1d(1, "register", names[0])), identity1d(1, "lane", names[0]))
    n_tile = len(regs)
    # the parent's tiles_per_warp along the operand's non-K dim repeat the tile in registers
    tile = times(tile, identity1d(parent["tiles_per_warp"][non_k], "register", names[non_k]))
    w = _broadcast_dot(warps, _row_major(rank), k_dim, "warp")
    cta = times(tile, transpose_outs(w, list(tile.out_dims)))
    return combine_cta_cga(cta, parent, shape, before_shrink=_registers_by_dim(n_tile))


def _slice(spec: dict, shape: Sequence[int]) -> LinearLayout:
    parent = spec["parent"]
    rank = len(shape) + 1
    dim = _int(spec, "dim")
    if not 0 <= dim < rank:
        raise CutepyError(f"from_gluon: SliceLayout.dim = {dim}: the parent has rank {rank}")
    pshape = list(shape[:dim]) + [1] + list(shape[dim:])
    P = _convert(parent, pshape)
    names = _names(rank)
    bases = {}
    for k, bs in P.bases.items():
        row = [b[:dim] + b[dim + 1 :] for b in bs]
        if k == "register":
            row = [b for b in row if any(b)]
        bases[k] = row
    outs = [(f"dim{i}", s) for i, s in enumerate(shape)]
    del names
    return LinearLayout(bases, outs)


def _swizzled_shared(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    order = _order(spec, rank)
    vec, per_phase, max_phase = _int(spec, "vec"), _int(spec, "per_phase"), _int(spec, "max_phase")
    for f, v in (("vec", vec), ("per_phase", per_phase), ("max_phase", max_phase)):
        if not _pow2(v):
            raise CutepyError(f"from_gluon: SwizzledSharedLayout.{f} = {v}: expected a power of two")
    names = _names(rank)
    cga = _cga_layout(spec, rank)
    cga = ensure_not_larger(cga, dict(zip(names, shape)))
    cta_shape = [max(1, s // cga.out_dims[d]) for d, s in zip(names, shape)]
    if rank == 1:
        return combine_cta_cga(identity1d(cta_shape[0], "offset", "dim0"), spec, shape)
    col, row = order[0], order[1]
    ncols, nrows = cta_shape[col], cta_shape[row]
    bases = [[0, 1 << c] for c in range(ncols.bit_length() - 1)]
    for r in range(nrows.bit_length() - 1):
        rr = 1 << r
        bases.append([rr, (vec * ((rr // per_phase) % max_phase)) % ncols])
    cta = LinearLayout({"offset": bases}, [(names[row], nrows), (names[col], ncols)])
    for d in order[2:]:
        cta = times(cta, identity1d(cta_shape[d], "offset", names[d]))
    return combine_cta_cga(cta, spec, shape)


def _nvmma_shared(spec: dict, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    swizzle = _int(spec, "swizzle_byte_width", (0, 32, 64, 128))
    bits = _int(spec, "element_bitwidth", (8, 16, 32, 64))
    transposed, fp4 = _bool(spec, "transposed"), _bool(spec, "fp4_padded")
    if _int(spec, "rank") != rank:
        raise CutepyError(
            f"from_gluon: NVMMASharedLayout.rank = {spec['rank']} but the shape {list(shape)} has rank {rank}"
        )
    if fp4 and (swizzle != 128 or bits != 8):
        raise CutepyError(
            "from_gluon: NVMMASharedLayout.fp4_padded needs swizzle_byte_width=128 and element_bitwidth=8"
        )
    names = _names(rank)
    cga = ensure_not_larger(_cga_layout(spec, rank), dict(zip(names, shape)))
    cta_shape = [max(1, s // cga.out_dims[d]) for d, s in zip(names, shape)]
    if rank == 1:
        return combine_cta_cga(identity1d(cta_shape[0], "offset", "dim0"), spec, shape)
    if swizzle:
        return combine_cta_cga(_nvmma_swizzled(cta_shape, swizzle, bits, transposed, fp4), spec, shape)
    # no swizzle: identities over the TMA block (each dim at most 256), the last dim first.
    # Transposed, Triton 3.9 builds them over the block rotated to put dim0 last
    # (R[j] = block[(j + 1) % rank]), then permutes each basis vector's components
    # (transposeLinearLayout) but keeps the out dims' names, inferring their sizes: R's dim j
    # lands on dim (j - 1) % rank. For rank 2 that is the block itself; for rank > 2 the sizes
    # land on other dims, and the fit below grows or broadcasts them as Triton's layout does
    # (tests/data/triton_linear_layouts_focus.json holds Triton's answers)
    tma = [min(x, 256) for x in cta_shape]
    if transposed:
        factors = [((j - 1) % rank, tma[(j + 1) % rank]) for j in range(rank - 1, -1, -1)]
    else:
        factors = [(d, tma[d]) for d in range(rank - 1, -1, -1)]
    cta = empty()
    for d, size in factors:
        cta = times(cta, identity1d(size, "offset", names[d]))
    # then more offsets up to the per-CTA shape, the last dim first
    cta = ensure_not_smaller(transpose_outs(cta, names[::-1]), dict(zip(names, cta_shape)))
    return combine_cta_cga(cta, spec, shape)


def _nvmma_swizzled(
    cta_shape: list[int], swizzle: int, bits: int, transposed: bool, fp4: bool
) -> LinearLayout:
    """Triton's ``nvmmaSharedToLinearLayout`` for a swizzle: the 8-row core matrix on the TMA
    block collapsed to 2-D (rows = the outer dims, columns = the contiguous one, swapped when
    transposed), grown to the block, reshaped to N-D, then grown to the per-CTA shape."""
    rank = len(cta_shape)
    names = _names(rank)
    packing = 2 if fp4 else 1

    def packed(c: int) -> int:  # fp4: 8 real and 8 padding offsets per 16
        return c // 16 * 8 + c % 8 if fp4 else c

    contig = 0 if transposed else rank - 1
    tma = list(cta_shape)
    tma[contig] *= packing
    tma = [min(x, 256) for x in tma]  # a TMA box is at most 256 per dim
    span = 8 * swizzle // bits  # elements in one swizzle span (the core matrix's columns)
    rows = tma[-1] if transposed else _prod(tma[:-1])
    if tma[contig] < span or rows < 8:
        raise CutepyError(
            f"from_gluon: NVMMASharedLayout(swizzle_byte_width={swizzle}, element_bitwidth={bits}) needs a "
            f"tile of at least 8 rows x {span} columns (one swizzle span of {swizzle} B); the per-CTA "
            f"shape {cta_shape} is smaller (Triton: invalid block shape for TMA)"
        )
    tma[contig] = span // packing
    rows2d, cols2d = _prod(tma[:-1]), tma[-1]
    if transposed:
        rows2d, cols2d = cols2d, rows2d
    per_phase, max_phase = {32: (4, 2), 64: (2, 4), 128: (1, 8)}[swizzle]
    vec = 128 // bits
    bases = [[0, packed(1 << c)] for c in range(span.bit_length() - 1)]
    bases += [[1 << r, packed(vec * (((1 << r) // per_phase) % max_phase))] for r in range(3)]
    r, c = 8, span // packing
    while r < rows2d:
        bases.append([r, 0])
        r *= 2
    while c < cols2d:
        bases.append([0, c])
        c *= 2
    # reshape (row, col) -> the N-D block, last dim fastest (the outer dim moved inside if transposed)
    nd = tma[1:] + tma[:1] if transposed else list(tma)

    def unflat(v: int) -> list[int]:
        out = [0] * rank
        for i in range(rank - 1, -1, -1):
            out[i] = v % nd[i]
            v //= nd[i]
        return [out[-1]] + out[:-1] if transposed else out

    cta = LinearLayout(
        {"offset": [unflat(b[0] * cols2d + b[1]) for b in bases]}, [(names[i], tma[i]) for i in range(rank)]
    )
    return ensure_not_smaller(cta, dict(zip(names, cta_shape)))


# ---- the kinds Triton 3.9 added: tensor memory, AMD WMMA, partitioned and linear shared ------------
# (checked against tests/data/triton_linear_layouts_kinds.json, benchmarks/triton_oracle_kinds.py)


def _log2(x: int) -> int:
    return x.bit_length() - 1


def _bases_field(spec: dict, field: str, rank: int, shape: Sequence[int] | None = None) -> list[list[int]]:
    """A list of bases, each ``rank`` non-negative ints (below ``shape`` when given)."""
    v = spec[field]
    if not isinstance(v, (list, tuple)):
        raise CutepyError(f"from_gluon: {spec['kind']}.{field} = {short_repr(v)}: expected a list of bases")
    out = []
    for b in v:
        if (not isinstance(b, (list, tuple)) or len(b) != rank
                or any(type(x) is not int or x < 0 for x in b)
                or (shape is not None and any(x >= s for x, s in zip(b, shape)))):
            within = f" below {list(shape)}" if shape is not None else ""
            raise CutepyError(f"from_gluon: {spec['kind']}.{field} basis {b!r}: expected {rank} "
                              f"non-negative ints{within}")
        out.append(list(b))
    return out


def _per_cta_shape(spec: dict, shape: Sequence[int]) -> list[int]:
    names = _names(len(shape))
    cga = ensure_not_larger(_cga_layout(spec, len(shape)), dict(zip(names, shape)))
    return [max(1, s // cga.out_dims[d]) for d, s in zip(names, shape)]


def _tensor_memory(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Triton's ``tensorMemoryToLinearLayout``: TMEM ``row`` (128 lanes) and ``col`` (32-bit
    columns) -> the per-CTA tensor. A block of ``block[0]`` rows (64 or 128) by ``block[1]``
    columns; ``col_stride`` 32-bit columns per element (and fp4 padding) are zero column bits;
    further blocks along M, then N, take more columns. A 64-row block uses TMEM lanes 16-31 of
    each 32-lane quarter for its second M block (or, with one M block, its second N block)."""
    if len(shape) != 2:
        raise CutepyError(f"from_gluon: TensorMemoryLayout is rank 2, got a rank-{len(shape)} shape")
    block = spec["block"]
    if not isinstance(block, (list, tuple)) or len(block) != 2:
        raise CutepyError(f"from_gluon: TensorMemoryLayout.block = {block!r}: expected [rows, columns]")
    bm, bn = _ints({**spec, "block": list(block)}, "block", 2)
    if bm not in (64, 128):
        raise CutepyError(f"from_gluon: TensorMemoryLayout.block = {list(block)}: rows must be 64 or 128")
    cs = _int(spec, "col_stride")
    if not _pow2(cs):
        raise CutepyError(f"from_gluon: TensorMemoryLayout.col_stride = {cs}: expected a power of two")
    two, fp4 = _bool(spec, "two_ctas"), _bool(spec, "fp4_padded")
    cga = _cga_layout(spec, 2).bases["block"]
    if two and (not cga or cga[0] != [1, 0]):
        raise CutepyError("from_gluon: TensorMemoryLayout(two_ctas=True) needs cga_layout's first block "
                          "basis to be [1, 0] (Triton: twoCTAs layout requires it)")
    if fp4 and cs != 1:
        raise CutepyError(f"from_gluon: TensorMemoryLayout(fp4_padded=True) needs col_stride 1, got {cs}")
    M, N = _per_cta_shape(spec, shape)
    if M < bm:
        raise CutepyError(f"from_gluon: TensorMemoryLayout.block = {[bm, bn]} has more rows than the per-CTA "
                          f"shape {[M, N]} (Triton asserts repsM >= 1)")
    bn = min(bn, N)  # a block wider than the tensor keeps the tensor's columns
    reps_m, reps_n = M // bm, N // bn
    rows = [[1 << k, 0] for k in range(4)]
    if two and bm == 64:  # a CTA pair's 64-row block: the upper TMEM lanes hold the upper half of N
        rows += [[16, 0], [32, 0], [0, bn // 2]]
        cols = [[0, 0]] * (_log2(cs) + int(fp4)) + [[0, 1 << k] for k in range(_log2(bn) - 1)]
        cols += [[bm << j, 0] for j in range(_log2(reps_m))] + [[0, bn << j] for j in range(_log2(reps_n))]
        return LinearLayout({"row": rows, "col": cols}, [("dim0", shape[0]), ("dim1", shape[1])])
    if bm == 128:
        rows += [[16, 0], [32, 0], [64, 0]]
        m_used = n_used = 0
    else:
        extra = [bm, 0] if reps_m > 1 else [0, bn] if reps_n > 1 else [0, 0]
        m_used, n_used = int(reps_m > 1), int(reps_m == 1 and reps_n > 1)
        rows += [extra, [16, 0], [32, 0]]
    cols = [[0, 0]] * (_log2(cs) + int(fp4)) + [[0, 1 << k] for k in range(_log2(bn))]
    cols += [[bm << j, 0] for j in range(m_used, _log2(reps_m))]
    cols += [[0, bn << j] for j in range(n_used, _log2(reps_n))]
    return LinearLayout({"row": rows, "col": cols}, [("dim0", shape[0]), ("dim1", shape[1])])


def _tensor_memory_scales(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Triton's layout of block scales in tensor memory: 32 rows repeated over the four TMEM lane
    quarters (two zero row bits), four columns of scales, then 32-row groups of M up to 128 in
    columns, then the repetitions of M (128 rows) and of N (4 scales) in ``block_rep_order``."""
    if len(shape) != 2:
        raise CutepyError(f"from_gluon: TensorMemoryScalesLayout is rank 2, got a rank-{len(shape)} shape")
    order = spec["block_rep_order"]
    if order not in ("mnThenK", "kThenMn"):
        raise CutepyError(f"from_gluon: TensorMemoryScalesLayout.block_rep_order = {order!r}: expected "
                          "'mnThenK' or 'kThenMn'")
    M, N = _per_cta_shape(spec, shape)
    rows = [[1 << k, 0] if 1 << k < M else [0, 0] for k in range(5)] + [[0, 0], [0, 0]]
    cols = [[0, 1] if N > 1 else [0, 0], [0, 2] if N > 2 else [0, 0], [32, 0] if M >= 64 else [0, 0]]
    if M >= 128:
        cols.append([64, 0])
    m_reps = [[128 << j, 0] for j in range(_log2(M // 128))] if M >= 128 else []
    n_reps = [[0, 4 << j] for j in range(_log2(N // 4))] if N >= 4 else []
    cols += m_reps + n_reps if order == "mnThenK" else n_reps + m_reps
    return LinearLayout({"row": rows, "col": cols}, [("dim0", shape[0]), ("dim1", shape[1])])


#: the instruction shapes Triton 3.9 accepts for each AMD WMMA version (M = N = 16)
WMMA_K = {1: (16,), 2: (16, 32), 3: (4, 32, 64, 128)}


def _wmma(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Triton's ``wmmaToLinearLayout``: one 16 x 16 tile per wave of 32 lanes (RDNA3, version 1:
    8 registers on every other row, lane 16 the row parity; RDNA4 and gfx1250, versions 2-3: 8
    consecutive rows in registers, lane 16 the row half), transposed swaps rows and columns;
    ``reg_bases`` and ``warp_bases`` repeat the tile (in tiles; the batch dim in elements); then
    the tensor is covered as for every distributed layout."""
    rank = _int(spec, "rank", (2, 3))
    if rank != len(shape):
        raise CutepyError(f"from_gluon: AMDWMMALayout.rank = {rank} but the shape {list(shape)} has rank "
                          f"{len(shape)}")
    version = _int(spec, "version", (1, 2, 3))
    transposed = _bool(spec, "transposed")
    instr = _ints(spec, "instr_shape", 3, pow2=False)
    if instr[:2] != [16, 16] or instr[2] not in WMMA_K[version]:
        raise CutepyError(f"from_gluon: AMDWMMALayout.instr_shape = {instr}: invalid WMMA "
                          f"v{version} instruction "
                          f"shape (Triton takes [16, 16, K] with K in {list(WMMA_K[version])})")
    names = _names(rank)
    m, n = rank - 2, rank - 1
    row, col = (n, m) if transposed else (m, n)

    def unit(dim: int, v: int) -> list[int]:
        return [v if i == dim else 0 for i in range(rank)]

    if version == 1:
        regs = [unit(row, 2), unit(row, 4), unit(row, 8)]
        lanes = [unit(col, 1 << k) for k in range(4)] + [unit(row, 1)]
    else:
        regs = [unit(row, 1), unit(row, 2), unit(row, 4)]
        lanes = [unit(col, 1 << k) for k in range(4)] + [unit(row, 8)]
    scale = [1] * (rank - 2) + [16, 16]

    def tiles(field: str) -> list[list[int]]:
        return [[x * s for x, s in zip(b, scale)] for b in _bases_field(spec, field, rank)]

    regs = regs + tiles("reg_bases")
    warps = tiles("warp_bases")
    order = _row_major(rank)  # outputs N, M (, batch): the fit grows N first, as Triton's does
    cta = inferred({k: [[b[d] for d in order] for b in v] for k, v in
                    (("register", regs), ("lane", lanes), ("warp", warps))}, [names[d] for d in order])
    # Triton's fit zeroes every basis that reaches past the (per-CTA) tensor, repeated ones too
    # (the halving fit of ensure_not_larger keeps one of two equal bases)
    per_cta = dict(zip(names, _per_cta_shape(spec, shape)))
    outs = list(cta.out_dims)
    cta = inferred({k: [[0 if x >= per_cta[o] else x for x, o in zip(b, outs)] for b in bs]
                    for k, bs in cta.bases.items()}, outs)
    L = combine_cta_cga(cta, spec, shape)
    # Triton checks the layout it ends with: bases the fit broadcast (zeroed) may repeat
    nonzero = [tuple(b) for bs in L.bases.values() for b in bs if any(b)]
    unit_vectors = all(sum(1 for x in b if x) == 1 and _pow2(max(b)) for b in nonzero)
    if len(set(nonzero)) != len(nonzero) or not unit_vectors:
        raise CutepyError("from_gluon: AMDWMMALayout's register and warp bases repeat a tile of the tensor "
                          "(Triton: LinearEncodingAttr requires a permutation matrix layout after removing "
                          "broadcast bases)")
    return L


def _distributed_linear(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Gluon's explicit distributed layout: its bases as given, checked as Triton checks them."""
    own = _ints(spec, "shape")
    if own != list(shape):
        raise CutepyError(f"from_gluon: DistributedLinearLayout.shape = {own} but the tensor is "
                          f"{list(shape)}")
    rank = len(shape)
    fields = {"register": "reg_bases", "lane": "lane_bases", "warp": "warp_bases", "block": "block_bases"}
    bases = {k: _bases_field(spec, f, rank, shape) for k, f in fields.items()}
    for k in ("register", "lane", "block"):
        for b in bases[k]:
            if sum(1 for x in b if x) > 1:
                raise CutepyError(f"from_gluon: DistributedLinearLayout.{fields[k]} basis {b}: "
                                  "register, lane "
                                  "and block bases move along one dim at most (Triton's rule)")
    L = LinearLayout(bases, list(zip(_names(rank), shape)))
    if not L.is_surjective():
        raise CutepyError("from_gluon: DistributedLinearLayout does not reach every element of its shape "
                          "(Triton: the layout is expected to be surjective)")
    return L


def _shared_linear(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """Gluon's explicit shared layout: ``offset_bases`` and ``block_bases`` as given."""
    rank = len(shape)
    offs = _bases_field(spec, "offset_bases", rank, shape)
    if not offs:
        raise CutepyError("from_gluon: SharedLinearLayout.offset_bases must not be empty")
    align = _int(spec, "alignment")
    if not _pow2(align):
        raise CutepyError(f"from_gluon: SharedLinearLayout.alignment = {align}: expected a power of two")
    blocks = _bases_field(spec, "block_bases", rank, shape)
    return LinearLayout({"offset": offs, "block": blocks}, list(zip(_names(rank), shape)))


def _partitioned_shared(spec: dict, shape: Sequence[int]) -> LinearLayout:
    """AMD's partitioned shared layout (gfx1250): the tensor cut along ``partition_dim`` into
    ``num_partitions * num_groups`` pieces, each laid out by ``partition_layout``; the piece index's
    low bits choose the physical partition (input ``partition``), its high bits the group (more
    offset bits, after the piece's own)."""
    rank = len(shape)
    parts = _int(spec, "num_partitions")
    if not _pow2(parts) or parts < 2:
        raise CutepyError(f"from_gluon: PartitionedSharedLayout.num_partitions = {parts}: a power of two, "
                          "at least 2 (Triton's rule)")
    groups = _int(spec, "num_groups")
    if not _pow2(groups):
        raise CutepyError(f"from_gluon: PartitionedSharedLayout.num_groups = {groups}: a power of two")
    pdim = _int(spec, "partition_dim")
    if not 0 <= pdim < rank:
        raise CutepyError(f"from_gluon: PartitionedSharedLayout.partition_dim = {pdim}: the shape "
                          f"has rank {rank}")
    inner = spec["partition_layout"]
    if "Shared" not in inner["kind"] or inner["kind"] == "PartitionedSharedLayout":
        raise CutepyError(f"from_gluon: PartitionedSharedLayout.partition_layout is a "
                          f"{inner['kind']}: expected "
                          "a (non-partitioned) shared layout")
    pieces = parts * groups
    if shape[pdim] < pieces:
        raise CutepyError(f"from_gluon: PartitionedSharedLayout: dim {pdim} of {list(shape)} is "
                          "smaller than its "
                          f"{pieces} pieces (num_partitions * num_groups)")
    piece = list(shape)
    piece[pdim] //= pieces
    L = _convert(inner, piece)
    b = L.bases

    def along(v: int) -> list[int]:
        return [v if i == pdim else 0 for i in range(rank)]

    offset = b["offset"] + [along(piece[pdim] * parts << j) for j in range(_log2(groups))]
    partition = [along(piece[pdim] << j) for j in range(_log2(parts))]
    return LinearLayout({"offset": offset, "block": b.get("block", []), "partition": partition},
                        list(zip(_names(rank), shape)))


def _no_linear_layout(spec: dict, shape: Sequence[int]) -> LinearLayout:
    why = {
        "PaddedSharedLayout": "Triton 3.9 gives a padded shared layout no linear layout (its "
                              "to_linear_layout "
        "fails: 'padded shared encoding has no linear layout'); read its two parts with "
        "cutepy.linear.padded_shared(spec): the linear map from offsets to elements and the padding",
        "CoalescedLayout": "a CoalescedLayout is a placeholder the compiler replaces by a concrete layout; "
        "Triton 3.9 has no linear layout for it (to_linear_layout asserts 'unknown layout')",
        "AutoLayout": "an AutoLayout is a placeholder the compiler replaces by a concrete layout; Triton 3.9 "
        "has no linear layout for it (to_linear_layout asserts 'unknown layout')",
    }[spec["kind"]]
    raise CutepyError(f"from_gluon: {why}")


@dataclass(frozen=True)
class PaddedShared:
    """A ``PaddedSharedLayout`` as its two parts: ``linear`` maps an offset (and block) to the
    element stored there (Triton's ``offset_bases``), ``padding`` maps the offset to the address
    in elements once the padding is inserted (a CuTe layout over the offset's bits).

    >>> p = padded_shared({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[4, 1]],
    ...                    "offset_bases": [[1], [2], [4]], "shape": [8]})
    >>> p.padding, [p.padding(o) for o in range(8)]
    ((2,2,2):(1,2,5), [0, 1, 2, 3, 5, 6, 7, 8])
    """

    linear: LinearLayout
    padding: Layout


def padded_shared(spec: str | Mapping[str, Any]) -> PaddedShared:
    """The linear map and the padding of a Gluon ``PaddedSharedLayout`` (Triton 3.9 has no
    linear layout for it: the padding is not F2-linear, but it is a CuTe layout).

    Padding: after every ``interval`` elements, ``padding`` more (summed over the pairs), so
    offset ``o`` sits at ``o + sum(o // interval * padding)``: bit ``b`` of ``o`` moves the
    address by ``2**b + sum(2**b // interval * padding for interval <= 2**b)``.

    Pre:  a ``PaddedSharedLayout`` spec (text or dict): intervals distinct powers of two,
          paddings powers of two, ``offset_bases`` of the shape's rank within it.
    Post: ``linear`` has inputs ``offset, block`` and outputs ``dim0, ...`` of ``shape``;
          ``padding`` is increasing (distinct offsets, distinct addresses).

    >>> p = padded_shared("PaddedSharedLayout(interval_padding_pairs=[[2, 1]], "
    ...                   "offset_bases=[[0, 1], [1, 0]], cga_layout=[], shape=[2, 2])")
    >>> p.linear.bases["offset"], str(p.padding)
    ([[0, 1], [1, 0]], '(2,2):(1,3)')
    """
    s = gluon_spec(spec)
    if s["kind"] != "PaddedSharedLayout":
        raise CutepyError(f"padded_shared: spec is a {s['kind']}, not a PaddedSharedLayout")
    shape = _ints(s, "shape")
    rank = len(shape)
    pairs = s["interval_padding_pairs"]
    good = isinstance(pairs, (list, tuple)) and pairs and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and all(_pow2(x) for x in p) for p in pairs)
    if not good:
        raise CutepyError(f"padded_shared: interval_padding_pairs = {pairs!r}: expected [[interval, "
                          "padding], ...] "
                          "of powers of two")
    intervals = [p[0] for p in pairs]
    if len(set(intervals)) != len(intervals):
        raise CutepyError(f"padded_shared: interval_padding_pairs = {pairs!r}: intervals must be distinct")
    offs = _bases_field(s, "offset_bases", rank, shape)
    blocks = _cga_layout(s, rank).bases["block"]
    linear = LinearLayout({"offset": offs, "block": blocks}, list(zip(_names(rank), shape)))
    strides = [(1 << b) + sum((1 << b) // i * p for i, p in pairs if i <= 1 << b) for b in range(len(offs))]
    padding = Layout(tuple([2] * len(offs)), tuple(strides)) if len(offs) > 1 else (
        Layout(2, strides[0]) if offs else Layout(1, 0))
    return PaddedShared(linear, padding)


_CONVERT = {
    "BlockedLayout": _blocked,
    "NVMMADistributedLayout": _nvmma,
    "DotOperandLayout": _dot,
    "SliceLayout": _slice,
    "SwizzledSharedLayout": _swizzled_shared,
    "NVMMASharedLayout": _nvmma_shared,
    "AMDMFMALayout": _mfma,
}
#: the kinds Triton 3.9 added (issue 34)
_CONVERT.update({
    "TensorMemoryLayout": _tensor_memory,
    "TensorMemoryScalesLayout": _tensor_memory_scales,
    "AMDWMMALayout": _wmma,
    "DistributedLinearLayout": _distributed_linear,
    "SharedLinearLayout": _shared_linear,
    "PartitionedSharedLayout": _partitioned_shared,
    "PaddedSharedLayout": _no_linear_layout,
    "CoalescedLayout": _no_linear_layout,
    "AutoLayout": _no_linear_layout,
})
#: input dims of the kinds whose inputs are neither a distributed nor a plain shared layout's
IN_DIMS = {
    "TensorMemoryLayout": ("row", "col"),
    "TensorMemoryScalesLayout": ("row", "col"),
    "PartitionedSharedLayout": ("offset", "block", "partition"),
}


def _spec_rank(spec: dict) -> int | None:
    if spec["kind"] == "SliceLayout":
        r = _spec_rank(spec["parent"])
        return None if r is None else r - 1
    if spec["kind"] == "DotOperandLayout":
        return _spec_rank(spec["parent"])
    if spec["kind"] == "NVMMASharedLayout":
        rank = spec["rank"]
        if type(rank) is not int or rank < 1:
            raise CutepyError(f"from_gluon: NVMMASharedLayout's rank must be a positive int, not {rank!r}")
        return rank
    for f in ("order", "warps_per_cta"):
        if f in spec and isinstance(spec[f], (list, tuple)):
            return len(spec[f])
    return None


def _convert(spec: dict, shape: Sequence[int]) -> LinearLayout:
    r = _spec_rank(spec)
    if r is not None and r != len(shape):
        raise CutepyError(
            f"from_gluon: {spec['kind']} has rank {r} but the shape {list(shape)} has rank {len(shape)}"
        )
    return _CONVERT[spec["kind"]](spec, shape)


def from_gluon(spec: str | Mapping[str, Any], shape: Sequence[int]) -> LinearLayout:
    """The LinearLayout Triton builds for a Gluon layout on a tensor of ``shape``.

    Pre: ``spec`` is Gluon's constructor text (as Gluon prints it) or a dict with ``"kind"``
    and the fields (defaults may be omitted; ``"parent"`` a nested spec); ``shape`` a
    sequence of powers of two of the layout's rank.
    Post: inputs ``register, lane, warp, block`` (distributed) or ``offset, block`` (shared),
    outputs ``dim0, dim1, ...`` of ``shape``'s sizes; equal to Triton's
    ``to_linear_layout``. A spec Triton rejects raises ``CutepyError`` saying why.

    >>> L = from_gluon({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 2,
    ...                 "order": [1, 0]}, [2, 2])
    >>> L.bases["offset"], L.in_dims
    ([[0, 1], [1, 1]], {'offset': 4, 'block': 1})
    """
    s = gluon_spec(spec)
    given = shape
    try:
        if isinstance(shape, (str, bytes, Mapping)):
            raise TypeError
        shape = [as_int(x) for x in shape]
    except TypeError:
        shape = []
    if not shape:
        raise CutepyError(f"from_gluon: shape must be a non-empty sequence of ints, got {short_repr(given)}")
    for x in shape:
        if not _pow2(x):
            raise CutepyError(f"from_gluon: shape {short_repr(shape)}: every size must be a power of two "
                              "(Triton's rule)")
    if sum(x.bit_length() - 1 for x in shape) > MAX_LOG2_ELEMENTS:
        raise CutepyError(f"from_gluon: shape {shape} has more than 2**{MAX_LOG2_ELEMENTS} elements")
    L = _convert(s, shape)
    dims = IN_DIMS.get(s["kind"]) or (SHARED_DIMS if "Shared" in s["kind"] else DISTRIBUTED_DIMS)
    if "offset" in dims and not L.bases.get("offset"):
        raise CutepyError(
            f"from_gluon: {s['kind']} on {shape} has no offset bit (one element per block); Gluon's "
            "SharedLinearLayout needs at least one offset basis, so Triton rejects it"
        )
    return with_in_dims(L, dims)
