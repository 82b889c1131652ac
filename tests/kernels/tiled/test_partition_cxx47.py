"""Issue 33, items 6 and 9: TiledMMA / TiledCopy partitions equal C++ CuTe 4.7's.

The C++ prints are stored in tests/data/tiled_partitions_cxx47.txt (made by
tests/kernels/tiled/partition_cxx47.py with the CUTLASS 4.7.0 headers).
"""

from __future__ import annotations

import numpy as np
import pytest

from cutepy import CutepyError, Layout, copy_atom, make_identity_tensor, make_tensor, mma_atom
from cutepy.kernels.simulate import gemm
from cutepy.kernels.tiled.checks import check_cover
from cutepy.kernels.tiled.copy import make_tiled_copy_C
from cutepy.kernels.tiled.mma import make_tiled_mma
from tests.kernels.tiled import partition_cxx47 as cxx

STORED = cxx.read()


def test_the_stored_table_has_every_case() -> None:
    assert set(STORED) == set(cxx.keys())


@pytest.mark.parametrize("key", cxx.keys())
def test_partition_equals_cxx47(key: str) -> None:
    assert cxx.cutepy_print(key) == STORED[key]


def test_int4_partitions_of_whole_tiles_are_built_as_cxx47_builds_them() -> None:
    """Item 9: CUTLASS 4.2's int4 16x8x32 BLayout made these compositions carry (refused);
    4.7's atom, which cutepy now holds, partitions the whole tile once per thread."""
    mma = make_tiled_mma(mma_atom(cxx.INT4), (4, 2, 2), (None, None, cxx.K_PERM))
    M, N, K = mma.tile_size_mnk
    seen = []
    for t in range(mma.size):
        P = mma.get_slice(t).partition_B(make_identity_tensor((N, K)))
        seen += P.values()
    # every element of the N x K tile is held, each by the same number of threads (the 4 M atoms)
    assert set(seen) == {(n, k) for k in range(K) for n in range(N)}
    assert len(seen) == 4 * N * K


def test_k_split_fma_c_layout_is_cxxs() -> None:
    """Item 6: an atom layout that splits K puts the K-threads' C values past the C tile, in C++
    4.7 as in cutepy; check_cover says so, and gemm refuses a whole C (item 8)."""
    mma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (1, 2, 2))
    tv = mma.tv_layout_C_tiled
    assert [tv(t, 0) for t in range(4)] == [0, 1, 2, 3] and mma.tile_size_mnk[:2] == (1, 2)
    cp = make_tiled_copy_C(copy_atom("UniversalCopy<float>", 32), mma)
    r = check_cover(cp)
    assert not r.ok and "outside the 1x2 tile" in r.reason


def test_gemm_refuses_a_whole_c_when_atoms_split_k() -> None:
    """Item 8: two atoms along K each compute half of C's sum; a whole C tensor would keep one
    half (ones: 4 where the answer is 8)."""
    mma = make_tiled_mma(mma_atom("SM61_DP4A"), Layout((2, 1, 2), (2, 2, 1)))
    A = make_tensor(np.ones(16, np.int8), Layout((2, 8)))
    B = make_tensor(np.ones(8, np.int8), Layout((1, 8)))
    C = make_tensor(np.zeros(2, np.int32), Layout((2, 1)))
    with pytest.raises(CutepyError, match="splits K over 2 atoms"):
        gemm(mma, A, B, C)
    assert not C.engine.any()


def test_gemm_with_one_atom_along_k_sums_all_of_k() -> None:
    mma = make_tiled_mma(mma_atom("SM61_DP4A"), Layout((2, 1, 1), (1, 0, 0)))
    a = np.arange(16, dtype=np.int8).reshape(2, 8)
    b = np.arange(8, dtype=np.int8).reshape(1, 8)
    A = make_tensor(a.ravel(order="F"), Layout((2, 8)))
    B = make_tensor(b.ravel(order="F"), Layout((1, 8)))
    C = make_tensor(np.zeros(2, np.int32), Layout((2, 1)))
    gemm(mma, A, B, C)
    assert C.engine.tolist() == (a.astype(np.int64) @ b.T.astype(np.int64)).ravel().tolist()
