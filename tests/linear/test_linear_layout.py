"""LinearLayout's laws (hypothesis): calls, invert/compose identities, pseudo-inverse, errors."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout
from cutepy.linear import LinearLayout
from cutepy.linear.f2 import f2_rank as rank
from cutepy.linear.f2 import rref, solve
from tests.linear.strategies import invertible_layouts, linear_layouts


@given(linear_layouts(), st.data())
def test_a_call_is_the_xor_of_the_bases_of_its_set_bits(L, data):
    inputs = {d: data.draw(st.integers(0, s - 1)) for d, s in L.in_dims.items()}
    want = [0] * len(L.out_dims)
    for d, v in inputs.items():
        for i, b in enumerate(L.bases[d]):
            if v >> i & 1:
                want = [w ^ x for w, x in zip(want, b)]
    assert L(**inputs) == tuple(want)
    assert L() == tuple(0 for _ in L.out_dims)


@given(invertible_layouts())
def test_invert_composes_to_the_identity_both_ways(L):
    assert L.is_invertible() and L.is_injective() and L.is_surjective()
    inv = L.invert()
    assert inv.in_dims == L.out_dims and inv.out_dims == L.in_dims
    # L then inv is the identity on L's inputs; inv then L the identity on its outputs
    assert L.compose(inv) == LinearLayout.identity(L.in_dims)
    assert inv.compose(L) == LinearLayout.identity(L.out_dims)
    assert L.pseudo_invert() == inv


@given(linear_layouts())
def test_pseudo_invert_is_a_right_inverse_of_a_surjective_layout(L):
    assume(L.is_surjective())
    P = L.pseudo_invert()
    for name, size in L.out_dims.items():
        for k in range(size.bit_length() - 1):
            y = {n: (1 << k if n == name else 0) for n in L.out_dims}
            x = dict(zip(L.in_dims, P(**y)))
            assert L(**x) == tuple(y.values())


@given(linear_layouts())
def test_flags_agree_with_the_rank(L):
    r = rank(L.columns())
    assert L.is_injective() == (r == L.in_bits())
    assert L.is_surjective() == (r == L.out_bits())
    assert L.is_invertible() == (L.is_injective() and L.is_surjective())


@given(linear_layouts(), st.data())
def test_compose_applies_the_outer_layout_to_every_basis(L, data):
    outs = [(f"o{i}", 2 ** data.draw(st.integers(0, 3))) for i in range(data.draw(st.integers(1, 2)))]
    M = LinearLayout(
        {
            d: [[data.draw(st.integers(0, s - 1)) for _, s in outs] for _ in range(n.bit_length() - 1)]
            for d, n in L.out_dims.items()
        },
        outs,
    )
    C = L.compose(M)
    assert C.in_dims == L.in_dims and C.out_dims == M.out_dims
    for d, bs in L.bases.items():
        for i, b in enumerate(bs):
            assert C.bases[d][i] == list(M(**dict(zip(L.out_dims, b))))


@given(st.lists(st.integers(0, 255), max_size=8), st.integers(0, 255))
def test_solve_finds_a_combination_exactly_when_the_target_is_spanned(cols, target):
    x = solve(cols, target)
    spanned = rank(cols + [target]) == rank(cols)
    assert (x is not None) == spanned
    if x is not None:
        v = 0
        for k, c in enumerate(cols):
            if x >> k & 1:
                v ^= c
        assert v == target
    red = rref(cols)
    assert len(red) == rank(cols) and all(r & -r for r in red)


@pytest.mark.parametrize(
    "bases, outs, match",
    [
        ({"lane": [[1]]}, [("dim0", 2), ("dim1", 2)], "needs 2 values"),
        ({"lane": [[4]]}, [("dim0", 4)], "outside out-dim 'dim0'"),
        ({"lane": [[-1]]}, [("dim0", 4)], "outside"),
        ({"lane": [[1]]}, [("dim0", 3)], "powers of two"),
        ({"lane": [[1.5]]}, [("dim0", 4)], "not an int"),
        ([[1]], [("dim0", 4)], "dict"),
    ],
)
def test_bad_bases_raise_cutepy_errors(bases, outs, match):
    with pytest.raises(CutepyError, match=match):
        LinearLayout(bases, outs)


def test_calls_check_their_inputs():
    L = LinearLayout({"lane": [[1], [2]]}, [("dim0", 4)])
    with pytest.raises(CutepyError, match="outside"):
        L(lane=4)
    with pytest.raises(CutepyError, match="no input dimension"):
        L(warp=0)
    with pytest.raises(CutepyError, match="not invertible"):
        LinearLayout({"lane": [[1], [0]]}, [("dim0", 4)]).invert()
    with pytest.raises(CutepyError, match="output dims"):
        L.compose(LinearLayout({"x": [[1]]}, [("y", 2)]))


def test_numpy_integers_are_integers():
    import numpy as np  # lazy: numpy is the test's, not the package's import

    L = LinearLayout({"lane": [[np.int64(1)], [np.int32(2)]]}, [("dim0", np.int64(4))])
    assert L == LinearLayout({"lane": [[1], [2]]}, [("dim0", 4)])
    from cutepy.linear import from_cute, from_gluon

    spec = {
        "kind": "BlockedLayout",
        "size_per_thread": list(np.array([1, 2])),
        "threads_per_warp": [8, 4],
        "warps_per_cta": [np.int64(1), 1],
        "order": [1, 0],
    }
    assert from_gluon(spec, np.array([8, 8])) == from_gluon(
        {**spec, "size_per_thread": [1, 2], "warps_per_cta": [1, 1]}, [8, 8]
    )
    assert from_cute(Layout((4, 1), (1, 0)), shape=[np.int64(4)]).in_dims["lane"] == 4
    with pytest.raises(CutepyError, match="not an int"):
        LinearLayout({"lane": [[True]]}, [("dim0", 2)])
