"""C++ side of the TiledMMA / TiledCopy differential: seeded cases, the C++ block that prints
each one, and cutepy's fields in the same order.

Regenerate the stored prints (tests/data/atoms_tiled.txt, tests/data/atoms_latex/*.tex) with::

    python -m tests.kernels.tiled.tiled_cxx

(needs g++ and the CUTLASS/CUDA header wheels of the test extras; see tests/cxx/cxx_harness.py).
Each stored line is ``key<TAB>field|field|...``, C++'s prints with the static-integer
underscores dropped.
"""

from __future__ import annotations

import random
from pathlib import Path

from cutepy.core.layout import Layout
from cutepy.emit import cpp
from cutepy.kernels.atoms import copy_atom, mma_atom
from cutepy.kernels.tensor import compact_layout, make_identity_tensor
from cutepy.kernels.tiled import (
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_copy_C,
    make_tiled_mma,
    partition_fragment_C,
    partition_shape_A,
    partition_shape_B,
    partition_shape_C,
)
from tests.cxx import cxx_harness
from tests.kernels.atoms.atoms_cxx import INCLUDES
from tests.kernels.atoms.atoms_cxx import read_table as read_print_table
from tests.paths import DATA

HERE = Path(__file__).resolve().parent


TILED_FILE = DATA / "atoms_tiled.txt"
LATEX_DIR = DATA / "atoms_latex"

# -- cases ---------------------------------------------------------------------------------
_FIXED_MMA = [
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, 32, 16)),
    ("SM80_16x8x16_F16F16F16F16_TN", (2, 2), None),
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, Layout((8, 2, 2), (1, 16, 8)), 16)),
    ("SM80_16x8x8_F32TF32TF32F32_TN", (1, 2, 1), None),
    ("SM80_16x8x4_F32TF32TF32F32_TN", (2, 1, 1), None),
    ("SM80_8x8x4_F64F64F64F64_TN", (2, 2, 1), None),
    ("SM80_16x8x32_S32S8S8S32_TN", Layout((2, 2, 1), (2, 1, 0)), None),
    ("SM80_8x8x16_S32U8S8S32_TN", (1, 1, 1), None),
    ("SM75_16x8x8_F32F16F16F32_TN", (2, 1, 1), (None, 16, None)),
    ("SM70_8x8x4_F32F16F16F32_NT", (2, 2, 1), None),
    ("SM70_8x8x4_F16F16F16F16_TN", (1, 1, 1), None),
    ("SM61_DP4A", (4, 8, 1), None),
    ("UniversalFMA", (16, 16, 1), None),
    ("UniversalFMA", (8, 4), (None, None, 4)),
    ("SM90_64x64x16_F16F16F16_SS", (2, 1, 1), None),
    ("SM90_64x32x16_F32F16F16_RS", (1, 1, 1), None),
    ("SM90_64x24x32_S32S8S8_SS_TN", (1, 1, 1), None),
]
_RANDOM_ATOMS = [
    "SM80_16x8x16_F32BF16BF16F32_TN",
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
    "SM75_8x8x16_S32S8S8S32_TN",
    "SM70_8x8x4_F16F16F16F16_NN",
    "UniversalFMA",
]


def mma_cases(n_random: int = 12, seed: int = 13) -> list[tuple]:
    """(atom name, atom layout, permutation) of every TiledMMA checked (fixed, then seeded)."""
    rng = random.Random(seed)
    out = list(_FIXED_MMA)
    for _ in range(n_random):
        name = rng.choice(_RANDOM_ATOMS)
        shape = tuple(rng.choice((1, 2, 4)) for _ in range(3))
        if shape[0] * shape[1] * shape[2] > 8:
            shape = (shape[0], shape[1], 1)
        acc, stride_l = 1, [0, 0, 0]
        for i in (2, 1, 0) if rng.random() < 0.5 else (0, 1, 2):
            stride_l[i] = acc if shape[i] > 1 else 0
            acc *= shape[i]
        stride = tuple(stride_l)
        perm = None
        if rng.random() < 0.4:
            atom = mma_atom(name)
            perm = tuple(
                None if rng.random() < 0.5 else atom.shape_mnk[i] * shape[i] * rng.choice((1, 2))
                for i in range(3)
            )
        out.append((name, Layout(shape, stride) if rng.random() < 0.5 else shape, perm))
    return out


def build_mma(case: tuple):
    name, layout, perm = case
    return make_tiled_mma(mma_atom(name), layout, perm)


def _threads(n: int) -> list[int]:
    return sorted({0, 1, n // 2 + 1, n - 1} & set(range(n)))


def _coords(t) -> str:
    return " ".join("(" + ",".join(str(int(x)) for x in v) + ")" for v in t.values())


def mma_fields(mma) -> list[str]:
    """cutepy's answer for the C++ block of :func:`mma_block`, field by field."""
    M, N, K = mma.tile_size_mnk
    out = [
        str(mma.thr_layout_vmnk),
        f"({M},{N},{K})",
        str(mma.get_layoutA_TV()),  # C++'s names (the DSL's: tv_layout_A_tiled, ...)
        str(mma.get_layoutB_TV()),
        str(mma.get_layoutC_TV()),
        _shape(partition_shape_A(mma, (2 * M, 2 * K))),
        _shape(partition_shape_B(mma, (2 * N, 2 * K))),
        _shape(partition_shape_C(mma, (2 * M, 2 * N))),
    ]
    gA, gB, gC = (make_identity_tensor(s) for s in ((2 * M, 2 * K), (2 * N, 2 * K), (2 * M, 2 * N)))
    out.append(str(partition_fragment_C(mma, (2 * M, 2 * N)).layout))
    for t in _threads(mma.size):
        s = mma.get_slice(t)
        pA, pB, pC = s.partition_A(gA), s.partition_B(gB), s.partition_C(gC)
        out += [str(pA), str(pB), str(pC), _coords(pC), _coords(pA), str(s.partition_fragment_C(gC).layout)]
        if _registers_A(mma):
            out.append(str(s.partition_fragment_A(compact_layout((2 * M, 2 * K))).layout))
    return out


def _registers_A(mma) -> bool:
    return not mma.atom.name.startswith("SM90") or "_RS" in mma.atom.name


def _shape(s) -> str:
    return str(Layout(s)).split(":")[0]


def mma_block(mma) -> str:
    M, N, K = mma.tile_size_mnk
    lines = [
        f"auto mma = {cpp(mma)};",
        'print(mma.get_thr_layout_vmnk()); printf("|");',
        'print(tile_shape(mma)); printf("|");',
        'print(mma.get_layoutA_TV()); printf("|"); print(mma.get_layoutB_TV()); printf("|");',
        'print(mma.get_layoutC_TV()); printf("|");',
        f'print(partition_shape_A(mma, make_shape(Int<{2 * M}>{{}}, Int<{2 * K}>{{}}))); printf("|");',
        f'print(partition_shape_B(mma, make_shape(Int<{2 * N}>{{}}, Int<{2 * K}>{{}}))); printf("|");',
        f"print(partition_shape_C(mma, make_shape(Int<{2 * M}>{{}}, Int<{2 * N}>{{}})));",
        f"auto gA = make_identity_tensor(make_shape(Int<{2 * M}>{{}}, Int<{2 * K}>{{}}));",
        f"auto gB = make_identity_tensor(make_shape(Int<{2 * N}>{{}}, Int<{2 * K}>{{}}));",
        f"auto gC = make_identity_tensor(make_shape(Int<{2 * M}>{{}}, Int<{2 * N}>{{}}));",
        'printf("|"); print(partition_fragment_C(mma, shape(gC)).layout());',
    ]
    for t in _threads(mma.size):
        lines.append(
            f"{{ auto s = mma.get_slice({t}); auto pA = s.partition_A(gA); auto pB = s.partition_B(gB);"
            " auto pC = s.partition_C(gC);"
            ' printf("|"); print(pA); printf("|"); print(pB); printf("|"); print(pC); printf("|");'
            ' for (int i = 0; i < size(pC); ++i) { auto c = pC(i); printf(i ? " (%d,%d)" : "(%d,%d)",'
            ' int(get<0>(c)), int(get<1>(c))); } printf("|");'
            ' for (int i = 0; i < size(pA); ++i) { auto c = pA(i); printf(i ? " (%d,%d)" : "(%d,%d)",'
            " int(get<0>(c)), int(get<1>(c))); }"
            ' printf("|"); print(s.partition_fragment_C(gC).layout());'
            + (' auto rA = make_tensor(make_gmem_ptr((half_t*)nullptr), make_layout(shape(gA)));'
               ' printf("|"); print(s.partition_fragment_A(rA).layout());' if _registers_A(mma) else "")
            + " }"
        )
    return "\n".join(lines)


def copy_cases() -> list[tuple]:
    """(key, builder) of every TiledCopy checked; a builder returns the cutepy TiledCopy and
    the C++ expression that builds it independently of :func:`cutepy.emit.cpp`."""
    out = []
    plain = [
        ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16, Layout((16, 8), (8, 1)), Layout((1, 8))),
        ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16, Layout((32, 4), (4, 1)), Layout((1, 8))),
        ("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", 32, Layout((8, 16)), Layout((2, 1))),
        ("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", 8, Layout((4, 8), (8, 1)), Layout((1, 4))),
        ("UniversalCopy<uint128_t>", 16, Layout((8, 16), (16, 1)), Layout((1, 8))),
        ("UniversalCopy<uint32_t>", 32, Layout((32, 1)), Layout((1, 1))),
        ("UniversalCopy<uint64_t>", 16, Layout((4, 32), (1, 4)), Layout((4, 1))),
        ("SM75_U32x4_LDSM_N", 16, Layout((32, 1)), Layout((1, 8))),
        ("SM75_U16x8_LDSM_T", 16, Layout((32, 1)), Layout((1, 8))),
        ("SM90_U32x4_STSM_N", 16, Layout((32, 1)), Layout((1, 8))),
    ]
    for name, bits, thr, val in plain:

        def build(name=name, bits=bits, thr=thr, val=val):
            tc = make_tiled_copy(copy_atom(name, bits), thr, val)
            return tc, f"make_tiled_copy({cpp(copy_atom(name, bits))}, {cpp(thr)}, {cpp(val)})"

        out.append((f"copy {name}@{bits} {thr} {val}", build))
    from_mma = [
        ("SM75_U32x4_LDSM_N", 16, "A", 0),
        ("SM75_U32x2_LDSM_N", 16, "B", 0),
        ("SM75_U16x8_LDSM_T", 16, "B", 0),
        ("SM75_U32x4_LDSM_N", 16, "A", 2),
        ("SM75_U32x1_LDSM_N", 16, "B", 1),
        ("UniversalCopy<uint32_t>", 16, "C", 0),
        ("SM90_U32x4_STSM_N", 16, "C", 0),
        ("UniversalCopy<uint32_t>", 32, "A", 3),
        ("UniversalCopy<uint64_t>", 64, "C", 5),
    ]
    maker = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}
    for name, bits, which, k in from_mma:

        def build(name=name, bits=bits, which=which, k=k):
            mma = build_mma(_FIXED_MMA[k])
            tc = maker[which](copy_atom(name, bits), mma)
            return tc, f"make_tiled_copy_{which}({cpp(copy_atom(name, bits))}, {cpp(mma)})"

        out.append((f"copy_{which} {name}@{bits} mma{k}", build))
    return out


def copy_fields(tc) -> list[str]:
    """cutepy's answer for the C++ block of :func:`copy_block`."""
    M, N = tc.tile_shape
    out = [str(tc.layout_tv_tiled), str(tc.layout_src_tv_tiled), str(tc.layout_dst_tv_tiled)]
    g = make_identity_tensor((2 * M, 2 * N))
    for t in _threads(tc.size):
        s = tc.get_slice(t)
        pS, pD = s.partition_S(g), s.partition_D(g)
        out += [str(pS), str(pD), _coords(pS), str(tc.retile(pD.layout))]
    return out


def copy_block(expr: str, tc) -> str:
    M, N = tc.tile_shape
    lines = [
        f"auto tc = {expr};",
        'print(typename decltype(tc)::TiledLayout_TV{}); printf("|");',
        'print(tc.get_layoutS_TV()); printf("|"); print(tc.get_layoutD_TV());',
        f"auto g = make_identity_tensor(make_shape(Int<{2 * M}>{{}}, Int<{2 * N}>{{}}));",
    ]
    for t in _threads(tc.size):
        lines.append(
            f"{{ auto s = tc.get_slice({t}); auto pS = s.partition_S(g); auto pD = s.partition_D(g);"
            ' printf("|"); print(pS); printf("|"); print(pD); printf("|");'
            ' for (int i = 0; i < size(pS); ++i) { auto c = pS(i); printf(i ? " (%d,%d)" : "(%d,%d)",'
            ' int(get<0>(c)), int(get<1>(c))); } printf("|"); print(tc.retile(pD.layout())); }'
        )
    return "\n".join(lines)


#: (name, builder) of the pictures stored for the print_latex comparison
LATEX_CASES = [
    ("mma_sm80_16x8x8", lambda: build_mma(("SM80_16x8x8_F16F16F16F16_TN", (1, 1, 1), None))),
    ("mma_sm80_2x2", lambda: build_mma(_FIXED_MMA[0])),
    ("mma_sm70_nt", lambda: build_mma(_FIXED_MMA[9])),
    ("copy_cp_async", lambda: copy_cases()[3][1]()[0]),
    ("copy_ldsm_A", lambda: copy_cases()[10][1]()[0]),
]


def read_table(path: Path = TILED_FILE) -> dict[str, list[str]]:
    return read_print_table(path)


def mma_key(case: tuple) -> str:
    name, layout, perm = case
    return f"mma {name} {layout} {perm}"


def main() -> None:
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    keys, blocks = [], []
    for case in mma_cases():
        keys.append(mma_key(case))
        blocks.append(mma_block(build_mma(case)))
    for key, build in copy_cases():
        tc, expr = build()
        keys.append(key)
        blocks.append(copy_block(expr, tc))
    res = cxx_harness.run_cases(blocks, INCLUDES)
    bad = [(k, r.error[:400]) for k, r in zip(keys, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad[:2]}")
    head = (
        "# C++ CuTe (CUTLASS 4.2) prints of TiledMMA/TiledCopy cases, static-integer underscores dropped.\n"
        "# Regenerate: python -m tests.kernels.tiled.tiled_cxx\n"
    )
    TILED_FILE.write_text(
        head + "".join(f"{k}\t{cxx_harness.normalise(r.output)}\n" for k, r in zip(keys, res))
    )
    LATEX_DIR.mkdir(exist_ok=True)
    blocks = []
    for _, build in LATEX_CASES:
        obj = build()
        expr = cpp(obj)
        blocks.append(f"print_latex({expr});")
    res = cxx_harness.run_cases(blocks, INCLUDES)
    for (name, _), r in zip(LATEX_CASES, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {name}: {r.error[:400]}")
        (LATEX_DIR / f"{name}.tex").write_text(r.output)


if __name__ == "__main__":
    main()
