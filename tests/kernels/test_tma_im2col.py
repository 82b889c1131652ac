"""TMA im2col against CUTLASS 4.7 (tests/data/tma_im2col_cxx47.jsonl, made by
``python -m tests.kernels.tma_im2col_cxx``, see there): ``make_im2col_tma_copy``'s descriptor
equals what C++ hands ``cuTensorMapEncodeIm2col`` and its TiledCopy prints as C++'s; its TMA
coordinate tensor (``get_tma_tensor``), that tensor's CTA tile (``local_tile``), each multicast CTA's
``partition_S`` of it and their coordinates at seeded indices equal C++'s; and every configuration
C++ refuses (a static assert, or the driver's documented rules checked by the recording stub)
cutepy refuses too."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.core.errors import CutepyError
from cutepy.core.inttuple import format_tuple
from cutepy.core.layout import Layout
from cutepy.kernels.atoms.smem import gmma_smem_layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import local_tile, make_tensor
from cutepy.kernels.tma import make_im2col_tma_copy
from tests.kernels import tma_cxx
from tests.kernels.tma_im2col_cxx import COUNT, FILE, cases, gmem_shape_stride

ROWS = tma_cxx.read_rows(FILE)


def build(case: dict) -> Any:
    shape, stride = gmem_shape_stride(case)
    g = make_tensor(gmem_ptr(case["dtype"], case["address"]), Layout(shape, stride))
    tm, tk = case["tile"]
    if case["kind"] == "gmma":
        sl = tile_to_shape(gmma_smem_layout("K", case["sw"], case["dtype"]), (tm, tk))
    else:
        sl = Layout((tm, tk), (tk, 1))
    # C++ passes the spatial arguments as run-time ints (int(x)): cutepy's dynamic()
    spatial = [tuple(dynamic(x) for x in case[k]) for k in ("lower_corner", "upper_corner", "lower_padding",
                                                             "upper_padding", "stride_whd", "lower_srt",
                                                             "stride_srt")]
    return make_im2col_tma_copy(case["op"], g, sl, (tm, tk), case["cluster"], *spatial)


def _crd(x: Any) -> str:
    """A coordinate as C++ prints an ArithmeticTuple: ``(0,(7,6,0),0,(0,0,0))``."""
    return format_tuple(x)


def check_tensor(row: dict, obj: Any) -> None:
    """The TMA tensor, its CTA tile and each multicast CTA's partition equal C++'s prints, and so do
    their coordinates at the stored indices."""
    sec, crd = row["sections"], row["coords"]
    tt = obj.get_tma_tensor(None)
    assert str(tt) == sec["TENSOR"]
    gA = local_tile(tt, tuple(row["case"]["tile"]), (None, None))
    assert str(gA) == sec["GA"]
    assert [[i, _crd(tt(i))] for i, _ in crd["T"]] == crd["T"]
    for t in sorted({0, row["case"]["cluster"] - 1}):
        tS = obj.get_slice(t).partition_S(gA)
        assert str(tS) == sec[f"S{t}"], t
        assert [[i, _crd(tS(i))] for i, _ in crd[f"S{t}"]] == crd[f"S{t}"], t


#: the stub's rule (or C++'s failure) -> the words cutepy's refusal names it by
REASONS = {"address": "16-byte aligned", "elementStrides": "element strides 1..8",
           "pixelsPerColumn": "pixelsPerColumn 1..1024", "channelsPerPixel": "channelsPerPixel 1..256",
           "bounding box of zero area": "non-zero area", "corner": "corner offset",
           "globalStrides": "global stride", "channels over the swizzle span": "swizzle span",
           "aborted": "non-zero area", "compile": "at least 2 modes of the smem"}


def check_row(row: dict) -> str:
    """'built' where C++ built it and cutepy agrees, 'refused' where both refuse for the same rule."""
    case = row["case"]
    if not row["ok"] or row.get("aborted") or row.get("driver_rejects"):
        why = row.get("driver_rejects") or ("aborted" if row.get("aborted") else "compile")
        with pytest.raises(CutepyError, match=REASONS[why]):
            build(case)
        return "refused"
    obj = build(case)
    d = {k: list(v) if isinstance(v, tuple) else v for k, v in vars(obj.descriptor).items()}
    assert d == row["descriptor"], case
    assert str(obj) == row["tiled"], case
    check_tensor(row, obj)
    return "built"


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == [json.loads(json.dumps(c)) for c in cases()]
    assert len(ROWS) == COUNT >= 40


@pytest.mark.parametrize("i", range(COUNT))
def test_im2col_equals_cxx47(i: int) -> None:
    check_row(ROWS[i])


def test_outcomes_cover_convs_built_and_refused() -> None:
    seen = Counter((len(r["case"]["spatial"]), check_row(r)) for r in ROWS)
    assert seen[(2, "built")] >= 5 and seen[(3, "built")] >= 5, seen
    assert sum(v for (_, what), v in seen.items() if what == "refused") >= 3, seen
    assert {r["case"]["op"] for r in ROWS if check_row(r) == "built"} == {
        "SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST"}


def test_refusals_name_the_driver_rule() -> None:
    g = make_tensor(gmem_ptr("half_t", 0x1000), Layout(((8, 8, 8, 2), 64), ((64, 512, 4096, 32768), 1)))
    with pytest.raises(CutepyError, match=r"corner offset of a rank-5 im2col tensor in \[-16, 15\]"):
        make_im2col_tma_copy("SM90_TMA_LOAD_IM2COL", g, Layout((64, 64), (64, 1)),
                             lower_corner_whd=(-17, 0, 0))
    with pytest.raises(CutepyError, match="element strides 1..8"):
        make_im2col_tma_copy("SM90_TMA_LOAD_IM2COL", g, Layout((64, 64), (64, 1)), stride_whd=(9, 1, 1))
    with pytest.raises(CutepyError, match="unknown operation"):
        make_im2col_tma_copy("SM90_TMA_LOAD", g, Layout((64, 64), (64, 1)))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_im2col_tensor_reads_the_conv_input_pixel(data: Any) -> None:
    """The law of the coordinate tensor, from the convolution's definition: GEMM row ``m`` (output
    pixel ``(q, p, n)``) and column ``(c, s, r)`` (channel and filter tap) reach input pixel
    ``q*stride - pad + s*dilation`` along each spatial mode, once the TMA adds its im2col offsets
    ``(s, r)`` to the base pixel, with C++'s corners for a padded conv (lower ``-pad``, upper
    ``pad - (filter-1)*dilation``)."""
    W, H = data.draw(st.integers(4, 12)), data.draw(st.integers(4, 12))
    pad = [data.draw(st.integers(0, 2)) for _ in range(2)]
    dil = [data.draw(st.integers(1, 2)) for _ in range(2)]
    stride = [data.draw(st.integers(1, 2)) for _ in range(2)]
    flt = [data.draw(st.integers(1, 3)) for _ in range(2)]
    out = [(x + 2 * p - (f - 1) * d - 1) // s + 1 for x, p, f, d, s in zip((W, H), pad, flt, dil, stride)]
    assume(min(out) >= 1)
    n, c = 2, 16
    g = make_tensor(gmem_ptr("half_t", 0x10000), Layout(((W, H, n), c), ((c, c * W, c * W * H), 1)))
    tma = make_im2col_tma_copy(
        "SM90_TMA_LOAD_IM2COL", g, Layout((32, 16), (16, 1)), lower_corner_whd=tuple(-p for p in pad),
        upper_corner_whd=tuple(p - (f - 1) * d for p, f, d in zip(pad, flt, dil)),
        lower_padding_whd=tuple(-p for p in pad), upper_padding_whd=tuple(pad), stride_whd=tuple(stride),
        stride_srt=tuple(dil))
    t = tma.get_tma_tensor()
    assert t.layout.outer.shape == ((out[0], out[1], n), (c, flt[0], flt[1]))
    m = data.draw(st.integers(0, out[0] * out[1] * n - 1))
    ch, s, r = (data.draw(st.integers(0, e - 1)) for e in (c, flt[0], flt[1]))
    q, p, img = m % out[0], m // out[0] % out[1], m // (out[0] * out[1])
    crd = t(m, (ch, s, r))
    assert crd[0] == ch and crd[2] == img
    assert crd[1][0] + crd[3][0] == q * stride[0] - pad[0] + s * dil[0]
    assert crd[1][1] + crd[3][1] == p * stride[1] - pad[1] + r * dil[1]
