"""make_tmem_copy of SM100_TMEM_LOAD_32dp32b{N}x over UMMA accumulators against C++'s prints
(tests/data/tmem_copy_cxx.txt): the TiledCopy and the partitions of threads 0, 1, 37 and 127."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tiled import make_tiled_mma
from cutepy.kernels.tmem import make_tmem_frg
from cutepy.kernels.tmem_copy import make_tmem_copy, tmem_copy_atom
from tests.kernels import tmem_copy_cxx as T
from tests.kernels import umma_cxx

STORED = T.read() if T.FILE.is_file() else {}


@pytest.mark.skipif(not STORED, reason="tests/data/tmem_copy_cxx.txt is missing")
@pytest.mark.parametrize("c", T.CASES, ids=T.key)
def test_tmem_copy_equals_cxx(c: tuple) -> None:
    (_, m, n), reps = c
    sec = STORED[T.key(c)]
    mma = make_tiled_mma(mma_atom(umma_cxx.name(c[0])))
    thr = mma.get_slice(0)
    gC = make_tensor(gmem_ptr("float", 0x10000), Layout((m, n), (n, 1)))
    tCgC = thr.partition_C(gC)
    acc = thr.partition_fragment_C(gC)
    t2r = make_tmem_copy(f"SM100_TMEM_LOAD_32dp32b{reps}x", acc)
    assert str(t2r) == sec["TILED"]
    for t in T.THREADS:
        assert str(t2r.get_slice(t).partition_S(acc)) == sec[f"S{t}"], t
        assert str(t2r.get_slice(t).partition_D(tCgC)) == sec[f"D{t}"], t


def test_tmem_copy_refusals() -> None:
    with pytest.raises(CutepyError, match="TMEM copy atom"):
        tmem_copy_atom("SM100_TMEM_LOAD_32dp32b3x", 32)
    with pytest.raises(CutepyError, match="same type-width"):
        atom = tmem_copy_atom("SM100_TMEM_LOAD_32dp32b8x", 16)
        make_tmem_copy(atom, make_tmem_frg("float", ((128, 64), 1, 1)))
    with pytest.raises(CutepyError, match="TMEM tensor"):
        make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", make_tensor(gmem_ptr("float"), Layout((128, 64))))
