"""TiledCopy-like values for the bank tests, built from C++ CuTe prints (CUTLASS 4.2).

Until cutepy.kernels.tiled's TiledCopy is merged, these stand in for it with the same attributes
(the contract of cutepy.banks.analyze_copy). The copies are CUTLASS's SM80 GEMM
configurations (test/unit/gemm/device/default_gemm_configuration.hpp) and an SM90
stmatrix epilogue copy. PRINTS (tests/data/smem_bank_copies.txt) is verbatim what
``banks_copies.cpp`` (beside this file) prints, with three comment lines on top; rebuild with
``g++ -std=c++17 -I$SP/cutlass_library/source/include -I$SP/nvidia/cuda_cccl/include
-I$SP/nvidia/cuda_runtime/include -I$SP/nvidia/cuda_nvcc/include banks_copies.cpp && ./a.out``
(CUTLASS 4.2 headers of the test extras; no GPU needed). Each line is
``name | Tiler_MN | get_layoutS_TV() | get_layoutD_TV()`` or, for a copy atom's traits,
``name | SrcLayout | DstLayout`` (bits).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cutepy.notation import parse

PRINTS = (Path(__file__).parents[1] / "data" / "smem_bank_copies.txt").read_text()


@dataclass(frozen=True)
class CopyAtom:
    name: str
    op: str
    element_bits: int
    layout_src_tv_bits: Any
    layout_dst_tv_bits: Any


@dataclass(frozen=True)
class TiledCopy:
    copy_atom: CopyAtom
    size: int
    tiler_mn: tuple
    layout_src_tv_tiled: Any
    layout_dst_tv_tiled: Any


def _rows() -> dict[str, list[str]]:
    out = {}
    for line in PRINTS.strip().splitlines():
        if line.startswith("#"):
            continue
        name, *rest = [s.strip().replace("_", "") if i else s.strip() for i, s in enumerate(line.split("|"))]
        out[name] = rest
    return out


ROWS = _rows()
# atom name in C++, op, element bits, bits-layout row
ATOMS = {
    "cp": ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "cp.async", "bits_cp"),
    "ldsm": ("SM75_U32x4_LDSM_N", "ldmatrix", "bits_ldsm_x4"),
    "ldsmt": ("SM75_U16x8_LDSM_T", "ldmatrix", "bits_ldsm_t"),
    "univ": ("UniversalCopy<tfloat32_t>", "ld", "bits_univ32"),
    "stsm": ("SM90_U32x4_STSM_N", "stmatrix", "bits_stsm_x4"),
}
ELEMENT_BITS = {"half": 16, "tf32": 32, "int8": 8}


def tiled_copy(name: str) -> TiledCopy:
    """The C++ TiledCopy printed as ``name`` (e.g. ``ldsm_half_a``)."""
    kind, elem = name.split("_")[:2]
    atom_name, op, bits_row = ATOMS[kind]
    src_bits, dst_bits = (parse(x) for x in ROWS[bits_row])
    tiler, src, dst = ROWS[name]
    tiler_mn = tuple(int(x) for x in tiler.strip("()").split(","))
    src_tv, dst_tv = parse(src), parse(dst)
    return TiledCopy(CopyAtom(atom_name, op, ELEMENT_BITS[elem], src_bits, dst_bits), src_tv[0].size(),
                     tiler_mn, src_tv, dst_tv)
