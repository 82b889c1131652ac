"""A symbolic layout at values: the concrete layout of an assignment of its symbols.

:func:`instantiate` puts the values into a layout, or builds a function's layout again from
them (the symbols it reads replaced by integers, so the concrete algebra decides as it does
for integers); :func:`pinned` is the context in which every symbol has exactly its value.
The prover (:mod:`cutepy.equivalence.symbolic`) replays each case and checks each
counterexample on these concrete layouts.

>>> from cutepy import Layout, logical_divide, symbols
>>> K = symbols("K", min=2)
>>> instantiate(Layout((K, 4), (4, 1)), {K: 8})
((8,4):(4,1), 'substituted')
>>> instantiate(lambda: logical_divide(Layout(K), 4), {K: 8})
((4,2):(1,4), 'built from the values')

Layer 4 (analyses), in :mod:`cutepy.symbolic`; sympy loads on first use.
"""

from __future__ import annotations

import types
from typing import Any

from ..algebra.composed import is_layout
from ..core.errors import CutepyError
from ..core.layout import as_layout
from ..core.lazy import load
from ..core.symbolic.facts import Facts, assuming
from .front import free_symbols, is_symbolic, subs

#: the symbols' type: sympy loads when a value is first asked whether it is one
_sym = load("cutepy.core.symbolic.sym")

__all__ = ["instantiate", "pinned"]


def pinned(sigma: dict) -> Any:
    """A context in which every symbol of ``sigma`` has exactly its value (its only admissible
    one): every decision of the algebra is then the decision the concrete algebra makes."""
    return assuming({x: Facts(abs(int(v)) or 1, int(v), int(v)) for x, v in sigma.items()})


def _put_values(v: Any, sigma: dict) -> Any:
    """``v`` with the values of ``sigma`` put in, if it is a symbolic value; else ``v``."""
    if type(v) is _sym.Sym or type(v) is tuple or is_layout(v):
        if is_symbolic(v):
            try:
                return subs(v, {k: x for k, x in sigma.items() if k in free_symbols(v)})
            except CutepyError:
                return v
    return v


def _with_values(fn: Any, sigma: dict) -> Any:
    """``fn`` rebuilt with the values of ``sigma`` in the symbols it reads (its closure, the
    globals it names, its defaults), or None when it is not a plain Python function."""
    if not isinstance(fn, types.FunctionType):
        return None
    code = fn.__code__
    names: set = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names |= set(c.co_names)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    glb = dict(fn.__globals__)
    for n in names & glb.keys():
        glb[n] = _put_values(glb[n], sigma)
    cells = None
    if fn.__closure__:
        cells = []
        for cell in fn.__closure__:
            try:
                cells.append(types.CellType(_put_values(cell.cell_contents, sigma)))
            except ValueError:  # an empty cell (a name bound later)
                cells.append(cell)
        cells = tuple(cells)
    defaults = None if fn.__defaults__ is None else tuple(_put_values(d, sigma) for d in fn.__defaults__)
    return types.FunctionType(code, glb, fn.__name__, defaults, cells)


def instantiate(X: Any, sigma: dict) -> tuple[Any, str]:
    """The concrete layout of ``X`` at the assignment ``sigma``, and how it was made.

    A layout gets the values put in (``subs``: its leaves are the input). A function is
    built again from the values: the symbols it reads (closure, named globals, defaults)
    replaced by integers, so the concrete algebra runs; if it reads them elsewhere (a
    helper's globals) it runs with every symbol pinned to its value and the result gets
    the values put in.

    Post: an integer layout (or composed layout) and ``"substituted"``, ``"built from the
          values"`` or ``"built with the symbols pinned to the values"``.
    """
    if is_layout(X) or not callable(X):
        return subs(X, sigma), "substituted"
    rebuilt = _with_values(X, sigma)
    if rebuilt is not None:
        try:
            r = rebuilt()
        except Exception:  # noqa: BLE001 -- written for symbols only (M / 8 is a float for an int M):
            r = None  # built again with the symbols pinned instead
        if r is not None and not is_symbolic(r):
            return (r if is_layout(r) else as_layout(r)), "built from the values"
    with pinned(sigma):
        r = X()
        r = r if is_layout(r) else as_layout(r)
        return subs(r, {k: v for k, v in sigma.items() if k in free_symbols(r)}), \
            "built with the symbols pinned to the values"
