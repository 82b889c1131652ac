"""TPU tile formats picked from dtype and shape."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.xla import ArrayShape, Tile, XlaLayout, parse_shape, tpu_tiles


def _text(tiles: tuple[Tile, ...]) -> str:
    return "".join(str(t) for t in tiles)


@pytest.mark.parametrize(
    ("dtype", "dims", "expected"),
    [
        # 32-bit: (8,128), small second-minor dims get (2,128) / (4,128)
        ("f32", (1024, 1024), "(8,128)"),
        ("s32", (16, 5, 256), "(8,128)"),
        ("u32", (7, 1), "(8,128)"),
        ("f32", (1, 1024), "(2,128)"),
        ("f32", (64, 2, 128), "(2,128)"),
        ("f32", (3, 6), "(4,128)"),
        ("f32", (4, 4, 128), "(4,128)"),
        ("f32", (5, 128), "(8,128)"),
        # 16-bit: (8,128)(2,1)
        ("bf16", (1024, 1024), "(8,128)(2,1)"),
        ("f16", (10, 20), "(8,128)(2,1)"),
        ("bf16", (2, 2048), "(2,128)(2,1)"),
        ("bf16", (16384, 4, 256), "(4,128)(2,1)"),
        # 8-bit: (8,128)(4,1)
        ("s8", (4096, 4096), "(8,128)(4,1)"),
        ("f8e4m3fn", (64, 256), "(8,128)(4,1)"),
        ("u8", (2, 256), "(4,128)(4,1)"),
        # 4-bit / 2-bit: same rule, 8 and 16 rows per word
        ("s4", (16384, 256), "(8,128)(8,1)"),
        ("u2", (64, 256), "(16,128)(16,1)"),
        # 1-bit predicates: (32,128)(32,1)
        ("pred", (8, 1024), "(32,128)(32,1)"),
        ("s1", (1, 1), "(32,128)(32,1)"),
        # wider than 32 bits: like 32-bit
        ("f64", (16, 16), "(8,128)"),
        ("c128", (2, 16), "(2,128)"),
        # rank 0 and 1 count as [1, n]
        ("f32", (), "(2,128)"),
        ("f32", (1024,), "(2,128)"),
        ("bf16", (1024,), "(2,128)(2,1)"),
        ("s8", (7,), "(4,128)(4,1)"),
    ],
)
def test_tpu_formats(dtype: str, dims: tuple[int, ...], expected: str) -> None:
    assert _text(tpu_tiles(dtype, dims)) == expected


def test_pred_as_bytes() -> None:
    assert _text(tpu_tiles("pred", (8, 1024), bits=8)) == "(8,128)(4,1)"
    assert _text(tpu_tiles("bf16", (8, 1024), bits=32)) == "(8,128)"


def test_minor_to_major() -> None:
    # f32[4,2]{0,1}: physically [2,4], second-most-minor dim 2
    assert _text(tpu_tiles("f32", (4, 2), minor_to_major=(0, 1))) == "(2,128)"
    assert _text(tpu_tiles("f32", (4, 2), minor_to_major=(1, 0))) == "(4,128)"
    assert _text(tpu_tiles("f32", (16, 4, 1), minor_to_major=(1, 2, 0))) == "(2,128)"
    assert _text(tpu_tiles("f32", (3, 16, 1), minor_to_major=(2, 1, 0))) == "(8,128)"


@pytest.mark.parametrize(
    "text",
    [
        "bf16[1024,1024]{1,0:T(8,128)(2,1)}",
        "bf16[2,2048]{1,0:T(2,128)(2,1)}",
        "bf16[1,1,40,100,128]{4,1,3,2,0:T(2,128)(2,1)}",
        "f32[8,4,1]{0,1,2:T(4,128)}",
        "f32[3,6]{1,0:T(4,128)}",
        "f32[32,1,1]{2,1,0:T(2,128)}",
        "s8[9216,6144]{1,0:T(8,128)(4,1)}",
        "s32[1024,1024,2048]{2,0,1:T(8,128)}",
    ],
)
def test_matches_real_tpu_shapes(text: str) -> None:
    shape = parse_shape(text)
    assert isinstance(shape, ArrayShape) and shape.layout is not None
    chosen = tpu_tiles(shape.element_type, shape.dims, minor_to_major=shape.layout.minor_to_major)
    assert chosen == shape.layout.tiles


def test_tiles_make_valid_layouts() -> None:
    tiles = tpu_tiles("bf16", (3, 300))
    shape = ArrayShape("bf16", (3, 300), layout=XlaLayout((1, 0), tiles=tiles))
    assert str(shape) == "bf16[3,300]{1,0:T(4,128)(2,1)}"


def test_errors() -> None:
    with pytest.raises(CutepyError, match="no TPU tile format"):
        tpu_tiles("token", ())
    with pytest.raises(CutepyError, match="not a permutation"):
        tpu_tiles("f32", (2, 3), minor_to_major=(0, 0))
    with pytest.raises(CutepyError, match="3-bit"):
        tpu_tiles("f32", (2, 3), bits=3)
    with pytest.raises(CutepyError, match="unknown XLA element type"):
        tpu_tiles("f31", (2, 3))


def test_tiles_iterate_as_tuples() -> None:
    (rows, lanes), (pack, one) = tpu_tiles("bf16", (16, 256))
    assert (rows, lanes, pack, one) == (8, 128, 2, 1)
    assert tpu_tiles("s8", (16, 256)) == ((8, 128), (4, 1))
    assert [tuple(t) for t in tpu_tiles("f32", (2, 300))] == [(2, 128)]


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"dtype": "f32", "dims": 5}, "not a tuple of integers"),
        ({"dtype": "f32", "dims": (8, 2.5)}, "not a tuple of integers"),
        ({"dtype": "f32", "dims": (8, True)}, "not a tuple of integers"),
        ({"dtype": "f32", "dims": (8, -1)}, "non-negative"),
        ({"dtype": "f32", "dims": (8, 128), "bits": 2.0}, "bits"),
        ({"dtype": "f32", "dims": (8, 128), "minor_to_major": (0.0, 1)}, "minor_to_major"),
        ({"dtype": 5, "dims": (8, 128)}, "element type"),
    ],
)
def test_bad_arguments_get_a_cutepy_error(kwargs: dict, why: str) -> None:
    with pytest.raises(CutepyError, match=why):
        tpu_tiles(**kwargs)
