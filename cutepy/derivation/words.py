"""Wording helpers shared by the explainers: the step driver, the registry of explainers,
and the events worded by their own words.

An event's words live with the event, beside the algorithm that emits it
(``cutepy/algebra/complement.py`` words its ``Gap``); an explainer here only says which
events make its steps (:func:`said`), labels the nested derivations, and words the few
events whose words depend on the derivation around them.

>>> flat_layout((4,), (2,))
(4):(2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.layout import Layout
from .record import Run
from .steps import Derivation, fmt, lx

#: the explainer of each operation, by the operation's name (filled by :func:`explainable`)
EXPLAINERS: dict[str, Callable[[Derivation, list], None]] = {}


def explainable(name: str) -> Callable:
    """Register the explainer of the operation ``name``: ``fn(D, items)`` adds D's steps.

    ``items`` are what the operation reported while it ran (see
    :mod:`cutepy.derivation.record`): events, coalesce runs and the derivations of
    the operations it called; ``D.result`` or ``D.error`` is already set.

    Pre:  ``name`` is the operation's ``__name__``; call at import time (the registry is
          module state written once, never per call).
    Post: a decorator that records ``fn`` as the explainer of ``name`` and returns ``fn``.

    >>> register = explainable("my_op")
    >>> callable(register)
    True
    """
    def deco(fn: Callable) -> Callable:
        EXPLAINERS[name] = fn
        return fn

    return deco


def flat_layout(shapes: Any, strides: Any) -> Layout:
    """Flat modes as a layout of rank ``len(shapes)`` (a rank-1 tuple stays a tuple)."""
    if type(shapes) is tuple:
        return Layout._new(shapes, strides)
    return Layout._new((shapes,), (strides,))


def said(*events: type) -> dict[type, Callable]:
    """The wording of each of ``events`` for :func:`word`: the event's own ``words``.

    >>> from cutepy.algebra.complement import Gap
    >>> said(Gap)[Gap](Gap((4, 2), 1, 2, 8))[0]
    'gap below stride 2: 2/1 = 2 at stride 1; 4:2 then covers up to 8'
    """
    return {e: _own_words for e in events}


def _own_words(event: Any) -> Any:
    return event.words(lx)


def eq(label: str, sub: Derivation) -> str:
    """``label = result`` for a nested derivation that succeeded, else just ``label``."""
    return label if sub.error is not None else f"{label} = {fmt(sub.result)}"


def word(D: Derivation, items: list, events: dict[type, Callable], subs: dict[str, Callable] | None = None,
         end: Callable | None = None) -> None:
    """Add D's steps, in order: one per event and per nested derivation among ``items``.

    ``events[type(event)](event)`` words an event. It returns ``text``, ``(text, latex)``,
    ``(text, latex, layout)``, ``(text, latex, layout, sub)``, a list of these, or None for
    no step; an event of no listed type adds no step. ``end(run)`` words a coalesce
    (:class:`Run`) that closes the operation. ``subs[op](sub, k)`` labels the ``k``-th
    nested ``op``: ``label``, ``(label, picture)`` to draw its result, or a list
    ``[label, steps after it...]``.
    """
    run, counts = None, {}
    for x in items:
        if isinstance(x, Run):
            run = x
            continue
        if not isinstance(x, Derivation):
            fn = events.get(type(x))
            run = None
            _add(D, fn(x) if fn is not None else None)
            continue
        k = counts[x.op] = counts.get(x.op, -1) + 1
        fn = (subs or {}).get(x.op)
        out = fn(x, k) if fn is not None else eq(x.head(), x)
        out, after = (out[0], out[1:]) if isinstance(out, list) else (out, [])
        label, picture = out if isinstance(out, tuple) else (out, False)
        D.add(label, layout=x.result if picture else None, sub=x)
        _add(D, after)
    if end is not None and run is not None and D.error is None:
        _add(D, end(run))


def _add(D: Derivation, step: Any) -> None:
    if step is None:
        return
    if isinstance(step, list):
        for s in step:
            _add(D, s)
    elif isinstance(step, tuple):
        D.add(*step)
    else:
        D.add(step)

