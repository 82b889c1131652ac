"""Intel Xe-HPG DPAS atoms against a numpy model of Intel's documented semantics: the coding sample
of the OpenCL extension cl_intel_subgroup_matrix_multiply_accumulate (KhronosGroup/OpenCL-Docs,
extensions/cl_intel_subgroup_matrix_multiply_accumulate.asciidoc, "Coding Sample": work-item ``n``'s
result component ``m`` is ``acc.m`` plus, over the sub-group's work-items ``w``, the dot product of
the elements packed in work-item ``w``'s ``a`` component ``m`` (``sub_group_broadcast``) with those
packed in this work-item's ``b`` component ``w``), generalised from 8-bit to 4- and 16-bit
elements. No CuTe oracle exists (sycl-tla has no sub-group-8 atoms). Random matrices are laid into
registers by the atom's TV layouts (value ``v`` is element ``v % p`` of 32-bit component ``v // p``),
the model runs, the result is read back by the C layout, and it must equal ``A @ B + C``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import size
from cutepy.kernels.atoms.intel_hpg import HPG_BUILTINS, HPG_TYPES, xe_hpg_mma_atom, xe_hpg_mma_atoms

SG = 8


def _unpack(word: int, bits: int, code: str) -> list:
    """The ``32 // bits`` elements of a 32-bit register word, the low bits first (``as_char4``)."""
    out = []
    for j in range(32 // bits):
        raw = (word >> (j * bits)) & ((1 << bits) - 1)
        if code == "f16":
            out.append(float(np.array([raw], np.uint16).view(np.float16)[0]))
        elif code == "bf16":
            out.append(float(np.array([raw << 16], np.uint32).view(np.float32)[0]))
        elif code.startswith("i") and raw >> (bits - 1):
            out.append(raw - (1 << bits))
        else:
            out.append(raw)
    return out


def _pack(x: float, bits: int, code: str) -> int:
    if code == "f16":
        return int(np.array([x], np.float16).view(np.uint16)[0])
    if code == "bf16":
        return int(np.array([x], np.float32).view(np.uint32)[0]) >> 16
    return int(x) & ((1 << bits) - 1)


def _range(code: str, bits: int) -> tuple:
    """Values exact in the type: small integers for fp16/bf16, the whole range for integers."""
    if bits == 16:
        return -4, 5
    return (0, 1 << bits) if code.startswith("u") else (-(1 << (bits - 1)), 1 << (bits - 1))


def dpas_model(a: list, b: list, acc: list, bits: int, ca: str, cb: str) -> list:
    """The extension's coding sample for any element width: ``result[n][m] = acc[n][m] +
    sum_w dot(unpack(a[w][m]), unpack(b[n][w]))`` over the sub-group's 8 work-items."""
    def dot(x: int, y: int) -> float:
        return sum(u * v for u, v in zip(_unpack(x, bits, ca), _unpack(y, bits, cb)))

    return [[acc[n][m] + sum(dot(a[w][m], b[n][w]) for w in range(SG)) for m in range(len(acc[n]))]
            for n in range(SG)]


def run_atom(atom: Any, builtin: str, rng: np.random.Generator) -> tuple:
    """``atom``'s registers filled from random A, B, C, run through the model: (D read back, A@B+C)."""
    ca, cb = builtin.split("_")[3], builtin.split("_")[4]
    bits = HPG_TYPES[ca][1]
    p = 32 // bits
    M, N, K = atom.shape_mnk
    A = rng.integers(*_range(ca, bits), (M, K))
    B = rng.integers(*_range(cb, bits), (K, N))
    C = rng.integers(-50, 50, (M, N))
    a = [[0] * M for _ in range(SG)]
    b = [[0] * SG for _ in range(SG)]
    acc = [[0] * M for _ in range(SG)]
    for w in range(SG):
        for v in range(p * M):
            i = atom.tv_layout_A(w, v)
            a[w][v // p] |= _pack(A[i % M, i // M], bits, ca) << (bits * (v % p))
        for v in range(p * SG):
            i = atom.tv_layout_B(w, v)
            b[w][v // p] |= _pack(B[i // N, i % N], bits, cb) << (bits * (v % p))
        for v in range(M):
            i = atom.tv_layout_C(w, v)
            acc[w][v] = C[i % M, i // M]
    res = dpas_model(a, b, acc, bits, ca, cb)
    D = np.zeros((M, N))
    for w in range(SG):
        for v in range(M):
            i = atom.tv_layout_C(w, v)
            D[i % M, i // M] = res[w][v]
    return D, A @ B + C


@pytest.mark.parametrize("builtin", HPG_BUILTINS)
@pytest.mark.parametrize("mm", [1, 2, 4, 8])
def test_layouts_compute_the_documented_product(builtin: str, mm: int) -> None:
    rng = np.random.default_rng(34 + mm)
    for _ in range(3):
        got, want = run_atom(xe_hpg_mma_atom(builtin, mm), builtin, rng)
        assert np.array_equal(got, want), (builtin, mm)


def test_a_swapped_layout_would_fail() -> None:
    """The check is not blind: with A's rows and columns of one work-item swapped it fails."""
    from dataclasses import replace

    from cutepy.core.layout import Layout

    atom = xe_hpg_mma_atom("intel_sub_group_i8_i8_matrix_mad_k32", 2)
    bad = replace(atom, tv_layout_A=Layout((8, (2, 4)), (8, (1, 2))))  # m and k mixed
    assert size(bad.tv_layout_A) == size(atom.tv_layout_A)
    got, want = run_atom(bad, "intel_sub_group_i8_i8_matrix_mad_k32", np.random.default_rng(1))
    assert not np.array_equal(got, want)


def test_names_and_refusals() -> None:
    names = xe_hpg_mma_atoms()
    assert len(set(names)) == 40 == len(HPG_BUILTINS) * 4
    assert xe_hpg_mma_atom(HPG_BUILTINS[-1], 2).name in names
    assert xe_hpg_mma_atom("intel_sub_group_u4_i4_matrix_mad_k64", 1).shape_mnk == (1, 8, 64)
    with pytest.raises(CutepyError, match="builtin"):
        xe_hpg_mma_atom("intel_sub_group_f16_f16_matrix_mad_k32")
    with pytest.raises(CutepyError, match="m \\(the rows\\)"):
        xe_hpg_mma_atom(HPG_BUILTINS[0], 16)
