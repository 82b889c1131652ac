"""Hypothesis strategies that generate layouts, for cutepy's own tests and for yours.

Requires ``hypothesis`` (installed with the ``test`` extra). Every strategy yields
plain-integer :class:`~cutepy.Layout` objects (or pairs) small enough to check
exhaustively.

>>> from hypothesis import given, settings
>>> from cutepy import composition
>>> from cutepy.strategies import composable_pairs
>>> @settings(deadline=None, max_examples=50)
... @given(composable_pairs())
... def test_composition(pair):
...     A, B = pair
...     R = composition(A, B)
...     assert all(R(i) == A(B(i)) for i in range(B.size()))
>>> test_composition()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

try:
    from hypothesis import strategies as st
except ImportError as exc:  # an ImportError (not a CutepyError): the module itself cannot load
    raise ImportError("cutepy.strategies needs hypothesis: pip install cutepy[test]") from exc

from .algebra import coalesce as _coalesce
from .algebra import composition as _composition
from .algebra import divides as _divides
from .algebra import inverse as _inverse
from .algebra import products as _products
from .algebra.complement import complement
from .algebra.composed import ComposedLayout, composed_parts
from .algebra.composition import is_admissible
from .core import inttuple as it
from .core.dynamic import dynamic
from .core.errors import CutepyError
from .core.layout import Layout
from .core.swizzle import Swizzle
from .symbolic import symbols as _symbols

__all__ = [
    "int_tuples",
    "shapes",
    "layouts",
    "injective_layouts",
    "tiling_layouts",
    "composable_pairs",
    "divisible_pairs",
    "complementable_pairs",
    "swizzles",
    "negative_stride_layouts",
    "swizzled_layouts",
    "offset_swizzled_layouts",
    "coordinates",
    "with_dynamic_leaves",
    "SymbolicCase",
    "symbolic_cases",
    "symbolic_pairs",
]

_SMALL = (1, 2, 2, 3, 4, 4, 6, 8)


@st.composite
def _nest(draw: Any, leaves: list, max_depth: int) -> Any:
    """Group a flat list of leaves into a random nested tuple (depth <= max_depth)."""
    if max_depth == 0 or len(leaves) <= 1 or not draw(st.booleans()):
        return tuple(leaves)
    out: list = []
    i = 0
    while i < len(leaves):
        k = draw(st.integers(1, len(leaves) - i))
        chunk = leaves[i : i + k]
        if k > 1:
            out.append(draw(_nest(chunk, max_depth - 1)))
        else:
            out.append(chunk[0])
        i += k
    return tuple(out)


def _profile_like(draw: Any, n: int, max_depth: int) -> Any:
    """A random nesting profile with ``n`` leaves (a scalar when n == 1 and drawn so)."""
    if n == 1 and draw(st.booleans()):
        return 0
    return draw(_nest([0] * n, max_depth))


def int_tuples(leaves: st.SearchStrategy | None = None, max_leaves: int = 4,
               max_depth: int = 2) -> st.SearchStrategy:
    """Nested integer tuples (or plain ints) with up to ``max_leaves`` leaves (default 1..8)."""
    leaves = st.integers(1, 8) if leaves is None else leaves

    @st.composite
    def build(draw: Any) -> Any:
        n = draw(st.integers(1, max_leaves))
        profile = _profile_like(draw, n, max_depth)
        flat = [draw(leaves) for _ in range(n)]
        return it.unflatten_tuple(flat, profile) if type(profile) is tuple else flat[0]

    return build()


def shapes(max_leaves: int = 4, max_depth: int = 2, max_size: int = 512) -> st.SearchStrategy:
    """Hierarchical shapes with small leaves and a bounded size."""
    return int_tuples(st.sampled_from(_SMALL), max_leaves, max_depth).filter(
        lambda s: it.product(s) <= max_size
    )


@st.composite
def layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2, max_stride: int = 32,
            negative: bool = False) -> Layout:
    """Any layout: random shape, random strides (0 included, negatives if asked)."""
    shape = draw(shapes(max_leaves, max_depth))
    lo = -max_stride if negative else 0
    flat = [draw(st.integers(lo, max_stride)) for _ in it.flatten_tuple(shape)]
    stride = it.unflatten_tuple(flat, shape) if type(shape) is tuple else flat[0]
    return Layout(shape, stride)


@st.composite
def tiling_layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2, gaps: bool = True) -> Layout:
    """Injective layouts whose sorted strides tile: each stride is a multiple of the extent of
    the modes below it (so complement completes them). Modes appear in random order."""
    n = draw(st.integers(1, max_leaves))
    flat_shape = [draw(st.sampled_from((2, 2, 3, 4, 4, 6, 8))) for _ in range(n)]
    order = draw(st.permutations(range(n)))
    strides = [0] * n
    cur = 1
    for k in order:
        g = draw(st.sampled_from((1, 1, 1, 2, 3))) if gaps else 1
        strides[k] = cur * g
        cur = cur * g * flat_shape[k]
    profile = _profile_like(draw, n, max_depth)
    if type(profile) is not tuple:
        return Layout(flat_shape[0], strides[0])
    return Layout(it.unflatten_tuple(flat_shape, profile), it.unflatten_tuple(strides, profile))


def injective_layouts(max_leaves: int = 4, max_depth: int = 2) -> st.SearchStrategy:
    """Injective layouts: distinct offsets for distinct indices."""
    return st.one_of(
        tiling_layouts(max_leaves, max_depth),
        layouts(max_leaves, max_depth).filter(_is_injective),
    )


def _is_injective(L: Layout) -> bool:
    offs = L.offsets()
    return len(set(offs.tolist())) == offs.size


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def _aligned_layout(draw: Any, A: Layout, max_leaves: int = 3) -> Layout:
    """A layout whose strides and shapes come from A's mode extents, so that it is
    likely (not certain) to compose admissibly with A."""
    fs = it.flatten_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
    prefix = [1]
    for s in fs:
        prefix.append(prefix[-1] * s)
    n = draw(st.integers(1, max_leaves))
    shape, stride = [], []
    for _ in range(n):
        k = draw(st.integers(0, len(fs)))
        base = prefix[k]
        d = base * draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2)))
        s = draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2, 3)))
        shape.append(s)
        stride.append(draw(st.sampled_from((d, d, d, 0))))
    profile = _profile_like(draw, n, 1)
    if type(profile) is not tuple:
        return Layout(shape[0], stride[0])
    return Layout(it.unflatten_tuple(shape, profile), it.unflatten_tuple(stride, profile))


@st.composite
def composable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, B)`` such that ``composition(A, B)`` is admissible."""
    A = draw(layouts(max_leaves))
    B = draw(st.one_of(_aligned_layout(A), layouts(3)).filter(lambda B: is_admissible(A, B)))
    return A, B


@st.composite
def divisible_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, T)`` such that ``logical_divide(A, T)`` (and the other divides) are defined:
    T is a tiling layout and the composition with ``(T, complement(T, size(A)))`` is admissible."""
    A = draw(layouts(max_leaves))
    T = draw(tiling_layouts(2, 1).filter(lambda T: _divides_ok(A, T)))
    return A, T


def _divides_ok(A: Layout, T: Layout) -> bool:
    try:
        C = complement(T, A.size())
    except CutepyError:
        return False
    return is_admissible(A, Layout._new((T.shape, C.shape), (T.stride, C.stride)))


@st.composite
def complementable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, int]:
    """``(A, M)``: a tiling layout and a cotarget at least its cosize."""
    A = draw(tiling_layouts(max_leaves))
    M = A.cosize() * draw(st.integers(1, 4)) + draw(st.sampled_from((0, 0, 1, 3)))
    return A, M


@st.composite
def swizzles(draw: Any) -> Any:
    """Valid ``Swizzle(B, M, S)`` with small parameters (|S| >= B)."""
    b = draw(st.integers(0, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, 4)) * draw(st.sampled_from((1, 1, -1)))
    if s < 0 and m + s < 0:
        s = -s
    return Swizzle(b, m, s)


@st.composite
def negative_stride_layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2) -> Layout:
    """Tiling layouts with some strides negated (reversed modes): injective, C++-evaluable."""
    L = draw(tiling_layouts(max_leaves, max_depth))
    flat = it.flatten_tuple(L.stride) if type(L.stride) is tuple else (L.stride,)
    signs = [draw(st.sampled_from((1, -1))) for _ in flat]
    if all(g == 1 for g in signs):
        signs[0] = -1
    neg = tuple(d * g for d, g in zip(flat, signs))
    return Layout(L.shape, it.unflatten_tuple(neg, L.shape) if type(L.shape) is tuple else neg[0])


@st.composite
def swizzled_layouts(draw: Any, max_leaves: int = 3) -> ComposedLayout:
    """``Sw<B,M,S> o 0 o L`` with a compact ``L`` (random mode order) spanning the swizzle's bits."""
    b = draw(st.integers(1, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, b + 1)) * draw(st.sampled_from((1, 1, -1)))
    if s < 0 and m + s < 0:
        s = -s
    sw = Swizzle(b, m, s)
    need = 1 << (b + m + abs(s))
    n = draw(st.integers(1, max_leaves))
    flat = [draw(st.sampled_from((2, 4, 8))) for _ in range(n)]
    while it.product(tuple(flat)) < need:
        flat.append(draw(st.sampled_from((2, 4, 8))))
    order = draw(st.permutations(range(len(flat))))
    strides = [0] * len(flat)
    cur = 1
    for k in order:
        strides[k] = cur
        cur *= flat[k]
    profile = _profile_like(draw, len(flat), 2)
    if type(profile) is not tuple:
        return ComposedLayout(sw, 0, Layout(flat[0], strides[0]))
    shape, stride = it.unflatten_tuple(tuple(flat), profile), it.unflatten_tuple(tuple(strides), profile)
    return ComposedLayout(sw, 0, Layout(shape, stride))


@st.composite
def offset_swizzled_layouts(draw: Any, max_leaves: int = 3) -> ComposedLayout:
    """``Sw<B,M,S> o offset o L`` as :func:`swizzled_layouts`, with an offset in ``[0, size(L))``
    (a slice or a ``domain_offset`` leaves one there)."""
    C = draw(swizzled_layouts(max_leaves))
    return ComposedLayout(C.outer, draw(st.integers(0, C.size() - 1)), C.inner)


@st.composite
def coordinates(draw: Any, shape: Any, natural: bool = False) -> Any:
    """A coordinate of ``shape``: an index, or (always when ``natural``) a natural coordinate,
    or anything between (a coordinate of a coarser profile)."""
    if type(shape) is not tuple:
        return draw(st.integers(0, shape - 1))
    if not natural and draw(st.booleans()):
        return draw(st.integers(0, it.product(shape) - 1))
    return tuple(draw(coordinates(s, natural)) for s in shape)


@st.composite
def with_dynamic_leaves(draw: Any, x: Any) -> Any:
    """``x`` (an integer, a tuple, a layout or a swizzled layout) with a random subset of its
    integer leaves made run-time integers (:func:`cutepy.dynamic`, C++'s ``int``); the values
    stay the same, and so does every operation's result as a function, except where a run-time
    1 (size-1 mode) or 0 (zero stride) is kept as C++ keeps it, which can change it
    (``complement`` of a run-time ``1:6`` is ``(_6,1):(_1,6)``, as in C++ 4.7).

    >>> from hypothesis import given, settings
    >>> from cutepy import Layout, is_static
    >>> @settings(max_examples=5)
    ... @given(with_dynamic_leaves(Layout((4, 8))))
    ... def check(L):
    ...     assert L == Layout((4, 8))
    >>> check()
    """
    if type(x) is Layout:
        return Layout(draw(with_dynamic_leaves(x.shape)), draw(with_dynamic_leaves(x.stride)))
    if (parts := composed_parts(x)) is not None:
        return ComposedLayout(parts[0], parts[1], draw(with_dynamic_leaves(parts[2])))
    if type(x) is tuple:
        return tuple(draw(with_dynamic_leaves(y)) for y in x)
    if type(x) is int and draw(st.booleans()):
        return dynamic(x)
    return x


# -- symbolic layouts: expressions over declared symbols, built with symbols or with values ---------


@dataclass(frozen=True)
class SymbolicCase:
    """A layout expression over named symbols (``recipe``), the facts of each symbol, and one
    admissible assignment (``values``, boundary values likely: 1, a bound, two symbols equal).

    ``build(env)`` evaluates the recipe with ``env[name]`` for each symbol: the declared
    :class:`~cutepy.symbolic.Sym` (``symbolic()``, the symbolic algebra) or the integer
    (``concrete()``, the concrete algebra on plain ints, nothing substituted). ``text`` is the
    expression in Python, with the facts and the values, for a failing example's report.
    """

    recipe: Any
    facts: tuple  # ((name, multiple_of, min, max), ...)
    values: tuple  # ((name, value), ...)

    def syms(self) -> dict:
        """The declared symbols, by name (made with the facts of this case)."""
        return {n: _symbols(n, multiple_of=m, min=lo, max=hi) for n, m, lo, hi in self.facts}

    def assignment(self) -> dict:
        """``{sympy symbol: value}`` for ``subs`` and ``holds_at``."""
        syms = self.syms()
        return {syms[n].expr: v for n, v in self.values}

    def build(self, env: dict) -> Any:
        return _build_recipe(self.recipe, env)

    def symbolic(self) -> Any:
        return self.build(self.syms())

    def concrete(self) -> Any:
        return self.build(dict(self.values))

    @property
    def text(self) -> str:
        facts = "; ".join(f"{n}: multiple_of={m}, min={lo}, max={hi}" for n, m, lo, hi in self.facts)
        vals = ", ".join(f"{n}={v}" for n, v in self.values)
        return f"{_recipe_text(self.recipe)}  [{facts}]  at {vals}"


def _leaf_value(x: Any, env: dict) -> Any:
    if type(x) is int:
        return x
    if type(x) is str:
        return env[x]
    c, *names = x[1:]  # ("*", c, name, ...): c times the symbols
    v = c
    for n in names:
        v = v * env[n]
    return v


def _tree_value(t: Any, env: dict) -> Any:
    if type(t) is tuple and (not t or t[0] != "*"):
        return tuple(_tree_value(x, env) for x in t)
    return _leaf_value(t, env)


def _build_recipe(r: Any, env: dict) -> Any:
    op = r[0]
    if op == "layout":
        shape = _tree_value(r[1], env)
        return Layout(shape) if r[2] is None else Layout(shape, _tree_value(r[2], env))
    if op == "shape":
        return _tree_value(r[1], env)
    if op == "swizzle":
        return _composition.composition(Swizzle(*r[1]), _build_recipe(r[2], env))
    args = [_build_recipe(a, env) if type(a) is tuple and a and type(a[0]) is str and a[0] in _OPS else a
            for a in r[1:]]
    if op == "complement":
        return complement(args[0], _leaf_value(args[1], env))
    if op == "slice":
        L, k = args
        return L(k, None)
    if op == "mode":
        return args[0][args[1]]
    fns = {"composition": _composition.composition, "coalesce": _coalesce.coalesce,
           "right_inverse": _inverse.right_inverse, "left_inverse": _inverse.left_inverse}
    for mod in (_divides, _products):
        fns.update({n: getattr(mod, n) for n in getattr(mod, "__all__", ()) if n in _OPS})
    return fns[op](*args)


_OPS = ("layout", "shape", "swizzle", "complement", "slice", "mode", "composition", "coalesce",
        "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
        "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
        "raked_product")


def _recipe_text(r: Any) -> str:
    def leaf(x: Any) -> str:
        if type(x) is tuple and x and x[0] == "*":
            return "*".join(str(p) for p in x[1:])
        if type(x) is tuple:
            return "(" + ", ".join(leaf(y) for y in x) + ("," if len(x) == 1 else "") + ")"
        return str(x)

    if type(r) is not tuple or not r or r[0] not in _OPS:
        return leaf(r)
    if r[0] == "layout":
        return f"Layout({leaf(r[1])})" if r[2] is None else f"Layout({leaf(r[1])}, {leaf(r[2])})"
    if r[0] == "shape":
        return leaf(r[1])
    if r[0] == "swizzle":
        return f"composition(Swizzle{r[1]}, {_recipe_text(r[2])})"
    if r[0] == "slice":
        return f"{_recipe_text(r[1])}({r[2]}, None)"
    if r[0] == "mode":
        return f"{_recipe_text(r[1])}[{r[2]}]"
    return f"{r[0]}(" + ", ".join(_recipe_text(a) for a in r[1:]) + ")"


_SYM_NAMES = ("K", "M", "N")


@st.composite
def _symbol_facts(draw: Any, name: str) -> tuple:
    m = draw(st.sampled_from((1, 1, 1, 2, 4)))
    lo = draw(st.sampled_from((1, 1, 2)))
    hi = draw(st.sampled_from((None, None, 2, 4, 8)))
    if hi is not None and (-(-lo // m)) * m > hi:
        hi = None
    return (name, m, lo, hi)


@st.composite
def _sym_leaf(draw: Any, names: tuple, shape: bool) -> Any:
    pick = draw(st.integers(0, 9))
    if pick < 4:
        return draw(st.sampled_from((1, 2, 4) if shape else (0, 1, 2, 4)))
    if pick < 8:
        return draw(st.sampled_from(names))
    if shape:
        return ("*", 2, draw(st.sampled_from(names)))
    return ("*", 1, draw(st.sampled_from(names)), draw(st.sampled_from(names)))


@st.composite
def _sym_layout_recipe(draw: Any, names: tuple) -> tuple:
    n = draw(st.integers(1, 3))
    shape = tuple(draw(_sym_leaf(names, True)) for _ in range(n))
    compact = draw(st.booleans())
    stride = None if compact else tuple(draw(_sym_leaf(names, False)) for _ in range(n))
    if n == 1:
        shape = shape[0]
        stride = None if stride is None else stride[0]
    return ("layout", shape, stride)


@st.composite
def _sym_tiler(draw: Any, names: tuple) -> Any:
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.sampled_from((1, 2, 4)))
    if kind == 1:
        return draw(_sym_layout_recipe(names))
    return ("shape", tuple(draw(st.sampled_from((1, 2, 4, *names))) for _ in range(draw(st.integers(1, 2)))))


_UNARY = ("coalesce", "right_inverse", "left_inverse", "complement", "slice", "mode", "swizzle")
_BINARY = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
           "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
           "raked_product")


@st.composite
def _sym_recipe(draw: Any, names: tuple, depth: int) -> tuple:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(_sym_layout_recipe(names))
    op = draw(st.sampled_from(_UNARY + _BINARY))
    A = draw(_sym_recipe(names, depth - 1))
    if op == "complement":
        return (op, A, draw(st.sampled_from((1, 4, 16, *names, ("*", 4, names[0])))))
    if op in ("slice", "mode"):
        return (op, A, draw(st.integers(0, 1)))
    if op == "swizzle":
        return (op, draw(st.sampled_from(((1, 0, 1), (1, 1, 2), (2, 0, 2)))), A)
    if op in _UNARY:
        return (op, A)
    B = draw(_sym_tiler(names)) if "divide" in op else draw(_sym_recipe(names, 0))
    return (op, A, B)


@st.composite
def _boundary_value(draw: Any, facts: tuple, others: dict) -> int:
    _, m, lo, hi = facts
    first = -(-lo // m) * m
    last = None if hi is None else hi // m * m
    choices = [first, first, first + m, 2 * first + m * 3]
    if last is not None:
        choices = [v for v in choices if v <= last] + [last, last]
    same = [v for v in others.values() if v % m == 0 and v >= lo and (hi is None or v <= hi)]
    if same and draw(st.booleans()):
        return draw(st.sampled_from(same))  # two symbols equal
    return draw(st.sampled_from(choices))


@st.composite
def symbolic_cases(draw: Any, max_depth: int = 2) -> SymbolicCase:
    """A :class:`SymbolicCase`: a random expression of the algebra's operations (divides,
    products, composition, complement, inverses, coalesce, slices, a swizzle on top) over one
    to three symbols with random facts (``multiple_of``, ``min``, ``max``), and an assignment
    that favours boundary values: a symbol at its smallest value (often 1), at its bound, equal
    to another symbol; tiles larger than the modes they tile come from small values.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=5, deadline=None)
    ... @given(symbolic_cases())
    ... def show(case):
    ...     assert set(dict(case.values)) == {n for n, *_ in case.facts}
    >>> show()
    """
    n = draw(st.integers(1, 3))
    names = _SYM_NAMES[:n]
    facts = tuple(draw(_symbol_facts(x)) for x in names)
    recipe = draw(_sym_recipe(names, max_depth))
    values: dict = {}
    for f in facts:
        values[f[0]] = draw(_boundary_value(f, values))
    return SymbolicCase(recipe, facts, tuple(values.items()))


@st.composite
def symbolic_pairs(draw: Any, max_depth: int = 1) -> tuple[SymbolicCase, SymbolicCase]:
    """Two :class:`SymbolicCase` expressions over the same symbols, facts and assignment, for
    verdicts of :func:`cutepy.equivalent`: unrelated, one the ``coalesce`` of the other (the
    same function), or one with a leaf changed (often the same function at some values only).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=5, deadline=None)
    ... @given(symbolic_pairs())
    ... def show(pair):
    ...     assert pair[0].values == pair[1].values
    >>> show()
    """
    A = draw(symbolic_cases(max_depth))
    names = tuple(n for n, *_ in A.facts)
    kind = draw(st.integers(0, 2))
    if kind == 0:
        other = draw(_sym_recipe(names, max_depth))
    elif kind == 1:
        other = ("coalesce", A.recipe)
    else:
        other = draw(_sym_layout_recipe(names))
        if A.recipe[0] == "layout" and other[2] is not None and A.recipe[2] is not None:
            other = ("layout", A.recipe[1], A.recipe[2][:-1] + other[2][-1:]
                     if type(A.recipe[2]) is tuple and type(other[2]) is tuple else other[2])
    return A, SymbolicCase(other, A.facts, A.values)

