"""Checks a kernel designer wants of a TiledMMA / TiledCopy, each with the reason when it fails.

>>> from cutepy.kernels.atoms import copy_atom, mma_atom
>>> from cutepy.core.layout import Layout
>>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
>>> print(*check_cover(mma).reason.split("; "), sep="\\n")
A: each of 32x16 elements held by 2 (thread, value) pairs
B: each of 16x16 elements held by 2 (thread, value) pairs
C: each of 32x16 elements held once
>>> cp_async = copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16)
>>> g2s = make_tiled_copy(cp_async, Layout((16, 8), (8, 1)), Layout((1, 8)))
>>> r = check_vectorization(g2s, Layout((128, 64), (64, 1)), Layout((128, 64), (64, 1)))
>>> r.ok, r.value
(True, 8)
>>> bad = check_vectorization(g2s, Layout((128, 64)), Layout((128, 64), (64, 1)))
>>> print(*bad.reason.split("; "), sep="\\n")
thread 0: source values 0..7 are not contiguous (offsets 0, 128, ...)
the atom moves 8 elements as one 128-bit vector, the source allows 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core import inttuple as it
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from ...core.lazy import load
from ..memo import derived
from ..tensor import make_identity_tensor
from .copy import TiledCopy, make_tiled_copy  # noqa: F401 (make_tiled_copy: doctest namespace)
from .mma import TiledMMA, make_tiled_mma  # noqa: F401 (make_tiled_mma: doctest namespace)

if TYPE_CHECKING:  # the checks count with numpy, the package imports without it
    import numpy as np
else:  # numpy loads on first use
    np = load("numpy")

#: the largest tile the checks enumerate
MAX_ELEMENTS = 1 << 20


@dataclass(frozen=True)
class CheckResult:
    """``ok`` and why; ``value`` carries the measured quantity (e.g. the vector width).

    >>> r = CheckResult(False, "the copy has 64 threads, the MMA 128")
    >>> bool(r), str(r)
    (False, 'FAILS: the copy has 64 threads, the MMA 128')
    """

    ok: bool
    reason: str
    value: Any = None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return ("ok: " if self.ok else "FAILS: ") + self.reason

    def __repr__(self) -> str:
        return f"CheckResult(ok={self.ok}, reason={self.reason!r})"


def _tv_coverage(tv: Layout, M: int, N: int, threads: list[int] | None) -> Any:
    """The tile index of every (thread, value) pair (of ``threads``, default all), int64, in no
    particular order (the checks count them)."""
    if M * N > MAX_ELEMENTS:
        raise CutepyError(f"tile {M}x{N} exceeds the {MAX_ELEMENTS} elements the checks enumerate")
    T = int(size(tv[0]))
    offs = tv.offsets()  # value-major: [value, thread] as (size / T, T)
    if threads is None or (len(threads) == T and threads == list(range(T))):
        return offs
    return offs.reshape(-1, T)[:, np.asarray(threads, dtype=np.intp)].ravel()


def replication(tv: Layout) -> int:
    """The (thread, value) pairs a TV layout means to give each element: the product of its
    thread mode's stride-0 leaves (threads that share the same values, as a TiledMMA's A over
    ``ThrN``, a GMMA atom's A over its 128 threads, or ldmatrix's unused address lanes). A
    stride-0 value leaf is not replication but a thread holding one element twice.

    >>> replication(Layout(((4, 8, 2), 8), ((64, 1, 0), 8)))
    2
    """
    n = 1
    thr = tv[0] if isinstance(tv.shape, tuple) else tv
    for s, d in zip(it.flatten_tuple(thr.shape), it.flatten_tuple(thr.stride)):
        if d == 0:
            n *= s
    return n


def _cover_one(
    name: str, tv: Layout, M: int, N: int, times: int | None = None, threads: list[int] | None = None
) -> CheckResult:
    """Every element of the tile held by exactly ``times`` (thread, value) pairs (default: the
    replication its stride-0 modes intend, :func:`replication`)."""
    if times is None:
        times = replication(tv)
    vals = _tv_coverage(tv, M, N, threads)
    if vals.size and (int(vals.min()) < 0 or int(vals.max()) >= M * N):
        out = (vals < 0) | (vals >= M * N)
        o = int(vals[out].min())
        return CheckResult(
            False, f"{name}: a (thread, value) pair reaches index {o}, outside the {M}x{N} tile"
        )
    counts = np.bincount(vals, minlength=M * N)
    lo, hi = int(counts.min()), int(counts.max())
    if lo == 0:
        missing = np.flatnonzero(counts == 0)
        i = int(missing[0])
        return CheckResult(
            False,
            f"{name}: element ({i % M},{i // M}) of the {M}x{N} tile is held by no "
            f"thread ({missing.size} elements uncovered)",
        )
    if not lo == hi == times:
        i = int(np.flatnonzero(counts != times)[0])
        k = int(counts[i])
        why = ("its stride-0 (replicated) modes account for " + (f"{times}" if times > 1 else "none")
               + ": (thread, value) pairs with nonzero strides collide")
        if k < times:
            why = f"the stride-0 (replicated) modes promise {times}"
        return CheckResult(
            False,
            f"{name}: element ({i % M},{i // M}) is held by {k} (thread, value) pairs, not {times}; {why}",
        )
    held = "once" if times == 1 else f"by {times} (thread, value) pairs"
    return CheckResult(True, f"{name}: each of {M}x{N} elements held {held}", times)


def check_cover(obj: TiledMMA | TiledCopy) -> CheckResult:
    """Whether the threads cover their tile, with the count per element as the reason.

    Replication the design intends is told from a mistake by where it comes from: each
    element must be held exactly as many times as the TV layout's stride-0 modes promise
    (:func:`replication`: a TiledMMA's A over ``ThrN`` and B over ``ThrM``, a GMMA atom's
    operands over its 128 threads, a ``make_tiled_copy_A`` of such an MMA, ldmatrix's unused
    address lanes); pairs with nonzero strides that land on one element, an element no pair
    reaches or one outside the tile is a mistake. C is checked among the threads of the first
    K group (with ``ThrK > 1`` every K group holds a partial C, and C++'s ``get_layoutC_TV``
    sends the threads of the other groups outside the tile).

    Pre:  ``obj`` is a TiledMMA or a TiledCopy (else ``CutepyError``).
    Post: ``result.ok`` iff every element of each ``M x N`` tile is hit by exactly that many
          ``(thread, value)`` pairs of its TV layout; ``result.reason`` names the operand that fails.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> check_cover(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))).ok
    True
    """
    if isinstance(obj, (TiledMMA, TiledCopy)):  # a frozen value: its answer is kept on it
        return derived(obj, ("check_cover",), lambda: _check_cover(obj))
    raise CutepyError(f"check_cover takes a TiledMMA or a TiledCopy, not {type(obj).__name__}")


def _first_k_group(vmnk: Layout, threads: list[int]) -> list[int]:
    """The threads whose K coordinate (``flat_coord(vmnk, t)[3]``, as ``get_slice`` reads it) is 0:
    each K leaf's ``(t / d) % s`` is 0 (a stride-0 leaf gives 0), for all threads at once."""
    t = np.asarray(threads, dtype=np.int64)
    zero = np.ones(len(t), dtype=bool)
    k = (vmnk.shape[3], vmnk.stride[3])
    for s, d in zip(it.flatten_tuple(k[0]), it.flatten_tuple(k[1])):
        if d != 0:
            zero &= (t // d) % s == 0
    return t[zero].tolist()


def _check_cover(obj: TiledMMA | TiledCopy) -> CheckResult:
    if isinstance(obj, TiledMMA):
        M, N, K = obj.tile_size_mnk
        vmnk = obj.thr_layout_vmnk
        thr_m, thr_n = int(size(vmnk[1])), int(size(vmnk[2]))
        threads = obj.thread_ids()  # C++'s thread indices: the values of ThrLayoutVMNK
        k0 = _first_k_group(vmnk, threads)
        parts = [
            _cover_one("A", obj.tv_layout_A_tiled, M, K, replication(obj.atom.tv_layout_A) * thr_n, threads),
            _cover_one("B", obj.tv_layout_B_tiled, N, K, replication(obj.atom.tv_layout_B) * thr_m, threads),
            _cover_one("C", obj.tv_layout_C_tiled, M, N, 1, k0),
        ]
    elif isinstance(obj, TiledCopy):
        M, N = obj.tile_shape
        parts = [
            _cover_one("src", obj.layout_src_tv_tiled, M, N),
            _cover_one("dst", obj.layout_dst_tv_tiled, M, N),
        ]
    else:
        raise CutepyError(f"check_cover takes a TiledMMA or a TiledCopy, not {type(obj).__name__}")
    bad = [p for p in parts if not p.ok]
    if bad:
        return CheckResult(False, "; ".join(p.reason for p in bad))
    return CheckResult(True, "; ".join(p.reason for p in parts))


def _run(offsets: list[int]) -> int:
    n = 1
    while n < len(offsets) and offsets[n] == offsets[0] + n:
        n += 1
    return n


def check_vectorization(tc: TiledCopy, src: Any, dst: Any) -> CheckResult:
    """Whether each thread's atom-sized vector is contiguous in ``src`` and ``dst``.

    Pre:  ``src`` and ``dst`` are layouts or swizzled layouts over the same ``M x N`` tile
          (else ``CutepyError``), the TiledCopy's tile.
    Post: ``result.ok`` iff for every thread the offsets of its first ``num_val_src`` values are
          consecutive in both; ``result.value`` is the usable vector width in elements (the
          shortest contiguous run over every thread, source and destination).

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.kernels.tiled.copy import make_tiled_copy
    >>> g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
    ...                       Layout((16, 8), (8, 1)), Layout((1, 8)))
    >>> check_vectorization(g2s, Layout((128, 64), (64, 1)), Layout((128, 64), (64, 1))).value
    8
    """
    shape = it.product_each_tuple(src.shape)  # the modes' sizes: the same tile in any nesting
    if not hasattr(dst, "shape") or it.product_each_tuple(dst.shape) != shape:
        raise CutepyError(
            f"check_vectorization: source shape {shape} and destination shape "
            f"{getattr(dst, 'shape', dst)} differ"
        )
    nval = tc.copy_atom.num_val_src
    bits = tc.copy_atom.element_bits
    g = make_identity_tensor(shape)
    width = None
    for t in range(tc.size):
        coords = tc.get_slice(t, static=True).partition_S(g)
        n = min(nval, size(coords.layout[0]) if isinstance(coords.shape, tuple) else size(coords.layout))
        vals = [coords(i) for i in range(n)]
        for what, L in (("source", src), ("destination", dst)):
            offs = [int(L(tuple(c))) for c in vals]
            r = _run(offs)
            if r < nval:
                return CheckResult(
                    False,
                    f"thread {t}: {what} values 0..{nval - 1} are not contiguous (offsets "
                    f"{', '.join(map(str, offs[:2]))}, ...); the atom moves {nval} "
                    f"elements as one {nval * bits}-bit vector, the {what} allows {r}",
                    r,
                )
            width = r if width is None else min(width, r)
    return CheckResult(
        True,
        f"every thread's {nval}-element ({nval * bits}-bit) vector is contiguous in source and destination",
        width,
    )


def check_fits(
    tc: TiledCopy, mma: TiledMMA, operand: str, registers: bool | None = None, cta_tile: tuple | None = None
) -> CheckResult:
    """Whether a TiledCopy fits the TiledMMA it feeds, with the reason.

    For a copy between shared memory and registers (``registers``; default: an
    ldmatrix/stmatrix atom) the copy tile must be the MMA's ``operand`` tile and each thread
    move exactly the elements the MMA holds in it; for a copy into shared memory, the copy
    tile and the MMA tile must both divide the block's tile ``cta_tile`` (default: the MMA tile).

    Pre:  ``operand`` is ``"A"``, ``"B"`` or ``"C"`` (else ``CutepyError``).
    Post: ``result.ok`` iff ``size(tc) == size(mma)`` and the tile conditions above hold.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.copy import make_tiled_copy_A
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> print(check_fits(make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma), mma, "A"))
    ok: each thread's registers hold exactly its MMA A values
    """
    if operand not in ("A", "B", "C"):
        raise CutepyError(f"check_fits: operand must be 'A', 'B' or 'C', not {operand!r}")
    M, N, K = mma.tile_size_mnk
    tile = {"A": (M, K), "B": (N, K), "C": (M, N)}[operand]
    if tc.size != mma.size:
        return CheckResult(False, f"the copy has {tc.size} threads, the MMA {mma.size}")
    cm, cn = tc.tile_shape
    if registers is None:
        registers = tc.copy_atom.op in ("ldmatrix", "stmatrix")
    outer = tile if cta_tile is None or registers else tuple(cta_tile)
    if outer[0] % cm or outer[1] % cn:
        what = f"the MMA's {operand} tile" if outer == tile else "the block tile"
        return CheckResult(False, f"the copy tile {cm}x{cn} does not divide {what} {outer[0]}x{outer[1]}")
    if outer[0] % tile[0] or outer[1] % tile[1]:
        return CheckResult(
            False,
            f"the MMA's {operand} tile {tile[0]}x{tile[1]} does not divide the block tile "
            f"{outer[0]}x{outer[1]}",
        )
    if registers:
        mtv = {"A": mma.tv_layout_A_tiled, "B": mma.tv_layout_B_tiled, "C": mma.tv_layout_C_tiled}[operand]
        ctv = tc.layout_dst_tv_tiled if tc.copy_atom.op != "stmatrix" else tc.layout_src_tv_tiled
        if (cm, cn) != tile:
            return CheckResult(
                False,
                f"a register copy must cover the MMA's {operand} tile {tile[0]}x{tile[1]}, "
                f"this one covers {cm}x{cn}",
            )
        for t in range(mma.size):
            want = set(int(mtv(t, v)) for v in range(size(mtv[1])))
            got = set(int(ctv(t, v)) for v in range(size(ctv[1])))
            if want != got:
                extra = sorted(got - want)
                miss = sorted(want - got)
                i = (extra or miss)[0]
                return CheckResult(
                    False,
                    f"thread {t} {'receives' if extra else 'misses'} element "
                    f"({i % tile[0]},{i // tile[0]}) the MMA "
                    f"{'does not read' if extra else 'reads'} from it",
                )
        return CheckResult(True, f"each thread's registers hold exactly its MMA {operand} values")
    return CheckResult(
        True,
        f"{tc.size} threads; the {cm}x{cn} copy tile and the MMA's {tile[0]}x{tile[1]} {operand} tile "
        f"divide the {outer[0]}x{outer[1]} tile",
    )


__all__ = ["CheckResult", "check_cover", "check_fits", "check_vectorization"]
