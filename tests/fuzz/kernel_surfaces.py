"""Fuzz surfaces for the kernel-design tools (issue 33): tensors and simulation, TiledMMA /
TiledCopy, ``cutepy.linear``, TMA, the bank tools and run-time integers.

Each generator draws a valid design (checked by an independent model: numpy for partitions,
copies and gemm, XOR of bases for linear layouts, the driver's documented rules for TMA
descriptors, a wavefront model for banks, brute-force evaluation for run-time integers) or
mixes one bad argument into it (wrong types, numpy arrays and scalars, bools, floats, NaN,
infinity, strings, nested garbage, zero, negative and 2^63/2^64 values), which must be
refused with a CutepyError or give a result that passes the same check.

Generators take ``(rng, case)``: ``case(surface, op, repro, call, check, malformed)`` builds the
harness's Case (tests/fuzz/harness.py registers them), so this module needs nothing from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

import cutepy
from cutepy import Layout, Swizzle
from cutepy.algebra.composed import ComposedLayout
from tests.fuzz import brute

MakeCase = Callable[..., Any]

#: bad values mixed into otherwise valid calls
BAD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    -7,
    2.5,
    4.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    "4",
    "abc",
    b"x",
    1j,
    2**63,
    10**5000,
    2**5000,
    2**64,
    -(2**63),
    10**30,
    np.int64(-3),
    np.float64(2.0),
    np.bool_(True),
    np.array([2, 3]),
    np.array([[1]]),
    np.array(2.5),
    [],
    {},
    [[1, [2]]],
    ((),),
    (None, (None,)),
    object(),
    Layout(0 + 1, 0),
    (2, "x"),
    (2.0, 4),
    (1, -1),
]


def bad(rng: random.Random) -> Any:
    return rng.choice(BAD)


def fine(b: Any, none: bool = False) -> bool:
    """Whether a drawn bad value is in fact a fine argument: an integer (numpy's too, never a
    bool), a nested tuple or list of them, a layout, or ``None`` where that means the default."""
    if b is None:
        return none
    if isinstance(b, (bool, np.bool_)):
        return False
    if isinstance(b, (int, np.integer, Layout)):
        return True
    if isinstance(b, (tuple, list)):
        return all(fine(x, none) for x in b)
    return False


def short(x: Any) -> str:
    """A reproducer's text for ``x`` (cut short; safe for huge integers)."""
    if type(x) is int and x.bit_length() > 64:
        return f"2**{x.bit_length() - 1}" if x & (x - 1) == 0 else f"<int of {x.bit_length()} bits>"
    if isinstance(x, np.ndarray):
        return f"np.array({x.tolist()!r})"
    if type(x) is object:
        return "object()"
    try:
        text = repr(x)
    except ValueError:
        return "<unprintable>"
    return text if len(text) < 200 else text[:197] + "..."


def rep(name: str, *args: Any, **kw: Any) -> str:
    parts = [short(a) for a in args] + [f"{k}={short(v)}" for k, v in kw.items()]
    return f"{name}({', '.join(parts)})"


def require(cond: bool, what: str) -> None:
    brute.require(cond, what)


def accepted_if_valid(check: Callable[[Any], None]) -> Callable[[Any], None]:
    """A malformed call's check: an accepted result must still pass ``check``."""
    return check


# -- shared generators ------------------------------------------------------------------------


def compact_layout(rng: random.Random, shape: tuple) -> Layout:
    """A compact layout of ``shape`` in a random mode order (a bijection onto 0..size-1)."""
    order = list(range(len(shape)))
    rng.shuffle(order)
    stride = [0] * len(shape)
    acc = 1
    for k in order:
        stride[k] = acc
        acc *= shape[k]
    return Layout(shape, tuple(stride))


def logical_table(L: Any, shape: tuple) -> np.ndarray:
    """``L`` at every coordinate of the 2-D ``shape``, as an array indexed [m, n]."""
    M, N = shape
    return np.array([[brute.evaluate(L, m + M * n) for n in range(N)] for m in range(M)], dtype=np.int64)


# -- tensors -----------------------------------------------------------------------------------


def gen_tensors(rng: random.Random, case: MakeCase) -> Any:
    kind = rng.random()
    shape = (rng.choice([1, 2, 3, 4, 8]), rng.choice([1, 2, 3, 4, 8]))
    L = compact_layout(rng, shape)
    n = brute.size(L)
    if kind < 0.3:  # reading and slicing: against the engine and the brute-force layout
        off = rng.randint(0, 3)
        data = np.arange(n + off, dtype=rng.choice([np.int32, np.int64, np.float32])) * 3 + 1
        i = rng.randrange(n)
        j = rng.randrange(shape[1])

        def call() -> Any:
            T = cutepy.make_tensor(data[off:], L)
            return T(i), T[i], T(None, j).values(), cutepy.local_tile(T, (shape[0], 1), (0, j)).values()

        def check(R: Any) -> None:
            v, w, col, tile = R
            want = data[off + brute.evaluate(L, i)]
            require(v == want and w == want, f"T({i}) = {v}, T[{i}] = {w}, want {want}")
            want_col = [data[off + brute.evaluate(L, m + shape[0] * j)] for m in range(shape[0])]
            require(list(col) == want_col, f"T(None, {j}) = {col}, want {want_col}")
            require(list(tile) == want_col, f"local_tile column {j} = {tile}, want {want_col}")

        return case("tensors", "read", f"make_tensor(arange, {L}) at {i}, column {j}", call, check)
    if kind < 0.5:  # writing: every element once, then the engine is the numpy model's
        dtype = rng.choice([np.int8, np.int32, np.float32, np.float64, np.uint16])
        vals = [rng.randint(0, 100) for _ in range(n)]

        def call_w() -> Any:
            T = cutepy.make_tensor(np.zeros(n, dtype), L)
            for i, v in enumerate(vals):
                T[i] = v
            return T.engine

        def check_w(engine: Any) -> None:
            want = np.zeros(n, dtype)
            for i, v in enumerate(vals):
                want[brute.evaluate(L, i)] = v
            require(np.array_equal(engine, want), f"writes through {L} give {engine.tolist()}")

        return case(
            "tensors",
            "write",
            f"T = make_tensor(zeros({n}, {dtype.__name__}), {L}); T[i] = v",
            call_w,
            check_w,
        )
    if kind < 0.65:  # partition by a thread layout: local_partition against numpy
        thr = compact_layout(rng, tuple(d for d in (rng.choice([1, 2]), rng.choice([1, 2]))))
        tshape = (thr.shape[0] * shape[0], thr.shape[1] * shape[1])
        G = compact_layout(rng, tshape)
        data = np.arange(brute.size(G))
        t = rng.randrange(brute.size(thr))

        def call_p() -> Any:
            return cutepy.local_partition(cutepy.make_tensor(data, G), thr, t).values()

        def check_p(vals: Any) -> None:
            # thread t holds the coordinates c with c % thr.shape == thr's coordinate of t
            inv = {brute.evaluate(thr, k): k for k in range(brute.size(thr))}
            tm, tn = inv[t] % thr.shape[0], inv[t] // thr.shape[0]
            want = sorted(
                int(data[brute.evaluate(G, m + tshape[0] * nn)])
                for nn in range(tshape[1])
                for m in range(tshape[0])
                if m % thr.shape[0] == tm and nn % thr.shape[1] == tn
            )
            require(
                sorted(int(v) for v in vals) == want,
                f"local_partition thread {t}: {sorted(vals)}, want {want}",
            )

        return case(
            "tensors",
            "local_partition",
            f"local_partition(make_tensor(arange, {G}), {thr}, {t})",
            call_p,
            check_p,
        )
    # bad input: engines, indices, values
    b = bad(rng)
    where = rng.choice(["engine", "index", "value", "layout", "slice"])
    dtype = rng.choice([np.int8, np.int32, np.uint8, np.float32, np.bool_])

    def call_bad() -> Any:
        if where == "engine":
            return cutepy.make_tensor(b, L)
        T = cutepy.make_tensor(np.zeros(n, dtype), L)
        if where == "index":
            return T[b]
        if where == "value":
            T[rng_i] = b
            return T.engine
        if where == "layout":
            return cutepy.make_tensor(np.zeros(n, dtype), b)
        return T(b, None)

    rng_i = rng.randrange(n)

    def check_bad(R: Any) -> None:
        if where == "value":  # a value the dtype holds exactly is a fine write
            info_ok = isinstance(b, (int, float, np.integer, np.floating, np.bool_)) and not isinstance(
                b, complex
            )
            require(info_ok, f"T[{rng_i}] = {short(b)} accepted into {np.dtype(dtype)}")
            if info_ok:
                got = R[brute.evaluate(L, rng_i)]
                require(
                    got == dtype(b) or (np.isnan(got) and np.isnan(float(b))),
                    f"T[{rng_i}] = {short(b)} stored {got}",
                )
        elif where == "engine":
            require(b is None or hasattr(b, "__getitem__"), f"make_tensor({short(b)}, ...) accepted")
        elif where == "index":  # None (a slice) and integer coordinates are fine
            require(
                (isinstance(b, (int, np.integer, tuple)) or b is None) and not isinstance(b, bool),
                f"T[{short(b)}] accepted: {short(R)}",
            )

    return case(
        "tensors",
        f"bad {where}",
        f"{where} = {short(b)} on make_tensor(zeros, {L})",
        call_bad,
        check_bad,
        True,
    )


# -- simulation: copy and gemm against numpy ------------------------------------------------------------


def gen_simulation(rng: random.Random, case: MakeCase) -> Any:
    kind = rng.random()
    if kind < 0.45:
        bits = rng.choice([8, 16, 32])
        dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]
        atom = cutepy.copy_atom(f"UniversalCopy<uint{bits}_t>", bits)
        thr = compact_layout(rng, (rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4])))
        val = compact_layout(rng, (rng.choice([1, 2]), rng.choice([1, 2])))
        reps = (rng.choice([1, 2]), rng.choice([1, 2]))
        ragged_draw = rng.random() < 0.2

        ragged = ragged_draw and thr.shape[0] * val.shape[0] > 1  # a row more is then not whole tiles

        def call() -> Any:
            cp = cutepy.make_tiled_copy(atom, thr, val)
            M, N = cp.tiler_mn
            shape = (M * reps[0] + (1 if ragged else 0), N * reps[1])
            S = compact_layout(rng_s, shape)
            D = compact_layout(rng_s, shape)
            src = cutepy.make_tensor((np.arange(brute.size(S)) * 7 % 251).astype(dtype), S)
            dst = cutepy.make_tensor(np.zeros(brute.size(D), dtype), D)
            cutepy.copy(cp, src, dst)
            return shape, S, D, src.engine, dst.engine

        rng_s = random.Random(rng.getrandbits(32))

        def check(R: Any) -> None:
            require(not ragged, "copy accepted a tensor that is not a whole number of tiles")
            shape, S, D, se, de = R
            want = se[logical_table(S, shape)]
            got = de[logical_table(D, shape)]
            require(np.array_equal(got, want), f"copy through {S} -> {D}: the logical tiles differ")

        return case(
            "simulation",
            "copy",
            f"copy(make_tiled_copy({atom.name}, {thr}, {val})) reps {reps}{' +1 row' if ragged else ''}",
            call,
            check,
            ragged,
        )
    if kind < 0.8:
        name, dt, tol = rng.choice(
            [
                ("UniversalFMA<float,float,float,float>", np.float32, 1e-4),
                ("SM80_16x8x8_F32TF32TF32F32_TN", np.float32, 1e-2),
                ("SM80_16x8x16_F32F16F16F32_TN", np.float16, 1e-2),
                ("SM61_DP4A", np.int8, 0),
                ("SM80_8x8x4_F64F64F64F64_TN", np.float64, 1e-9),
            ]
        )
        al = (rng.choice([1, 2]), rng.choice([1, 2]), 1)
        reps = (rng.choice([1, 2]), rng.choice([1, 2]), rng.choice([1, 2]))
        seed = rng.getrandbits(32)

        def call_g() -> Any:
            mma = cutepy.make_tiled_mma(cutepy.mma_atom(name), al)
            M, N, K = (t * r for t, r in zip(mma.tile_size_mnk, reps))
            g = np.random.default_rng(seed)
            a = g.integers(-3, 4, (M, K)).astype(dt)
            b = g.integers(-3, 4, (N, K)).astype(dt)
            cdt = np.int32 if dt == np.int8 else (np.float32 if dt == np.float16 else dt)
            A = cutepy.make_tensor(a.ravel(order="F"), Layout((M, K)))
            B = cutepy.make_tensor(b.ravel(order="F"), Layout((N, K)))
            C = cutepy.make_tensor(np.zeros(M * N, cdt), Layout((M, N)))
            if reps[:2] != (1, 1) or reps[2] != 1:
                # whole tiles of the MMA only along M and N: K runs inside each thread's partition
                pass
            cutepy.gemm(mma, A, B, C)
            return a, b, C.engine.reshape(N, M).T

        def check_g(R: Any) -> None:
            a, b, c = R
            want = a.astype(np.float64) @ b.astype(np.float64).T
            require(
                np.allclose(c.astype(np.float64), want, rtol=tol, atol=tol * 8),
                f"gemm({name}, {al}) differs from a @ b.T by {np.abs(c - want).max()}",
            )

        return case(
            "simulation",
            "gemm",
            f"gemm(make_tiled_mma({name}, {al})) reps {reps} seed {seed}",
            call_g,
            check_g,
        )
    # bad arguments of copy / gemm
    b = bad(rng)
    atom = cutepy.copy_atom("UniversalCopy<uint32_t>", 32)
    which = rng.choice(["copy_first", "copy_src", "gemm_first", "gemm_C", "check_tile"])

    def call_bad() -> Any:
        src = cutepy.make_tensor(np.arange(16, dtype=np.uint32), Layout((4, 4)))
        dst = cutepy.make_tensor(np.zeros(16, np.uint32), Layout((4, 4)))
        cp = cutepy.make_tiled_copy(atom, Layout((4, 4)), Layout((1, 1)))
        if which == "copy_first":
            return cutepy.copy(b, src, dst)
        if which == "copy_src":
            return cutepy.copy(cp, b, dst)
        mma = cutepy.make_tiled_mma(cutepy.mma_atom("UniversalFMA<float,float,float,float>"), (2, 2, 1))
        A = cutepy.make_tensor(np.ones(4, np.float32), Layout((2, 2)))
        if which == "gemm_first":
            return cutepy.gemm(b, A, A, A)
        if which == "gemm_C":
            return cutepy.gemm(mma, A, A, b)
        return cutepy.check_tile(cp, dst, b)

    return case("simulation", f"bad {which}", f"{which} with {short(b)}", call_bad, None, True)


# -- TiledMMA / TiledCopy ----------------------------------------------------------------------------

MMA_NAMES = [
    "UniversalFMA<float,float,float,float>",
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM75_16x8x8_F32F16F16F32_TN",
    "SM61_DP4A",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM70_8x8x4_F32F16F16F32_NT",
    "SM80_16x8x32_S32S4S4S32_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
]
COPY_NAMES = [
    ("UniversalCopy<uint32_t>", 32),
    ("UniversalCopy<uint16_t>", 16),
    ("SM75_U32x4_LDSM_N", 16),
    ("SM75_U32x2_LDSM_N", 16),
    ("SM75_U16x8_LDSM_T", 16),
    ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
]


def _perm(rng: random.Random, ext: int) -> Any:
    r = rng.random()
    if r < 0.6:
        return None
    k = ext * rng.choice([1, 2])
    if r < 0.8:
        return k
    a = rng.choice([d for d in (1, 2, 4, 8) if k % d == 0])
    return Layout((a, k // a), (k // a, 1))


def gen_tiled(rng: random.Random, case: MakeCase) -> Any:
    kind = rng.random()
    if kind < 0.55:
        name = rng.choice(MMA_NAMES)
        al = tuple(rng.choice([1, 2]) for _ in range(3))
        use_perm = rng.random() < 0.4
        # C: only with one atom along K (atoms split along K hold indices past the C tile, as in
        # C++ 4.7: tests/kernels/tiled/test_partition_cxx47.py)
        which = rng.choice("ABC" if al[2] == 1 else "AB")
        seed = rng.getrandbits(32)

        def call() -> Any:
            atom = cutepy.mma_atom(name)
            mma = cutepy.make_tiled_mma(atom, al)
            if use_perm:
                r = random.Random(seed)
                mma = cutepy.make_tiled_mma(atom, al, tuple(_perm(r, e) for e in mma.tile_size_mnk))
            M, N, K = mma.tile_size_mnk
            shape = {"A": (M, K), "B": (N, K), "C": (M, N)}[which]
            data = np.arange(shape[0] * shape[1])
            T = cutepy.make_tensor(data, Layout(shape))
            tv = getattr(mma, f"tv_layout_{which}_tiled")
            parts = {
                t: sorted(int(x) for x in getattr(mma.get_slice(t), f"partition_{which}")(T).values())
                for t in mma.thread_ids()
            }
            return mma, shape, tv, parts

        def check(R: Any) -> None:
            mma, shape, tv, parts = R
            # thread t's partition of the tile holds the tile indices its TV layout names
            n = shape[0] * shape[1]
            for t, got in parts.items():
                want = sorted(
                    brute.evaluate(tv, t + brute.nsize(tv.shape[0]) * v) % n
                    for v in range(brute.nsize(tv.shape[1]))
                )
                require(
                    got == want,
                    f"{mma!r}: partition_{which} of thread {t} holds {got[:8]}..., its TV "
                    f"layout {want[:8]}...",
                )

        return case(
            "tiled",
            f"partition_{which}",
            f"make_tiled_mma({name}, {al}) perm seed {seed if use_perm else None}",
            call,
            check,
        )
    if kind < 0.75:
        cname, bits = rng.choice(COPY_NAMES)
        thr = compact_layout(rng, (rng.choice([4, 8, 16, 32]), rng.choice([1, 2, 4])))
        val = compact_layout(rng, (rng.choice([1, 2, 4, 8]), rng.choice([1, 2])))

        def call_c() -> Any:
            cp = cutepy.make_tiled_copy(cutepy.copy_atom(cname, bits), thr, val)
            M, N = cp.tiler_mn
            T = cutepy.make_tensor(np.arange(M * N), Layout((M, N)))
            # the register side is the raked (thread, value) block; an atom of one thread moves it
            # from the same place (an ldmatrix's source side is other lanes' rows)
            side = "S" if cp.copy_atom.name.startswith(("UniversalCopy", "SM80_CP_ASYNC")) else "D"
            parts = {
                t: sorted(int(x) for x in getattr(cp.get_slice(t), f"partition_{side}")(T).values())
                for t in range(cp.size)
            }
            return cp, (M, N), parts

        def check_c(R: Any) -> None:
            cp, (M, N), parts = R
            # make_tiled_copy rakes val blocks over thr: every element of the tile exactly once
            allv = sorted(v for p in parts.values() for v in p)
            require(allv == list(range(M * N)), f"{cp!r}: the threads' partitions are not the tile once")
            # thread t's block: the val block at thr's coordinate of t
            inv = {brute.evaluate(thr, k): k for k in range(brute.size(thr))}
            for t, got in parts.items():
                k = inv[t]
                tm, tn = k % thr.shape[0], k // thr.shape[0]
                want = sorted(
                    (tm * val.shape[0] + vm) + M * (tn * val.shape[1] + vn)
                    for vm in range(val.shape[0])
                    for vn in range(val.shape[1])
                )
                require(got == want, f"{cp!r}: thread {t} copies {got}, want {want}")

        return case("tiled", "copy partition", f"make_tiled_copy({cname}, {thr}, {val})", call_c, check_c)
    # bad arguments
    b = bad(rng)
    what = rng.choice(
        [
            "atom_layout",
            "perm",
            "get_slice",
            "partition",
            "thr",
            "val",
            "mma_atom",
            "copy_atom",
            "copy_A",
            "retile",
        ]
    )

    def call_bad() -> Any:
        atom = cutepy.mma_atom("SM80_16x8x16_F32F16F16F32_TN")
        if what == "atom_layout":
            return cutepy.make_tiled_mma(atom, b)
        if what == "perm":
            return cutepy.make_tiled_mma(atom, (2, 1, 1), (None, b, None))
        mma = cutepy.make_tiled_mma(atom, (2, 2, 1))
        if what == "get_slice":
            return mma.get_slice(b)
        if what == "partition":
            return mma.get_slice(0).partition_A(b)
        ca = cutepy.copy_atom("UniversalCopy<uint32_t>", 32)
        if what == "thr":
            return cutepy.make_tiled_copy(ca, b, Layout(1))
        if what == "val":
            return cutepy.make_tiled_copy(ca, Layout(32), b)
        if what == "mma_atom":
            return cutepy.mma_atom(b)
        if what == "copy_atom":
            return cutepy.copy_atom("UniversalCopy<uint32_t>", b)
        if what == "copy_A":
            return cutepy.make_tiled_copy_A(ca, b)
        return cutepy.make_tiled_copy(ca, Layout(32), Layout(1)).retile(b)

    def check_bad(R: Any) -> None:
        # a numpy integer or a layout-like value is a fine argument; accepted text or floats are not
        defaults = ("perm", "val", "copy_atom", "atom_layout")
        require(fine(b, none=what in defaults), f"{what} = {short(b)} accepted: {short(R)}")
        if what == "perm":
            require(all(x >= 1 for x in R.tile_size_mnk), f"perm {short(b)} gives tile {R.tile_size_mnk}")

    return case("tiled", f"bad {what}", f"{what} = {short(b)}", call_bad, check_bad, True)


# -- cutepy.linear: XOR of bases -------------------------------------------------------------------------


def gen_linear(rng: random.Random, case: MakeCase) -> Any:
    from cutepy import linear

    kind = rng.random()
    outs = [(f"dim{k}", 1 << rng.randint(0, 4)) for k in range(rng.randint(1, 2))]
    ins = {}
    for name in rng.sample(["register", "lane", "warp", "offset"], rng.randint(1, 3)):
        ins[name] = [[rng.randrange(s) for _, s in outs] for _ in range(rng.randint(0, 4))]
    if kind < 0.5:
        inputs = {k: rng.randrange(1 << len(v)) if v else 0 for k, v in ins.items()}

        def call() -> Any:
            return linear.LinearLayout(ins, outs)(**inputs)

        def check(R: Any) -> None:
            want = [0] * len(outs)
            for k, bs in ins.items():
                for i, basis in enumerate(bs):
                    if inputs[k] >> i & 1:
                        want = [w ^ x for w, x in zip(want, basis)]
            require(
                list(R) == want, f"LinearLayout({ins}, {outs})(**{inputs}) = {R}, want {want} (XOR of bases)"
            )

        return case("linear", "call", rep("LinearLayout", ins, outs) + f"(**{inputs})", call, check)
    if kind < 0.7:  # compose with an invertible square layout: XOR model of the composition
        n = rng.randint(1, 4)
        cols = [1 << k for k in range(n)]
        for _ in range(n):  # random elementary row operations keep it invertible
            i, j = rng.sample(range(n), 2) if n > 1 else (0, 0)
            if i != j:
                cols[i] ^= cols[j]
        inner = linear.LinearLayout({"offset": [[c] for c in cols]}, [("offset", 1 << n)])
        x = rng.randrange(1 << n)

        def call_c() -> Any:
            inv = inner.invert()
            return inv(offset=inner(offset=x)[0])[0]

        return case(
            "linear",
            "invert",
            f"invert of offset bases {cols} at {x}",
            call_c,
            lambda R: require(R == x, f"invert(L)(L({x})) = {R}"),
        )
    b = bad(rng)
    where = rng.choice(
        [
            "bases",
            "outs",
            "basis",
            "input",
            "from_gluon",
            "from_cute_kind",
            "from_cute_shape",
            "solve_swizzle",
            "solve_conflict_free",
        ]
    )

    def call_bad() -> Any:
        if where == "bases":
            return linear.LinearLayout(b, outs)
        if where == "outs":
            return linear.LinearLayout({"lane": [[0] * len(outs)]}, b)
        if where == "basis":
            return linear.LinearLayout({"lane": [b]}, outs)
        if where == "input":
            return linear.LinearLayout(ins, outs)(**{next(iter(ins)): b})
        if where == "from_gluon":
            return linear.from_gluon(
                {
                    "kind": "BlockedLayout",
                    "size_per_thread": b,
                    "threads_per_warp": [32],
                    "warps_per_cta": [1],
                    "order": [0],
                },
                [64],
            )
        if where == "from_cute_kind":
            return linear.from_cute(Layout((4, 2), (2, 1)), kind=b, shape=[8])
        if where == "from_cute_shape":
            return linear.from_cute(Layout((4, 2), (2, 1)), shape=b)
        if where == "solve_swizzle":
            return linear.solve_swizzle(Layout(8, 1), b)
        return linear.solve_conflict_free(Layout((8, 32), (32, 1)), [(Layout(32), 4)], b)

    def check_bad(R: Any) -> None:
        require(
            isinstance(b, (int, np.integer, list, tuple, dict)) and not isinstance(b, bool),
            f"{where} = {short(b)} accepted: {short(R)}",
        )

    return case("linear", f"bad {where}", f"{where} = {short(b)}", call_bad, check_bad, True)


# -- TMA: descriptors against the driver's documented rules ---------------------------------------------

TMA_TYPES = {"half_t": 2, "float": 4, "uint8_t": 1, "double": 8}


def driver_rules(d: Any, elem_bytes: int) -> str | None:
    """The first of cuTensorMapEncodeTiled's documented requirements ``d`` breaks, or None."""
    if not 1 <= d.rank <= 5:
        return f"rank {d.rank}"
    if d.global_address % 16:
        return "address not 16-byte aligned"
    if len(d.global_dim) != d.rank or any(not 1 <= g <= 2**32 for g in d.global_dim):
        return f"globalDim {d.global_dim}"
    if len(d.global_strides) != d.rank - 1:
        return f"{len(d.global_strides)} global strides for rank {d.rank}"
    if any(s % 16 or not 0 <= s < 2**40 for s in d.global_strides):
        return f"globalStrides {d.global_strides}"
    if any(not 1 <= b <= 256 for b in d.box_dim):
        return f"boxDim {d.box_dim}"
    if d.interleave == "NONE" and d.box_dim[0] * elem_bytes % 16:
        return f"boxDim[0] * {elem_bytes} B is not a multiple of 16"
    if any(not 1 <= e <= 8 for e in d.element_strides):
        return f"elementStrides {d.element_strides}"
    span = {"NONE": None, "32B": 32, "64B": 64, "128B": 128}.get(d.swizzle, 128)
    if span is not None and d.box_dim[0] * elem_bytes > span:
        return f"inner box {d.box_dim[0] * elem_bytes} B past the {d.swizzle} swizzle span"
    return None


def gen_tma(rng: random.Random, case: MakeCase) -> Any:
    from cutepy.kernels.pointer import gmem_ptr

    kind = rng.random()
    dtype = rng.choice(list(TMA_TYPES))
    E = TMA_TYPES[dtype]
    M, N = rng.choice([16, 32, 64, 128, 256, 512]), rng.choice([8, 16, 32, 64, 128])
    bm, bn = rng.choice([8, 16, 32, 64]), rng.choice([1, 2, 4, 8, 16])
    bm, bn = min(bm, M), min(bn, N)
    addr = rng.choice([0, 16, 256, 0x1000, 8, 4])
    op = rng.choice(["SM90_TMA_LOAD", "SM90_TMA_STORE", "SM90_TMA_LOAD_MULTICAST"])
    cluster = rng.choice([1, 2, 4]) if op.endswith("MULTICAST") else 1
    if kind < 0.7:

        def call() -> Any:
            g = cutepy.make_tensor(gmem_ptr(dtype, addr), Layout((M, N)))
            return cutepy.make_tma_copy(op, g, Layout((bm, bn)), cluster_size=cluster)

        def check(R: Any) -> None:
            d = R.descriptor
            why = driver_rules(d, E)
            require(why is None, f"descriptor breaks the driver's rules: {why}\n{d}")
            # column-major (M, N) in gmem, (bm, bn) in smem: the descriptor is the 2-D tensor itself,
            # up to modes C++ folds (a box spanning a whole mode merges it with the next)
            require(addr % 16 == 0, f"address 0x{addr:x} accepted")
            total = 1
            for g in d.global_dim:
                total *= g
            require(total == M * N, f"globalDim {d.global_dim} covers {total} elements, the tensor {M * N}")
            boxes = 1
            for b in d.box_dim:
                boxes *= b
            require(boxes * cluster == bm * bn, f"boxDim {d.box_dim} x {cluster} CTAs != the {bm}x{bn} tile")

        return case(
            "tma",
            "make_tma_copy",
            f"make_tma_copy({op!r}, gmem {dtype} 0x{addr:x} ({M},{N}), smem ({bm},{bn}), cluster {cluster})",
            call,
            check,
            addr % 16 != 0,
        )
    b = bad(rng)
    where = rng.choice(["op", "gmem", "smem", "cta_tile", "cluster", "address", "internal_type"])

    def call_bad() -> Any:
        a = b if where == "address" else addr - addr % 16
        g = cutepy.make_tensor(gmem_ptr(dtype, a), Layout((M, N))) if where != "gmem" else b
        return cutepy.make_tma_copy(
            b if where == "op" else op,
            g,
            b if where == "smem" else Layout((bm, bn)),
            cta_tile=b if where == "cta_tile" else None,
            cluster_size=b if where == "cluster" else cluster,
            internal_type=b if where == "internal_type" else None,
        )

    def check_bad(R: Any) -> None:
        require(fine(b, none=where in ("cta_tile", "internal_type")), f"{where} = {short(b)} accepted")
        why = driver_rules(R.descriptor, E)
        require(why is None, f"{where} = {short(b)}: descriptor breaks the driver's rules: {why}")

    return case("tma", f"bad {where}", f"make_tma_copy with {where} = {short(b)}", call_bad, check_bad, True)


# -- banks: a wavefront model -------------------------------------------------------------------------------


def wavefronts_4byte(addresses: list[int | None]) -> int:
    """One warp's 4-byte (or narrower) shared-memory access: a bank serves one 32-bit word per
    wavefront; lanes reading the same word share it."""
    words: dict[int, set] = {}
    for a in addresses:
        if a is not None:
            words.setdefault((a // 4) % 32, set()).add(a // 4)
    return max((len(w) for w in words.values()), default=0)


def gen_banks(rng: random.Random, case: MakeCase) -> Any:
    kind = rng.random()
    E = rng.choice([1, 2, 4])
    rows, cols = rng.choice([8, 16, 32]), rng.choice([8, 16, 32, 64])
    smem = compact_layout(rng, (rows, cols))
    if rng.random() < 0.4:
        b = rng.randint(1, 3)
        smem = ComposedLayout(Swizzle(b, rng.randint(0, 3), rng.choice([b, b + 1, b + 2])), 0, smem)
    n = rows * cols
    threads = rng.choice([32, 64])
    vals = max(1, n // threads)
    tv = compact_layout(rng, (threads, vals)) if threads * vals == n else Layout((threads, vals), (vals, 1))
    if kind < 0.55:
        op = rng.choice(["ld", "st"])

        def call() -> Any:
            return cutepy.banks.analyze_layout(smem, tv, element_bytes=E, op=op, partial=True)

        def check(R: Any) -> None:
            want = 0
            for w in range(-(-threads // 32)):
                for v in range(vals):
                    addr = []
                    for lane in range(32):
                        t = 32 * w + lane
                        addr.append(
                            None
                            if t >= threads
                            else brute.evaluate(smem, brute.evaluate(tv, t + threads * v)) * E
                        )
                    want += wavefronts_4byte(addr)
            require(
                R.wavefronts == want,
                f"analyze_layout({smem}, {tv}, {E} B {op}): {R.wavefronts} wavefronts, the model {want}",
            )

        return case(
            "banks",
            "analyze_layout",
            f"analyze_layout({smem}, {tv}, element_bytes={E}, op={op!r})",
            call,
            check,
        )
    if kind < 0.75:
        tv1 = Layout(32, vals) if 32 * vals <= n else Layout(32, 1)
        inner = smem.inner if isinstance(smem, ComposedLayout) else smem

        def call_f() -> Any:
            return cutepy.banks.find_swizzle(inner, [(tv1, "ld", 1)], E)

        def check_f(R: Any) -> None:
            addr = [brute.evaluate(R.layout, brute.evaluate(tv1, t)) * E for t in range(32)]
            want = wavefronts_4byte(addr)
            require(
                R.table[0].wavefronts == want,
                f"find_swizzle: {R.swizzle} costs {R.table[0].wavefronts} wavefronts, the model {want}",
            )
            if R.found:
                require(
                    want == R.table[0].ideal,
                    f"find_swizzle says {R.swizzle} is ideal; the model counts {want}",
                )

        return case(
            "banks", "find_swizzle", f"find_swizzle({inner}, [({tv1}, 'ld', 1)], {E})", call_f, check_f
        )
    b = bad(rng)
    where = rng.choice(
        ["element_bytes", "accesses", "access", "vector", "op", "smem", "swizzle_family", "matrices"]
    )

    def call_bad() -> Any:
        if where == "element_bytes":
            return cutepy.banks.analyze_layout(smem, tv, element_bytes=b, partial=True)
        if where == "accesses":
            return cutepy.banks.find_swizzle(Layout((8, 32), (1, 8)), b, 4)
        if where == "access":
            return cutepy.banks.find_swizzle(Layout((8, 32), (1, 8)), [b], 4)
        if where == "vector":
            return cutepy.banks.analyze_layout(smem, tv, element_bytes=E, vector_elems=b, partial=True)
        if where == "op":
            return cutepy.banks.analyze_layout(smem, tv, element_bytes=E, op=b, partial=True)
        if where == "smem":
            return cutepy.banks.analyze_layout(b, tv, element_bytes=E, partial=True)
        if where == "matrices":
            return cutepy.banks.analyze_layout(
                smem, tv, element_bytes=E, op="ldmatrix", matrices=b, partial=True
            )
        return cutepy.banks.swizzle_family(b)

    def check_bad(R: Any) -> None:
        require(fine(b, none=where in ("vector", "matrices")), f"{where} = {short(b)} accepted")

    return case("banks", f"bad {where}", f"banks {where} = {short(b)}", call_bad, check_bad, True)


# -- run-time integers -----------------------------------------------------------------------------------


def _int_leaves(x: Any) -> list:
    if isinstance(x, (tuple, list)):
        return [y for v in x for y in _int_leaves(v)]
    return [x]


def _dyn(rng: random.Random, x: Any, unit: int | None = None) -> Any:
    """``x`` with random leaves made run-time integers; never the leaves equal to ``unit``."""
    if isinstance(x, tuple):
        return tuple(_dyn(rng, y, unit) for y in x)
    return cutepy.dynamic(x) if rng.random() < 0.5 and x != unit else x


def gen_dynamic(rng: random.Random, case: MakeCase) -> Any:
    kind = rng.random()
    shape = tuple(rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 3)))
    L = compact_layout(rng, shape)
    # run-time 1s (shapes) and 0s (strides) are kept as C++ keeps them and can change an
    # operation's function (docs/algebra.md): those layouts are run, and checked only where
    # the function cannot change (offsets, slices, prints)
    units = rng.random() < 0.2
    D = Layout(_dyn(rng, L.shape, None if units else 1), _dyn(rng, L.stride, None if units else 0))
    if kind < 0.7:
        op = rng.choice(
            [
                "offsets",
                "coalesce",
                "filter",
                "composition",
                "logical_divide",
                "right_inverse",
                "slice",
                "left_inverse",
                "format",
            ]
        )
        B = compact_layout(rng, (rng.choice([1, 2]),))
        j = rng.randrange(shape[0])

        def call() -> Any:
            if op == "offsets":
                return D.offsets()
            if op == "composition":
                return cutepy.composition(
                    D,
                    Layout(
                        _dyn(rng2, B.shape, None if units else 1), _dyn(rng2, B.stride, None if units else 0)
                    ),
                )
            if op == "logical_divide":  # a tile that divides the layout's size
                t = 2 if brute.size(L) % 2 == 0 else 1
                return cutepy.logical_divide(D, Layout(_dyn(rng2, t, None if units else 1)))
            if op == "slice":
                return cutepy.slice_and_offset((j,) + (None,) * (len(shape) - 1), D)
            if op == "format":
                return cutepy.parse(format(D, "cxx"))
            return getattr(cutepy, op)(D)

        rng2 = random.Random(rng.getrandbits(32))

        def check(R: Any) -> None:
            if units and op not in ("offsets", "slice", "format"):
                require(isinstance(R, Layout), f"{op}({format(D, 'cxx')}) = {short(R)}")
                return
            if op == "offsets":
                require(R.tolist() == brute.table(L), f"{format(D, 'cxx')}.offsets() = {R.tolist()}")
            elif op in ("coalesce", "right_inverse", "left_inverse"):
                {
                    "coalesce": brute.check_coalesce,
                    "right_inverse": brute.check_right_inverse,
                    "left_inverse": brute.check_left_inverse,
                }[op](R, L)
            elif op == "filter":
                require(
                    sorted(set(brute.table(R))) == sorted(set(brute.table(L))), f"filter({format(D, 'cxx')})"
                )
            elif op == "composition":
                brute.check_composition(R, L, B)
            elif op == "logical_divide":
                brute.check_same_image(R, L, f"logical_divide({format(D, 'cxx')}, {B.shape})")
            elif op == "slice":
                sub, off = R
                want = [brute.evaluate(L, j + shape[0] * k) for k in range(brute.size(L) // shape[0])]
                require(
                    [off + brute.evaluate(sub, k) for k in range(brute.size(sub))] == want,
                    f"slice_and_offset(({j}, _...), {format(D, 'cxx')}) = {sub}, {off}",
                )
            else:  # a print without a static marker reads back static (no _ tells the two apart)
                text = format(D, "cxx")
                require(R == D and ("_" not in text or format(R, "cxx") == text), f"parse({text!r}) = {R}")

        return case("dynamic", op, f"{op} of {format(D, 'cxx')}", call, check)
    b = bad(rng)
    where = rng.choice(["dynamic", "shape", "stride", "index"])

    def call_bad() -> Any:
        if where == "dynamic":
            return cutepy.dynamic(b)
        if where == "shape":
            return Layout((cutepy.dynamic(2), b))
        if where == "stride":
            return Layout((cutepy.dynamic(2), 2), (1, b))
        return D(b)

    def check_bad(R: Any) -> None:
        ok = fine(b) and not isinstance(b, Layout)
        if ok and where == "shape":
            ok = all(x >= 1 for x in _int_leaves(b))
        if where == "index":  # None slices; any integer coordinate is evaluated (C++: arithmetic)
            ok = ok or b is None or isinstance(b, tuple)
        require(ok, f"{where} = {short(b)} accepted: {short(R)}")

    return case("dynamic", f"bad {where}", f"{where} = {short(b)}", call_bad, check_bad, True)


GENERATORS = {
    "tensors": gen_tensors,
    "simulation": gen_simulation,
    "tiled": gen_tiled,
    "linear": gen_linear,
    "tma": gen_tma,
    "banks": gen_banks,
    "dynamic": gen_dynamic,
}
WEIGHTS = {"tensors": 6, "simulation": 4, "tiled": 5, "linear": 5, "tma": 4, "banks": 4, "dynamic": 5}
