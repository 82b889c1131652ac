"""tcgen05.cp TiledCopies (``make_utccp_copy`` / ``make_s2t_copy``) against CUTLASS 4.7
(tests/data/utccp_cxx47.txt; regenerate with ``python -m tests.kernels.utccp_cxx``, see there)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.pointer import gmem_ptr, tmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tmem_copy import make_s2t_copy, make_utccp_copy
from tests.kernels.utccp_cxx import STORED, cases, key


def test_the_table_covers_every_case() -> None:
    assert set(STORED) == {key(*c) for c in cases()} and len(STORED) == 32


@pytest.mark.parametrize("case", cases(), ids=lambda c: key(*c) if isinstance(c, tuple) else str(c))
def test_utccp_copy_equals_cxx47(case: tuple) -> None:
    op, t, L = case
    tc = make_utccp_copy(op, make_tensor(tmem_ptr(t, 0), L))
    tv, tiler, printed = STORED[key(*case)]
    assert str(tc.layout_tv_tiled) == tv
    assert "(" + ",".join(map(str, tc.tiler_mn)) + ")" == tiler
    assert str(tc) == printed.replace("\\n", "\n")


def test_dsl_name_and_refusals() -> None:
    assert make_s2t_copy is make_utccp_copy
    t = make_tensor(tmem_ptr("float", 0), Layout((128, 8), (65536, 1)))
    with pytest.raises(CutepyError, match="op must name a tcgen05.cp atom"):
        make_utccp_copy("SM100_UTCCP_64dp128bit_1cta", t)
    with pytest.raises(CutepyError, match="tmem must be a TMEM tensor"):
        make_utccp_copy("SM100_UTCCP_128dp128bit_1cta", make_tensor(gmem_ptr("float", 0), Layout((128, 8))))
