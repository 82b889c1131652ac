"""``lazy_transform`` (C++'s ``cute::lazy::transform``): a view of a tensor through a function,
computed when read, that every partition carries along: the partition of the view is the view
of the partition. CUTLASS's tiled_copy_if builds its predicate tensor so (its prints are
compared with C++'s in tests/kernels/test_tutorials.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cutepy as cp
from cutepy import Layout
from cutepy.strategies import layouts


def _f(v):
    """A function of a coordinate (a tuple) or of an element (an int, numpy's too)."""
    if isinstance(v, tuple):
        return sum((i + 1) * _f(x) for i, x in enumerate(v)) % 5
    return (int(v) * 7 + 3) % 11


@given(layouts(max_leaves=3), st.data())
def test_every_partition_of_the_view_is_the_view_of_the_partition(L, data):
    t = cp.make_identity_tensor(L.shape) if data.draw(st.booleans()) else \
        cp.make_tensor(np.arange(int(L.cosize()) + 1), L)
    view = cp.lazy_transform(t, _f)
    assert view.values() == [_f(v) for v in t.values()]
    crd = data.draw(st.integers(0, cp.size(L) - 1))
    assert view(crd) == _f(t(crd))
    assert view.layout == t.layout and str(view) == "trans_" + str(t)


@pytest.mark.parametrize("shape,tiler,coord,thr", [((8, 12), (4, 6), (1, 1), Layout((2, 3))),
                                                   ((16, 8), (8, 4), (0, 1), Layout((4, 2), (2, 1)))])
def test_tiles_partitions_and_tiled_copies_of_a_view(shape, tiler, coord, thr) -> None:
    C = cp.make_identity_tensor(shape)
    P = cp.lazy_transform(C, lambda c: cp.elem_less(c, (shape[0] - 1, shape[1] - 2)))
    tile_C, tile_P = cp.local_tile(C, tiler, coord), cp.local_tile(P, tiler, coord)
    assert tile_P.values() == [cp.elem_less(c, (shape[0] - 1, shape[1] - 2)) for c in tile_C.values()]
    for t in range(cp.size(thr)):
        pc, pp = cp.local_partition(tile_C, thr, t), cp.local_partition(tile_P, thr, t)
        assert pp.layout == pc.layout and pp.values() == [cp.elem_less(c, (shape[0] - 1, shape[1] - 2))
                                                          for c in pc.values()]
    tc = cp.make_tiled_copy(cp.copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 2)), Layout((1, 2)))
    for t in range(tc.size):
        sc, sp = tc.get_slice(t).partition_S(tile_C), tc.get_slice(t).partition_S(tile_P)
        assert sp.values() == [cp.elem_less(c, (shape[0] - 1, shape[1] - 2)) for c in sc.values()]


def test_copy_if_reads_a_lazy_predicate() -> None:
    """tiled_copy_if's last tile: the predicate view stops the copy at the tensor's edge."""
    S = cp.make_tensor(np.arange(528 * 300, dtype=np.float32), Layout((528, 300)))
    D = cp.make_tensor(np.zeros(528 * 300, dtype=np.float32), Layout((528, 300)))
    P = cp.lazy.transform(cp.make_identity_tensor((528, 300)), lambda c: cp.elem_less(c, (528, 300)))
    tc = cp.make_tiled_copy(cp.copy_atom("UniversalCopy<uint128_t>", 32), Layout((32, 8)), Layout((4, 1)))
    block = (128, 64)
    tile = [cp.local_tile(x, block, (4, 4)) for x in (P, S, D)]
    cp.copy_if(tc, *tile)
    got = D.engine.reshape(300, 528).T  # column-major (528, 300)
    assert (got[512:, 256:] == S.engine.reshape(300, 528).T[512:, 256:]).all()
    assert got[:512].sum() == 0 and got[:, :256].sum() == 0


def test_a_view_is_read_only_and_needs_a_function() -> None:
    C = cp.make_identity_tensor(4)
    P = cp.lazy_transform(C, lambda c: c + 1)
    with pytest.raises(cp.CutepyError, match="cannot be written"):
        P[0] = 1
    with pytest.raises(cp.CutepyError, match="function"):
        cp.lazy_transform(cp.make_identity_tensor(4), 3)
    with pytest.raises(cp.CutepyError, match="views a tensor"):
        cp.lazy_transform(Layout(4), abs)
    assert format(P, "cxx") == "trans_" + format(C, "cxx")  # C++'s print of a transform_iter
