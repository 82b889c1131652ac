"""Hypothesis strategies for symbolic layouts: expressions over declared symbols (with their
facts), built with symbols or with values, and pairs of them.

Part of :mod:`cutepy.strategies` (layer 4, analyses); import the strategies from there. The
prover's property (:func:`cutepy.equivalence.symbolic.build_at`) replays each case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from ..algebra import coalesce as _coalesce
from ..algebra import composition as _composition
from ..algebra import divides as _divides
from ..algebra import inverse as _inverse
from ..algebra import products as _products
from ..algebra.complement import complement
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..symbolic import symbols as _symbols

__all__ = ["SymbolicCase", "symbolic_cases", "symbolic_pairs"]

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
