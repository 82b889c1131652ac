"""cutepy.viz.atoms: one atom alone, a slice, a GEMM, a composition; PNG and PDF besides SVG.

Each picture is read back (its cells' labels and fills, in the order the grid draws them, row by
row) and compared with the layouts computed here by brute force.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout, copy_atom, make_tiled_mma, mma_atom
from cutepy.viz import (
    copy_atom_svg,
    draw_composite,
    draw_gemm,
    draw_slice,
    mma_atom_svg,
    save_picture,
    show,
    svg_to,
)
from cutepy.viz.display import mimebundle

NS = "{http://www.w3.org/2000/svg}"


def panels(svg: str) -> list[dict[tuple[int, int], tuple[int, int]]]:
    """Each TV panel's cells ``(m, n) -> (thread, value)``, in drawing order, read from the hover
    titles (every panel starts again at cell (0, 0))."""
    out: list[dict] = []
    tip = r"<title>cell \((\d+),(\d+)\)  index \d+  thread (\d+)  value (\d+)</title>"
    for m, n, t, v in re.findall(tip, svg):
        if (m, n) == ("0", "0"):
            out.append({})
        out[-1][(int(m), int(n))] = (int(t), int(v))
    return out


def owners(tv: Layout, cells: int) -> dict[int, tuple[int, int]]:
    """cell -> (thread, value) of its first holder, by evaluating every (t, v)."""
    T = tv[0].size()
    V = tv.size() // T
    got: dict[int, tuple[int, int]] = {}
    for v in range(V):
        for t in range(T):
            i = tv(t + T * v)
            if 0 <= i < cells and (i not in got or (t, v) < got[i]):
                got[i] = min(got.get(i, (t, v)), (t, v))
    return got


@pytest.mark.parametrize("name", ["SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN",
                                  "SM70_8x8x4_F16F16F16F16_TN"])
def test_an_mma_atom_alone_labels_c_by_its_owners(name):
    atom = mma_atom(name)
    M, N, _ = atom.shape_mnk
    svg = mma_atom_svg(atom, max_rows=None, max_cols=None, hover=True)
    assert f"<title>MMA atom {name}</title>" in svg
    c = panels(svg)[-1]   # B (above), A, C
    want = owners(atom.tv_layout_C, M * N)   # atom thread index; the picture shows ThrID's thread
    assert c == {(m, n): (atom.thr_id(want[m + M * n][0]), want[m + M * n][1])
                 for m in range(M) for n in range(N)}
    assert show(atom).svg == mma_atom_svg(atom)
    bundle = mimebundle(atom)
    assert sorted(bundle) == ["image/svg+xml", "text/html", "text/plain"]


@pytest.mark.parametrize("name, bits", [("SM75_U32x4_LDSM_N", 16), ("SM75_U16x8_LDSM_T", 16),
                                        ("UniversalCopy<uint32_t>", 32), ("SM90_U32x4_STSM_N", 16)])
def test_a_copy_atom_alone_shows_source_and_destination(name, bits):
    atom = copy_atom(name, bits)
    svg = copy_atom_svg(atom, max_rows=None, max_cols=None, hover=True)
    src, dst = panels(svg)
    for tv, got in ((atom.layout_src_tv, src), (atom.layout_dst_tv, dst)):
        n = tv.size()
        rows = tv[0].size()
        want = owners(tv, n)
        assert got == {(m, c): want[m + rows * c] for m in range(rows) for c in range(n // rows)}
    assert show(atom).svg.startswith("<svg")
    assert sorted(mimebundle(atom)) == ["image/svg+xml", "text/html", "text/plain"]  # Jupyter shows it


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_draw_slice_highlights_exactly_the_cells_the_slice_keeps(m, n, data):
    L = Layout((m, n), (n, 1))
    r = data.draw(st.one_of(st.none(), st.integers(0, m - 1)))
    c = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    svg = draw_slice(L, (r, c))
    lit = [x.get("fill") for x in ET.fromstring(svg).iter(f"{NS}rect")].count("#f28e2b")
    assert lit == (m if r is None else 1) * (n if c is None else 1)
    sub = L(r, c) if not (r is not None and c is not None) else None
    if sub is not None:
        assert str(sub) in svg


def test_draw_slice_of_a_rank_1_and_a_swizzled_layout():
    from cutepy import Swizzle, make_composed_layout

    assert draw_slice(Layout(8, 2), 3).count('fill="#f28e2b"') == 1
    sw = make_composed_layout(Swizzle(2, 0, 2), 0, Layout((4, 4), (4, 1)))
    svg = draw_slice(sw, (None, 1))
    assert svg.count('fill="#f28e2b"') == 4 and "Sw&lt;2,0,2&gt;" in svg
    with pytest.raises(CutepyError, match="coord"):
        draw_slice(Layout((4, 4)), (1,))
    with pytest.raises(CutepyError, match="layout"):
        draw_slice("4:1", 0)


def test_draw_gemm_gives_every_element_the_thread_that_owns_it():
    atom = mma_atom("SM80_16x8x8_F16F16F16F16_TN")
    mma = make_tiled_mma(atom, Layout((2, 1)))
    TM, TN, TK = mma.tile_size_mnk
    M, N, K = 2 * TM, 2 * TN, TK
    svg = draw_gemm(mma, M, N, K, max_rows=None, max_cols=None, hover=True)
    a, b, c = panels(svg)
    tile = owners(mma.tv_layout_C_tiled, TM * TN)
    assert {k: t for k, (t, _) in c.items()} == {(i, j): tile[(i % TM) + TM * (j % TN)][0]
                                                  for i in range(M) for j in range(N)}
    assert len(set(c.values())) == M * N  # values numbered across tiles: each element its own (t, v)
    atile = owners(mma.tv_layout_A_tiled, TM * TK)
    assert {k: t for k, (t, _) in a.items()} == {(i, k): atile[(i % TM) + TM * (k % TK)][0]
                                                  for i in range(M) for k in range(K)}
    btile = owners(mma.tv_layout_B_tiled, TN * TK)
    assert {k: t for k, (t, _) in b.items()} == {(j, k): btile[(j % TN) + TN * (k % TK)][0]
                                                  for j in range(N) for k in range(K)}
    with pytest.raises(CutepyError, match="multiple"):
        draw_gemm(mma, M + 1, N, K)
    with pytest.raises(CutepyError, match="TiledMMA"):
        draw_gemm(Layout(4), 4, 4, 4)


@given(st.sampled_from([(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))),
                        (Layout((4, 4), (4, 1)), Layout(4, 4)), (Layout(16, 1), Layout((2, 2), (8, 1)))]))
def test_draw_composite_shows_a_of_b(pair):
    from cutepy import composition

    A, B = pair
    svg = draw_composite(A, B, max_rows=None, max_cols=None)
    R = composition(A, B)
    assert f"A o B = {R}" in svg and f"A = {A}" in svg and f"B = {B}" in svg
    texts = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    for i in range(R.size()):
        assert str(A(B(i))) in texts
    with pytest.raises(CutepyError, match="B must be"):
        draw_composite(A, "x")


def test_png_and_pdf_are_written_when_asked(tmp_path):
    pytest.importorskip("cairosvg")
    L = Layout((4, 8), (8, 1))
    for ext, magic in (("svg", b"<svg"), ("png", b"\x89PNG"), ("pdf", b"%PDF")):
        p = tmp_path / f"l.{ext}"
        save_picture(L, p)
        assert p.read_bytes()[:4] == magic
        show(mma_atom("SM80_16x8x8_F16F16F16F16_TN")).save(tmp_path / f"atom.{ext}")
        assert (tmp_path / f"atom.{ext}").read_bytes()[:4] == magic
    png = svg_to(show(L).svg, "png", scale=2.0)
    w = int.from_bytes(png[16:20], "big")
    assert abs(w - 2 * float(re.search(r'width="([0-9.]+)"', show(L).svg).group(1))) <= 1
    with pytest.raises(CutepyError, match=r"\.svg, \.png or \.pdf"):
        save_picture(L, tmp_path / "l.gif")
    with pytest.raises(CutepyError, match="fmt"):
        svg_to(show(L).svg, "gif")
    with pytest.raises(CutepyError, match="scale"):
        svg_to(show(L).svg, "png", scale=0)


def test_the_atoms_refuse_what_they_cannot_draw():
    with pytest.raises(CutepyError, match="MMA atom"):
        mma_atom_svg(copy_atom("SM75_U32x4_LDSM_N", 16))
    with pytest.raises(CutepyError, match="copy atom"):
        copy_atom_svg(mma_atom("SM80_16x8x8_F16F16F16F16_TN"))


def test_a_block_scaled_atom_shows_its_scale_factor_grids():
    """An atom with ``sf_vec_size`` (a block-scaled one: one scale per that many elements of K)
    adds SFA (M x K/vec) and SFB (N x K/vec) grids; scale ``m + M j`` covers row ``m``'s K block ``j``."""
    import dataclasses

    from cutepy.kernels.atoms.mma import MMAAtom

    @dataclasses.dataclass(frozen=True)
    class Scaled(MMAAtom):  # the fields block-scaled atoms carry (C++'s SFVecSize, ValTypeSF)
        sf_type: str = "float_ue8m0_t"
        sf_vec_size: int = 4

    base = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    atom = Scaled(**{f.name: getattr(base, f.name) for f in dataclasses.fields(MMAAtom)})
    svg = mma_atom_svg(atom)
    M, N, K = atom.shape_mnk
    assert f"SFA  ({M}x{K // 4}: one scale per 4 of K)" in svg and f"SFB  ({N}x{K // 4}" in svg
    texts = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert {str(m + M * j) for m in range(M) for j in range(K // 4)} <= set(texts)
    assert "scale type float_ue8m0_t" in texts
