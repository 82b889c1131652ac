"""AMD, Intel Xe and x86 AMX atoms against oracles nobody here wrote.

- AMD: every dense MFMA/WMMA instruction of CDNA1-3 and RDNA3-4 against AMD's Matrix Instruction
  Calculator (tests/data/amd_matrix_calculator.txt, made by benchmarks/amd_calculator_oracle.py),
  and every instruction Triton 3.9 lowers (gfx950's included) against Triton's linear layouts
  (tests/data/amd_triton_layouts.json, made by benchmarks/amd_triton_oracle.py).
- Intel Xe: every atom against sycl-tla's own MMA_Traits prints (tests/data/atoms_xe_sycl_tla.txt,
  made by tests/kernels/atoms/xe_cxx.py).
- AMX: the SDM's pseudo-code for each instruction, run on random tiles, against the product the
  atom's layouts describe.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from cutepy import Layout, make_tensor, make_tiled_mma
from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import mma_atom, mma_atoms
from cutepy.kernels.atoms.amd import AMD_INSTRUCTIONS, amd_mma_atom, amd_mma_atoms
from cutepy.kernels.atoms.amx import AMX_INSTRUCTIONS, amx_mma_atom
from cutepy.kernels.atoms.intel import XE_TYPE_BITS, xe_mma_atom, xe_mma_atoms
from cutepy.kernels.simulate import check_tile, gemm
from tests.kernels.atoms.xe_cxx import STORED as XE_STORED
from tests.paths import DATA


def _calculator() -> list[tuple]:
    rows = []
    for line in (DATA / "amd_matrix_calculator.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        arch, inst, dims, types, matrix, cols, table = line.split("\t")
        m, n, k, blocks = map(int, dims.split(","))
        lanes = [list(map(int, r.split())) for r in table.split(";")]
        rows.append((arch, inst, (m, n, k, blocks), types.split(","), matrix, cols.split(), lanes))
    return rows


CALC = _calculator()


def _tv_table(L: Layout, lanes: int, vals: int) -> list[list[int]]:
    return [[L(t, v) for v in range(vals)] for t in range(lanes)]


def _from_calculator(matrix: str, flat: int, dims: tuple) -> int:
    """The calculator's ``row + R*col + R*C*block`` as the atom's index (blocks along N; A shared)."""
    m, n, k, blocks = dims
    if matrix == "A":
        return flat % (m * k)
    if matrix == "B":
        blk, rest = divmod(flat, n * k)
        kk, j = divmod(rest, n)
        return (j + n * blk) + n * blocks * kk
    return flat  # D: i + M*(j + N*block) is the calculator's own encoding


def test_calculator_covers_every_calculator_instruction() -> None:
    """cutepy's instruction lists are exactly the calculator's dense ones, with its M, N, K, blocks."""
    got = {(arch, mnem): (m, n, k, b)
           for arch, insts in AMD_INSTRUCTIONS.items() for mnem, m, n, k, b, *_ in insts}
    want = {(arch, inst): dims for arch, inst, dims, *_ in CALC}
    assert {key: got[key] for key in want} == want
    assert set(got) - set(want) == {("cdna4", mnem) for mnem, *_ in AMD_INSTRUCTIONS["cdna4"]}
    assert len(CALC) == 3 * len(want) == 3 * 96


@pytest.mark.parametrize("arch", ["cdna1", "cdna2", "cdna3", "rdna3", "rdna4"])
def test_amd_atoms_equal_amd_calculator(arch: str) -> None:
    """Every (lane, value) of A, B and D holds the element AMD's calculator says, in register order."""
    rows = [r for r in CALC if r[0] == arch]
    assert rows
    for _, inst, dims, _, matrix, cols, lanes in rows:
        atom = amd_mma_atom(f"{arch}::{inst}")
        L = {"A": atom.tv_layout_A, "B": atom.tv_layout_B, "D": atom.tv_layout_C}[matrix]
        assert (len(lanes), len(cols)) == (atom.thr_id.size(), L.size() // atom.thr_id.size()), (inst, matrix)
        want = [[_from_calculator(matrix, f, dims) for f in row] for row in lanes]
        assert _tv_table(L, len(lanes), len(cols)) == want, (arch, inst, matrix)


def test_amd_element_widths_follow_the_calculator() -> None:
    names = {"FP32": 32, "FP16": 16, "BF16": 16, "int8": 8, "IU8": 8, "IU4": 4, "FP64": 64, "FP8": 8,
             "BF8": 8, "int32": 32}
    bits = {"float": 32, "tfloat32_t": 32, "half_t": 16, "bfloat16_t": 16, "int8_t": 8, "int4b_t": 4,
            "double": 64, "float_e4m3_t": 8, "float_e5m2_t": 8, "int32_t": 32}
    for arch, inst, _, types, matrix, *_ in CALC:
        if matrix != "A":
            continue
        d, a, b, c = amd_mma_atom(f"{arch}::{inst}").element_types
        assert [bits[a], bits[b], bits[c], bits[d]] == [names[t] for t in types], (arch, inst)


TRITON = json.loads((DATA / "amd_triton_layouts.json").read_text())


def _triton_table(case: dict, role: str) -> list[list[int]]:
    """(lane, register) -> the atom's flat index of Triton's linear layout (XOR of the bases)."""
    m, n, k = case["mnk"]
    part = case[role]
    assert not part["warp"] or all(not any(b) for b in part["warp"])

    def point(bases: list, x: int) -> list[int]:
        out = [0, 0]
        for bit, b in enumerate(bases):
            if x >> bit & 1:
                out = [out[0] ^ b[0], out[1] ^ b[1]]
        return out

    out = []
    for lane in range(1 << len(part["lane"])):
        row = []
        for reg in range(1 << len(part["register"])):
            d0, d1 = (a ^ b for a, b in zip(point(part["lane"], lane), point(part["register"], reg)))
            row.append({"C": d0 + m * d1, "A": d0 + m * d1, "B": d1 + n * d0}[role])
        out.append(row)
    return out


@pytest.mark.parametrize("case", TRITON["cases"], ids=[c["key"] for c in TRITON["cases"]])
def test_amd_atoms_equal_triton(case: dict) -> None:
    """C in Triton's register order; A and B as the elements each lane holds (Triton orders a lane's
    operand registers by its k_width, which for these atoms is the whole lane's run of K)."""
    arch, inst = case["key"].split("/")
    atom = amd_mma_atom(f"{'cdna4' if arch == 'gfx950' else arch}::{inst}")
    lanes = atom.thr_id.size()
    for role, L in (("C", atom.tv_layout_C), ("A", atom.tv_layout_A), ("B", atom.tv_layout_B)):
        assert "rejected" not in case[role], case[role]
        tri = _triton_table(case, role)
        vals = L.size() // lanes
        assert len(tri) == lanes and len(tri[0]) == vals, (role, len(tri), len(tri[0]))
        ours = _tv_table(L, lanes, vals)
        if role == "C":
            assert ours == tri, role
        else:
            assert [sorted(r) for r in ours] == [sorted(r) for r in tri], role


def test_amd_calculator_and_triton_agree_where_both_speak() -> None:
    """The two oracles agree on every atom both cover (so following both is one choice)."""
    calc = {(a, i, mat): lanes for a, i, dims, _, mat, _, lanes in CALC}
    both = 0
    for case in TRITON["cases"]:
        arch, inst = case["key"].split("/")
        if (arch, inst, "D") not in calc:
            continue
        dims = amd_mma_atom(f"{arch}::{inst}").shape_mnk + (1,)
        for role, mat in (("C", "D"), ("A", "A"), ("B", "B")):
            want = [sorted(_from_calculator(mat, f, dims) for f in row) for row in calc[(arch, inst, mat)]]
            assert [sorted(r) for r in _triton_table(case, role)] == want, (case["key"], role)
        both += 1
    assert both >= 30


def test_bare_mnemonics_and_gfx_ids() -> None:
    a = amd_mma_atom("v_mfma_f32_32x32x8f16")
    assert a is amd_mma_atom("cdna1::v_mfma_f32_32x32x8f16")
    assert amd_mma_atom("gfx950::V_MFMA_F32_32X32X16_F16") is amd_mma_atom("cdna4::v_mfma_f32_32x32x16_f16")
    fp8 = mma_atom("gfx942::v_mfma_f32_16x16x32_fp8_bf8")
    assert fp8.element_types[1:3] == ("float_e4m3_t", "float_e5m2_t")
    with pytest.raises(CutepyError, match="name the architecture"):
        amd_mma_atom("v_wmma_i32_16x16x16_iu8")
    with pytest.raises(CutepyError, match="cdna1 has no"):
        amd_mma_atom("cdna1::v_mfma_f32_32x32x8_f16")
    with pytest.raises(CutepyError, match="unknown AMD atom"):
        mma_atom("v_mfma_f32_64x64x8_f16")
    with pytest.raises(CutepyError, match="name must be a string"):
        amd_mma_atom(3)
    assert len(amd_mma_atoms()) == len(set(amd_mma_atoms())) == 104


def _fields(name: str) -> list[str]:
    a = xe_mma_atom(name)
    bits = ",".join(str(XE_TYPE_BITS[t]) for t in a.element_types)
    shape = "(" + ",".join(map(str, a.shape_mnk)) + ")"
    return [str(a.thr_id), shape, str(a.tv_layout_A), str(a.tv_layout_B), str(a.tv_layout_C), bits]


def test_xe_atoms_equal_sycl_tla_prints() -> None:
    names = xe_mma_atoms()
    assert set(XE_STORED) == set(names) and len(names) == 260
    for n in names:
        assert _fields(n) == XE_STORED[n], n


def test_xe_defaults_and_refusals() -> None:
    assert mma_atom("XE_DPAS_TT<4,float,half_t>").cpp_type == "XE_DPAS_TT<4,float,half_t,half_t,float>"
    assert mma_atom("XE_DPAS_TT<2, int32_t, int8_t, uint8_t>").element_types == (
        "int32_t", "int8_t", "uint8_t", "int32_t")
    with pytest.raises(CutepyError, match="needs at least the A type"):
        xe_mma_atom("XE_DPAS_TT<8,float>")
    with pytest.raises(CutepyError, match="declares XE_DPAS_TT for"):
        xe_mma_atom("XE_DPAS_TT<8,double,double>")
    with pytest.raises(CutepyError, match="unknown Intel Xe MMA atom"):
        mma_atom("XE_8x16x16_F32F32F32F32_TT")


# -- AMX: the SDM's pseudo-code -----------------------------------------------------------------


def _sdm(name: str, dst: np.ndarray, a_tile: np.ndarray, b_tile: np.ndarray) -> np.ndarray:
    """The SDM's operation of ``name`` on tile registers (rows of elements), transcribed loop for loop."""
    out = dst.astype(np.float64 if name in ("TDPBF16PS", "TDPFP16PS") else np.int64).copy()
    pack = 2 if name in ("TDPBF16PS", "TDPFP16PS") else 4
    for m in range(out.shape[0]):
        for k in range(a_tile.shape[1] // pack):
            for n in range(out.shape[1]):
                for p in range(pack):
                    a, b = a_tile[m, pack * k + p], b_tile[k, pack * n + p]
                    out[m, n] += int(a) * int(b) if pack == 4 else float(a) * float(b)
    return out


@pytest.mark.parametrize("name", list(AMX_INSTRUCTIONS))
def test_amx_layouts_carry_out_the_sdm_pseudo_code(name: str) -> None:
    atom = amx_mma_atom(name)
    m, n, k = atom.shape_mnk
    rng = np.random.default_rng(7)
    ta, tb, _ = AMX_INSTRUCTIONS[name]
    lo = {"int8_t": -128, "uint8_t": 0}

    def draw(t: str, shape: tuple) -> np.ndarray:
        if t in lo:
            return rng.integers(lo[t], lo[t] + 256, size=shape)
        return rng.integers(-8, 8, size=shape).astype(np.float64) / 4  # exact in bf16 and fp16
    pack = 2 if k == 32 else 4  # K per 32-bit lane of a tile row
    a_tile, b_tile = draw(ta, (m, k)), draw(tb, (k // pack, n * pack))  # B: K/pack rows of N packs
    c_tile = rng.integers(-5, 5, size=(m, n))
    want = _sdm(name, c_tile, a_tile, b_tile)
    # the atom's reading: tile register storage (row by row) -> logical A[M,K], B[N,K], C[M,N]
    A = np.zeros(m * k)
    A[[atom.tv_layout_A(0, v) for v in range(m * k)]] = a_tile.ravel()
    B = np.zeros(n * k)
    B[[atom.tv_layout_B(0, v) for v in range(n * k)]] = b_tile.ravel()
    C = np.zeros(m * n)
    C[[atom.tv_layout_C(0, v) for v in range(m * n)]] = c_tile.ravel()
    A, B, C = A.reshape(k, m).T, B.reshape(k, n).T, C.reshape(n, m).T
    D = C + A @ B.T
    got = D.T.ravel()[[atom.tv_layout_C(0, v) for v in range(m * n)]].reshape(m, n)
    np.testing.assert_array_equal(got, want)


def test_amx_refusals() -> None:
    with pytest.raises(CutepyError, match="unknown AMX instruction"):
        mma_atom("TDPBF8PS")
    with pytest.raises(CutepyError, match="name must be a string"):
        amx_mma_atom(None)


# -- the vendor atoms work as NVIDIA's do --------------------------------------------------------


def _col_major(x: np.ndarray):
    return make_tensor(x.T.ravel().copy(), Layout(x.shape))


@pytest.mark.parametrize(
    "name", ["cdna3::v_mfma_f32_32x32x8_f16", "cdna3::v_mfma_f32_4x4x4_16b_f16",
             "rdna3::v_wmma_f32_16x16x16_f16", "rdna4::v_wmma_f32_16x16x16_f16", "XE_DPAS_TT<8,float,half_t>",
             "XE_8x16x16_F32F16F16F32_TT", "TDPFP16PS", "cdna2::v_mfma_f64_4x4x4f64"])
def test_vendor_atoms_simulate_a_gemm(name: str) -> None:
    """make_tiled_mma + gemm on numpy data give A @ B^T, as for NVIDIA's atoms."""
    mma = make_tiled_mma(mma_atom(name), (2, 1, 1))
    M, N, K = (t * r for t, r in zip(mma.tile_size_mnk, (1, 2, 2)))
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((M, K)).astype(np.float16), rng.standard_normal((N, K)).astype(np.float16)
    c0 = rng.standard_normal((M, N)).astype(np.float32)
    C = _col_major(c0)
    gemm(mma, _col_major(a), _col_major(b), C)
    ref = c0 + a.astype(np.float32) @ b.astype(np.float32).T
    assert check_tile(mma, C, ref, rtol=1e-3, atol=1e-3) == M * N


def test_mma_atoms_by_vendor() -> None:
    from cutepy.kernels.atoms.umma_ext import umma_ext_atoms

    everything = mma_atoms("all")
    from cutepy.kernels.atoms.gmma_sparse import gmma_sparse_atoms
    from cutepy.kernels.atoms.sm120_ext import sm120_ext_atoms

    ext = umma_ext_atoms(every_n=True) + gmma_sparse_atoms() + sm120_ext_atoms()
    assert len(everything) == len(set(everything)) == len(mma_atoms()) + len(ext) + 104 + 260 + 6
    assert all(mma_atom(n).name == n for n in everything[::97])
    with pytest.raises(CutepyError, match="vendor must be"):
        mma_atoms("arm")


def test_wi_interleave_refuses_bad_arguments() -> None:
    from cutepy.kernels.atoms import wi_interleave

    with pytest.raises(CutepyError, match="bits must be"):
        wi_interleave(0, Layout(32))
    with pytest.raises(CutepyError, match="layout must be"):
        wi_interleave(8, (32, 8))
