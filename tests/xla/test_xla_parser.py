"""Parser and printer of XLA shape strings: real-world data, errors, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy.core.errors import CutepyError, LayoutError, ParseError
from cutepy.xla import (
    COMBINE_DIM,
    ELEMENT_TYPES,
    MAX_NESTING,
    UNBOUNDED_DIM,
    ArrayShape,
    BufferShape,
    SplitConfig,
    Tile,
    TupleShape,
    XlaLayout,
    parse_shape,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def _shape_rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in (DATA / "xla_shapes.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            text, status, expected = line.split("\t")
            rows.append((text, status, expected))
    return rows


SHAPE_ROWS = _shape_rows()


def test_data_present() -> None:
    assert len(SHAPE_ROWS) == 526
    assert sum(status == "ERR" for _, status, _ in SHAPE_ROWS) == 5


#: Rows XLA's parser accepts but its shape validator rejects: cutepy validates while parsing,
#: as for a repeated minor_to_major dim. ``T()``: LayoutUtil::ValidateLayoutForShape says
#: "layout has invalid tiles" for a tile with no dimensions.
VALIDATOR_REJECTS = {"f32[]{:T()}"}


@pytest.mark.parametrize(("text", "status", "expected"), SHAPE_ROWS, ids=[r[0] for r in SHAPE_ROWS])
def test_xla_shapes_tsv(text: str, status: str, expected: str) -> None:
    if text in VALIDATOR_REJECTS:
        with pytest.raises(ParseError, match="a tile needs at least one dimension"):
            parse_shape(text)
    elif status == "OK":
        shape = parse_shape(text)
        assert str(shape) == expected
        assert parse_shape(expected) == shape
    else:
        with pytest.raises(ParseError) as info:
            parse_shape(text)
        assert text in str(info.value)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("F32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),
        ("BF16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"),
        (" F32 [3, 5] {1, 0: T (2, 2)} ", "f32[3,5]{1,0:T(2,2)}"),
        ("f32[2,3]", "f32[2,3]{1,0}"),
        ("f32[]", "f32[]"),
        ("f32[]{}", "f32[]"),
        ("f32[]{:S(0)}", "f32[]"),
        ("f32[?,<=7,3]", "f32[?,<=7,3]{2,1,0}"),
        ("f32[ <= 7 ]{0}", "f32[<=7]{0}"),
        ("()", "()"),
        ("( )", "()"),
        ("(f32[2], (s32[], pred[1]{0}))", "(f32[2]{0}, (s32[], pred[1]{0}))"),
        ("(f32[2])", "(f32[2]{0})"),
        ("b(f32[2,2]{0,1:S(1)})", "b(f32[2,2]{0,1:S(1)})"),
        ("b (s8[4])", "b(s8[4]{0})"),
        ("(b(f32[1]), token[], opaque[])", "(b(f32[1]{0}), token[], opaque[])"),
        ("f32[2,3]{1,0:D(D,C+~)T(2,2)}", "f32[2,3]{1,0:T(2,2)}"),
        ("f32[2,3]{1,0:D()}", "f32[2,3]{1,0}"),
        (
            "f32[2,3]{1,0:T(2,*,2)L(4)#(u32)*(S64)E(8)S(2)SC(0:1)(1:1,2)M(16)}",
            "f32[2,3]{1,0:T(2,*,2)L(4)#(u32)*(s64)E(8)S(2)SC(0:1)(1:1,2)M(16)}",
        ),
        ("f32[2,3]{1,0:L(1)E(0)S(0)M(0)}", "f32[2,3]{1,0}"),
        ("f8e4m3fn[4]{0:T(8)(4,1)}", "f8e4m3fn[4]{0:T(8)(4,1)}"),
        ("c128[0,5]", "c128[0,5]{1,0}"),
        ("f32[9223372036854775807]{0}", "f32[9223372036854775807]{0}"),
    ],
)
def test_parse_canonical(text: str, canonical: str) -> None:
    assert str(parse_shape(text)) == canonical
    assert str(parse_shape(canonical)) == canonical


def test_parsed_objects() -> None:
    s = parse_shape("bf16[2,3,1004]{2,1,0:T(2,*,128)S(1)}")
    assert isinstance(s, ArrayShape)
    assert s.element_type == "bf16" and s.dims == (2, 3, 1004)
    assert s.layout is not None
    assert s.layout.minor_to_major == (2, 1, 0)
    assert s.layout.tiles == (Tile((2, COMBINE_DIM, 128)),)
    assert s.layout.tiles[0].dims[1] == -(2**63)
    assert s.layout.memory_space == 1
    d = parse_shape("s32[?,<=4]")
    assert isinstance(d, ArrayShape)
    assert d.dims == (UNBOUNDED_DIM, 4) and d.dynamic == (True, True)
    t = parse_shape("(f32[1], b(u8[2]))")
    assert isinstance(t, TupleShape) and isinstance(t.elements[1], BufferShape)
    sc = parse_shape("pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}")
    assert isinstance(sc, ArrayShape) and sc.layout is not None
    assert sc.layout.split_configs == (SplitConfig(0, (10,)), SplitConfig(1, (4, 5)))


# text, a fragment of the message, the 0-based column the caret points at
ERRORS = [
    ("f32[3]{1,0}", "minor_to_major lists 2", 7),
    ("f32[3]{:T(8, 128)}", "minor_to_major lists 0", 7),
    ("f32[2,3]{0,0}", "repeats a dimension", 9),
    ("f32[2,3]{0,2}", "names dimension 2 >= rank 2", 9),
    ("f32[2,3]{0,-1}", "minor_to_major entry must be an integer >= 0", 11),
    ("f32[4]{0:T(0)}", "tile dimension must be an integer >= 1, got 0", 11),
    ("f32[4]{0:T(4,-2)}", "tile dimension must be an integer >= 1, got -2", 13),
    ("f32[4]{0:T(4,)}", "expected an integer (tile dimension)", 13),
    ("f32[4]{0:T(,4)}", "expected an integer (tile dimension)", 11),
    ("f32[4]{0:T(4,*)}", "'*' cannot be the most minor tile dimension", 13),
    ("f32[4]{0:T(*)}", "'*' cannot be the most minor tile dimension", 11),
    ("f32[4]{0:T}", "expected '(' to open a tile", 10),
    ("f32[4]{0:L(0)}", "L(...) value must be an integer >= 1, got 0", 11),
    ("f32[4]{0:E(-4)}", "E(...) value must be an integer >= 0, got -4", 11),
    ("f32[4]{0:S(-1)}", "S(...) value must be an integer >= 0", 11),
    ("f32[4]{0:#(f32)}", "needs an integer element type, got 'f32'", 11),
    ("q32[4]", "unknown element type 'q32'", 0),
    ("f32[4]{0:S(1)T(4)}", "layout attribute 'T' out of order", 13),
    ("f32[4]{0:T(4)T(4)}", "out of order or repeated", 13),
    ("f32[4]{0:M(1)E(4)}", "layout attribute 'E' out of order", 13),
    ("f32[4]{0:X(1)}", "unknown layout attribute 'X'", 9),
    ("f32[4]{0:t(4)}", "unknown layout attribute 't'", 9),
    ("f32[4]{0} junk", "unexpected text after the shape", 10),
    ("f32[4]{0}}", "unexpected text after the shape", 9),
    ("f32[4", "expected ']' to close the dimensions, found the end of the text", 5),
    ("f32[4]{0", "expected '}' to close the layout", 8),
    ("f32[4,]", "expected an integer (dimension size)", 6),
    ("f32[-4]", "dimension size must be an integer >= 0, got -4", 4),
    ("f32[99999999999999999999]", "dimension size must be an integer >= 0", 4),
    ("f32[4]{0:P(f32[4])}", "physical shape P(...)", 9),
    ("f32[10,10]{1,0:D(X,C)}", "expected a dim level type (D, C, S or H)", 17),
    ("b(f32[2]", "expected ')' to close the buffer shape", 8),
    ("b((f32[2]))", "a buffer shape b(...) must hold an array shape", 2),
    ("b(token[])", "a buffer shape b(...) must hold an array shape", 2),
    ("(f32[2],)", "expected a shape", 8),
    ("(f32[2] s32[])", "expected ')' to close the tuple", 8),
    ("token[2]", "token takes no dimensions", 0),
    ("token[]{}", "token takes no layout", 7),
    ("", "expected a shape", 0),
    ("[4]", "expected a shape", 0),
]


@pytest.mark.parametrize(("text", "fragment", "column"), ERRORS, ids=[e[0] for e in ERRORS])
def test_parse_errors(text: str, fragment: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_shape(text)
    err = info.value
    assert fragment in str(err)
    assert err.text == text and err.pos == column
    assert f"at column {column + 1}" in str(err)
    assert str(err).splitlines()[-1] == "  " + " " * column + "^"


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5000])
def test_deep_nesting_is_a_parse_error(depth: int) -> None:
    with pytest.raises(ParseError, match="nested deeper than"):
        parse_shape("(" * depth + "f32[]" + ")" * depth)
    with pytest.raises(ParseError, match="nested deeper than"):
        parse_shape("b(" * depth + "f32[]" + ")" * depth)


def test_nesting_up_to_the_limit_works() -> None:
    depth = MAX_NESTING - 1
    text = "(" * depth + "f32[]" + ")" * depth
    assert str(parse_shape(text)) == text


def test_parse_shape_needs_text() -> None:
    with pytest.raises(CutepyError, match="expects a string"):
        parse_shape(3)  # type: ignore[arg-type]


def test_object_validation() -> None:
    assert Tile((-1, 4)).dims == (COMBINE_DIM, 4)
    with pytest.raises(LayoutError, match="most minor"):
        Tile((4, -1))
    with pytest.raises(LayoutError, match="positive"):
        Tile((4, -3))
    with pytest.raises(LayoutError, match="integers"):
        Tile((4, 2.0))  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match=">= 1"):
        XlaLayout((0,), tail_padding_alignment_in_elements=0)
    with pytest.raises(LayoutError, match=">= 0"):
        XlaLayout((0,), element_size_in_bits=-1)
    with pytest.raises(LayoutError, match="integer type"):
        XlaLayout((0,), index_primitive_type="f32")
    with pytest.raises(LayoutError, match="names dimension 2"):
        ArrayShape("f32", (3, 3), layout=XlaLayout((0, 2)))
    with pytest.raises(LayoutError, match="split config"):
        ArrayShape("f32", (3,), layout=XlaLayout((0,), split_configs=(SplitConfig(1, (1,)),)))
    with pytest.raises(LayoutError, match="one bool per dim"):
        ArrayShape("f32", (3,), dynamic=(True, False))
    with pytest.raises(LayoutError, match="non-negative"):
        ArrayShape("f32", (UNBOUNDED_DIM,))
    with pytest.raises(CutepyError, match="unknown XLA element type"):
        ArrayShape("f31", (3,))
    with pytest.raises(LayoutError, match="holds an array shape"):
        BufferShape(TupleShape(()))  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="must be shapes"):
        TupleShape(("f32[2]",))  # type: ignore[arg-type]
    assert str(ArrayShape("f32", (2, 3))) == "f32[2,3]"  # no layout: none printed
    assert ArrayShape("F32", (2,)).element_type == "f32"


# --- round trip: parse(str(x)) == x ------------------------------------------

ARRAY_TYPES = sorted(n for n, t in ELEMENT_TYPES.items() if t.is_array_type)
INT_TYPES = sorted(n for n, t in ELEMENT_TYPES.items() if t.is_integral)


@st.composite
def tiles(draw: st.DrawFn) -> Tile:
    k = draw(st.integers(1, 4))  # XLA: a tile has at least one dim
    dims = [draw(st.one_of(st.integers(1, 300), st.just(COMBINE_DIM))) for _ in range(k)]
    if dims and dims[-1] == COMBINE_DIM:
        dims[-1] = 1
    return Tile(tuple(dims))


@st.composite
def array_shapes(draw: st.DrawFn) -> ArrayShape:
    rank = draw(st.integers(0, 5))
    dims, dynamic = [], []
    for _ in range(rank):
        kind = draw(st.sampled_from(["static", "static", "bounded", "unbounded"]))
        dims.append(UNBOUNDED_DIM if kind == "unbounded" else draw(st.integers(0, 10**12)))
        dynamic.append(kind != "static")
    opt = st.none() | st.sampled_from(INT_TYPES)
    splits = (
        st.lists(
            st.builds(
                SplitConfig,
                st.integers(0, max(rank - 1, 0)),
                st.lists(st.integers(0, 99), min_size=1, max_size=3).map(tuple),
            ),
            max_size=2,
        )
        if rank
        else st.just([])
    )
    layout = XlaLayout(
        tuple(draw(st.permutations(range(rank)))),
        tiles=tuple(draw(st.lists(tiles(), max_size=3))),
        tail_padding_alignment_in_elements=draw(st.sampled_from([1, 1, 2, 1024])),
        index_primitive_type=draw(opt),
        pointer_primitive_type=draw(opt),
        element_size_in_bits=draw(st.sampled_from([0, 0, 1, 4, 32])),
        memory_space=draw(st.sampled_from([0, 0, 1, 5])),
        split_configs=tuple(draw(splits)),
        dynamic_shape_metadata_prefix_bytes=draw(st.sampled_from([0, 0, 1024])),
    )
    return ArrayShape(draw(st.sampled_from(ARRAY_TYPES)), tuple(dims), tuple(dynamic), layout)


SHAPES = st.recursive(
    array_shapes()
    | array_shapes().map(BufferShape)
    | st.sampled_from([ArrayShape("token"), ArrayShape("opaque")]),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: TupleShape(tuple(xs))),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(SHAPES)
def test_round_trip(shape: object) -> None:
    text = str(shape)
    parsed = parse_shape(text)
    assert parsed == shape
    assert str(parsed) == text


@settings(max_examples=100, deadline=None)
@given(array_shapes(), st.sampled_from([" ", "\t", "\n  "]))
def test_round_trip_uppercase_and_whitespace(shape: ArrayShape, ws: str) -> None:
    head, rest = str(shape).split("[", 1)
    rest = "[" + rest
    for ch in "[]{}(),:*#?":
        rest = rest.replace(ch, ws + ch + ws)
    assert parse_shape(ws + head.upper() + rest) == shape


def test_deep_physical_shape_nesting_is_a_parse_error() -> None:
    text = "f32[1]{0:P(" * 3000 + "f32[1]" + ")}" * 3000
    with pytest.raises(ParseError, match="nested deeper than"):
        parse_shape(text)


@pytest.mark.parametrize(
    ("name", "bits", "byte_width"),
    [
        ("pred", 8, 1),
        ("s1", 1, 1),
        ("u2", 2, 1),
        ("s4", 4, 1),
        ("f4e2m1fn", 4, 1),
        ("s8", 8, 1),
        ("f8e4m3fn", 8, 1),
        ("f8e5m2", 8, 1),
        ("bf16", 16, 2),
        ("f16", 16, 2),
        ("u32", 32, 4),
        ("f64", 64, 8),
        ("c64", 64, 8),
        ("c128", 128, 16),
        ("token", 0, 0),
        ("opaque", 0, 0),
    ],
)
def test_element_types(name: str, bits: int, byte_width: int) -> None:
    et = ELEMENT_TYPES[name]
    assert (et.bits, et.byte_width) == (bits, byte_width)
    assert str(parse_shape(name.upper() + "[]")) == name + "[]"


@pytest.mark.parametrize("text", ["f32[8]{0:T()}", "f32[]{:T()}", "f32[2,3]{1,0:T(2,2)()}"])
def test_parse_rejects_a_tile_without_dimensions(text: str) -> None:
    """XLA's layout validator rejects a tile with no dimensions ("layout has invalid tiles")."""
    with pytest.raises(ParseError, match="a tile needs at least one dimension"):
        parse_shape(text)


def test_tile_without_dimensions_is_a_layout_error() -> None:
    with pytest.raises(CutepyError, match="at least one dimension"):
        Tile(())
