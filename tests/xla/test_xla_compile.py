"""XLA layouts compiled into CuTe, cross-checked against XLA's formula and a numpy model.

Three independent readings of a tiled layout must agree on every element: the
compiled CuTe form (:func:`to_cute`, built on the shared pad/reshape/transpose engine),
the index formula (:func:`linear_indices`) and the numpy pad-reshape-transpose model
(:mod:`cutepy.xla.reference`). :func:`from_cute` then goes back, and its XLA layout must
compile to the same CuTe layout.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy import Layout, parse
from cutepy.core.errors import CutepyError
from cutepy.program.engine import ChainLayout, logical_offsets
from cutepy.xla import (
    COMBINE_DIM,
    UNBOUNDED_DIM,
    ArrayShape,
    BufferShape,
    Tile,
    TupleShape,
    XlaLayout,
    buffer_elements,
    check_compile,
    compile_details,
    from_cute,
    linear_index,
    linear_indices,
    offsets_at,
    parse_shape,
    program,
    tiled_dims,
    to_cute,
    tpu_tiles,
)
from cutepy.xla.padding import MAX_TILE_LEVELS
from cutepy.xla.reference import PAD, reference_buffer, reference_offsets
from cutepy.xla.semantics import _tile_level

DATA = Path(__file__).resolve().parents[1] / "data"

FIGURE_1 = [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
FIGURE_2 = [
    [0, 2, 4, 6, 8, 10, 12, 14],
    [1, 3, 5, 7, 9, 11, 13, 15],
    [16, 18, 20, 22, 24, 26, 28, 30],
    [17, 19, 21, 23, 25, 27, 29, 31],
]


# --- strategies ---------------------------------------------------------------------------


@st.composite
def xla_arrays(draw: st.DrawFn, max_slots: int = 6000, star: bool = True) -> ArrayShape:
    """Ranks 0-5; dims 1-8 (0 now and then); any minor_to_major; 0-3 tile levels whose
    dims may be '*', pad (3, 8 on small dims), or outnumber the shape's; some L(n)."""
    rank = draw(st.integers(0, 5))
    dims = tuple(draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 5, 6, 7, 8] * 8 + [0]),
                               min_size=rank, max_size=rank)))
    m2m = tuple(draw(st.permutations(range(rank))))
    tiles = []
    cur = rank
    for _ in range(draw(st.sampled_from([0, 1, 1, 2, 2, 3]))):
        k = draw(st.integers(1, cur + 1))  # XLA: a tile has at least one dim
        pool = [1, 2, 3, 4, 8] + ([COMBINE_DIM] if star else [])
        tdims = draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k))
        if tdims and tdims[-1] == COMBINE_DIM:
            tdims[-1] = draw(st.sampled_from([1, 2, 4]))
        tiles.append(Tile(tuple(tdims)))
        cur = max(cur, k) - k + 2 * (k - tdims.count(COMBINE_DIM))
    align = draw(st.sampled_from([1, 1, 1, 2, 16]))
    shape = ArrayShape("f32", dims, layout=XlaLayout(m2m, tiles=tuple(tiles),
                                                     tail_padding_alignment_in_elements=align))
    assume(buffer_elements(shape) <= max_slots and cur <= 24)
    return shape


def _divides_after_first(shape: ArrayShape) -> bool:
    """No '*', and every tile after the first divides what it tiles (or tiles a 1)."""
    bounds = list(shape.physical_dims)
    coords: list[object] = [0] * len(bounds)
    for level, tile in enumerate(shape.effective_layout.tiles):
        if tile.has_combine:
            return False
        ext = [1] * max(len(tile.dims) - len(bounds), 0) + bounds
        if level and any(d > 1 and d % t for d, t in zip(ext[len(ext) - len(tile.dims):], tile.dims)):
            return False
        coords, bounds = _tile_level(coords, bounds, tile)
    return True


def _domain_offsets(c) -> np.ndarray:
    return logical_offsets(c.layout, c.domain)


# --- the three readings agree -------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(xla_arrays())
def test_compiled_form_matches_formula_and_reference(shape: ArrayShape) -> None:
    c = compile_details(shape)
    assert c.form in ("layout", "chain")
    assert c.logical_shape == shape.dims
    assert c.buffer_size == buffer_elements(shape)
    got = c.offsets()
    assert got.shape == shape.dims
    assert np.array_equal(got, linear_indices(shape))
    assert np.array_equal(got, reference_offsets(shape))
    if got.size:
        corner = tuple(d - 1 for d in shape.dims)
        assert c(corner) == linear_index(shape, corner) == got[corner]
        assert check_compile(c, shape, sample=64) == 64
    if _divides_after_first(shape):
        assert c.form == "layout", (str(shape), c.breaks)
    if c.form == "chain":
        assert c.breaks and len(c.stages) == len(c.breaks) + 1


@settings(max_examples=120, deadline=None)
@given(xla_arrays())
def test_padded_domain_is_one_to_one_onto_padding_slots(shape: ArrayShape) -> None:
    assume(0 not in shape.dims)
    c = compile_details(shape)
    assert all(D >= d for D, d in zip(c.domain, shape.dims))
    off = _domain_offsets(c)
    assert len(np.unique(off)) == off.size
    assert off.min() >= 0 and off.max() < c.buffer_size
    buf = reference_buffer(shape)
    inside = np.zeros(c.domain, dtype=bool)
    inside[tuple(slice(0, d) for d in shape.dims)] = True
    n = np.arange(int(np.prod(shape.dims)), dtype=np.int64).reshape(shape.dims)
    assert np.array_equal(buf[off[inside]], n.reshape(-1))
    assert (buf[off[~inside]] == PAD).all()


@settings(max_examples=150, deadline=None)
@given(xla_arrays())
def test_cute_to_xla_to_cute_round_trip(shape: ArrayShape) -> None:
    c = compile_details(shape)
    assume(c.form == "layout" and 0 not in shape.dims)
    lay = from_cute(c)
    again = ArrayShape("f32", shape.dims, layout=lay)
    c2 = compile_details(again)
    assert c2.form == "layout" and c2.domain == c.domain
    assert np.array_equal(_domain_offsets(c2), _domain_offsets(c))
    assert np.array_equal(linear_indices(again), linear_indices(shape))
    assert np.array_equal(reference_offsets(again), reference_offsets(shape))
    assert from_cute(c2.layout, shape.dims) == lay  # a fixed point


@st.composite
def injective_layouts(draw: st.DrawFn) -> tuple[Layout, tuple[int, ...]]:
    """Any one-to-one layout with positive strides: each dim's parts in any buffer order,
    with gaps anywhere; dims up to the mode sizes."""
    rank = draw(st.integers(1, 4))
    parts = []
    for j in range(rank):
        for k in range(draw(st.integers(0, 3))):
            parts.append([j, k, draw(st.integers(2, 5))])
    parts = draw(st.permutations(parts))
    stride = draw(st.sampled_from([1, 1, 1, 2, 3]))
    for p in reversed(parts):
        p.append(stride)
        stride = stride * p[2] + draw(st.sampled_from([0, 0, 0, 1, 2, 5]))
    shapes, strides, dims = [], [], []
    for j in range(rank):
        mine = sorted((p for p in parts if p[0] == j), key=lambda p: p[1])
        if not mine:
            shapes.append(1)
            strides.append(0)
            dims.append(1)
            continue
        shapes.append(tuple(p[2] for p in mine))
        strides.append(tuple(p[3] for p in mine))
        size = int(np.prod([p[2] for p in mine]))
        dims.append(draw(st.integers(max(1, size // 2), size)))
    return Layout(tuple(shapes), tuple(strides)), tuple(dims)


@settings(max_examples=120, deadline=None)
@given(injective_layouts())
def test_from_cute_finds_every_one_to_one_layout(case: tuple[Layout, tuple[int, ...]]) -> None:
    layout, dims = case
    lay = from_cute(layout, dims)
    c = compile_details(ArrayShape("f32", dims, layout=lay))
    assert c.form == "layout"
    assert c.domain == tuple(m.size() for m in layout)
    assert np.array_equal(_domain_offsets(c), logical_offsets(layout, c.domain))


# --- the docs' examples --------------------------------------------------------------------


def test_figure_1() -> None:
    s = "f32[3,5]{1,0:T(2,2)}"
    c = compile_details(s)
    assert c.form == "layout" and str(c.layout) == "((2,2),(2,3)):((2,12),(1,4))"
    assert c.domain == (4, 6) and c.buffer_size == 24
    assert c(2, 3) == 17 and c((2, 3)) == 17
    assert c.offsets().tolist() == FIGURE_1
    # the padded domain fills the whole 24-slot buffer, padding where the figure has none
    assert sorted(_domain_offsets(c).reshape(-1).tolist()) == list(range(24))
    assert program(s) == ((3, 5), [("pad", (4, 6)), ("reshape", (2, 2, 3, 2)),
                                   ("transpose", (0, 2, 1, 3))])
    assert str(from_cute(c)) == "{1,0:T(2,2)}"


def test_figure_2() -> None:
    c = compile_details("f32[4,8]{1,0:T(2,4)(2,1)}")
    assert c.form == "layout" and str(c.layout) == "((2,2),(4,2)):((1,16),(2,8))"
    assert c.offsets().tolist() == FIGURE_2
    # XLA spells the same function more simply: the (2,4) tile splits nothing across 8
    lay = from_cute(c)
    assert str(lay) == "{1,0:T(2,1)}"
    assert linear_indices(ArrayShape("f32", (4, 8), layout=lay)).tolist() == FIGURE_2


def test_combined_dims_example() -> None:
    s = "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"
    c = compile_details(s)
    assert tiled_dims(s) == (56, 37, 2, 3) and c.buffer_size == 12432
    # 110 = 11*10 is not a multiple of 3: the merged dim's tile index is not affine
    assert c.form == "chain" and "step 3 (transpose to (56, 37, 2, 3))" in c.breaks[0]
    assert program(s)[1][:2] == [("reshape", (112, 110)), ("pad", (112, 111))]
    merged = compile_details("f32[112,110]{1,0:T(2,3)}").offsets()
    assert np.array_equal(c.offsets().reshape(112, 110), merged)
    assert np.array_equal(c.offsets(), reference_offsets(s))
    assert c(1, 6, 7, 10, 9) == (55 * 37 + 36) * 6 + 1 * 3 + 1
    with pytest.raises(CutepyError, match="chain"):
        from_cute(c)


def test_a_star_that_divides_stays_one_layout() -> None:
    c = compile_details("f32[2,4,6]{2,1,0:T(*,2,3)}")  # 8 = 2*4 split by 2 keeps dim 0 whole
    assert c.form == "layout"
    assert np.array_equal(c.offsets(), linear_indices("f32[2,4,6]{2,1,0:T(*,2,3)}"))


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("f32[3,5]{1,0:T(3,5)(2,1)}", "chain"),  # the sub-tile pads 3 to 4 after a reshape
        ("f32[2,3]{1,0:T(*,4)(3)}", "chain"),
        ("f32[3]{0:T(2,2)}", "layout"),  # a longer tile pads a leading 1 to 2
        ("f32[]{:T(256)}", "layout"),
        ("f32[3,2]{1,0:T(2)(2,1)}", "layout"),
        ("f32[4,2]{1,0:T(2)(2,1,1)}", "layout"),
        ("f32[5]{0:T(2)L(4)}", "layout"),
    ],
)
def test_small_examples(text: str, form: str) -> None:
    c = compile_details(text)
    assert c.form == form
    assert np.array_equal(c.offsets(), linear_indices(text))
    assert np.array_equal(c.offsets(), reference_offsets(text))
    assert c.buffer_size == buffer_elements(text)


def test_scalars_and_empty_arrays() -> None:
    c = compile_details("f32[]{:T(256)}")
    assert c() == 0 and c.offsets().shape == () and c.buffer_size == 256
    assert str(from_cute(c)) == "{}"
    e = compile_details("f32[0,3]{1,0:T(2,2)}")
    assert e.offsets().shape == (0, 3) and e.buffer_size == 0


# --- TPU formats ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "dims", "tiles", "back"),
    [
        ("f32", (16, 256), "(8,128)", "{1,0:T(8,128)}"),
        ("f32", (5, 7, 300), "(8,128)", "{2,1,0:T(8,128)}"),
        ("f32", (2, 300), "(2,128)", None),
        ("f32", (3, 300), "(4,128)", "{1,0:T(4,128)}"),
        ("bf16", (10, 300), "(8,128)(2,1)", "{1,0:T(8,128)(2,1)}"),
        ("f16", (3, 200), "(4,128)(2,1)", None),
        ("s8", (40, 300), "(8,128)(4,1)", "{1,0:T(8,128)(4,1)}"),
        ("pred", (64, 200), "(32,128)(32,1)", None),
        ("s4", (20, 300), "(8,128)(8,1)", None),
        ("f64", (9, 130), "(8,128)", "{1,0:T(8,128)}"),
    ],
)
def test_tpu_formats(dtype: str, dims: tuple[int, ...], tiles: str, back: str | None) -> None:
    chain = tpu_tiles(dtype, dims)
    assert "".join(str(t) for t in chain) == tiles
    shape = ArrayShape(dtype, dims, layout=XlaLayout(tuple(range(len(dims) - 1, -1, -1)), tiles=chain))
    c = compile_details(shape)
    assert c.form == "layout"
    assert np.array_equal(c.offsets(), linear_indices(shape))
    assert np.array_equal(c.offsets(), reference_offsets(shape))
    lay = from_cute(c)
    if back is not None:
        assert str(lay) == back
    assert np.array_equal(linear_indices(ArrayShape(dtype, dims, layout=lay)), c.offsets())


# --- the real-world corpus ----------------------------------------------------------------------


def _arrays(shape: object) -> list[ArrayShape]:
    if isinstance(shape, ArrayShape):
        return [shape]
    if isinstance(shape, BufferShape):
        return [shape.array]
    assert isinstance(shape, TupleShape)
    return [a for e in shape.elements for a in _arrays(e)]


def _corpus() -> list[str]:
    rows = []
    for line in (DATA / "xla_shapes.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            _, status, canonical = line.split("\t")
            if status == "OK" and "T()" not in canonical:  # T(): XLA's validator rejects it
                rows.append(canonical)
    return rows


CORPUS = _corpus()

#: The corpus rows whose compile is a chain: a '*' merges a dim into one whose tile
#: (128) does not divide the merged extent, so the tile index is not affine.
CORPUS_CHAINS = {
    "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
    "bf16[2,3,1004]{2,1,0:T(2,*,128)}",
    "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
    "f32[123,456,789]{0,1,2:T(2,*,128)}",
}


@pytest.mark.parametrize("text", CORPUS)
def test_corpus_compiles_and_matches(text: str) -> None:
    for arr in _arrays(parse_shape(text)):
        if not arr.type.is_array_type or UNBOUNDED_DIM in arr.dims:
            continue
        c = compile_details(arr)
        assert (c.form == "chain") == (str(arr) in CORPUS_CHAINS)
        n = int(np.prod(arr.bounds))
        if n <= 1 << 16:
            assert check_compile(c, arr) == n
        else:
            assert check_compile(c, arr, sample=500, seed=n % 1000) == 500
        if c.form == "layout":
            lay = from_cute(c)
            again = compile_details(ArrayShape(arr.element_type, arr.dims, layout=lay))
            assert again.domain == c.domain
            assert check_compile(again, arr, sample=200) == 200


def test_corpus_is_all_there() -> None:
    assert len(CORPUS) == 520  # the 521 OK rows but f32[]{:T()}, which XLA's validator rejects
    assert all(any(t in row for row in CORPUS) for t in CORPUS_CHAINS)


# --- from_cute refuses what XLA cannot express ----------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "dims", "why"),
    [
        ("(2,2):(1,1)", None, "overlap"),
        ("(4,2):(1,0)", None, "zero"),
        ("(4,2):(1,-4)", None, "negative"),
        ("(4,(2,2)):(2,(1,4))", None, "overlap"),
        ("(4,3):(3,1)", (4,), "2 modes"),
        ("(4,3):(3,1)", (5, 3), "fewer than dim 0"),
        ("(2,3):(1,2)", (), "scalar"),
    ],
)
def test_from_cute_errors(layout: str, dims: tuple[int, ...] | None, why: str) -> None:
    with pytest.raises(CutepyError, match=why) as info:
        from_cute(parse(layout), dims)
    assert layout in str(info.value)


def test_from_cute_accepts_text_layouts_and_compiled_forms() -> None:
    assert str(from_cute(parse("(4,3):(1,4)"))) == "{0,1}"
    assert str(from_cute(parse("(3,5):(8,1)"))) == "{1,0:T(5)(8)}"  # 5 in a slot of 8
    c = compile_details("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}")
    assert str(from_cute(c)) == "{3,2,0,1:T(8,128)(2,1)}"
    with pytest.raises(CutepyError, match="takes a CuTe Layout"):
        from_cute(3)  # type: ignore[arg-type]


# --- to_cute hands back the layout, as XLA hands back a layout (issue 10, item 8) --------------


@settings(max_examples=80, deadline=None)
@given(xla_arrays())
def test_to_cute_is_the_layout_of_compile_details(shape: ArrayShape) -> None:
    lay = to_cute(shape)
    c = compile_details(shape)
    assert type(lay) is (Layout if c.form == "layout" else ChainLayout)
    assert lay == c.layout
    assume(0 not in shape.bounds)
    for index in [tuple(d - 1 for d in shape.bounds), (0,) * shape.rank]:
        assert int(lay(*index) if index else lay(0)) == linear_index(shape, index)


def test_to_cute_figure_1_is_a_cute_layout() -> None:
    lay = to_cute("f32[3,5]{1,0:T(2,2)}")
    assert type(lay) is Layout
    # the docs' Figure 1: rows of 2x2 tiles, 3 tiles across, each tile row-major
    assert [[lay(i, j) for j in range(5)] for i in range(3)] == \
        [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
    assert str(from_cute(lay, (3, 5))) == "{1,0:T(2,2)}"


def test_to_cute_of_a_chain_is_a_chain() -> None:
    lay = to_cute("f32[2,3]{1,0:T(*,4)(3)}")
    assert isinstance(lay, ChainLayout)
    with pytest.raises(CutepyError, match="chain of layouts"):
        from_cute(lay)


# --- limits and wide offsets (issue 11) -----------------------------------------------------------


def test_tile_chain_longer_than_the_limit_raises() -> None:
    text = "f32[8,8]{1,0:T" + "(2,1)" * (MAX_TILE_LEVELS + 1) + "}"
    for f in (compile_details, tiled_dims, buffer_elements):
        with pytest.raises(CutepyError, match="MAX_TILE_LEVELS"):
            f(text)


def test_tile_chain_at_the_limit_compiles_in_bounded_time() -> None:
    text = "f32[8,8]{1,0:T" + "(2,1)" * MAX_TILE_LEVELS + "}"
    start = time.perf_counter()
    c = compile_details(text)
    assert time.perf_counter() - start < 5.0
    assert check_compile(c, text) == 64


def test_tiles_that_build_too_many_dims_raise() -> None:
    tiles = "".join("(" + ",".join(["2"] * k) + ")" for k in range(1, 60))
    with pytest.raises(CutepyError, match="MAX_TILED_RANK"):
        compile_details("f32[4]{0:T" + tiles + "}")


def test_offsets_past_int64_are_python_ints() -> None:
    big = 1 << 62
    text = f"f32[{big},4]{{0,1}}"  # column major: offset = i + j * 2**62, past int64 for j >= 2
    rows = [[big - 1, 3], [5, 2], [0, 1]]
    want = [i + j * big for i, j in rows]
    c = compile_details(text)
    assert [int(x) for x in c.offsets_at(rows)] == want
    assert [to_cute(text)(i, j) for i, j in rows] == want


def test_offset_table_past_int64_does_not_wrap() -> None:
    big = 1 << 62
    text = f"f32[2,3]{{1,0:T({big})}}"  # the minor dim padded to 2**62: offset = i * 2**62 + j
    want = [[i * big + j for j in range(3)] for i in range(2)]
    assert compile_details(text).offsets().tolist() == want
    assert check_compile(compile_details(text), text) == 6


def test_offset_table_refuses_more_than_the_limit() -> None:
    c = compile_details("f32[65536,65536]")
    with pytest.raises(CutepyError, match="MAX_TABLE_ELEMENTS"):
        c.offsets(limit=1 << 20)


@pytest.mark.parametrize(
    ("call", "why"),
    [
        (lambda: check_compile("f32[2]", "f32[2]"), "what compile_details returned"),
        (lambda: check_compile(compile_details("f32[2]"), "f32[2]", sample=-1), "sample"),
        (lambda: check_compile(compile_details("f32[2]"), "f32[2]", sample=2.5), "sample"),
        (lambda: check_compile(compile_details("f32[2]"), "f32[2]", sample=3, seed="x"), "seed"),
        (lambda: check_compile(compile_details("f32[2]"), "f32[2]", sample=10**30), "limit"),
        (lambda: offsets_at(compile_details("f32[2,3]"), [[0.5, 1]]), "integers"),
        (lambda: offsets_at(compile_details("f32[2,3]"), [[2**70, 1]]), "beyond int64"),
        (lambda: offsets_at(compile_details("f32[2,3]"), None), "integers"),
        (lambda: offsets_at("f32[2,3]", [[0, 1]]), "what compile_details returned"),
        (lambda: from_cute(Layout((4, 4), (4, 1)), 5), "not a tuple of integers"),
        (lambda: from_cute(Layout((4, 4), (4, 1)), (4.0, 4)), "not a tuple of integers"),
        (lambda: linear_index("f32[2,3]", 5), "not a tuple of integers"),
        (lambda: linear_index("f32[2,3]", (True, 1)), "outside"),
        (lambda: program(5), "array shape"),
    ],
)
def test_bad_arguments_get_a_cutepy_error(call, why: str) -> None:
    with pytest.raises(CutepyError, match=why):
        call()
