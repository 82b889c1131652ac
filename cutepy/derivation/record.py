"""The tracer behind ``explain``: the real operation runs, its reports become frames.

:class:`Recorder` is a :mod:`cutepy.tracing` tracer. Every traced operation called
while it records opens a frame (a :class:`~cutepy.derivation.Derivation` and the
items reported inside it: :class:`Note`, :class:`Run` and the frames of nested
operations). When the operation is done, :meth:`Recorder.finish` hands each frame's
items, innermost first, to the explainer registered for its operation, which words
them as steps.

>>> from cutepy import Layout, complement, tracing
>>> from cutepy.derivation import Derivation
>>> D = Derivation("complement", (Layout(4, 2), 24))
>>> rec = Recorder(D)
>>> with tracing.recording(rec):
...     complement(Layout(4, 2), 24)
(2,3):(1,8)
>>> frame, items = rec.frames[-1]
>>> frame is D, D.result
(True, (2,3):(1,8))
>>> [getattr(x, "kind", "run") for x in items]
['filter', 'run', 'filtered', 'sorted', 'gap', 'rest', 'run']
>>> items[-1].how()
'nothing merges'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..equivalence.normal_form import Step
from ..layout import Layout

#: the notes ``coalesce_flat`` makes for each mode; a ``flat`` note starts a :class:`Run`
_COALESCE = ("drop", "start", "merge", "keep")


class Note:
    """One report: ``kind`` and the values the algorithm looked at, as attributes."""

    def __init__(self, kind: str, data: dict):
        self.kind = kind
        self.__dict__.update(data)

    def __repr__(self) -> str:
        return f"Note({self.kind!r})"


class Run:
    """One call of ``coalesce_flat``: its flat input and its steps (normal-form :class:`Step`)."""

    def __init__(self, shape: Any, stride: Any):
        self.modes = tuple(zip(shape, stride))
        self.steps = [Step("flatten", (), self.modes)]

    def add(self, n: Note) -> None:
        data = n.mode if n.kind in ("drop", "start") else n.prev + n.mode
        self.steps.append(Step(n.kind, data, ()))

    def source(self) -> Layout:
        """The flat modes it started from, as a layout."""
        return Layout._new(tuple(s for s, _ in self.modes), tuple(d for _, d in self.modes))

    def how(self) -> str:
        """What changed, in one line: the drops and merges, or ``nothing merges``."""
        acts = [s.text() for s in self.steps if s.rule in ("drop", "merge")]
        return "; ".join(acts) if acts else "nothing merges"


class Recorder:
    """Records the frames of one top-level call, whose frame is ``root``.

    Reports from other threads are ignored: they run the plain algorithm.
    """

    def __init__(self, root: Any):
        self.root = root
        self.open: list[list] = []  # the item lists of the open frames, innermost last
        self.frames: list = []  # (Derivation, items) of every frame, in the order they close
        self._thread = threading.get_ident()
        self._entering: Callable | None = None

    def opens(self, fn: Callable) -> bool:
        """Yes, unless this is the call that :meth:`framed` makes (or another thread's)."""
        if threading.get_ident() != self._thread:
            return False
        if self._entering is fn:  # the call that framed() makes
            self._entering = None
            return False
        return True

    def framed(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` in a new frame, nested in the open one (the first frame is ``root``)."""
        from . import Derivation

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
            self.open.pop()
            self.frames.append((D, items))
        return D.result

    def note(self, kind: str, **data: Any) -> None:
        """Keep a report in the open frame; a coalesce's reports go into one :class:`Run`."""
        if not self.open or threading.get_ident() != self._thread:
            return
        items = self.open[-1]
        if kind == "flat":
            items.append(Run(data["shape"], data["stride"]))
        elif kind in _COALESCE and items and isinstance(items[-1], Run):
            items[-1].add(Note(kind, data))
        else:
            items.append(Note(kind, data))

    def finish(self, explainers: dict) -> None:
        """Word every frame, innermost first, with ``explainers[op](derivation, items)``."""
        for D, items in self.frames:
            explain = explainers.get(D.op)
            if explain is None:
                D.add("computed directly (this operation has no finer steps to show)")
            else:
                explain(D, items)
