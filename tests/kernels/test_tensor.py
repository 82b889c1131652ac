"""Tensors: values through layouts, slicing, the tensor-aware divides, local_tile and
local_partition; checked against C++ CuTe (live, seeded) and by properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.tensor import (
    composition,
    local_partition,
    local_tile,
    logical_divide,
    make_fragment_like,
    make_identity_tensor,
    make_tensor,
    size,
    zipped_divide,
)

INCLUDES = ("cute/tensor.hpp",)
CASES = [  # (tensor shape, tiler, tile coord, thread layout, thread)
    ((8, 12), (4, 3), (1, 2), Layout((2, 3)), 4),
    ((16, 16), (8, 4), (1, 3), Layout((4, 4), (4, 1)), 7),
    ((6, (2, 4)), (3, 4), (1, 1), Layout((3, 2)), 5),
]


def _int_tuple(t) -> str:
    if isinstance(t, tuple):
        return "make_shape(" + ",".join(_int_tuple(x) for x in t) + ")"
    return f"Int<{t}>{{}}"


def _layout_cpp(L: Layout) -> str:
    def f(t, k):
        if isinstance(t, tuple):
            return f"{k}<" + ",".join(f(x, k) for x in t) + ">"
        return f"Int<{t}>"

    return f"Layout<{f(L.shape, 'Shape')},{f(L.stride, 'Stride')}>{{}}"


def _block(shape, tiler, coord, thr, t) -> str:
    coord_cpp = "make_coord(" + ",".join(map(str, coord)) + ")"
    return (
        f"auto g = make_identity_tensor({_int_tuple(shape)});"
        f' print(local_tile(g, {_int_tuple(tiler)}, {coord_cpp})); printf("|");'
        f' print(local_partition(g, {_layout_cpp(thr)}, {t})); printf("|");'
        f' print(zipped_divide(g, {_int_tuple(tiler)})); printf("|");'
        f" print(logical_divide(g, {_int_tuple(tiler)}));"
    )


def _fields(shape, tiler, coord, thr, t) -> list[str]:
    g = make_identity_tensor(shape)
    return [
        str(local_tile(g, tiler, coord)),
        str(local_partition(g, thr, t)),
        str(zipped_divide(g, tiler)),
        str(logical_divide(g, tiler)),
    ]


def test_tensor_algebra_matches_live_cxx(cxx) -> None:
    res = cxx.run_cases([_block(*c) for c in CASES], INCLUDES)
    for c, r in zip(CASES, res):
        assert r.ok, r.error[:400]
        assert cxx.normalise(r.output).split("|") == _fields(*c), c


def test_values_and_slices() -> None:
    data = np.arange(48) * 10
    A = make_tensor(data, Layout((6, 8), (8, 1)))
    assert size(A) == 48 and A.shape == (6, 8) and A.stride == (8, 1)
    assert int(A(3)) == 240 and int(A(1, 2)) == 100
    row = A(2, None)
    assert [int(x) for x in row.values()] == [int(v) for v in data[16:24]]
    assert A.element_type == data.dtype
    assert composition(A, Layout(3, 2)).values() == [A(0), A(2), A(4)]
    with pytest.raises(CutepyError, match="outside the engine"):
        make_tensor(np.arange(10), Layout((4, 4)))


def test_fragment_is_compact() -> None:
    frag = make_fragment_like(Layout(((2, 2), 4, 8), ((1, 8), 16, 512)))
    assert sorted(int(x) for x in frag.offsets()) == list(range(128))


@st.composite
def tiled_shapes(draw):
    tm, tn = draw(st.sampled_from((1, 2, 4))), draw(st.sampled_from((1, 2, 3)))
    rm, rn = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return (tm * rm, tn * rn), (tm, tn), (draw(st.integers(0, rm - 1)), draw(st.integers(0, rn - 1)))


@settings(max_examples=40, deadline=None)
@given(tiled_shapes())
def test_local_tile_holds_the_tile_at_coord(case) -> None:
    shape, tiler, coord = case
    tile = local_tile(make_identity_tensor(shape), tiler, coord)
    want = sorted(
        (coord[0] * tiler[0] + i, coord[1] * tiler[1] + j) for i in range(tiler[0]) for j in range(tiler[1])
    )
    assert sorted(tuple(v) for v in tile.values()) == want


@settings(max_examples=40, deadline=None)
@given(tiled_shapes(), st.booleans())
def test_local_partition_covers_once(case, row_major) -> None:
    shape, tiler, _ = case
    assume(tiler[0] * tiler[1] > 1)
    thr = Layout(tiler, (tiler[1], 1)) if row_major else Layout(tiler)
    g = make_identity_tensor(shape)
    seen = [tuple(v) for t in range(size(thr)) for v in local_partition(g, thr, t).values()]
    assert sorted(seen) == sorted((i, j) for i in range(shape[0]) for j in range(shape[1]))


def test_local_partition_rejects_bad_threads() -> None:
    with pytest.raises(CutepyError, match="non-negative"):
        local_partition(make_identity_tensor((4, 4)), Layout((2, 2)), -1)


@given(st.integers(0, 200), st.sampled_from([Layout(16), Layout((4, 4)), Layout((4, 4), (4, 1))]))
def test_local_partition_wraps_the_thread_index_as_cxx(t: int, thr: Layout) -> None:
    """C++ reads the index through the thread layout's strides: (t / d) % s per leaf, so t wraps mod size."""
    g = make_identity_tensor((16, 16) if thr.rank() == 2 else 64)
    assert local_partition(g, thr, t) == local_partition(g, thr, t % 16)
