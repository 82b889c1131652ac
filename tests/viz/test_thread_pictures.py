"""Pictures of what one thread (or a chosen set of threads) holds of a TiledMMA or TiledCopy,
and ``to_latex`` of GMMA-sized TiledMMAs.

The references: C++'s ``print_latex`` of GMMA TiledMMAs (tests/data/gmma_latex_cxx47.txt, by
tests/viz/latex_gmma_cxx.py; compiled live in a slow test), which the whole pictures equal byte
for byte; and, for the one-thread pictures, the thread's own partitions of identity tensors
(``get_slice(t).partition_C(make_identity_tensor((M, N)))``), another path through cutepy than
the TV layouts the pictures draw.
"""

from __future__ import annotations

import re

import pytest

from cutepy import (
    CutepyError,
    Layout,
    copy_atom,
    make_identity_tensor,
    make_tiled_copy,
    make_tiled_mma,
    mma_atom,
)
from cutepy.viz import to_latex
from cutepy.viz.tiled import tiled_copy_svg, tiled_mma_svg
from tests.viz import latex_gmma_cxx as gmma

STORED = gmma.read()
NODE = re.compile(r"\\node\[fill=[^\]]+\] at \((-?\d+),(-?\d+)\) \{\\shortstack\{T(\d+) \\\\ V(\d+)\}\};")
GMMA = "SM90_64x64x16_F16F16F16_SS<MN,MN>"  # the wgmma_sm90 tutorial's atom


def _nodes(tex: str) -> dict[tuple[int, int], tuple[int, int]]:
    """(x, y) -> (thread, value) of every labelled TikZ node; no position twice."""
    found = NODE.findall(tex)
    out = {(int(x), int(y)): (int(t), int(v)) for x, y, t, v in found}
    assert len(out) == len(found), "a cell is drawn twice"
    return out


def _well_formed(tex: str) -> None:
    """A standalone document: one tikzpicture, every line of the body a complete statement,
    braces balanced."""
    assert tex.count("\\begin{document}") == tex.count("\\end{document}") == 1
    assert tex.count("\\begin{tikzpicture}") == tex.count("\\end{tikzpicture}") == 1
    assert tex.count("{") == tex.count("}")
    body = tex.split("\\begin{tikzpicture}", 1)[1].split("\\end{tikzpicture}")[0].splitlines()[1:]
    assert all(not line or line.endswith(";") for line in body)


def _mma_panels(mma, t: int) -> dict[str, set[tuple[int, int]]]:
    """The TikZ positions of the cells thread ``t`` holds of C, A and B (as C++ places the
    panels: C at (m, n), A at (m, k-K-1), B at (k-K-1, n)), from its partitions."""
    M, N, K = mma.tile_size_mnk
    thr = mma.get_slice(t)
    return {
        "C": {(m, n) for m, n in thr.partition_C(make_identity_tensor((M, N))).values()},
        "A": {(m, k - K - 1) for m, k in thr.partition_A(make_identity_tensor((M, K))).values()},
        "B": {(k - K - 1, n) for n, k in thr.partition_B(make_identity_tensor((N, K))).values()},
    }


@pytest.mark.parametrize("atom", gmma.ATOMS)
def test_gmma_latex_equals_cxx_print_latex(atom: str) -> None:
    """The whole picture of a GMMA TiledMMA (A and B held by all 128 threads) is drawn, and is
    C++'s print_latex byte for byte."""
    tex = to_latex(make_tiled_mma(mma_atom(atom)))
    want, head = STORED[atom]
    assert tex.splitlines()[: gmma.HEAD_LINES] == head
    assert gmma.digest(tex) == want


@pytest.mark.slow
def test_stored_gmma_latex_is_what_cxx_prints_now(cxx) -> None:
    assert {a: gmma.digest(t) for a, t in gmma.run_cxx().items()} == {a: d for a, (d, _) in STORED.items()}


@pytest.mark.parametrize("atom,layout,t", [
    (GMMA, (1, 1, 1), 0), (GMMA, (1, 1, 1), 37), ("SM90_64x64x16_F32F16F16_RS", (1, 1, 1), 127),
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), 37), ("SM70_8x8x4_F32F16F16F32_NT", (2, 2, 1), 5),
])
def test_one_thread_latex_draws_exactly_the_threads_cells(atom: str, layout: tuple, t: int) -> None:
    mma = make_tiled_mma(mma_atom(atom), layout)
    M, N, K = mma.tile_size_mnk
    tex = to_latex(mma, threads=[t])
    _well_formed(tex)
    assert f"% Threads: {t}\n" in tex
    nodes = _nodes(tex)
    assert {th for th, _ in nodes.values()} == {t}
    want = _mma_panels(mma, t)
    assert set(nodes) == want["C"] | want["A"] | want["B"]
    # the whole grids are still drawn, and the thread's C nodes are the whole picture's (C++'s)
    assert f"(0,0) grid ({M},{N})" in tex and f"(0,{-K - 1}) grid ({M},-1)" in tex
    full = _nodes(to_latex(mma))
    assert {p: full[p] for p in want["C"]} == {p: nodes[p] for p in want["C"]}


def test_operands_keep_the_cxx_panels_where_cxx_puts_them() -> None:
    mma = make_tiled_mma(mma_atom("SM90_64x256x16_F32BF16BF16_SS"))
    full = _nodes(to_latex(mma))
    c_only = to_latex(mma, operands="C")
    _well_formed(c_only)
    assert c_only.startswith("% LayoutC: ") and "% LayoutA" not in c_only
    nodes = _nodes(c_only)
    assert nodes == {p: tv for p, tv in full.items() if p[0] >= 0 and p[1] >= 0} and len(nodes) == 64 * 256
    assert "\\node at (63,-1) {\\Large{\\texttt{63}}};" in c_only  # C's labels where A and B were
    assert "\\node at (-1,255) {\\Large{\\texttt{255}}};" in c_only
    ab = _nodes(to_latex(mma, operands="AB", threads=5))
    want = _mma_panels(mma, 5)
    assert set(ab) == want["A"] | want["B"]


def test_one_thread_copy_latex_and_svg() -> None:
    atom = copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16)
    tc = make_tiled_copy(atom, Layout((16, 8)), Layout((8, 1)))  # the wgmma_sm90 tutorial's copy
    M, N = tc.tile_shape
    cells = {tuple(c) for c in tc.get_slice(9).partition_S(make_identity_tensor((M, N))).values()}
    nodes = _nodes(to_latex(tc, threads=[9]))
    assert set(nodes) == cells | {(m, n + N + 3) for m, n in cells}
    assert {t for t, _ in nodes.values()} == {9}
    svg = tiled_copy_svg(tc, threads=[9], max_rows=None)  # thread 9 writes rows 72..79
    assert sorted(set(re.findall(r">(T\d+)<", svg))) == ["T9"]
    assert len(re.findall(r">T9<", svg)) == 2 * len(cells)  # source and destination, none elided


def test_one_thread_svg_of_a_tiled_mma() -> None:
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    for t in (0, 37, 127):
        svg = tiled_mma_svg(mma, threads=[t])
        assert sorted(set(re.findall(r">(T\d+)<", svg))) == [f"T{t}"] and f"thread {t} only" in svg
        want = _mma_panels(mma, t)
        assert len(re.findall(rf">T{t}<", svg)) == sum(len(v) for v in want.values())
    # GMMA: the whole picture (A and B held by all 128 threads: thread 0 shows), and two threads'
    g = make_tiled_mma(mma_atom(GMMA))
    whole = tiled_mma_svg(g, max_rows=None, max_cols=None)
    assert len(re.findall(r">T0<", whole)) == 64 * 16 + 16 * 64 + len(_mma_panels(g, 0)["C"])
    assert len(re.findall(r">T\d+<", whole)) == 64 * 16 + 16 * 64 + 64 * 64
    svg = tiled_mma_svg(g, threads=[0, 1])
    assert sorted(set(re.findall(r">(T\d+)<", svg))) == ["T0", "T1"] and "threads 0, 1 only" in svg


@pytest.mark.parametrize("bad,match", [
    ([128], "not a thread index 0..127"), ([], "at least one thread"), ("0", "not a thread index"),
    ([0.5], "not a thread index"),
])
def test_bad_threads_are_refused(bad, match: str) -> None:
    g = make_tiled_mma(mma_atom(GMMA))
    with pytest.raises(CutepyError, match=match):
        to_latex(g, threads=bad)
    with pytest.raises(CutepyError, match=match):
        tiled_mma_svg(g, operands="C", threads=bad)


def test_options_of_tiled_objects_are_refused_on_layouts() -> None:
    with pytest.raises(CutepyError, match="threads picks the threads of a TiledMMA"):
        to_latex(Layout((2, 2)), threads=[0])
    with pytest.raises(CutepyError, match="operands picks the panels of a TiledMMA"):
        to_latex(Layout((2, 2)), operands="C")
    with pytest.raises(CutepyError, match="operands picks among"):
        to_latex(make_tiled_mma(mma_atom(GMMA)), operands="D")
