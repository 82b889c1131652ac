"""The symbolic algebra gives the concrete algebra's layout at every admissible assignment.

Each example is an expression of the algebra's operations over declared symbols
(:func:`cutepy.strategies.symbolic_cases`), built twice: with the symbols (in the case of
the prover's split that holds the assignment, :func:`~cutepy.equivalence.symbolic.build_at`)
and with the integers of the assignment (the concrete algebra, nothing substituted). The
assignments favour boundary values (a symbol equal to 1 or to its bound, two symbols equal,
tiles larger than their modes), and the CI profile keeps them (seeded). Where the concrete
algebra refuses the expression, the symbolic one must refuse it too.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings

from cutepy import equivalent
from cutepy.core.errors import CutepyError
from cutepy.equivalence.symbolic import build_at
from cutepy.strategies import symbolic_cases, symbolic_pairs
from cutepy.symbolic import SymbolicError, subs


def _concrete(case):
    try:
        return case.concrete(), None
    except CutepyError as e:
        return None, e


def _symbolic_at(case):
    sigma = case.assignment()
    try:
        got, _ = build_at(case.symbolic, sigma)
    except SymbolicError:  # refused even with every symbol pinned to its value (an element-wise check,
        assume(False)  # an overlap C++ answers only for values): no layout to compare
    except CutepyError as e:
        return None, e
    return subs(got, {k: v for k, v in sigma.items()}), None


@given(symbolic_cases())
def test_the_symbolic_algebra_gives_the_concrete_layout(case):
    want, refused = _concrete(case)
    got, sym_refused = _symbolic_at(case)
    if refused is not None:
        assert sym_refused is not None, f"{case.text}: the concrete algebra refuses ({refused}), not {got}"
    else:
        assert sym_refused is None, f"{case.text}: {want}, but the symbolic algebra refuses ({sym_refused})"
        assert got == want, f"{case.text}: symbolic {got} vs concrete {want}"


@given(symbolic_pairs())
def test_every_verdict_holds_at_the_assignment(pair):
    """equivalent() on two expressions (functions built again in each case): its verdict at the
    assignment is the concrete verdict on the layouts built from the values; check() passes."""
    A, B = pair
    try:
        want = bool(equivalent(A.concrete(), B.concrete()))
    except CutepyError:
        assume(False)  # no concrete layouts to compare at this assignment
    try:
        r = equivalent(A.symbolic, B.symbolic)
    except CutepyError:
        # no verdict: a question the prover cannot split (named), or an expression that is
        # undefined at other assignments (inadmissible there: the error says in which case)
        assume(False)
    assert r.holds_at(A.assignment()) == want, f"{A.text} vs {B.text}:\n{r.text()}"
    assert r.check()


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None)
@given(symbolic_cases())
def test_the_symbolic_algebra_gives_the_concrete_layout_10000(case):
    """The same property over 10^4 seeded cases (CUTEPY_SLOW=1 or -m slow; ~20 min on one core)."""
    test_the_symbolic_algebra_gives_the_concrete_layout.hypothesis.inner_test(case)
