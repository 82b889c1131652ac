"""Byte sizes of XLA arrays against XLA's own numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutepy.core.errors import CutepyError
from cutepy.xla import ShapeSizes, parse_shape, sizes

DATA = Path(__file__).resolve().parents[1] / "data"


def _size_rows() -> list[tuple[str, int, int, int]]:
    rows = []
    for line in (DATA / "xla_shape_sizes.tsv").read_text().splitlines()[1:]:
        shape, dense, array_size, nested, _cpu = line.split("\t")
        rows.append((shape, int(dense), int(array_size), int(nested)))
    return rows


SIZE_ROWS = _size_rows()


def test_data_present() -> None:
    assert len(SIZE_ROWS) == 517


@pytest.mark.parametrize(("text", "dense", "array_size", "nested"), SIZE_ROWS, ids=[r[0] for r in SIZE_ROWS])
def test_xla_shape_sizes_tsv(text: str, dense: int, array_size: int, nested: int) -> None:
    if "T()" in text:  # XLA's layout validator rejects a tile without dims, and so does cutepy
        with pytest.raises(CutepyError, match="at least one dimension"):
            sizes(text)
    else:
        assert sizes(text) == ShapeSizes(dense, array_size, nested)


def test_padding_sub_tile_differs() -> None:
    # SPEC: ArraySize uses the first tile only; the nested size sees the (2,1) padding.
    s = sizes("f32[3,5]{1,0:T(3,5)(2,1)}")
    assert (s.dense, s.array_size, s.nested) == (60, 60, 80)
    assert s.padding_overhead == pytest.approx(100 * 20 / 60)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f32[3,5]{1,0:T(2,2)}", (60, 96, 96)),
        ("s4[3]{0:E(4)}", (2, 2, 2)),  # 12 bits round up to 2 bytes
        ("s4[3]", (3, 3, 3)),  # unpacked sub-byte types take a byte each
        ("pred[5]{0:T(8)E(1)}", (1, 1, 1)),
        ("f32[3]{0:L(4)}", (12, 12, 16)),  # like XLA, ArraySize ignores L when untiled
        ("f32[3]{0:T(2)L(4)}", (12, 16, 16)),
        ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", (49280, 49728, 49728)),
        ("f32[2,<=3]", (24, 24, 24)),
        ("b(c64[2])", (16, 16, 16)),
        ("f32[0,3]{1,0:T(8,128)}", (0, 0, 0)),
        ("f32[]", (4, 4, 4)),
    ],
)
def test_sizes_examples(text: str, expected: tuple[int, int, int]) -> None:
    s = sizes(parse_shape(text))
    assert (s.dense, s.array_size, s.nested) == expected


def test_overhead() -> None:
    assert sizes("f32[8,128]{1,0:T(8,128)}").padding_overhead == 0.0
    assert sizes("f32[0]").padding_overhead == 0.0
    assert sizes("f32[1,1]{1,0:T(8,128)}").padding_overhead == 102300.0


@pytest.mark.parametrize("text", ["(f32[2], f32[3])", "token[]", "f32[?,2]"])
def test_sizes_errors(text: str) -> None:
    with pytest.raises(CutepyError):
        sizes(text)
