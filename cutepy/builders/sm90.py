"""CUTLASS's SM90 GEMM mainloop CollectiveBuilder (``sm90_gmma_builder.inl``, CUTLASS 4.7) in
Python: the template arguments in C++'s order, CUTLASS's names as strings, and the collective
C++ would build, member by member, as cutepy values.

Layered above ``kernels/`` (atoms, TiledMMA, TiledCopy) and :mod:`cutepy.builders.selectors`.
Every choice is C++'s: the kernel schedule ``KernelScheduleAuto`` resolves to (as for CUDA 12.9),
which specialization (TMA warp-specialized SS or RS, FP8 fast-accumulate, ``KernelTma``, cp.async
warp-specialized SS or RS), the GMMA and its warp-group layout, the shared-memory atoms and the
tiled layouts the collective makes of them, the gmem copies, the stage count and the bytes of the
collective's ``SharedStorage``. A configuration C++ rejects (a ``static_assert``, or no
specialization) raises :class:`~cutepy.CutepyError` naming the rule.

>>> c = collective_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8,
...                        "float", (128, 128, 64), (1, 2, 1), "auto", "KernelScheduleAuto")
>>> c.stages, c.schedule
(7, 'KernelTmaWarpSpecializedCooperative')
>>> c.smem_layout_a
Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,7)):((64,512),(1,0),(0,8192))
>>> format(c.smem_layout_a, "cxx")
'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_7)):((_64,_512),(_1,_0),(_0,_8192))'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..algebra.products import tile_to_shape
from ..core.dynamic import dynamic
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..kernels.atoms.copy import CopyAtom, copy_atom
from ..kernels.atoms.smem import gmma_smem_layout
from ..kernels.pointer import element_bits, gmem_ptr
from ..kernels.tensor import make_tensor
from ..kernels.tiled.copy import TiledCopy, make_tiled_copy
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma
from ..kernels.tma import make_tma_copy
from .selectors import (
    SM90_SMEM_CAPACITY_BYTES,
    canonical_element,
    compute_stage_count_or_override,
    round_up,
    rs_op_selector,
    rs_smem_selector,
    ss_op_selector,
    ss_smem_selector,
    stage_bytes,
)
from .sm100 import collective_builder_sm100
from .sm120 import collective_builder_sm120
from .values import LAYOUT_TAGS, CopyOp, collective_members
from .values import cluster_tma as _cluster_tma
from .values import struct_layout as _struct

__all__ = ["CollectiveMma", "DispatchPolicy", "collective_builder", "recluster", "restage"]

TMA_ALIGNMENT_BYTES = 16
CP_ASYNC_MIN_ALIGNMENT_BYTES = 4
THREADS_PER_WARP_GROUP = 128

TMA_WS = (
    "KernelTmaWarpSpecialized",
    "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpong",
)
FP8_FAST_ACCUM = (
    "KernelTmaWarpSpecializedFP8FastAccum",
    "KernelTmaWarpSpecializedCooperativeFP8FastAccum",
    "KernelTmaWarpSpecializedPingpongFP8FastAccum",
)
CP_ASYNC_WS = (
    "KernelCpAsyncWarpSpecialized",
    "KernelCpAsyncWarpSpecializedCooperative",
    "KernelCpAsyncWarpSpecializedPingpong",
)
#: the kernel schedules the builder takes (``KernelMultistage`` maps to ``KernelCpAsyncWarpSpecialized``)
SCHEDULES = ("KernelScheduleAuto", *TMA_WS, *FP8_FAST_ACCUM, "KernelTma", *CP_ASYNC_WS, "KernelMultistage")
#: a schedule's base classes (``is_base_of``), for the warp-specialized transposition test
_WS_BASES = {
    "KernelTmaWarpSpecializedFP8FastAccum": "KernelTmaWarpSpecialized",
    "KernelTmaWarpSpecializedCooperativeFP8FastAccum": "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpongFP8FastAccum": "KernelTmaWarpSpecializedPingpong",
}


def _inner(x: Any) -> Any:
    """The layout under a composed layout's swizzle (the layout itself otherwise)."""
    parts = composed_parts(x)
    return parts[2] if parts is not None else x


def _shape_cxx(t: tuple) -> str:
    return "cute::tuple<" + ", ".join(f"cute::C<{x}>" for x in t) + " >"


def _shape_short(t: tuple) -> str:
    return "Shape<" + ",".join(f"_{x}" for x in t) + ">"


@dataclass(frozen=True)
class DispatchPolicy:
    """A mainloop dispatch policy (``cutlass/gemm/dispatch_policy.hpp``): its template name,
    ``Stages``, ``ClusterShape`` and kernel schedule. ``format(p, "cxx")`` is the compiler's name
    of the type; ``str(p)`` the short form a CUTLASS user writes.

    >>> p = DispatchPolicy("MainloopSm90TmaGmmaWarpSpecialized", 7, (1, 2, 1),
    ...                    "KernelTmaWarpSpecializedCooperative")
    >>> str(p)
    'MainloopSm90TmaGmmaWarpSpecialized<7,Shape<_1,_2,_1>,KernelTmaWarpSpecializedCooperative>'
    """

    name: str
    stages: int
    cluster_shape: tuple
    schedule: str | None = None
    #: extra trailing template arguments (``MainloopSm90TmaGmma``'s ``PipelineAsyncMmaStages``)
    extra: tuple = ()

    def __str__(self) -> str:
        args = [str(self.stages), _shape_short(self.cluster_shape)]
        args += [self.schedule] if self.schedule else []
        return f"{self.name}<{','.join(args + [str(x) for x in self.extra])}>"

    def __format__(self, spec: str) -> str:
        if spec == "cxx":
            args = [str(self.stages), _shape_cxx(self.cluster_shape)]
            args += [f"cutlass::gemm::{self.schedule}"] if self.schedule else []
            return f"cutlass::gemm::{self.name}<{', '.join(args + [str(x) for x in self.extra])}>"
        return format(str(self), spec)


@dataclass(frozen=True)
class CollectiveMma:
    """What ``CollectiveBuilder<...>::CollectiveOp`` is, member by member (C++'s names in snake
    case): the dispatch policy and its stages, the TiledMMA, the gmem copies, the shared-memory
    layout atoms and the staged layouts made of them, the smem-to-register copy atoms (``None``
    where C++ has ``void``), ``sizeof(SharedStorage)`` and the TMA transaction bytes per stage.

    ``builder`` names the specialization of ``sm90_gmma_builder.inl`` that made it
    (``GMMA_TMA_WS_SS``, ``GMMA_TMA_WS_RS``, ``GMMA_TMA_WS_FP8_FAST_ACCUM_SS``, ``GMMA_TMA_SS``,
    ``GMMA_CpAsync_WS_SS``, ``GMMA_CpAsync_WS_RS``); ``schedule`` the kernel schedule it ran with.
    """

    builder: str
    schedule: str
    dispatch_policy: DispatchPolicy
    tile_shape: tuple
    cluster_shape: tuple
    element_a: str
    layout_a: str
    element_b: str
    layout_b: str
    element_accumulator: str
    tiled_mma: TiledMMA
    gmem_tiled_copy_a: CopyOp | TiledCopy
    gmem_tiled_copy_b: CopyOp | TiledCopy
    smem_layout_atom_a: ComposedLayout
    smem_layout_atom_b: ComposedLayout
    smem_layout_a: ComposedLayout
    smem_layout_b: ComposedLayout
    smem_copy_atom_a: CopyAtom | None
    smem_copy_atom_b: CopyAtom | None
    shared_storage_bytes: int
    tma_transaction_bytes: int | None
    swap_ab: bool = False
    #: the decisions taken on the way, in order: (what, chosen, why) for explain()
    choices: tuple = field(default=(), compare=False, repr=False)
    #: the builder's template arguments as given (schedule and stage count before resolution)
    arguments: tuple = field(default=(), compare=False, repr=False)

    @property
    def stages(self) -> int:
        return self.dispatch_policy.stages

    def members(self) -> dict[str, Any]:
        """The members C++'s collective has, by their snake-case names (``None`` for ``void``)."""
        out = collective_members(self)
        if self.tma_transaction_bytes is not None:
            out["tma_transaction_bytes"] = self.tma_transaction_bytes
        return out

    @property
    def tma_load_a(self) -> Any:
        """``Params::tma_load_a`` (C++'s ``TMA_A``) for a problem of one CTA tile (batch 1); ``None``
        for the cp.async collectives. See :meth:`make_tma_load`."""
        return self.make_tma_load("a") if self.builder in TMA_BUILDERS else None

    @property
    def tma_load_b(self) -> Any:
        """``Params::tma_load_b`` (C++'s ``TMA_B``) for a problem of one CTA tile (batch 1); ``None``
        for the cp.async collectives. See :meth:`make_tma_load`."""
        return self.make_tma_load("b") if self.builder in TMA_BUILDERS else None

    def make_tma_load(self, operand: str, problem_shape: tuple | None = None) -> Any:
        """The TMA TiledCopy of operand ``"a"`` or ``"b"`` C++'s collective builds in
        ``to_underlying_arguments`` (``make_tma_copy_A_sm90`` / ``make_tma_copy_B_sm90``, or
        ``make_tma_copy`` for ``KernelTma``): the gmem tensor of the collective's internal element
        (``tfloat32_t`` for ``float``, else the unsigned type of its width; the element itself in the
        FP8 collective; A and B exchanged where the RS collective swaps them) over ``(M,K,L)`` /
        ``(N,K,L)`` with run-time extents and the layout tag's stride (run-time but for the unit
        one), ``smem_layout(_,_,0)``, the CTA tile's ``(M,K)`` / ``(N,K)``, multicast over the
        cluster's N (for A) or M (for B).

        Pre:  a TMA collective (else ``CutepyError``); ``problem_shape`` ``(M,N,K,L)`` positive ints
              (default one CTA tile, ``L = 1``), whose gmem rows are whole 16-byte units.
        Post: its type-level parts (``format(x, "cxx")``, ``gbasis``) are C++'s ``TMA_A``/``TMA_B``
              whatever the problem; ``descriptor`` is the one C++ encodes for that problem at address 0.

        >>> from cutepy.builders import collective_builder
        >>> c = collective_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 8, "half_t",
        ...     "ColumnMajor", 8, "float", (128, 128, 64), (1, 2, 1), "auto", "KernelScheduleAuto")
        >>> t = c.tma_load_a
        >>> t.descriptor.box_dim, t.descriptor.swizzle, t.tiler_mn
        ((64, 64, 1), '128B', (128, 64))
        >>> c.make_tma_load("b", (256, 512, 128, 3)).descriptor.global_dim
        (128, 512, 3)
        """
        return _make_tma_load(self, operand, problem_shape)


#: the builders whose collective loads A and B with TMA (their ``Params`` hold ``tma_load_a``/``_b``)
TMA_BUILDERS = ("GMMA_TMA_WS_SS", "GMMA_TMA_WS_RS", "GMMA_TMA_WS_FP8_FAST_ACCUM_SS", "GMMA_TMA_SS")


def _tma_internal_element(c: CollectiveMma, element: str) -> str:
    """The element type the collective's TMA moves (C++'s ``InternalElementA``/``B``)."""
    if c.dispatch_policy.name.endswith("FP8"):  # sm90_mma_tma_gmma_ss_warpspecialized_fp8.hpp
        return element
    if element == "float":
        return "tfloat32_t"
    return f"uint{element_bits(element)}_t"


def _make_tma_load(c: CollectiveMma, operand: str, problem_shape: tuple | None) -> Any:
    if c.builder not in TMA_BUILDERS:
        raise CutepyError(f"make_tma_load: the {c.builder} collective loads with cp.async, not TMA")
    if operand not in ("a", "b"):
        raise CutepyError(f"make_tma_load: operand is 'a' or 'b', not {operand!r}")
    m, n, k = c.tile_shape
    problem = (m, n, k, 1) if problem_shape is None else tuple(problem_shape)
    if len(problem) != 4 or not all(type(x) is int and x > 0 for x in problem):
        raise CutepyError(
            f"make_tma_load: problem_shape is (M,N,K,L) of positive ints, not {problem_shape!r}"
        )
    # the RS collective swaps A and B (element, stride) where it swaps their smem layouts
    ea, eb = (c.element_b, c.element_a) if c.swap_ab else (c.element_a, c.element_b)
    k_major_a, k_major_b = _is_k_major_a(c.layout_a), _is_k_major_b(c.layout_b)
    if c.swap_ab:
        k_major_a, k_major_b = k_major_b, k_major_a
    if operand == "a":
        element, k_major, smem = ea, k_major_a, c.smem_layout_a
        op, extents, tile, mcast = c.gmem_tiled_copy_a, (problem[0], problem[2]), (m, k), c.cluster_shape[1]
    else:
        element, k_major, smem = eb, k_major_b, c.smem_layout_b
        op, extents, tile, mcast = c.gmem_tiled_copy_b, (problem[1], problem[2]), (n, k), c.cluster_shape[0]
    mn, kk = extents
    batch = problem[3]
    # StrideA/StrideB of the layout tag: the unit stride static, the others int64_t (run-time)
    if k_major:
        stride = (dynamic(kk), 1, dynamic(mn * kk))
    else:
        stride = (1, dynamic(mn), dynamic(mn * kk))
    gmem = make_tensor(
        gmem_ptr(_tma_internal_element(c, element), 0),
        Layout((dynamic(mn), dynamic(kk), dynamic(batch)), stride),
    )
    return make_tma_copy(str(op), gmem, smem(None, None, 0), tile, mcast)


def _refuse(rule: str) -> CutepyError:
    return CutepyError(f"collective_builder: {rule}")


def _is_k_major_a(tag: str) -> bool:
    return tag == "RowMajor"


def _is_k_major_b(tag: str) -> bool:
    return tag == "ColumnMajor"


def _bytes(element: str) -> int:
    return max(1, element_bits(element) // 8)  # sizeof(T)


def _is_aligned(ea: str, al_a: int, eb: str, al_b: int, required: int) -> bool:
    return (_bytes(ea) * al_a) % required == 0 and (_bytes(eb) * al_b) % required == 0


def _is_fp8(t: str) -> bool:
    return t in ("float_e4m3_t", "float_e5m2_t")


def is_use_rmem_a(ea: str, la: str, eb: str, lb: str) -> bool:
    """C++ ``detail::is_use_rmem_A``: A goes through registers (an RS GMMA) when A and B differ in
    width, or when they are not both 16-bit and not both K-major (GMMA reads tf32, 8-bit float
    and integer operands from shared memory only K-major)."""
    different = element_bits(ea) != element_bits(eb)
    two_bytes = _bytes(ea) == 2 and _bytes(eb) == 2
    return (not two_bytes and not (_is_k_major_a(la) and _is_k_major_b(lb))) or different


def _mma_element(t: str) -> str:
    return "tfloat32_t" if t == "float" else t


def _ss_major(element_mma: str, mn_major: bool) -> str:
    return "MN" if mn_major and element_mma != "tfloat32_t" and _bytes(element_mma) != 1 else "K"


def _swizzle_alignment(atom: ComposedLayout) -> int:
    """``cutlass::detail::alignment_for_swizzle``: ``1 << (B + M + |S|)`` bytes."""
    parts = composed_parts(atom)
    sw = parts[0] if parts is not None else None
    if sw is None:
        return 1
    return 1 << (sw.bits + sw.base + abs(sw.shift))


def _array_aligned(element: str, count: int, alignment: int = 16) -> tuple[int, int]:
    return round_up(count * _bytes(element), alignment), alignment


def _cosize(layout: ComposedLayout) -> int:
    return _inner(layout).cosize()


def _tile(atom: ComposedLayout, shape: tuple, mn_major: bool | None) -> ComposedLayout:
    """``tile_to_shape(atom, shape[, Step<_2,_1,_3> for an MN-major gmem else Step<_1,_2,_3>])``."""
    if mn_major is None:
        return tile_to_shape(atom, shape)
    return tile_to_shape(atom, shape, (2, 1, 3) if mn_major else (1, 2, 3))


def _check_atom_divides(atom: ComposedLayout, mn: int, k: int) -> None:
    if mn % _size(_inner(atom).shape[0]) != 0 or k % _size(_inner(atom).shape[1]) != 0:
        raise _refuse("SmemLayoutAtom must evenly divide tile shape.")


def _size(x: Any) -> int:
    if isinstance(x, tuple):
        out = 1
        for y in x:
            out *= _size(y)
        return out
    return x


def _simt_gmem_tiled_copy(
    element: str, alignment: int, threads: int, k_major: bool, tile_mn: int, tile_k: int
) -> TiledCopy | CutepyError:
    """C++ ``detail::make_simt_gmem_tiled_copy``: as many threads along the gmem-contiguous mode as
    its extent allows (``alignment`` elements each), the rest across the other mode. A rule it
    breaks is returned (C++ states most of them without words; the builder raises it after the
    rules C++ words, so that a configuration breaking both is refused with the worded rule)."""
    nbytes = _bytes(element) * alignment
    uint = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t", 16: "uint128_t"}.get(nbytes)
    if uint is None or nbytes < 4:
        return _refuse(
            f"cp.async sizeof(TS) is not supported (cp.async copies 4, 8 or 16 bytes per thread, not "
            f"{nbytes}: {alignment} x {element})"
        )
    atom = copy_atom(f"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<{uint}>", element_bits(element))
    major_extent, minor_extent = (tile_k, tile_mn) if k_major else (tile_mn, tile_k)
    threads_major = major_extent // alignment if threads >= major_extent // alignment else threads
    if threads_major <= 0:
        return _refuse(f"make_simt_gmem_tiled_copy: threads_major > 0 ({major_extent} / {alignment})")
    if threads % threads_major != 0:
        return _refuse(
            f"make_simt_gmem_tiled_copy: ThreadCount % threads_major == 0 ({threads} % {threads_major})"
        )
    threads_minor = threads // threads_major
    if threads_minor != 0 and minor_extent % threads_minor != 0:
        return _refuse(
            f"make_simt_gmem_tiled_copy: the tile's {minor_extent} must be a multiple of "
            f"threads_minor = {threads_minor}"
        )
    if k_major:
        return make_tiled_copy(
            atom, Layout((threads_minor, threads_major), (threads_major, 1)), Layout((1, alignment))
        )
    return make_tiled_copy(
        atom, Layout((threads_major, threads_minor), (1, threads_major)), Layout((alignment, 1))
    )


def _resolve_auto(ea: str, al_a: int, eb: str, al_b: int, tile_m: int) -> tuple[str, str]:
    tma_ok = _is_aligned(ea, al_a, eb, al_b, TMA_ALIGNMENT_BYTES)
    if tma_ok:
        s = "KernelTmaWarpSpecializedPingpong" if tile_m == 64 else "KernelTmaWarpSpecializedCooperative"
        why = (
            f"A and B rows are 16-byte aligned, so TMA; CUDA >= 12.1 takes a persistent schedule: "
            f"{'ping-pong for Tile_M = 64' if tile_m == 64 else 'cooperative (Tile_M is not 64)'}"
        )
        return s, why
    return "KernelCpAsyncWarpSpecialized", (
        "A or B is not 16-byte aligned (TMA needs it): cp.async, non-persistent for register pressure"
    )


def collective_builder(
    arch: str,
    op_class: str,
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
) -> CollectiveMma:
    """C++ ``cutlass::gemm::collective::CollectiveBuilder<arch, op_class, ElementA, GmemLayoutATag,
    AlignmentA, ElementB, GmemLayoutBTag, AlignmentB, ElementAccumulator, TileShape_MNK,
    ClusterShape_MNK, StageCountType, KernelScheduleType>::CollectiveOp``, as a value.

    ``stage_count``: ``"auto"`` (``StageCountAuto``), ``("auto", carveout_bytes)``
    (``StageCountAutoCarveout<carveout_bytes>``) or an int (``StageCount<N>``). Layouts are
    ``"RowMajor"`` or ``"ColumnMajor"`` (A is M x K, B is N x K as CUTLASS 3 reads them).

    Pre:  ``arch == "Sm90"``, ``op_class == "OpClassTensorOp"``; A and B have the same width
          (mixed-input builders are not modelled); C++ accepts the configuration (else
          ``CutepyError`` saying the rule its ``static_assert`` states).
    Post: every member equals C++'s (``format(member, "cxx")`` prints what C++ prints).

    >>> c = collective_builder("Sm90", "OpClassTensorOp", "float_e4m3_t", "RowMajor", 16, "float_e4m3_t",
    ...                        "ColumnMajor", 16, "float", (128, 256, 128), (2, 1, 1), "auto",
    ...                        "KernelTmaWarpSpecializedCooperativeFP8FastAccum")
    >>> c.builder, c.stages, c.tiled_mma.atom.name
    ('GMMA_TMA_WS_FP8_FAST_ACCUM_SS', 4, 'SM90_64x256x32_F32E4M3E4M3_SS_TN')
    >>> collective_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 4, "half_t", "ColumnMajor", 8,
    ...                    "float", (128, 128, 64), (1, 1, 1), "auto", "KernelTmaWarpSpecialized")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: collective_builder: Should meet TMA alignment requirement (A and B rows must be ...
    """
    # CUTLASS's sm100_umma_builder.inl and sm120_mma_builder.inl: the same arguments, C++'s spellings kept
    per_arch = {"Sm100": collective_builder_sm100, "Sm120": collective_builder_sm120}
    if op_class == "OpClassTensorOp" and arch in per_arch:
        made = per_arch[arch](element_a, layout_a, alignment_a, element_b, layout_b, alignment_b,
                              element_accumulator, tile_shape, cluster_shape, stage_count, schedule)
        arguments = (arch, op_class, canonical_element(element_a), layout_a, alignment_a,
                     canonical_element(element_b), layout_b, alignment_b,
                     canonical_element(element_accumulator), tile_shape, cluster_shape, stage_count, schedule)
        return replace(made, arguments=arguments)
    if arch != "Sm90":
        raise CutepyError(f"collective_builder: arch 'Sm90', 'Sm100' and 'Sm120' are modelled, not {arch!r}")
    if op_class != "OpClassTensorOp":
        raise CutepyError(
            f"collective_builder: only op_class 'OpClassTensorOp' is modelled, not {op_class!r}"
        )
    ea, eb, acc = (
        canonical_element(element_a),
        canonical_element(element_b),
        canonical_element(element_accumulator),
    )
    for tag in (layout_a, layout_b):
        if tag not in LAYOUT_TAGS:
            raise CutepyError(f"collective_builder: a layout tag is one of {LAYOUT_TAGS}, not {tag!r}")
    for al in (alignment_a, alignment_b):
        if type(al) is not int or al < 1:
            raise CutepyError(f"collective_builder: an alignment is a positive int, not {al!r}")
    if not (
        isinstance(tile_shape, tuple)
        and len(tile_shape) == 3
        and all(type(x) is int and x > 0 for x in tile_shape)
    ):
        raise CutepyError(
            f"collective_builder: TileShape_MNK is three positive static ints, not {tile_shape!r}"
        )
    if not (
        isinstance(cluster_shape, tuple)
        and len(cluster_shape) == 3
        and all(type(x) is int and x > 0 for x in cluster_shape)
    ):
        raise CutepyError(
            f"collective_builder: ClusterShape_MNK is three positive static ints, not {cluster_shape!r}"
        )
    if schedule not in SCHEDULES:
        raise CutepyError(
            f"collective_builder: unknown kernel schedule {schedule!r}; known: {', '.join(SCHEDULES)}"
        )
    if element_bits(ea) != element_bits(eb):
        raise CutepyError(
            "collective_builder: A and B of different widths take CUTLASS's mixed-input builder, "
            "which cutepy does not model"
        )
    compute_stage_count_or_override(
        SM90_SMEM_CAPACITY_BYTES, ea, eb, tile_shape, stage_count
    )  # checks the form
    choices: list[tuple[str, str, str]] = []
    schedule_given = schedule
    if schedule == "KernelScheduleAuto":
        schedule, why = _resolve_auto(ea, alignment_a, eb, alignment_b, tile_shape[0])
        choices.append(("kernel schedule", schedule, why))
    elif schedule == "KernelMultistage":
        schedule = "KernelCpAsyncWarpSpecialized"
        choices.append(
            (
                "kernel schedule",
                schedule,
                "KernelMultistage is deprecated: CUTLASS maps it to KernelCpAsyncWarpSpecialized",
            )
        )
    given = (
        arch,
        op_class,
        ea,
        layout_a,
        alignment_a,
        eb,
        layout_b,
        alignment_b,
        acc,
        tile_shape,
        cluster_shape,
        stage_count,
        schedule_given,
    )
    return replace(
        _build(
            ea,
            layout_a,
            alignment_a,
            eb,
            layout_b,
            alignment_b,
            acc,
            tile_shape,
            cluster_shape,
            stage_count,
            schedule,
            choices,
        ),
        arguments=given,
    )


def _build(
    ea: str,
    layout_a: str,
    alignment_a: int,
    eb: str,
    layout_b: str,
    alignment_b: int,
    acc: str,
    tile_shape: tuple,
    cluster_shape: tuple,
    stage_count: Any,
    schedule: str,
    choices: list,
) -> CollectiveMma:
    rmem = is_use_rmem_a(ea, layout_a, eb, layout_b)
    args = (
        ea,
        layout_a,
        alignment_a,
        eb,
        layout_b,
        alignment_b,
        acc,
        tile_shape,
        cluster_shape,
        stage_count,
        schedule,
        choices,
    )
    if schedule in FP8_FAST_ACCUM:
        return _tma_ws_ss(*args, fp8_fast_accum=True)
    if schedule in TMA_WS:
        return _tma_ws_rs(*args) if rmem else _tma_ws_ss(*args)
    if schedule == "KernelTma":
        if rmem:
            raise _refuse(
                "Could not build a collective for given parameters. (no CollectiveBuilder specialization "
                "takes KernelTma with A in registers: KernelTma reads 16-bit or TN operands from smem only)"
            )
        return _tma_ws_ss(*args, kernel_tma=True)
    return _cp_async_rs(*args) if rmem else _cp_async_ss(*args)


def _pipeline(stages: int) -> tuple[int, int]:
    return 16 * stages, 8


def _storage_bytes(
    builder: str, mma: TiledMMA, smem_a: ComposedLayout, smem_b: ComposedLayout, stages: int
) -> int:
    """``sizeof(CollectiveMma::SharedStorage)``: the staged A and B arrays (aligned as each
    collective aligns them) and the pipeline's two 8-byte barriers per stage."""
    va, vb = mma.atom.element_types[1], mma.atom.element_types[2]
    ca, cb = _cosize(smem_a), _cosize(smem_b)
    if builder == "GMMA_TMA_SS":
        return _struct([_array_aligned(va, ca), _array_aligned(vb, cb), (16 * stages, 16)])[0]
    if builder == "GMMA_TMA_WS_RS":
        al_a, al_b = _swizzle_alignment(smem_a), _swizzle_alignment(smem_b)
        tensors = _struct([_array_aligned(va, ca, al_a), _array_aligned(vb, cb, al_b)], max(al_a, al_b))
    elif builder == "GMMA_CpAsync_WS_RS":
        tensors = _struct([_array_aligned(va, ca, 256), _array_aligned(vb, cb, 256)], 256)
    else:
        tensors = _struct([_array_aligned(va, ca), _array_aligned(vb, cb)], 128)
    return _struct([tensors, _pipeline(stages)])[0]


def _restaged(smem: ComposedLayout, stages: int) -> ComposedLayout:
    """A staged smem layout with ``stages`` stages: the stage mode ``(1,S):(0,d)`` is outermost."""
    sw, off, inner = composed_parts(smem)
    shape, stride = inner.shape, inner.stride
    return ComposedLayout(sw, off, Layout(shape[:2] + ((1, stages),), stride[:2] + ((0, stride[2][1]),)))


def recluster(c: CollectiveMma, cluster_shape: tuple) -> CollectiveMma:
    """The collective ``c`` for another ``ClusterShape_MNK``: the cluster decides only the dispatch
    policy's cluster and which TMA copies multicast (A along the cluster's N, B along its M).

    Pre:  ``cluster_shape`` is three positive ints (else ``CutepyError``).
    Post: equals ``collective_builder(...)`` with ``cluster_shape`` and the rest of ``c``'s arguments.
    """
    if not (
        isinstance(cluster_shape, tuple)
        and len(cluster_shape) == 3
        and all(type(x) is int and x > 0 for x in cluster_shape)
    ):
        raise CutepyError(f"recluster: ClusterShape_MNK is three positive static ints, not {cluster_shape!r}")
    copies = {}
    if isinstance(c.gmem_tiled_copy_a, CopyOp):
        copies = {
            "gmem_tiled_copy_a": _cluster_tma(cluster_shape[1]),
            "gmem_tiled_copy_b": _cluster_tma(cluster_shape[0]),
        }
    arguments = c.arguments[:10] + (cluster_shape,) + c.arguments[11:] if c.arguments else ()
    return replace(
        c,
        cluster_shape=cluster_shape,
        dispatch_policy=replace(c.dispatch_policy, cluster_shape=cluster_shape),
        arguments=arguments,
        **copies,
    )


def restage(c: CollectiveMma, stages: int) -> CollectiveMma:
    """The collective ``c`` with ``stages`` pipeline stages (C++'s ``StageCount<stages>``): the
    same choices, the staged layouts and ``SharedStorage`` grown or shrunk.

    Pre:  ``stages >= 2`` (else ``CutepyError``, as the collective's ``static_assert``).
    Post: equals ``collective_builder(...)`` with ``stage_count=stages`` and the rest of ``c``'s
          arguments.
    """
    if type(stages) is not int or stages < 2:
        raise _refuse(f"Specialization requires Stages set to value 2 or more (it is {stages!r})")
    smem_a, smem_b = _restaged(c.smem_layout_a, stages), _restaged(c.smem_layout_b, stages)
    policy = replace(c.dispatch_policy, stages=stages)
    return replace(
        c,
        dispatch_policy=policy,
        smem_layout_a=smem_a,
        smem_layout_b=smem_b,
        shared_storage_bytes=_storage_bytes(c.builder, c.tiled_mma, smem_a, smem_b, stages),
    )


def _tma_ws_ss(
    ea: str,
    la: str,
    al_a: int,
    eb: str,
    lb: str,
    al_b: int,
    acc: str,
    tile: tuple,
    cluster: tuple,
    stage_count: Any,
    schedule: str,
    choices: list,
    fp8_fast_accum: bool = False,
    kernel_tma: bool = False,
) -> CollectiveMma:
    if fp8_fast_accum:
        if not _is_aligned(ea, al_a, eb, al_b, TMA_ALIGNMENT_BYTES):
            raise _refuse(
                "Not meet TMA alignment requirement yet "
                f"(A and B rows must be 16-byte aligned: {al_a} x {ea}, {al_b} x {eb})"
            )
        if not (_is_fp8(ea) and _is_fp8(eb)):
            raise _refuse(f"Only FP8 datatypes are compatible with these kernel schedules ({ea}, {eb})")
        if is_use_rmem_a(ea, la, eb, lb):
            raise _refuse(
                "Not supported for fp8 non-TN warp specialized kernels yet (A must be RowMajor, "
                "B ColumnMajor)"
            )
        ea_mma, eb_mma = ea, eb
    else:
        if not _is_aligned(ea, al_a, eb, al_b, TMA_ALIGNMENT_BYTES):
            bad = (al_a, ea) if (_bytes(ea) * al_a) % 16 else (al_b, eb)
            raise _refuse(
                "Should meet TMA alignment requirement "
                f"(A and B rows must be 16-byte aligned: {bad[0]} x {bad[1]} is "
                f"{bad[0] * _bytes(bad[1])} bytes)"
            )
        ea_mma, eb_mma = _mma_element(ea), _mma_element(eb)
    maj_a = _ss_major(ea_mma, not _is_k_major_a(la))
    maj_b = _ss_major(eb_mma, not _is_k_major_b(lb))
    choices.append(
        (
            "GMMA majors",
            f"A {maj_a}, B {maj_b}",
            "shared-memory GMMA reads MN-major operands only for 16-bit types",
        )
    )
    cooperative = "Cooperative" in schedule
    atom_layout = Layout((2, 1, 1)) if cooperative and not kernel_tma else Layout((1, 1, 1))
    op = ss_op_selector(ea_mma, eb_mma, acc, tile, maj_a, maj_b)
    mma = make_tiled_mma(op, atom_layout)
    choices.append(
        (
            "MMA",
            op.name,
            f"the widest GMMA N of 256, 192, 128, 96, 64, 32, 16, 8 dividing Tile_N = {tile[1]}; "
            + ("two warp groups along M (cooperative)" if atom_layout.size() == 2 else "one warp group"),
        )
    )
    copy_a, copy_b = _cluster_tma(cluster[1]), _cluster_tma(cluster[0])
    choices.append(
        (
            "gmem copies",
            f"A {copy_a}, B {copy_b}",
            "A is multicast along the cluster's N, B along its M, when that extent is over 1",
        )
    )
    atom_a = ss_smem_selector(maj_a, ea_mma, tile[0], tile[2])
    atom_b = ss_smem_selector(maj_b, eb_mma, tile[1], tile[2])
    choices.append(
        (
            "smem atoms",
            f"A {atom_a}, B {atom_b}",
            "the widest swizzle whose row fits the tile's contiguous extent",
        )
    )
    stages = compute_stage_count_or_override(SM90_SMEM_CAPACITY_BYTES, ea_mma, eb_mma, tile, stage_count)
    choices.append(("stages", str(stages), _stage_words(ea_mma, eb_mma, tile, stage_count, stages, 128)))
    if kernel_tma:
        policy = DispatchPolicy("MainloopSm90TmaGmma", stages, cluster, None, (1,))
        builder = "GMMA_TMA_SS"
    elif fp8_fast_accum:
        policy = DispatchPolicy("MainloopSm90TmaGmmaWarpSpecialized", stages, cluster, schedule)
        builder = "GMMA_TMA_WS_FP8_FAST_ACCUM_SS"
    else:
        fp8 = _is_fp8(ea) and _is_fp8(eb)
        policy = DispatchPolicy(
            "MainloopSm90TmaGmmaWarpSpecializedFP8" if fp8 else "MainloopSm90TmaGmmaWarpSpecialized",
            stages,
            cluster,
            schedule,
        )
        builder = "GMMA_TMA_WS_SS"
    _check_atom_divides(atom_a, tile[0], tile[2])
    _check_atom_divides(atom_b, tile[1], tile[2])
    if stages < 2:  # the KernelTma and FP8 collectives word their (>= 2) assert "1 or more"
        word = 1 if builder == "GMMA_TMA_SS" or policy.name.endswith("FP8") else 2
        raise _refuse(f"Specialization requires Stages set to value {word} or more. (it is {stages})")
    smem_a = _tile(atom_a, (tile[0], tile[2], stages), not _is_k_major_a(la))
    smem_b = _tile(atom_b, (tile[1], tile[2], stages), not _is_k_major_b(lb))
    tma_bytes = None if kernel_tma else _tma_bytes(smem_a, ea) + _tma_bytes(smem_b, eb)
    return _collective(builder, schedule, policy, tile, cluster, (ea, la, eb, lb, acc), mma,
                       (copy_a, copy_b), (atom_a, atom_b), (smem_a, smem_b), stages,
                       tma_bytes=tma_bytes, choices=choices)


def _collective(builder: str, schedule: str, policy: DispatchPolicy, tile: tuple, cluster: tuple,
                types: tuple, mma: TiledMMA, copies: tuple, atoms: tuple, smem: tuple, stages: int, *,
                smem_copy_atoms: tuple = (None, None), tma_bytes: int | None = None, swap: bool = False,
                choices: list) -> CollectiveMma:
    """The collective a builder path made: ``types`` is ``(ElementA, LayoutA, ElementB, LayoutB,
    ElementAccumulator)``, ``copies``/``atoms``/``smem``/``smem_copy_atoms`` the A and B pairs; the
    shared storage is counted here, once for every path."""
    return CollectiveMma(builder, schedule, policy, tile, cluster, *types, mma, *copies, *atoms, *smem,
                         *smem_copy_atoms, _storage_bytes(builder, mma, *smem, stages), tma_bytes, swap,
                         tuple(choices))


def _tma_bytes(smem: ComposedLayout, element: str) -> int:
    shape = _inner(smem).shape
    return -(-_size(shape[0]) * _size(shape[1]) * element_bits(element) // 8)


def _stage_words(ea: str, eb: str, tile: tuple, stage_count: Any, stages: int, alignment: int) -> str:
    if type(stage_count) is int:
        return f"StageCount<{stage_count}> fixes it"
    carve = 0 if stage_count == "auto" else stage_count[1]
    per = stage_bytes(ea, eb, tile, alignment)
    cap = SM90_SMEM_CAPACITY_BYTES // alignment * alignment
    return (
        f"a stage holds a {tile[0]}x{tile[2]} A tile and a {tile[1]}x{tile[2]} B tile, {per} bytes with its "
        f"barriers ({alignment}-byte rounded); "
        f"({cap} - {round_up(carve, alignment)} carveout) // {per} = {stages}"
    )


def _tma_ws_rs(
    ea: str,
    la: str,
    al_a: int,
    eb: str,
    lb: str,
    al_b: int,
    acc: str,
    tile: tuple,
    cluster: tuple,
    stage_count: Any,
    schedule: str,
    choices: list,
) -> CollectiveMma:
    if not _is_aligned(ea, al_a, eb, al_b, TMA_ALIGNMENT_BYTES):
        bad = (al_a, ea) if (_bytes(ea) * al_a) % 16 else (al_b, eb)
        raise _refuse(
            "Should meet TMA alignment requirement "
            f"(A and B rows must be 16-byte aligned: {bad[0]} x {bad[1]} is {bad[0] * _bytes(bad[1])} bytes)"
        )
    maj_a = "K" if _is_k_major_a(la) else "MN"
    maj_b = "K" if _is_k_major_b(lb) else "MN"
    two_bytes = _bytes(ea) == 2 and _bytes(eb) == 2
    swap = not two_bytes and _is_k_major_a(la) and not _is_k_major_b(lb)
    ws_transpose_b = not two_bytes and not _is_k_major_a(la) and not _is_k_major_b(lb)
    ea_mma, eb_mma = _mma_element(ea), _mma_element(eb)
    real_a, real_b = (eb_mma, ea_mma) if swap else (ea_mma, eb_mma)
    choices.append(
        (
            "register-sourced A",
            f"swap A and B: {swap}; transpose B in smem: {ws_transpose_b}",
            "GMMA reads non-16-bit operands K-major only, so A comes through registers",
        )
    )
    atom_layout = Layout((2, 1, 1)) if "Cooperative" in schedule else Layout((1, 1, 1))
    op = rs_op_selector(real_a, real_b, acc, tile, "K", "K")
    mma = make_tiled_mma(op, atom_layout)
    choices.append(("MMA", op.name, f"the widest RS GMMA N dividing Tile_N = {tile[1]}"))
    copy_a, copy_b = _cluster_tma(cluster[1]), _cluster_tma(cluster[0])
    atom_a = rs_smem_selector(maj_a, ea_mma, tile[0], tile[2], ws_transpose_b)
    atom_b = rs_smem_selector(maj_b, eb_mma, tile[1], tile[2], ws_transpose_b)
    choices.append(
        (
            "smem atoms",
            f"A {atom_a}, B {atom_b}",
            "rs_smem_selector: 32-bit MN-major operands take SW32 (free of bank conflicts when transposed)",
        )
    )
    align = max(_swizzle_alignment(atom_a), _swizzle_alignment(atom_b))
    stages = compute_stage_count_or_override(
        SM90_SMEM_CAPACITY_BYTES, ea_mma, eb_mma, tile, stage_count, align
    )
    choices.append(("stages", str(stages), _stage_words(ea_mma, eb_mma, tile, stage_count, stages, align)))
    policy = DispatchPolicy("MainloopSm90TmaGmmaRmemAWarpSpecialized", stages, cluster, schedule)
    copy_atom_a = None if swap else copy_atom("AutoVectorizingCopy", element_bits(ea))
    copy_atom_b = copy_atom("AutoVectorizingCopy", element_bits(eb)) if swap else None
    smem_a, smem_b = _rs_collective_layouts(
        ea, la, eb, lb, tile, stages, atom_a, atom_b, swap, ordered=True, mma_k=op.shape_mnk[2]
    )
    tma_bytes = _tma_bytes(smem_a, eb if swap else ea) + _tma_bytes(smem_b, ea if swap else eb)
    return _collective("GMMA_TMA_WS_RS", schedule, policy, tile, cluster, (ea, la, eb, lb, acc), mma,
                       (copy_a, copy_b), (atom_a, atom_b), (smem_a, smem_b), stages,
                       smem_copy_atoms=(copy_atom_a, copy_atom_b), tma_bytes=tma_bytes, swap=swap,
                       choices=choices)


def _rs_collective_layouts(
    ea: str,
    la: str,
    eb: str,
    lb: str,
    tile: tuple,
    stages: int,
    atom_a: ComposedLayout,
    atom_b: ComposedLayout,
    swap: bool,
    ordered: bool,
    mma_k: int = 0,
) -> tuple[ComposedLayout, ComposedLayout]:
    """The RS collectives' staged layouts (with their static_asserts): A and B swap when A is
    K-major and B MN-major; B is transposed in smem when both are MN-major (not 16-bit)."""
    two_bytes = _bytes(ea) == 2 and _bytes(eb) == 2
    int_atom_a, int_atom_b = (atom_b, atom_a) if swap else (atom_a, atom_b)
    int_elem_b = ea if swap else eb
    if (
        tile[0] % _size(_inner(int_atom_a).shape[0])
        or tile[2] % _size(_inner(int_atom_a).shape[1])
        or tile[1] % _size(_inner(int_atom_b).shape[0])
        or tile[2] % _size(_inner(int_atom_b).shape[1])
    ):
        raise _refuse("SmemLayoutAtom must evenly divide tile shape.")
    if stages < 2:
        raise _refuse(f"Specialization requires Stages set to value 2 or more. (it is {stages})")
    mn_a = (not _is_k_major_b(lb)) if swap else (not _is_k_major_a(la))
    mn_b = (not _is_k_major_a(la)) if swap else (not _is_k_major_b(lb))
    smem_a = _tile(int_atom_a, (tile[0], tile[2], stages), mn_a if ordered else None)
    smem_b = _tile(int_atom_b, (tile[1], tile[2], stages), mn_b if ordered else None)
    transpose_b = not two_bytes and not _is_k_major_a(la) and not _is_k_major_b(lb)
    bits = element_bits(int_elem_b)
    universal = bits in (8, 32) and (
        (int_atom_b != gmma_smem_layout("MN", 128, bits))
        if bits == 8
        else int_atom_b in (gmma_smem_layout("MN", 64, bits), gmma_smem_layout("MN", 0, bits))
    )
    if transpose_b and _size(_inner(smem_b).shape[1]) * bits // 8 != 128:
        raise _refuse(
            "SmemLayoutB K must be 128bytes to be transposed. "
            f"(Tile_K = {tile[2]} of {int_elem_b} is {tile[2] * bits // 8} bytes)"
        )
    # the cp.async collective asserts this whether or not it transposes B; the TMA one when it does
    if universal and (transpose_b or not ordered):
        raise _refuse(
            "Warp specialized ARF kernels have not supported universal B transposition yet. "
            f"(B's smem atom {int_atom_b} would need the universal transposition)"
        )
    if transpose_b:
        _check_async_transposition(int_elem_b, tile, mma_k)
    return smem_a, smem_b


def _check_async_transposition(element_b: str, tile: tuple, mma_k: int) -> None:
    """The static_asserts of ``AsyncTranspositionOperandB`` (``sm90_wgmma_transpose.hpp``): B's
    smem tile is transposed by warps, each on 16-byte rows, a warp group's tile spanning Tile_K."""
    nbytes = _bytes(element_b)
    thread_n = 16 // nbytes
    thread_k = 32 // thread_n
    steps = 8 if nbytes == 1 else 2
    warp_tile = tile[2] // (4 * (2 if steps == 8 else 1))
    if not (warp_tile >= thread_n and warp_tile >= thread_k):
        raise _refuse(
            f"Invalid warp thread shape. (a warp's tile of {warp_tile} is below {thread_n} x {thread_k})"
        )
    if tile[1] % tile[2] != 0:
        raise _refuse(f"Copy size must evenly divide SMEM tile. (Tile_N = {tile[1]} by Tile_K = {tile[2]})")
    if nbytes != 1 and mma_k > thread_k:
        raise _refuse("Need to be able to transpose first k-block in the first step")


def _cp_async_common(ea: str, al_a: int, eb: str, al_b: int) -> None:
    if not _is_aligned(ea, al_a, eb, al_b, CP_ASYNC_MIN_ALIGNMENT_BYTES):
        raise _refuse(f"Minimum alignment required for cp.async is 4B. ({al_a} x {ea}, {al_b} x {eb})")


def _cp_async_atom_layout(schedule: str, tile_m: int) -> Layout:
    if schedule == "KernelCpAsyncWarpSpecializedCooperative":
        return Layout((1 if tile_m < 128 else 2, 1, 1))
    return Layout((1, 1, 1))


def _cp_async_ss(
    ea: str,
    la: str,
    al_a: int,
    eb: str,
    lb: str,
    al_b: int,
    acc: str,
    tile: tuple,
    cluster: tuple,
    stage_count: Any,
    schedule: str,
    choices: list,
) -> CollectiveMma:
    ea_mma, eb_mma = _mma_element(ea), _mma_element(eb)
    _cp_async_common(ea, al_a, eb, al_b)
    maj_a = _ss_major(ea, not _is_k_major_a(la))
    maj_b = _ss_major(eb, not _is_k_major_b(lb))
    op = ss_op_selector(ea_mma, eb_mma, acc, tile, maj_a, maj_b)
    mma = make_tiled_mma(op, _cp_async_atom_layout(schedule, tile[0]))
    choices.append(("MMA", op.name, f"the widest GMMA N dividing Tile_N = {tile[1]}"))
    load_wgs = 2 if schedule == "KernelCpAsyncWarpSpecialized" else 1
    copy_a = _simt_gmem_tiled_copy(
        ea, al_a, THREADS_PER_WARP_GROUP * load_wgs, _is_k_major_a(la), tile[0], tile[2]
    )
    copy_b = _simt_gmem_tiled_copy(
        eb, al_b, THREADS_PER_WARP_GROUP * load_wgs, _is_k_major_b(lb), tile[1], tile[2]
    )
    choices.append(
        (
            "gmem copies",
            "cp.async tiled copies",
            f"{THREADS_PER_WARP_GROUP * load_wgs} producer threads, as many along the contiguous mode as fit",
        )
    )
    atom_a = ss_smem_selector(maj_a, ea_mma, tile[0], tile[2])
    atom_b = ss_smem_selector(maj_b, eb_mma, tile[1], tile[2])
    stages = compute_stage_count_or_override(SM90_SMEM_CAPACITY_BYTES, ea_mma, eb_mma, tile, stage_count)
    choices.append(("stages", str(stages), _stage_words(ea_mma, eb_mma, tile, stage_count, stages, 128)))
    policy = DispatchPolicy("MainloopSm90CpAsyncGmmaWarpSpecialized", stages, cluster, schedule)
    _check_atom_divides(atom_a, tile[0], tile[2])
    _check_atom_divides(atom_b, tile[1], tile[2])
    if stages < 2:
        raise _refuse(f"Specialization requires Stages set to value 2 or more. (it is {stages})")
    smem_a = _tile(atom_a, (tile[0], tile[2], stages), None)
    smem_b = _tile(atom_b, (tile[1], tile[2], stages), None)
    for broken in (copy_a, copy_b):
        if isinstance(broken, CutepyError):
            raise broken
    return _collective("GMMA_CpAsync_WS_SS", schedule, policy, tile, cluster, (ea, la, eb, lb, acc), mma,
                       (copy_a, copy_b), (atom_a, atom_b), (smem_a, smem_b), stages,
                       choices=choices)


def _cp_async_rs(
    ea: str,
    la: str,
    al_a: int,
    eb: str,
    lb: str,
    al_b: int,
    acc: str,
    tile: tuple,
    cluster: tuple,
    stage_count: Any,
    schedule: str,
    choices: list,
) -> CollectiveMma:
    ea_mma, eb_mma = _mma_element(ea), _mma_element(eb)
    _cp_async_common(ea, al_a, eb, al_b)
    maj_a = "K" if _is_k_major_a(la) else "MN"
    maj_b = "K" if _is_k_major_b(lb) else "MN"
    two_bytes = _bytes(ea) == 2 and _bytes(eb) == 2
    swap = not two_bytes and _is_k_major_a(la) and not _is_k_major_b(lb)
    ws_transpose_b = not two_bytes and not _is_k_major_a(la) and not _is_k_major_b(lb)
    op = rs_op_selector(ea_mma, eb_mma, acc, tile, "K", "K")
    mma = make_tiled_mma(op, _cp_async_atom_layout(schedule, tile[0]))
    copy_a = _simt_gmem_tiled_copy(ea, al_a, THREADS_PER_WARP_GROUP, _is_k_major_a(la), tile[0], tile[2])
    copy_b = _simt_gmem_tiled_copy(eb, al_b, THREADS_PER_WARP_GROUP, _is_k_major_b(lb), tile[1], tile[2])
    atom_a = rs_smem_selector(maj_a, ea_mma, tile[0], tile[2], ws_transpose_b)
    atom_b = rs_smem_selector(maj_b, eb_mma, tile[1], tile[2], ws_transpose_b)
    stages = compute_stage_count_or_override(SM90_SMEM_CAPACITY_BYTES, ea_mma, eb_mma, tile, stage_count)
    choices.append(("stages", str(stages), _stage_words(ea_mma, eb_mma, tile, stage_count, stages, 128)))
    policy = DispatchPolicy("MainloopSm90CpAsyncGmmaRmemAWarpSpecialized", stages, cluster, schedule)
    copy_atom_a = None if swap else copy_atom("AutoVectorizingCopy", element_bits(ea))
    copy_atom_b = copy_atom("AutoVectorizingCopy", element_bits(eb)) if swap else None
    smem_a, smem_b = _rs_collective_layouts(
        ea, la, eb, lb, tile, stages, atom_a, atom_b, swap, ordered=False, mma_k=op.shape_mnk[2]
    )
    for broken in (copy_a, copy_b):
        if isinstance(broken, CutepyError):
            raise broken
    return _collective("GMMA_CpAsync_WS_RS", schedule, policy, tile, cluster, (ea, la, eb, lb, acc), mma,
                       (copy_a, copy_b), (atom_a, atom_b), (smem_a, smem_b), stages,
                       smem_copy_atoms=(copy_atom_a, copy_atom_b), swap=swap, choices=choices)
