"""print_layout against the C++ CuTe format, on expected tables written out by hand.

The C++ rules (cute/util/print_latex.hpp, print_layout): line 1 is the layout; cells are
``w = num_digits(cosize) + 2`` wide; the header is ``"    "`` then ``"  %*d "`` (width
``w-2``) per column; each row is preceded by ``"    "`` + ``"+" + "-"*w`` per column +
``"+"``; a row is ``"%2d  "`` then ``"| %*d "`` per cell then ``"|"``; a final separator.
The strings below are spelled out cell by cell from those rules, not generated.
"""

from __future__ import annotations

import io
import re

import pytest

import cutepy
from cutepy.core.errors import CutepyError
from cutepy.viz import layout_table, print_layout

SEP2 = "    +---+---+\n"

EXPECTED_4x2_ROW_MAJOR = (
    "(4,2):(2,1)\n"
    "      0   1 \n"
    + SEP2 + " 0  | 0 | 1 |\n"
    + SEP2 + " 1  | 2 | 3 |\n"
    + SEP2 + " 2  | 4 | 5 |\n"
    + SEP2 + " 3  | 6 | 7 |\n"
    + SEP2
)

SEP3 = "    +---+---+---+\n"
EXPECTED_2x3_COL_MAJOR = (
    "(2,3):(1,2)\n"
    "      0   1   2 \n"
    + SEP3 + " 0  | 0 | 2 | 4 |\n"
    + SEP3 + " 1  | 1 | 3 | 5 |\n"
    + SEP3
)

# cosize 43 -> 2 digits -> cells 4 wide
SEP_N = "    +----+----+----+\n"
EXPECTED_NESTED = (
    "((2,2),3):((24,2),8)\n"
    "       0    1    2 \n"
    + SEP_N + " 0  |  0 |  8 | 16 |\n"
    + SEP_N + " 1  | 24 | 32 | 40 |\n"
    + SEP_N + " 2  |  2 | 10 | 18 |\n"
    + SEP_N + " 3  | 26 | 34 | 42 |\n"
    + SEP_N
)

# cosize 102 -> 3 digits -> cells 5 wide
SEP_W = "    +-----+-----+\n"
EXPECTED_WIDE = (
    "(2,2):(100,1)\n"
    "        0     1 \n"
    + SEP_W + " 0  |   0 |   1 |\n"
    + SEP_W + " 1  | 100 | 101 |\n"
    + SEP_W
)

# rank 1: one row; cosize 22 -> cells 4 wide
SEP_R = "    " + "+----" * 8 + "+\n"
EXPECTED_RANK1 = (
    "8:3\n"
    "       0    1    2    3    4    5    6    7 \n"
    + SEP_R + " 0  |  0 |  3 |  6 |  9 | 12 | 15 | 18 | 21 |\n"
    + SEP_R
)

# negative stride: C++ cosize uses |stride| (1+1+2 = 4, one digit) and %*d does not truncate
EXPECTED_NEGATIVE = (
    "(2,2):(-1,2)\n"
    "      0   1 \n"
    + SEP2 + " 0  | 0 | 2 |\n"
    + SEP2 + " 1  | -1 | 1 |\n"
    + SEP2
)

# Sw<1,0,1> xors bit 1 into bit 0; the width comes from the inner layout's cosize (8)
SEP4 = "    +---+---+---+---+\n"
EXPECTED_SWIZZLED = (
    "Sw<1,0,1> o 0 o (2,4):(4,1)\n"
    "      0   1   2   3 \n"
    + SEP4 + " 0  | 0 | 1 | 3 | 2 |\n"
    + SEP4 + " 1  | 4 | 5 | 7 | 6 |\n"
    + SEP4
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(4,2):(2,1)", EXPECTED_4x2_ROW_MAJOR),
        ("(2,3):(1,2)", EXPECTED_2x3_COL_MAJOR),
        ("((2,2),3):((24,2),8)", EXPECTED_NESTED),
        ("(2,2):(100,1)", EXPECTED_WIDE),
        ("8:3", EXPECTED_RANK1),
        ("(2,2):(-1,2)", EXPECTED_NEGATIVE),
        ("Sw<1,0,1> o 0 o (2,4):(4,1)", EXPECTED_SWIZZLED),
    ],
)
def test_table_matches_cpp_format(text: str, expected: str) -> None:
    assert layout_table(cutepy.parse(text)) == expected


def test_two_digit_row_indices_use_percent_2d() -> None:
    table = layout_table(cutepy.Layout((12, 1), (1, 0)))
    lines = table.splitlines()
    assert lines[0] == "(12,1):(1,0)"
    assert lines[1] == "       0 "           # cosize 12: two digits, cells 4 wide
    assert lines[2] == "    +----+"
    assert lines[3] == " 0  |  0 |"
    assert lines[23] == "10  | 10 |"
    assert lines[25] == "11  | 11 |"
    assert lines[-1] == "    +----+"
    assert len(lines) == 2 + 2 * 12 + 1


def test_print_layout_writes_to_stdout_and_files(capsys: pytest.CaptureFixture[str]) -> None:
    L = cutepy.parse("(4,2):(2,1)")
    print_layout(L)
    assert capsys.readouterr().out == EXPECTED_4x2_ROW_MAJOR
    buf = io.StringIO()
    print_layout(L, file=buf)
    assert buf.getvalue() == EXPECTED_4x2_ROW_MAJOR


def test_higher_rank_is_a_clear_error_suggesting_a_2d_view() -> None:
    with pytest.raises(CutepyError) as err:
        print_layout(cutepy.Layout((2, 3, 4)))
    msg = str(err.value)
    assert "rank 3" in msg and "group" in msg and "(2,(3,4)):(1,(2,6))" in msg


def test_basis_strides_are_rejected() -> None:
    with pytest.raises(CutepyError, match="integer offsets"):
        layout_table(cutepy.make_identity_layout((2, 2)))


def test_tilers_are_not_layouts() -> None:
    with pytest.raises(CutepyError, match="tiler"):
        layout_table("<3:4, 8:2>")


def _rows(table: str) -> list[list[str]]:
    return [[v.strip() for v in line.split("|")[1:-1]] for line in table.splitlines()
            if re.match(r"^\s*\d+\s+\|", line)]


@pytest.mark.parametrize("rows, cols, limit", [(4096, 4096, 16), (100, 7, 6), (1, 1000, 2), (33, 65, 64)])
def test_big_tables_elide_the_middle_and_keep_the_corners(rows: int, cols: int, limit: int) -> None:
    L = cutepy.Layout((rows, cols), (cols, 1))  # row-major: L(r, c) = r * cols + c
    table = layout_table(L, limit)
    shown = _rows(table)
    r_shown = [int(line.split("|")[0]) for line in table.splitlines() if re.match(r"^\s*\d+\s+\|", line)]
    assert len(shown) == min(rows, limit)
    first = [int(v) for v in shown[0] if v != "..."]
    last = [int(v) for v in shown[-1] if v != "..."]
    assert first[0] == 0 and last[-1] == rows * cols - 1  # the corners
    assert r_shown[-1] == rows - 1
    if rows > limit or cols > limit:
        assert "..." in table and table.rstrip().splitlines()[-1].startswith("elided: ")
    else:
        assert "elided" not in table


def test_full_tables_beyond_the_cell_limit_are_refused_by_name() -> None:
    from cutepy.viz.text import MAX_TABLE_CELLS

    with pytest.raises(cutepy.CutepyError, match="MAX_TABLE_CELLS"):
        layout_table(cutepy.Layout((2048, 1024)), limit=None)
    assert 2048 * 1024 > MAX_TABLE_CELLS


def test_huge_tables_cost_nothing_per_element() -> None:
    import time

    start = time.perf_counter()
    table = layout_table(cutepy.Layout((100000, 100000), (100000, 1)), limit=8)
    assert time.perf_counter() - start < 1 and "rows 4..99995 of 100000" in table
