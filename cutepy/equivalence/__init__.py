"""Equivalence of layouts as functions, with proofs and counterexamples.

:func:`equivalent` decides; :class:`Equivalence` is its verdict; :mod:`.normal_form`
the normal form it compares; :mod:`.symbolic` the prover for symbolic layouts.
"""

from .concrete import EXHAUSTIVE_LIMIT
from .decision import equivalent
from .normal_form import NormalForm, normal_form
from .verdict import Counterexample, Equivalence

__all__ = ["EXHAUSTIVE_LIMIT", "Counterexample", "Equivalence", "NormalForm", "equivalent", "normal_form"]
