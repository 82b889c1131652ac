"""CUTLASS's SM90 GMMA selectors: which shared-memory layout atom and which GMMA instruction a
CollectiveBuilder picks for a tile, and how many pipeline stages fit in shared memory.

Layered above ``kernels/`` (atoms, TiledMMA): each selector is C++'s function of the same name
(``cutlass/gemm/collective/builders/sm90_common.inl``, ``sm90_gmma_builder.inl`` and
``cute/arch/mma_sm90.hpp``, CUTLASS 4.7) written as a short rule over cutepy values; where C++
``static_assert``s, the selector raises a :class:`~cutepy.CutepyError` saying the same rule.

>>> ss_smem_selector("K", "half_t", 128, 64)
Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
>>> ss_op_selector("half_t", "half_t", "float", (128, 128, 64)).name
'SM90_64x128x16_F32F16F16_SS<K,K>'
>>> compute_stage_count_or_override(232448, "half_t", "half_t", (128, 128, 64), "auto")
7
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..core.errors import CutepyError
from ..kernels.atoms.mma import MMAAtom, mma_atom
from ..kernels.atoms.smem import gmma_smem_layout
from ..kernels.pointer import element_bits
from ..xla.padding import round_up

__all__ = [
    "compute_stage_count_or_override",
    "rs_op_selector",
    "rs_smem_selector",
    "ss_op_selector",
    "ss_smem_selector",
]

#: bytes of shared memory an SM90 CTA may use (``detail::sm90_smem_capacity_bytes``)
SM90_SMEM_CAPACITY_BYTES = 232448
#: ``sizeof(PipelineTmaAsync<1>::SharedStorage)``: one full and one empty barrier of 8 bytes
PIPELINE_BYTES_PER_STAGE = 16

#: swizzle widths the selectors try, widest first (0 is INTER, no swizzle)
_WIDTHS = (128, 64, 32, 0)

#: (accumulator, A, B) -> (the instruction's type code, K of one instruction, K-major only)
GMMA_TYPES: dict[tuple[str, str, str], tuple[str, int, bool]] = {
    ("half_t", "half_t", "half_t"): ("F16F16F16", 16, False),
    ("float", "half_t", "half_t"): ("F32F16F16", 16, False),
    ("float", "bfloat16_t", "bfloat16_t"): ("F32BF16BF16", 16, False),
    ("float", "tfloat32_t", "tfloat32_t"): ("F32TF32TF32", 8, True),
    ("int32_t", "int8_t", "int8_t"): ("S32S8S8", 32, True),
    ("int32_t", "int8_t", "uint8_t"): ("S32S8U8", 32, True),
    ("int32_t", "uint8_t", "int8_t"): ("S32U8S8", 32, True),
    ("int32_t", "uint8_t", "uint8_t"): ("S32U8U8", 32, True),
}
for _c, _cc in (("half_t", "F16"), ("float", "F32")):
    for _a, _ac in (("float_e4m3_t", "E4M3"), ("float_e5m2_t", "E5M2")):
        for _b, _bc in (("float_e4m3_t", "E4M3"), ("float_e5m2_t", "E5M2")):
            GMMA_TYPES[(_c, _a, _b)] = (f"{_cc}{_ac}{_bc}", 32, True)

#: the instruction widths N the selectors try, widest first (CUTLASS's default set; the extended
#: shapes of ``CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED`` are off by default)
GMMA_N = (256, 192, 128, 96, 64, 32, 16, 8)


def _inner(x: Any) -> Any:
    """The layout under a composed layout's swizzle (the layout itself otherwise)."""
    parts = composed_parts(x)
    return parts[2] if parts is not None else x


def canonical_element(name: str) -> str:
    """A C++ element type name without its namespace (``cutlass::half_t`` -> ``half_t``)."""
    if not isinstance(name, str):
        raise CutepyError(f"an element type is named by its C++ name (a str), not {name!r}")
    out = name.replace(" ", "")
    for prefix in ("cute::", "cutlass::", "std::"):
        out = out.replace(prefix, "")
    element_bits(out)  # refuses an unknown name
    return out


def _major(major: str) -> str:
    m = major.replace("GMMA::Major::", "")
    if m not in ("K", "MN"):
        raise CutepyError(f"a GMMA major is 'K' or 'MN', not {major!r}")
    return m


def _first(x: Any) -> int:
    """``size<0>(x)``: an int, or the first mode of a hierarchical extent."""
    while isinstance(x, tuple):
        x = x[0]
    return x


def _size(x: Any) -> int:
    if isinstance(x, tuple):
        out = 1
        for y in x:
            out *= _size(y)
        return out
    return x


def _check_multiple_of_8(blk_mn0: int, blk_k0: int, where: str) -> None:
    if blk_mn0 % 8 != 0:
        raise CutepyError(f"{where}: BLK_MN0 must be a multiple of 8. (it is {blk_mn0})")
    if blk_k0 % 8 != 0:
        raise CutepyError(f"{where}: BLK_K0 must be a multiple of 8. (it is {blk_k0})")


def ss_smem_selector(major: str, element: str, blk_mn: Any, blk_k: Any) -> ComposedLayout:
    """C++ ``detail::ss_smem_selector<major, T, BLK_MN, BLK_K>()``: the widest GMMA shared-memory
    layout atom (``GMMA::Layout_{major}_{SW128,SW64,SW32,INTER}_Atom<T>``) whose extent along the
    operand's contiguous mode divides the tile's.

    Pre:  ``size<0>(blk_mn)`` and ``size<0>(blk_k)`` are multiples of 8; some atom fits (else
          ``CutepyError`` naming the rule, as C++'s ``static_assert``).
    Post: an MN-major atom's ``size<0>`` divides ``size<0>(blk_mn)`` (INTER: ``size(blk_mn)``);
          a K-major atom's ``size<1>`` divides ``size<0>(blk_k)``.

    >>> ss_smem_selector("MN", "half_t", 64, 64)
    Sw<3,4,3> o smem_ptr[16b](unset) o (64,8):(1,64)
    >>> ss_smem_selector("K", "float_e4m3_t", 128, 32)
    Sw<1,4,3> o smem_ptr[8b](unset) o (8,32):(32,1)
    """
    m, t = _major(major), canonical_element(element)
    mn0, k0 = _first(blk_mn), _first(blk_k)
    _check_multiple_of_8(mn0, k0, "ss_smem_selector")
    for w in _WIDTHS:
        atom = gmma_smem_layout(m, w, t)
        if m == "MN":
            extent = _size(blk_mn) if w == 0 else mn0  # C++'s INTER fallback reads size(BLK_MN)
            if extent % _size(_inner(atom).shape[0]) == 0:
                return atom
        elif k0 % _size(_inner(atom).shape[1]) == 0:
            return atom
    if m == "MN":
        raise CutepyError(
            "ss_smem_selector: BLK_MN must be a multiple of "
            "size<0>(GMMA::Layout_MN_INTER_Atom<ElementType>{})"
            f" ({t}: {_size(_inner(gmma_smem_layout(m, 0, t)).shape[0])}; BLK_MN is {_size(blk_mn)})"
        )
    raise CutepyError(
        "ss_smem_selector: BLK_K0 must be a multiple of size<1>(GMMA::Layout_K_INTER_Atom<ElementType>{})"
        f" ({t}: {_size(_inner(gmma_smem_layout(m, 0, t)).shape[1])}; BLK_K0 is {k0})"
    )


def rs_smem_selector(
    major: str, element: str, blk_mn: Any, blk_k: Any, is_ws_transposed_b: bool = False
) -> ComposedLayout:
    """C++ ``detail::rs_smem_selector<major, T, BLK_MN, BLK_K, is_ws_transposed_B>()``: the shared-
    memory atom of an operand a register-sourced (RS) GMMA kernel stages through shared memory.

    K-major picks as :func:`ss_smem_selector`. MN-major: 32-bit types prefer SW32 (free of bank
    conflicts when the warps transpose it), then INTER (SW32 only when ``is_ws_transposed_b``);
    8- and 16-bit types pick the widest swizzle (SW128 only for 8-bit with ``is_ws_transposed_b``).

    Pre:  as :func:`ss_smem_selector`; the element is 8, 16 or 32 bits wide for MN-major (else
          ``CutepyError`` naming the rule).
    Post: the atom's extent along the contiguous mode divides the tile's.

    >>> rs_smem_selector("MN", "tfloat32_t", 128, 32)
    Sw<1,4,3> o smem_ptr[32b](unset) o (8,8):(1,8)
    >>> rs_smem_selector("MN", "float_e4m3_t", 128, 64, True)
    Sw<3,4,3> o smem_ptr[8b](unset) o (128,8):(1,128)
    """
    m, t = _major(major), canonical_element(element)
    mn0, k0 = _first(blk_mn), _first(blk_k)
    _check_multiple_of_8(mn0, k0, "rs_smem_selector")
    if m == "K":
        for w in _WIDTHS:
            atom = gmma_smem_layout(m, w, t)
            if k0 % _size(_inner(atom).shape[1]) == 0:
                return atom
        raise CutepyError(
            "rs_smem_selector: BLK_K0 must be a multiple of size<1>(GMMA::Layout_K_INTER_Atom<ElementType>{})"
            f" ({t}: {_size(_inner(gmma_smem_layout(m, 0, t)).shape[1])}; BLK_K0 is {k0})"
        )
    bits = element_bits(t)
    if bits % 32 == 0:
        widths: tuple[int, ...] = (32,) if is_ws_transposed_b else (32, 0)
    elif bits in (8, 16):
        widths = (128,) if bits == 8 and is_ws_transposed_b else _WIDTHS
    else:
        raise CutepyError(f"rs_smem_selector: Smem selector does not support this element type ({t})")
    # C++'s own wording: its 8-bit transposed branch names the SW128 atom Layout_MN_128_Atom
    for w in widths:
        atom = gmma_smem_layout(m, w, t)
        if mn0 % _size(_inner(atom).shape[0]) == 0:
            return atom
    last = gmma_smem_layout(m, widths[-1], t)
    name = {0: "INTER", 32: "SW32", 128: "128"}[widths[-1]]
    raise CutepyError(
        "rs_smem_selector: BLK_MN0 must be a multiple of "
        f"size<0>(GMMA::Layout_MN_{name}_Atom<ElementType>{{}})"
        f" ({t}: {_size(_inner(last).shape[0])}; BLK_MN0 is {mn0})"
    )


def _op_selector(
    kind: str, element_a: str, element_b: str, element_c: str, tile_shape: Any, major_a: str, major_b: str
) -> MMAAtom:
    a, b, c = canonical_element(element_a), canonical_element(element_b), canonical_element(element_c)
    ma, mb = _major(major_a), _major(major_b)
    where = f"{kind.lower()}_op_selector"
    if not (isinstance(tile_shape, tuple) and len(tile_shape) == 3):
        raise CutepyError(f"{where}: TileShape_MNK must be rank 3 (it is {tile_shape!r})")
    tile_m, tile_n, tile_k = (_size(x) for x in tile_shape)
    if tile_m % 64 != 0:
        raise CutepyError(f"{where}: Tile_M must be a multiple of 64 (it is {tile_m})")
    if kind == "RS" and ma != "K":
        raise CutepyError(f"{where}: Register source A operand GMMAs must have K-major A layout.")
    if c not in ("half_t", "float", "int32_t"):
        raise CutepyError(f"{where}: Unknown ElementC accumulator type ({c}).")
    row = GMMA_TYPES.get((c, a, b))
    if row is None:
        raise CutepyError(
            f"{where}: No eligible GMMA operator for request configuration (A {a}, B {b}, accumulator {c})."
        )
    code, k, tn_only = row
    if tn_only and ma != "K":
        raise CutepyError(f"{where}: MajorA must be GMMA::Major::K for this config ({a}).")
    if tn_only and mb != "K":
        raise CutepyError(f"{where}: MajorB must be GMMA::Major::K for this config ({b}).")
    if tile_k % k != 0:
        raise CutepyError(f"{where}: Tile_K must be a multiple of {k} (it is {tile_k}).")
    n = next((n for n in GMMA_N if tile_n % n == 0), None)
    if n is None:
        raise CutepyError(f"{where}: Tile_N must be a multiple of 8 (it is {tile_n}).")
    suffix = f"{kind}_TN" if tn_only else f"{kind}<{ma},{mb}>"
    return mma_atom(f"SM90_64x{n}x{k}_{code}_{suffix}")


def ss_op_selector(
    element_a: str, element_b: str, element_c: str, tile_shape: Any, major_a: str = "K", major_b: str = "K"
) -> MMAAtom:
    """C++ ``GMMA::ss_op_selector<A, B, C, TileShape_MNK, MajorA, MajorB>()``: the widest
    shared-memory-sourced GMMA (``SM90_64xNxK_..._SS``) whose N divides the tile's N.

    Pre:  ``tile_shape`` is rank 3, Tile_M a multiple of 64, Tile_K of the instruction's K, Tile_N
          of 8; GMMA has the (A, B, C) types; tf32, 8-bit float and integer inputs are K-major
          (else ``CutepyError`` with C++'s rule).
    Post: ``atom.shape_mnk == (64, N, K)`` with ``N`` the largest of 256, 192, 128, 96, 64, 32,
          16, 8 dividing Tile_N.

    >>> ss_op_selector("float_e4m3_t", "float_e5m2_t", "float", (64, 96, 128)).name
    'SM90_64x96x32_F32E4M3E5M2_SS_TN'
    >>> ss_op_selector("half_t", "half_t", "float", (64, 100, 64))
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: ss_op_selector: Tile_N must be a multiple of 8 (it is 100).
    """
    return _op_selector("SS", element_a, element_b, element_c, tile_shape, major_a, major_b)


def rs_op_selector(
    element_a: str, element_b: str, element_c: str, tile_shape: Any, major_a: str = "K", major_b: str = "K"
) -> MMAAtom:
    """C++ ``GMMA::rs_op_selector<A, B, C, TileShape_MNK, MajorA, MajorB>()``: as
    :func:`ss_op_selector` for the register-sourced GMMA (``..._RS``), whose A must be K-major.

    Pre:  as :func:`ss_op_selector`, and ``major_a == "K"``.
    Post: ``atom.shape_mnk == (64, N, K)``; A is read from registers.

    >>> rs_op_selector("tfloat32_t", "tfloat32_t", "float", (128, 64, 32)).name
    'SM90_64x64x8_F32TF32TF32_RS_TN'
    """
    return _op_selector("RS", element_a, element_b, element_c, tile_shape, major_a, major_b)


def stage_bytes(element_a: str, element_b: str, tile_shape: Any, alignment: int = 128) -> int:
    """Bytes one pipeline stage takes: the A and B tiles, rounded up to ``alignment``, plus its
    barriers (``sizeof(PipelineTmaAsync<1>::SharedStorage)``)."""
    m, n, k = (_size(x) for x in tile_shape)
    a_bits, b_bits = element_bits(canonical_element(element_a)), element_bits(canonical_element(element_b))
    tiles = -(-a_bits * m * k // 8) + -(-b_bits * n * k // 8)
    return round_up(tiles, alignment) + PIPELINE_BYTES_PER_STAGE


def compute_stage_count_or_override(
    capacity_bytes: int,
    element_a: str,
    element_b: str,
    tile_shape: Any,
    stage_count: Any,
    alignment: int = 128,
) -> int:
    """C++ ``detail::compute_stage_count_or_override<capacity, A, B, TileShape, alignment>(s)``:
    ``s`` itself for a fixed count (``StageCount<N>``, an int), else the stages that fit:
    ``(capacity // alignment * alignment - round_up(carveout, alignment)) // stage_bytes`` with
    ``stage_bytes = round_up(bytes(A tile) + bytes(B tile), alignment) + 16``.

    ``stage_count`` is ``"auto"`` (``StageCountAuto``, no carveout), ``("auto", carveout_bytes)``
    (``StageCountAutoCarveout<carveout_bytes>``) or an int.

    Pre:  ``stage_count`` has one of these forms (else ``CutepyError``).
    Post: an int; for the auto forms, ``result * stage_bytes <= capacity - carveout`` and one
          more stage would not fit.

    >>> compute_stage_count_or_override(232448, "float_e4m3_t", "float_e4m3_t", (128, 256, 128),
    ...                                 ("auto", 32768))
    4
    """
    if type(stage_count) is int:
        return stage_count
    if stage_count == "auto":
        carveout = 0
    elif (
        isinstance(stage_count, tuple)
        and len(stage_count) == 2
        and stage_count[0] == "auto"
        and type(stage_count[1]) is int
        and stage_count[1] >= 0
    ):
        carveout = stage_count[1]
    else:
        raise CutepyError(f"stage_count is 'auto', ('auto', carveout_bytes) or an int, not {stage_count!r}")
    per_stage = stage_bytes(element_a, element_b, tile_shape, alignment)
    capacity = capacity_bytes // alignment * alignment
    free = capacity - round_up(carveout, alignment)
    return free // per_stage if free >= 0 else -(-free // per_stage)  # C++ truncates toward zero
