"""A slice of a pointer-flag smem layout keeps the flag only at a static 0 offset, as CUTLASS 4.7:
a run-time 0 (hopper/wgmma_tma_sm90's ``sA(_,_,0)``) or any other offset takes the flag's place
(tests/data/flag_slice_cxx.txt, made by tests/kernels/flag_slice_cxx.py)."""

from __future__ import annotations

import pytest

from cutepy.algebra.composed import pointer_flag
from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.kernels.atoms import gmma_smem_layout
from tests.kernels import flag_slice_cxx

STORED = flag_slice_cxx.read() if flag_slice_cxx.FILE.is_file() else {}
CASES = flag_slice_cxx.cases()


def _slice(case: tuple, sl: tuple):
    major, sw, dtype, tile = case
    L = tile_to_shape(gmma_smem_layout(major, sw, dtype), tile)
    k = sl[1] if sl[0] == "s" else dynamic(sl[1])
    return L(None, None, k)


@pytest.mark.skipif(not STORED, reason="tests/data/flag_slice_cxx.txt is missing")
@pytest.mark.parametrize(("case", "sl"), CASES, ids=[flag_slice_cxx.name(c, s) for c, s in CASES])
def test_flag_slice_equals_cxx(case, sl) -> None:
    S = _slice(case, sl)
    got = format(S, "cxx") + "".join(f" {int(S(p))}" for p in flag_slice_cxx.POINTS)
    assert got == STORED[flag_slice_cxx.name(case, sl)]


def test_only_a_static_zero_keeps_the_flag() -> None:
    case = flag_slice_cxx.LAYOUTS[0]
    assert pointer_flag(_slice(case, ("s", 0))) is not None
    for sl in (("d", 0), ("s", 1), ("d", 2)):
        assert pointer_flag(_slice(case, sl)) is None, sl
