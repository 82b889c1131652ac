"""Explainers for coalesce, filter, complement and the inverses: the words for their events.

The algorithms are the real ones (cutepy/coalesce.py, complement.py, inverse.py);
each event they emit while ``explain`` runs them becomes a step here.

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

from ..core.events import (
    Chain,
    Close,
    Cotarget,
    CotargetRest,
    Filter,
    Filtered,
    Gap,
    InverseStep,
    KeptModes,
    OffChain,
    OnlyZero,
    Positions,
    ProfileMode,
    Sorted,
    ZeroMode,
    Zeros,
)
from ..core.layout import Layout
from .record import Run
from .steps import Derivation, fmt, lx
from .words import explainable, modes_layout, paren, word

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


def _dropped(n: Filter) -> str:
    kept = Layout._new(n.shape, n.stride)
    return f"drop the {n.dropped} stride-0 mode(s): {kept}" if n.dropped else "no stride-0 modes"


@explainable("filter")
def filter_(D: Derivation, items: list) -> None:
    word(D, items, {Filter: _dropped, Zeros: lambda n: f"stride-0 modes get size 1: {n.layout}"},
         {"coalesce": lambda sub, k: f"coalesce by the profile {sub.args[1]}"},
         end=run_steps)


# -- complement ------------------------------------------------------------------------


def _filtered(n: Filtered) -> tuple:
    F = modes_layout(list(zip(n.shape, n.stride)))
    return f"filter(A) = {F} (drop stride-0 and size-1 modes, coalesce)", "", F


def _gap(n: Gap) -> tuple:
    (s, d), cur = n.mode, n.below
    return (f"gap below stride {d}: {paren(d)}/{paren(cur)} = {n.gap} at stride {cur}; {s}:{d} then covers "
            f"up to {n.covers}",
            rf"\text{{gap: }} {lx(d)}/{lx(cur)} = {lx(n.gap)} \text{{ at stride }} {lx(cur)}")


def _rest(n: CotargetRest) -> tuple:
    return (f"rest up to the cotarget: ceil({paren(fmt(n.cotarget))}/{paren(n.below)}) = {n.rest} "
            f"at stride {n.below}",
            rf"\lceil {lx(n.cotarget)} / {lx(n.below)} \rceil = {lx(n.rest)}")


COMPLEMENT = {
    Filtered: _filtered,
    Cotarget: lambda n: f"cotarget = cosize(filter(A)) = {n.cotarget}",
    OnlyZero: lambda n: f"A reaches only offset 0: the complement is all of [0, {n.size})",
    Sorted: lambda n: "sorted by stride: " + ", ".join(f"{s}:{d}" for s, d in n.modes),
    Gap: _gap,
    CotargetRest: _rest,
}


@explainable("complement")
def complement_steps(D: Derivation, items: list) -> None:
    word(D, items, COMPLEMENT, end=lambda run: f"coalesce {run.source()}: {run.how()}")


# -- inverses --------------------------------------------------------------------------


def _positions(n: Positions) -> str:
    X = modes_layout(list(zip(n.shape, n.stride)))
    return f"coalesce(A) = {X}; column-major positions of its modes: {', '.join(map(str, n.positions))}"


def _chain(n: Chain) -> str:
    s, d = n.mode
    return f"mode {s}:{d} continues the chain at stride {d}: take {s}:{n.position}"


@explainable("right_inverse")
def right_inverse_steps(D: Derivation, items: list) -> None:
    word(D, items, {
        Positions: _positions,
        Chain: _chain,
        OffChain: lambda n: f"mode {n.mode[0]}:{n.mode[1]} is off the chain (it would need stride "
                               f"{n.needs})",
    }, end=lambda run: f"coalesce the chain: {D.result}")


def _step(n: InverseStep) -> str:
    return (f"stride {n.stride}: {n.stride}/{n.below} = {n.count} offsets per step of the modes below, "
            f"mapped to position {n.position}")


@explainable("left_inverse")
def left_inverse_steps(D: Derivation, items: list) -> None:
    word(D, items, {
        Positions: _positions,
        ZeroMode: lambda n: f"mode {n.mode[0]}:0 reaches no new offset: skipped",
        InverseStep: _step,
        Close: lambda n: f"the largest-stride mode's size {n.size} closes the inverse",
    }, end=lambda run: f"coalesce: {D.result}")
