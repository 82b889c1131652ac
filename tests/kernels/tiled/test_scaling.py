"""Issue 33, item 10: a loop over a TiledMMA's threads does linear work, measured by counting
executed Python lines (``sys.settrace``, :func:`tests.algebra.test_rank_scaling.lines`), never by timing."""

from __future__ import annotations

from collections.abc import Callable

from cutepy import Layout, mma_atom
from cutepy.kernels.tiled.mma import make_tiled_mma
from tests.algebra.test_rank_scaling import lines


def test_slicing_every_thread_is_linear_in_the_threads() -> None:
    """get_slice used to list every thread id to check its argument: a loop over the threads
    (gemm, check_cover, the pictures) was quadratic, and hung for thousands of threads."""
    atom = mma_atom("SM90_64x8x32_F32E4M3E4M3_SS_TN")

    def loop(atoms_m: int) -> Callable[[], object]:
        mma = make_tiled_mma(atom, Layout((1, atoms_m, 1), (atoms_m, 1, atoms_m)))
        return lambda: [mma.get_slice(t) for t in range(mma.size)]

    small, big = lines(loop(1)), lines(loop(8))  # 128 and 1024 threads
    assert big <= 8 * 1.25 * small, (small, big)
