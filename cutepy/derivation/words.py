"""Wording helpers shared by the explainers: operands, flat layouts, the step driver and
the registry of explainers.

>>> paren(3), paren("M/8"), flat_layout((4,), (2,))
('3', '(M/8)', (4):(2))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.layout import Layout
from .record import Run
from .steps import Derivation, fmt

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


def paren(x: Any) -> str:
    """A leaf as an operand: parenthesised when it is a sum, product or quotient."""
    s = str(x)
    return f"({s})" if any(c in s for c in "+-*/%") and not s.lstrip("-").isdigit() else s


def flat_layout(shapes: Any, strides: Any) -> Layout:
    """Flat modes as a layout of rank ``len(shapes)`` (a rank-1 tuple stays a tuple)."""
    if type(shapes) is tuple:
        return Layout._new(shapes, strides)
    return Layout._new((shapes,), (strides,))


def modes_layout(modes: list) -> Layout:
    """``[(s, d), ...]`` as a layout: one mode is a scalar layout, none is ``1:0``."""
    if not modes:
        return Layout._new(1, 0)
    if len(modes) == 1:
        return Layout._new(*modes[0])
    return Layout._new(tuple(s for s, _ in modes), tuple(d for _, d in modes))


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

