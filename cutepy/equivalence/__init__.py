"""Equivalence of layouts as functions, with proofs and counterexamples.

:func:`equivalent` decides; :class:`Equivalence` is its verdict; :mod:`.normal_form`
the normal form it compares; :mod:`.concrete` the decision for integer and swizzled layouts;
:mod:`.symbolic` the prover for symbolic layouts; :mod:`.certificate` the independent
re-check (isl, z3) of its "equivalent" verdicts.
"""

from .concrete import EXHAUSTIVE_LIMIT
from .decision import equivalent
from .normal_form import NormalForm, normal_form
from .verdict import Counterexample, Equivalence

__all__ = ["EXHAUSTIVE_LIMIT", "Counterexample", "Equivalence", "NormalForm", "equivalent", "normal_form"]
