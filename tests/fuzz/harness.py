"""A seeded fuzz harness over every public surface of cutepy.

Each case is one call on generated input, valid or malformed, with a law that a result
must satisfy (checked by :mod:`brute`, never by cutepy's own evaluation). A call ends in
one of: ``ok`` (a result that passes its law), ``error`` (a :class:`CutepyError`),
``crash`` (any other exception), ``hang`` (past the per-call timeout) or ``wrong``
(a result that breaks its law, or a malformed input accepted as if it were valid).

Run:  python tests/fuzz/harness.py --n 2000 --seed 1 [--timeout 5] [--json] [--surface algebra]
(``benchmarks/fuzz.py`` runs the long version with a memory limit.)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import signal
import string
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cutepy
from cutepy import E, Layout, Swizzle
from cutepy.algebra.composed import ComposedLayout
from cutepy.core.dynamic import DynamicInt
from cutepy.core.errors import CutepyError, ParseError
from tests import paths
from tests.fuzz import brute, kernel_surfaces

ROOT = str(paths.ROOT)



SURFACES = (
    "parse", "construct", "evaluate", "algebra", "xla", "proofs", "symbolic", "programs",
    "pictures", "cli", "threads", "edge64", "numpy", "ranks",
    # the kernel-design tools (tests/fuzz/kernel_surfaces.py)
    "tensors", "simulation", "tiled", "linear", "tma", "banks", "dynamic",
)

# results of pictures and the CLI larger than this are a failure to elide
MAX_TEXT = 2_000_000


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that ``except Exception`` cannot swallow it."""


@dataclass
class Case:
    surface: str
    op: str
    repro: str
    call: Callable[[], Any]
    check: Callable[[Any], None] | None = None
    malformed: bool = False
    # for malformed input: a result is acceptable only if check passes (None: any result is wrong)


@dataclass
class Report:
    counts: dict = field(default_factory=lambda: {
        s: {"calls": 0, "ok": 0, "error": 0, "crash": 0, "hang": 0, "wrong": 0} for s in SURFACES
    })
    findings: list = field(default_factory=list)

    def add(self, case: Case, kind: str, detail: str) -> None:
        c = self.counts[case.surface]
        c["calls"] += 1
        c[kind] += 1
        if kind in ("crash", "hang", "wrong"):
            self.findings.append({"surface": case.surface, "op": case.op, "kind": kind,
                                  "repro": case.repro, "detail": detail[:300]})


# -- value printing for reproducers -------------------------------------------------------


def py(x: Any) -> str:
    """Python source that rebuilds ``x`` (layouts, swizzles, huge ints, bases)."""
    if type(x) is int and x.bit_length() > 100:
        for b in (10, 2):
            k = round(x.bit_length() / (3.3219 if b == 10 else 1))
            for kk in range(max(0, k - 3), k + 4):
                if b**kk == x:
                    return f"{b}**{kk}"
        return f"<int of {x.bit_length()} bits>"
    if isinstance(x, Layout):
        return f"Layout({py(x.shape)}, {py(x.stride)})"
    if isinstance(x, ComposedLayout):
        return f"ComposedLayout({py(x.outer)}, {py(x.offset)}, {py(x.inner)})"
    if isinstance(x, Swizzle):
        return f"Swizzle({x.bits}, {x.base}, {x.shift})"
    if isinstance(x, cutepy.ScaledBasis):
        return f"ScaledBasis({py(x.value)}, {py(x.mode)})"
    if isinstance(x, tuple):
        inner = ", ".join(py(v) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, np.ndarray):
        return f"np.array({x.tolist()!r})"
    if isinstance(x, str) and len(x) > 200:
        return repr(x[:60]) + f" + ... ({len(x)} chars)"
    try:
        return repr(x)
    except ValueError:
        return "<unprintable>"


def call_repr(name: str, *args: Any) -> str:
    return f"{name}({', '.join(py(a) for a in args)})"


# -- generators ------------------------------------------------------------------------------

BAD_INTS: list[Any] = [0, -1, -4, 2.5, 4.0, True, False, None, "4", 2**70, 10**4400,
                       np.int64(4), float("nan"), (), 1j, np.array([2, 3]), np.float64(2.0), np.uint64(2**63),
                       np.int8(-3), 2**63, -(2**63)]


def rshape(rng: random.Random, budget: int = 64, depth: int = 2) -> Any:
    """A nested shape of positive ints with size at most ``budget``."""
    if depth == 0 or rng.random() < 0.5:
        return rng.choice([s for s in (1, 2, 3, 4, 5, 6, 8) if s <= budget] or [1])
    r = rng.randint(1, 3)
    out = []
    for _ in range(r):
        s = rshape(rng, budget, depth - 1)
        budget = max(1, budget // brute.nsize(s))
        out.append(s)
    return tuple(out)


def rstride_like(rng: random.Random, shape: Any, neg: bool = True) -> Any:
    if isinstance(shape, tuple):
        return tuple(rstride_like(rng, s, neg) for s in shape)
    lo = -6 if neg and rng.random() < 0.2 else 0
    return rng.choice([0, 1, 1, 2, 4, 8, 16, rng.randint(lo, 40)])


def rlayout(rng: random.Random, budget: int = 64, neg: bool = True) -> Layout:
    shape = rshape(rng, budget)
    if rng.random() < 0.3:
        return Layout(shape)
    return Layout(shape, rstride_like(rng, shape, neg))


def regroup(rng: random.Random, shapes: list, strides: list) -> tuple[Any, Any]:
    """Nest a flat list of modes at random."""
    if len(shapes) >= 2 and rng.random() < 0.4:
        k = rng.randint(0, len(shapes) - 2)
        shapes = shapes[:k] + [tuple(shapes[k:k + 2])] + shapes[k + 2:]
        strides = strides[:k] + [tuple(strides[k:k + 2])] + strides[k + 2:]
    if len(shapes) == 1:
        return shapes[0], strides[0]
    return tuple(shapes), tuple(strides)


def rinjective(rng: random.Random, budget: int = 64, gaps: bool = True) -> Layout:
    """An injective layout with non-negative strides: compact strides in a random order."""
    sizes = []
    n = 1
    for _ in range(rng.randint(1, 4)):
        s = rng.choice([1, 2, 2, 3, 4, 8])
        if n * s > budget:
            break
        sizes.append(s)
        n *= s
    sizes = sizes or [1]
    order = list(range(len(sizes)))
    rng.shuffle(order)
    strides = [0] * len(sizes)
    acc = 1
    for k in order:
        if gaps and rng.random() < 0.3:
            acc *= rng.choice([2, 3])
        strides[k] = acc
        acc *= sizes[k]
    shape, stride = regroup(rng, sizes, strides)
    return Layout(shape, stride)


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def rswizzle(rng: random.Random) -> Swizzle:
    b = rng.randint(0, 3)
    shift = rng.choice([b, b + 1, b + 2, -b, -(b + 1)]) if b else rng.randint(0, 3)
    return Swizzle(b, rng.randint(0, 4), shift)


# -- surfaces ----------------------------------------------------------------------------------

def must_fail(_: Any) -> None:
    raise brute.WrongAnswer("malformed input was accepted")


def is_valid_layout(R: Any) -> bool:
    if isinstance(R, ComposedLayout):
        return is_valid_layout(R.inner)
    if type(R) is not Layout:
        return False
    ints = (int, DynamicInt)  # a run-time integer (C++'s int) is a leaf as much as a static one
    return all(type(s) in ints and s >= 1 for s in brute.leaves(R.shape)) and all(
        type(d) in ints or brute.is_basis(d) for d in brute.leaves(R.stride)
    )


def valid(R: Any, what: str) -> None:
    if not is_valid_layout(R):
        raise brute.WrongAnswer(f"{what} returned the invalid layout {R}")


def gen_parse(rng: random.Random) -> Case:
    kind = rng.random()
    if kind < 0.35:
        obj: Any = rlayout(rng)
        if rng.random() < 0.2:
            obj = ComposedLayout(rswizzle(rng), rng.randint(0, 8), rinjective(rng))
        text = str(obj)
        if rng.random() < 0.3:
            text = text.replace(",", ", ")

        def check(R: Any, obj: Any = obj) -> None:
            brute.require(type(R) is type(obj), f"parse(str({obj})) is a {type(R).__name__}")
            brute.require(brute.table(R) == brute.table(obj), f"parse(str({obj})) = {R}")

        return Case("parse", "parse", call_repr("cutepy.parse", text), lambda: cutepy.parse(text), check)
    if kind < 0.45:
        text = rng.choice([
            "(4,8):(1@0,1@1)", "(2,3):(1@1,1@0)", "4:1@2", "(2,(3,4)):(1@0,(1@1,1@0@1))",
        ])

        def check_basis(R: Any, text: str = text) -> None:
            valid(R, f"parse({text!r})")

        return Case("parse", "parse", call_repr("cutepy.parse", text), lambda: cutepy.parse(text),
                    check_basis)
    # malformed text
    base = str(rlayout(rng))
    alphabet = "()<>,:@_-o 0123456789Sw" + "\u0663\uff11\u00b2\u2003\t\n" + string.ascii_letters[:6]
    text = list(base)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randint(0, len(text))
        if op < 0.4:
            text.insert(pos, rng.choice(alphabet))
        elif op < 0.7 and text:
            del text[min(pos, len(text) - 1)]
        elif text:
            text[min(pos, len(text) - 1)] = rng.choice(alphabet)
    t = "".join(text)
    special = [
        "1" * rng.choice([4301, 5000, 20000]) + ":1", "4:" + "9" * 4400, "\u0663:1", "(\uff14,2)",
        "(4,8):(1@0,1@1000000000)", "4:1@" + "0@" * 80 + "0", "(" * rng.choice([65, 200, 5000]) + "4",
        "<" * 100 + "4:1", "Sw<100000,0,0> o 0 o 4:1", "Sw<3,4,3> o 99999999999999999999 o 4:1",
        "(2,3):(1,1@0)", "", " ", "4:1 o 4:1", "(4,", "4:", "()", "():()", "((),())",
        "Sw<1,2,3>", "Sw<-1,2,3> o 0 o 4:1", "<4:1,,2:1>", "(2,3):(1,2,3)",
    ]
    if rng.random() < 0.4:
        t = rng.choice(special)

    def check_text(R: Any, t: str = t) -> None:
        # accepted text must still yield a valid object
        if isinstance(R, tuple):
            for x in brute.leaves(R):
                valid(x, f"parse({t!r})")
        elif not isinstance(R, Swizzle):
            valid(R, f"parse({t!r})")

    def call(t: str = t) -> Any:
        try:
            return cutepy.parse(t)
        except ParseError as e:
            if "column" not in str(e):
                raise brute.WrongAnswer(f"ParseError without a column: {e}") from None
            raise
        except CutepyError as e:
            raise brute.WrongAnswer(f"text error that is not a ParseError: {type(e).__name__}: {e}") from None

    return Case("parse", "parse", call_repr("cutepy.parse", t), call, check_text, malformed=True)


def gen_construct(rng: random.Random) -> Case:
    kind = rng.random()
    if kind < 0.3:
        shape = rshape(rng)
        stride = rstride_like(rng, shape)
        bad = False
        if rng.random() < 0.5:
            bad = True
            flat = brute.leaves(shape)
            k = rng.randrange(len(flat))
            target = rng.choice(["shape", "stride", "nest"])
            v = rng.choice(BAD_INTS)
            if target == "nest":
                deep: Any = 1
                for _ in range(rng.choice([70, 300])):
                    deep = (deep,)
                shape, stride = deep, deep
            else:
                leaves_s, leaves_d = list(flat), list(brute.leaves(stride))
                (leaves_s if target == "shape" else leaves_d)[k] = v
                shape, stride = tuple(leaves_s), tuple(leaves_d)
                is_int = (type(v) is int or isinstance(v, np.integer))
                if is_int and (target == "stride" or v >= 1):
                    bad = False  # any integer is a fine stride, any positive one a fine shape

        def check(R: Any, shape: Any = shape, stride: Any = stride, bad: bool = bad) -> None:
            valid(R, call_repr("Layout", shape, stride))
            str(R)  # a layout that cannot be printed is a crash
            if bad:
                raise brute.WrongAnswer("malformed shape or stride accepted")

        return Case("construct", "Layout", call_repr("Layout", shape, stride),
                    lambda: Layout(shape, stride), check, malformed=bad)
    if kind < 0.45:
        A, B = rlayout(rng, 16), rlayout(rng, 16)

        def check_ml(R: Any, A: Any = A, B: Any = B) -> None:
            na = brute.size(A)
            for i in range(brute.size(A) * brute.size(B)):
                want = brute.evaluate(A, i % na) + brute.evaluate(B, i // na)
                brute.require(brute.evaluate(R, i) == want, f"make_layout({A}, {B}) = {R} at {i}")

        return Case("construct", "make_layout", call_repr("make_layout", A, B),
                    lambda: cutepy.make_layout(A, B), check_ml)
    if kind < 0.65:
        good = rng.random() < 0.6
        if good:
            b = rng.randint(0, 4)
            args: tuple = (b, rng.randint(0, 6), rng.choice([b, b + 1, b + 3, -b, -(b + 2)]))
        else:
            pool = [100000, 2**70, -1, 2.5, True, None, 0, 3, 64, 10**4400]
            args = tuple(rng.choice(pool) for _ in range(3))

        def check_sw(R: Any, args: tuple = args, good: bool = good) -> None:
            if not good:
                B, M, S = args
                S = B if S is None else S  # Swizzle(B, M) means S = B
                # CuTe's conditions; how large B, M, S may be is branch cxx's call (see the
                # regression test test_swizzle_parameters_are_bounded)
                ok = all(type(v) is int for v in (B, M, S)) and 0 <= B and 0 <= M and abs(S) >= B
                brute.require(ok, f"Swizzle{args} accepted")
            for x in (0, 1, 77, 1000, 123456):
                brute.require(R(x) == brute.swizzle(x, R.bits, R.base, R.shift), f"Swizzle{args}({x})")

        return Case("construct", "Swizzle", call_repr("Swizzle", *args), lambda: Swizzle(*args), check_sw,
                    malformed=not good)
    if kind < 0.8:
        pool = [0, 1, 2, 5, 1024, 1025, 10**9, -1, 2.5, True]
        mode = tuple(rng.choice(pool) for _ in range(rng.randint(1, 3)))
        ok = all(type(m) is int and 0 <= m <= 1024 for m in mode)

        def check_e(R: Any, mode: tuple = mode, ok: bool = ok) -> None:
            brute.require(ok, f"E{mode} accepted")
            brute.require(R.mode == mode and R.value == 1, f"E{mode} = {R}")

        return Case("construct", "E", call_repr("E", *mode), lambda: E(*mode), check_e, malformed=not ok)
    # mixed int and basis strides
    L = Layout((2, 3), (1, E(rng.randint(0, 2))))
    i = rng.randint(0, 5)

    def check_mixed(R: Any, L: Any = L, i: int = i) -> None:
        # C++ does not add an integer to a basis coordinate; a zero integer part is harmless
        want = brute.evaluate(L, i)
        brute.require(() not in want, f"{L}({i}) mixed an integer into a basis coordinate: {R}")
        got = {}
        for m, x in enumerate(R):
            if x:
                got[(m,)] = x
        brute.require(got == want, f"{L}({i}) = {R}, want {want}")

    return Case("construct", "mixed-basis", f"{py(L)}({i})", lambda: L(i), check_mixed, malformed=True)


def gen_evaluate(rng: random.Random) -> Case:
    kind = rng.random()
    if kind < 0.4:
        L: Any = rlayout(rng, 256)
        if rng.random() < 0.4:
            L = ComposedLayout(rswizzle(rng), rng.randint(-4, 64), rlayout(rng, 256))

        def check(R: Any, L: Any = L) -> None:
            brute.require(R.dtype == np.int64, "offsets dtype")
            brute.require(R.tolist() == brute.table(L), f"offsets({L})")

        return Case("evaluate", "offsets", f"{py(L)}.offsets()", lambda: L.offsets(), check)
    if kind < 0.6:
        L = rlayout(rng, 64)
        idx = [rng.randrange(0, 200) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.3:
            idx.append(rng.choice([2**62, 2**63 - 1, 2**63, 2**70, -1, -(2**63)]))
        bad = any(i < 0 or i >= 2**63 for i in idx)

        def check_at(R: Any, L: Any = L, idx: list = idx, bad: bool = bad) -> None:
            brute.require(not bad, f"offsets({L}, {idx}) accepted a bad index")
            brute.require(R.tolist() == [brute.evaluate(L, i) for i in idx], f"offsets({L}, {idx})")

        return Case("evaluate", "offsets(indices)", f"{py(L)}.offsets({idx!r})", lambda: L.offsets(idx),
                    check_at, malformed=True)
    if kind < 0.8:
        # huge domains or reaches: refuse before allocating, never wrap
        shape = rng.choice([(2**20, 2**20), (2**40,), (1 << 29,), (3, 2**62), (2**31, 2**31, 2**31)])
        stride = tuple(rng.choice([1, 2**40, 2**62, -(2**62)]) for _ in shape)
        L = Layout(shape, stride)
        return Case("evaluate", "offsets", f"{py(L)}.offsets()", lambda: L.offsets(), must_fail,
                    malformed=True)
    L = rlayout(rng, 64)
    i = rng.randrange(0, 64)
    return Case("evaluate", "call", f"{py(L)}({i})", lambda: L(i),
                lambda R, L=L, i=i: brute.require(R == brute.evaluate(L, i), f"{L}({i}) = {R}"))


ALGEBRA_OPS = [
    "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse", "nullspace",
    "max_common_layout", "max_common_vector", "upcast", "downcast", "logical_divide", "zipped_divide",
    "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape", "make_layout_like", "size", "cosize", "rank",
    "depth", "flatten", "prefix_product", "crd2idx", "select", "take", "group", "append", "prepend",
]


def gen_algebra(rng: random.Random) -> Case:
    op = rng.choice(ALGEBRA_OPS)
    fn = getattr(cutepy, op)
    bad = rng.random() < 0.15
    check: Callable[[Any], None] | None
    if op in ("coalesce", "filter", "flatten", "right_inverse", "nullspace", "size", "cosize", "rank",
              "depth", "make_layout_like"):
        A = rlayout(rng)
        args: tuple = (A,)
        check = {
            "coalesce": lambda R: brute.check_coalesce(R, A),
            "filter": lambda R: brute.check_filter(R, A),
            "flatten": lambda R: brute.check_same_function(R, A, f"flatten({A})"),
            "right_inverse": lambda R: brute.check_right_inverse(R, A),
            "nullspace": lambda R: brute.check_nullspace(R, A),
            "size": lambda R: brute.require(R == brute.size(A), f"size({A}) = {R}"),
            "cosize": lambda R: brute.require(R == brute.cosize(A), f"cosize({A}) = {R}"),
            "rank": lambda R: brute.require(R == brute.rank(A), f"rank({A}) = {R}"),
            "depth": lambda R: None,
            "make_layout_like": lambda R: valid(R, f"make_layout_like({A})"),
        }[op]
    elif op == "left_inverse":
        A = rinjective(rng)
        args = (A,)
        check = lambda R: brute.check_left_inverse(R, A)  # noqa: E731
    elif op == "composition":
        A = rlayout(rng)
        B = rlayout(rng, 32, neg=False)
        if rng.random() < 0.3 and isinstance(A.shape, tuple):
            B = tuple(rlayout(rng, 4, neg=False) for _ in A.shape)  # by-mode tiler
        args = (A, B)
        check = (lambda R: brute.check_composition(R, A, B)) if isinstance(B, Layout) else \
            (lambda R: valid(R, "composition"))
    elif op == "complement":
        A = rinjective(rng, 32)
        M = rng.choice([1, 2, brute.cosize(A), brute.cosize(A) * rng.randint(1, 4), rng.randint(1, 200)])
        args = (A, M)
        check = lambda R: brute.check_complement(R, A, M)  # noqa: E731
    elif op in ("max_common_layout", "max_common_vector"):
        A = rlayout(rng, 32, neg=False)
        B = rlayout(rng, 32, neg=False) if rng.random() < 0.5 else A
        args = (A, B)
        check = (lambda R: brute.check_max_common(R, A, B)) if op == "max_common_layout" else \
            (lambda R: brute.check_max_common_vector(R, A, B))  # noqa: E501
    elif op in ("upcast", "downcast"):
        A = rinjective(rng, 32, gaps=False)
        n = rng.choice([1, 2, 4, 8])
        args = (A, n)
        if op == "downcast":
            check = lambda R: brute.check_downcast(R, A, n)  # noqa: E731
        else:
            flat = list(zip(brute.leaves(A.shape), brute.leaves(A.stride)))
            divisible = all((d % n == 0) if d != 1 else (s % n == 0) for s, d in flat)
            check = (lambda R: brute.check_upcast(R, A, n)) if divisible else (lambda R: valid(R, op))
    elif op.endswith("divide"):
        A = rinjective(rng, 64) if rng.random() < 0.5 else rlayout(rng, 64)
        N = brute.size(A)
        d = rng.choice(divisors(N))
        t = rng.choice(divisors(N // d))
        B: Any = Layout(t, d)
        args = (A, B)
        if op == "logical_divide":
            check = lambda R: brute.check_logical_divide(R, A, B)  # noqa: E731
        else:
            def check(R: Any, A: Any = A, B: Any = B, op: str = op) -> None:
                # the tile's modes come first, so the first size(B) indices walk the tile
                brute.check_same_image(R, A, f"{op}({A}, {B})")
                for i in range(brute.size(B)):
                    brute.require(brute.evaluate(R, i) == brute.evaluate(A, brute.evaluate(B, i)),
                                  f"{op}({A}, {B}) = {R}: tile at {i}")
        if rng.random() < 0.25 and isinstance(A.shape, tuple):
            tiler = tuple(rng.choice([None, Layout(rng.choice(divisors(brute.nsize(s))))]) for s in A.shape)
            args = (A, tiler)

            def check(R: Any, A: Any = A, tiler: tuple = tiler, op: str = op) -> None:  # noqa: F811
                brute.check_same_image(R, A, f"{op}({A}, {tiler})")
        if rng.random() < 0.05:
            args = (A, None)
            check = lambda R: brute.check_same_image(R, A, f"{op}({A}, None)")  # noqa: E731
    elif op.endswith("product") and op != "prefix_product":
        A = rinjective(rng, 16)
        B = rlayout(rng, 8, neg=False) if op in ("blocked_product", "raked_product") else rinjective(rng, 8)
        args = (A, B)
        if op == "logical_product":
            check = lambda R: brute.check_logical_product(R, A, B)  # noqa: E731
        else:
            def check(R: Any, A: Any = A, B: Any = B, op: str = op) -> None:
                valid(R, op)
                brute.require(brute.size(R) == brute.size(A) * brute.size(B), f"{op}({A}, {B}) = {R}: size")
                want = sorted(brute.table(cutepy.logical_product(A, B)))
                brute.require(sorted(brute.table(R)) == want, f"{op}({A}, {B}) = {R}: image")
    elif op == "tile_to_shape":
        A = rinjective(rng, 8)
        target = tuple(brute.nsize(s) * rng.randint(1, 3) for s in (A.shape if isinstance(A.shape, tuple)
                                                                     else (A.shape,)))
        args = (A, target)
        check = lambda R: brute.require(brute.size(R) == brute.nsize(target), "tile_to_shape size")  # noqa: E731
    elif op == "prefix_product":
        s = rshape(rng)
        args = (s,)
        check = lambda R: brute.require(R == brute.prefix_product(s), f"prefix_product({s}) = {R}")  # noqa: E731
    elif op == "crd2idx":
        A = rlayout(rng)
        i = rng.randrange(brute.size(A))
        args = (i, A.shape, A.stride)
        check = lambda R: brute.require(R == brute.crd2idx(i, A.shape, A.stride), "crd2idx")  # noqa: E731
    else:  # select, take, group, append, prepend
        A = rlayout(rng)
        r = brute.rank(A)
        args = {
            "select": (A, *rng.sample(range(r), rng.randint(1, r))),
            "take": (A, 0, rng.randint(1, r)),
            "group": (A, 0, rng.randint(1, r)),
            "append": (A, rlayout(rng, 4)),
            "prepend": (A, rlayout(rng, 4)),
        }[op]
        check = lambda R: valid(R, op)  # noqa: E731
    if bad:
        args = list(args)
        k = rng.randrange(len(args))
        v = rng.choice(BAD_INTS + [Layout((2, 3), (1, E(0))), "4:1", Layout(2**40), Layout(2**61, 2)])
        args[k] = v
        args = tuple(args)
        # None is CuTe's "_" (keep this mode) wherever a tiler or an optional layout goes
        rejected = isinstance(v, (bool, float, complex, str, np.floating))

        def check(R: Any, v: Any = v, rejected: bool = rejected) -> None:  # noqa: F811
            if rejected:
                raise brute.WrongAnswer(f"{op} accepted the argument {py(v)} and returned {py(R)[:200]}")
            if isinstance(R, (Layout, ComposedLayout)):
                valid(R, op)
            elif isinstance(R, (float, bool, complex, str)):
                raise brute.WrongAnswer(f"{op} returned {R!r}")
    return Case("algebra", op, call_repr(f"cutepy.{op}", *args), lambda: fn(*args), check, malformed=bad)


def gen_xla(rng: random.Random) -> Case:
    from cutepy import xla

    rank = rng.randint(1, 3)
    dims = [rng.randint(1, 9) for _ in range(rank)]
    m2m = list(range(rank))
    rng.shuffle(m2m)
    tiles = []
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        k = rng.randint(1, rank)
        tiles.append([rng.choice([1, 2, 3, 4, 8]) for _ in range(k)])
    tile_text = "".join("T(" + ",".join(map(str, t)) + ")" for t in tiles)
    text = f"f32[{','.join(map(str, dims))}]{{{','.join(map(str, m2m))}{':' + tile_text if tiles else ''}}}"
    kind = rng.random()
    if kind < 0.25:
        idx = tuple(rng.randrange(d) for d in dims)
        want = brute.xla_linear_index(dims, m2m, tiles, idx)
        return Case("xla", "linear_index", call_repr("xla.linear_index", text, idx),
                    lambda: xla.linear_index(text, idx),
                    lambda R: brute.require(R == want, f"linear_index({text!r}, {idx}) = {R}, want {want}"))
    if kind < 0.4:
        def check_all(R: Any) -> None:
            for idx in np.ndindex(*dims):
                want = brute.xla_linear_index(dims, m2m, tiles, idx)
                brute.require(int(R[idx]) == want, f"linear_indices({text!r})[{idx}] = {R[idx]}, want {want}")

        return Case("xla", "linear_indices", call_repr("xla.linear_indices", text),
                    lambda: xla.linear_indices(text), check_all)
    if kind < 0.55:
        def check_cute(L: Any) -> None:
            if not isinstance(L, Layout):  # a chain: no single layout to check here
                return
            for idx in np.ndindex(*dims):
                want = brute.xla_linear_index(dims, m2m, tiles, idx)
                got = sum(brute.value(*brute.mode(L, k), idx[k]) for k in range(rank)) if rank > 1 else \
                    brute.value(L.shape, L.stride, idx[0])
                brute.require(got == want, f"to_cute({text!r}) = {L} at {idx}: {got}, want {want}")

        return Case("xla", "to_cute", call_repr("xla.to_cute", text), lambda: xla.to_cute(text), check_cute)
    if kind < 0.65:
        want = 4 * brute.xla_buffer_elements(dims, m2m, tiles)
        return Case("xla", "sizes", call_repr("xla.sizes", text), lambda: xla.sizes(text),
                    lambda R: brute.require(R.nested == want, f"sizes({text!r}).nested = {R.nested}, "
                                                                 f"want {want}"))
    if kind < 0.72:
        return Case("xla", "parse_shape", call_repr("xla.parse_shape", text), lambda: xla.parse_shape(text),
                    lambda R: brute.require(str(xla.parse_shape(str(R))) == str(R), "round trip"))
    if kind < 0.78:
        arr = np.arange(int(np.prod(dims)), dtype=np.float32).reshape(dims)

        def check_pack(buf: Any) -> None:
            back = xla.unpack(buf, text)
            brute.require(np.array_equal(back, arr), f"unpack(pack(x, {text!r})) != x")

        return Case("xla", "pack", call_repr("xla.pack", arr, text), lambda: xla.pack(arr, text), check_pack)
    if kind < 0.83:
        return Case("xla", "report", call_repr("xla.report", text), lambda: xla.report(text),
                    lambda R: brute.require(isinstance(R, str) and len(R) < MAX_TEXT, "report text"))
    # malformed or huge
    bad = rng.choice([
        "f32[" + ",".join(["2"] * 65) + "]", "f32[" + ",".join(["1"] * 70) + "]", f"f32[{2**62},{2**62}]",
        f"f32[{2**40},{2**40}]{{1,0}}", "f32[-3,4]", "f32[0,4]", "f32[3,4]{0,0}", "f32[3,4]{1,0:T(0,2)}",
        "f32[3,4]{1,0:T(2,2)" + "(2,1)" * 300 + "}", "f32[" + "9" * 5000 + "]", "f32[\u0663]", "q32[3]",
        "f32[3,4]{1,0:T(" + "2," * 80 + "2)}", f"f32[{2**31},{2**31},{2**31}]{{2,1,0:T(8,128)}}",
        text[: rng.randint(0, len(text))], text.replace(",", rng.choice(["", ";", ",,"]), 1),
    ])
    fname = rng.choice(["parse_shape", "to_cute", "sizes", "report", "linear_indices", "linear_index"])
    if fname == "linear_index":
        args: tuple = (bad, (0,) * 2)
    else:
        args = (bad,)

    def check_bad(R: Any, bad: str = bad, fname: str = fname) -> None:
        if fname == "linear_indices":
            brute.require(isinstance(R, np.ndarray) and R.size <= 1 << 28, "linear_indices size")
        if fname == "report":
            brute.require(len(R) < MAX_TEXT, "report text")

    return Case("xla", fname, call_repr(f"xla.{fname}", *args), lambda: getattr(xla, fname)(*args), check_bad,
                malformed=True)


def gen_proofs(rng: random.Random) -> Case:
    A = rlayout(rng, 32)
    B = rng.choice([A, cutepy.coalesce(A) if rng.random() < 0.5 else rlayout(rng, 32), rlayout(rng, 32)])
    if rng.random() < 0.2:
        A = ComposedLayout(rswizzle(rng), 0, rinjective(rng, 32))
        B = rng.choice([A, A.inner])
    same = brute.size(A) == brute.size(B) and brute.table(A) == brute.table(B)
    return Case("proofs", "equivalent", call_repr("cutepy.equivalent", A, B), lambda: cutepy.equivalent(A, B),
                lambda R: brute.require(bool(R) == same, f"equivalent({A}, {B}) = {bool(R)}, want {same}"))


_SYM_COUNTER = [0]


def gen_symbolic(rng: random.Random) -> Case:
    _SYM_COUNTER[0] += 1
    name = f"Mz{_SYM_COUNTER[0]}"
    mult = rng.choice([1, 4, 8])
    M = cutepy.symbols(name, multiple_of=mult, min=mult)
    L = Layout((M, 4), (4, 1))
    v = rng.choice([mult, 2 * mult, 3 * mult, 12, 16.5, "16", True, 0, -8, 2**70, 10**4400, None])
    ok = type(v) is int and v >= mult and v % mult == 0
    if rng.random() < 0.5 and ok:
        op = rng.choice(["coalesce", "composition", "logical_divide"])
        arg = {"coalesce": (), "composition": (Layout((4, 2), (2, 1)),), "logical_divide": (Layout(4),)}[op]

        def call() -> Any:
            return cutepy.subs(getattr(cutepy, op)(L, *arg), {M: v})

        def check(R: Any) -> None:
            ref = getattr(cutepy, op)(Layout((v, 4), (4, 1)), *arg)
            brute.check_same_function(R, ref, f"subs({op}(symbolic)) vs {op}(concrete)")

        return Case("symbolic", f"subs({op})", f"subs({op}({py(L)}), {{{name}: {py(v)}}})", call, check)

    def check_subs(R: Any, v: Any = v, ok: bool = ok) -> None:
        brute.require(ok, f"subs accepted {py(v)} for a symbol with multiple_of={mult}, min={mult}")
        brute.require(R.shape == (v, 4) and R.stride == (4, 1), f"subs = {R}")

    return Case("symbolic", "subs", f"cutepy.subs({py(L)}, {{{name}: {py(v)}}})  # multiple_of={mult}",
                lambda: cutepy.subs(L, {M: v}), check_subs, malformed=not ok)


def gen_programs(rng: random.Random) -> Case:
    import cutepy.program as cp

    if rng.random() < 0.1:  # huge arrays: a size refusal, never a MemoryError (issue 25)
        n = rng.choice([2**20, 2**31, 2**40, 2**61])
        pad = rng.choice([1, 2, 2**20])
        steps = [f"pad({pad})", rng.choice(["reshape", "transpose"])]
        last = rng.choice(["to_layout", "materialize"])
        steps.append(last)

        def call_big() -> Any:
            a = cp.pad(cp.trace((n,), "y"), pad)
            total = n + 2 * pad
            if total % 2 == 0 and steps[1] == "reshape":
                a = a.reshape(2, total // 2)
            else:
                a = a.reshape(1, total).T
            return cp.materialize(cp.to_layout(a)) if last == "materialize" else cp.to_layout(a)

        return Case("programs", "huge", f"to_layout of trace(({n},)) with {steps}", call_big, None)

    rank = rng.randint(1, 3)
    shape = tuple(rng.randint(1, 5) for _ in range(rank))
    bad_shape = rng.random() < 0.15
    if bad_shape:
        shape = tuple(rng.choice([2.5, 0, -1, True, "3", 2**70, 3]) for _ in range(rank))
    steps: list[str] = []

    def build() -> Any:
        a = cp.trace(shape, "a")
        for _ in range(rng.randint(1, 3)):
            r = len(a.shape)
            k = rng.random()
            if k < 0.3:
                perm = list(range(r))
                rng.shuffle(perm)
                steps.append(f".transpose({perm})")
                a = a.transpose(perm)
            elif k < 0.55:
                n = int(np.prod(a.shape))
                d = rng.choice(divisors(n))
                new = (d, n // d) if rng.random() < 0.7 else (n,)
                steps.append(f".reshape({new})")
                a = a.reshape(*new)
            elif k < 0.7:
                pw = [(rng.randint(0, 2), rng.randint(0, 2)) for _ in range(r)]
                steps.append(f"pad({pw})")
                a = cp.pad(a, pw)
            elif k < 0.85:
                new = tuple(max(1, e + rng.randint(-1, 3)) for e in a.shape)
                steps.append(f"resize({new})")
                a = cp.resize(a, new)
            else:
                new = (rng.randint(1, 3),) + tuple(a.shape)
                steps.append(f"broadcast_to({new})")
                a = cp.broadcast_to(a, new)
        return a

    def call() -> Any:
        return cp.check(build())

    return Case("programs", "trace+check", f"cp.check(cp.trace({py(shape)}, 'a') with random steps seeded)",
                call, lambda R: brute.require(bool(R), f"program check failed: {steps} {R}"),
                malformed=bad_shape)


def gen_pictures(rng: random.Random) -> Case:
    from cutepy import viz

    fname = rng.choice(["layout_table", "print_layout", "to_latex", "layout_svg", "xla_svg", "tv_layout_svg"])
    huge = rng.random() < 0.1
    tile: Any = None
    if fname == "xla_svg":
        arg: Any = rng.choice(["f32[3,5]{1,0:T(2,2)}", "bf16[16,256]{1,0:T(8,128)(2,1)}",
                               "f32[100000,100000]{1,0}", "f32[1000,1000]{0,1:T(8,128)}",
                               "f8e4m3fn[1,1000,1000,5,<=1000,0]{5,4,1,2,0,3}",
                               "f32[4,4]{1,0:T(4611686018427387904)}",
                               "u32[]{:T(128)}", "f32[0,1000000]{1,0}", "f32[3,5]{1,0:T(2,1099511627776)}"])
    elif huge:  # large, and near the 64-bit edge (issue 25)
        arg = rng.choice([Layout((2**20, 2**20)), Layout(2**40), Layout((1000, 1000)),
                          Layout((100000, 100000)),
                          ComposedLayout(Swizzle(3, 4, 3), 0, Layout((4096, 4096), (4096, 1))),
                          Layout((4294967296, 2147483648, 2, 2**63 - 1), (2, -1, -1, 2**63 - 1)),
                          Layout((2, 2**63 - 1), (-1, 0)), Layout((2**62, 2), (1, 2**62)),
                          Layout(((2**31, 2**31), 4), ((1, 2**31), 0))])
        tile = rng.choice([(3, 5), (2**62, 2), (4, 2**40), (2, 2)])
    else:
        arg = rlayout(rng, 64)
        if rng.random() < 0.5:
            shp = (rng.randint(1, 8), rng.randint(1, 8))
            arg = Layout(shp, rstride_like(rng, shp))

    if fname == "tv_layout_svg" and tile is None:
        arg = Layout((rng.randint(1, 8), rng.randint(1, 4)), (rng.randint(0, 4), rng.randint(0, 8)))
        tile = (rng.randint(1, 8), rng.randint(1, 8))

    def call() -> Any:
        if fname == "print_layout":
            buf = io.StringIO()
            viz.print_layout(arg, file=buf)
            return buf.getvalue()
        if fname == "tv_layout_svg":
            return viz.tv_layout_svg(arg, tile)
        return getattr(viz, fname)(arg)

    def check(R: Any) -> None:
        brute.require(isinstance(R, str) and len(R) < MAX_TEXT, f"{fname}: {len(R)} characters, not elided")
        if fname in ("layout_table", "print_layout") and not huge and isinstance(arg, Layout) \
                and brute.rank(arg) == 2 and not any(isinstance(s, tuple) for s in arg.shape):
            for i in range(brute.size(arg)):
                brute.require(str(brute.evaluate(arg, i)) in R, f"{fname}({arg}) misses offset of index {i}")

    repro = call_repr(f"viz.{fname}", *((arg, tile) if fname == "tv_layout_svg" else (arg,)))
    return Case("pictures", fname, repro, call, check)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    from cutepy.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def gen_cli(rng: random.Random) -> Case:
    L = rlayout(rng, 32)
    good = [
        ["show", str(L)], ["op", "coalesce", str(L)], ["op", "size", str(L)],
        ["op", "complement", str(rinjective(rng, 16)), "32"], ["xla", "f32[3,5]{1,0:T(2,2)}"],
    ]
    bad = [
        ["op", "flatten", "5"], ["op", "cosize", "<4:1, 2:1>"],
        ["show", str(L), "--svg", "/nonexistent/dir/x.svg"],
        ["op", "nosuchop", "4:1"], ["op"], ["show"], ["show", "(2,3"], ["show", "\u0663:1"],
        ["show", "1" * 5000], ["op", "composition", "4:1"], ["op", "complement", "4:2", "0"],
        ["op", "downcast", "4:1", "0"], ["xla", "f32[3,4"], ["xla", "f32[" + ",".join(["2"] * 65) + "]"],
        ["show", "(100000,100000):(100000,1)"], ["show", "(1000,1000)"], ["bogus"], ["--nope"],
        ["op", "logical_divide", "(4,8):(1@0,1@1)", "2"], ["op", "size", "(4,8):(1@0,1@1000000000)"],
    ]
    is_good = rng.random() < 0.4
    argv = rng.choice(good if is_good else bad)

    def check(R: Any, argv: list = argv, is_good: bool = is_good) -> None:
        rc, out, err = R
        brute.require(len(out) < MAX_TEXT, f"cutepy {argv}: {len(out)} characters of output")
        if is_good:
            brute.require(rc == 0, f"cutepy {argv} exited {rc}: {err.strip()[:200]}")
        else:
            brute.require(rc in (0, 2), f"cutepy {argv} exited {rc}")
            if rc == 2:
                lines = err.strip().splitlines()
                brute.require(len(lines) == 1 and lines[0].startswith("cutepy: error:"),
                              f"cutepy {argv}: stderr is not one error line: {err[:300]!r}")

    return Case("cli", "main", f"cutepy.cli.main({argv!r})", lambda: run_cli(argv), check)


def gen_threads(rng: random.Random) -> Case:
    jobs = []
    for _ in range(4):
        op = rng.choice(["complement", "composition", "coalesce", "logical_divide", "right_inverse"])
        A = rinjective(rng, 32)
        args = {"complement": (A, brute.cosize(A) * 2), "composition": (A, Layout(2, 1)), "coalesce": (A,),
                "logical_divide": (A, Layout(1)), "right_inverse": (A,)}[op]
        jobs.append((op, args))

    def call() -> Any:
        ref = [getattr(cutepy, op)(*a) for op, a in jobs]
        ref_text = [cutepy.explain(op, *a).text() for op, a in jobs]
        if ref_text != [cutepy.explain(op, *a).text() for op, a in jobs]:
            return ["explain() text differs between two sequential runs"]
        errors: list = []
        stop = time.monotonic() + 0.1

        def plain(k: int) -> None:
            try:
                while time.monotonic() < stop:
                    op, a = jobs[k]
                    if getattr(cutepy, op)(*a) != ref[k]:
                        errors.append(f"{op}{a} differs under threads")
            except BaseException as e:  # noqa: BLE001 - reported as a finding
                errors.append(repr(e))

        def explaining(k: int) -> None:
            try:
                while time.monotonic() < stop:
                    op, a = jobs[k]
                    if cutepy.explain(op, *a).text() != ref_text[k]:
                        errors.append(f"explain{op}{a} differs under threads")
            except BaseException as e:  # noqa: BLE001
                errors.append(repr(e))

        ts = [threading.Thread(target=plain if k % 2 else explaining, args=(k,)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(10)
        return errors

    return Case("threads", "explain+ops", f"threads over {[(op, py(a)) for op, a in jobs]}", call,
                lambda errs: brute.require(not errs, "; ".join(errs[:3])))


# -- issue 25: the 64-bit edge, numpy arguments, huge ranks -------------------------------------

MAX_LEAF = (1 << 63) - 1
EDGE_LEAVES = [1, 2, 3, 2**20, 2**31, 2**32, 2**32 + 1, 2**40, 2**53, 2**53 + 1, 2**61, 2**62, 2**62 + 1,
               2**63 - 1]


def fits64(R: Any) -> bool:
    """Every integer of a built value (layouts, composed layouts, tuples of them) fits 64 bits."""
    if isinstance(R, ComposedLayout):
        return fits64(R.inner) and all(-MAX_LEAF <= x <= MAX_LEAF for x in brute.leaves(R.offset)
                                       if type(x) is int)
    if isinstance(R, tuple):
        return all(fits64(x) for x in R)
    if isinstance(R, Layout):
        vals = [x for x in brute.leaves(R.shape)] + [
            x.value if brute.is_basis(x) else x for x in brute.leaves(R.stride)]
        return all(-MAX_LEAF <= x <= MAX_LEAF for x in vals if type(x) is int)
    return True


def check_built(R: Any, what: str) -> None:
    """A built value obeys the 64-bit rule and what it prints reads back as itself."""
    brute.require(fits64(R), f"{what} = {py(R)[:200]} has a leaf beyond 64 bits")
    for x in (R if isinstance(R, tuple) else (R,)):
        if isinstance(x, Layout) and all(type(d) is int for d in brute.leaves(x.stride)):
            valid(x, what)
            brute.require(cutepy.parse(str(x)) == x, f"{what} = {x} does not read back from its text")


def edge_layout(rng: random.Random, max_rank: int = 3) -> Layout:
    shape = tuple(rng.choice([1, 2, 3, 4, 2**20, 2**31, 2**32]) for _ in range(rng.randint(1, max_rank)))
    stride = tuple(rng.choice([0, rng.choice(EDGE_LEAVES), -rng.choice(EDGE_LEAVES)]) for _ in shape)
    return Layout(shape, stride)


EDGE_OPS = {
    "coalesce": lambda A, B: cutepy.coalesce(A), "composition": lambda A, B: cutepy.composition(A, B),
    "complement": lambda A, B: cutepy.complement(A), "right_inverse": lambda A, B: cutepy.right_inverse(A),
    "left_inverse": lambda A, B: cutepy.left_inverse(A),
    "logical_product": lambda A, B: cutepy.logical_product(A, B),
    "blocked_product": lambda A, B: cutepy.blocked_product(A, B),
    "raked_product": lambda A, B: cutepy.raked_product(A, B),
    "logical_divide": lambda A, B: cutepy.logical_divide(A, B),
    "zipped_divide": lambda A, B: cutepy.zipped_divide(A, B),
    "make_layout_like": lambda A, B: cutepy.make_layout_like(A),
    "make_fragment_like": lambda A, B: cutepy.make_fragment_like(A),
    "make_ordered_layout": lambda A, B: cutepy.make_ordered_layout(A.shape, B.stride[:1] * brute.rank(A)),
    "upcast": lambda A, B: cutepy.upcast(A, 2), "downcast": lambda A, B: cutepy.downcast(A, 2**31),
    "max_common_layout": lambda A, B: cutepy.max_common_layout(A, B),
    "max_common_vector": lambda A, B: cutepy.max_common_vector(A, A),
    "tile_to_shape": lambda A, B: cutepy.tile_to_shape(A, (2**40, 2**30)),
    "nullspace": lambda A, B: cutepy.nullspace(A), "filter": lambda A, B: cutepy.filter(A),
    "make_layout": lambda A, B: cutepy.make_layout(A, B),
    "swizzled": lambda A, B: cutepy.composition(ComposedLayout(Swizzle(2, 3, 3), 0, A), B),
    "slice": lambda A, B: cutepy.slice_and_offset((None,) + (1,) * (brute.rank(A) - 1), A)
    if brute.rank(A) > 1 else cutepy.slice_and_offset(1, A),
}


def gen_edge64(rng: random.Random) -> Case:
    kind = rng.random()
    if kind < 0.35:  # the algebra on layouts near the edge: results obey the same rule
        op = rng.choice(sorted(EDGE_OPS))
        A, B = edge_layout(rng), edge_layout(rng, 2)
        fn = EDGE_OPS[op]
        return Case("edge64", op, f"{op}: {call_repr('f', A, B)}", lambda: fn(A, B),
                    lambda R: check_built(R, f"{op}({A}, {B})"))
    if kind < 0.55:  # compact strides computed from a shape
        shape = tuple(rng.choice(EDGE_LEAVES[:9]) for _ in range(rng.randint(1, 5)))
        right = rng.random() < 0.5
        order = list(reversed(range(len(shape)))) if right else list(range(len(shape)))
        want, acc = [0] * len(shape), 1
        for k in order:
            want[k] = 0 if shape[k] == 1 else acc
            acc *= shape[k]
        ok = max(want) <= MAX_LEAF

        def check_compact(R: Any, want: list = want, ok: bool = ok) -> None:
            brute.require(ok, f"compact strides {want} past 64 bits were accepted as {R}")
            brute.require(R.stride == tuple(want), f"compact layout {R}, want strides {want}")
            check_built(R, "Layout")

        tag = cutepy.LayoutRight if right else cutepy.LayoutLeft
        return Case("edge64", "compact", f"Layout({shape}, {tag})", lambda: Layout(shape, tag),
                    check_compact, malformed=not ok)
    if kind < 0.8:  # exact offsets at any stride (a float length once cut them short)
        s = rng.randint(1, 6)
        L = Layout(s, rng.choice([rng.choice(EDGE_LEAVES), -rng.choice(EDGE_LEAVES)]))
        X: Any = L
        if rng.random() < 0.4:
            X = ComposedLayout(Swizzle(rng.randint(0, 3), rng.randint(0, 4), 3),
                               rng.choice([0, 1, 2**62, -(2**62), MAX_LEAF - 4, -MAX_LEAF]), L)
        want = brute.table(X)
        reach = [X.offset + L(i) for i in range(s)] if isinstance(X, ComposedLayout) else want
        fits = all(-MAX_LEAF <= v <= MAX_LEAF for v in want + reach)

        def check_off(R: Any, X: Any = X, want: list = want, fits: bool = fits) -> None:
            brute.require(fits, f"{X}.offsets() passed int64 and gave {R.tolist()}")
            brute.require(R.tolist() == want, f"{X}.offsets() = {R.tolist()}, want {want}")

        return Case("edge64", "offsets", f"{py(X)}.offsets()", lambda: X.offsets(), check_off,
                    malformed=not fits)
    if kind < 0.9:  # text with numbers near the edge
        pool = EDGE_LEAVES + [2**63, 2**64, 1099516127776]
        leaves = [str(rng.choice(pool)) for _ in range(rng.randint(1, 4))]
        text = "(" + ",".join(leaves) + ")"
        if rng.random() < 0.3:
            text = f"Sw<3,3,3> o {rng.choice([2**62, 2**63 - 1, 2**63, -(2**63)])} o {text}"
        elif rng.random() < 0.3:
            text = "(" + ",".join(["2"] * rng.choice([10, 63, 64, 1000, 20000])) + ")"

        def check_text(R: Any, text: str = text) -> None:
            check_built(R, f"parse({text[:60]!r})")

        return Case("edge64", "parse", call_repr("cutepy.parse", text), lambda: cutepy.parse(text),
                    check_text,
                    malformed=True)
    # XLA shapes whose tiles pass 64 bits
    from cutepy import xla

    big = rng.choice([2**20, 2**40, 2**62, 4611686018427387904, 1099511627776])
    text = rng.choice([
        f"s32[1,1]{{0,1:T(8)(2,*,1,2,8)(8,2,{big},8,{big})}}",
        f"s64[]{{:T(4)(128,{big},8,8)(128,{big},256,8)}}",
        f"f32[4,4]{{1,0:T({big})}}", f"f32[3,5]{{1,0:T(2,{big})}}", f"u32[]{{:T({big})}}",
        f"f32[{big},2]{{1,0:T(8,128)}}",
    ])
    op = rng.choice(["compile", "report", "offsets_at", "linear_index", "xla_svg", "pack"])
    if op == "pack" and f"[{big}," in text:  # the harness would build the huge logical array itself
        op = "compile"

    def call_x() -> Any:
        if op == "compile":
            return xla.compile_details(text)
        if op == "report":
            return xla.report(text)
        if op == "xla_svg":
            from cutepy import viz

            return viz.xla_svg(text)
        if op == "pack":
            arr = xla.parse_shape(text)
            return xla.pack(np.zeros(arr.bounds, np.uint32 if text[0] in "uf" else np.int64), text)
        if op == "offsets_at":
            c = xla.compile_details(text)
            zero = (0,) * len(c.logical_shape)
            return c, c.offsets_at([list(zero)]), xla.linear_index(text, zero)
        return xla.linear_index(text, (0,) * xla.parse_shape(text).rank)

    def check_x(R: Any) -> None:
        if op == "compile":
            built = R.layout if isinstance(R.layout, Layout) else tuple(R.layout.stages)
            check_built(built, f"compile({text})")
        elif op == "offsets_at":
            c, got, want = R
            brute.require(int(got[0]) == want, f"offsets_at of {text} at 0 is {got}, linear_index {want}")
        elif op in ("report", "xla_svg"):
            brute.require(isinstance(R, str) and len(R) < MAX_TEXT, f"{op}({text}): not elided text")

    return Case("edge64", f"xla.{op}", f"xla {op} {text!r}", call_x, check_x)


NP_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.intp]


def gen_numpy(rng: random.Random) -> Case:
    """numpy arguments: its integers are integers (the same answer as the ``int``), anything else
    (arrays of several values, floats, bools) a CutepyError."""
    t = rng.choice(NP_TYPES)
    A = rlayout(rng, 64, neg=False)
    r = brute.rank(A)
    kind = rng.random()

    def np_tuple(x: Any, conv: Callable[[int], Any]) -> Any:
        return tuple(np_tuple(v, conv) for v in x) if isinstance(x, tuple) else conv(x)

    if kind < 0.3:  # numpy integers as leaves: the same layout
        same_rng = rng.random() < 0.5
        conv: Callable[[int], Any] = (lambda v: t(v)) if same_rng else (lambda v: np.array(v, dtype=t))

        def check_same(R: Any) -> None:
            brute.require(R == A and hash(R) == hash(A) and str(R) == str(A),
                          f"numpy leaves gave {R}, want {A}")
            brute.require(all(type(x) is int for x in brute.leaves(R.stride)), f"{R} keeps numpy leaves")

        return Case("numpy", "Layout",
                    f"Layout(np_tuple({py(A.shape)}), np_tuple({py(A.stride)})) as {t.__name__}",
                    lambda: Layout(np_tuple(A.shape, conv), np_tuple(A.stride, conv)), check_same)
    if kind < 0.45:  # arrays, floats and bools are not integers
        bad = rng.choice([np.array([2, 3]), np.array([[1]]), np.float64(2.0), np.bool_(True), np.array([]),
                          np.array(2.5), np.float32(4)])
        where = rng.choice(["shape", "stride", "both", "offset", "index", "n"])

        def call_bad() -> Any:
            if where == "shape":
                return Layout((2, bad), (1, 2))
            if where == "stride":
                return Layout((2, 3), (1, bad))
            if where == "both":
                return Layout(bad, bad)
            if where == "offset":
                return ComposedLayout(Swizzle(1, 0, 1), bad, A)
            if where == "index":
                return A[bad]
            return cutepy.append(A, None, bad)

        return Case("numpy", f"bad {where}", f"{where} = {py(bad)} for {py(A)}", call_bad, None,
                    malformed=True)
    # numpy integers as the other arguments of the algebra: the same answer as the ints
    i = rng.randrange(r)
    ops: list[tuple[str, Callable[[Any], Any]]] = [
        ("get", lambda c: cutepy.get(A, c(i))), ("getitem", lambda c: A[c(i)]),
        ("select", lambda c: cutepy.select(A, c(i))), ("take", lambda c: cutepy.take(A, c(0), c(i + 1))),
        ("group", lambda c: cutepy.group(A, c(0), c(i + 1))),
        ("append", lambda c: cutepy.append(A, None, c(r + 2))),
        ("prepend", lambda c: cutepy.prepend(A, None, c(r + 1))),
        ("complement", lambda c: cutepy.complement(cutepy.filter(A), c(brute.cosize(A) * 2))),
        ("composition", lambda c: cutepy.composition(A, c(brute.size(A)))),
        ("logical_divide", lambda c: cutepy.logical_divide(A, c(1))),
        ("upcast", lambda c: cutepy.upcast(A, c(1))), ("downcast", lambda c: cutepy.downcast(A, c(2))),
        ("tile_to_shape", lambda c: cutepy.tile_to_shape(A, np_tuple(A.shape, c))),
        ("call", lambda c: A(c(rng_i))),
        ("offsets", lambda c: A.offsets(np.array([rng_i], dtype=t)).tolist()),
        ("make_ordered_layout", lambda c: cutepy.make_ordered_layout(np_tuple(A.shape, c))),
        ("slice", lambda c: cutepy.slice_and_offset(c(rng_i), A)),
        ("crd2idx", lambda c: cutepy.crd2idx(c(rng_i), np_tuple(A.shape, c), np_tuple(A.stride, c))),
    ]
    rng_i = rng.randrange(brute.size(A))
    name, f = rng.choice(ops)

    def fitted(v: int) -> Any:  # a value of the drawn numpy type, or int64 where it does not fit
        info = np.iinfo(t)
        return t(v) if info.min <= v <= info.max else np.int64(v)

    def call_np() -> Any:
        try:
            want: Any = ("ok", f(int))
        except CutepyError as e:
            want = ("error", type(e).__name__)
        try:
            got: Any = ("ok", f(fitted))
        except CutepyError as e:
            got = ("error", type(e).__name__)
        return want, got

    def check_np(R: Any) -> None:
        want, got = R
        brute.require(str(want) == str(got), f"{name} with {t.__name__}: {got}, with int: {want}")

    return Case("numpy", name, f"{name} on {py(A)} with {t.__name__} arguments", call_np, check_np)


# an operation must finish within this many seconds at any rank the generator draws (20000 at most)
RANK_SECONDS = 2.0


def gen_ranks(rng: random.Random) -> Case:
    """Huge ranks: mostly size-1 modes (any number of them is a fine layout), a few real ones.
    Each operation is near-linear: it must answer within RANK_SECONDS, and right."""
    r = rng.choice([1000, 4000, 8000, 20000])
    shape = [1] * r
    for _ in range(rng.randint(0, 3)):  # at most 64 elements: the model's checks stay cheap
        shape[rng.randrange(r)] = rng.choice([2, 3, 4])
    stride = [rng.choice([0, 1, 2, 4, rng.randint(0, 10**6)]) for _ in range(r)]
    A = Layout(tuple(shape), tuple(stride))
    small = rinjective(rng, 8)
    ops: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {
        "str+parse": (lambda: cutepy.parse(str(A)), lambda R: brute.require(R == A, "parse(str(A)) != A")),
        "Layout(shape)": (lambda: Layout(tuple(shape)), lambda R: check_built(R, "Layout(shape)")),
        "LayoutRight": (lambda: Layout(tuple(shape), cutepy.LayoutRight),
                        lambda R: check_built(R, "LayoutRight")),
        "offsets": (lambda: A.offsets(), lambda R: brute.require(R.tolist() == brute.table(A), "offsets")),
        "make_layout_like": (lambda: cutepy.make_layout_like(A), lambda R: valid(R, "make_layout_like")),
        "make_ordered_layout": (lambda: cutepy.make_ordered_layout(tuple(shape), tuple(stride)),
                                lambda R: valid(R, "make_ordered_layout")),
        "max_common_vector": (lambda: cutepy.max_common_vector(A, A),
                              lambda R: brute.check_max_common_vector(R, A, A)),
        "coalesce": (lambda: cutepy.coalesce(A), lambda R: brute.check_coalesce(R, A)),
        "filter": (lambda: cutepy.filter(A), lambda R: brute.check_filter(R, A)),
        "composition": (lambda: cutepy.composition(A, small),
                        lambda R: brute.check_composition(R, A, small)),
        "right_inverse": (lambda: cutepy.right_inverse(A), lambda R: brute.check_right_inverse(R, A)),
        "append": (lambda: cutepy.append(A, None, r + 3),
                   lambda R: brute.require(brute.rank(R) == r + 3, "rank")),
        "hash+eq": (lambda: hash(A) == hash(Layout(A.shape, A.stride)), lambda R: brute.require(R, "hash")),
        "flatten+size+cosize": (lambda: (cutepy.flatten(A), cutepy.size(A), cutepy.cosize(A)),
                                lambda R: brute.require(R[1] == brute.size(A) and R[2] == brute.cosize(A),
                                                        "size")),
        "logical_divide": (lambda: cutepy.logical_divide(A, Layout(1)),
                           lambda R: brute.check_same_image(R, A, "logical_divide")),
    }
    name = rng.choice(sorted(ops))
    fn, law = ops[name]

    def call_timed() -> Any:
        t0 = time.perf_counter()
        R = fn()
        return R, time.perf_counter() - t0

    def check_timed(R: Any) -> None:
        value, seconds = R
        brute.require(seconds < RANK_SECONDS, f"{name} took {seconds:.2f} s at rank {r}")
        law(value)

    return Case("ranks", name, f"{name} at rank {r} (seeded layout of {r} modes)", call_timed, check_timed)


GENERATORS: dict[str, Callable[[random.Random], Case]] = {
    "parse": gen_parse, "construct": gen_construct, "evaluate": gen_evaluate, "algebra": gen_algebra,
    "xla": gen_xla, "proofs": gen_proofs, "symbolic": gen_symbolic, "programs": gen_programs,
    "pictures": gen_pictures, "cli": gen_cli, "threads": gen_threads, "edge64": gen_edge64,
    "numpy": gen_numpy, "ranks": gen_ranks,
}
# relative weights: the cheap, varied surfaces get more calls
WEIGHTS = {"parse": 12, "construct": 10, "evaluate": 8, "algebra": 30, "xla": 12, "proofs": 6,
           "symbolic": 4, "programs": 5, "pictures": 5, "cli": 6, "threads": 1, "edge64": 10, "numpy": 8,
           "ranks": 2, **kernel_surfaces.WEIGHTS}
for _name, _gen in kernel_surfaces.GENERATORS.items():
    GENERATORS[_name] = (lambda g: lambda rng: g(rng, Case))(_gen)


# -- the runner ---------------------------------------------------------------------------------


def _alarm(_signum: int, _frame: Any) -> None:
    raise Timeout()


def run_case(case: Case, timeout: float) -> tuple[str, str]:
    use_alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    phase = "call"
    try:
        try:
            result = case.call()
            phase = "check"
            if case.check is None:
                if case.malformed:
                    return "wrong", f"malformed input accepted: {py(result)[:200]}"
                return "ok", ""
            case.check(result)
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
        return "ok", ""
    except Timeout:
        where = " (in the harness's check)" if phase == "check" else ""
        return "hang", f"no answer within {timeout} s{where}"
    except brute.TooBig:
        return "ok", ""
    except brute.WrongAnswer as e:
        return "wrong", str(e)
    except CutepyError:
        return "error", ""
    except RecursionError as e:
        return "crash", f"RecursionError: {str(e)[:200]}"
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        try:
            msg = str(e)
        except Exception:  # noqa: BLE001
            msg = "<unprintable>"
        return "crash", f"{type(e).__name__}: {msg[:250]}"
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old)


def fuzz(n: int, seed: int, timeout: float = 5.0, surfaces: tuple[str, ...] = SURFACES,
         progress: bool = False, trace: bool = False) -> Report:
    rng = random.Random(seed)
    names = [s for s in SURFACES if s in surfaces]
    weights = [WEIGHTS[s] for s in names]
    report = Report()
    t0 = time.monotonic()
    for k in range(n):
        surface = rng.choices(names, weights)[0]
        case_rng = random.Random(rng.getrandbits(64))
        try:
            case = GENERATORS[surface](case_rng)
        except CutepyError as e:  # a generator built something cutepy rejects: a harness bug
            case = Case(surface, "generator", "", lambda e=e: (_ for _ in ()).throw(RuntimeError(str(e))))
        if trace:
            print(f"[{k}] {case.surface}/{case.op}: {case.repro[:200]}", file=sys.stderr, flush=True)
        kind, detail = run_case(case, timeout)
        report.add(case, kind, detail)
        if progress and (k + 1) % 1000 == 0:
            print(f"  {k + 1}/{n} calls, {time.monotonic() - t0:.0f} s, {len(report.findings)} findings",
                  file=sys.stderr, flush=True)
    return report


def distinct(findings: list) -> list:
    """One finding per (surface, op, kind, first words of the detail)."""
    seen: dict = {}
    for f in findings:
        key = (f["surface"], f["op"], f["kind"], " ".join(f["detail"].split()[:4]))
        if key not in seen:
            seen[key] = dict(f, count=0)
        seen[key]["count"] += 1
    return list(seen.values())


def format_report(report: Report) -> str:
    head = ("surface", "calls", "ok", "error", "crash", "hang", "wrong")
    lines = [f"{head[0]:10s} {head[1]:>7s} {head[2]:>7s} {head[3]:>7s} {head[4]:>6s} {head[5]:>5s} "
             f"{head[6]:>6s}"]
    total = dict.fromkeys(("calls", "ok", "error", "crash", "hang", "wrong"), 0)
    for s, c in report.counts.items():
        lines.append(f"{s:10s} {c['calls']:7d} {c['ok']:7d} {c['error']:7d} {c['crash']:6d} {c['hang']:5d} "
                     f"{c['wrong']:6d}")
        for k in total:
            total[k] += c[k]
    t = total
    lines.append(f"{'total':10s} {t['calls']:7d} {t['ok']:7d} {t['error']:7d} {t['crash']:6d} {t['hang']:5d} "
                 f"{t['wrong']:6d}")
    for f in distinct(report.findings):
        lines.append(f"  [{f['kind']} x{f['count']}] {f['surface']}/{f['op']}: {f['repro'][:300]}\n"
                     f"      -> {f['detail'][:300]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="seeded fuzzing of every cutepy surface")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per call before it counts as a hang")
    ap.add_argument("--surface", action="append", choices=SURFACES, help="only these surfaces")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--trace", action="store_true", help="print each case before running it")
    args = ap.parse_args(argv)
    sys.set_int_max_str_digits(4300)
    report = fuzz(args.n, args.seed, args.timeout, tuple(args.surface or SURFACES), args.progress,
                  args.trace)
    if args.json:
        print(json.dumps({"counts": report.counts, "findings": distinct(report.findings)}))
    else:
        print(f"seed {args.seed}, {args.n} calls, timeout {args.timeout} s per call")
        print(format_report(report))
    bad = sum(c["crash"] + c["hang"] + c["wrong"] for c in report.counts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
