"""AMD matrix-core atoms: MFMA (CDNA1 gfx908, CDNA2 gfx90a, CDNA3 gfx942, CDNA4 gfx950) and WMMA
(RDNA3 gfx11, RDNA4 gfx12), under AMD's instruction mnemonics.

Sources: AMD's "AMD Matrix Instruction Calculator" 1.3.2 (github.com/ROCm/amd_matrix_instruction_calculator,
which encodes the register layouts of the CDNA1-3 and RDNA3-4 ISA guides) for every instruction
it knows, and Triton 3.9's ``AMDMFMALayout``/``AMDWMMALayout``/``DotOperandLayout`` for the
instructions Triton lowers (the only oracle for gfx950's). The suite checks every atom against the
stored answers of both (``tests/data/amd_matrix_calculator.txt``, ``amd_triton_layouts.json``).

A name is ``"{arch}::{mnemonic}"`` with ``arch`` one of :data:`AMD_ARCHS` (or its gfx id) and the
mnemonic as the ISA guide writes it (either case): ``"cdna3::v_mfma_f32_32x32x8_f16"``. A bare
mnemonic names the atom when every architecture that has it lays it out alike
(``"v_mfma_f32_32x32x8_f16"``); WMMA mnemonics differ between RDNA3 and RDNA4 and need the arch.

The atoms are CuTe atoms like NVIDIA's: ``C[M,N] += A[M,K] * B[N,K]`` over a wave's lanes (64 for
MFMA, 32 for WMMA in wave32), ``tv_layout_A(lane, value) = m + M*k``, ``tv_layout_B = n + N*k``,
``tv_layout_C = m + M*n``, the values in register order (low bits first within a register).

>>> a = amd_mma_atom("cdna3::v_mfma_f32_32x32x8_f16")
>>> a.shape_mnk, a.thr_id
((32, 32, 8), 64:1)
>>> a.tv_layout_A, a.tv_layout_C
(((32,2),4):((1,128),32), ((32,2),(4,4)):((32,4),(1,8)))

Multi-block MFMAs (``..._2b_``, ``_4b_``, ``_16b_`` on CDNA3; ``32x32x4f16``... on CDNA1/2)
compute ``blocks`` independent products at once. cutepy reads them as one GEMM whose blocks lie
side by side along N, A shared by every block (its lanes of other blocks hold the same A:
stride 0), as AMD's Composable Kernel uses the 4x4 ones: ``shape_mnk = (M, blocks*N, K)``.

>>> amd_mma_atom("v_mfma_f32_4x4x4_16b_f16").shape_mnk
(4, 64, 4)
>>> amd_mma_atom("rdna3::v_wmma_f32_16x16x16_f16").tv_layout_A
((16,2),16):((1,0),16)

Where the sources disagree: the calculator and Triton agree on every lane of every atom both
cover (C in register order; A and B as the set of elements each lane holds, Triton ordering a
lane's registers its own way). tensor-layouts 0.3.2's AMD tables do not: its MFMA C layouts put
the rows a lane holds on other lanes and its A/B layouts broadcast over K's lane groups; cutepy
follows AMD's calculator (AMD's own statement of its ISA) and Triton (which runs on the hardware).
FP8/BF8 are ``float_e4m3_t``/``float_e5m2_t``; on CDNA3 they are AMD's FNUZ encodings, on RDNA4
and gfx950 OCP's (the layouts do not depend on it); XF32 is ``tfloat32_t``; ``iu8``/``iu4`` take
signed or unsigned integers (``int8_t``/``int4b_t`` here).
"""

from __future__ import annotations

import functools
import re

from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import MMAAtom

#: the architectures, with the gfx ids accepted for them
AMD_ARCHS = {
    "cdna1": ("gfx908",), "cdna2": ("gfx90a",), "cdna3": ("gfx940", "gfx941", "gfx942"),
    "cdna4": ("gfx950",), "rdna3": ("gfx1100", "gfx1101", "gfx1102"), "rdna4": ("gfx1200", "gfx1201"),
}
_TYPES = {
    "f32": "float", "xf32": "tfloat32_t", "f16": "half_t", "bf16": "bfloat16_t", "i8": "int8_t",
    "iu8": "int8_t", "iu4": "int4b_t", "f64": "double", "fp8": "float_e4m3_t", "bf8": "float_e5m2_t",
    "i32": "int32_t", "f8f6f4": "float_e4m3_t",
}
_TYPE_BITS = {
    "float": 32, "tfloat32_t": 32, "half_t": 16, "bfloat16_t": 16, "int8_t": 8, "int4b_t": 4,
    "double": 64, "float_e4m3_t": 8, "float_e5m2_t": 8, "int32_t": 32,
}

# (mnemonic, M, N, K, blocks, A type, B type, C type) per architecture, as AMD's ISA guides list them
_CDNA12 = [
    ("v_mfma_f32_32x32x1f32", 32, 32, 1, 2, "f32", "f32", "f32"),
    ("v_mfma_f32_16x16x1f32", 16, 16, 1, 4, "f32", "f32", "f32"),
    ("v_mfma_f32_4x4x1f32", 4, 4, 1, 16, "f32", "f32", "f32"),
    ("v_mfma_f32_32x32x2f32", 32, 32, 2, 1, "f32", "f32", "f32"),
    ("v_mfma_f32_16x16x4f32", 16, 16, 4, 1, "f32", "f32", "f32"),
    ("v_mfma_f32_32x32x4f16", 32, 32, 4, 2, "f16", "f16", "f32"),
    ("v_mfma_f32_16x16x4f16", 16, 16, 4, 4, "f16", "f16", "f32"),
    ("v_mfma_f32_4x4x4f16", 4, 4, 4, 16, "f16", "f16", "f32"),
    ("v_mfma_f32_32x32x8f16", 32, 32, 8, 1, "f16", "f16", "f32"),
    ("v_mfma_f32_16x16x16f16", 16, 16, 16, 1, "f16", "f16", "f32"),
    ("v_mfma_i32_32x32x4i8", 32, 32, 4, 2, "i8", "i8", "i32"),
    ("v_mfma_i32_16x16x4i8", 16, 16, 4, 4, "i8", "i8", "i32"),
    ("v_mfma_i32_4x4x4i8", 4, 4, 4, 16, "i8", "i8", "i32"),
    ("v_mfma_i32_32x32x8i8", 32, 32, 8, 1, "i8", "i8", "i32"),
    ("v_mfma_i32_16x16x16i8", 16, 16, 16, 1, "i8", "i8", "i32"),
    ("v_mfma_f32_32x32x2bf16", 32, 32, 2, 2, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x2bf16", 16, 16, 2, 4, "bf16", "bf16", "f32"),
    ("v_mfma_f32_4x4x2bf16", 4, 4, 2, 16, "bf16", "bf16", "f32"),
    ("v_mfma_f32_32x32x4bf16", 32, 32, 4, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x8bf16", 16, 16, 8, 1, "bf16", "bf16", "f32"),
]
_CDNA2_MORE = [
    ("v_mfma_f32_32x32x4bf16_1k", 32, 32, 4, 2, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x4bf16_1k", 16, 16, 4, 4, "bf16", "bf16", "f32"),
    ("v_mfma_f32_4x4x4bf16_1k", 4, 4, 4, 16, "bf16", "bf16", "f32"),
    ("v_mfma_f32_32x32x8bf16_1k", 32, 32, 8, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x16bf16_1k", 16, 16, 16, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f64_16x16x4f64", 16, 16, 4, 1, "f64", "f64", "f64"),
    ("v_mfma_f64_4x4x4f64", 4, 4, 4, 4, "f64", "f64", "f64"),
]
_CDNA3 = [
    ("v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, "xf32", "xf32", "f32"),
    ("v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, "xf32", "xf32", "f32"),
    ("v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, "f32", "f32", "f32"),
    ("v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, "f32", "f32", "f32"),
    ("v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, "f32", "f32", "f32"),
    ("v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, "f32", "f32", "f32"),
    ("v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, "f32", "f32", "f32"),
    ("v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, "f16", "f16", "f32"),
    ("v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, "f16", "f16", "f32"),
    ("v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, "f16", "f16", "f32"),
    ("v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, "f16", "f16", "f32"),
    ("v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, "f16", "f16", "f32"),
    ("v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, "i8", "i8", "i32"),
    ("v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, "i8", "i8", "i32"),
    ("v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, "i8", "i8", "i32"),
    ("v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, "i8", "i8", "i32"),
    ("v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, "i8", "i8", "i32"),
    ("v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, "bf16", "bf16", "f32"),
    ("v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, "bf16", "bf16", "f32"),
    ("v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, "f64", "f64", "f64"),
    ("v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, "f64", "f64", "f64"),
] + [
    (f"v_mfma_f32_{m}x{m}x{k}_{a}_{b}", m, m, k, 1, a, b, "f32")
    for m, k in ((16, 32), (32, 16)) for a in ("bf8", "fp8") for b in ("bf8", "fp8")
]
_CDNA4 = [
    ("v_mfma_f32_32x32x16_f16", 32, 32, 16, 1, "f16", "f16", "f32"),
    ("v_mfma_f32_16x16x32_f16", 16, 16, 32, 1, "f16", "f16", "f32"),
    ("v_mfma_f32_32x32x16_bf16", 32, 32, 16, 1, "bf16", "bf16", "f32"),
    ("v_mfma_f32_16x16x32_bf16", 16, 16, 32, 1, "bf16", "bf16", "f32"),
    ("v_mfma_i32_32x32x32_i8", 32, 32, 32, 1, "i8", "i8", "i32"),
    ("v_mfma_i32_16x16x64_i8", 16, 16, 64, 1, "i8", "i8", "i32"),
    ("v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64, 1, "f8f6f4", "f8f6f4", "f32"),
    ("v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, 1, "f8f6f4", "f8f6f4", "f32"),
]
_RDNA3 = [
    ("v_wmma_f32_16x16x16_f16", 16, 16, 16, 1, "f16", "f16", "f32"),
    ("v_wmma_f32_16x16x16_bf16", 16, 16, 16, 1, "bf16", "bf16", "f32"),
    ("v_wmma_f16_16x16x16_f16", 16, 16, 16, 1, "f16", "f16", "f16"),
    ("v_wmma_bf16_16x16x16_bf16", 16, 16, 16, 1, "bf16", "bf16", "bf16"),
    ("v_wmma_i32_16x16x16_iu8", 16, 16, 16, 1, "iu8", "iu8", "i32"),
    ("v_wmma_i32_16x16x16_iu4", 16, 16, 16, 1, "iu4", "iu4", "i32"),
]
_RDNA4 = _RDNA3 + [("v_wmma_i32_16x16x32_iu4", 16, 16, 32, 1, "iu4", "iu4", "i32")] + [
    (f"v_wmma_f32_16x16x16_{a}_{b}", 16, 16, 16, 1, a, b, "f32")
    for a in ("fp8", "bf8") for b in ("fp8", "bf8")
]
#: arch -> its dense matrix instructions (mnemonic, M, N, K, blocks, A, B, C)
AMD_INSTRUCTIONS = {
    "cdna1": _CDNA12, "cdna2": _CDNA12 + _CDNA2_MORE, "cdna3": _CDNA3, "cdna4": _CDNA4,
    "rdna3": _RDNA3, "rdna4": _RDNA4,
}


def _L(shape: tuple, stride: tuple) -> Layout:
    return Layout(shape, stride)


def _mfma(m: int, n: int, k: int, blocks: int, c_bits: int) -> tuple:
    """(shape_mnk, A, B, C) of a wave64 MFMA (see the module docstring for the multi-block reading)."""
    if m == 4:  # 4x4 blocks: the block index is lane / 4
        if k == 4 and blocks == 4:  # v_mfma_f64_4x4x4_4b: K over lanes / 16, 4 blocks
            t = (4, 4, 4)
            return ((4, 16, 4), _L((t, 1), ((1, 0, 4), 0)), _L((t, 1), ((1, 4, 16), 0)),
                    _L((t, 1), ((4, 16, 1), 0)))
        t = (4, 16)
        return ((4, 64, k), _L((t, k), ((1, 0), 4)), _L((t, k), ((1, 4), 64)), _L((t, 4), ((4, 16), 1)))
    g = 64 // m  # lane groups
    if blocks == 1:
        kp = k // g
        A = _L(((m, g), kp), ((1, m * kp), m))
        B = _L(((n, g), kp), ((1, n * kp), n))
        if c_bits == 64:
            C = _L(((n, g), 4), ((m, 1), 4))
        else:
            C = _L(((n, g), (4, m // (4 * g))), ((m, 4), (1, 4 * g)))
        return ((m, n, k), A, B, C)
    A = _L(((m, g), k), ((1, 0), m))
    B = _L(((n, g), k), ((1, n), n * g))
    C = _L(((n, g), (4, m // (4 * g), g)), ((m, 4), (1, 4 * g, m * n)))
    return ((m, n * g, k), A, B, C)


def _wmma(arch: str, m: int, n: int, k: int, a_bits: int) -> tuple:
    """(shape_mnk, A, B, C) of a wave32 WMMA."""
    if arch == "rdna3":  # both half-waves hold the whole of A and B; C rows interleave by half-wave
        A = _L(((m, 2), k), ((1, 0), m))
        B = _L(((n, 2), k), ((1, 0), n))
        C = _L(((n, 2), 8), ((m, 1), 2))
        return ((m, n, k), A, B, C)
    chunk = min(64 // a_bits, k // 2)  # 64 bits of K per lane, half-waves alternating
    reps = k // (2 * chunk)
    A = _L(((m, 2), (chunk, reps)), ((1, m * chunk), (m, 2 * m * chunk)))
    B = _L(((n, 2), (chunk, reps)), ((1, n * chunk), (n, 2 * n * chunk)))
    C = _L(((n, 2), 8), ((m, 8), 1))
    return ((m, n, k), A, B, C)


@functools.cache
def _table() -> dict[str, MMAAtom]:
    out = {}
    for arch, insts in AMD_INSTRUCTIONS.items():
        for mnem, m, n, k, blocks, ta, tb, tc in insts:
            name = f"{arch}::{mnem}"
            a, b, c = _TYPES[ta], _TYPES[tb], _TYPES[tc]
            if arch.startswith("rdna"):
                shape, A, B, C = _wmma(arch, m, n, k, _TYPE_BITS[a])
                thr = Layout(32, 1)
            else:
                shape, A, B, C = _mfma(m, n, k, blocks, _TYPE_BITS[c])
                thr = Layout(64, 1)
            out[name] = MMAAtom(name, shape, thr, A, B, C, (c, a, b, c), "")
    return out


_GFX = {g: arch for arch, ids in AMD_ARCHS.items() for g in ids}
_NAME_RE = (r"(?:([a-z0-9]+)::)?(v_(?:mfma|wmma)_[a-z0-9_]+)")


def amd_mma_atom(name: str) -> MMAAtom:
    """The AMD MFMA or WMMA atom ``name`` (``"cdna3::v_mfma_f32_16x16x16_f16"``, or a bare
    mnemonic that all architectures lay out alike).

    Pre:  ``name`` is a string naming one of :func:`amd_mma_atoms` (the arch may be a gfx id,
          the mnemonic in either case; else ``CutepyError``).
    Post: an :class:`MMAAtom` over a wave (64 lanes for MFMA, 32 for WMMA) whose TV layouts are
          AMD's register layouts (``cpp_type`` is empty: C++ CuTe has no AMD atoms).

    >>> amd_mma_atom("gfx942::V_MFMA_F32_16X16X16_F16").tv_layout_B
    ((16,4),4):((1,64),16)
    >>> amd_mma_atom("cdna1::v_mfma_f32_32x32x8_f16")
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: amd_mma_atom: cdna1 has no 'v_mfma_f32_32x32x8_f16' (see cutepy.amd_mma_atoms())
    """
    if not isinstance(name, str):
        raise CutepyError(f"amd_mma_atom: name must be a string, not {name!r}")
    m = re.fullmatch(_NAME_RE, name.strip().lower())
    if m is None:
        raise CutepyError(f"amd_mma_atom: unknown AMD atom {name!r} (see cutepy.mma_atoms(vendor='amd'))")
    arch, mnem = m.group(1), m.group(2)
    table = _table()
    if arch is not None:
        arch = _GFX.get(arch, arch)
        key = f"{arch}::{mnem}"
        if key not in table:
            where = arch if arch in AMD_ARCHS else repr(m.group(1))
            raise CutepyError(f"amd_mma_atom: {where} has no {mnem!r} (see cutepy.amd_mma_atoms())")
        return table[key]
    hits = [a for a in table if a.endswith("::" + mnem)]
    if not hits:
        raise CutepyError(f"amd_mma_atom: unknown AMD atom {name!r} (see cutepy.mma_atoms(vendor='amd'))")
    atoms = [table[h] for h in hits]
    first = atoms[0]
    if any((a.tv_layout_A, a.tv_layout_B, a.tv_layout_C) != (first.tv_layout_A, first.tv_layout_B,
                                                            first.tv_layout_C) for a in atoms):
        archs = " and ".join(h.split("::")[0] for h in hits)
        raise CutepyError(f"amd_mma_atom: {name!r} is laid out differently on {archs}: name the architecture "
                          f"({hits[0]!r})")
    return first


def amd_mma_atoms() -> list[str]:
    """Every AMD atom name, ``"{arch}::{mnemonic}"``, in AMD's order per architecture.

    Pre:  none.
    Post: a list of distinct names, each accepted by :func:`amd_mma_atom` and ``mma_atom``.

    >>> names = amd_mma_atoms()
    >>> len(names), names[0]
    (104, 'cdna1::v_mfma_f32_32x32x1f32')
    """
    return list(_table())
