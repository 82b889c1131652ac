"""Seeded random cases of every layout-algebra operation, as cutepy calls and as C++ CuTe text.

``generate(n, seed)`` draws ``n`` cases spread over every operation in ``OPERATIONS``; each
case knows how to compute cutepy's answer and the C++ statement that prints C++'s. The
C++ side uses static integers (``Int<4>{}``), so C++ prints ``_4``; ``cxx_harness.normalise``
drops the markers before the comparison. ``classify`` sorts each case into

- ``exact``: cutepy prints what C++ prints (or both reject the input);
- ``cxx-wrong``: C++ answers, but its answer breaks the operation's definition (checked
  point by point), and cutepy raises ``AdmissibilityError`` as it must;
- ``other-form``: the same function, printed another way (a bug: C++'s form is the reference);
- ``fail``: anything else.

Used by tests/cxx/test_differential.py (a seeded sample) and benchmarks/cxx_differential.py.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cutepy as cp
from cutepy import ComposedLayout, Layout, Swizzle
from cutepy.core import inttuple as it
from cutepy.core.basis import ScaledBasis
from cutepy.core.errors import AdmissibilityError, CutepyError

# -- C++ text ------------------------------------------------------------------------------


def cx(x: Any) -> str:
    """C++ CuTe text for a cutepy value (static integers, basis strides)."""
    if x is None:
        return "_"
    if type(x) is int:
        return f"Int<{x}>{{}}"
    if isinstance(x, ScaledBasis):  # a basis stride: Int<v>{} * E<i,j,...>{}
        e = "E<" + ",".join(map(str, x.mode)) + ">{}"
        return e if x.value == 1 else f"{cx(x.value)}*{e}"
    if type(x) is tuple:
        return "make_shape(" + ", ".join(cx(v) for v in x) + ")"
    if type(x) is Layout:
        return f"make_layout({cx(x.shape)}, {cx(x.stride)})"
    if type(x) is Swizzle:
        return f"Swizzle<{x.bits},{x.base},{x.shift}>{{}}"
    if type(x) is ComposedLayout:
        return f"make_composed_layout({cx(x.outer)}, {cx(x.offset)}, {cx(x.inner)})"
    raise TypeError(x)


def cx_tiler(t: Any) -> str:
    if type(t) is tuple:
        return "make_tile(" + ", ".join(cx_tiler(v) for v in t) + ")"
    return cx(t)


def show(x: Any) -> str:
    """cutepy's answer printed as C++ prints it once normalised (tuples without spaces)."""
    if type(x) is tuple:
        return "(" + ",".join(show(v) for v in x) + ")"
    if type(x) is bool:
        return "true" if x else "false"
    return str(x)


def print_mismatches(harness: Any, cases: list, keyed: bool = False) -> list[str]:
    """``(name, thunk, C++ statement[, valid])`` cases run through C++ (``harness`` is
    tests/cxx/cxx_harness.py): one line for each case where cutepy's answer prints otherwise than
    C++'s, or where one of the two refuses (cutepy raises CutepyError, C++ does not compile)
    and the other answers. With ``valid`` (a check of the operation's definition on C++'s
    answer, parsed), cutepy may refuse where C++'s answer breaks it. ``keyed`` compiles the
    cases cutepy refuses in units of their own (they are the ones C++ may reject)."""
    answers = []
    for case in cases:
        try:
            answers.append((True, case[1]()))
        except CutepyError as e:
            answers.append((False, e))
    keys = [ok for ok, _ in answers] if keyed else None
    results = harness.run_cases([c[2] for c in cases], keys=keys)
    bad = []
    for case, (ok, got), r in zip(cases, answers, results):
        name, valid = case[0], (case[3] if len(case) > 3 else None)
        if ok and (not r.ok or show(got) != harness.normalise(r.output)):
            bad.append(f"{name}: cutepy {show(got)}, C++ {r.output or r.error[:300]}")
        elif not ok and r.ok and (valid is None or valid(cp.parse(harness.normalise(r.output)))):
            bad.append(f"{name}: cutepy raises {got}, C++ prints {r.output}")
    return bad


# -- random values -------------------------------------------------------------------------

_LEAVES = (1, 2, 2, 2, 3, 4, 4, 4, 6, 8)


def rand_shape(r: random.Random, max_leaves: int = 4, max_depth: int = 2, leaves=_LEAVES) -> Any:
    n = r.randint(1, max_leaves)
    flat = [r.choice(leaves) for _ in range(n)]
    if n == 1 and r.random() < 0.5:
        return flat[0]
    return _nest(r, flat, max_depth)


def _nest(r: random.Random, flat: list, depth: int) -> tuple:
    if depth <= 1 or len(flat) <= 1 or r.random() < 0.5:
        return tuple(flat)
    out, i = [], 0
    while i < len(flat):
        k = r.randint(1, len(flat) - i)
        out.append(_nest(r, flat[i:i + k], depth - 1) if k > 1 else flat[i])
        i += k
    return tuple(out)


def compact_strides(r: random.Random, shape: Any, gaps: bool = False, zeros: bool = False,
                    negative: bool = False) -> Any:
    """Strides that tile (a random order of the leaves), with optional gaps, zeros and signs."""
    fs = it.flatten_tuple(shape) if type(shape) is tuple else (shape,)
    order = list(range(len(fs)))
    r.shuffle(order)
    strides = [0] * len(fs)
    acc = 1
    for k in order:
        if gaps and r.random() < 0.3:
            acc *= r.choice((2, 3))
        strides[k] = acc
        acc *= fs[k]
        if zeros and r.random() < 0.2:
            strides[k] = 0
        if negative and r.random() < 0.4:
            strides[k] = -strides[k]
    return it.unflatten_tuple(tuple(strides), shape) if type(shape) is tuple else strides[0]


def rand_layout(r: random.Random, kind: str | None = None, max_leaves: int = 4) -> Layout:
    kind = kind or r.choice(("compact", "compact", "gaps", "zeros", "negative", "random"))
    shape = rand_shape(r, max_leaves)
    if kind == "random":
        fs = it.flatten_tuple(shape) if type(shape) is tuple else (shape,)
        flat = tuple(r.choice((0, 1, 2, 3, 4, 6, 8, 12, 16, -1, -2)) for _ in fs)
        stride = it.unflatten_tuple(flat, shape) if type(shape) is tuple else flat[0]
    else:
        stride = compact_strides(r, shape, gaps=kind in ("gaps", "zeros"), zeros=kind == "zeros",
                                 negative=kind == "negative")
    return Layout(shape, stride)


def rand_swizzle(r: random.Random) -> Swizzle:
    b = r.randint(1, 3)
    m = r.randint(0, 3)
    s = r.choice((b, b + 1, -b)) if r.random() < 0.3 else b
    return Swizzle(b, m, s)


def rand_swizzled(r: random.Random) -> ComposedLayout:
    """``Sw o 0 o L`` with a compact L large enough for the swizzle to act on."""
    sw = rand_swizzle(r)
    need = 1 << (sw.base + sw.bits + abs(sw.shift))
    for _ in range(20):
        shape = rand_shape(r, 3, 2, (2, 4, 8))
        if it.product(shape) >= need:
            break
    else:
        shape = (need // 8, 8) if need >= 16 else need
    stride = compact_strides(r, shape)
    return ComposedLayout(sw, 0, Layout(shape, stride))


def any_layout(r: random.Random) -> Any:
    return rand_swizzled(r) if r.random() < 0.2 else rand_layout(r)


def divisor_layout(r: random.Random, n: int) -> Layout:
    """A layout of size dividing ``n`` with strides that tile inside ``n`` (an admissible tiler)."""
    divs = [d for d in range(1, n + 1) if n % d == 0]
    size = r.choice(divs)
    # split size into factors, then give them compact strides over a sub-grid of n
    parts, rest = [], size
    while rest > 1 and len(parts) < 3:
        ds = [d for d in range(2, rest + 1) if rest % d == 0]
        d = r.choice(ds)
        parts.append(d)
        rest //= d
    if not parts:
        parts = [1]
    shape = tuple(parts) if len(parts) > 1 or r.random() < 0.5 else parts[0]
    stride = compact_strides(r, shape, gaps=r.random() < 0.3)
    L = Layout(shape, stride)
    if L.cosize() > n:
        return Layout(shape)
    return L


# -- cases ---------------------------------------------------------------------------------


@dataclass
class Case:
    op: str
    args: tuple
    py: Callable[[], Any]
    cxx: str
    # the operation's definition, checked on C++'s answer: tells "C++ is wrong" from "cutepy is wrong"
    valid: Callable[[Any], bool] | None = None
    notes: dict = field(default_factory=dict)


def _offsets(L: Any) -> list:
    return [L(i) for i in range(L.size())]


def _compose_ref(A: Any, B: Any) -> Callable[[Any], bool]:
    """R(i) == A(B(i)) on B's domain."""
    return lambda R: R.size() == B.size() and _offsets(R) == [A(B(i)) for i in range(B.size())]


def _by_mode_ref(A: Layout, T: tuple) -> Callable[[Any], bool]:
    """Mode i of R is A_i o T_i."""
    def ok(R: Any) -> bool:
        modes = list(A) if type(A.shape) is tuple else [A]
        if type(R.shape) is not tuple or len(R.shape) != len(T):
            return False
        for i, t in enumerate(T):
            Ri, Ai = R[i], modes[i]
            Bi = Ai if t is None else (Layout(t) if type(t) is int else t)
            want = [Ai(i_) for i_ in range(Ai.size())] if t is None else [Ai(Bi(j)) for j in range(Bi.size())]
            if Ri.size() != len(want) or _offsets(Ri) != want:
                return False
        return True
    return ok


def _product_offsets(A: Layout, B: Any) -> list:
    """logical_product(A, B)'s offsets by definition: A(i) + complement(A, size(A)*cosize(B))(B(j))."""
    if type(B) is tuple:
        modes = list(A) if type(A.shape) is tuple else [A]
        parts = [_product_offsets(m, t) for m, t in zip(modes, B)] + [_offsets(m) for m in modes[len(B):]]
        out = [0]
        for p in parts:
            out = [x + y for x in out for y in p]
        return out
    B = Layout(B) if type(B) is int else B
    C = cp.complement(A, A.size() * B.cosize())
    return [A(i) + C(B(j)) for j in range(B.size()) for i in range(A.size())]


def _product_ref(A: Any, B: Any) -> Callable[[Any], bool]:
    """Every product re-arranges logical_product's offsets."""
    inner = A.inner if type(A) is ComposedLayout else A
    outer = (lambda x: A.outer(A.offset + x)) if type(A) is ComposedLayout else (lambda x: x)
    return lambda R: sorted(_offsets(R)) == sorted(outer(x) for x in _product_offsets(inner, B))


def _reindex_ref(A: Any) -> Callable[[Any], bool]:
    """A divide re-indexes A: the same offsets, each as often."""
    return lambda R: R.size() == A.size() and sorted(_offsets(R)) == sorted(_offsets(A))


def _tiler_tuple(r: random.Random, A: Layout, with_none: bool = True) -> tuple:
    modes = list(A) if type(A.shape) is tuple else [A]
    k = r.randint(1, len(modes))
    out = []
    for m in modes[:k]:
        c = r.random()
        if with_none and c < 0.15:
            out.append(None)
        elif c < 0.5:
            out.append(r.choice([d for d in range(1, m.size() + 1) if m.size() % d == 0]))
        else:
            out.append(divisor_layout(r, m.size()))
    return tuple(out)


def _case_coalesce(r):
    A = any_layout(r)
    if type(A) is Layout and type(A.shape) is tuple and r.random() < 0.4:
        prof = tuple(1 if type(s) is int or r.random() < 0.5 else tuple(1 for _ in s) for s in A.shape)
        prof = prof[: r.randint(1, len(prof))]
        return Case("coalesce(profile)", (A, prof), lambda: cp.coalesce(A, prof),
                    f"print(coalesce({cx(A)}, {cx(prof)}));")
    return Case("coalesce", (A,), lambda: cp.coalesce(A), f"print(coalesce({cx(A)}));")


def _case_filter(r):
    A = rand_layout(r)
    if r.random() < 0.5:
        return Case("filter", (A,), lambda: cp.filter(A), f"print(filter({cx(A)}));")
    from cutepy.algebra.coalesce import filter_zeros
    return Case("filter_zeros", (A,), lambda: filter_zeros(A), f"print(filter_zeros({cx(A)}));")


def _case_composition(r):
    c = r.random()
    if c < 0.35:
        A = rand_layout(r)
        B = divisor_layout(r, A.size()) if r.random() < 0.7 else rand_layout(r, "compact", 3)
        return Case("composition(L,L)", (A, B), lambda: cp.composition(A, B),
                    f"print(composition({cx(A)}, {cx(B)}));", _compose_ref(A, B))
    if c < 0.5:
        A = rand_layout(r)
        T = _tiler_tuple(r, A)
        return Case("composition(L,tiler)", (A, T), lambda: cp.composition(A, T),
                    f"print(composition({cx(A)}, {cx_tiler(T)}));", _by_mode_ref(A, T))
    if c < 0.65:
        C = rand_swizzled(r)
        B = divisor_layout(r, C.size())
        return Case("composition(CL,L)", (C, B), lambda: cp.composition(C, B),
                    f"print(composition({cx(C)}, {cx(B)}));", _compose_ref(C, B))
    if c < 0.8:
        C = rand_swizzled(r)
        A = Layout(rand_shape(r, 2, 1, (2, 4, 8, 16, 32)))
        while A.size() < C.cosize():
            A = Layout((A.size() * 2,))
        return Case("composition(L,CL)", (A, C), lambda: cp.composition(A, C),
                    f"print(composition({cx(A)}, {cx(C)}));", _compose_ref(A, C))
    if c < 0.92:
        sw = rand_swizzle(r)
        A = rand_layout(r, r.choice(("compact", "gaps")))
        return Case("composition(Sw,L)", (sw, A), lambda: cp.composition(sw, A),
                    f"print(composition({cx(sw)}, {cx(A)}));", _compose_ref(sw, A))
    sw = rand_swizzle(r)
    A = Layout(1 << (sw.base + sw.bits + abs(sw.shift)))
    return Case("composition(L,Sw)", (A, sw), lambda: cp.composition(A, sw),
                f"print(composition({cx(A)}, {cx(sw)}));")


def _case_complement(r):
    A = any_layout(r) if r.random() < 0.85 else rand_layout(r, "negative")
    c = r.random()
    if c < 0.3:
        return Case("complement", (A,), lambda: cp.complement(A), f"print(complement({cx(A)}));")
    if c < 0.8:
        n = r.choice((1, 2, 4, 8, 16, 24, 32, 64, 96, 128))
        return Case("complement(n)", (A, n), lambda: cp.complement(A, n),
                    f"print(complement({cx(A)}, {cx(n)}));")
    t = (r.choice((2, 4, 8)), r.choice((2, 4, 8, 16)))
    return Case("complement(shape)", (A, t), lambda: cp.complement(A, t),
                f"print(complement({cx(A)}, {cx(t)}));")


def _case_inverse(r):
    A = any_layout(r)
    if r.random() < 0.5:
        return Case("right_inverse", (A,), lambda: cp.right_inverse(A), f"print(right_inverse({cx(A)}));",
                    lambda R: [A(R(i)) for i in range(R.size())] == list(range(R.size())))
    return Case("left_inverse", (A,), lambda: cp.left_inverse(A), f"print(left_inverse({cx(A)}));",
                _quasi_inverse_ref(A))


def _quasi_inverse_ref(A: Any) -> Callable[[Any], bool]:
    """C++'s post-condition of ``left_inverse`` (layout.hpp): ``A(R(A(i))) == A(i)`` for every
    ``i < size(A)``; ``R(A(i)) == i`` follows when ``A`` is injective."""
    return lambda R: all(A(R(A(i))) == A(i) for i in range(A.size()))


_DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")
_PRODUCTS = ("logical_product", "zipped_product", "tiled_product", "flat_product")


def _case_divide(r):
    op = r.choice(_DIVIDES)
    A = any_layout(r)
    fn = getattr(cp, op)
    if r.random() < 0.5 or type(A.shape) is not tuple:
        T = divisor_layout(r, A.size()) if r.random() < 0.8 else r.choice(
            [d for d in range(1, A.size() + 1) if A.size() % d == 0])
        return Case(f"{op}(layout)", (A, T), lambda: fn(A, T), f"print({op}({cx(A)}, {cx_tiler(T)}));",
                    _reindex_ref(A))
    inner = A.inner if type(A) is ComposedLayout else A
    T = _tiler_tuple(r, inner, with_none=op == "logical_divide")
    return Case(f"{op}(tiler)", (A, T), lambda: fn(A, T), f"print({op}({cx(A)}, {cx_tiler(T)}));",
                _reindex_ref(A))


def _case_product(r):
    op = r.choice(_PRODUCTS + ("blocked_product", "raked_product"))
    A = any_layout(r) if r.random() < 0.8 else rand_layout(r, "compact", 3)
    fn = getattr(cp, op)
    if op in ("blocked_product", "raked_product"):
        B = rand_layout(r, r.choice(("compact", "gaps", "zeros")), 3)
        return Case(op, (A, B), lambda: fn(A, B), f"print({op}({cx(A)}, {cx(B)}));", _product_ref(A, B))
    if r.random() < 0.6 or type(A.shape) is not tuple or type(A) is ComposedLayout:
        B = rand_layout(r, r.choice(("compact", "gaps", "zeros")), 3)
        return Case(f"{op}(layout)", (A, B), lambda: fn(A, B), f"print({op}({cx(A)}, {cx(B)}));",
                    _product_ref(A, B))
    k = r.randint(1, len(A.shape))
    T = tuple(rand_layout(r, "compact", 2) if r.random() < 0.7 else r.choice((1, 2, 3, 4))
              for _ in range(k))
    return Case(f"{op}(tiler)", (A, T), lambda: fn(A, T), f"print({op}({cx(A)}, {cx_tiler(T)}));",
                _product_ref(A, T))


def _case_tile_to_shape(r):
    block = any_layout(r) if r.random() < 0.7 else rand_layout(r, "compact", 2)
    br = block.rank() if type(block.shape) is tuple else 1
    r_ = br + r.randint(0, 1)
    bshape = block.shape if type(block.shape) is tuple else (block.shape,)
    target = tuple((it.product(bshape[i]) if i < br else 1) * r.choice((1, 2, 3)) for i in range(r_))
    order = tuple(r.sample(range(r_), r_)) if r.random() < 0.4 else None
    scalar = r_ == 1 and order is None and r.random() < 0.5  # C++ wraps a scalar target: (n)
    inner = block.inner if type(block) is ComposedLayout else block
    padded = Layout(bshape + (1,) * (r_ - br), (inner.stride if br > 1 or type(inner.shape) is tuple
                                                 else (inner.stride,)) + (0,) * (r_ - br))
    copies_shape = tuple(t // it.product(s) for t, s in zip(target, padded.shape))
    copies = Layout(copies_shape, it.compact_major(copies_shape) if order is None
                    else it.compact_order_tuple(copies_shape, order))
    if type(block) is ComposedLayout:
        padded = ComposedLayout(block.outer, block.offset, padded)
    valid = _product_ref(padded, copies)
    if order is not None:
        return Case("tile_to_shape(order)", (block, target, order),
                    lambda: cp.tile_to_shape(block, target, order),
                    f"print(tile_to_shape({cx(block)}, {cx(target)}, {cx(order)}));", valid)
    if scalar:
        return Case("tile_to_shape", (block, target[0]), lambda: cp.tile_to_shape(block, target[0]),
                    f"print(tile_to_shape({cx(block)}, {cx(target[0])}));", valid)
    return Case("tile_to_shape", (block, target), lambda: cp.tile_to_shape(block, target),
                f"print(tile_to_shape({cx(block)}, {cx(target)}));", valid)


def _case_common(r):
    A = rand_layout(r, r.choice(("compact", "gaps", "negative")))
    shape = A.shape
    B = Layout(shape, compact_strides(r, shape, gaps=r.random() < 0.3))
    if r.random() < 0.2:
        A = rand_swizzled(r)
        B = Layout(A.shape, compact_strides(r, A.shape))
        A, B = (A, B) if r.random() < 0.5 else (B, A)
    if r.random() < 0.5:
        return Case("max_common_layout", (A, B), lambda: cp.max_common_layout(A, B),
                    f"print(max_common_layout({cx(A)}, {cx(B)}));")
    return Case("max_common_vector", (A, B), lambda: cp.max_common_vector(A, B),
                f"print(max_common_vector({cx(A)}, {cx(B)}));")


def _case_cast(r):
    A = any_layout(r) if r.random() < 0.85 else rand_layout(r, "negative")
    n = r.choice((1, 2, 4, 8))
    if r.random() < 0.5:
        return Case("upcast", (A, n), lambda: cp.upcast(A, n), f"print(upcast<{n}>({cx(A)}));")
    return Case("downcast", (A, n), lambda: cp.downcast(A, n), f"print(downcast<{n}>({cx(A)}));")


def _case_recast(r):
    from cutepy.algebra.casting import recast_layout
    A = rand_layout(r, r.choice(("compact", "gaps", "negative")))
    types = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}
    a, b = r.choice(tuple(types)), r.choice(tuple(types))
    return Case("recast_layout", (A, a, b), lambda: recast_layout(A, a, b),
                f"print(recast_layout<{types[a]}, {types[b]}>({cx(A)}));")


def _case_construct(r):
    c = r.random()
    from cutepy.algebra import casting
    if c < 0.25:
        A = rand_layout(r)
        return Case("make_layout_like", (A,), lambda: casting.make_layout_like(A),
                    f"print(make_layout_like({cx(A)}));")
    if c < 0.5:
        A = rand_layout(r)
        return Case("make_fragment_like", (A,), lambda: casting.make_fragment_like(A),
                    f"print(make_fragment_like({cx(A)}));")
    if c < 0.75:
        s = rand_shape(r)
        fs = it.flatten_tuple(s) if type(s) is tuple else (s,)
        flat = tuple(r.randint(0, len(fs)) for _ in fs)
        o = it.unflatten_tuple(flat, s) if type(s) is tuple else flat[0]
        return Case("make_ordered_layout", (s, o), lambda: casting.make_ordered_layout(s, o),
                    f"print(make_ordered_layout({cx(s)}, {cx(o)}));")
    s = rand_shape(r)
    if r.random() < 0.5:
        return Case("LayoutLeft", (s,), lambda: cp.make_layout(s, cp.LayoutLeft),
                    f"print(make_layout({cx(s)}, LayoutLeft{{}}));")
    return Case("LayoutRight", (s,), lambda: cp.make_layout(s, cp.LayoutRight),
                f"print(make_layout({cx(s)}, LayoutRight{{}}));")


def _case_nullspace(r):
    A = rand_layout(r, r.choice(("zeros", "random", "compact")))
    return Case("nullspace", (A,), lambda: cp.nullspace(A), f"print(nullspace({cx(A)}));")


def _rand_coord(r, shape, hier: bool) -> Any:
    if type(shape) is tuple:
        if not hier and r.random() < 0.3:
            return r.randrange(it.product(shape))
        return tuple(_rand_coord(r, s, hier) for s in shape)
    return r.randrange(shape)


def _case_coords(r):
    A = rand_layout(r)
    c = r.random()
    if c < 0.25:
        i = r.randrange(A.size() * (2 if r.random() < 0.3 else 1))
        return Case("idx2crd", (i, A.shape), lambda: it.idx2crd(i, A.shape),
                    f"print(idx2crd({cx(i)}, {cx(A.shape)}));")
    if c < 0.45:
        crd = _rand_coord(r, A.shape, r.random() < 0.5)
        return Case("crd2idx", (crd, A), lambda: it.crd2idx(crd, A.shape, A.stride),
                    f"print(crd2idx({cx(crd)}, {cx(A.shape)}, {cx(A.stride)}));")
    off = r.randrange(max(1, A.cosize()))
    if c < 0.6:
        return Case("get_hier_coord", (A, off), lambda: cp.get_hier_coord(A, off),
                    f"print({cx(A)}.get_hier_coord({cx(off)}));")
    if c < 0.75:
        return Case("get_flat_coord", (A, off), lambda: cp.get_flat_coord(A, off),
                    f"print({cx(A)}.get_flat_coord({cx(off)}));")
    if c < 0.85:
        return Case("get_1d_coord", (A, off), lambda: cp.get_1d_coord(A, off),
                    f"print({cx(A)}.get_1d_coord({cx(off)}));")
    crd = _rand_coord(r, A.shape, True)
    return Case("layout(crd)", (A, crd), lambda: A(crd), f"print({cx(A)}({cx(crd)}));")


def _slice_coord(r, shape) -> Any:
    if type(shape) is tuple:
        return tuple(_slice_coord(r, s) for s in shape)
    return None if r.random() < 0.5 else r.randrange(shape)


def _case_slice(r):
    A = any_layout(r)
    shape = A.shape
    if type(shape) is not tuple:
        crd = (None, ) if False else None
        crd = None
    crd = _slice_coord(r, shape) if type(shape) is tuple else None
    if type(shape) is tuple and all(x is not None for x in it.flatten_tuple(crd)):
        crd = (None,) + crd[1:]
    if type(shape) is not tuple:
        return Case("slice", (A, crd), lambda: A(None), f"print({cx(A)}(_));")
    c_crd = "make_coord(" + ", ".join(cx(x) if type(x) is not tuple else _cx_coord(x) for x in crd) + ")"
    if r.random() < 0.5:
        return Case("slice", (A, crd), lambda: A(crd), f"print(slice({c_crd}, {cx(A)}));")
    return Case("slice_and_offset", (A, crd), lambda: _slice_and_offset(A, crd),
                f"print(slice_and_offset({c_crd}, {cx(A)}));")


def _slice_and_offset(A: Any, crd: Any) -> Any:
    from cutepy.algebra.composed import slice_and_offset_swizzled
    if type(A) is ComposedLayout:
        return slice_and_offset_swizzled(crd, A)
    return cp.slice_and_offset(crd, A)


def _cx_coord(c: Any) -> str:
    if type(c) is tuple:
        return "make_coord(" + ", ".join(_cx_coord(x) for x in c) + ")"
    return cx(c)


def _case_swizzle_portion(r):
    from cutepy.algebra import swizzle
    C = rand_swizzled(r) if r.random() < 0.8 else rand_layout(r)
    if r.random() < 0.5:
        return Case("get_swizzle_portion", (C,), lambda: swizzle.get_swizzle_portion(C),
                    f"print(get_swizzle_portion({cx(C)}));")
    return Case("get_nonswizzle_portion", (C,), lambda: swizzle.get_nonswizzle_portion(C),
                f"print(get_nonswizzle_portion({cx(C)}));")


def _case_queries(r):
    complement = importlib.import_module("cutepy.algebra.complement")  # the module, not the function
    A = rand_layout(r)
    c = r.random()
    if c < 0.4:
        return Case("coshape", (A,), lambda: complement.coshape(A), f"print(coshape({cx(A)}));")
    if c < 0.7:
        return Case("cosize", (A,), lambda: A.cosize(), f"print(cosize({cx(A)}));")
    return Case("size", (A,), lambda: A.size(), f"print(size({cx(A)}));")


OPERATIONS: dict[str, tuple[float, Callable[[random.Random], Case]]] = {
    "coalesce": (1.0, _case_coalesce),
    "filter": (0.5, _case_filter),
    "composition": (2.0, _case_composition),
    "complement": (1.0, _case_complement),
    "inverse": (1.0, _case_inverse),
    "divide": (2.0, _case_divide),
    "product": (2.0, _case_product),
    "tile_to_shape": (0.7, _case_tile_to_shape),
    "common": (0.7, _case_common),
    "cast": (1.0, _case_cast),
    "recast": (0.4, _case_recast),
    "construct": (0.8, _case_construct),
    "nullspace": (0.4, _case_nullspace),
    "coords": (1.0, _case_coords),
    "slice": (0.6, _case_slice),
    "swizzle_portion": (0.4, _case_swizzle_portion),
    "queries": (0.4, _case_queries),
}


def generate(n: int, seed: int = 0) -> list[Case]:
    """``n`` cases, drawn from every family in proportion to its weight (each family at least once)."""
    r = random.Random(seed)
    names = list(OPERATIONS)
    weights = [OPERATIONS[k][0] for k in names]
    picks = names + r.choices(names, weights, k=max(0, n - len(names)))
    cases = []
    for name in picks[:n] if n >= len(names) else picks[:n]:
        cases.append(OPERATIONS[name][1](r))
    return cases


# -- comparison ----------------------------------------------------------------------------


@dataclass
class Verdict:
    case: Case
    kind: str  # exact | cxx-wrong | other-form | fail
    cutepy: str
    cxx: str


def _run_py(case: Case) -> tuple[str, BaseException | None]:
    try:
        return show(case.py()), None
    except CutepyError as e:
        return f"{type(e).__name__}: {e}", e
    except Exception as e:  # noqa: BLE001 - any other exception is a failure to report
        return f"CRASH {type(e).__name__}: {e}", e


def _same_function(a: str, b: str) -> bool:
    try:
        x, y = cp.parse(a), cp.parse(b)
    except CutepyError:
        return False
    try:
        return x.size() == y.size() and _offsets(x) == _offsets(y)
    except Exception:  # noqa: BLE001
        return False


def classify(case: Case, result) -> Verdict:
    from tests.cxx import cxx_harness

    py, err = _run_py(case)
    if not result.ok:
        cx_text = "C++ rejects: " + result.error.splitlines()[0][:300] if result.error else "C++ rejects"
        ok = isinstance(err, CutepyError)
        return Verdict(case, "exact" if ok else "fail", py, cx_text)
    want = cxx_harness.normalise(result.output)
    if err is None and py == want:
        return Verdict(case, "exact", py, want)
    if isinstance(err, CutepyError):
        try:
            parsed = cp.parse(want)
        except CutepyError:  # C++ printed no layout (e.g. a negative shape): C++ is wrong
            return Verdict(case, "cxx-wrong", py, want)
        if isinstance(err, AdmissibilityError) and case.valid is not None:
            try:
                if not case.valid(parsed):
                    return Verdict(case, "cxx-wrong", py, want)
            except Exception:  # noqa: BLE001 - C++'s answer cannot even be evaluated
                return Verdict(case, "cxx-wrong", py, want)
    if err is None and _same_function(py, want):
        return Verdict(case, "other-form", py, want)
    return Verdict(case, "fail", py, want)


def compile_cases(cases: list[Case]) -> list:
    """C++'s result for every case (those cutepy rejects in units of their own: C++ likely
    rejects them too, and a unit that fails to compile is compiled again without them)."""
    from tests.cxx import cxx_harness

    keys = [isinstance(_run_py(c)[1], Exception) for c in cases]
    return cxx_harness.run_cases([c.cxx for c in cases], keys=keys)


def run(cases: list[Case]) -> list[Verdict]:
    """Compile every case against the installed headers and classify."""
    return [classify(c, res) for c, res in zip(cases, compile_cases(cases))]


def table(verdicts: list[Verdict]) -> str:
    """Counts by operation: exact / cxx-wrong / other-form / fail."""
    counts: dict[str, Counter] = {}
    for v in verdicts:
        counts.setdefault(v.case.op, Counter())[v.kind] += 1
    kinds = ("exact", "cxx-wrong", "other-form", "fail")
    lines = [f"{'operation':28s} " + " ".join(f"{k:>10s}" for k in kinds)]
    total = Counter()
    for op in sorted(counts):
        total.update(counts[op])
        lines.append(f"{op:28s} " + " ".join(f"{counts[op][k]:10d}" for k in kinds))
    lines.append(f"{'TOTAL':28s} " + " ".join(f"{total[k]:10d}" for k in kinds))
    return "\n".join(lines)


# -- the C++ functions added for issue 10 item 7 (max_alignment, coprofile, domain_offset, ...) --


def _case_max_alignment(r):
    c = r.random()
    if c < 0.6:
        A = rand_layout(r, r.choice(("compact", "gaps", "negative", "zeros", "random")))
    elif c < 0.75:
        A = r.choice((rand_swizzle(r), rand_swizzle(r)))
    else:
        C = rand_swizzled(r)
        A = ComposedLayout(C.outer, r.choice((0, 0, 2, 4, 8, 12, 16, 32)), C.inner)
    return Case("max_alignment", (A,), lambda: cp.max_alignment(A), f"print(max_alignment({cx(A)}));")


def _cx_basis(d: Any) -> str:
    """C++ text of a basis stride ``v@m0@m1...`` (``E<m...>{} * Int<v>{}``)."""
    modes = ",".join(str(m) for m in d.mode)
    return f"(E<{modes}>{{}} * Int<{d.value}>{{}})"


def _case_coprofile(r):
    if r.random() < 0.5:
        A = rand_layout(r)
        return Case("coprofile", (A,), lambda: cp.coprofile(A), f"print(coprofile({cx(A)}));")
    shape = rand_shape(r, 3, 2)
    A = cp.make_identity_layout(shape)
    return Case("coprofile(identity)", (A,), lambda: cp.coprofile(A),
                f"print(coprofile(make_identity_layout({cx(shape)})));")


def _case_domain_offset(r):
    A = any_layout(r)
    if type(A) is ComposedLayout and r.random() < 0.5:
        A = ComposedLayout(A.outer, r.choice((0, 1, 4, 8)), A.inner)
    crd = _rand_coord(r, A.shape, r.random() < 0.7)
    return Case("domain_offset", (crd, A), lambda: cp.domain_offset(crd, A),
                f"print(domain_offset({_cx_coord(crd)}, {cx(A)}));")


def _case_domain_distribute(r):
    shape = rand_shape(r, 4, 2, (1, 2, 3, 4, 6, 8, 12, 15, 16, 64))
    b = r.choice((1, 2, 4, 6, 8, 16, 32, 64, 128, 1024))
    return Case("domain_distribute", (shape, b), lambda: cp.domain_distribute(shape, b),
                f"print(domain_distribute({cx(shape)}, {cx(b)}));")


def _case_crd2crd(r):
    src = rand_shape(r)
    n = it.product(src)
    dst = r.choice((n, (n,), src)) if r.random() < 0.4 else rand_shape(r)
    crd = _rand_coord(r, src, r.random() < 0.6)
    if type(crd) is tuple and type(src) is tuple and type(dst) is tuple and len(dst) != len(src):
        crd = r.randrange(n)
    return Case("crd2crd", (crd, src, dst), lambda: cp.crd2crd(crd, src, dst),
                f"print(crd2crd({_cx_coord(crd)}, {cx(src)}, {cx(dst)}));")


def _case_ceil_div_layout(r):
    target = rand_shape(r, 3, 1, (2, 4, 6, 8, 12, 16, 32))
    T = rand_layout(r, r.choice(("compact", "gaps")), 3)
    if r.random() < 0.3:
        return Case("evenly_divides", (target, T), lambda: cp.evenly_divides(target, T),
                    f"printf(evenly_divides({cx(target)}, {cx(T)}) ? \"true\" : \"false\");")
    return Case("ceil_div(layout)", (target, T), lambda: cp.ceil_div(target, T),
                f"print(ceil_div({cx(target)}, {cx(T)}));")


def _case_swizzle_functions(r):
    c = r.random()
    if c < 0.5:
        a = rand_swizzle(r)
        if r.random() < 0.8:  # the same shift (C++ merges only those), bits and base drawn
            b = Swizzle(r.randint(0, abs(a.shift)), r.randint(0, 4), a.shift)
        else:
            b = rand_swizzle(r)
        return Case("composition(Sw,Sw)", (a, b), lambda: cp.composition(a, b),
                    f"print(composition({cx(a)}, {cx(b)}));")
    sw = rand_swizzle(r) if r.random() < 0.9 else Swizzle(0, r.randint(0, 4), r.randint(0, 3))
    return Case("make_layout(Sw)", (sw,), lambda: cp.make_layout(sw), f"print(make_layout({cx(sw)}));")


def _swizzled_product_ref(A: Layout, T: ComposedLayout) -> Callable[[Any], bool]:
    """R(i, j) == A(i) + complement(A, size(A)*cosize(T))(T(j))."""
    def ok(R: Any) -> bool:
        C = cp.complement(A, A.size() * T.cosize())
        want = [A(i) + C(T(j)) for j in range(T.size()) for i in range(A.size())]
        return R.size() == len(want) and _offsets(R) == want
    return ok


def _case_product_by_swizzled(r):
    T = rand_swizzled(r)
    A = rand_layout(r, r.choice(("compact", "gaps")), 2)
    op = r.choice(("logical_product", "logical_product", "zipped_product", "tiled_product", "flat_product"))
    fn = getattr(cp, op)
    # with one layout as tiler, the zipped, tiled and flat forms only regroup logical_product's
    # modes: the same function of the 1-D index
    valid = _swizzled_product_ref(A, T)
    return Case(f"{op}(L,CL)", (A, T), lambda: fn(A, T), f"print({op}({cx(A)}, {cx(T)}));", valid)


def _case_inverse_offset(r):
    C = rand_swizzled(r)
    C = ComposedLayout(C.outer, r.choice((1, 2, 4, 8, 16, 32)), C.inner)
    n = C.size()
    js = sorted({0, 1, n // 2, n - 1})
    op = r.choice(("right_inverse", "left_inverse"))
    fn = getattr(cp, op)
    if op == "right_inverse":
        n_inv = cp.right_inverse(C.inner).size()
        valid = lambda R: all(C(R(j)) == j for j in range(n_inv))  # noqa: E731
    else:
        valid = _quasi_inverse_ref(C)
    try:
        fn(C)
    except AdmissibilityError:  # C++'s answer alone, checked against the post-condition
        return Case(f"{op}(offset)", (C,), lambda: fn(C), f"print({op}({cx(C)}));", valid)
    body = " ".join(f"print(R({j})); printf(\" \");" for j in js)
    return Case(f"{op}(offset)", (C,), lambda: _show_inverse(fn(C), js),
                f"auto R = {op}({cx(C)}); print(R); printf(\" | \"); {body}")


def _show_inverse(R: Any, js: list) -> str:
    return f"{R} | " + " ".join(f"{R(j)}" for j in js)


def _case_int_tuple_functions(r):
    s = rand_shape(r)
    c = r.random()
    if c < 0.2:
        return Case("compact_col_major", (s,), lambda: cp.compact_col_major(s),
                    f"print(compact_col_major({cx(s)}));")
    if c < 0.4:
        return Case("compact_row_major", (s,), lambda: cp.compact_row_major(s),
                    f"print(compact_row_major({cx(s)}));")
    if c < 0.6:
        fs = it.flatten_tuple(s) if type(s) is tuple else (s,)
        flat = tuple(r.randint(0, len(fs)) for _ in fs)
        o = it.unflatten_tuple(flat, s) if type(s) is tuple else flat[0]
        return Case("compact_order", (s, o), lambda: cp.compact_order(s, o),
                    f"print(compact_order({cx(s)}, {cx(o)}));")
    if c < 0.8:
        return Case("product_each", (s,), lambda: cp.product_each(s), f"print(product_each({cx(s)}));")
    b = tuple(r.choice((1, 2, 3, 4, 8)) for _ in range(r.randint(1, len(s)))) if type(s) is tuple \
        else r.choice((1, 2, 3, 4, 8))
    return Case("round_up", (s, b), lambda: cp.round_up(s, b), f"print(round_up({cx(s)}, {cx(b)}));")


def _case_comparisons(r):
    a = rand_shape(r, 3, 2, (0, 1, 2, 3, 4))
    b = _rand_like(r, a) if r.random() < 0.7 else rand_shape(r, 3, 2, (0, 1, 2, 3, 4))
    fam = r.choice(("elem", "lex", "colex"))
    op = f"{fam}_{r.choice(('less', 'leq', 'gtr', 'geq'))}"
    fn = getattr(cp, op)
    return Case(op, (a, b), lambda: fn(a, b), f'printf({op}({cx(a)}, {cx(b)}) ? "true" : "false");')


def _rand_like(r, t: Any) -> Any:
    """Same nesting as ``t`` (sometimes a mode longer), leaves redrawn around ``t``'s."""
    if type(t) is tuple:
        out = tuple(_rand_like(r, x) for x in t)
        return out + (r.randint(0, 4),) if r.random() < 0.1 else out
    return max(0, t + r.choice((-1, 0, 0, 1)))


def _case_composed_modes(r):
    C = rand_swizzled(r)
    C = ComposedLayout(C.outer, r.choice((0, 0, 4, 8)), C.inner)
    inner = C.inner
    rk = inner.rank() if type(inner.shape) is tuple else 1
    c = r.random()
    if c < 0.25 and type(inner.shape) is tuple:
        i = r.randrange(rk)
        return Case("get(CL)", (C, i), lambda: cp.get(C, i), f"print(get<{i}>({cx(C)}));")
    if c < 0.45 and type(inner.shape) is tuple:
        b = r.randrange(rk)
        e = r.randint(b + 1, rk)
        return Case("take(CL)", (C, b, e), lambda: cp.take(C, b, e), f"print(take<{b},{e}>({cx(C)}));")
    if c < 0.6 and type(inner.shape) is tuple:
        b = r.randrange(rk)
        e = r.randint(b, rk)
        return Case("group(CL)", (C, b, e), lambda: cp.group(C, b, e), f"print(group<{b},{e}>({cx(C)}));")
    if c < 0.8:
        x = rand_layout(r, "compact", 2)
        return Case("append(CL)", (C, x), lambda: cp.append(C, x),
                    f"print(append<{rk + 1}>({cx(C)}, {cx(x)}));")
    return Case("flatten(CL)", (C,), lambda: cp.flatten(C), f"print(flatten({cx(C)}));")


def _case_unflatten(r):
    s = rand_shape(r, 4, 2)
    flat = it.flatten_tuple(s) if type(s) is tuple else (s,)
    shape = flat if len(flat) > 1 or r.random() < 0.5 else flat[0]
    L = Layout(shape, compact_strides(r, shape))
    prof = it.unflatten_tuple((0,) * len(flat), s) if type(s) is tuple else 0
    return Case("unflatten", (L, prof), lambda: cp.unflatten(L, prof),
                f"print(unflatten({cx(L)}, {cx(prof)}));")


CFUNC_OPERATIONS: dict[str, tuple[float, Callable[[random.Random], Case]]] = {
    "comparisons": (0.3, _case_comparisons),
    "composed_modes": (0.3, _case_composed_modes),
    "unflatten": (0.2, _case_unflatten),
    "max_alignment": (0.5, _case_max_alignment),
    "coprofile": (0.3, _case_coprofile),
    "domain_offset": (0.3, _case_domain_offset),
    "domain_distribute": (0.3, _case_domain_distribute),
    "crd2crd": (0.3, _case_crd2crd),
    "ceil_div(layout)": (0.3, _case_ceil_div_layout),
    "swizzle_functions": (0.3, _case_swizzle_functions),
    "product_by_swizzled": (0.3, _case_product_by_swizzled),
    "inverse_offset": (0.3, _case_inverse_offset),
    "int_tuple_functions": (0.3, _case_int_tuple_functions),
}
# Not merged into OPERATIONS: 13 more families at the CI sample of 120 cases crowd out variants
# that tests/cxx/test_differential.py requires (logical_divide, ...). tests/algebra/test_cfuncs_cxx.py
# runs a seeded sample of these; ``generate_all`` draws from both tables (the slow runs).
ALL_OPERATIONS = {**OPERATIONS, **CFUNC_OPERATIONS}


def generate_all(n: int, seed: int = 0) -> list[Case]:
    """As :func:`generate`, over ``OPERATIONS`` and ``CFUNC_OPERATIONS`` together."""
    r = random.Random(seed)
    names = list(ALL_OPERATIONS)
    weights = [ALL_OPERATIONS[k][0] for k in names]
    picks = names + r.choices(names, weights, k=max(0, n - len(names)))
    return [ALL_OPERATIONS[name][1](r) for name in picks[:n]]
