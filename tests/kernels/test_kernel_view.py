"""The kernel's view is the default: a plain int thread index partitions as a kernel's
``threadIdx.x`` does (C++'s ``get_slice(int(t))``), and ``static=True`` gives C++'s
``get_slice(Int<t>{})``. On FlashAttention-2's Q tile the two differ (the swizzle folds into
strides only for a static offset); both equal C++'s prints (tests/data/kernel_view_cxx.txt, made
by tests/kernels/kernel_view_cxx.py)."""

from __future__ import annotations

import numpy as np
import pytest

import cutepy as cp
from cutepy import Layout, Swizzle
from tests.kernels import kernel_view_cxx

STORED = kernel_view_cxx.read() if kernel_view_cxx.FILE.is_file() else {}
CASES = kernel_view_cxx.cases()


def fields(design: tuple, thr: int, static: bool | None) -> list[str]:
    """cutepy's answer for one C++ block; ``static=None`` is the call without the keyword."""
    hd, bm, bk, sw = design
    sQl = cp.tile_to_shape(cp.composition(Swizzle(sw, 3, 3), Layout((8, bk), (bk, 1))), (bm, hd))
    sQ = cp.make_tensor(np.arange(bm * hd), sQl)
    mma = cp.make_tiled_mma(cp.mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout((4, 1, 1)), (64, 16, 16))
    kw = {} if static is None else {"static": static}
    t = mma.get_slice(thr, **kw)
    pA = t.partition_A(sQ)
    s2r = cp.make_tiled_copy_A(cp.copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    pS = s2r.get_slice(thr, **kw).partition_S(sQ)
    lp = cp.local_partition(sQ, Layout((16, 8), (8, 1)), thr, **kw)
    return [format(pA.layout, "cxx"), str(pA.offset), format(t.partition_fragment_A(sQ).layout, "cxx"),
            format(pS.layout, "cxx"), str(pS.offset), format(lp.layout, "cxx"), str(lp.offset)]


@pytest.mark.skipif(not STORED, reason="tests/data/kernel_view_cxx.txt is missing")
@pytest.mark.parametrize(("design", "thr", "static"), CASES,
                         ids=[kernel_view_cxx.key(*c) for c in CASES])
def test_thread_partitions_equal_cxx(design, thr, static) -> None:
    want = STORED[kernel_view_cxx.key(design, thr, static)]
    assert fields(design, thr, static) == want
    if not static:  # the plain call is the kernel's (run-time) view
        assert fields(design, thr, None) == want


@pytest.mark.skipif(not STORED, reason="tests/data/kernel_view_cxx.txt is missing")
def test_static_and_run_time_views_differ_where_cxx_says() -> None:
    """The default matters: at head dim 32 C++'s fragment of A is ((_2,_2,_2),_2,_2):(...,_8,_16)
    in the kernel and (...,_16,_8) for a static index."""
    d = kernel_view_cxx.DESIGNS[0]
    differ = [t for t in kernel_view_cxx.THREADS
              if STORED[kernel_view_cxx.key(d, t, False)] != STORED[kernel_view_cxx.key(d, t, True)]]
    assert differ == list(kernel_view_cxx.THREADS)
    assert fields(d, 5, None)[2] != fields(d, 5, True)[2]


def test_thread_index_refuses_what_is_not_a_thread() -> None:
    mma = cp.make_tiled_mma(cp.mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    for bad in (-1, 1.0, True, "3"):
        with pytest.raises(cp.CutepyError, match="must be a non-negative int"):
            mma.get_slice(bad)
    with pytest.raises(cp.CutepyError, match="outside"):
        mma.get_slice(32, static=True)
