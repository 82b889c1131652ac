"""CUTLASS's SM100 (Blackwell) dense GEMM mainloop CollectiveBuilder (``sm100_umma_builder.inl``,
CUTLASS 4.7) in Python: 1-SM and 2-SM UMMA, TMA (2-SM TMA for the 2-SM atoms), accumulators in
tensor memory.

Layered beside :mod:`cutepy.builders.sm90` (it shares the collective's value types). The choices
are C++'s: the UMMA instruction for the tile (1-SM for Tile_M 64 or 128, 2-SM for 128 or 256 over a
cluster of even M; ``KernelScheduleAuto`` takes 2-SM when it can), the smem atoms for the tile each
CTA holds, the accumulator pipeline's stages (what fits in 512 TMEM columns, at most 4), the
shared memory the kernel keeps for its barriers and scheduler (the carveout), the stages of the
A/B pipeline in the rest, and the staged layouts ``UMMA::tile_to_mma_shape`` makes.

>>> c = collective_builder_sm100("half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8, "float", (256, 128, 64),
...                              (2, 1, 1), "auto", "KernelScheduleAuto")
>>> c.tiled_mma.atom.name, c.stages, c.accumulator_pipeline_stages
('SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,K,K>', 9, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import SmemPtrFlag, Swizzle
from ..kernels.atoms.mma import UMMA_TYPES, umma_shapes
from ..kernels.atoms.mma import mma_atom as _mma_atom
from ..kernels.atoms.smem import gmma_smem_layout, tile_to_mma_shape
from ..kernels.pointer import element_bits
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma, partition_shape_A, partition_shape_B
from .selectors import canonical_element
from .values import LAYOUT_TAGS, CopyOp, collective_members
from .values import cluster_tma as _cluster_tma
from .values import struct_layout as _struct

__all__ = ["CollectiveMmaSm100", "Sm100DispatchPolicy", "collective_builder_sm100", "sm100_smem_selector"]

SM100_SMEM_CAPACITY_BYTES = 232448
TMEM_ROWS, TMEM_COLUMNS = 128, 512
SCHEDULER_PIPELINE_STAGES = 2
#: sizes C++ 4.7 gives the kernel's own shared storage (printed with g++): 16 bytes per stage of
#: every pipeline, a 16-byte ordered barrier, a 16-byte scheduler (CLC) response, an 8-byte barrier
_PIPELINE_BYTES_PER_STAGE, _ORDER_BARRIER, _CLC_RESPONSE, _CLUSTER_BARRIER = 16, 16, 16, 8
SM100_SCHEDULES = (
    "KernelScheduleAuto",
    "KernelTmaWarpSpecialized1SmSm100",
    "KernelTmaWarpSpecialized2SmSm100",
)


def _shape_cxx(t: tuple) -> str:
    return "cute::tuple<" + ", ".join(f"cute::C<{x}>" for x in t) + " >"


@dataclass(frozen=True)
class Sm100DispatchPolicy:
    """``MainloopSm100TmaUmmaWarpSpecialized<Stages, SchedulerPipelineStageCount,
    AccumulatorPipelineStageCount, ClusterShape, ArchTag>``.

    >>> format(Sm100DispatchPolicy(5, 2, 2, (2, 1, 1)), "cxx")[:60]
    'cutlass::gemm::MainloopSm100TmaUmmaWarpSpecialized<5, 2, 2, '
    """

    stages: int
    scheduler_stages: int
    accumulator_stages: int
    cluster_shape: tuple
    name: str = "MainloopSm100TmaUmmaWarpSpecialized"

    def __str__(self) -> str:
        shape = "Shape<" + ",".join(f"_{x}" for x in self.cluster_shape) + ">"
        return f"{self.name}<{self.stages},{self.scheduler_stages},{self.accumulator_stages},{shape},Sm100>"

    def __format__(self, spec: str) -> str:
        if spec == "cxx":
            return (
                f"cutlass::gemm::{self.name}<{self.stages}, {self.scheduler_stages}, "
                f"{self.accumulator_stages}, "
                f"{_shape_cxx(self.cluster_shape)}, cutlass::arch::Sm100>"
            )
        return format(str(self), spec)


@dataclass(frozen=True)
class CollectiveMmaSm100:
    """What the SM100 ``CollectiveBuilder<...>::CollectiveOp`` is, member by member, with the
    builder's own ``accumulator_pipeline_stages`` and ``kernel_smem_carveout``."""

    builder: str
    schedule: str
    dispatch_policy: Sm100DispatchPolicy
    tile_shape: tuple
    cluster_shape: tuple
    element_a: str
    layout_a: str
    element_b: str
    layout_b: str
    element_accumulator: str
    tiled_mma: TiledMMA
    gmem_tiled_copy_a: CopyOp
    gmem_tiled_copy_b: CopyOp
    smem_layout_atom_a: ComposedLayout
    smem_layout_atom_b: ComposedLayout
    smem_layout_a: ComposedLayout
    smem_layout_b: ComposedLayout
    shared_storage_bytes: int
    tma_transaction_bytes: int
    accumulator_pipeline_stages: int
    kernel_smem_carveout: int
    choices: tuple = field(default=(), compare=False, repr=False)
    arguments: tuple = field(default=(), compare=False, repr=False)

    smem_copy_atom_a = None
    smem_copy_atom_b = None

    @property
    def stages(self) -> int:
        return self.dispatch_policy.stages

    def members(self) -> dict[str, Any]:
        """The collective's members (``None`` for ``void``) and the builder's TMEM/carveout numbers."""
        return collective_members(self, ("tma_transaction_bytes", "accumulator_pipeline_stages",
                                         "kernel_smem_carveout"))


def _refuse(rule: str) -> CutepyError:
    return CutepyError(f"collective_builder: {rule}")


def _size(x: Any) -> int:
    if isinstance(x, tuple):
        out = 1
        for y in x:
            out *= _size(y)
        return out
    return x


def _first(x: Any) -> int:
    while isinstance(x, tuple):
        x = x[0]
    return x


def sm100_smem_selector(major: str, element: str, blk_mn: Any, blk_k: Any) -> ComposedLayout:
    """C++ ``detail::sm100_smem_selector<major, T, BLK_MN, BLK_K>()``: as the SM90 selector (the
    widest ``UMMA::Layout_{major}_{SW128,SW64,SW32,INTER}_Atom<T>`` that fits), except that an
    MN-major 32-bit operand takes ``Layout_MN_SW128_32B_Atom`` (``Sw<2,5,2>``, 32-byte atomicity).

    Pre:  ``size<0>`` of both extents are multiples of 8; an atom fits (else ``CutepyError``).
    Post: the atom's extent along the contiguous mode divides the tile's.

    >>> sm100_smem_selector("MN", "half_t", 128, 64)
    Sw<3,4,3> o smem_ptr[16b](unset) o (64,8):(1,64)
    """
    t = canonical_element(element)
    mn0, k0 = _first(blk_mn), _first(blk_k)
    if mn0 % 8:
        raise CutepyError(f"sm100_smem_selector: BLK_MN0 must be a multiple of 8. (it is {mn0})")
    if k0 % 8:
        raise CutepyError(f"sm100_smem_selector: BLK_K0 must be a multiple of 8. (it is {k0})")
    if major == "MN" and element_bits(t) == 32:  # UMMA::Layout_MN_SW128_32B_Atom: 32-byte swizzle atomicity
        atom = ComposedLayout(Swizzle(2, 5, 2), SmemPtrFlag(32), Layout((32, 4), (1, 32)))
        if mn0 % 32:
            raise CutepyError(
                "sm100_smem_selector: for mn-major tf32 operands, SW128_32B is the only available "
                f"smem layout (BLK_MN0 = {mn0} is not a multiple of 32)"
            )
        return atom
    for w in (128, 64, 32, 0):
        atom = gmma_smem_layout(major, w, t)
        inner = composed_parts(atom)[2].shape
        if (mn0 if major == "MN" else k0) % _size(inner[0 if major == "MN" else 1]) == 0:
            return atom
    which = (
        ("BLK_MN0", "size<0>(UMMA::Layout_MN_INTER_Atom<ElementType>{})")
        if major == "MN"
        else ("BLK_K0", "size<1>(UMMA::Layout_K_INTER_Atom<ElementType>{})")
    )
    raise CutepyError(f"sm100_smem_selector: {which[0]} must be a multiple of {which[1]}")


def _kind(a: str, b: str, c: str) -> str:
    for kind, types in UMMA_TYPES.items():
        if (a, b, c) in types:
            return kind
    raise _refuse(
        f"Unsupported configuration for SM100 collective builder. (no UMMA takes A {a}, B {b}, "
        f"accumulator {c})"
    )


def collective_builder_sm100(
    element_a: str,
    layout_a: str,
    alignment_a: int,
    element_b: str,
    layout_b: str,
    alignment_b: int,
    element_accumulator: str,
    tile_shape: tuple,
    cluster_shape: tuple,
    stage_count: Any = "auto",
    schedule: str = "KernelScheduleAuto",
) -> CollectiveMmaSm100:
    """C++ ``CollectiveBuilder<arch::Sm100, OpClassTensorOp, ...>::CollectiveOp`` for a dense GEMM
    with a static cluster (:func:`~cutepy.builders.collective_builder` with ``arch="Sm100"`` comes
    here); ``tile_shape`` is the MMA tile (2-SM: both CTAs' M).

    Pre:  A and B are 8-, 16- or 32-bit types UMMA takes; 16-byte aligned (else C++ has no
          specialization); C++ accepts the configuration (else ``CutepyError`` with its rule).
    Post: every member equals C++'s.

    >>> collective_builder_sm100("half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8, "float", (256, 128, 64),
    ...                          (1, 1, 1), "auto", "KernelTmaWarpSpecialized2SmSm100")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: collective_builder: Cluster shape not divisible by MMA size (a 2-SM UMMA needs ...
    """
    ea, eb, acc = (
        canonical_element(element_a),
        canonical_element(element_b),
        canonical_element(element_accumulator),
    )
    for tag in (layout_a, layout_b):
        if tag not in LAYOUT_TAGS:
            raise CutepyError(f"collective_builder: a layout tag is one of {LAYOUT_TAGS}, not {tag!r}")
    if schedule not in SM100_SCHEDULES:
        raise CutepyError(
            f"collective_builder: SM100 schedules modelled are {', '.join(SM100_SCHEDULES)}, not {schedule!r}"
        )
    misaligned = []
    for e, al in ((ea, alignment_a), (eb, alignment_b)):
        if element_bits(e) < 8:
            raise CutepyError("collective_builder: sub-byte SM100 inputs (F6/F4) are not modelled")
        if (element_bits(e) * al) % 128:
            misaligned.append(f"{al} x {e} is {element_bits(e) * al} bits")
    a_mma = "tfloat32_t" if ea == "float" else ea
    b_mma = "tfloat32_t" if eb == "float" else eb
    non_f8 = a_mma in ("tfloat32_t", "half_t", "bfloat16_t", "int8_t", "uint8_t") and a_mma == b_mma
    f8 = a_mma in ("float_e4m3_t", "float_e5m2_t") and b_mma in ("float_e4m3_t", "float_e5m2_t")
    if not (non_f8 or f8):
        raise _refuse(f"Unsupported data type for ElementA (A {a_mma}, B {b_mma})")
    major_a = "K" if layout_a == "RowMajor" else "MN"
    major_b = "K" if layout_b == "ColumnMajor" else "MN"
    m, n, k = tile_shape
    choices: list[tuple[str, str, str]] = []
    if schedule == "KernelScheduleAuto":
        two_sm_mma = cluster_shape[0] % 2 == 0 and m % 128 == 0
        is_2sm = cluster_shape[0] % 2 == 0
        choices.append(
            (
                "UMMA",
                "2-SM" if two_sm_mma else "1-SM",
                "KernelScheduleAuto takes the 2-SM UMMA when the cluster's M is even and Tile_M a multiple "
                "of 128",
            )
        )
    else:
        two_sm_mma = is_2sm = schedule.endswith("2SmSm100")
    if misaligned:  # below TMA's 16 bytes
        if schedule != "KernelScheduleAuto":  # the TMA builder's enable_if excludes it: no specialization
            raise _refuse(
                "Could not build a collective for given parameters. (TMA needs 16-byte aligned "
                "rows: " + "; ".join(misaligned) + ")"
            )
        if two_sm_mma:  # KernelScheduleAuto takes CUTLASS's cp.async builder, whose collective is 1-SM only
            raise _refuse("Lower alignment SM100 GEMM only supports 1SM MMA (" + "; ".join(misaligned) + ")")
        if tuple(cluster_shape) != (1, 1, 1):
            raise _refuse(
                "CPASYNC does not support multicast so the cluster shape is restricted to 1, 1, 1 "
                f"(the cp.async builder takes {'; '.join(misaligned)}; the cluster is {cluster_shape})"
            )
        raise CutepyError(
            "collective_builder: SM100 operands below 16-byte alignment take CUTLASS's cp.async "
            "builder, which cutepy does not model (" + "; ".join(misaligned) + ")"
        )
    if two_sm_mma:
        if m not in (128, 256):
            raise _refuse(f"Invalid TileShape_M. (a 2-SM UMMA tile has M 128 or 256, not {m})")
    elif m not in (64, 128):
        raise _refuse(f"Invalid TileShape_M. (a 1-SM UMMA tile has M 64 or 128, not {m})")
    if not (n % 8 == 0 and n <= 256):
        raise _refuse(f"Invalid TileShape_N. (N must be a multiple of 8 up to 256, not {n})")
    kind = _kind(a_mma, b_mma, acc)
    if (m, n) not in umma_shapes(kind, two_sm_mma, "SS", major_b):
        step = {"S8": 32, "TF32": 16, "F16BF16": 16}.get(kind) if two_sm_mma else None
        if kind in ("TF32", "F16BF16") and not two_sm_mma:
            rule = f"SM100_MMA_{kind} N-mode size should be a multiple of 8 between 8 and 256."
        elif kind == "S8" and not two_sm_mma:
            rule = "SM100_MMA_S8_SS N-mode size should be 8 or a multiple of 16 between 16 and 256."
        elif step is not None:
            rule = (
                f"SM100_MMA_{kind}_2x1SM_SS N-mode size should be a multiple of {step} between {step} "
                "and 256."
            )
        else:
            rule = "Invalid UMMA instruction shape"
        op = f"SM100_MMA_{kind}{'_2x1SM' if two_sm_mma else ''}_SS"
        rules = [f"{rule} ({op} does not take M = {m}, N = {n})"]
        # C++ goes on instantiating the collective and reports what else breaks: B's smem atom
        cta_n = n // (2 if two_sm_mma else 1)
        if cta_n % 8:
            rules.append(f"BLK_MN0 must be a multiple of 8. (B's tile per CTA has N = {cta_n})")
        if major_b == "K" and cta_n % 8:
            rules.append("SmemLayoutAtom must evenly divide tile shape.")
        if major_b == "MN" and cta_n % (128 // element_bits(b_mma)):
            rules.append("BLK_MN0 must be a multiple of size<0>(UMMA::Layout_MN_INTER_Atom<ElementType>{})")
        raise _refuse("; ".join(rules))
    atom = _mma_atom(
        f"SM100_MMA_{kind}_{'2x1SM_' if two_sm_mma else ''}SS<{a_mma},{b_mma},{acc},{m},{n},"
        f"{major_a},{major_b}>"
    )
    mma = make_tiled_mma(atom)
    choices.append(("MMA", atom.name, "the UMMA of the whole tile"))
    thr = 2 if two_sm_mma else 1
    if thr == 2:
        if cluster_shape[0] % 2:
            raise _refuse(
                "Cluster shape not divisible by MMA size (a 2-SM UMMA needs an even cluster M, not "
                f"{cluster_shape[0]})"
            )
        copy_a = CopyOp("SM100_TMA_2SM_LOAD" if cluster_shape[1] == 1 else "SM100_TMA_2SM_LOAD_MULTICAST")
        copy_b = CopyOp("SM100_TMA_2SM_LOAD" if cluster_shape[0] == 2 else "SM100_TMA_2SM_LOAD_MULTICAST")
    else:
        copy_a, copy_b = _cluster_tma(cluster_shape[1]), _cluster_tma(cluster_shape[0])
    shape_a = partition_shape_A(mma, (m, k))
    shape_b = partition_shape_B(mma, (n, k))
    cta_m, cta_n = m // thr, n // thr
    atom_a = sm100_smem_selector(major_a, a_mma, cta_m, k)
    atom_b = sm100_smem_selector(major_b, b_mma, cta_n, k)
    choices.append(
        ("smem atoms", f"A {atom_a}, B {atom_b}", f"for the {cta_m}x{k} and {cta_n}x{k} tiles a CTA holds")
    )
    per_cta_atom_m = _size(shape_a[0][0])
    if is_2sm or per_cta_atom_m > 64:
        acc_stages = (TMEM_ROWS * TMEM_COLUMNS) // (cta_m * n)
    else:
        acc_stages = (TMEM_COLUMNS // n) * 2
    acc_stages = min(4, acc_stages)
    if acc_stages <= 0:
        raise _refuse("Accumulator pipeline stage count must be positive.")
    choices.append(
        (
            "accumulator stages",
            str(acc_stages),
            "as many accumulator tiles as fit in TMEM's 128 x 512 cells, at most 4",
        )
    )
    carveout = (
        _PIPELINE_BYTES_PER_STAGE * acc_stages
        + _PIPELINE_BYTES_PER_STAGE * SCHEDULER_PIPELINE_STAGES
        + _ORDER_BARRIER
        + _CLUSTER_BARRIER
        + _PIPELINE_BYTES_PER_STAGE * SCHEDULER_PIPELINE_STAGES
        + SCHEDULER_PIPELINE_STAGES * _CLC_RESPONSE
        + SCHEDULER_PIPELINE_STAGES * 4
    )
    capacity = SM100_SMEM_CAPACITY_BYTES - carveout
    block_a_m = _size(shape_a[0][0]) * _size(shape_a[1])
    block_b_n = _size(shape_b[0][0]) * _size(shape_b[1])
    block_k = _size(shape_a[0][1]) * _size(shape_a[2])
    if type(stage_count) is int:
        stages = stage_count
    else:
        if stage_count == "auto":
            carve = 0
        elif isinstance(stage_count, tuple) and len(stage_count) == 2 and stage_count[0] == "auto":
            carve = stage_count[1]
        else:
            raise CutepyError(
                f"stage_count is 'auto', ('auto', carveout_bytes) or an int, not {stage_count!r}"
            )
        per = (
            -(-element_bits(a_mma) * block_a_m * block_k // 8)
            + -(-element_bits(b_mma) * block_b_n * block_k // 8)
            + _PIPELINE_BYTES_PER_STAGE
        )
        free = capacity - carve
        stages = free // per if free >= 0 else -(-free // per)
        choices.append(
            (
                "stages",
                str(stages),
                f"({SM100_SMEM_CAPACITY_BYTES} - {carveout} kernel carveout - {carve}) "
                f"// {per} bytes a stage",
            )
        )
    if stages <= 0:
        raise _refuse("Smem usage is too high. Can't create any SMEM buffers for A, and B.")
    for shape, at in ((shape_a, atom_a), (shape_b, atom_b)):
        inner = composed_parts(at)[2].shape
        if (_size(shape[0][0]) * _size(shape[1])) % _size(inner[0]) or (
            _size(shape[0][1]) * _size(shape[2])
        ) % _size(inner[1]):
            raise _refuse("SmemLayoutAtom must evenly divide tile shape.")
    if stages < 2:
        raise _refuse(f"Specialization requires Stages set to value 1 or more. (it is {stages})")
    smem_a = tile_to_mma_shape(atom_a, (*shape_a, stages), (2, 1, 3) if major_a == "MN" else (1, 2, 3))
    smem_b = tile_to_mma_shape(atom_b, (*shape_b, stages), (2, 1, 3) if major_b == "MN" else (1, 2, 3))
    inner_a, inner_b = composed_parts(smem_a)[2], composed_parts(smem_b)[2]
    cos_a, cos_b = inner_a.cosize(), inner_b.cosize()
    tensors = _struct(
        [
            (-(-cos_a * element_bits(a_mma) // 8 // 16) * 16, 16),
            (-(-cos_b * element_bits(b_mma) // 8 // 16) * 16, 16),
        ],
        128,
    )
    storage = _struct([tensors, (16 * stages, 8)])[0]
    per_stage_a = cos_a // stages
    per_stage_b = cos_b // stages
    tma_bytes = -(-thr * per_stage_a * element_bits(ea) // 8) + -(-thr * per_stage_b * element_bits(eb) // 8)
    policy = Sm100DispatchPolicy(stages, SCHEDULER_PIPELINE_STAGES, acc_stages, cluster_shape)
    resolved = (
        schedule
        if schedule != "KernelScheduleAuto"
        else ("KernelTmaWarpSpecialized2SmSm100" if two_sm_mma else "KernelTmaWarpSpecialized1SmSm100")
    )
    return CollectiveMmaSm100(
        "SM100_TMA_UMMA_WS",
        resolved,
        policy,
        tile_shape,
        cluster_shape,
        ea,
        layout_a,
        eb,
        layout_b,
        acc,
        mma,
        copy_a,
        copy_b,
        atom_a,
        atom_b,
        smem_a,
        smem_b,
        storage,
        tma_bytes,
        acc_stages,
        carveout,
        tuple(choices),
    )
