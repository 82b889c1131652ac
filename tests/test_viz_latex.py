"""to_latex / to_latex_tv against CuTe's print_latex / print_latex_tv documents, written by hand."""

from __future__ import annotations

import pytest

import cutepy
from cutepy.errors import CutepyError
from cutepy.viz import to_latex, to_latex_tv

HEADER = (
    "\\documentclass[convert]{standalone}\n"
    "\\usepackage{tikz}\n"
    "\n"
    "\\begin{document}\n"
    "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
    "every node/.style={minimum size=1cm, outer sep=0pt}]\n"
    "\n"
)
FOOTER = "\\end{tikzpicture}\n\\end{document}\n"

ROW_MAJOR_2x3 = (
    "% Layout: (2,3):(3,1)\n"
    + HEADER
    + "\\node[fill=black!00] at (0,0) {0};\n"
    "\\node[fill=black!40] at (0,1) {1};\n"
    "\\node[fill=black!20] at (0,2) {2};\n"
    "\\node[fill=black!60] at (1,0) {3};\n"
    "\\node[fill=black!10] at (1,1) {4};\n"
    "\\node[fill=black!50] at (1,2) {5};\n"
    "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);\n"
    "\n"
    "\\node at (0,-1) {\\Large{\\texttt{0}}};\n"
    "\\node at (1,-1) {\\Large{\\texttt{1}}};\n"
    "\\node at (-1,0) {\\Large{\\texttt{0}}};\n"
    "\\node at (-1,1) {\\Large{\\texttt{1}}};\n"
    "\\node at (-1,2) {\\Large{\\texttt{2}}};\n"
    + FOOTER
)

# rank 1: CuTe appends a 1:0 mode, so the layout is one column and prints as such
RANK1 = (
    "% Layout: (3,1):(4,0)\n"
    + HEADER
    + "\\node[fill=black!00] at (0,0) {0};\n"
    "\\node[fill=black!10] at (1,0) {4};\n"
    "\\node[fill=black!00] at (2,0) {8};\n"
    "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (3,1);\n"
    "\n"
    "\\node at (0,-1) {\\Large{\\texttt{0}}};\n"
    "\\node at (1,-1) {\\Large{\\texttt{1}}};\n"
    "\\node at (2,-1) {\\Large{\\texttt{2}}};\n"
    "\\node at (-1,0) {\\Large{\\texttt{0}}};\n"
    + FOOTER
)

BLUE = "{rgb,255:red,175;green,175;blue,255}"
GREEN = "{rgb,255:red,175;green,255;blue,175}"
# TV(t, v) = 2t + v into a 2x2 tile: thread 0 owns column 0, thread 1 column 1
TV_2x2 = (
    "% Layout TV: (2,2):(2,1)\n"
    + HEADER
    + f"\\node[fill={BLUE}] at (0,0) {{\\shortstack{{T0 \\\\ V0}}}};\n"
    f"\\node[fill={BLUE}] at (1,0) {{\\shortstack{{T0 \\\\ V1}}}};\n"
    f"\\node[fill={GREEN}] at (0,1) {{\\shortstack{{T1 \\\\ V0}}}};\n"
    f"\\node[fill={GREEN}] at (1,1) {{\\shortstack{{T1 \\\\ V1}}}};\n"
    "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,2);\n"
    "\n"
    "\\node at (0,-1) {\\Large{\\texttt{0}}};\n"
    "\\node at (1,-1) {\\Large{\\texttt{1}}};\n"
    "\\node at (-1,0) {\\Large{\\texttt{0}}};\n"
    "\\node at (-1,1) {\\Large{\\texttt{1}}};\n"
    + FOOTER
)


def test_print_latex_rank2() -> None:
    assert to_latex(cutepy.parse("(2,3):(3,1)")) == ROW_MAJOR_2x3


def test_print_latex_rank1_is_a_column() -> None:
    assert to_latex(cutepy.parse("3:4")) == RANK1


def test_print_latex_tv() -> None:
    assert to_latex_tv(cutepy.parse("(2,2):(2,1)"), (2, 2)) == TV_2x2


def test_tv_cells_written_twice_keep_the_first_thread() -> None:
    tex = to_latex_tv(cutepy.parse("(2,2):(0,1)"), (2, 1))
    assert tex.count("\\shortstack") == 2 and "T1" not in tex


def test_custom_colours_and_swizzles() -> None:
    tex = to_latex(cutepy.parse("(2,2):(1,2)"), color=lambda i: "red" if i % 2 else "blue")
    assert "\\node[fill=blue] at (0,0) {0};" in tex and "\\node[fill=red] at (1,0) {1};" in tex
    sw = cutepy.composition(cutepy.Swizzle(1, 0, 1), cutepy.Layout((2, 4), (4, 1)))
    tex = to_latex(sw)
    assert tex.startswith("% Layout: Sw<1,0,1> o 0 o (2,4):(4,1)\n")
    assert "at (0,2) {3};" in tex and "at (0,3) {2};" in tex


def test_rank3_is_refused() -> None:
    with pytest.raises(CutepyError, match="rank"):
        to_latex(cutepy.Layout((2, 2, 2)))
