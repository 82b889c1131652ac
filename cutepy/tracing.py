"""Optional reports of the algebra's decisions, the hook behind :func:`cutepy.explain`.

Each algorithm (``composition``, ``complement``, ``coalesce``, the inverses, divides
and products) is written once. Its module has a global ``_tracer``, ``None`` unless
:func:`recording` installs a tracer, and reports only behind ``if _tracer is not
None`` (or a local copy of it): the plain path pays that test and nothing else.

A tracer has three methods:

- ``note(kind, **data)``: the running algorithm took a decision (``"merge"``,
  ``"gap"``, ``"take"``...; ``data`` holds the values it looked at);
- ``opens(fn)``: whether this call of the operation ``fn`` starts a frame of its
  own; an operation that is told yes returns ``framed(fn, *args)`` instead;
- ``framed(fn, *args)``: run ``fn(*args)`` (``opens`` is then False for that call)
  with the notes it makes collected in a new frame; returns what ``fn`` returns.

So a traced operation begins with::

    if _tracer is not None and _tracer.opens(op):
        return _tracer.framed(op, *args)

:mod:`cutepy.derivation` records the frames and words the notes as steps. A tracer
that opens no frames just sees the notes, in order:

>>> from cutepy import Layout, complement
>>> class Kinds:
...     def opens(self, fn): return False
...     def note(self, kind, **data): print(kind, end=" ")
>>> with recording(Kinds()):
...     complement(Layout(4, 2), 24)
filter flat start filtered sorted gap rest flat start keep (2,3):(1,8)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: the modules whose algorithms report to ``_tracer``
TRACED = ("coalesce", "complement", "composition", "divides", "inverse", "products")


@contextmanager
def recording(tracer: Any) -> Iterator[Any]:
    """Install ``tracer`` in the traced modules for the ``with`` block (the previous one comes back).

    The modules are shared: other threads see the tracer too (a recorder ignores their
    reports), and two recordings should not run at once in different threads.
    """
    modules = [importlib.import_module(f"cutepy.{name}") for name in TRACED]
    saved = [m._tracer for m in modules]
    for m in modules:
        m._tracer = tracer
    try:
        yield tracer
    finally:
        for m, t in zip(modules, saved):
            m._tracer = t
