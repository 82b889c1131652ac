"""The ``cutepy`` command, run as a user runs it: output, exit status 0/1/2, one-line errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cutepy
from cutepy.cli import OPERATIONS, main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    """The command in a fresh interpreter (``python -m cutepy``), as installed."""
    return subprocess.run([sys.executable, "-m", "cutepy", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _cells(table: str) -> list[list[int]]:
    """The offsets in a print_layout table, row by row (elided '...' cells left out)."""
    return [[int(v) for v in line.split("|")[1:-1] if v.strip() != "..."] for line in table.splitlines()
            if re.match(r"^\s*\d+\s+\|", line)]


def test_tour_runs_and_every_example_shows_something(capsys) -> None:
    code, out, _ = call(capsys)
    assert code == 0
    assert "((2,2),3):((24,2),8)" in out and "(2,3):(1,8)" in out
    # the swizzle example permutes: Sw<3,0,3> o (8,8):(8,1) sends (r, c) to 8 r + (c xor r)
    block = out[out.index('show "Sw<3,0,3> o 0 o (8,8):(8,1)"'):]
    cells = _cells(block[:block.index("size 64")])
    assert cells == [[8 * r + (c ^ r) for c in range(8)] for r in range(8)]
    assert cells != [[8 * r + c for c in range(8)] for r in range(8)]


def test_python_m_cutepy_and_version() -> None:
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"cutepy {cutepy.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "cutepy.__version__" }' in pyproject


def test_show(capsys) -> None:
    code, out, _ = call(capsys, "show", "(2,(2,2)):(4,(2,1))")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "(2,(2,2)):(4,(2,1))"
    assert lines[1] == "      0   1   2   3 "
    assert lines[3] == " 0  | 0 | 2 | 1 | 3 |"
    assert "size 8" in lines[-1] and "cosize 8" in lines[-1]


def test_show_elides_a_big_layout_and_says_what(capsys) -> None:
    code, out, _ = call(capsys, "show", "(4096,4096):(4096,1)")
    assert code == 0 and len(out) < 10_000
    assert "elided: rows 8..4087 of 4096, columns 8..4087 of 4096" in out
    cells = _cells(out)
    assert cells[0][:2] == [0, 1] and cells[-1][-1] == 4096 * 4096 - 1  # corners kept
    assert "..." in out


def test_show_of_a_huge_layout_allocates_nothing_per_element(capsys) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        code, out, _ = call(capsys, "show", "(100000,100000):(100000,1)")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0 and peak < 2_000_000 and len(out) < 10_000  # 10^10 elements: ~80 KB measured
    assert "of 100000" in out and "size 10000000000" in out


def test_show_writes_svg_and_latex_prints_only_tikz(tmp_path, capsys) -> None:
    out_svg = tmp_path / "l.svg"
    code, out, _ = call(capsys, "show", "(4,8):(8,1)", "--svg", str(out_svg))
    assert code == 0 and out_svg.read_text().startswith("<svg") and f"wrote {out_svg}" in out
    code, out, _ = call(capsys, "show", "(4,8):(8,1)", "--latex")
    assert code == 0
    assert out.startswith("% Layout: (4,8):(8,1)\n\\documentclass")
    assert out.rstrip().endswith("\\end{document}")
    assert _cells(out) == [] and "cosize" not in out  # no table, no sizes


@pytest.mark.parametrize(
    "args, expected",
    [
        (("composition", "(6,2):(8,2)", "(4,3):(3,1)"), "((2,2),3):((24,2),8)"),
        (("complement", "4:2", "24"), "(2,3):(1,8)"),
        (("logical_divide", "(4,2,3):(2,1,8)", "4:2"), "((2,2),(2,3)):((4,1),(2,8))"),
        (("composition", "(12,(4,8)):(59,(13,1))", "<3, 8>"), "(3,(4,2)):(59,(13,1))"),
        (("upcast", "(4,8):(1,4)", "2"), "(2,8):(1,2)"),
        (("max_common_vector", "(4,8):(1,4)", "(4,8):(1,8)"), "4"),
        # a shape where a tiler is meant is the by-mode tiler <4:1, 4:1> (C++: make_shape(4,4))
        (("logical_divide", "(8,8):(8,1)", "(4,4)"), "((4,2),(4,2)):((8,32),(1,4))"),
        (("zipped_divide", "(8,8):(8,1)", "(4,4)"), "((4,4),(2,2)):((8,1),(32,4))"),
        (("tile_to_shape", "(2,2):(1,2)", "(4,6)"), "((2,2),(2,3)):((1,4),(2,8))"),
    ],
)
def test_op(args, expected, capsys) -> None:
    code, out, err = call(capsys, "op", *args)
    assert (code, err) == (0, "")
    assert out.strip() == expected


def test_a_shape_tiler_is_the_by_mode_tiler(capsys) -> None:
    for name in ("logical_divide", "zipped_divide", "logical_product", "flat_divide", "composition"):
        _, shape_out, _ = call(capsys, "op", name, "(8,8):(8,1)", "(4,2)")
        _, tiler_out, _ = call(capsys, "op", name, "(8,8):(8,1)", "<4:1, 2:1>")
        assert shape_out == tiler_out, name


def test_op_help_lists_every_operation_with_its_arguments() -> None:
    r = run("op", "--help")
    assert r.returncode == 0
    for name, op in OPERATIONS.items():
        assert re.search(rf"^  {name} {re.escape(' '.join(op.kinds))} ", r.stdout, re.M), name
    names = {"coalesce", "composition", "complement", "logical_divide", "blocked_product", "equivalent"}
    assert names <= set(OPERATIONS)


@pytest.mark.parametrize(
    "args, code",
    [
        (("equivalent", "(2,(1,6)):(1,(6,2))", "12:1"), 0),
        (("equivalent", "(4,3):(3,1)", "12:1"), 1),
        (("is_admissible", "(4,6):(1,5)", "8:3"), 1),
        (("is_admissible", "(6,2):(8,2)", "(4,3):(3,1)"), 0),
    ],
)
def test_yes_is_0_and_no_is_1(args, code, capsys) -> None:
    got, out, err = call(capsys, "op", *args)
    assert (got, err) == (code, "") and out.strip()


@pytest.mark.parametrize(
    "args, words",
    [
        (("show", "(2,3"), "column 5"),
        (("op", "composition", "(4,6):(1,5)", "8:3"), "inadmissible"),
        (("op", "frobnicate", "4:1"), "unknown operation"),
        (("op", "complement"), "takes LAYOUT SHAPE?"),
        (("op", "cosize", "<4:1, 2:1>"), "not the tiler"),
        (("op", "upcast", "4:1", "x"), "takes an integer"),
        (("op", "complement", "4:2", "8:1"), "takes a shape"),
        (("op", "explain", "nothing", "4:1"), "operation name first"),
        (("show", "(4,4):(4,1)", "--svg", "/no/such/folder/x.svg"), "does not exist"),
        (("show", "(4096,4096):(4096,1)", "--latex"), "LATEX_LIMIT"),
        (("xla", "f32[3,5]{1,0:T(2,2)"), "expected '}'"),
        (("banks", "(32,32):(32,1)", "--tv", "((4,8),1):((32,1),0)", "--bytes", "3"), "element_bytes"),
        (("nonsense",), "invalid choice"),
        # sizes between 2^63 and 2^64: C++ CuTe cannot index them
        (("show", "(4000000000,4000000000):(1,1)"), "beyond 2^63-1"),
        (("show", "(4,4):(4,1)", "--bytes", "3", "--svg", "x.svg"), "--bytes takes"),
        (("banks", "Sw<3,4,3> o (32,32):(32,1)", "--tv", "32:32", "--bytes", "4", "--find-swizzle"),
         "unswizzled"),
        (("banks", "(32,32):(32,1)", "--tv", "32:32", "--bytes", "4", "--svg", "/no/such/f.svg"),
         "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words, capsys) -> None:
    code, out, err = call(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("cutepy: error: ")
    assert words.lower() in err.lower()


def test_errors_never_show_a_traceback() -> None:
    for args in (("op", "flatten", "5"), ("op", "cosize", "<4:1, 2:1>"), ("op", "right_inverse", "<2:1>"),
                 ("show", "(2,2):(1,2)", "--svg", "/missing/dir/a.svg")):
        r = run(*args)
        assert "Traceback" not in r.stderr and r.returncode in (0, 2), (args, r.stderr)
        assert r.returncode == 0 or len(r.stderr.strip().splitlines()) == 1


def test_op_explain_and_equivalent(capsys) -> None:
    code, out, _ = call(capsys, "op", "explain", "composition", "(6,2):(8,2)", "(4,3):(3,1)")
    assert code == 0 and "((2,2),3):((24,2),8)" in out and "mode 0" in out
    code, out, _ = call(capsys, "op", "equivalent", "(2,(1,6)):(1,(6,2))", "12:1")
    assert code == 0 and "12:1" in out and "equivalent" in out.lower()


def test_xla_brief_is_one_line_and_the_default_a_table(capsys) -> None:
    code, out, _ = call(capsys, "xla", "--brief", "f32[3,5]{1,0:T(2,2)}")
    assert code == 0 and out.count("\n") == 1
    fields = dict(f.split("=", 1) for f in out.strip().split("\t")[1:])
    # XLA: 3x5 f32 is 60 dense bytes; T(2,2) pads to 4x6 = 96 (tests/data/xla_shape_sizes.tsv's rule)
    assert fields["dense"] == "60" and fields["array_size"] == "96"
    assert fields["cute"] == "((2,2),(2,3)):((2,12),(1,4))"
    code, out, _ = call(capsys, "xla", "f32[3,5]{1,0:T(2,2)}")
    assert code == 0 and out.splitlines()[0].split() == ["shape", "f32[3,5]{1,0:T(2,2)}"]
    assert len(out.splitlines()) > 5


def test_banks_summary_line_and_table(capsys) -> None:
    args = ("banks", "Sw<3,4,3> o 0 o (32,32):(32,1)", "--tv", "((4,8),1):((32,1),0)", "--bytes", "2")
    code, out, _ = call(capsys, *args)
    # measured on an H100 with Nsight Compute: 2 wavefronts, 1 bank conflict (cutepy.banks docs)
    assert code == 0 and out.count("\n") == 1 and "2 wavefronts" in out and "1 bank conflict " in out
    code, out, _ = call(capsys, *args, "--table")
    assert code == 0 and len(out.splitlines()) >= 3 and "wavefronts" in out.splitlines()[2]


def test_a_swizzle_without_its_offset_means_offset_0(capsys) -> None:
    code, out, err = call(capsys, "show", "Sw<3,0,3> o (8,8):(8,1)")
    assert (code, err) == (0, "") and out.startswith("Sw<3,0,3> o 0 o (8,8):(8,1)\n")
    assert _cells(out)[1][:2] == [9, 8]  # row 1 XORs its bits into the column: 8 ^ 1, 9 ^ 1


def test_op_help_swizzle_example_permutes_its_layout() -> None:
    """The help's swizzled example moves offsets on its own domain (the old one did nothing)."""
    text = run("op", "--help").stdout
    example = re.search(r"'(Sw<[^']*)'", text).group(1)
    layout = cutepy.parse(example)
    assert [layout(i) for i in range(layout.size())] != [layout.inner(i) for i in range(layout.size())]


def test_banks_find_swizzle_and_svg(tmp_path, capsys) -> None:
    svg = tmp_path / "banks.svg"
    code, out, err = call(capsys, "banks", "(8,64):(64,1)", "--tv", "((8,4),8):((1,64),8)", "--bytes", "2",
                          "--vector", "8", "--find-swizzle", "--svg", str(svg))
    assert (code, err) == (0, "")
    # the same search through the library: its verdict, and the picture of the swizzled access
    found = cutepy.banks.find_swizzle(cutepy.Layout((8, 64), (64, 1)),
                                      [(cutepy.parse("((8,4),8):((1,64),8)"), "ld", 8)], element_bytes=2)
    assert out.splitlines()[0] == found.summary() and "Sw<3,3,3>: every access at its ideal" in out
    assert svg.read_text().startswith("<svg") and "4 wavefronts" in svg.read_text()


def test_show_svg_of_a_swizzled_layout_colours_cells_by_bank(tmp_path, capsys) -> None:
    from cutepy.viz.colors import bank_color, offset_color

    svg = tmp_path / "sw.svg"
    code, _, _ = call(capsys, "show", "Sw<3,0,3> o (8,8):(8,1)", "--bytes", "4", "--svg", str(svg))
    text = svg.read_text()
    assert code == 0 and "bank of each 4-byte element" in text
    fills = set(re.findall(r'fill="(#[0-9a-fA-F]{6})"', text))
    assert {bank_color(b) for b in range(32)} <= fills  # offsets 0..63 fill 32 banks, twice
    assert offset_color(0.5) not in fills or offset_color(0.5) in {bank_color(b) for b in range(32)}
