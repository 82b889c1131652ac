"""Proofs over symbols: identities for every admissible assignment, counterexamples,
exact conditions, and agreement with the concrete verdict after substitution."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cutepy
from cutepy import Layout, LayoutLeft, LayoutRight, equivalent
from cutepy.core.symbolic.decide import sample_assignments
from cutepy.symbolic import Undecided, subs, symbols

# the facts travel with each symbol
M, N = symbols("Mq Nq", multiple_of=(8, 128))
K = symbols("Kq")


def _hand_tiled() -> Layout:
    """f32[M,N]{1,0:T(8,128)} by hand: tiles (8,128) row-major, row-major inside a tile.

    Element (i, j): in-tile (i%8, j%128) at 128*(i%8) + j%128; tile (i//8, j//128) at
    1024*((i//8)*(N/128) + j//128). So mode i = (8, M/8):(128, 8N), mode j = (128, N/128):(1, 1024).
    """
    return Layout(((8, M / 8), (128, N / 128)), ((128, 8 * N), (1, 1024)))


def test_xla_tiling_by_the_algebra_equals_the_hand_derivation():
    r = equivalent(lambda: cutepy.blocked_product(LayoutRight((8, 128)), LayoutRight((M / 8, N / 128))),
                   _hand_tiled(), by="modes")
    assert r and r.check()
    assert "M" not in (r.condition or "")


def _symbolic_compile(text_layout: tuple, dtype: str = "f32"):
    """A function compiling ``dtype[M,N]`` with the given XlaLayout arguments."""
    from cutepy import xla

    def build():
        shape = xla.ArrayShape(dtype, (M, N), layout=xla.XlaLayout(*text_layout[0], **text_layout[1]))
        return xla.to_cute(shape)

    return build


def test_xla_compile_of_symbolic_shape_equals_the_hand_derivation():
    """f32[M,N]{1,0:T(8,128)} through the XLA compile itself, for every M, N the facts allow."""
    r = equivalent(_symbolic_compile((((1, 0),), {"tiles": ((8, 128),)})), _hand_tiled(), by="modes")
    assert r and r.check()
    assert len(r.cases) == 4  # M == 8 or not, N == 128 or not


def test_xla_compile_of_symbolic_bf16_packing():
    """bf16[M,N]{1,0:T(8,128)(2,1)}: row pairs interleave inside each (8,128) tile."""
    hand = Layout(((2, 4, M / 8), (128, N / 128)), ((1, 256, 8 * N), (2, 1024)))
    assert equivalent(cutepy.xla.to_cute("bf16[16,256]{1,0:T(8,128)(2,1)}"),
                      cutepy.subs(hand, {M: 16, N: 256}), by="modes")
    r = equivalent(_symbolic_compile((((1, 0),), {"tiles": ((8, 128), (2, 1))}), "bf16"), hand, by="modes")
    assert r and r.check()


def test_a_wrong_hand_derivation_gets_a_counterexample():
    wrong = Layout(((8, M / 8), (128, N / 128)), ((128, 128 * N), (1, 1024)))  # 128*N, not 8*N
    r = equivalent(lambda: cutepy.blocked_product(LayoutRight((8, 128)), LayoutRight((M / 8, N / 128))),
                   wrong, by="modes")
    assert not r and r.check()
    ce = r.counterexample
    assert ce.assignment and ce.offset_a != ce.offset_b
    assert "M" in r.condition or "Mq" in r.condition  # equal only where no second tile row exists


def test_zipped_divide_mode_0_is_the_composition():
    A = Layout((M, N), (N, 1))
    r = equivalent(lambda: cutepy.zipped_divide(A, (8, 128))[0], lambda: cutepy.composition(A, (8, 128)))
    assert r and r.check()
    # without the functions, zipped_divide itself needs to know whether M == 8
    with pytest.raises(Undecided, match="Mq"):
        cutepy.zipped_divide(A, (8, 128))


def test_coalesce_of_a_symbolic_row_major_layout():
    P = symbols("Pq", multiple_of=4)
    minor_first = Layout((K, N, M), (1, K, K * N))  # row-major (M,N,K), modes listed minor first
    with pytest.raises(Undecided, match=r"needs Kq != 1"):
        cutepy.coalesce(minor_first)  # K == 1 would drop a mode: the facts do not say
    r = equivalent(lambda: cutepy.coalesce(minor_first), minor_first)
    assert r and r.check() and len(r.cases) == 2  # K == 1 and K >= 2
    K2 = symbols("K2q", min=2)
    assert str(cutepy.coalesce(Layout((K2, N, M), (1, K2, K2 * N)))) == "K2q*Mq*Nq:1"
    rm = LayoutRight((M, P))
    assert equivalent(lambda: cutepy.coalesce(rm), rm)
    assert str(cutepy.coalesce(rm)) == "(Mq,Pq):(Pq,1)"


def test_a_false_claim_and_its_counterexample():
    r = equivalent(LayoutRight((M, N)), LayoutLeft((M, N)))
    assert not r and r.condition is None and r.check()
    ce = r.counterexample
    assert ce.index == 1 and (ce.offset_a, ce.offset_b) == (ce.assignment[N.expr], 1)
    assert "for any assignment" in r.text()


def test_the_exact_condition():
    r = equivalent(Layout((8, M), (1, 8)), Layout(64, 1))
    assert not r and r.condition == "Mq == 8" and r.check()
    assert r.holds_at({M: 8}) and not r.holds_at({M: 16})
    r = equivalent(Layout((K, 4), (1, K)), Layout(4 * K, 1))
    assert r  # merges for every K
    r = equivalent(Layout((K, 4), (1, 5)), Layout(4 * K, 1))
    assert not r and r.condition == "Kq == 5"
    assert r.holds_at({K: 5}) and not r.holds_at({K: 1}) and not r.holds_at({K: 2})


def test_conditions_between_symbols():
    r = equivalent(Layout((M, N), (1, K)), Layout(M * N, 1))
    assert not r and r.condition == "Kq == Mq" and r.check()
    assert r.holds_at({M: 16, N: 128, K: 16}) and not r.holds_at({M: 16, N: 128, K: 8})
    assert "case Kq != Mq: differ" in r.text()
    r = equivalent(Layout((M, 4), (N, 8 * N)), Layout((M, 4), (N, M * N)))
    assert r.condition == "Mq == 8" and r.check()


def test_undecidable_residues_name_the_fact():
    """The residue R % 8 is not decided, yet a concrete counterexample refutes equality for
    every R (where none refutes it, the question is raised, naming the fact)."""
    R = symbols("Rq")
    r = equivalent(lambda: cutepy.composition(Layout((8, 64), (1, 16)), Layout(8 + R, 1)), Layout(8, 1))
    assert not r and r.check() and r.condition is None
    assert "Rq % 8 == 0" in r.text() and "exact condition is not known" in r.text()
    k = r.counterexample.assignment[R.expr]
    assert not equivalent(cutepy.composition(Layout((8, 64), (1, 16)), Layout(8 + k, 1)), Layout(8, 1))
    assert r.holds_at({R: k}) is False
    with pytest.raises(Undecided, match=r"needs Rq % 8 == 0"):  # the algebra alone names the fact
        cutepy.composition(Layout((8, 64), (1, 16)), Layout(8 + R, 1))


def test_text_and_latex_of_a_symbolic_proof():
    r = equivalent(Layout((M, N), (1, M)), Layout(M * N, 1))
    assert "for every assignment with Mq >= 8, Mq % 8 == 0; Nq >= 128, Nq % 128 == 0" in r.text()
    assert r.latex().startswith("\\begin{aligned}")
    assert "equivalent" in r._repr_html_()


# -- agreement with the concrete verdict ---------------------------------------------------

_SH = [1, 2, 4, 8, M / 8, N / 128, M, K]
_ST = [0, 1, 2, 8, M, N, K, 8 * N, K * M]


@st.composite
def sym_layouts(draw):
    n = draw(st.integers(1, 3))
    return Layout(tuple(draw(st.sampled_from(_SH)) for _ in range(n)),
                  tuple(draw(st.sampled_from(_ST)) for _ in range(n)))


@st.composite
def sym_pairs(draw):
    A = draw(sym_layouts())
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return A, draw(sym_layouts())
    s, d = list(A.shape), list(A.stride)
    if kind == 1:  # the same function written differently
        s.insert(draw(st.integers(0, len(s))), 1)
        d.insert(len(s) - 1, draw(st.sampled_from(_ST)))
        if type(s[0]) is int and s[0] == 8 and d[0] != 0:
            s[0:1], d[0:1] = [2, 4], [d[0], 2 * d[0]]
        return A, Layout(tuple(s), tuple(d))
    k = draw(st.integers(0, len(d) - 1))
    d[k] = draw(st.sampled_from(_ST))
    return A, Layout(tuple(s), tuple(d))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sym_pairs(), st.integers(0, 50))
def test_symbolic_verdict_agrees_with_concrete(pair, seed):
    A, B = pair
    try:
        r = equivalent(A, B)
    except Undecided:
        assume(False)
        raise  # unreachable: assume(False) stops the example
    assert r.check()
    for sigma in sample_assignments([M.expr, N.expr, K.expr], 4, seed=seed):
        concrete = bool(equivalent(subs(A, sigma), subs(B, sigma)))
        assert concrete == r.holds_at(sigma), (A, B, sigma, r.text())
        if r.holds:
            assert concrete


# -- soundness at the boundary values (issue 29's wrong verdicts, each a regression test) -----


def test_a_size_1_symbol_gets_the_static_compact_stride_0():
    """K = 1: Layout(K) is 1:0 as Layout(1) is (C++'s compact stride of a static size-1 mode),
    so the symbolic layout is refused where K may be 1 and split into cases by the prover."""
    K2 = symbols("K", max=2)
    with pytest.raises(Undecided, match=r"needs K != 1"):
        Layout(K2)
    r = equivalent(lambda: cutepy.composition(Layout(K2), Layout(2, 1)), lambda: Layout(2, 1))
    assert not r and r.check()
    assert not r.holds_at({K2: 1}) and r.holds_at({K2: 2})
    assert not equivalent(cutepy.composition(Layout(1), Layout(2, 1)), Layout(2, 1))  # the concrete truth
    ce = r.counterexample
    assert ce.assignment == {K2.expr: 1} and (ce.offset_a, ce.offset_b) == (0, 1)


def test_a_tile_larger_than_its_mode():
    K4 = symbols("K", max=4)
    r = equivalent(lambda: cutepy.logical_divide(Layout(K4), 4), lambda: Layout(4, 1))
    assert not r and r.check()
    for k in range(1, 5):
        concrete = bool(equivalent(cutepy.logical_divide(Layout(k), 4), Layout(4, 1)))
        assert r.holds_at({K4: k}) == concrete


def test_a_counterexample_is_replayed_on_the_concrete_layouts():
    """K = 1, index 1: the concrete logical_divide(1:0, 4) is (4,1):(0,0), which gives 0 there."""
    K6 = symbols("K", max=6)
    r = equivalent(lambda: cutepy.logical_divide(Layout(K6), 4), lambda: Layout(K6))
    assert not r and r.check()
    ce = r.counterexample
    k = ce.assignment[K6.expr]
    A, B = cutepy.logical_divide(Layout(k), 4), Layout(k)
    assert ce.offset_a == (A(ce.coord_a) if ce.offset_a is not None else None)
    assert ce.offset_b == (B(ce.coord_b) if ce.offset_b is not None else None)
    # a made-up offset is caught by check(), which evaluates the concrete layouts
    from cutepy.equivalence.symbolic import SymbolicCounterexample
    wrong = SymbolicCounterexample(1, 1, None, 1, None, {K6.expr: 1})
    assert not wrong.check(r.A, r.B)


def test_by_coordinate_splits_on_equal_symbols():
    M8, P8 = symbols("M P", multiple_of=8)
    r = equivalent(Layout(M8, 1), Layout(P8, 1), by="coordinate")
    assert not r and r.condition == "M == P" and r.check()
    assert r.holds_at({M8: 8, P8: 8}) and not r.holds_at({M8: 16, P8: 8})
    Kc = symbols("Kc")
    r = equivalent(Layout((Kc, 4), (1, Kc)), Layout((1, 4), (1, 1)), by="coordinate")
    assert not r and r.condition == "Kc == 1" and r.check()
    assert r.holds_at({Kc: 1}) and not r.holds_at({Kc: 2})
    assert equivalent(Layout((1, 4), (1, 1)), Layout((1, 4), (1, 1)), by="coordinate")


# -- questions that used to be refused ---------------------------------------------------------


def test_symbol_equality_under_bounds():
    """M, P <= 64: the case M != P is kept when a bounded box is enumerated (it was Undecided)."""
    Mb, Pb = symbols("Mb Pb", max=64)
    r = equivalent(Layout((Mb, 4), (1, Mb)), Layout((Mb, 4), (1, Pb)))
    assert not r and r.check()
    for m, p in ((3, 3), (3, 4), (1, 7), (64, 64), (2, 1)):
        assert r.holds_at({Mb: m, Pb: p}) == bool(equivalent(Layout((m, 4), (1, m)), Layout((m, 4), (1, p))))


def test_symbolic_swizzles_with_the_same_swizzle_compare_their_layouts():
    S = cutepy.Swizzle(3, 4, 3)
    A = cutepy.composition(S, Layout((8, M), (M, 1)))
    r = equivalent(A, cutepy.composition(S, Layout((8, M), (8, 1))))
    assert not r and r.check() and r.condition == "Mq == 8"
    assert r.holds_at({M: 8}) and not r.holds_at({M: 16})
    r = equivalent(A, cutepy.composition(S, Layout((8, M), (1, 8))))
    assert not r and r.check() and r.condition is None
    r = equivalent(lambda: cutepy.composition(S, Layout((8, M), (M, 1))),
                   lambda: cutepy.composition(S, cutepy.coalesce(Layout((8, M), (M, 1)))))
    assert r and r.check()


def test_a_swizzle_that_never_applies_is_dropped_by_a_case_split():
    K2 = symbols("Kw", min=2)
    r = equivalent(cutepy.composition(cutepy.Swizzle(1, 4, 3), Layout(K2, 1)), Layout(K2, 1))
    assert not r and r.check()  # equal while K <= 128 (the swizzle reads bit 7), refuted past it
    assert r.holds_at({K2: 128}) and not r.holds_at({K2: 129})
    ce = r.counterexample
    assert ce.assignment[K2.expr] > 128 and ce.offset_a != ce.offset_b


def test_a_symbolic_domain():
    A, B = Layout((M, 4), (1, M)), Layout((M, 4), (1, M + 1))
    r = equivalent(A, B, domain=(M, 1))
    assert r and r.check()
    r = equivalent(A, B, domain=(M, 2))
    assert not r and r.check() and r.counterexample.offset_a != r.counterexample.offset_b
    r = equivalent(Layout((M, N), (1, M)), Layout(M * N, 1), domain=M * 2)
    assert r and r.check()


def test_a_divisibility_fact_splits_into_its_values():
    """K divides 4 (4 % K == 0): finitely many values, one case each (a residue fact that was refused)."""
    Kd = symbols("Kd", divides=4)
    assert cutepy.symbolic.facts_of(Kd).values() == (1, 2, 4)
    r = equivalent(lambda: cutepy.logical_divide(Layout(4), Layout(Kd)),
                   lambda: Layout(((Kd, 4 // Kd),), ((1, Kd),)))
    assert r and r.check() and len(r.cases) == 3
    assert "4 % Kd == 0" in r.text()
    r = equivalent(lambda: cutepy.logical_divide(Layout(4), Layout(Kd)), Layout((Kd, 4 // Kd), (1, 4 // Kd)))
    assert not r and r.check()
    for k in (1, 2, 4):
        concrete = equivalent(cutepy.logical_divide(Layout(4), Layout(k)), Layout((k, 4 // k), (1, 4 // k)))
        assert r.holds_at({Kd: k}) == bool(concrete)
    assert r.holds_at({Kd: 2}) and not r.holds_at({Kd: 1})
    with pytest.raises(cutepy.SymbolicError, match="breaks the facts"):
        subs(Layout(Kd, 1), {Kd: 3})


def test_explain_shows_the_proof_its_cases_and_the_certificate():
    K2 = symbols("Ke", max=2)
    d = cutepy.explain(cutepy.equivalent, lambda: cutepy.composition(Layout(K2), Layout(2, 1)),
                       lambda: Layout(2, 1))
    text = d.text()
    assert "case Ke == 1: differ" in text and "case Ke == 2: equal" in text
    assert "normal form of A = 2:0, of B = 2:1" in text and "counterexample with Ke=1" in text
    assert not d.result and "re-checked (check()): passes" in text
    d = cutepy.explain("equivalent", Layout((M, 4), (1, M)), Layout(4 * M, 1))
    assert d.result and "merge Mq:1 ++ 4:Mq" in d.text()
    pytest.importorskip("islpy")
    assert "certificate: 3 obligations, proved" in d.text() and "proved by isl" in d.text()
