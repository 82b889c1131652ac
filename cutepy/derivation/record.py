"""The recorder behind ``explain``: the real operation runs, its events become frames.

:class:`Recorder` is a :mod:`cutepy.core.tracing` recorder. Every traced operation called
while it records opens a frame (a :class:`~cutepy.derivation.Derivation` and the
items emitted inside it: :mod:`cutepy.core.events`, a :class:`Run` for each coalesce and the
frames of nested operations). When the operation is done, :meth:`Recorder.finish` hands
each frame's items, innermost first, to the explainer registered for its operation,
which words them as steps.

>>> from cutepy.core.layout import Layout
>>> from cutepy.algebra.complement import complement
>>> from cutepy.core.tracing import recording
>>> D = Derivation("complement", (Layout(4, 2), 24))
>>> rec = Recorder(D)
>>> with recording(rec):
...     complement(Layout(4, 2), 24)
(2,3):(1,8)
>>> frame, items = rec.frames[-1]
>>> frame is D, D.result
(True, (2,3):(1,8))
>>> [type(x).__name__ for x in items]
['Filter', 'Run', 'Filtered', 'Sorted', 'Gap', 'CotargetRest', 'Run']
>>> items[-1].how()
'nothing merges'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.events import Drop, Flatten, Keep, Merge, Start
from ..core.layout import Layout
from ..equivalence.normal_form import Step
from .steps import Derivation


class Run:
    """One call of ``coalesce_flat``: its flat input and its steps (normal-form :class:`Step`)."""

    def __init__(self, shape: Any, stride: Any):
        self.modes = tuple(zip(shape, stride))
        self.steps = [Step("flatten", (), self.modes)]

    def add(self, event: Drop | Start | Keep | Merge) -> None:
        """One mode's decision, as the normal form's rule of the same name."""
        match event:
            case Drop(mode) | Start(mode):
                rule, data = type(event).__name__.lower(), mode
            case Keep(prev, mode) | Merge(prev, mode):
                rule, data = type(event).__name__.lower(), prev + mode
        self.steps.append(Step(rule, data, ()))

    def source(self) -> Layout:
        """The flat modes it started from, as a layout."""
        return Layout._new(tuple(s for s, _ in self.modes), tuple(d for _, d in self.modes))

    def how(self) -> str:
        """What changed, in one line: the drops and merges, or ``nothing merges``."""
        acts = [s.text() for s in self.steps if s.rule in ("drop", "merge")]
        return "; ".join(acts) if acts else "nothing merges"


class Recorder:
    """Records the frames of one top-level call, whose frame is ``root``.

    It lives in one context (:func:`cutepy.core.tracing.recording`): other threads and
    contexts never report to it.
    """

    def __init__(self, root: Any):
        self.root = root
        self.open: list[list] = []  # the item lists of the open frames, innermost last
        self.frames: list = []  # (Derivation, items) of every frame, in the order they close
        self._entering: Callable | None = None

    def opens(self, fn: Callable) -> bool:
        """Yes, unless this is the call that :meth:`framed` makes."""
        if self._entering is fn:
            self._entering = None
            return False
        return True

    def framed(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` in a new frame, nested in the open one (the first frame is ``root``)."""
        D = Derivation(fn.__name__, args) if self.open else self.root
        items: list = []
        if self.open:
            self.open[-1].append(D)
        self.open.append(items)
        self._entering = fn
        try:
            D.result = fn(*args)
        except Exception as e:
            D.error = e
            raise
        finally:
            self._entering = None
            self.open.pop()
            self.frames.append((D, items))
        return D.result

    def emit(self, event: Any) -> None:
        """Keep an event in the open frame; a coalesce's events go into one :class:`Run`."""
        if not self.open:
            return
        items = self.open[-1]
        if type(event) is Flatten:
            items.append(Run(event.shape, event.stride))
        elif type(event) in (Drop, Start, Keep, Merge) and items and isinstance(items[-1], Run):
            items[-1].add(event)
        else:
            items.append(event)

    def finish(self, explainers: dict) -> None:
        """Word every frame, innermost first, with ``explainers[op](derivation, items)``."""
        for D, items in self.frames:
            explain = explainers.get(D.op)
            if explain is None:
                D.add("computed directly (this operation has no finer steps to show)")
            else:
                explain(D, items)
