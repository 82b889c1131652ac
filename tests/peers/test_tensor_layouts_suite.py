"""tensor-layouts' paper examples (tests/paper_examples.py in jduprat/tensor-layouts, Figures 1-3 of
C. Cecka, "CuTe Layout Representation and Algebra"), rewritten against cutepy. Only Figures 1-3
are ported so far (see the report); the rest of that file exercises tensors and drawings."""

from __future__ import annotations

import cutepy as cp
from cutepy import Layout
from cutepy.core import inttuple as it


def offsets(L):
    return [L(i) for i in range(L.size())]


def test_fig1_rank3_tensor_and_its_folds():
    L = Layout((2, 2, 2), (2, 1, 4))
    assert L.size() == 8
    assert [L(0, 0, 0), L(1, 0, 0), L(0, 1, 0), L(1, 1, 0), L(0, 0, 1), L(1, 1, 1)] == [0, 2, 1, 3, 4, 7]
    fold0 = Layout(((2, 2), 2), ((2, 4), 1))
    assert cp.coalesce(fold0) == Layout((4, 2), (2, 1))
    assert offsets(cp.coalesce(fold0)) == offsets(fold0)
    fold1 = Layout((2, (2, 2)), (2, (1, 4)))
    assert offsets(fold1) == offsets(L)
    data = "abcdefgh"
    assert [data[fold1(r, c)] for r in range(2) for c in range(4)] == list("abefcdgh")


def test_fig2_coordinate_sets():
    assert [it.idx2crd(i, 4) for i in range(4)] == [0, 1, 2, 3]
    expected = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    assert [it.idx2crd(i, (2, 3)) for i in range(6)] == expected
    assert [it.crd2idx(c, (2, 3)) for c in expected] == list(range(6))
    nested = [((a, b), c) for c in range(2) for b in range(3) for a in range(2)]
    assert [it.idx2crd(i, ((2, 3), 2)) for i in range(12)] == nested


def test_fig3_layouts_compatible_with_4x8():
    col, row = Layout((4, 8), (1, 4)), Layout((4, 8), (8, 1))
    assert (col(0, 0), col(1, 0), col(0, 1), col(3, 7)) == (0, 1, 4, 31)
    assert (row(0, 0), row(1, 0), row(0, 1), row(3, 7)) == (0, 8, 1, 31)
    padded = Layout((4, 8), (1, 5))
    assert (padded(0, 1), padded(3, 7), padded.cosize()) == (5, 38, 39)
    assert sorted(offsets(padded)) != list(range(padded.size()))           # gaps: not bijective
    inter = Layout((4, (4, 2)), (4, (1, 16)))
    assert (inter.size(), inter(0, (1, 0)), inter(0, (0, 1))) == (32, 1, 16)
    mixed = Layout(((2, 2), (4, 2)), ((1, 8), (2, 16)))
    assert mixed(22) == mixed(2, 5) == mixed((0, 1), (1, 1)) == 26
    bcast = Layout(((2, 2), (2, 4)), ((0, 2), (0, 4)))
    assert bcast.size() == 32 and len(set(offsets(bcast))) < 32 and bcast(1, 0) == 0
