"""tensor-layouts' analysis tests (tests/analysis.py in jduprat/tensor-layouts), rewritten against cutepy.

tensor-layouts' analysis module maps onto cutepy as follows:

- ``offset_table`` / ``footprint`` / ``cycles`` / ``fixed_points`` / ``order``: questions about a
  layout's offsets. The ports were written before cutepy had these helpers (it has them now,
  under these names, in ``cutepy.kernels.analysis``, checked against brute force and these
  peers in tests/kernels/test_analysis.py); they ask cutepy's evaluation
  (``L(i)``, ``idx2crd``, ``cosize``) the same questions, so each assertion checks a fact of
  cutepy's layouts (e.g. that ``Sw<3,0,3> o (8,8):(8,1)`` permutes ``[0, 64)`` fixing 0);
- ``contiguity(L)`` is ``max_common_vector(L, Layout(size(L)))`` in both libraries (their
  docstring says so); ``mode_contiguity`` / ``slice_contiguity`` apply it to a mode / a slice.
  Checked against C++'s ``max_common_vector`` with g++;
- ``bank_conflicts`` / ``per_group_bank_conflicts``: ``cutepy.banks.analyze`` /
  ``analyze_layout``. **The models differ**: tensor-layouts counts, over the first 32
  threads and *all values of each thread at once*, the most distinct 4-byte words in one
  bank (``max_ways``); cutepy costs each warp instruction as the hardware issues it (one
  instruction per value vector; phases per access width; wavefronts = sum over phases of the
  most distinct words in a bank; measured on H100, docs/banks.md). For one value per thread
  of at most 4 bytes both give the same number (one phase: ``max_ways == wavefronts``);
  for thread-value layouts the ports check cutepy's per-instruction numbers. A ``group_size``
  of 64 threads analysed as one access is not how a GPU issues shared-memory requests
  (a warp is), so that half of test_bank_conflicts_group_size checks the per-warp numbers;
- ``atom_summary`` / ``operand_analysis``: cutepy's ``mma_atom`` layouts and
  ``cutepy.kernels.tiled.checks.check_cover`` (every element of each operand's tile held exactly once);
- ``explain``: ``cutepy.explain`` (a Derivation, checked against the real operation); the
  ports check its result and the sub-operations it is made of (their arguments and results),
  not tensor-layouts' wording;
- ``to_F2_matrix``: the columns of a power-of-two layout's F2 matrix are ``L(2^j)``; the ports
  build the matrix from cutepy's evaluation and check that it reproduces ``L`` (XOR-linearity,
  swizzles included) and, for MMA accumulators, Triton's LinearLayout bases.

Count (tests/analysis.py): 94 tests in the peer file, 70 ported, 24 not ported:

- test_coalescing_* (6), test_segment_analysis_* (4), test_per_group_coalescing* (2): global-memory
  transactions (cache lines, 32-byte sectors): not ported here; cutepy's own model
  (``cutepy.kernels.analysis.coalescing``, the CUDA guide's rule, docs/analyses.md) is tested in
  tests/kernels/test_analysis.py;
- test_bank_conflicts_group_size_validation: a parameter cutepy does not have (a warp is 32 lanes);
- test_cycles_not_bijective, test_order_not_bijective, test_F2_matrix_non_power_of_2_raises: the
  errors of tensor-layouts-only helpers (here they would test only the port's own helpers);
- test_atom_summary_amd_cdna: an AMD atom;
- test_atom_summary_text_output, test_mma_atom_str, test_copy_atom_str, test_mma_atom_repr_is_verbose:
  their classes' text formats (cutepy prints C++'s ``print(MMA_Atom)`` form);
- test_explain_compose (a per-element trace ``i=0: ...``), test_explain_blocked_product /
  test_explain_raked_product's wording ("A varies fastest"): presentation only. (The results of
  these three explanations are still checked, in test_explain_results_match_cxx.)

The sub-byte SM80, SM89 FP8, SM120, SM90 F64/C64 and SM100 UMMA atoms these tests use were
missing when this port was written; cutepy has them now, under C++'s names (the UMMA atoms
take C++'s majors: ``SM100_MMA_F16BF16_SS<half_t,half_t,half_t,64,64,K,K>``).
"""

from __future__ import annotations

import dataclasses
from math import lcm

import pytest

import cutepy as cp
from cutepy import Layout, Swizzle
from cutepy.banks import analyze, analyze_layout
from cutepy.kernels.tiled.checks import check_cover
from tests.cxx import cxx_cases
from tests.cxx.cxx_cases import Case, cx


def offsets(L):
    return [L(i) for i in range(cp.size(L))]


def sw(b, m, s, shape, stride):
    return cp.composition(Swizzle(b, m, s), Layout(shape, stride))


# -- offset_table, footprint -----------------------------------------------------------------


def offset_table(L):
    """offset -> the natural coordinates that reach it (cutepy's idx2crd and evaluation)."""
    table: dict[int, list] = {}
    for i in range(cp.size(L)):
        table.setdefault(L(i), []).append(cp.idx2crd(i, L.shape))
    return table


def test_offset_table_contiguous():
    assert offset_table(Layout(4, 1)) == {0: [0], 1: [1], 2: [2], 3: [3]}


def test_offset_table_2d():
    t = offset_table(Layout((2, 2), (1, 2)))
    assert (t[0], t[1], t[2], t[3]) == ([(0, 0)], [(1, 0)], [(0, 1)], [(1, 1)])


def test_offset_table_broadcast():
    t = offset_table(Layout((4, 2), (0, 1)))
    assert len(t[0]) == 4 and len(t[1]) == 4


def test_offset_table_strided():
    t = offset_table(Layout(4, 2))
    assert set(t) == {0, 2, 4, 6} and all(len(v) == 1 for v in t.values())


@pytest.mark.parametrize("layout, lo, hi, unique, total, holes", [
    (Layout(8, 1), 0, 7, 8, 8, 0),                # test_footprint_contiguous
    (Layout(4, 2), 0, 6, 4, 4, 3),                # test_footprint_strided
    (Layout((4, 2), (0, 1)), 0, 1, 2, 8, 0),      # test_footprint_broadcast
])
def test_footprint(layout, lo, hi, unique, total, holes):
    offs = offsets(layout)
    assert (min(offs), max(offs)) == (lo, hi)
    assert cp.cosize(layout) == hi + 1                        # span == cosize for these
    assert len(set(offs)) == unique and cp.size(layout) == total
    assert total / unique == {8: 1.0, 4: 1.0, 2: 4.0}[unique]  # their reuse factor
    assert cp.cosize(layout) - unique == holes


# -- bank conflicts ----------------------------------------------------------------------------


def smem_for(tv):
    """The identity shared-memory layout over every offset ``tv`` reaches."""
    return Layout(max(offsets(tv)) + 1)


def one_warp(tv, element_bytes):
    return analyze_layout(smem_for(tv), tv, element_bytes=element_bytes, partial=True)


def test_bank_conflicts_linear():
    r = one_warp(Layout(32, 1), 2)
    assert r.bank_conflicts == 0 and r.wavefronts == 1          # max_ways 1


def test_bank_conflicts_broadcast():
    r = one_warp(Layout(32, 0), 2)
    assert r.bank_conflicts == 0


def test_bank_conflicts_stride_32():
    r = one_warp(Layout(32, 32), 2)
    assert r.bank_conflicts > 0
    assert r.wavefronts == 16          # 64-byte steps: banks 0 and 16, 16 words each (theirs too)


def test_bank_conflicts_swizzled():
    S = sw(3, 0, 3, (8, 8), (8, 1))
    for thread in range(8):
        row = [S(thread, v) for v in range(8)]
        assert len({o % 32 for o in row}) == 8
        r = analyze([4 * o for o in row] + [None] * 24, op="ld", bytes=4)   # 8 lanes, 4-byte words
        assert r.bank_conflicts == 0


def test_bank_conflicts_fp32():
    assert one_warp(Layout(32, 1), 4).bank_conflicts == 0


def test_bank_conflicts_group_size():
    """The first warp of 64 threads costs what 32 threads cost; the second warp costs the same
    (cutepy analyses warps, never 64 threads as one access)."""
    r32 = one_warp(Layout(32, 32), 2)
    r64 = one_warp(Layout(64, 32), 2)
    (w0, n0, wf0, _), (w1, n1, wf1, _) = r64.per_warp()
    assert (w0, w1) == (0, 1) and wf0 == r32.wavefronts == wf1 and n0 == n1 == 1


def test_bank_conflicts_tv_layout():
    """(32,2):(1,32) fp16: cutepy issues two 2-byte loads (values 32 apart are no vector); each
    is conflict-free and together they touch all 32 banks (theirs: one access, 32 banks)."""
    r = one_warp(Layout((32, 2), (1, 32)), 2)
    assert r.bank_conflicts == 0 and len(r.instructions) == 2
    banks = {(a // 4) % 32 for i in r.instructions for a in i.report.addresses if a is not None}
    assert len(banks) == 32


def test_per_group_bank_conflicts():
    single = one_warp(Layout(32, 32), 2)
    per = one_warp(Layout(64, 32), 2).per_warp()
    assert len(per) == 2
    assert all(wf == single.wavefronts for _, _, wf, _ in per)
    assert max(wf for _, _, wf, _ in per) == single.wavefronts


def test_per_group_bank_conflicts_tv_layout():
    per = one_warp(Layout((32, 4), (1, 32)), 2).per_warp()
    assert len(per) == 1 and per[0][1] == 4          # one warp, four instructions (one per value)


# -- permutations: cycles, fixed points, order ------------------------------------------------


def cycles(L):
    perm = offsets(L)
    assert sorted(perm) == list(range(len(perm)))
    seen, out = set(), []
    for s in range(len(perm)):
        if s in seen:
            continue
        c, x = [], s
        while x not in seen:
            seen.add(x)
            c.append(x)
            x = perm[x]
        out.append(c)
    return out


def test_cycles_identity():
    assert cycles(Layout(4, 1)) == [[0], [1], [2], [3]]


def test_cycles_swap():
    c = cycles(Layout((2, 2), (2, 1)))
    assert [0] in c and [3] in c and [1, 2] in c


def test_cycles_swizzle():
    c = cycles(sw(3, 0, 3, (8, 8), (8, 1)))
    assert sorted(o for cyc in c for o in cyc) == list(range(64))
    assert [0] in c


def test_fixed_points_identity():
    L = Layout(4, 1)
    assert [i for i in range(4) if L(i) == i] == [0, 1, 2, 3]


def test_fixed_points_swap():
    L = Layout((2, 2), (2, 1))
    assert [i for i in range(4) if L(i) == i] == [0, 3]


def test_fixed_points_broadcast():
    L = Layout(4, 0)
    assert [i for i in range(4) if L(i) == i] == [0]


def test_order_identity():
    assert lcm(*map(len, cycles(Layout(4, 1)))) == 1


def test_order_swap():
    L = Layout((2, 2), (2, 1))
    assert lcm(*map(len, cycles(L))) == 2
    assert cp.coalesce(cp.composition(L, L)) == Layout(4, 1)     # L o L is the identity


def test_order_swizzle():
    S = sw(3, 0, 3, (8, 8), (8, 1))
    o = lcm(*map(len, cycles(S)))
    for i in range(64):
        x = i
        for _ in range(o):
            x = S(x)
        assert x == i


# -- contiguity: max_common_vector --------------------------------------------------------------


def contiguity(L):
    return cp.max_common_vector(L, Layout(cp.size(L)))


@pytest.mark.parametrize("layout, want", [
    (Layout(8, 1), 8),                  # test_contiguity_contiguous
    (Layout(8, 2), 1),                  # test_contiguity_strided
    (Layout((4, 8), (1, 4)), 32),       # test_contiguity_2d_col_major
    (Layout((4, 8), (1, 8)), 4),        # test_contiguity_2d_gapped
    (Layout((4, 8), (8, 1)), 1),        # test_contiguity_2d_row_major
    (Layout(8, 0), 1),                  # test_contiguity_broadcast
])
def test_contiguity(layout, want):
    assert contiguity(layout) == want


@pytest.mark.parametrize("layout, want", [
    (Layout((4, 8), (1, 4)), [4, 1]),   # test_mode_contiguity_col_major
    (Layout((4, 8), (8, 1)), [1, 8]),   # test_mode_contiguity_row_major
    (Layout((4, 8), (1, 8)), [4, 1]),   # test_mode_contiguity_gapped
])
def test_mode_contiguity(layout, want):
    assert [contiguity(layout[i]) for i in range(cp.rank(layout))] == want


@pytest.mark.parametrize("layout, row, col", [
    (Layout((4, 8), (8, 1)), 8, 1),     # test_slice_contiguity_row_major
    (Layout((4, 8), (1, 4)), 1, 4),     # test_slice_contiguity_col_major
])
def test_slice_contiguity(layout, row, col):
    assert contiguity(layout(0, None)) == row and contiguity(layout(None, 0)) == col


def test_contiguity_as_cxx(cxx):
    """C++'s max_common_vector(L, make_layout(size(L))) on every layout above."""
    Ls = [Layout(8, 1), Layout(8, 2), Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)), Layout((4, 8), (8, 1)),
          Layout(8, 0), Layout(4, 1), Layout(8, 4), Layout(4, 8), Layout((4,), (1,)), Layout((8,), (1,))]
    cases = [Case("max_common_vector", (L,), lambda L=L: contiguity(L),
                  f"print(max_common_vector({cx(L)}, make_layout(size({cx(L)}))));") for L in Ls]
    bad = [v for v in cxx_cases.run(cases) if v.kind != "exact"]
    assert not bad, [(v.case.args, v.cutepy, v.cxx) for v in bad]


# -- atoms --------------------------------------------------------------------------------------


def covers_once(tv, extent):
    return sorted(offsets(tv)) == list(range(extent))


def test_atom_summary_nv_sm80():
    a = cp.mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    assert a.shape_mnk == (16, 8, 16) and cp.size(a.thr_id) == 32
    assert cp.size(a.tv_layout_C) // cp.size(a.thr_id) > 0
    assert covers_once(a.tv_layout_C, 16 * 8) and check_cover(cp.make_tiled_mma(a)).ok


def test_atom_summary_nv_sm80_f32():
    a = cp.mma_atom("SM80_16x8x8_F32F16F16F32_TN")
    assert a.shape_mnk == (16, 8, 8) and cp.size(a.thr_id) == 32
    assert covers_once(a.tv_layout_C, 16 * 8) and check_cover(cp.make_tiled_mma(a)).ok


def _bad_atom(c_layout):
    base = cp.mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    return dataclasses.replace(base, name="test_bad", shape_mnk=(2, 2, 1), thr_id=Layout(4),
                               tv_layout_A=Layout((4, 1), (1, 0)), tv_layout_B=Layout((4, 1), (1, 0)),
                               tv_layout_C=c_layout)


def test_atom_summary_rejects_wrong_c_offsets():
    bad = _bad_atom(Layout(((2, 2), 1), ((1, 4), 0)))           # offsets {0, 1, 4, 5}
    assert not covers_once(bad.tv_layout_C, 4)
    r = check_cover(cp.make_tiled_mma(bad))
    assert not r.ok and "C: a (thread, value) pair reaches index 4" in r.reason


def test_atom_summary_rejects_duplicate_c_coverage():
    bad = _bad_atom(Layout((4, 2), (1, 0)))                     # each offset twice
    assert not covers_once(bad.tv_layout_C, 4)
    r = check_cover(cp.make_tiled_mma(bad))
    assert not r.ok and "C: element (0,0) is held by 2" in r.reason


def test_operand_analysis_sm80():
    a = cp.mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    M, N, K = a.shape_mnk
    for tv, extent in ((a.tv_layout_A, M * K), (a.tv_layout_B, N * K), (a.tv_layout_C, M * N)):
        assert covers_once(tv, extent)                     # coverage, no duplicates, every (t, v) used
    assert (M * K, N * K, M * N) == (16 * 16, 8 * 16, 16 * 8)


def test_operand_analysis_bad_coverage():
    bad = _bad_atom(Layout(((2, 2), 1), ((1, 4), 0)))
    got = set(offsets(bad.tv_layout_C))
    assert set(range(4)) - got and got - set(range(4))           # missing {2, 3}, extra {4, 5}
    assert not check_cover(cp.make_tiled_mma(bad)).ok


# -- explain ------------------------------------------------------------------------------------

EXPLAINED = [
    ("logical_divide", (Layout(16, 1), 4), "(4,4):(1,4)"),
    ("logical_product", (Layout(4, 1), Layout(3, 1)), "(4,3):(1,4)"),
    ("logical_product", (Layout((4, 4), (1, 4)), (2, 2)), "((4,2),(4,2)):((1,4),(4,1))"),
    ("complement", (Layout(4, 2), 16), "(2,2):(1,8)"),
    ("composition", (Layout(8, 2), Layout(4, 1)), "4:2"),
    ("right_inverse", (Layout(4, 2),), "1:0"),
    ("left_inverse", (Layout(4, 2),), "(2,4):(0,1)"),
    ("blocked_product", (Layout((2, 3), (1, 2)), Layout((4, 2), (1, 4))), "((2,4),(3,2)):((1,6),(2,24))"),
    ("raked_product", (Layout(4, 1), Layout(3, 1)), "((3,4)):((4,1))"),
    ("zipped_divide", (Layout((4, 6), (1, 4)), (2, 3)), "((2,3),(2,2)):((1,4),(2,12))"),
    ("tiled_divide", (Layout((4, 6), (1, 4)), (2, 3)), "((2,3),2,2):((1,4),2,12)"),
    ("flat_divide", (Layout((4, 6), (1, 4)), (2, 3)), "(2,3,2,2):(1,4,2,12)"),
]


def _explain(op, *args):
    D = cp.explain(getattr(cp, op), *args)
    assert D.result == getattr(cp, op)(*args)
    return D, D.text()


def subs(D):
    """The operations the derivation is made of: ``{op: (args, result)}`` of its direct sub-steps."""
    return {s.sub.op: (s.sub.args, s.sub.result) for s in D.steps if s.sub is not None}


def test_explain_logical_divide():
    """C++'s definition: composition(A, make_layout(T, complement(T, size(A))))."""
    D, text = _explain("logical_divide", Layout(16, 1), 4)
    parts = subs(D)
    assert parts["complement"] == ((Layout(4, 1), 16), Layout(4, 4))
    assert parts["composition"][1] == D.result == Layout((4, 4), (1, 4))
    assert text.startswith("logical_divide")


def test_explain_logical_product():
    """C++'s definition: make_layout(A, composition(complement(A, size(A)*cosize(B)), B))."""
    D, text = _explain("logical_product", Layout(4, 1), Layout(3, 1))
    parts = subs(D)
    assert parts["complement"] == ((Layout(4, 1), 12), Layout(3, 4))
    assert parts["composition"] == ((Layout(3, 4), Layout(3, 1)), Layout(3, 4))
    assert D.result == Layout((4, 3), (1, 4)) and text.startswith("logical_product")


def test_explain_logical_product_tuple_tiler():
    D, text = _explain("logical_product", Layout((4, 4), (1, 4)), (2, 2))
    modes = [s.sub for s in D.steps if s.sub is not None]
    assert [m.op for m in modes] == ["logical_product", "logical_product"]        # mode 0, mode 1
    assert [m.result for m in modes] == [cp.logical_product(Layout(4, 1), Layout(2, 1)),
                                         cp.logical_product(Layout(4, 4), Layout(2, 1))]
    assert "mode 0" in text and "mode 1" in text
    assert str(cp.logical_product(Layout((4, 4), (1, 4)), (2, 2))) in text


def test_explain_complement():
    """Their wording ('image', 'codomain [0, 16)') is presentation; the result is C++'s."""
    D, text = _explain("complement", Layout(4, 2), 16)
    assert text.startswith("complement(4:2, 16)")
    assert D.result == Layout((2, 2), (1, 8))


def test_explain_right_inverse():
    A = Layout(4, 2)
    D, text = _explain("right_inverse", A)
    assert text.startswith("right_inverse")
    R = D.result
    assert all(A(R(i)) == i for i in range(cp.size(R)))          # their "Verification"


def test_explain_left_inverse():
    A = Layout(4, 2)
    D, text = _explain("left_inverse", A)
    assert text.startswith("left_inverse")
    R = D.result
    assert all(R(A(i)) == i for i in range(cp.size(A)))


def test_explain_unsupported():
    """tensor-layouts answers 'does not support' for size; cutepy explains it as a direct computation
    (one step, no sub-operations) and raises for an operation it does not know."""
    D = cp.explain(cp.size, Layout(4, 1))
    assert D.result == 4 and len(D.steps) == 1 and not subs(D)
    with pytest.raises(cp.CutepyError):
        cp.explain("no_such_operation", Layout(4, 1))


@pytest.mark.parametrize("op, made_of", [
    ("zipped_divide", "logical_divide"),       # test_explain_zipped_divide
    ("tiled_divide", "zipped_divide"),         # test_explain_tiled_divide
    ("flat_divide", "zipped_divide"),          # test_explain_flat_divide
])
def test_explain_divides(op, made_of):
    A, T = Layout((4, 6), (1, 4)), (2, 3)
    D, text = _explain(op, A, T)
    (args, result), = subs(D).values()
    assert list(subs(D)) == [made_of] and result == getattr(cp, made_of)(A, T)
    assert text.startswith(op) and "logical_divide" in text


def test_explain_results_match_cxx(cxx):
    """Every explained result, as C++ prints it (also covers explain's compose, blocked and raked)."""
    cases = []
    for op, args, want in EXPLAINED:
        assert str(cp.explain(getattr(cp, op), *args).result) == want
        a = ", ".join(cxx_cases.cx_tiler(x) if type(x) is tuple else cx(x) for x in args)
        cases.append(Case(op, args, lambda op=op, args=args: cp.explain(getattr(cp, op), *args).result,
                          f"print({op}({a}));"))
    bad = [v for v in cxx_cases.run(cases) if v.kind != "exact"]
    assert not bad, [(v.case.op, v.cutepy, v.cxx) for v in bad]


# -- F2 matrices --------------------------------------------------------------------------------


def f2_matrix(L):
    """Columns ``L(2^j)`` as bit vectors; rows = bits of the largest offset."""
    n = cp.size(L)
    assert n & (n - 1) == 0
    cols = [L(1 << j) for j in range(n.bit_length() - 1)]
    rows = max(max(offsets(L)).bit_length(), 1)
    return [[(c >> i) & 1 for c in cols] for i in range(rows)]


def verify_f2(L):
    """L(i) is the XOR of the columns of i's set bits (L is linear over F2)."""
    M = f2_matrix(L)
    ncols = len(M[0])
    for i in range(cp.size(L)):
        bits = [(i >> b) & 1 for b in range(ncols)]
        off = sum((sum(M[r][j] * bits[j] for j in range(ncols)) % 2) << r for r in range(len(M)))
        assert off == L(i), (L, i)


def triton_matrix(bases, M, N):
    cols = [d0 + M * d1 for d0, d1 in bases]
    rows = max(max(max(cols), M * N - 1).bit_length(), 1)
    return [[(c >> i) & 1 for c in cols] for i in range(rows)]


def test_F2_matrix_identity():
    assert f2_matrix(Layout(4, 1)) == [[1, 0], [0, 1]]


def test_F2_matrix_row_major():
    M = f2_matrix(Layout((4, 8), (8, 1)))
    assert len(M) == 5 and len(M[0]) == 5
    verify_f2(Layout((4, 8), (8, 1)))


def test_F2_matrix_col_major():
    assert f2_matrix(Layout((4, 8), (1, 4))) == [[int(i == j) for j in range(5)] for i in range(5)]


def test_F2_matrix_swizzle():
    L = sw(3, 0, 3, (8, 8), (8, 1))
    assert f2_matrix(L)[0][3] == 1
    verify_f2(L)


def test_F2_matrix_hierarchical():
    verify_f2(Layout(((2, 4), (2, 4)), ((1, 2), (8, 16))))


def test_F2_matrix_stride_2():
    assert f2_matrix(Layout(4, 2)) == [[0, 0], [1, 0], [0, 1]]
    verify_f2(Layout(4, 2))


def test_F2_matrix_swizzle_8x8_structure():
    L = sw(3, 0, 3, (8, 8), (8, 1))
    assert f2_matrix(L) == [
        [1, 0, 0, 1, 0, 0],
        [0, 1, 0, 0, 1, 0],
        [0, 0, 1, 0, 0, 1],
        [1, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 0],
    ]
    verify_f2(L)


SM80_C = "SM80_16x8x16_F16F16F16F16_TN"
MMAV2_BASES = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0), (0, 1), (8, 0)]      # lanes, then registers


def test_F2_matrix_sm80_mma_c_accumulator():
    c = cp.mma_atom(SM80_C).tv_layout_C
    assert f2_matrix(c) == [
        [0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 1, 0],
        [1, 0, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 0, 0],
    ]
    verify_f2(c)


def test_F2_matrix_sm80_c_vs_triton_MMAv2():
    c = cp.mma_atom(SM80_C).tv_layout_C
    assert f2_matrix(c) == triton_matrix(MMAV2_BASES, 16, 8)
    verify_f2(c)


def test_F2_matrix_sm80_c_all_atoms_share_layout():
    ref = f2_matrix(cp.mma_atom("SM80_16x8x8_F16F16F16F16_TN").tv_layout_C)
    for name in ("SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
                 "SM80_16x8x32_S32S8S8S32_TN"):
        assert f2_matrix(cp.mma_atom(name).tv_layout_C) == ref, name


def test_F2_matrix_sm80_c_all_atoms_share_layout_missing_atoms():
    ref = f2_matrix(cp.mma_atom("SM80_16x8x8_F16F16F16F16_TN").tv_layout_C)
    for name in ("SM80_16x8x64_S32S4S4S32_TN", "SM89_16x8x32_F32E4M3E4M3F32_TN",
                 "SM120_16x8x32_F32E4M3E4M3F32_TN"):
        assert f2_matrix(cp.mma_atom(name).tv_layout_C) == ref, name


def test_F2_matrix_sm90_gmma_c_64x16_vs_triton_MMAv3():
    c = cp.mma_atom("SM90_64x16x16_F16F16F16_SS").tv_layout_C
    bases = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0), (16, 0), (32, 0), (0, 1), (8, 0), (0, 8)]
    assert f2_matrix(c) == triton_matrix(bases, 64, 16)
    verify_f2(c)


def test_F2_matrix_sm90_gmma_c_parametric():
    for n in (8, 16, 32, 64, 128, 256):
        verify_f2(cp.mma_atom(f"SM90_64x{n}x16_F16F16F16_SS").tv_layout_C)


def test_F2_matrix_sm80_a_operand():
    a = cp.mma_atom(SM80_C).tv_layout_A
    M = f2_matrix(a)
    assert len(M) == 8 and len(M[0]) == 8
    verify_f2(a)


def test_F2_matrix_sm80_b_operand():
    b = cp.mma_atom(SM80_C).tv_layout_B
    M = f2_matrix(b)
    assert len(M) == 7 and len(M[0]) == 7
    verify_f2(b)


def test_F2_matrix_sm90_gmma_c_64x32_vs_triton_MMAv3():
    c = cp.mma_atom("SM90_64x32x16_F16F16F16_SS").tv_layout_C
    bases = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0), (16, 0), (32, 0), (0, 1), (8, 0), (0, 8), (0, 16)]
    assert f2_matrix(c) == triton_matrix(bases, 64, 32)
    verify_f2(c)


def test_F2_matrix_sm90_warp_c_vs_triton_MMAv3():
    want = triton_matrix(MMAV2_BASES, 16, 8)
    for name in ("SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x16_F64F64F64F64_TN",
                 "SM90_16x8x16_C64C64C64C64_TN"):
        c = cp.mma_atom(name).tv_layout_C
        assert f2_matrix(c) == want, name


def _umma_identity(c, bits):
    M = f2_matrix(c)
    assert len(M) == bits and M == [[int(i == j) for j in range(bits)] for i in range(bits)]
    verify_f2(c)


def test_F2_matrix_sm100_umma_c_identity():
    _umma_identity(cp.mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,half_t,64,64,K,K>").tv_layout_C, 12)


def test_F2_matrix_sm100_umma_c_parametric():
    for m, n in ((64, 64), (64, 128), (64, 256), (128, 64), (128, 128), (128, 256)):
        c = cp.mma_atom(f"SM100_MMA_F16BF16_SS<half_t,half_t,half_t,{m},{n},K,K>").tv_layout_C
        _umma_identity(c, (m * n).bit_length() - 1)
