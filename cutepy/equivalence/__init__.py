"""Equivalence of layouts as functions, with proofs and counterexamples.

:func:`equivalent` decides; :class:`Equivalence` is its verdict; :mod:`.normal_form`
the normal form it compares; :mod:`.concrete` the decision for integer and swizzled layouts;
:mod:`.symbolic` the prover for symbolic layouts; :mod:`.certificate` the independent
re-check (isl, z3) of its "equivalent" verdicts; :mod:`.gf2`, :mod:`.decision`,
:mod:`.verdict` and :mod:`.render` the XOR maps of swizzles, the entry point, the answer and its
LaTeX.

Layer 4 (analyses): a question asked of layouts. The symbolic integers the prover reasons
about are :mod:`cutepy.core.symbolic` (layer 0), their front :mod:`cutepy.symbolic`.
"""

from .concrete import EXHAUSTIVE_LIMIT
from .decision import equivalent
from .normal_form import NormalForm, normal_form
from .verdict import Counterexample, Equivalence

__all__ = ["EXHAUSTIVE_LIMIT", "Counterexample", "Equivalence", "NormalForm", "equivalent", "normal_form"]
