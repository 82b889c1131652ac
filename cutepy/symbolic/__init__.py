"""Symbolic shapes and strides: integers in declared symbols as layout leaves.

Declare symbols with the facts that hold for them, then build layouts as usual::

    >>> import cutepy
    >>> M, N = cutepy.symbols("M N", multiple_of=(8, 128), min=(16, 256))
    >>> A = cutepy.Layout((M, N), (N, 1))
    >>> cutepy.composition(A, (8, 128))
    (8,128):(N,1)
    >>> cutepy.zipped_divide(A, (8, 128))
    ((8,128),(M/8,N/128)):((N,1),(8*N,128))

An operation that needs a fact that does not follow from the declared ones raises
:class:`~cutepy.SymbolicError` naming it::

    >>> K = cutepy.symbols("K")
    >>> cutepy.Layout(K)  # K == 1 has C++'s compact stride 0 (1:0), K >= 2 stride 1
    Traceback (most recent call last):
    ...
    cutepy.Undecided: cannot decide whether K == 1 ... (K >= 1): needs K != 1 ...
    >>> K = cutepy.symbols("K", min=2)
    >>> cutepy.logical_divide(cutepy.Layout(K), 4)
    Traceback (most recent call last):
    ...
    cutepy.Undecided: cannot decide whether ceil(K/4) == 1 ... (K >= 2): ...

:func:`cutepy.equivalent` given functions that build the layouts splits such questions
into cases (``K == 1``, ``K >= 2``) and proves each.

A symbol is a :class:`Sym`, registered as a :class:`numbers.Integral` without
``__index__``: the algebra uses it as it uses an int. Its facts travel with it;
:func:`declare` and :func:`assuming` add to them for the current context only.
sympy is imported only when a symbol is made.

Where the symbolic parts live (each where the layers put it; this package is the front):

- here, ``cutepy.symbolic`` (layer 4, analyses): :mod:`.front` (``symbols``, ``subs``,
  ``free_symbols``, ``is_symbolic``: the entry points, sympy loaded on first use) and
  :mod:`.values` (a symbolic layout at values: ``instantiate``, ``pinned``).
- :mod:`cutepy.core.symbolic` (layer 0, beside the integer tuples, because the algebra
  compares leaves): ``Sym``, the facts and ``assuming``, the decisions (``decide``,
  ``relax``), substitution and printing.
- :mod:`cutepy.equivalence.symbolic` (layer 4): the prover over symbols (case splits,
  counterexamples checked on :func:`~.values.instantiate`'s concrete layouts), with
  :mod:`cutepy.equivalence.certificate`'s independent re-check.
- :mod:`cutepy.strategies.symbolic`: hypothesis strategies for symbolic layouts.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import SymbolicError
from ..core.symbolic.facts import Facts, Undecided, assuming, declare, facts_of
from .front import (
    _sym,  # the lazily loaded symbols module (sympy loads on first use)
    free_symbols,
    is_symbolic,
    is_symbolic_leaf,
    subs,
    symbols,
)

__all__ = [
    "Facts", "SymbolicError", "Sym", "Undecided", "assuming", "declare", "facts_of", "free_symbols",
    "is_symbolic", "is_symbolic_leaf", "subs", "symbols",
]


def __getattr__(name: str) -> Any:
    if name in ("Sym", "wrap"):
        return getattr(_sym, name)
    raise AttributeError(name)
