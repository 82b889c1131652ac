"""NVlabs PyCuTe's tests (test/test_nullspace.py, test_recast.py, test_blocked_raked.py in NVlabs/CuTe),
rewritten against cutepy. Where PyCuTe and C++ CuTe differ, C++ wins and the case checks C++'s
answer (compiled here when the headers are installed):

- PyCuTe's ``recast(L, 1/k)`` scales every stride when no mode has stride 1; C++'s ``downcast<k>``
  refuses ("Downcast requires adjacent elements"), and so does cutepy. PyCuTe's ``recast(L, 1)`` is
  C++'s ``recast_layout<T, T>`` (the identity).
- PyCuTe's blocked/raked products refuse layouts of different rank; C++ pads the smaller one
  with ``1:0`` modes, and so does cutepy.
- PyCuTe's nullspace of a basis-strided layout is checked with PyCuTe's ``L(N(i)) == 0``, where a
  coordinate of zeros is zero.

| source file           | tests in the peer file | ported | not ported |
|-----------------------|------------------------|--------|------------|
| test_nullspace.py     | 2                      | 2      | 0          |
| test_recast.py        | 12                     | 11     | 1 (test_divisibility_errors: body ``pass``) |
| test_blocked_raked.py | 5                      | 5      | 0 (the rank-mismatch tests check C++'s padding) |
| total                 | 19                     | 18     |            |

The other NVlabs test files are ported in test_nvlabs_algebra.py and test_nvlabs_layout.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import cutepy as cp
from cutepy import Layout, ScaledBasis
from tests.cxx import cxx_cases

NULLSPACE = [
    (1, 0),
    (1, 1),
    (1, 2),
    (1, 4),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 4),
    ((1, 1), (0, 0)),
    ((3, 7), (0, 0)),
    ((2, 4), (0, 2)),
    ((8, 4), (1, 8)),
    ((8, 4), (4, 1)),
    ((2, 4, 6), (1, 2, 0)),
    ((2, 4, 6), (0, 1, 0)),
    ((4, 2), (1, 16)),
    ((4, 5, 6), (1, 1, 0)),
    ((7, 5, 9), (2, 0, 1)),
    ((7, 5, 9), (2, 0, 0)),
    ((7, 5, 9), (0, 0, 0)),
]

E = cp.E
NULLSPACE_COORD = [
    ((4, 5), (E(0), E(1))), ((4, 5), (0, E(0))), ((4, 5), (0, E(4, 1))), ((4, 5), (2 * E(0), 0)),
    (((2, 2, 2), (2, 2, 2)), ((E(0), 2 * E(1), 4 * E(0)), (E(1), 2 * E(0), 4 * E(1)))),
    (((2, 2, 2), (2, 2, 2)), ((E(0), 2 * E(1), 5 * E(0)), (E(1), 0, 5 * E(1)))),
    (((2, 2, 2), (2, 2, 2)), ((E(0), 0, 5 * E(0)), (E(1), 2 * E(0), 4 * E(1)))),
]
# the SM70 A / SM80 TV layouts with a stride-0 thread mode, composed with an identity (coordinate) layout
NULLSPACE_TV = [((8, 4), (((4, 2), 4), ((8, 4), 0))), ((16, 8), (((4, 8), (2, 2)), ((0, 1), (16, 8))))]

SCALES = [8, 6, 4, 2, 1, Fraction(1, 2), Fraction(1, 4), Fraction(1, 6), Fraction(1, 8)]

# (layout, {scale: expected}) from PyCuTe's recast tests (one entry per test of test_recast.py)
RECAST = [
    ((24, 1), {8: (3, 1), 6: (4, 1), 4: (6, 1), 2: (12, 1), 1: (24, 1), Fraction(1, 2): (48, 1),
               Fraction(1, 4): (96, 1), Fraction(1, 6): (144, 1), Fraction(1, 8): (192, 1)}),
    ((24, 2), {8: (6, 1), 6: (8, 1), 4: (12, 1), 2: (24, 1), 1: (24, 2), Fraction(1, 2): (24, 4),
               Fraction(1, 4): (24, 8), Fraction(1, 6): (24, 12), Fraction(1, 8): (24, 16)}),
    (((24, 24), (24, 1)), {8: ((24, 3), (3, 1)), 6: ((24, 4), (4, 1)), 4: ((24, 6), (6, 1)),
                           2: ((24, 12), (12, 1)), 1: ((24, 24), (24, 1)),
                           Fraction(1, 2): ((24, 48), (48, 1)),
                           Fraction(1, 4): ((24, 96), (96, 1)), Fraction(1, 6): ((24, 144), (144, 1)),
                           Fraction(1, 8): ((24, 192), (192, 1))}),
    (((4, 6), (6, 1)), {6: ((4, 1), (1, 1)), 2: ((4, 3), (3, 1)), 1: ((4, 6), (6, 1)),
                        Fraction(1, 2): ((4, 12), (12, 1)), Fraction(1, 4): ((4, 24), (24, 1)),
                        Fraction(1, 6): ((4, 36), (36, 1)), Fraction(1, 8): ((4, 48), (48, 1))}),
    (((4, 4), (4, 1)), {8: ((2, 1), (1, 1)), 4: ((4, 1), (1, 1)), 2: ((4, 2), (2, 1)), 1: ((4, 4), (4, 1)),
                        Fraction(1, 2): ((4, 8), (8, 1)), Fraction(1, 4): ((4, 16), (16, 1)),
                        Fraction(1, 6): ((4, 24), (24, 1)), Fraction(1, 8): ((4, 32), (32, 1))}),
    ((8, 0), {s: (8, 0) for s in SCALES}),
    (((8, 4), (0, 2)), {8: ((8, 1), (0, 1)), 4: ((8, 2), (0, 1)), 2: ((8, 4), (0, 1)), 1: ((8, 4), (0, 2)),
                        Fraction(1, 2): ((8, 4), (0, 4)), Fraction(1, 4): ((8, 4), (0, 8)),
                        Fraction(1, 6): ((8, 4), (0, 12)), Fraction(1, 8): ((8, 4), (0, 16))}),
    (((8, 4, 6), (1, 0, 2)), {8: ((1, 4, 2), (1, 0, 1)), 4: ((2, 4, 3), (1, 0, 1)), 2: ((4, 4, 6), (1, 0, 1)),
                              1: ((8, 4, 6), (1, 0, 2)), Fraction(1, 2): ((16, 4, 6), (1, 0, 4)),
                              Fraction(1, 4): ((32, 4, 6), (1, 0, 8)),
                              Fraction(1, 6): ((48, 4, 6), (1, 0, 12)),
                              Fraction(1, 8): ((64, 4, 6), (1, 0, 16))}),
    ((((4, 6), 8), ((1, 4), 24)), {8: (((1, 3), 8), ((1, 1), 3)), 4: (((1, 6), 8), ((1, 1), 6)),
                                   2: (((2, 6), 8), ((1, 2), 12)), 1: (((4, 6), 8), ((1, 4), 24)),
                                   Fraction(1, 2): (((8, 6), 8), ((1, 8), 48)),
                                   Fraction(1, 4): (((16, 6), 8), ((1, 16), 96)),
                                   Fraction(1, 6): (((24, 6), 8), ((1, 24), 144)),
                                   Fraction(1, 8): (((32, 6), 8), ((1, 32), 192))}),
    ((((24, 24), 24), ((1, 24), 24)), {8: (((3, 24), 24), ((1, 3), 3)), 6: (((4, 24), 24), ((1, 4), 4)),
                                       4: (((6, 24), 24), ((1, 6), 6)), 2: (((12, 24), 24), ((1, 12), 12)),
                                       1: (((24, 24), 24), ((1, 24), 24)),
                                       Fraction(1, 2): (((48, 24), 24), ((1, 48), 48)),
                                       Fraction(1, 4): (((96, 24), 24), ((1, 96), 96)),
                                       Fraction(1, 6): (((144, 24), 24), ((1, 144), 144)),
                                       Fraction(1, 8): (((192, 24), 24), ((1, 192), 192))}),
]
# test_scale_1_is_identity
RECAST_IDENTITY = [(24, 1), (24, 2), ((4, 6), (6, 1)), ((4, 4), (4, 1)), ((8, 4, 6), (1, 0, 2)), (8, 0)]


cxb = cxx_cases.cx  # C++ text of a value, basis strides included

def _cast(L, scale):
    if scale >= 1:
        return cp.upcast(L, int(scale))
    return cp.downcast(L, int(1 / scale))


def _has_stride_1(L):
    from cutepy.core import inttuple as it

    return 1 in (it.flatten_tuple(L.stride) if type(L.stride) is tuple else (L.stride,))


@pytest.mark.parametrize("shape, stride", NULLSPACE)
def test_nullspace_maps_to_zero(shape, stride):
    L = Layout(shape, stride)
    N = cp.nullspace(L)
    assert all(L(N(i)) == 0 for i in range(N.size()))
    assert N.size() * cp.filter(L).size() == L.size()  # C++: size(result) == size / size(filter)


@pytest.mark.parametrize("layout, scale", [(x, s) for x, table in RECAST for s in table])
def test_recast_as_pycute_or_as_cxx(layout, scale):
    L = Layout(*layout)
    want = Layout(*dict(RECAST)[layout][scale])
    if scale < 1 and not _has_stride_1(L):
        with pytest.raises(cp.AdmissibilityError, match="adjacent"):
            _cast(L, scale)
    else:
        assert _cast(L, scale) == want


@pytest.mark.parametrize("layout", RECAST_IDENTITY)
def test_recast_by_one_is_the_identity(layout):
    # PyCuTe's recast(L, 1) is C++'s recast_layout<T, T> (C++'s downcast<1> refuses a layout with no
    # stride-1 mode, as cutepy's downcast(L, 1))
    L = Layout(*layout)
    assert cp.upcast(L, 1) == L
    assert cp.recast_layout(L, 16, 16) == L


def _is_zero(v):
    """PyCuTe's ``v == 0`` for an integer, a basis element or a coordinate."""
    if isinstance(v, ScaledBasis):
        return v.value == 0
    if isinstance(v, tuple):
        return all(_is_zero(x) for x in v)
    return v == 0


def _nullspace_coord():
    out = [Layout(*x) for x in NULLSPACE_COORD]
    for tiler, tv in NULLSPACE_TV:
        out.append(cp.composition(cp.make_identity_layout(tiler), Layout(*tv)))
    return out


@pytest.mark.parametrize("L", _nullspace_coord(), ids=str)
def test_nullspace_of_basis_strides_maps_to_zero(L):
    N = cp.nullspace(L)
    assert all(_is_zero(L(N(i))) for i in range(N.size()))


@pytest.mark.parametrize("op", [cp.blocked_product, cp.raked_product])
def test_blocked_and_raked_products_of_different_ranks_pad_as_cxx(op):
    # PyCuTe refuses (ValueError); C++ pads the smaller rank with 1:0 modes (the C++ check below)
    R = op(Layout(4), Layout((2, 3)))
    assert R.rank() == 2 and R.size() == 24


def test_blocked_and_raked_products_of_a_tile_and_a_grid():
    tile, grid = Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3))
    for op in (cp.blocked_product, cp.raked_product):
        R = op(tile, grid)
        assert R.rank() == 2 and R.size() == tile.size() * grid.size()
        assert R[0].size() == 6 and R[1].size() == 20
    B = cp.blocked_product(Layout((2, 3)), Layout((4, 5)))
    assert len(set(B(i) for i in range(B.size()))) == B.size()
    BP, RP = (
        cp.blocked_product(Layout((2, 2)), Layout((3, 3))),
        cp.raked_product(Layout((2, 2)), Layout((3, 3))),
    )
    assert {BP(i) for i in range(BP.size())} == {RP(i) for i in range(RP.size())}
    assert BP != RP


def test_every_nvlabs_case_prints_as_cxx(cxx):
    cx = cxx_cases.cx
    cases = []
    for shape, stride in NULLSPACE:
        L = Layout(shape, stride)
        cases.append((f"nullspace {L}", lambda L=L: cp.nullspace(L), f"print(nullspace({cx(L)}));"))
    for layout in RECAST_IDENTITY:
        L = Layout(*layout)
        cases.append((f"recast_layout<T,T> {L}", lambda L=L: cp.recast_layout(L, 16, 16),
                      f"print(recast_layout<int16_t, int16_t>({cx(L)}));"))
    for L in _nullspace_coord():
        cases.append((f"nullspace {L}", lambda L=L: cp.nullspace(L), f"print(nullspace({cxb(L)}));"))
    for layout, table in RECAST:
        L = Layout(*layout)
        for s in table:
            what = f"upcast<{int(s)}>" if s >= 1 else f"downcast<{int(1 / s)}>"
            cases.append((f"{what} {L}", lambda L=L, s=s: _cast(L, s), f"print({what}({cx(L)}));"))
    for a, b in (("4:1", "(2,3):(1,2)"), ("(2,3):(1,2)", "4:1"), ("(2,5):(5,1)", "(3,4):(1,3)")):
        for op in ("blocked_product", "raked_product"):
            A, B = cp.parse(a), cp.parse(b)
            cases.append(
                (
                    f"{op} {a} {b}",
                    lambda A=A, B=B, op=op: getattr(cp, op)(A, B),
                    f"print({op}({cx(A)}, {cx(B)}));",
                )
            )
    bad = cxx_cases.print_mismatches(cxx, cases)
    assert not bad, "\n".join(bad)
