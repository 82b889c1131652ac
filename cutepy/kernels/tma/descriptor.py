"""The TMA descriptor and the rules it obeys: C++'s ``detail::make_tma_copy_desc`` and the driver's
documented rules for ``cuTensorMapEncodeTiled`` (``cuda.h``), with the element formats and swizzle
modes TMA knows. Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Any

from ...algebra.casting import downcast, upcast
from ...core.basis import ScaledBasis
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from ...core.swizzle import Swizzle
from ..pointer import Pointer, _canonical, element_bits

#: TMA copy operations: name -> (threads of the atom (CTAs of the pair), direction)
TMA_OPS: dict[str, tuple[int, str]] = {
    "SM90_TMA_LOAD": (1, "load"),
    "SM90_TMA_LOAD_MULTICAST": (1, "load"),
    "SM90_TMA_STORE": (1, "store"),
    "SM90_TMA_REDUCE_ADD": (1, "store"),  # cp.reduce.async.bulk.tensor .add: the store's descriptor
    # the other reductions PTX has (.min ... .xor): C++ 4.7 has none, the CuTe DSL all (TMA_REDUCTIONS)
    "SM90_TMA_REDUCE_MIN": (1, "store"),
    "SM90_TMA_REDUCE_MAX": (1, "store"),
    "SM90_TMA_REDUCE_INC": (1, "store"),
    "SM90_TMA_REDUCE_DEC": (1, "store"),
    "SM90_TMA_REDUCE_AND": (1, "store"),
    "SM90_TMA_REDUCE_OR": (1, "store"),
    "SM90_TMA_REDUCE_XOR": (1, "store"),
    # tile::gather4 / scatter4: four rows of a 2-D tensor per instruction (tma/atom.py)
    "SM100_TMA_LOAD_2D_GATHER4": (1, "load"),
    "SM100_TMA_LOAD_MULTICAST_2D_GATHER4": (1, "load"),
    "SM100_TMA_STORE_2D_SCATTER4": (1, "store"),
    "SM100_TMA_2SM_LOAD": (2, "load"),
    "SM100_TMA_2SM_LOAD_MULTICAST": (2, "load"),
}

#: the TMA reductions (``cp.reduce.async.bulk.tensor.<redOp>``, shared::cta -> global): op -> the
#: tensor-map data types the reduction runs on. Measured on an H200 (every op on 13 element types,
#: tests/data/tma_reduce_hardware.json): a type outside its op's list stops the kernel with an
#: illegal instruction, a type inside it lands exactly as predicted. PTX ISA 9.1 (9.7.9.25.5.3, "valid
#: combinations of .redOp and element type") lists the same but for two places: its .add omits .f64
#: (FLOAT64 and TFLOAT32 tensor maps add correctly on the H200), and its .and/.or/.xor take .b64,
#: which the H200 runs on a UINT64 tensor map only (INT64 faults). C++ 4.7 builds
#: ``SM90_TMA_REDUCE_ADD`` for any type, an 8- or 16-bit one included, which then faults: cutepy
#: refuses it. The op names extend C++'s ``SM90_TMA_REDUCE_ADD`` (the only one C++ 4.7 has); the CuTe
#: DSL names them ``cpasync.CopyReduceBulkTensorTileS2GOp(cute.ReductionKind.<KIND>)``.
TMA_REDUCTIONS: dict[str, tuple[str, ...]] = {
    "SM90_TMA_REDUCE_ADD": ("UINT32", "INT32", "UINT64", "FLOAT32", "FLOAT16", "BFLOAT16", "FLOAT64",
                            "TFLOAT32"),
    "SM90_TMA_REDUCE_MIN": ("UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "BFLOAT16"),
    "SM90_TMA_REDUCE_MAX": ("UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "BFLOAT16"),
    "SM90_TMA_REDUCE_INC": ("UINT32",),
    "SM90_TMA_REDUCE_DEC": ("UINT32",),
    "SM90_TMA_REDUCE_AND": ("UINT32", "INT32", "UINT64"),
    "SM90_TMA_REDUCE_OR": ("UINT32", "INT32", "UINT64"),
    "SM90_TMA_REDUCE_XOR": ("UINT32", "INT32", "UINT64"),
}


def _check_reduction(op: str, tma_name: str) -> None:
    """The element-type rule of a TMA reduction (:data:`TMA_REDUCTIONS`, as the H200 runs them)."""
    if op in TMA_REDUCTIONS:
        dt = TMA_DATA_TYPE[tma_name]
        if dt not in TMA_REDUCTIONS[op]:
            red = op.rsplit("_", 1)[1].lower()
            raise _refuse(f"cp.reduce.async.bulk.tensor.{red} runs only on the tensor-map types "
                          f"{', '.join(TMA_REDUCTIONS[op])} (measured on an H200: any other type stops the "
                          f"kernel with an illegal instruction)", f"{tma_name} moves as {dt}")


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
