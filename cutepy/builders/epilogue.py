"""CUTLASS's SM90 epilogue CollectiveBuilder (``epilogue/collective/builders/sm90_builder.inl``,
CUTLASS 4.7) in Python, for the default fusion (``LinearCombination``, D = alpha * acc + beta * C):
the epilogue tile, the dispatch policy's stages, the smem layouts and copy atoms of C and D.

Layered above :mod:`cutepy.builders.selectors` (the smem atoms are the GEMM's
``ss_smem_selector``). ``EpilogueScheduleAuto`` picks ``NoSmemWarpSpecialized`` (no shared
memory); ``TmaWarpSpecialized`` and ``TmaWarpSpecializedCooperative`` stage C and D through
shared memory with TMA.

>>> e = epilogue_builder("Sm90", "OpClassTensorOp", (128, 128, 64), (1, 2, 1), "EpilogueTileAuto",
...                      "float", "float", "half_t", "RowMajor", 8, "half_t", "RowMajor", 8,
...                      "TmaWarpSpecializedCooperative")
>>> e.epilogue_tile, str(e.dispatch_policy)
((128, 32), 'Sm90TmaWarpSpecialized<4,2,16,true,false>')
>>> e.smem_layout_c
Sw<2,4,3> o smem_ptr[16b](unset) o ((8,16),(32,1),(1,4)):((32,256),(1,0),(0,4096))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd
from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..algebra.products import tile_to_shape
from ..core.errors import CutepyError
from ..kernels.atoms.copy import CopyAtom, copy_atom
from ..kernels.pointer import element_bits
from .selectors import canonical_element, round_up, ss_smem_selector
from .sm90 import LAYOUT_TAGS, CopyOp, _struct

__all__ = ["CollectiveEpilogue", "EpilogueDispatchPolicy", "epilogue_builder"]

EPILOGUE_SCHEDULES = (
    "EpilogueScheduleAuto",
    "NoSmemWarpSpecialized",
    "TmaWarpSpecialized",
    "TmaWarpSpecializedCooperative",
)


@dataclass(frozen=True)
class EpilogueDispatchPolicy:
    """``Sm90TmaWarpSpecialized<StagesC, StagesD, FragmentSize, ReuseSmemC, DelayTmaStore>``.

    >>> format(EpilogueDispatchPolicy(4, 2, 16, True, False), "cxx")
    'cutlass::epilogue::Sm90TmaWarpSpecialized<4, 2, 16, true, false>'
    """

    stages_c: int
    stages_d: int
    fragment_size: int
    reuse_smem_c: bool
    delay_tma_store: bool

    def _args(self) -> list[str]:
        return [
            str(self.stages_c),
            str(self.stages_d),
            str(self.fragment_size),
            str(self.reuse_smem_c).lower(),
            str(self.delay_tma_store).lower(),
        ]

    def __str__(self) -> str:
        return f"Sm90TmaWarpSpecialized<{','.join(self._args())}>"

    def __format__(self, spec: str) -> str:
        if spec == "cxx":
            return f"cutlass::epilogue::Sm90TmaWarpSpecialized<{', '.join(self._args())}>"
        return format(str(self), spec)


@dataclass(frozen=True)
class CollectiveEpilogue:
    """What the epilogue ``CollectiveBuilder<...>::CollectiveOp`` is, member by member (C++'s
    names in snake case). For ``NoSmemWarpSpecialized`` only ``schedule`` and
    ``shared_storage_bytes`` (0: no shared memory) are set; the rest is ``None``.
    """

    schedule: str
    tile_shape: tuple
    element_c: str | None
    element_d: str
    epilogue_tile: tuple | None = None
    dispatch_policy: EpilogueDispatchPolicy | None = None
    smem_layout_atom_c: ComposedLayout | None = None
    smem_layout_atom_d: ComposedLayout | None = None
    smem_layout_c: ComposedLayout | None = None
    smem_layout_d: ComposedLayout | None = None
    copy_op_g2s: CopyOp | None = None
    copy_op_s2r: CopyOp | None = None
    copy_op_s2g: CopyOp | None = None
    copy_op_r2s: CopyOp | None = None
    copy_atom_c: CopyAtom | None = None
    shared_storage_bytes: int = 0
    tma_transaction_bytes: int | None = None
    choices: tuple = field(default=(), compare=False, repr=False)

    def members(self) -> dict[str, Any]:
        """The members C++'s collective has, by their snake-case names."""
        if self.dispatch_policy is None:
            return {"shared_storage_bytes": self.shared_storage_bytes}
        return {
            "dispatch_policy": self.dispatch_policy,
            "epilogue_tile": self.epilogue_tile,
            "smem_layout_atom_c": self.smem_layout_atom_c,
            "smem_layout_atom_d": self.smem_layout_atom_d,
            "smem_layout_c": self.smem_layout_c,
            "smem_layout_d": self.smem_layout_d,
            "copy_op_g2s": self.copy_op_g2s,
            "copy_op_s2r": self.copy_op_s2r,
            "copy_op_s2g": self.copy_op_s2g,
            "copy_op_r2s": self.copy_op_r2s,
            "copy_atom_c": self.copy_atom_c,
            "shared_storage_bytes": self.shared_storage_bytes,
            "tma_transaction_bytes": self.tma_transaction_bytes,
        }


def _refuse(rule: str) -> CutepyError:
    return CutepyError(f"epilogue_builder: {rule}")


def _bits(t: str | None) -> int:
    return 0 if t is None else element_bits(t)


def _smem_store_op(layout: str, element: str, epi_n: int) -> str | None:
    """``detail::sm90_get_smem_store_op_for_accumulator``: stmatrix for 16-bit D (transposed for a
    column-major D), else an auto-vectorizing store; None where C++'s function returns void."""
    if _bits(element) == 16 and layout == "ColumnMajor":
        return "SM90_U16x8_STSM_T" if epi_n % 16 == 0 else "SM90_U16x4_STSM_T" if epi_n % 8 == 0 else None
    if _bits(element) == 16 and layout == "RowMajor":
        return "SM90_U32x4_STSM_N" if epi_n % 16 == 0 else "SM90_U32x2_STSM_N" if epi_n % 8 == 0 else None
    return "AutoVectorizingCopyWithAssumedAlignment<128>"


_LOAD_OF_STORE = {
    "SM90_U16x8_STSM_T": "SM75_U16x8_LDSM_T",
    "SM90_U16x4_STSM_T": "SM75_U16x4_LDSM_T",
    "SM90_U32x4_STSM_N": "SM75_U32x4_LDSM_N",
    "SM90_U32x2_STSM_N": "SM75_U32x2_LDSM_N",
}


def _smem_load_op(layout: str, element: str, epi_n: int) -> str:
    """``detail::sm90_get_smem_load_op_for_source``: the ldmatrix matching the store selector's
    stmatrix, else an auto-vectorizing load."""
    return _LOAD_OF_STORE.get(
        _smem_store_op(layout, element, epi_n) or "", "AutoVectorizingCopyWithAssumedAlignment<128>"
    )


def _smem_atom(layout: str, element: str, epi: tuple) -> ComposedLayout:
    """``detail::sm90_get_epilogue_smem_swizzle_layout_atom``: a column-major C/D is MN-major."""
    return ss_smem_selector("MN" if layout == "ColumnMajor" else "K", element, epi[0], epi[1])


def _alignment(atom: ComposedLayout) -> int:
    sw = composed_parts(atom)[0]
    return 1 << (sw.bits + sw.base + abs(sw.shift))


def _epilogue_tile(element_d: str, epilogue_tile: Any, cooperative: bool, tile: tuple) -> tuple[tuple, str]:
    if epilogue_tile == "EpilogueTileAuto":
        if cooperative:
            epi = (min(128, tile[0]), gcd(min(32, tile[1]), tile[1]))
            return epi, "cooperative: up to 128 rows (both warp groups) by up to 32 columns"
        n_perf = 64 if _bits(element_d) == 8 and tile[1] % 64 == 0 else 32
        epi = (min(64, tile[0]), gcd(min(n_perf, tile[1]), tile[1]))
        return epi, f"one warp group: up to 64 rows by up to {n_perf} columns"
    if not (
        isinstance(epilogue_tile, tuple)
        and len(epilogue_tile) == 2
        and all(type(x) is int and x > 0 for x in epilogue_tile)
    ):
        raise CutepyError(
            f"epilogue_builder: epilogue_tile is 'EpilogueTileAuto' or (M, N), not {epilogue_tile!r}"
        )
    m, n = epilogue_tile
    if not ((m == 64 and not cooperative) or (m == 128 and cooperative)):
        raise _refuse(
            f"Unsupported tile shape (an epilogue tile has 64 rows for TmaWarpSpecialized, 128 for "
            f"TmaWarpSpecializedCooperative; it has {m})"
        )
    if n % 16 != 0:
        raise _refuse(f"Unsupported tile shape (the epilogue tile's N must be a multiple of 16; it is {n})")
    return epilogue_tile, "given"


def epilogue_builder(
    arch: str,
    op_class: str,
    tile_shape: tuple,
    cluster_shape: tuple,
    epilogue_tile: Any,
    element_accumulator: str,
    element_compute: str,
    element_c: str,
    layout_c: str,
    alignment_c: int,
    element_d: str,
    layout_d: str,
    alignment_d: int,
    schedule: str,
    fusion: Any = None,
) -> CollectiveEpilogue:
    """C++ ``cutlass::epilogue::collective::CollectiveBuilder<arch, op_class, TileShape_MNK,
    ClusterShape_MNK, EpilogueTileType, ElementAccumulator, ElementCompute, ElementC,
    GmemLayoutTagC, AlignmentC, ElementD, GmemLayoutTagD, AlignmentD, Schedule>::CollectiveOp``
    with the default fusion ``LinearCombination<D, Compute, C, Compute>``, as a value.

    ``element_c`` may be ``"void"`` (no source: D = alpha * acc). ``epilogue_tile`` is
    ``"EpilogueTileAuto"`` or an ``(M, N)`` tuple.

    Pre:  ``arch == "Sm90"``; ``fusion`` is None (the default linear combination); C++ accepts the
          configuration (else ``CutepyError`` naming the rule).
    Post: every member equals C++'s.

    >>> epilogue_builder("Sm90", "OpClassTensorOp", (128, 128, 64), (1, 1, 1), "EpilogueTileAuto",
    ...                  "float", "float", "half_t", "RowMajor", 4, "half_t", "RowMajor", 8,
    ...                  "TmaWarpSpecialized")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: epilogue_builder: C/D Should meet TMA alignment requirement (4 x half_t ...
    """
    if arch != "Sm90":
        raise CutepyError(f"epilogue_builder: only arch 'Sm90' is modelled, not {arch!r}")
    if op_class != "OpClassTensorOp":
        raise CutepyError(f"epilogue_builder: only op_class 'OpClassTensorOp' is modelled, not {op_class!r}")
    if fusion is not None:
        raise CutepyError(
            "epilogue_builder: only the default fusion (LinearCombination) is modelled; pass fusion=None"
        )
    if schedule not in EPILOGUE_SCHEDULES:
        raise CutepyError(
            f"epilogue_builder: unknown schedule {schedule!r}; known: {', '.join(EPILOGUE_SCHEDULES)}"
        )
    for tag in (layout_c, layout_d):
        if tag not in LAYOUT_TAGS:
            raise CutepyError(f"epilogue_builder: a layout tag is one of {LAYOUT_TAGS}, not {tag!r}")
    if not (
        isinstance(tile_shape, tuple)
        and len(tile_shape) == 3
        and all(type(x) is int and x > 0 for x in tile_shape)
    ):
        raise CutepyError(
            f"epilogue_builder: TileShape_MNK is three positive static ints, not {tile_shape!r}"
        )
    c = None if element_c == "void" else canonical_element(element_c)
    d = canonical_element(element_d)
    canonical_element(element_accumulator), canonical_element(element_compute)
    if schedule in ("EpilogueScheduleAuto", "NoSmemWarpSpecialized"):
        why = (
            "EpilogueScheduleAuto picks NoSmemWarpSpecialized: registers straight to gmem (TMA epilogues "
            "do not work with every mainloop)"
        )
        return CollectiveEpilogue(
            "NoSmemWarpSpecialized",
            tile_shape,
            c,
            d,
            shared_storage_bytes=1,
            choices=(("schedule", "NoSmemWarpSpecialized", why),),
        )
    cooperative = schedule == "TmaWarpSpecializedCooperative"
    choices: list[tuple[str, str, str]] = []
    epi, why = _epilogue_tile(d, epilogue_tile, cooperative, tile_shape)
    choices.append(("epilogue tile", str(epi), why))
    epi_tiles = (tile_shape[0] // epi[0]) * (tile_shape[1] // epi[1])
    fragment = epi[0] * epi[1] // (256 if cooperative else 128)
    reuse = _bits(c) == _bits(d) and _bits(d) > 8
    delay = c is None
    stages_d = min(epi_tiles, 2)
    stages_c = max(min(epi_tiles, 4), stages_d + 1) if reuse else min(epi_tiles, 4)
    policy = EpilogueDispatchPolicy(stages_c, stages_d, fragment, reuse, delay)
    choices.append(
        (
            "stages",
            f"C {stages_c}, D {stages_d}",
            f"{epi_tiles} epilogue tiles per CTA tile; D double-buffers (at most 2), C loads up to 4 ahead"
            + ("; C and D share smem (same width over 8 bits), so C keeps one more stage" if reuse else ""),
        )
    )
    for e, al in ((c, alignment_c), (d, alignment_d)):
        if e is not None and (_bits(e) * al) % (768 if _bits(e) == 6 else 128) != 0:
            raise _refuse(
                f"C/D Should meet TMA alignment requirement ({al} x {e} is {_bits(e) * al} bits; "
                f"TMA needs a multiple of 128)"
            )
    if epi[1] % 16 == 0:
        copy_c = copy_atom("SM90_U32x4_STSM_N", 16)
    elif epi[1] % 8 == 0:
        copy_c = copy_atom("SM90_U32x2_STSM_N", 16)
    else:
        raise _refuse(
            "CopyAtomC can't be void, divisiblity check for EpilogueTile_MN failed "
            f"(the epilogue tile's N = {epi[1]} is not a multiple of 8)"
        )
    c_elem, c_layout = (c, layout_c) if c is not None else (d, layout_d)
    atom_c = _smem_atom(c_layout, c_elem, epi)
    atom_d = _smem_atom(layout_d, d, epi)
    load_op, store_op = _smem_load_op(c_layout, c_elem, epi[1]), _smem_store_op(layout_d, d, epi[1])
    if store_op is None:
        raise _refuse(f"no smem store op for a 16-bit D with an epilogue tile N of {epi[1]}")
    choices.append(
        (
            "smem copies",
            f"C {load_op}, D {store_op}",
            "ldmatrix/stmatrix for 16-bit C and D, transposed when column-major",
        )
    )
    if tile_shape[0] % epi[0]:
        raise _refuse("EPI_TILE_M must divide CTA_M")
    if tile_shape[1] % epi[1]:
        raise _refuse("EPI_TILE_N must divide CTA_N")
    reuse_c = reuse  # ReuseSmemC and is_destination_supported (D is never void here)
    smem_c = tile_to_shape(
        atom_c, (epi[0], epi[1], stages_c), (2, 1, 3) if c_layout == "ColumnMajor" else (1, 2, 3)
    )
    smem_d = tile_to_shape(
        atom_d,
        (epi[0], epi[1], stages_c if reuse_c else stages_d),
        (2, 1, 3) if layout_d == "ColumnMajor" else (1, 2, 3),
    )
    cos_c, cos_d = composed_parts(smem_c)[2].cosize(), composed_parts(smem_d)[2].cosize()
    tile_cos_c = epi[0] * epi[1]
    if reuse_c and not (c is not None and stages_d <= stages_c and cos_c // stages_c == cos_d // (stages_c)):
        raise _refuse("Smem reuse requirements not met")
    al_c, al_d = _alignment(smem_c), _alignment(smem_d)
    bytes_c, bytes_d = cos_c * _bits(c_elem) // 8, cos_d * _bits(d) // 8
    if c is None:
        collective = (round_up(bytes_d, al_d), al_d)  # a union with an empty array of C
    elif reuse_c:
        a = max(al_c, al_d)
        collective = (round_up(max(bytes_c, bytes_d), a), a)
    else:
        collective = _struct([(bytes_c, al_c), (bytes_d, al_d)])
    tensors = _struct([collective, (1, 1)])  # the linear combination's (empty) fusion storage
    storage, _ = _struct([tensors, (16 * stages_c, 8)])
    tma_bytes = tile_cos_c * _bits(c_elem) // 8
    return CollectiveEpilogue(
        schedule,
        tile_shape,
        c,
        d,
        epi,
        policy,
        atom_c,
        atom_d,
        smem_c,
        smem_d,
        CopyOp("SM90_TMA_LOAD"),
        CopyOp(load_op),
        CopyOp("SM90_TMA_STORE"),
        CopyOp(store_op),
        copy_c,
        storage,
        tma_bytes,
        tuple(choices),
    )
