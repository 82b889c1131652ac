"""Issue 25, item 8: symbolic and concrete ``max_common_vector`` agree, and agree with C++.

The definition (C++'s ``max_common_layout`` post-condition, which ``max_common_vector`` is
the size of): ``N`` contiguous offsets ``0 .. N-1`` that A and B reach from the same
coordinates, ``A(V(k)) == k == B(V(k))`` for ``k < N`` with ``V = max_common_layout(A, B)``.
C++ states the vector's post-condition as ``A(B.get_1d_coord(k)) == k``, which has no
meaning where B has a stride-0 mode (``get_1d_coord`` divides by it) or is not one-to-one
(it picks one of several coordinates); the concrete check used to raise there although
C++'s answer is right. The C++ answers are stored in ``tests/data/max_common_vector_cxx47.txt``
(CUTLASS 4.7); regenerate with
``CUTEPY_CXX_INCLUDE=/work/cutlass47/include:<cccl>:<cuda_runtime>:<nvcc> python -m
tests.algebra.test_edge_max_common_vector``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cutepy
from cutepy import Layout
from tests.cxx import cxx_harness
from tests.cxx.cxx_cases import cx
from tests.fuzz import brute
from tests.paths import DATA

TABLE = DATA / "max_common_vector_cxx47.txt"


def _family(m: int, n: int) -> Layout:
    """The issue's ``A = (2M,N,M):(2M,0,1)`` at ``M = m``, ``N = n``."""
    return Layout((2 * m, n, m), (2 * m, 0, 1))


# (A, B) pairs whose C++ answers are stored
CASES = [
    *((_family(m, n), _family(m, n)) for m, n in [(128, 5), (128, 2), (2, 3), (3, 2), (4, 7)]),
    # a B that is not one-to-one (found by the fuzz run of seed 90211): C++ answers 5
    (Layout(((4, 6), 1), ((8, 1), 8)), Layout((4, 5), (2, 1))),
    (Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8))),
    (Layout((8, 3, 4), (1, 0, 8)), Layout((8, 3, 4), (1, 32, 8))),
    (Layout((2, 4, 2), (4, 1, 0)), Layout((2, 4, 2), (1, 2, 0))),
]


def _key(A: Layout, B: Layout) -> str:
    return f"{A} {B}"


def _read() -> dict[str, int]:
    out = {}
    for line in TABLE.read_text().splitlines():
        if line and not line.startswith("#"):
            key, value = line.split("\t")
            out[key] = int(value)
    return out


def test_concrete_answers_are_cxx_answers():
    stored = _read()
    assert len(stored) == len(CASES)
    for A, B in CASES:
        n = cutepy.max_common_vector(A, B)
        assert n == stored[_key(A, B)], (A, B)
        _holds(n, A, B)


def _holds(n: int, A: Layout, B: Layout) -> None:
    """The definition, evaluated by the independent model: A and B reach ``0 .. n-1`` from the
    same coordinates ``V(k)``."""
    V = cutepy.max_common_layout(A, B)
    assert brute.size(V) == n
    # every k up to 4096; beyond, the first and last 1024 and 1024 seeded others (the brute
    # model is slow, and n reaches millions at M = 128)
    ks = range(n) if n <= 4096 else sorted({*range(1024), *range(n - 1024, n),
                                            *random.Random(n).sample(range(n), 1024)})
    for k in ks:
        x = brute.evaluate(V, k)
        assert brute.evaluate(A, x) == k == brute.evaluate(B, x), (A, B, n, k)


def test_the_issue_instance_at_m_128():
    A = _family(128, 5)
    assert cutepy.max_common_vector(A, A) == 128
    V = cutepy.max_common_layout(A, A)
    assert [A(V(k)) for k in range(128)] == list(range(128))


@st.composite
def symbolic_pairs(draw):
    """A symbolic layout from the issue's family and its relatives (shape leaves M, 2M, N and
    small constants; strides compact in a drawn order, with stride-0 modes), a second one
    over the same shape in another order, and concrete values for M and N."""
    pool = [("M", 1), ("M", 2), ("N", 1), ("c", 2), ("c", 3), ("c", 4)]
    leaves = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
    zeros = [draw(st.booleans()) and draw(st.booleans()) for _ in leaves]
    order_a = draw(st.permutations(range(len(leaves))))
    order_b = draw(st.permutations(range(len(leaves))))
    m = draw(st.sampled_from([2, 3, 4, 8, 128]))
    n = draw(st.sampled_from([2, 3, 5]))
    return leaves, zeros, order_a, order_b, m, n


def _build(leaves, zeros, order_a, order_b, M, N):
    def size(leaf):
        kind, k = leaf
        return k * M if kind == "M" else N if kind == "N" else k

    shape = tuple(size(x) for x in leaves)

    def strides(order, zero):
        out, acc = [0] * len(shape), 1
        for i in order:
            if not zero[i]:
                out[i] = acc
                acc = acc * shape[i]
        return tuple(out)

    return Layout(shape, strides(order_a, zeros)), Layout(shape, strides(order_b, [False] * len(shape)))


@given(symbolic_pairs())
def test_symbolic_and_concrete_max_common_vector_agree(case):
    leaves, zeros, order_a, order_b, m, n = case
    M, N = cutepy.symbols("M N", min=2)
    A, B = _build(leaves, zeros, order_a, order_b, M, N)
    try:
        sym = cutepy.max_common_vector(A, B)
    except cutepy.Undecided:
        sym = None  # the facts do not decide a step: nothing to compare
    assume(sym is not None)
    a, b = _build(leaves, zeros, order_a, order_b, m, n)
    assert cutepy.subs(A, {M: m, N: n}) == a
    conc = cutepy.max_common_vector(a, b)
    assert cutepy.subs(sym, {M: m, N: n}) == conc, f"symbolic {sym} vs concrete {conc} for {a}, {b}"
    _holds(conc, a, b)


def test_max_common_vector_is_near_linear_in_the_rank():
    """Work, counted as executed lines of Python (not timed), grows at most linearly with the
    rank: 16 times the rank costs under 20 times the lines (it was quadratic: 163 s at 8000)."""
    import sys

    if cutepy.build_info()["core"] != "pure":
        pytest.skip("counts executed lines of Python: the compiled core (python -m cutepy.build) has none")

    def lines(A) -> int:
        n = 0

        def trace(frame, event, arg):
            nonlocal n
            n += event == "line"
            return trace

        sys.settrace(trace)
        try:
            assert cutepy.max_common_vector(A, A) == 2**20
        finally:
            sys.settrace(None)
        return n

    small, big = (Layout((2**20,) + (1,) * r, (1,) + tuple(range(r))) for r in (500, 8000))
    assert lines(big) < 20 * lines(small)


def main() -> None:
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    stmts = [f"print(max_common_vector({cx(A)}, {cx(B)}));" for A, B in CASES]
    rows = []
    for (A, B), r in zip(CASES, cxx_harness.run_cases(stmts)):
        if not r.ok:
            raise SystemExit(f"C++ failed on {A}, {B}: {r.output}")
        rows.append(f"{_key(A, B)}\t{r.output.strip().lstrip('_')}\n")
    TABLE.write_text(
        "# C++ CuTe max_common_vector(A, B) (CUTLASS 4.7 headers, static integers), key 'A B'.\n"
        "# Regenerate: CUTEPY_CXX_INCLUDE=/work/cutlass47/include:<cccl>:<cuda_runtime>:<nvcc> \\\n"
        "#   python -m tests.algebra.test_edge_max_common_vector\n" + "".join(rows))


if __name__ == "__main__":
    main()
