"""XLA's padding model (:mod:`cutepy.xla.padding`) against the numpy reference model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy.xla import ArrayShape, Tile, XlaLayout, buffer_elements, tiled_dims
from cutepy.xla.padding import level_extents, max_rank, tail_padded
from cutepy.xla.reference import reference_buffer


@st.composite
def tiled_arrays(draw: st.DrawFn) -> ArrayShape:
    rank = draw(st.integers(0, 4))
    dims = tuple(draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank)))
    tiles = []
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(1, 3))
        tdims = draw(st.lists(st.sampled_from([1, 2, 3, 4, -1]), min_size=k, max_size=k))
        tdims[-1] = draw(st.sampled_from([1, 2, 3, 4]))  # '*' is never the most minor
        tiles.append(Tile(tuple(tdims)))
    align = draw(st.sampled_from([1, 1, 4, 16]))
    m2m = tuple(draw(st.permutations(range(rank))))
    return ArrayShape("f32", dims, layout=XlaLayout(m2m, tiles=tuple(tiles),
                                                     tail_padding_alignment_in_elements=align))


@settings(max_examples=150, deadline=None)
@given(tiled_arrays())
def test_buffer_size_is_the_reference_models(shape: ArrayShape) -> None:
    """The padding model's slot count equals the numpy model's buffer (which pads with
    ``np.pad`` on real data and shares no padding code)."""
    assert buffer_elements(shape) == reference_buffer(shape).size


@settings(max_examples=150, deadline=None)
@given(tiled_arrays())
def test_max_rank_bounds_every_level(shape: ArrayShape) -> None:
    assert max_rank(shape) >= len(tiled_dims(shape))
    assert max_rank(shape) >= shape.rank


def test_figure_1_level() -> None:
    # the docs' Figure 1: [3,5] in 2x2 tiles is 2x3 tiles of 2x2
    lv = level_extents((3, 5), Tile((2, 2)))
    assert (lv.merged, lv.padded, lv.tiled) == ((3, 5), (4, 6), (2, 3, 2, 2))


def test_tail_padding() -> None:
    assert [tail_padded(n, 4) for n in (0, 1, 4, 5)] == [0, 4, 4, 8]
