"""Recording the algebra's decisions, the hook behind :func:`cutepy.explain`.

Each algorithm (``composition``, ``complement``, ``coalesce``, the inverses, divides and
products) is written once. While :func:`recording` runs, a :class:`Recorder` is the value
of a :class:`contextvars.ContextVar` for the current context only: other threads, and
other contexts of this one, never see it and run the plain algorithm.

An operation reads the recorder once, on entry, and asks it whether to open a frame
of its own::

    rec = recorder()
    if rec and rec.opens(complement):
        return rec.framed(complement, A, cotarget)

and each decision it takes is one plain test that builds the event only when someone listens::

    if rec:
        rec.emit(Gap(mode, below, gap, covers))

So with no recording the plain path pays one ``ContextVar.get()`` per call of an
operation and a local test per decision; events are never built. Each algorithm family
declares its events, with their words, beside its code (``Gap`` in
``cutepy/algebra/complement.py``); the shared ones are in :mod:`cutepy.core.events`.

A recorder has three methods:

- ``emit(event)``: the running algorithm took a decision;
- ``opens(fn)``: whether this call of the operation ``fn`` starts a frame of its own;
  an operation that is told yes returns ``framed(fn, *args)`` instead;
- ``framed(fn, *args)``: run ``fn(*args)`` (``opens`` is then False for that call)
  with the events it emits collected in a new frame; returns what ``fn`` returns.

:mod:`cutepy.derivation` records the frames and words the events as steps. A recorder
that opens no frames just sees the events, in order:

>>> from cutepy.core.layout import Layout
>>> from cutepy.algebra.complement import complement
>>> class Names:
...     def opens(self, fn): return False
...     def emit(self, event): print(type(event).__name__, end=" ")
>>> with recording(Names()):
...     complement(Layout(4, 2), 24)
Filter Flatten Start Filtered Sorted Gap CotargetRest Flatten Start Keep (2,3):(1,8)
>>> recorder() is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol


class Recorder(Protocol):
    """What :func:`recording` installs (see the module docstring)."""

    def emit(self, event: Any) -> None: ...

    def opens(self, fn: Callable) -> bool: ...

    def framed(self, fn: Callable, *args: Any) -> Any: ...


_RECORDER: ContextVar[Recorder | None] = ContextVar("cutepy_recorder", default=None)

#: ``recorder()``: the recorder of the current context, or None (the plain path)
recorder: Callable[[], Recorder | None] = _RECORDER.get


@contextmanager
def recording(rec: Recorder | None) -> Iterator[Recorder | None]:
    """Make ``rec`` the recorder of the current context for the ``with`` block.

    Post: inside the block, operations run in this context report to ``rec`` (None: to
    nobody); afterwards the previous recorder is back, also when the block raises. Other
    threads and contexts (``contextvars.copy_context().run``, new threads) keep theirs.
    """
    token = _RECORDER.set(rec)
    try:
        yield rec
    finally:
        _RECORDER.reset(token)
