"""TMA copies (Hopper and Blackwell): the copy atom, its ``cuTensorMapEncodeTiled`` descriptor
and the CTA-collective TiledCopy, ported from C++ CuTe's ``cute/atom/copy_traits_sm90_tma.hpp``
(CUTLASS 4.7): ``make_tma_copy``, ``make_tma_atom``, ``tma_partition`` and
``create_tma_multicast_mask``.

The smem layout's inverse is traced through the CTA tile into gmem modes to find the largest
box TMA can move in one instruction (``gbasis``: box mode -> gmem mode); the descriptor is
what C++ hands the driver. Every configuration C++ refuses (a static assert, a run-time
assert in the descriptor's construction) and every descriptor the driver's documented rules
(``cuda.h``) reject raise a :class:`~cutepy.CutepyError` naming the rule and the numbers.

>>> from cutepy.kernels.atoms import gmma_smem_layout
>>> from cutepy.kernels.pointer import gmem_ptr
>>> from cutepy.kernels.tensor import make_tensor
>>> from cutepy.algebra.products import tile_to_shape
>>> from cutepy.core.layout import Layout
>>> g = make_tensor(gmem_ptr("bfloat16_t", 0x10000), Layout((1024, 256), (256, 1)))
>>> s = tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64))
>>> tma = make_tma_copy("SM90_TMA_LOAD", g, s)
>>> d = tma.descriptor
>>> d.data_type, d.global_dim, d.global_strides, d.box_dim, d.swizzle
('BFLOAT16', (256, 1024), (512,), (64, 128), '128B')
>>> tma.gbasis, tma.tiler_mn, tma.layout_tv_tiled
((64,128):(1@1,1@0), (128, 64), (1,(((64,128),1))):(0,(((128,1),0))))
>>> tma.get_tma_tensor((1024, 256))
ArithTuple(0,0) o (1024,256):(1@1,1@0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any

from ..algebra.casting import downcast, upcast
from ..algebra.coalesce import coalesce
from ..algebra.composition import composition
from ..algebra.divides import logical_divide, zipped_divide
from ..algebra.inverse import right_inverse
from ..algebra.products import tile_to_shape
from ..algebra.swizzle import Swizzle, composed_parts, pointer_flag
from ..core import inttuple as it
from ..core.basis import ArithTuple, ScaledBasis, basis_like
from ..core.dynamic import DynamicInt
from ..core.errors import CutepyError
from ..core.layout import Layout, make_identity_layout, size, slice_and_offset
from .atoms.copy import CopyAtom
from .pointer import Pointer, _canonical, as_pointer_flag_layout, element_bits
from .tensor import Tensor
from .tiled.copy import TiledCopy, make_tiled_copy_impl
from .tiled.zip import zip_layout

#: TMA copy operations: name -> (threads of the atom (CTAs of the pair), direction)
TMA_OPS: dict[str, tuple[int, str]] = {
    "SM90_TMA_LOAD": (1, "load"),
    "SM90_TMA_LOAD_MULTICAST": (1, "load"),
    "SM90_TMA_STORE": (1, "store"),
    "SM100_TMA_2SM_LOAD": (2, "load"),
    "SM100_TMA_2SM_LOAD_MULTICAST": (2, "load"),
}

#: C++ ``TMA::to_CUtensorMapDataType<T>``: element type -> ``CU_TENSOR_MAP_DATA_TYPE_*`` suffix
TMA_DATA_TYPE: dict[str, str] = {
    "int8_t": "UINT8", "uint8_t": "UINT8", "float_e4m3_t": "UINT8", "float_e5m2_t": "UINT8",
    "float_ue8m0_t": "UINT8", "uint16_t": "UINT16", "uint32_t": "UINT32", "uint64_t": "UINT64",
    "int32_t": "INT32", "int64_t": "INT64", "half_t": "FLOAT16", "float": "FLOAT32",
    "double": "FLOAT64", "bfloat16_t": "BFLOAT16", "tfloat32_t": "TFLOAT32",
}

#: ``CU_TENSOR_MAP_SWIZZLE_*`` suffix -> the span in bytes the inner box dimension must fit
SWIZZLE_SPAN = {"NONE": None, "32B": 32, "64B": 64, "128B": 128, "128B_ATOM_32B": 128,
                "128B_ATOM_64B": 128}

MAX_BOX = 256
MAX_RANK = 5


@dataclass(frozen=True)
class TmaDescriptor:
    """The arguments C++ passes to ``cuTensorMapEncodeTiled``, TMA mode 0 first.

    ``global_strides`` are in bytes, ``rank - 1`` of them (mode 0's is one element);
    each enum is the suffix of its ``CU_TENSOR_MAP_*`` name.
    """

    data_type: str
    rank: int
    global_address: int
    global_dim: tuple
    global_strides: tuple
    box_dim: tuple
    element_strides: tuple
    interleave: str = "NONE"
    swizzle: str = "NONE"
    l2_promotion: str = "L2_128B"
    oob_fill: str = "NONE"

    def __str__(self) -> str:
        return (
            f"format         {self.data_type}\ndim            {self.rank}\n"
            f"gmem_address   0x{self.global_address:x}\nglobalDim      {self.global_dim}\n"
            f"globalStrides  {self.global_strides}\nboxDim         {self.box_dim}\n"
            f"elementStrides {self.element_strides}\ninterleave     {self.interleave}\n"
            f"swizzle        {self.swizzle}\nl2Promotion    {self.l2_promotion}\n"
            f"oobFill        {self.oob_fill}"
        )


@dataclass(frozen=True)
class TmaAtom(CopyAtom):
    """C++ ``Copy_Atom<Copy_Traits<SM90_TMA_*, NumBitsPerTMA, AuxTmaParams>, T>``: one TMA
    instruction moving the whole box, with its descriptor, ``gbasis`` (C++'s ``TmaGmemBasis``:
    box shape -> gmem mode), ``g_stride`` (the strides of the TMA coordinate tensor) and
    ``tma_swizzle`` (the smem swizzle on byte addresses)."""

    descriptor: TmaDescriptor | None = None
    gbasis: Layout | None = None
    g_stride: Any = None
    tma_swizzle: Swizzle | None = None
    num_multicast: int = 1

    def get_tma_tensor(self, shape: Any) -> Tensor:
        """C++ ``get_tma_tensor(shape)``: the coordinate tensor whose values are TMA coordinates.

        Pre:  ``shape`` is congruent with the gmem tensor's shape (else ``CutepyError``).
        Post: ``result(c) == sum(c_i * g_stride_i)``, a tuple of ``descriptor.rank`` coordinates.
        """
        if not it.congruent(shape, self.g_stride):
            raise CutepyError(f"get_tma_tensor: the shape {shape} is not congruent with the gmem "
                              f"tensor's modes (g_stride {_fmt(self.g_stride)})")
        # C++ make_coord_tensor: the origin has the strides' coprofile (one entry per TMA mode used)
        modes = [b.mode[0] for b in it.flatten_tuple(self.g_stride) if isinstance(b, ScaledBasis) and b.mode]
        rank = max(modes) + 1 if modes else 1
        return Tensor(None, Layout(shape, self.g_stride), ArithTuple((0,) * rank))

    def __str__(self) -> str:  # as C++'s print(Copy_Atom)
        return (
            f"Copy_Atom\n  ThrID:        {self.thr_id}\n"
            f"  ValLayoutSrc: {self.layout_src_tv}\n  ValLayoutDst: {self.layout_dst_tv}\n"
            f"  ValLayoutRef: {self.layout_ref_tv}\n  ValueType:    {self.element_bits}b"
        )

    def __repr__(self) -> str:
        return f"TmaAtom({self.name}, box {self.gbasis})"


def compose_cxx(A: Layout, B: Any) -> Layout:
    """C++'s ``composition(A, B)`` for a multi-mode ``B``: each leaf mode of ``B`` composed with
    ``A`` on its own (``transform_layout``), without cutepy's check that ``B``'s modes add up
    without carries. TMA's multicast split relies on it: C++ composes the CTA and value modes
    separately even where their sum passes one of ``A``'s modes.

    >>> compose_cxx(Layout((128, 64), (1, 128)), Layout((2, 128), (64, 1)))
    (2,128):(64,1)
    """
    if isinstance(B, tuple):
        if len(B) > (len(A.shape) if isinstance(A.shape, tuple) else 1):
            raise CutepyError(f"composition: tiler {B} has more modes than {A}")
        shape, stride = _modes(A)
        ss, dd = [], []
        for i, t in enumerate(B):
            m = Layout(shape[i], stride[i]) if t is None else compose_cxx(Layout(shape[i], stride[i]), t)
            ss.append(m.shape)
            dd.append(m.stride)
        return Layout(tuple(ss) + shape[len(B):], tuple(dd) + stride[len(B):])
    if not isinstance(B, Layout) or not isinstance(B.shape, tuple):
        return composition(A, B)
    parts = [compose_cxx(A, Layout(s, d)) for s, d in zip(B.shape, B.stride)]
    return Layout(tuple(p.shape for p in parts), tuple(p.stride for p in parts))


@dataclass(frozen=True)
class TmaTiledCopy(TiledCopy):
    """The CTA-collective TiledCopy of ``make_tma_copy``: threads are the CTAs of the multicast
    (one for a plain load or store), values the smem tile's elements; ``smem_layout`` is the
    smem tile's layout without its swizzle (C++'s ``get_nonswizzle_portion``)."""

    smem_layout: Any = None

    def tile2thrfrg(self, L: Layout, ref2trg: Layout) -> Layout:
        """As :meth:`TiledCopy.tile2thrfrg`, composing mode by mode as C++ does."""
        atom_thr = size(self.copy_atom.layout_ref_tv[0])
        atom_val = size(self.copy_atom.layout_ref_tv[1])
        atom_layout_tv = zipped_divide(self.layout_tv_tiled, (Layout(atom_thr), Layout(atom_val)))
        trg_layout_tv = compose_cxx(atom_layout_tv, (ref2trg, None))
        thrval2mn = coalesce(zip_layout(trg_layout_tv), (1, (1, 1)))
        tv = compose_cxx(L, (thrval2mn, None))
        return slice_and_offset(((None, None), None), tv)[0]

    @property
    def descriptor(self) -> TmaDescriptor:
        return self.copy_atom.descriptor

    @property
    def gbasis(self) -> Layout:
        return self.copy_atom.gbasis

    @property
    def g_stride(self) -> Any:
        return self.copy_atom.g_stride

    @property
    def tma_swizzle(self) -> Swizzle:
        return self.copy_atom.tma_swizzle

    def get_tma_tensor(self, shape: Any) -> Tensor:
        """See :meth:`TmaAtom.get_tma_tensor`."""
        return self.copy_atom.get_tma_tensor(shape)


def _fmt(x: Any) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_fmt(v) for v in x) + ")"
    return str(x)


def _refuse(rule: str, detail: str) -> CutepyError:
    return CutepyError(f"TMA: {rule}: {detail}")


def _get_path(t: Any, path: tuple) -> Any:
    for i in path:
        t = t[i]
    return t


def _tma_type(dtype: str, internal_type: str | None) -> tuple[str, int]:
    name = internal_type if internal_type is not None else dtype
    bits = element_bits(name)
    name = _canonical(name)
    if name not in TMA_DATA_TYPE:
        raise _refuse(
            "unknown TMA format (C++ to_CUtensorMapDataType: static_assert \"Unknown TMA Format!\")",
            f"{name} has no CU_TENSOR_MAP_DATA_TYPE; known are {', '.join(TMA_DATA_TYPE)} "
            "(pass internal_type to move it as another type of its width or wider)",
        )
    return name, bits


def _recast(L: Layout, old_bits: int, new_bits: int) -> Layout:
    """C++ ``recast_layout<Old, New>``: upcast by new/old, downcast by old/new, in lowest terms."""
    g = gcd(old_bits, new_bits)
    num, den = new_bits // g, old_bits // g
    try:
        if num != 1:
            L = upcast(L, num)
        if den != 1:
            L = downcast(L, den)
    except CutepyError as e:
        raise _refuse("the gmem tensor does not recast to the TMA type", str(e)) from None
    return L


def _coalesce_256(L: Layout) -> Layout:
    """C++ ``detail::coalesce_256``: merge flat modes while the merged extent stays <= 256."""
    fs, fd = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    ns, nd = [fs[0]], [fd[0]]
    for s, d in zip(fs[1:], fd[1:]):
        if s == 1:
            continue
        if len(ns) == 1 and ns[0] == 1:
            ns, nd = [s], [d]
        elif ns[-1] * nd[-1] == d and s * ns[-1] <= MAX_BOX:
            ns[-1] *= s
        else:
            ns.append(s)
            nd.append(d)
    if len(ns) == 1 and ns[0] == 1:
        return Layout(1, 0)
    return Layout(tuple(ns) if len(ns) > 1 else ns[0], tuple(nd) if len(nd) > 1 else nd[0])


def _modes(L: Layout) -> tuple[tuple, tuple]:
    """Top-level (shape, stride) pairs, a rank-1 layout wrapped."""
    if isinstance(L.shape, tuple):
        return L.shape, L.stride
    return (L.shape,), (L.stride,)


def _basis_value(e: Any) -> Any:
    return e.value if isinstance(e, ScaledBasis) else e


def _construct_gbasis(gshape: Any, glayout_t: Layout, glayout: Layout, slayout: Layout,
                      cta_v_map: Layout, old_bits: int, new_bits: int) -> Layout:
    """C++ ``detail::construct_tma_gbasis``: TMA box shape -> gmem mode (basis strides)."""
    if size(slayout) != size(cta_v_map):
        raise _refuse(
            "TMA requires CTA_Tile and SLayout top-level size equivalence",
            f"the smem layout {slayout} has {size(slayout)} elements, the CTA tile {cta_v_map.shape} "
            f"has {size(cta_v_map)}",
        )
    inv_smem = right_inverse(slayout)
    full = coalesce(composition(cta_v_map, inv_smem))
    fshape, fstride = _modes(full)
    smem_rank = 0
    for d in fstride:
        if _basis_value(d) != 1:
            break
        smem_rank += 1
    if smem_rank == 0 or not isinstance(fstride[0], ScaledBasis):
        raise _refuse(
            "could not find a common tile-gmem vectorization (C++ static_assert: does the tile "
            "select out major GMEM modes?)",
            f"smem element 1 is not the next element of any gmem mode (smem index -> gmem mode: {full})",
        )
    sidx2gmode = Layout(fshape[:smem_rank], fstride[:smem_rank])
    tile_gstride = _recast(composition(glayout, sidx2gmode), old_bits, new_bits)
    tma_gstride = _coalesce_256(tile_gstride)
    gbasis = make_identity_layout(gshape)
    tile_gbasis_tmp = composition(gbasis, sidx2gmode)
    tile_gbasis = Layout(tile_gstride.shape, tile_gbasis_tmp.stride)
    gs = tma_gstride.shape if isinstance(tma_gstride.shape, tuple) else (tma_gstride.shape,)
    tile = composition(tile_gbasis, Layout(gs))
    tshape, tstride = _modes(tile)
    present = [b for b in it.flatten_tuple(tile.stride) if isinstance(b, ScaledBasis)]
    rest = []
    flat = (glayout_t.shape, glayout_t.stride, gbasis.stride)
    for s, d, e in zip(*(it.flatten_tuple(x) for x in flat)):
        if s == 1 or d == 0:
            continue
        if any(b == e for b in present):
            continue
        rest.append(e)
    shapes, strides = tshape + (1,) * len(rest), tstride + tuple(rest)
    r = len(shapes)
    if r > MAX_RANK:  # C++ group<4,-1>: the trailing modes fold into the fifth
        shapes = shapes[:4] + (shapes[4:],)
        strides = strides[:4] + (strides[4:],)
    elif r == MAX_RANK:
        shapes = shapes[:4] + ((shapes[4],),)
        strides = strides[:4] + ((strides[4],),)
    return Layout(shapes, strides)


def _swizzle_enum(sw: Swizzle) -> str:
    """C++ ``get_tma_swizzle_bits`` / ``_base`` and ``to_CUtensorMapSwizzle``, with their asserts."""
    b, m, s = sw.bits, sw.base, sw.shift
    rule = "unsupported smem swizzle (C++ get_tma_swizzle_bits/base static_assert)"
    if m == 4:
        if not 0 <= b <= 3:
            raise _refuse(rule, f"{sw} on bytes: B must be 0..3 for 16-byte units (M = 4)")
        if s != 3:
            raise _refuse(rule, f"{sw} on bytes: S must be 3 for 16-byte units (M = 4)")
        return ("NONE", "32B", "64B", "128B")[b]
    if m in (5, 6):
        if b != 2:
            raise _refuse(rule, f"{sw} on bytes: B must be 2 for {1 << m}-byte units (M = {m})")
        if m == 5 and s != 2:
            raise _refuse(rule, f"{sw} on bytes: S must be 2 for 32-byte units (M = 5)")
        return "128B_ATOM_32B" if m == 5 else "128B_ATOM_64B"
    raise _refuse(rule, f"{sw} on bytes: TMA swizzles 16-, 32- or 64-byte units (M = 4, 5 or 6), not M = {m}")


def _smem_parts(slayout: Any, dtype: str) -> tuple[Swizzle, Layout]:
    """The byte swizzle and the plain layout of a smem layout in any of cutepy's forms."""
    if isinstance(slayout, Layout):
        return Swizzle(0, 4, 3), slayout
    if (parts := composed_parts(slayout)) is not None and isinstance(parts[0], Swizzle):
        flagged = as_pointer_flag_layout(slayout, dtype)
        bits = element_bits(dtype)
        if pointer_flag(flagged).bits != bits:
            raise _refuse(
                "the smem layout's element width is not the gmem tensor's "
                "(C++: Expected a B-bit pointer type)",
                f"{slayout} is for {pointer_flag(flagged).bits}-bit elements, the gmem tensor holds "
                f"{bits}-bit {dtype}",
            )
        outer, _, inner = composed_parts(flagged)
        if not isinstance(inner, Layout):
            raise _refuse("the smem layout must be Sw o offset o L with a plain L", str(slayout))
        return outer, inner
    raise CutepyError(f"TMA: the smem layout must be a Layout or a swizzled layout, not {slayout!r}")


def _gtensor_parts(gtensor: Any) -> tuple[Pointer, Layout]:
    if not isinstance(gtensor, Tensor) or not isinstance(gtensor.engine, Pointer):
        raise CutepyError(
            "TMA: the gmem tensor must be make_tensor(gmem_ptr(T, address), layout), not " + repr(gtensor)
        )
    ptr = gtensor.engine
    if ptr.space != "gmem":
        raise CutepyError(f"TMA: the gmem tensor's pointer {ptr} is not a global-memory pointer")
    if not isinstance(gtensor.layout, Layout):
        raise CutepyError(f"TMA: the gmem tensor's layout must be a plain Layout, not {gtensor.layout}")
    for x in it.flatten_tuple((gtensor.layout.shape, gtensor.layout.stride)):
        if not isinstance(x, int) or type(x) is bool:  # static or run-time (DynamicInt) integers
            raise CutepyError(f"TMA: the gmem layout {gtensor.layout} must have integer shapes and strides")
    return ptr + gtensor.offset, gtensor.layout


def _descriptor(ptr: Pointer, glayout_t: Layout, gbasis: Layout, sw: Swizzle, num_multicast: int,
                tma_name: str, tma_bits: int) -> tuple[TmaDescriptor, list]:
    """C++ ``detail::make_tma_copy_desc``: the descriptor, its asserts and the driver's rules."""
    rank = len(gbasis.shape)
    gshape, gstride = glayout_t.shape, glayout_t.stride
    pshape, pstride = [1] * MAX_RANK, [0] * MAX_RANK
    for i, ds in enumerate(gbasis.stride):
        parts = ds if isinstance(ds, tuple) else (ds,)
        if not all(isinstance(e, ScaledBasis) for e in parts):
            raise _refuse(
                "a TMA box mode reaches no gmem mode (C++'s fill_tma_gmem_shape_stride does not compile)",
                f"box mode {i} of the TMA box {gbasis} has stride {ds}: the tile is a single {tma_name} "
                "along smem's contiguous direction",
            )
        if len(parts) == 1:
            e = parts[0]
            pshape[i] = _get_path(gshape, e.mode)
            pstride[i] = _get_path(gstride, e.mode)
            continue
        for e in parts:
            sj, dj = _get_path(gshape, e.mode), _get_path(gstride, e.mode)
            old = pstride[i]
            pstride[i] = gcd(pstride[i], dj)
            if pstride[i] != 0:
                pshape[i] = (pshape[i] - 1) * (old // pstride[i]) + (sj - 1) * (dj // pstride[i]) + 1
            else:
                pshape[i] = sj
    if ptr.address & 0b1111:
        raise _refuse("the gmem address must be 16-byte aligned", f"0x{ptr.address:x} is {ptr.address % 16} "
                      "bytes past a multiple of 16")
    for i in range(MAX_RANK):
        if not 1 <= pshape[i] <= 1 << 32:
            raise _refuse("a global dimension must be 1..2^32", f"globalDim[{i}] = {pshape[i]}")
    for i in range(MAX_RANK):
        if pstride[i] < 0:
            raise _refuse("gmem strides must be non-negative", f"TMA mode {i} has stride {pstride[i]}")
    if pstride[0] != 1:
        raise _refuse(
            "the majorness of smem does not match the majorness of gmem",
            f"TMA mode 0 (smem's contiguous direction, box {size(gbasis[0])}) has gmem stride {pstride[0]} "
            f"{tma_name} elements, not 1",
        )
    bstride = [(d * tma_bits) // 8 for d in pstride]
    for i in range(1, MAX_RANK):
        if bstride[i] >= 1 << 40:
            raise _refuse("a global stride must be under 2^40 bytes",
                          f"globalStrides[{i - 1}] = {bstride[i]}")
        if bstride[i] & 0b1111:
            raise _refuse("a global stride must be a multiple of 16 bytes",
                          f"globalStrides[{i - 1}] (TMA mode {i}) = {bstride[i]} bytes")
    box = [1] * MAX_RANK
    for i in range(rank):
        box[i] = size(gbasis[i])
    i, mc = rank - 1, num_multicast
    while mc > 1:
        if i < 0:
            raise _refuse("the multicast count must divide the box",
                          f"{num_multicast} CTAs share a box of {box[:rank]} elements")
        if box[i] % mc != 0 and mc % box[i] != 0:
            raise _refuse("the multicast count must divide the box (C++ assert in make_tma_copy_desc)",
                          f"box dimension {i} = {box[i]} and the {mc} remaining CTAs do not divide "
                          "each other")
        new_mc = -(-mc // box[i])
        box[i] = -(-box[i] // mc)
        mc = new_mc
        i -= 1
    for i in range(MAX_RANK):
        if not 1 <= box[i] <= MAX_BOX:
            raise _refuse("a box dimension must be 1..256",
                          f"boxDim[{i}] = {box[i]} (TMA mode {i}: {gbasis[i] if i < rank else 1})")
    swizzle = _swizzle_enum(sw)
    dtype = TMA_DATA_TYPE[tma_name]
    # the driver's documented rules (cuda.h, cuTensorMapEncodeTiled): C++ would fail at run time
    inner = box[0] * tma_bits // 8
    if (box[0] * tma_bits) % 128:
        raise _refuse(
            "the driver requires the inner box dimension in bytes to be a multiple of 16 "
            "(cuTensorMapEncodeTiled, interleave NONE)",
            f"boxDim[0] = {box[0]} {tma_name} = {box[0] * tma_bits / 8:g} bytes",
        )
    span = SWIZZLE_SPAN[swizzle]
    if span is not None and inner > span:
        raise _refuse(
            f"the driver requires the inner box dimension to fit the swizzle span (SWIZZLE_{swizzle}: "
            f"at most {span} bytes)",
            f"boxDim[0] = {box[0]} {tma_name} = {inner} bytes",
        )
    desc = TmaDescriptor(
        data_type=dtype, rank=rank, global_address=ptr.address, global_dim=tuple(pshape[:rank]),
        global_strides=tuple(bstride[1:rank]), box_dim=tuple(box[:rank]),
        element_strides=(1,) * rank, swizzle=swizzle,
    )
    return desc, bstride


def _g_stride(gshape: Any, glayout: Layout, glayout_t: Layout, gbasis: Layout, bstride: list,
              old_bits: int, tma_bits: int) -> Any:
    """C++'s ``gmem_tma_basis_stride``: each gmem mode's step in TMA coordinates."""
    tstrides = gbasis.stride

    def leaf(e: Any) -> Any:
        if not isinstance(e, ScaledBasis):  # a rank-1 gmem tensor: its one mode
            e = ScaledBasis(1, ())
        si, di = _get_path(glayout_t.shape, e.mode), _get_path(glayout_t.stride, e.mode)
        if si == 1 or di == 0:
            return 0
        for j, dj in enumerate(tstrides):  # noqa: B007  (j and dj are read after the break)
            parts = dj if isinstance(dj, tuple) else (dj,)
            if any(p == e for p in parts):
                break
        else:
            return 0
        if j == 0:  # C++ trait_ratio(old, tma) * stride: a fraction where the TMA type is wider
            scale = Fraction(old_bits * _get_path(glayout.stride, e.mode), tma_bits)
            return ScaledBasis(int(scale) if scale.denominator == 1 else scale, (0,))
        if len(dj if isinstance(dj, tuple) else (dj,)) == 1:
            return ScaledBasis(1, (j,))
        scale = -(-int(di * tma_bits // max(bstride[j], 16)) // 8)
        return ScaledBasis(DynamicInt(scale), (j,))  # C++: an int32_t, a run-time scale

    return it.transform_leaf(leaf, basis_like(gshape))


def _tma_atom(op: str, gtensor: Any, slayout: Any, num_multicast: int, cta_v_map: Layout,
              internal_type: str | None) -> tuple[TmaAtom, Layout]:
    """C++ ``detail::make_tma_copy_atom``; also returns the plain smem layout."""
    if not isinstance(op, str) or op not in TMA_OPS:
        raise CutepyError(f"TMA: unknown operation {op!r}; one of {', '.join(TMA_OPS)}")
    ptr, glayout = _gtensor_parts(gtensor)
    _check_overhang(glayout, cta_v_map)
    sw, smem = _smem_parts(slayout, ptr.dtype)
    tma_name, tma_bits = _tma_type(ptr.dtype, internal_type)
    old_bits = ptr.bits
    glayout_t = _recast(glayout, old_bits, tma_bits)
    gbasis = _construct_gbasis(glayout.shape, glayout_t, glayout, smem, cta_v_map, old_bits, tma_bits)
    nbits = size(gbasis) * tma_bits
    if nbits >= 1 << 31:
        raise _refuse("the bits of one TMA must fit C++'s int NumBitsPerTMA "
                      "(overflow in a constant expression)",
                      f"a box of {size(gbasis)} {tma_name} is {nbits} bits")
    desc, bstride = _descriptor(ptr, glayout_t, gbasis, sw, num_multicast, tma_name, tma_bits)
    g_stride = _g_stride(glayout.shape, glayout, glayout_t, gbasis, bstride, old_bits, tma_bits)
    nthr, direction = TMA_OPS[op]
    if nthr == 1:
        thr, vals = Layout(1, 0), Layout((1, nbits), (0, 1))
    else:
        thr, vals = Layout(nthr, 1), Layout((nthr, nbits), (nbits, 1))
    if nbits % old_bits:
        raise _refuse("the box is not a whole number of elements",
                      f"{nbits} bits of {old_bits}-bit {ptr.dtype}")
    atom = TmaAtom(
        name=op, element_bits=old_bits, thr_id=thr, layout_src_tv_bits=vals, layout_dst_tv_bits=vals,
        layout_ref_tv_bits=vals, op="st" if direction == "load" else "ld", cpp_type=op,
        descriptor=desc, gbasis=gbasis, g_stride=g_stride, tma_swizzle=sw, num_multicast=num_multicast,
    )
    return atom, smem


def _cta_v_map(gtensor: Any, cta_tiler: Any) -> Layout:
    _, glayout = _gtensor_parts(gtensor)
    try:
        return composition(make_identity_layout(glayout.shape), cta_tiler)
    except CutepyError as e:
        raise CutepyError(
            f"TMA: the CTA tile {cta_tiler} does not tile the gmem tensor {glayout}: {e}"
        ) from None


def _check_overhang(glayout: Layout, cta_v_map: Layout) -> None:
    """Refuse a CTA tile that overhangs a gmem mode of extent 1 (C++ builds it silently).

    C++ drops an extent-1 gmem mode from the descriptor (its TMA coordinate stride is 0), so
    the tile's indices 1, 2, ... along that mode reach the same gmem elements as index 0:
    a load brings real data where the tile is out of bounds instead of zeros, a store writes
    the out-of-bounds part of the tile over in-bounds elements. Measured on an H200
    (tests/data/tma_hardware.json); TMA clips every other overhang correctly. ``cta_v_map``
    (tile coordinate -> gmem coordinate) says how far the tile reaches along each mode, for
    every way of building a TMA atom.
    """
    shape = glayout.shape if isinstance(glayout.shape, tuple) else (glayout.shape,)
    reach = [0] * len(shape)
    for s, d in zip(it.flatten_tuple(cta_v_map.shape), it.flatten_tuple(cta_v_map.stride)):
        if isinstance(d, ScaledBasis) and d.mode and d.mode[0] < len(shape):
            reach[d.mode[0]] += (s - 1) * d.value
    for i, (s, r) in enumerate(zip(shape, reach)):
        if it.product(s) == 1 and r >= 1:
            raise _refuse(
                "the CTA tile overhangs a gmem mode of extent 1, which TMA cannot clip",
                f"gmem mode {i} has extent 1 and the tile {r + 1}; C++ drops that mode from the descriptor, "
                "so the tile's indices 1.. along it would load (or store over) the elements at index 0 "
                "instead of being out of bounds",
            )


def _default_tiler(slayout: Any) -> Any:
    """The smem layout's shape as a tiler (and the check, at the public entry points, that it is a
    layout)."""
    if composed_parts(slayout) is None and not isinstance(slayout, Layout):
        raise CutepyError(f"TMA: the smem layout must be a layout or a swizzled layout, not "
                          f"{it.short_repr(slayout)}")
    s = slayout.shape
    return it.product_each_tuple(s) if isinstance(s, tuple) else s


def _cluster(cluster_size: Any) -> Layout:
    if isinstance(cluster_size, Layout):
        return cluster_size
    if type(cluster_size) is not int and not isinstance(cluster_size, tuple):
        raise CutepyError(f"TMA: the cluster size must be an int, a shape or a layout, not {cluster_size!r}")
    L = Layout(cluster_size)
    if size(L) < 1 or size(L) > 16:
        raise _refuse("the multicast count must be 1..16 CTAs", f"cluster size {cluster_size}")
    return L


def make_tma_atom(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                  cluster_size: Any = 1, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom``: the TMA copy atom (one instruction, the whole box) and its descriptor.

    Pre:  as :func:`make_tma_copy`.
    Post: ``result.descriptor`` is what C++ passes to ``cuTensorMapEncodeTiled``; the atom moves
          ``size(result.gbasis)`` elements (``ValLayoutSrc`` ``(1, n)``, ``(2, n)`` for 2-SM ops).

    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> g = make_tensor(gmem_ptr("half_t", 0x1000), Layout((512, 64), (64, 1)))
    >>> a = make_tma_atom("SM90_TMA_LOAD", g, Layout((64, 64), (64, 1)), (64, 64))
    >>> a.descriptor.box_dim, a.get_tma_tensor((512, 64)).layout, a.layout_src_tv
    ((64, 64), (512,64):(1@1,1@0), (1,4096):(0,1))
    """
    default = _default_tiler(smem_layout)  # (checks the smem layout)
    tiler = default if cta_tile is None else cta_tile
    mc = size(_cluster(cluster_size))
    atom, _ = _tma_atom(op, gmem_tensor, smem_layout, mc, _cta_v_map(gmem_tensor, tiler), internal_type)
    return atom


def make_tma_copy(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                  cluster_size: Any = 1, internal_type: str | None = None) -> TmaTiledCopy:
    """C++ ``make_tma_copy(op, gtensor, slayout, cta_tile, cluster_size)``: the CTA-collective
    TiledCopy of a TMA load, multicast load or store, with its descriptor.

    ``gmem_tensor`` is ``make_tensor(gmem_ptr(T, address), layout)``; ``smem_layout`` a plain
    layout, a swizzled layout in C++'s pointer-flag form (``Sw o smem_ptr[b](unset) o L``, as
    ``tile_to_shape(gmma_smem_layout(...), ...)`` gives) or on element offsets (``Sw o 0 o L``,
    read as ``Sw<B,M+log2(b/8),S>`` on bytes); ``cta_tile`` defaults to the smem layout's
    shape, ``cluster_size`` (the multicast CTAs) to 1; ``internal_type`` moves the data as
    another C++ type (C++'s ``make_tma_copy<TmaInternalType>``): C++ recasts the gmem tensor to
    it, so the descriptor counts internal elements and, for a wider type, the TMA tensor's step
    along the contiguous mode is a fraction (``1/2@0`` for ``half_t`` moved as ``uint32_t``).

    Pre:  every rule C++ checks and the driver's documented rules (else ``CutepyError`` naming
          the rule and the numbers): the gmem tensor recasts to the internal type (C++'s
          "Divisibility condition"); the smem tile's size is the CTA tile's; smem element 1
          continues a gmem mode with stride 1 (same majorness); the element type has a TMA
          format; the swizzle is a TMA swizzle; the gmem address is 16-byte aligned; global
          dimensions 1..2^32; global strides multiples of 16 bytes under 2^40; box dimensions
          1..256 after the multicast split, which must divide the box; the inner box dimension
          a multiple of 16 bytes and at most the swizzle span; and, where C++ silently builds
          a TMA that moves the wrong elements, no tile longer than 1 along a gmem mode of
          extent 1 (TMA cannot clip a mode the descriptor drops).
    Post: ``result.descriptor`` is C++'s; ``result.tiler_mn`` the CTA tile;
          ``result.layout_tv_tiled`` maps (CTA of the multicast, value) to smem coordinates as C++.

    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> g = make_tensor(gmem_ptr("float", 0), Layout((1024, 256)))
    >>> make_tma_copy("SM90_TMA_LOAD_MULTICAST", g, Layout((64, 32)), cluster_size=2).descriptor.box_dim
    (64, 16)
    >>> make_tma_copy("SM90_TMA_LOAD", g, Layout((64, 32), (32, 1)))
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: TMA: the majorness of smem does not match the majorness of gmem: TMA mode 0 \
(smem's contiguous direction, box 32) has gmem stride 1024 float elements, not 1
    """
    default = _default_tiler(smem_layout)  # (checks the smem layout)
    tiler = default if cta_tile is None else cta_tile
    cta_t_map = _cluster(cluster_size)
    cta_v_map = _cta_v_map(gmem_tensor, tiler)
    nthr_cta = cta_t_map.cosize()
    atom, smem = _tma_atom(op, gmem_tensor, smem_layout, nthr_cta, cta_v_map, internal_type)
    elems = size(atom.layout_ref_tv_bits[1]) // atom.element_bits
    inv_smem = right_inverse(smem)
    layout_v = composition(inv_smem, Layout(elems))
    layout_V = tile_to_shape(Layout((layout_v.shape,), (layout_v.stride,)), size(cta_v_map))
    if elems % nthr_cta:
        raise _refuse("the multicast count must divide the elements of one TMA (C++ safe_div)",
                      f"{elems} elements over {nthr_cta} CTAs")
    layout_t = Layout(nthr_cta, elems // nthr_cta)
    layout_T = composition(inv_smem, composition(layout_t, cta_t_map))
    layout_tv = Layout((layout_T.shape, layout_V.shape), (layout_T.stride, layout_V.stride))
    v_shape = cta_v_map.shape
    cta_tiler = it.product_each_tuple(v_shape) if isinstance(v_shape, tuple) else v_shape
    tc = make_tiled_copy_impl(atom, layout_tv, cta_tiler)
    return TmaTiledCopy(tc.copy_atom, tc.layout_tv_tiled, tc.tiler_mn, smem_layout=smem)


def _tma_atom_sm100(which: str, op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                    cluster_layout_vmnk: Any, internal_type: str | None) -> TmaAtom:
    if not isinstance(mma_tiler, tuple) or len(mma_tiler) < 3:
        raise CutepyError(f"make_tma_atom_{which}_sm100: the MMA tiler is (TILE_M, TILE_N, TILE_K, ...), "
                          f"not {mma_tiler!r}")
    if not hasattr(mma, "thrfrg_A"):
        raise CutepyError(f"make_tma_atom_{which}_sm100 takes a TiledMMA (make_tiled_mma), not {mma!r}")
    cl = cluster_layout_vmnk if isinstance(cluster_layout_vmnk, Layout) else Layout(cluster_layout_vmnk)
    if not isinstance(cl.shape, tuple) or len(cl.shape) != 4:
        raise CutepyError(f"make_tma_atom_{which}_sm100: the cluster layout is (V, M, N, K), not {cl}")
    _, glayout = _gtensor_parts(gmem_tensor)
    # keep the MK (A) or NK (B) modes of the MNK tiler
    tiler = (mma_tiler[0],) + tuple(mma_tiler[2:]) if which == "A" else tuple(mma_tiler[1:])
    g_tile = composition(make_identity_layout(glayout.shape), tiler)
    frg = (mma.thrfrg_A if which == "A" else mma.thrfrg_B)(g_tile)[1]
    r = len(g_tile.shape) if isinstance(g_tile.shape, tuple) else 1
    cta_v_tile = slice_and_offset((None, (None,) * r), frg)[0]  # (MMA, MMA_M, MMA_K, ...)
    multicast = op in ("SM90_TMA_LOAD_MULTICAST", "SM100_TMA_2SM_LOAD_MULTICAST")
    # A is shared by the CTAs along N of the cluster, B by those along M
    num_multicast = size(cl[2 if which == "A" else 1]) if multicast else 1
    atom, _ = _tma_atom(op, gmem_tensor, smem_layout, num_multicast, cta_v_tile, internal_type)
    return atom


def make_tma_atom_A_sm100(op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                          cluster_layout_vmnk: Any, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom_A_sm100``: the TMA atom loading A ``(M, K, ...)`` into an smem layout
    ``(MMA, MMA_M, MMA_K, ...)`` partitioned as the TiledMMA's A; a multicast op multicasts to
    the CTAs along N of ``cluster_layout_vmnk``.

    Pre:  as :func:`make_tma_copy`; ``mma_tiler`` is ``(TILE_M, TILE_N, TILE_K, ...)``; ``mma`` a
          TiledMMA; ``cluster_layout_vmnk`` a rank-4 (V, M, N, K) layout (else ``CutepyError``).
    Post: the atom whose CTA values are ``layout<1>(mma.thrfrg_A(tile))`` over gmem modes, as C++.

    >>> from cutepy.algebra.divides import tiled_divide
    >>> from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> from cutepy.kernels.tiled import make_tiled_mma, partition_shape_A
    >>> mma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"))
    >>> sA = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_A(mma, (256, 64)))
    >>> A = make_tensor(gmem_ptr("half_t"), Layout((512, 256), (256, 1)))
    >>> cluster = tiled_divide(Layout((4, 4, 1)), (Layout(2),))
    >>> a = make_tma_atom_A_sm100("SM100_TMA_2SM_LOAD_MULTICAST", A, sA, (256, 256, 64), mma, cluster)
    >>> a.descriptor.box_dim, a.thr_id
    ((64, 32), 2:1)
    """
    return _tma_atom_sm100("A", op, gmem_tensor, smem_layout, mma_tiler, mma, cluster_layout_vmnk,
                           internal_type)


def make_tma_atom_B_sm100(op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                          cluster_layout_vmnk: Any, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom_B_sm100``: as :func:`make_tma_atom_A_sm100` for B ``(N, K, ...)``; a
    multicast op multicasts to the CTAs along M of the cluster.

    Pre:  as :func:`make_tma_atom_A_sm100`.
    Post: the atom whose CTA values are ``layout<1>(mma.thrfrg_B(tile))`` over gmem modes, as C++.

    >>> from cutepy.algebra.divides import tiled_divide
    >>> from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> from cutepy.kernels.tiled import make_tiled_mma, partition_shape_B
    >>> mma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"))
    >>> sB = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_B(mma, (256, 64)))
    >>> B = make_tensor(gmem_ptr("half_t"), Layout((1024, 256), (256, 1)))
    >>> cluster = tiled_divide(Layout((4, 4, 1)), (Layout(2),))
    >>> b = make_tma_atom_B_sm100("SM100_TMA_2SM_LOAD_MULTICAST", B, sB, (256, 256, 64), mma, cluster)
    >>> b.descriptor.box_dim
    (64, 64)
    """
    return _tma_atom_sm100("B", op, gmem_tensor, smem_layout, mma_tiler, mma, cluster_layout_vmnk,
                           internal_type)


def tma_partition(atom: Any, cta_coord: Any, cta_layout: Any, stensor: Tensor, gtensor: Tensor
                  ) -> tuple[Tensor, Tensor]:
    """C++ ``tma_partition(atom, cta_coord, cta_layout, stensor, gtensor)``: ``(gmem, smem)``
    partitions ``((TMA, TMA_Iter), Rest...)``, offset inside the TMA mode for this CTA of the
    multicast.

    Pre:  ``atom`` is a TMA atom (or a TMA TiledCopy); ``stensor`` and ``gtensor`` have the
          tile as mode 0 of the same size (C++'s static assert; else ``CutepyError``).
    Post: ``(g, s)`` with mode 0 ``(TMA, TMA_Iter)``: one instruction's values, then the
          instructions over the tile, each tensor's ``Rest`` modes unchanged.

    >>> from cutepy.kernels.pointer import gmem_ptr, smem_ptr
    >>> from cutepy.kernels.tensor import make_tensor, make_identity_tensor
    >>> g = make_tensor(gmem_ptr("half_t"), Layout((128, 64), (64, 1)))
    >>> a = make_tma_atom("SM90_TMA_LOAD", g, Layout((64, 64), (64, 1)))
    >>> gT = a.get_tma_tensor((128, 64))
    >>> from cutepy import zipped_divide
    >>> sA = make_tensor(smem_ptr("half_t"), Layout(((64, 64),), ((64, 1),)))
    >>> tg, ts = tma_partition(a, 0, Layout(1, 0), sA, zipped_divide(gT, (64, 64)))
    >>> ts.layout, tg.layout
    (((4096,1)):((1,0)), (((64,64),1),(2,1)):(((1@0,1@1),0),(64@1,0)))
    """
    if isinstance(atom, TmaTiledCopy):
        atom = atom.copy_atom
    if not isinstance(atom, TmaAtom):
        raise CutepyError(f"tma_partition takes a TMA atom (make_tma_atom), not {atom!r}")
    cta_layout = cta_layout if isinstance(cta_layout, Layout) else Layout(cta_layout)
    s0 = stensor.layout[0] if isinstance(stensor.layout.shape, tuple) else stensor.layout
    if not isinstance(s0, Layout):
        raise CutepyError(f"tma_partition: the smem tensor's layout {stensor.layout} must be plain "
                          "(give make_tensor an smem_ptr and the pointer-flag layout)")
    inv = right_inverse(s0)
    n0 = size(s0)
    layout_v = tile_to_shape(Layout((inv.shape,), (inv.stride,)), n0)
    nval = atom.num_val_src
    layout_V = logical_divide(layout_v, Layout(nval))
    mc_offset = cta_layout(cta_coord) * (nval // cta_layout.cosize())
    out = []
    for t in (gtensor, stensor):
        L = t.layout
        R = len(L.shape) if isinstance(L.shape, tuple) else 1
        if size(L[0] if isinstance(L.shape, tuple) else L) != n0:
            raise CutepyError(f"tma_partition: mode 0 of {L} has not the smem tile's {n0} elements")
        tiler = (layout_V,) + (None,) * (R - 1)
        composed = composition(L, tiler if R > 1 else layout_V)
        if R == 1:
            composed = Layout((composed.shape,), (composed.stride,))
        v = coalesce(composed, ((1, 1),))
        coord = ((mc_offset, 0),) + (0,) * (R - 1)
        off = v(coord)
        out.append(Tensor(t.engine, v, t.offset + off))
    return out[0], out[1]


def create_tma_multicast_mask(cta_layout_vmnk: Layout, cta_coord_vmnk: Any, modes: tuple = ()) -> int:
    """C++ ``create_tma_multicast_mask<Modes...>(cta_layout, cta_coord)``: the 16-bit mask of the
    CTAs (block ranks in the cluster) that share this CTA's multicast.

    The coordinate's ``modes`` are replaced by ``_`` (C++'s template modes); the CTAs along the
    remaining wildcards are set, shifted by the rank of the first of them.

    Pre:  ``cta_coord_vmnk`` is a coordinate of ``cta_layout_vmnk`` (``None`` for ``_``); the
          ranks are below 16 (else ``CutepyError``).
    Post: bit ``r`` is set for each block rank ``r`` reached.

    >>> cl = Layout((2, 2), (1, 2))
    >>> create_tma_multicast_mask(cl, (0, None)), create_tma_multicast_mask(cl, (1, 0), modes=(0,))
    (5, 3)
    """
    if not isinstance(cta_layout_vmnk, Layout):
        cta_layout_vmnk = Layout(cta_layout_vmnk)
    crd = cta_coord_vmnk
    for m in modes:
        if not isinstance(crd, tuple) or not 0 <= m < len(crd):
            raise CutepyError(f"create_tma_multicast_mask: mode {m} is not a mode of {crd}")
        crd = crd[:m] + (None,) + crd[m + 1:]
    sub, elected = slice_and_offset(crd, cta_layout_vmnk)
    mask = 0
    if sub.shape != ():
        for i in range(size(sub)):
            r = sub(i)
            if not 0 <= r < 16:
                raise CutepyError(f"create_tma_multicast_mask: block rank {r} is outside a 16-CTA cluster")
            mask |= 1 << r
    else:
        mask = 1
    if not 0 <= elected < 16:
        raise CutepyError(f"create_tma_multicast_mask: block rank {elected} is outside a 16-CTA cluster")
    return (mask << elected) & 0xFFFF


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "create_tma_multicast_mask", "make_tma_atom", "make_tma_atom_A_sm100", "make_tma_atom_B_sm100",
    "make_tma_copy", "tma_partition",
]
