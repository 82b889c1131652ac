"""``cutepy.xla.report``: what ``cutepy xla SHAPE`` prints."""

from __future__ import annotations

import time

import pytest

from cutepy.core.errors import CutepyError, ParseError
from cutepy.xla import report

BIG = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"


def _field(text: str, name: str) -> str:
    lines = [line for line in text.splitlines() if line.strip().startswith(name + " ")]
    assert lines, f"no {name!r} line in:\n{text}"
    return lines[0].strip()[len(name):].strip()


def test_big_tpu_shape_is_fast_and_sampled() -> None:
    start = time.perf_counter()
    text = report(BIG)
    assert time.perf_counter() - start < 2.0
    assert _field(text, "shape") == BIG
    assert _field(text, "memory").startswith("S(1): alternate memory")
    assert _field(text, "CuTe") == (
        "layout (8,1,((2,4),160),(128,128)):(20971520,20971520,((1,256),131072),(2,1024))"
    )
    assert _field(text, "tiled") == "[1,8,160,128,4,128,2,1] = 167,772,160 slots"
    assert _field(text, "sizes") == (
        "dense 335,544,320 B, array_size 335,544,320 B, nested 335,544,320 B: 0.0% padding"
    )
    assert _field(text, "verified") == (
        "a random sample of 4,096 of the 167,772,160 elements agrees with XLA's formula"
    )


def test_small_shape_is_checked_exhaustively() -> None:
    text = report("f32[3,5]{1,0:T(3,5)(2,1)}")
    assert _field(text, "sizes") == "dense 60 B, array_size 60 B, nested 80 B: 33.3% padding"
    assert _field(text, "verified") == (
        "all 15 elements agree with XLA's formula and the reference model"
    )
    # a padding sub-tile: the compile is a chain, and the report says where it broke
    assert _field(text, "CuTe").startswith("chain of 2 layouts")
    assert _field(text, "broke at").startswith("step 4 (transpose to (1, 1, 2, 5, 2, 1))")
    assert _field(text, "stage 1") == "(3,5):(5,1)"


def test_padding_and_domain() -> None:
    text = report("f32[3,5]{1,0:T(2,2)}")
    assert _field(text, "CuTe") == "layout ((2,2),(2,3)):((2,12),(1,4))"
    assert _field(text, "domain") == "(4,6), padded from the logical (3,5)"
    assert _field(text, "sizes").endswith("60.0% padding")
    assert _field(text, "program") == "pad(4,6) reshape(2,2,3,2) transpose(0,2,1,3)"


def test_tuples_report_each_element() -> None:
    text = report("(f32[3]{0:L(4)}, b(s4[5]{0:E(4)}), (pred[2], f32[?]), token[])")
    assert _field(text, "tuple").startswith("4 element(s)")
    assert [line for line in text.splitlines() if line.startswith("[")] == ["[0]", "[1]", "[2]", "[3]"]
    assert _field(text, "buffer") in ("4 slots after L(4)", "b(...): one array")
    assert "element      s4, 4 bits; stored in E(4): 4 bits each" in text
    assert "an unbounded dynamic dim ('?')" in text
    assert "token: no array data" in text
    assert text.count("verified") == 3


def test_dynamic_and_defaults() -> None:
    text = report("f32[2,<=3]")
    assert _field(text, "shape") == "f32[2,<=3]{1,0}"
    assert _field(text, "dynamic") == "dynamic dims count at their bound"
    assert _field(text, "memory") == "S(0): device memory (HBM), the default"
    assert _field(text, "program").startswith("(none")
    assert "S(7): a device-specific memory space" in report("f32[2]{0:S(7)}")


def test_errors_quote_the_input() -> None:
    with pytest.raises(ParseError, match=r"f32\[3"):
        report("f32[3")
    with pytest.raises(CutepyError):
        report("f33[3]")


def test_report_past_numpys_rank_limit_checks_rows() -> None:
    """A 70-dim array: its table would pass numpy's 64 dims, so the report checks every
    element as rows of indices instead of failing inside numpy."""
    text = report("f32[" + ",".join(["2"] + ["1"] * 69) + "]")
    assert _field(text, "verified").startswith("all 2 elements agree with XLA's formula (as rows")


@pytest.mark.parametrize("bad", [None, 5, 2.5, ["f32[2]"]])
def test_report_rejects_what_is_no_shape(bad) -> None:
    with pytest.raises(CutepyError, match="report takes"):
        report(bad)


@pytest.mark.parametrize("seed", [-1, 2.5, "x", True])
def test_report_rejects_a_bad_seed(seed) -> None:
    with pytest.raises(CutepyError, match="seed"):
        report("f32[2]", seed=seed)
