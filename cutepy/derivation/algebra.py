"""Explainers for coalesce, filter, complement and the inverses: which events make their steps.

The algorithms are the real ones (``cutepy/algebra/coalesce.py``, ``complement.py``,
``inverse.py``), and each declares its events with their words beside its code; while
``explain`` runs them, each event they emit becomes a step here, in order.

>>> from cutepy.core.layout import Layout
>>> from cutepy.derivation import explain
>>> print(explain("complement", Layout(4, 2), 24).text())
complement(4:2, 24)
  1. filter(A) = 4:2 (drop stride-0 and size-1 modes, coalesce)
  2. sorted by stride: 4:2
  3. gap below stride 2: 2/1 = 2 at stride 1; 4:2 then covers up to 8
  4. rest up to the cotarget: ceil(24/8) = 3 at stride 8
  5. coalesce (2,3):(1,8): nothing merges
  = (2,3):(1,8)
>>> print(explain("coalesce", Layout((2, (1, 6)), (1, (6, 2)))).text())
coalesce((2,(1,6)):(1,(6,2)))
  1. flatten: (2,1,6):(1,6,2)
  2. start with 2:1
  3. drop 1:6 (size 1)
  4. merge 2:1 ++ 6:2 -> 12:1 (2*1 == 2)
  = 12:1
"""

from __future__ import annotations

from typing import Any

from ..algebra.coalesce import Filter, ProfileMode, Zeros
from ..algebra.complement import Cotarget, CotargetRest, Filtered, Gap, OnlyZero, Sorted
from ..algebra.inverse import Chain, Close, InverseStep, OffChain, Positions, ZeroMode
from ..core.events import KeptModes
from .record import Run
from .steps import Derivation
from .words import explainable, said, word

# -- coalesce / filter -----------------------------------------------------------------


def run_steps(run: Run) -> list:
    """A coalesce's steps: flatten, then start, drop, merge or keep for each mode."""
    return [(s.text(), s.latex()) for s in run.steps]


@explainable("coalesce")
def coalesce_steps(D: Derivation, items: list) -> None:
    last: Any = None  # the Run or nested coalesce of the mode that the next ProfileMode names
    i = 0
    for x in items:
        match x:
            case Run() | Derivation():
                last = x
            case ProfileMode() if isinstance(last, Derivation):
                D.add(f"mode {x.i}: coalesce {x.layout} by the profile {x.profile}", sub=last)
                last, i = None, i + 1
            case ProfileMode():
                sub = Derivation("coalesce", (x.layout,), result=x.result)
                for step in run_steps(last):
                    sub.add(*step)
                D.add(f"mode {x.i}: coalesce {x.layout}", sub=sub)
                last, i = None, i + 1
            case KeptModes():
                D.add(f"modes {x.first}.. stay as they are")
    if isinstance(last, Run):  # no profile: the steps are the coalesce's own
        for step in run_steps(last):
            D.add(*step)
    elif last is not None:  # the nested coalesce of mode i failed
        D.add(f"mode {i}: coalesce {last.args[0]} by the profile {last.args[1]}", sub=last)


@explainable("filter")
def filter_(D: Derivation, items: list) -> None:
    word(D, items, said(Filter, Zeros),
         {"coalesce": lambda sub, k: f"coalesce by the profile {sub.args[1]}"},
         end=run_steps)


# -- complement ------------------------------------------------------------------------


COMPLEMENT = said(Filtered, Cotarget, OnlyZero, Sorted, Gap, CotargetRest)


@explainable("complement")
def complement_steps(D: Derivation, items: list) -> None:
    word(D, items, COMPLEMENT, end=lambda run: f"coalesce {run.source()}: {run.how()}")


# -- inverses --------------------------------------------------------------------------


@explainable("right_inverse")
def right_inverse_steps(D: Derivation, items: list) -> None:
    word(D, items, said(Positions, Chain, OffChain), end=lambda run: f"coalesce the chain: {D.result}")


@explainable("left_inverse")
def left_inverse_steps(D: Derivation, items: list) -> None:
    word(D, items, said(Positions, ZeroMode, InverseStep, Close), end=lambda run: f"coalesce: {D.result}")
