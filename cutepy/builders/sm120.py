"""CUTLASS's SM120 (GeForce Blackwell) dense GEMM mainloop CollectiveBuilder
(``sm120_mma_builder.inl``, CUTLASS 4.7) in Python, for its 8-bit F8F6F4 inputs: warp-level
``SM120_16x8x32_TN`` MMAs over 8 warps (cooperative) or 4 (ping-pong), TMA loads without
multicast, ldmatrix from K-major swizzled shared memory.

Layered beside :mod:`cutepy.builders.sm100` (it shares the collective's value types).

>>> c = collective_builder_sm120("float_e4m3_t", "RowMajor", 16, "float_e4m3_t", "ColumnMajor", 16, "float",
...                              (128, 128, 128), (1, 1, 1), "auto", "KernelScheduleAuto")
>>> c.stages, str(c.dispatch_policy)
(3, 'MainloopSm120TmaWarpSpecialized<3,2,Shape<_1,_1,_1>,KernelTmaWarpSpecializedCooperativeSm120<2>>')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..algebra.products import tile_to_shape
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..kernels.atoms.copy import CopyAtom, copy_atom
from ..kernels.atoms.mma import mma_atom
from ..kernels.atoms.smem import gmma_smem_layout
from ..kernels.pointer import element_bits
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma
from .selectors import canonical_element
from .values import LAYOUT_TAGS, CopyOp, collective_members
from .values import struct_layout as _struct

__all__ = ["CollectiveMmaSm120", "Sm120DispatchPolicy", "collective_builder_sm120", "sm120_rr_smem_selector"]

SM120_SMEM_CAPACITY_BYTES = 101376
SM120_SCHEDULES = (
    "KernelScheduleAuto",
    "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpong",
    "KernelScheduleF8f6f4Sm120",
)
_F8F6F4 = ("float_e4m3_t", "float_e5m2_t")


def _shape_cxx(t: tuple) -> str:
    return "cute::tuple<" + ", ".join(f"cute::C<{x}>" for x in t) + " >"


@dataclass(frozen=True)
class Sm120DispatchPolicy:
    """``MainloopSm120TmaWarpSpecialized<Stages, SchedulerPipelineStageCount, ClusterShape,
    KernelTmaWarpSpecialized{Cooperative,Pingpong}Sm120<SchedulerPipelineStageCount>>``.

    >>> str(Sm120DispatchPolicy(4, 2, (1, 1, 1), True))[:40]
    'MainloopSm120TmaWarpSpecialized<4,2,Shap'
    """

    stages: int
    scheduler_stages: int
    cluster_shape: tuple
    cooperative: bool

    @property
    def schedule(self) -> str:
        return f"KernelTmaWarpSpecialized{'Cooperative' if self.cooperative else 'Pingpong'}Sm120"

    def __str__(self) -> str:
        shape = "Shape<" + ",".join(f"_{x}" for x in self.cluster_shape) + ">"
        return (
            f"MainloopSm120TmaWarpSpecialized<{self.stages},{self.scheduler_stages},{shape},"
            f"{self.schedule}<{self.scheduler_stages}>>"
        )

    def __format__(self, spec: str) -> str:
        if spec == "cxx":
            return (
                f"cutlass::gemm::MainloopSm120TmaWarpSpecialized<{self.stages}, {self.scheduler_stages}, "
                f"{_shape_cxx(self.cluster_shape)}, cutlass::gemm::{self.schedule}<{self.scheduler_stages}> >"
            )
        return format(str(self), spec)


@dataclass(frozen=True)
class CollectiveMmaSm120:
    """What the SM120 ``CollectiveBuilder<...>::CollectiveOp`` is, member by member."""

    builder: str
    schedule: str
    dispatch_policy: Sm120DispatchPolicy
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
    smem_copy_atom_a: CopyAtom
    smem_copy_atom_b: CopyAtom
    shared_storage_bytes: int
    tma_transaction_bytes: int
    choices: tuple = field(default=(), compare=False, repr=False)
    arguments: tuple = field(default=(), compare=False, repr=False)

    @property
    def stages(self) -> int:
        return self.dispatch_policy.stages

    def members(self) -> dict[str, Any]:
        """The collective's members by their snake-case names."""
        return collective_members(self, ("tma_transaction_bytes",))


def _refuse(rule: str) -> CutepyError:
    return CutepyError(f"collective_builder: {rule}")


def sm120_rr_smem_selector(element: str, major_size: int) -> ComposedLayout:
    """C++ ``detail::sm120_rr_smem_selector<T, MajorSize>()``: the widest K-major
    ``UMMA::Layout_K_{SW128,SW64,SW32,INTER}_Atom<T>`` whose K divides ``major_size``, for an
    element of at most 8 bits.

    Pre:  ``element`` is at most 8 bits; an atom fits (else ``CutepyError``).
    Post: ``size<1>(atom)`` divides ``major_size``.

    >>> sm120_rr_smem_selector("uint8_t", 64)
    Sw<2,4,3> o smem_ptr[8b](unset) o (8,64):(64,1)
    """
    t = canonical_element(element)
    if element_bits(t) > 8:
        raise CutepyError(f"sm120_rr_smem_selector: Unsupported element size. ({t})")
    for w in (128, 64, 32, 0):
        atom = gmma_smem_layout("K", w, t)
        if major_size % composed_parts(atom)[2].shape[1] == 0:
            return atom
    raise CutepyError(
        f"sm120_rr_smem_selector: No shared memory copy atom can be selected. (K = {major_size})"
    )


def collective_builder_sm120(
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
) -> CollectiveMmaSm120:
    """C++ ``CollectiveBuilder<arch::Sm120, OpClassTensorOp, ...>::CollectiveOp`` (dense, not
    block-scaled) for 8-bit float inputs (:func:`~cutepy.builders.collective_builder` with
    ``arch="Sm120"`` comes here).

    Pre:  A and B are ``float_e4m3_t``/``float_e5m2_t`` (sub-byte F6/F4 are not modelled), TN,
          16-byte aligned; C++ accepts the configuration (else ``CutepyError`` with its rule).
    Post: every member equals C++'s.

    >>> collective_builder_sm120("float_e4m3_t", "ColumnMajor", 16, "float_e4m3_t", "ColumnMajor", 16,
    ...                          "float", (128, 128, 128), (1, 1, 1), "auto", "KernelScheduleAuto")
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: collective_builder: Only TN layout is supported. (A is ColumnMajor, B is ColumnMajor)
    """
    ea, eb, acc = (
        canonical_element(element_a),
        canonical_element(element_b),
        canonical_element(element_accumulator),
    )
    for tag in (layout_a, layout_b):
        if tag not in LAYOUT_TAGS:
            raise CutepyError(f"collective_builder: a layout tag is one of {LAYOUT_TAGS}, not {tag!r}")
    if schedule not in SM120_SCHEDULES:
        raise CutepyError(
            f"collective_builder: SM120 schedules modelled are {', '.join(SM120_SCHEDULES)}, not {schedule!r}"
        )
    for e, al in ((ea, alignment_a), (eb, alignment_b)):
        if element_bits(e) < 8:
            raise CutepyError("collective_builder: sub-byte SM120 inputs (F6/F4) are not modelled")
        if (element_bits(e) * al) % 128:
            raise _refuse(
                "Could not build a collective for given parameters. (TMA needs 16-byte aligned rows: "
                f"{al} x {e} is {element_bits(e) * al} bits)"
            )
    rules = []
    if not (ea in _F8F6F4 and eb in _F8F6F4):
        rules.append(f"SM120 TmaWarpSpecialized builder currently only supports F8F6F4 MMA. (A {ea}, B {eb})")
    if cluster_shape[0] * cluster_shape[1] * cluster_shape[2] != 1:
        rules.append(f"no programmatic multicast on this arch (the cluster is {cluster_shape})")
    if not (layout_a == "RowMajor" and layout_b == "ColumnMajor"):
        rules.append(f"Only TN layout is supported. (A is {layout_a}, B is {layout_b})")
    if rules:
        raise _refuse("; ".join(rules))
    m, n, k = tile_shape
    cooperative = schedule != "KernelTmaWarpSpecializedPingpong"
    atom_layout = Layout((4, 2, 1)) if cooperative else Layout((2, 2, 1))
    atom = mma_atom(f"SM120_16x8x32_TN<{ea},{eb},{acc}>")
    mma = make_tiled_mma(atom, atom_layout, (min(m, 128), min(n, 32), 32))
    choices = [
        (
            "MMA",
            f"{atom.name} over {atom_layout.shape} warps",
            "8 warps (cooperative) or 4 (ping-pong), the tile permuted to at most 128 x 32 x 32",
        )
    ]
    atom_a = sm120_rr_smem_selector("uint8_t", k)
    atom_b = sm120_rr_smem_selector("uint8_t", k)
    if type(stage_count) is int:
        stages = stage_count
    else:
        carve = 0 if stage_count == "auto" else stage_count[1] if isinstance(stage_count, tuple) else None
        if carve is None:
            raise CutepyError(
                f"stage_count is 'auto', ('auto', carveout_bytes) or an int, not {stage_count!r}"
            )
        per = m * k + n * k + 16
        free = SM120_SMEM_CAPACITY_BYTES - carve
        stages = free // per if free >= 0 else -(-free // per)
        choices.append(
            ("stages", str(stages), f"({SM120_SMEM_CAPACITY_BYTES} - {carve}) // {per} bytes a stage")
        )
    for mn, at in ((m, atom_a), (n, atom_b)):
        inner = composed_parts(at)[2].shape
        if mn % inner[0] or k % inner[1]:
            raise _refuse("SmemLayoutAtom must evenly divide tile shape.")
    if stages < 2:
        raise _refuse(f"Specialization requires Stages set to value 2 or more. (it is {stages})")
    smem_a = tile_to_shape(atom_a, (m, k, stages), (1, 2, 3))
    smem_b = tile_to_shape(atom_b, (n, k, stages), (1, 2, 3))
    cos_a, cos_b = composed_parts(smem_a)[2].cosize(), composed_parts(smem_b)[2].cosize()
    tensors = _struct([(-(-cos_a // 16) * 16, 1024), (-(-cos_b // 16) * 16, 1024)], 128)
    storage = _struct([tensors, (16 * stages, 16)])[0]
    tma_bytes = m * k * element_bits(ea) // 8 + n * k * element_bits(eb) // 8
    ldsm = copy_atom("SM75_U32x4_LDSM_N", 8)
    policy = Sm120DispatchPolicy(stages, 2, cluster_shape, cooperative)
    return CollectiveMmaSm120(
        "SM120_TMA_WS",
        policy.schedule,
        policy,
        tile_shape,
        cluster_shape,
        ea,
        layout_a,
        eb,
        layout_b,
        acc,
        mma,
        CopyOp("SM90_TMA_LOAD"),
        CopyOp("SM90_TMA_LOAD"),
        atom_a,
        atom_b,
        smem_a,
        smem_b,
        ldsm,
        ldsm,
        storage,
        tma_bytes,
        tuple(choices),
    )
