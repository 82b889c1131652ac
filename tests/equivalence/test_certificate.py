"""Certificates of symbolic proofs: obligations re-checked by isl (linear) and z3 (nonlinear)."""

from __future__ import annotations

import pytest

import cutepy
from cutepy import Layout, LayoutRight, equivalent
from cutepy.core.symbolic.facts import Facts
from cutepy.equivalence.certificate import Obligation, certify, certifying, check_obligation, obligations
from cutepy.symbolic import symbols

pytest.importorskip("islpy")
pytest.importorskip("z3")

M, N = symbols("Mc Nc", multiple_of=(8, 128))
K = symbols("Kc")


def test_a_proof_with_cases_is_certified_with_its_cover():
    r = equivalent(lambda: cutepy.blocked_product(LayoutRight((8, 128)), LayoutRight((M / 8, N / 128))),
                   Layout(((8, M / 8), (128, N / 128)), ((128, 8 * N), (1, 1024))), by="modes")
    assert r and len(r.cases) == 4
    c = certify(r)
    assert c.holds is True, c.text()
    procs = {proc for _, proc, _ in c.checks}
    assert procs == {"isl", "z3"}  # linear obligations by isl, the cover of the 4 cases by z3
    assert "cover every admissible assignment: proved by z3" in c.text()
    merges = [ob for ob in obligations(r) if "merge" in ob.what]
    assert merges and all(ob.expr is not None for ob in merges)


def test_a_split_on_k_equal_1_is_certified():
    L = Layout((K, N, M), (1, K, K * N))
    r = equivalent(lambda: cutepy.coalesce(L), L)
    assert r and len(r.cases) == 2 and r.certificate().holds is True and r.check()


def test_a_false_obligation_is_refuted_with_a_witness():
    m = M.expr
    linear = Obligation("M == 8", ({m: Facts(8, 8, None)}, (), ()), m - 8)
    proc, res, wit = check_obligation(linear)
    assert (proc, res) == ("isl", False) and wit[m] % 8 == 0 and wit[m] != 8
    square = Obligation("M*M == 64", ({m: Facts(8, 8, None)}, (), ()), m * m - 64)
    proc, res, wit = check_obligation(square)
    assert (proc, res) == ("z3", False) and wit[m] ** 2 != 64 and wit[m] % 8 == 0
    residue = Obligation("M % 16 == 0 under M % 16 == 0", ({m: Facts(16, 16, None)}, (), ()), m % 16)
    assert check_obligation(residue)[1] is True


def test_nonlinear_obligations_go_to_z3():
    m, n = M.expr, N.expr
    ob = Obligation("(M*N) // 8 == (M/8)*N", ({}, (), ()), (m * n) // 8 - (m / 8) * n)
    proc, res, _ = check_obligation(ob)
    assert proc == "z3" and res is True


def test_certifying_raises_on_a_refuted_certificate(monkeypatch):
    from cutepy.equivalence import certificate

    def refuted(r):
        c = certificate.Certificate([Obligation("planted", ({}, (), ()), 1)])
        c.checks.append((c.obligations[0], "test", False))
        return c

    monkeypatch.setattr(certificate, "certify", refuted)
    with certifying(), pytest.raises(cutepy.CutepyError, match="certificate of this proof is refuted"):
        equivalent(Layout((M, 4), (1, M)), Layout(4 * M, 1))
