"""XLA's tiled-layout index formula against the docs' examples and a numpy model."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy.core.errors import CutepyError
from cutepy.xla import (
    COMBINE_DIM,
    ArrayShape,
    Tile,
    XlaLayout,
    buffer_elements,
    element_at,
    linear_index,
    linear_indices,
    linear_indices_at,
    parse_shape,
    tiled_dims,
)
from cutepy.xla.reference import reference_buffer, reference_offsets

DATA = Path(__file__).resolve().parents[1] / "data"

FIGURE_1 = [
    [0, 1, 4, 5, 8],
    [2, 3, 6, 7, 10],
    [12, 13, 16, 17, 20],
]

FIGURE_2 = [
    [0, 2, 4, 6, 8, 10, 12, 14],
    [1, 3, 5, 7, 9, 11, 13, 15],
    [16, 18, 20, 22, 24, 26, 28, 30],
    [17, 19, 21, 23, 25, 27, 29, 31],
]


def _check_all(shape: ArrayShape | str) -> np.ndarray:
    """Every cross-check: vector = reference = scalar, element_at inverts, slots add up."""
    offsets = linear_indices(shape)
    assert offsets.dtype == np.int64
    assert np.array_equal(offsets, reference_offsets(shape))
    n = buffer_elements(shape)
    assert len(reference_buffer(shape)) == n
    for idx in product(*(range(d) for d in offsets.shape)):
        off = linear_index(shape, idx)
        assert off == offsets[idx]
        assert element_at(shape, off) == idx
    found = [element_at(shape, o) for o in range(n)]
    assert sum(e is not None for e in found) == offsets.size
    return offsets


def test_figure_1() -> None:
    s = "f32[3,5]{1,0:T(2,2)}"
    assert linear_index(s, (2, 3)) == 17
    assert _check_all(s).tolist() == FIGURE_1
    assert buffer_elements(s) == 24
    assert tiled_dims(s) == (2, 3, 2, 2)
    assert [element_at(s, o) for o in (9, 11, 14, 15, 18, 19, 21, 22, 23)] == [None] * 9


def test_figure_2() -> None:
    s = "f32[4,8]{1,0:T(2,4)(2,1)}"
    assert _check_all(s).tolist() == FIGURE_2
    assert tiled_dims(s) == (2, 2, 1, 4, 2, 1)


def test_combined_dims_example() -> None:
    s = "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"
    assert tiled_dims(s) == (56, 37, 2, 3)
    assert buffer_elements(s) == 12432
    # (1,6,7,10,9) -> merged (111, 109) -> tile (55, 36), in tile (1, 1)
    assert linear_index(s, (1, 6, 7, 10, 9)) == (55 * 37 + 36) * 6 + 1 * 3 + 1
    # the same as tiling the merged [112,110] array by (2,3)
    merged = linear_indices("f32[112,110]{1,0:T(2,3)}")
    assert np.array_equal(linear_indices(s).reshape(112, 110), merged)
    assert np.array_equal(linear_indices(s), reference_offsets(s))


def test_minor_to_major_example() -> None:
    # a b c / d e f
    letters = np.array([["a", "b", "c"], ["d", "e", "f"]])
    for m2m, stored in [("0,1", "adbecf"), ("1,0", "abcdef")]:
        offsets = linear_indices(f"f32[2,3]{{{m2m}}}")
        memory = np.empty(6, dtype="<U1")
        memory[offsets] = letters
        assert "".join(memory) == stored


@pytest.mark.parametrize(
    ("text", "table"),
    [
        # a tile longer than the shape pads it with leading 1s
        ("f32[3]{0:T(2,2)}", [0, 1, 4]),
        ("f32[]{:T(8,128)}", 0),
        # a tile shorter than the shape tiles the minor dims only
        ("f32[2,3]{1,0:T(2)}", [[0, 1, 2], [4, 5, 6]]),
        # T(128)(2): the second tile splits the 128 lanes of the first
        ("f32[1,2]{1,0:T(128)(2)}", [[0, 1]]),
        # a later tile on the minor suffix [1,2] of [3,1,2] pads the 1 up to 2
        ("f32[3,2]{1,0:T(2)(2,1)}", [[0, 2], [4, 6], [8, 10]]),
        # a later tile longer than the first reaches the cross-tile dim [4] of [4,1,2]
        ("f32[4,2]{1,0:T(2)(2,1,1)}", [[0, 2], [1, 3], [4, 6], [5, 7]]),
        ("f32[3,2]{0,1:T(2,2)}", [[0, 2], [1, 3], [4, 6]]),
        ("f32[2,2,3]{2,1,0:T(*,2,2)}", [[[0, 1, 4], [2, 3, 6]], [[8, 9, 12], [10, 11, 14]]]),
        ("f32[5]{0:L(4)}", [0, 1, 2, 3, 4]),
    ],
)
def test_small_examples(text: str, table: object) -> None:
    assert _check_all(text).tolist() == table


def test_padding_sub_tile() -> None:
    s = "f32[3,5]{1,0:T(3,5)(2,1)}"
    assert tiled_dims(s) == (1, 1, 2, 5, 2, 1)
    assert buffer_elements(s) == 20
    _check_all(s)


def test_tail_padding() -> None:
    s = "f32[5]{0:T(2)L(4)}"
    assert tiled_dims(s) == (3, 2) and buffer_elements(s) == 8
    assert [element_at(s, o) for o in range(8)] == [(0,), (1,), (2,), (3,), (4,), None, None, None]


def test_bounded_dynamic_dims_use_the_bound() -> None:
    assert linear_indices("f32[2,<=3]{0,1}").tolist() == [[0, 2, 4], [1, 3, 5]]


def test_shape_objects_and_buffers_are_accepted() -> None:
    shape = ArrayShape("f32", (3, 5), layout=XlaLayout((1, 0), tiles=(Tile((2, 2)),)))
    assert linear_index(shape, (2, 3)) == 17
    assert linear_index(parse_shape("b(f32[3,5]{1,0:T(2,2)})"), (2, 3)) == 17
    assert linear_index(ArrayShape("f32", (2, 3)), (1, 0)) == 3  # no layout: default


def test_zero_sized() -> None:
    s = "f32[0,3]{1,0:T(2,2)}"
    assert linear_indices(s).shape == (0, 3)
    assert buffer_elements(s) == 0
    assert np.array_equal(reference_offsets(s), linear_indices(s))


def test_errors() -> None:
    s = "f32[3,5]{1,0:T(2,2)}"
    with pytest.raises(CutepyError, match="has 1 coordinates"):
        linear_index(s, (1,))
    with pytest.raises(CutepyError, match="outside"):
        linear_index(s, (3, 0))
    with pytest.raises(CutepyError, match="outside"):
        linear_index(s, (0, -1))
    with pytest.raises(CutepyError, match="outside the buffer"):
        element_at(s, 24)
    with pytest.raises(CutepyError, match="outside the buffer"):
        element_at(s, -1)
    with pytest.raises(CutepyError, match="unbounded"):
        linear_indices("f32[?]")
    with pytest.raises(CutepyError, match="array shape"):
        linear_indices("(f32[2])")
    with pytest.raises(CutepyError, match="no array data"):
        linear_indices("token[]")


def _tsv_small_shapes() -> list[str]:
    out = []
    for line in (DATA / "xla_shapes.tsv").read_text().splitlines():
        text, status, canonical = line.split("\t")
        if status != "OK" or "?" in canonical or "T()" in canonical:  # T(): XLA's validator rejects it
            continue
        if buffer_elements(canonical) <= 1 << 17:
            out.append(canonical)
    return out


@pytest.mark.parametrize("text", _tsv_small_shapes())
def test_tsv_shapes_against_reference(text: str) -> None:
    offsets = linear_indices(text)
    assert np.array_equal(offsets, reference_offsets(text))
    assert len(np.unique(offsets)) == offsets.size


# --- properties --------------------------------------------------------------


@st.composite
def tiled_arrays(draw: st.DrawFn, max_slots: int = 20000) -> ArrayShape:
    """Ranks 0-5, small dims (some 1, some 0), any minor_to_major, 0-3 tile levels."""
    rank = draw(st.integers(0, 5))
    dim = st.sampled_from([0] + [1, 2, 3, 4, 5, 6, 7] * 4)
    dims = tuple(draw(st.lists(dim, min_size=rank, max_size=rank)))
    m2m = tuple(draw(st.permutations(range(rank))))
    tiles = []
    cur = rank
    for _ in range(draw(st.sampled_from([0, 1, 1, 2, 2, 3, 3]))):
        k = draw(st.integers(1, cur + 1))  # XLA: a tile has at least one dim
        tdims = draw(st.lists(st.sampled_from([1, 2, 3, 4, 8, COMBINE_DIM]), min_size=k, max_size=k))
        if tdims and tdims[-1] == COMBINE_DIM:
            tdims[-1] = draw(st.sampled_from([1, 2, 3]))
        tiles.append(Tile(tuple(tdims)))
        cur = max(cur, k) - k + 2 * (k - tdims.count(COMBINE_DIM))
    align = draw(st.sampled_from([1, 1, 1, 2, 3, 16]))
    lay = XlaLayout(m2m, tiles=tuple(tiles), tail_padding_alignment_in_elements=align)
    shape = ArrayShape("f32", dims, layout=lay)
    assume(buffer_elements(shape) <= max_slots)
    return shape


@settings(max_examples=200, deadline=None)
@given(tiled_arrays())
def test_vectorized_formula_matches_reference(shape: ArrayShape) -> None:
    offsets = linear_indices(shape)
    assert offsets.shape == shape.dims
    assert np.array_equal(offsets, reference_offsets(shape))
    assert len(np.unique(offsets)) == offsets.size
    if offsets.size:
        assert offsets.min() >= 0 and offsets.max() < buffer_elements(shape)
    assert parse_shape(str(shape)) == shape


@settings(max_examples=120, deadline=None)
@given(tiled_arrays(max_slots=600))
def test_scalar_formula_and_inverse(shape: ArrayShape) -> None:
    _check_all(shape)


# --- wide offsets and numpy's rank limit (issue 11) -----------------------------------------------


def test_linear_indices_past_int64_do_not_wrap() -> None:
    big = 1 << 62
    # T(2**62) pads the minor dim of a row-major [2,3] to 2**62: offset = i * 2**62 + j
    text = f"f32[2,3]{{1,0:T({big})}}"
    want = [[i * big + j for j in range(3)] for i in range(2)]
    assert linear_indices(text).tolist() == want
    assert linear_indices_at(text, [[1, 2], [0, 1]]).tolist() == [big + 2, 1]
    assert element_at(text, big + 2) == (1, 2)


def test_linear_indices_at_with_huge_dims() -> None:
    big = 1 << 62
    text = f"f32[{big},4]{{0,1}}"  # column major: i + j * 2**62
    assert linear_indices_at(text, [[big - 1, 3]]).tolist() == [big - 1 + 3 * big]
    with pytest.raises(CutepyError, match="beyond int64"):
        linear_indices_at(text, [[1 << 70, 0]])


def test_whole_tables_past_numpys_rank_limit_raise() -> None:
    text = "f32[" + ",".join(["1"] * 70) + "]"
    with pytest.raises(CutepyError, match="64 dims"):
        linear_indices(text)
    with pytest.raises(CutepyError, match="numpy allows at most 64"):
        reference_offsets(text)
    assert linear_indices_at(text, [[0] * 70]).tolist() == [0]


@pytest.mark.parametrize("index", [None, 5, [[0.5, 1]], [[1, 2, 3]], "ab", [[True, False]]])
def test_linear_indices_at_rejects_what_is_no_index_array(index) -> None:
    with pytest.raises(CutepyError):
        linear_indices_at("f32[3,5]{1,0:T(2,2)}", index)


@pytest.mark.parametrize("offset", [True, 2.0, "3", None, -1, 10**30])
def test_element_at_rejects_what_is_no_offset(offset) -> None:
    with pytest.raises(CutepyError):
        element_at("f32[3,5]{1,0:T(2,2)}", offset)
