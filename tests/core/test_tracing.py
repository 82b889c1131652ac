"""Recording is per context: thread-safe, invisible elsewhere, and free when off."""

from __future__ import annotations

import ast
import contextvars
import inspect
import sys
import threading
from pathlib import Path

import pytest

from cutepy.algebra import coalesce as coalesce_m
from cutepy.algebra import complement as complement_m
from cutepy.algebra import composition as composition_m
from cutepy.algebra import divides as divides_m
from cutepy.algebra import inverse as inverse_m
from cutepy.algebra import products as products_m
from cutepy.algebra.coalesce import coalesce
from cutepy.algebra.complement import complement
from cutepy.algebra.composition import composition
from cutepy.algebra.divides import logical_divide, zipped_divide
from cutepy.algebra.inverse import left_inverse, right_inverse
from cutepy.algebra.products import blocked_product, logical_product, tile_to_shape
from cutepy.core import events
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.core.tracing import recorder, recording
from cutepy.derivation import explain
from tests.paths import PACKAGE

ROOT = PACKAGE

#: every event: the shared ones (cutepy.core.events) and each algorithm family's, declared beside it
EVENTS = [c for mod in (events, coalesce_m, complement_m, composition_m, divides_m, inverse_m, products_m)
          for _, c in inspect.getmembers(mod, inspect.isclass)
          if c.__module__ == mod.__name__ and issubclass(c, events.Event) and c is not events.Event]


class Listener:
    """A recorder that opens no frames and keeps every event."""

    def __init__(self):
        self.events: list = []

    def opens(self, fn):
        return False

    def framed(self, fn, *args):  # never called: opens() says no
        raise AssertionError("framed")

    def emit(self, event):
        self.events.append(event)


# (operation, args, result): the results are the worked examples of the CuTe docs / SPEC.md
CALLS = [
    (composition, (Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))), Layout(((2, 2), 3), ((24, 2), 8))),
    (complement, (Layout(4, 2), 24), Layout((2, 3), (1, 8))),
    (complement, (Layout((2, 2), (1, 6)), 24), Layout((3, 2), (2, 12))),
    (coalesce, (Layout((2, (1, 6)), (1, (6, 2))),), Layout(12, 1)),
    (logical_divide, (Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2)),
     Layout(((2, 2), (2, 3)), ((4, 1), (2, 8)))),
    (zipped_divide, (Layout((8, 6)), (4, 3)), Layout(((4, 3), (2, 2)), ((1, 8), (4, 24)))),
    (logical_product, (Layout((2, 2), (4, 1)), Layout(6, 1)), Layout(((2, 2), (2, 3)), ((4, 1), (2, 8)))),
    (blocked_product, (Layout((2, 2)), Layout((2, 3))), Layout(((2, 2), (2, 3)), ((1, 4), (2, 8)))),
    (tile_to_shape, (Layout((2, 2)), (4, 6)), Layout(((2, 2), (2, 3)), ((1, 4), (2, 8)))),
    (right_inverse, (Layout((4, 2), (2, 1)),), Layout((2, 4), (4, 1))),
    (left_inverse, (Layout(4, 2),), Layout((2, 4), (0, 1))),
]


def _plain_calls() -> None:
    for fn, args, want in CALLS:
        got = fn(*args)
        assert got == want, (fn.__name__, args, got, want)


def test_recording_sees_the_events_of_its_context_and_is_removed_after():
    rec = Listener()
    with recording(rec) as r:
        assert r is rec and recorder() is rec
        assert complement(Layout(4, 2), 24) == Layout((2, 3), (1, 8))
    assert recorder() is None
    gaps = [e for e in rec.events if isinstance(e, complement_m.Gap)]
    assert gaps == [complement_m.Gap(mode=(4, 2), below=1, gap=2, covers=8)]


def test_recording_is_reset_when_the_block_raises_and_nests():
    outer, inner = Listener(), Listener()
    with pytest.raises(CutepyError):
        with recording(outer):
            with recording(inner):
                assert recorder() is inner
                complement(Layout((2, 2), (1, 1)), 8)  # overlapping modes: no complement
            raise AssertionError("not reached")
    assert recorder() is None
    assert not outer.events and inner.events


def test_a_recording_is_invisible_in_another_context():
    rec = Listener()
    elsewhere = contextvars.copy_context()  # taken before the recording starts
    with recording(rec):
        assert elsewhere.run(recorder) is None
        elsewhere.run(_plain_calls)
        assert contextvars.Context().run(recorder) is None
        seen = []
        t = threading.Thread(target=lambda: (seen.append(recorder()), _plain_calls()))
        t.start()
        t.join()
        assert seen == [None]
    assert rec.events == []  # nothing of the other context or the thread reached it
    # and a recording open in another thread stays there
    other, opened, done = Listener(), threading.Event(), threading.Event()

    def hold():
        with recording(other):
            opened.set()
            done.wait(30)

    t = threading.Thread(target=hold)
    t.start()
    opened.wait(30)
    try:
        assert recorder() is None
        _plain_calls()
    finally:
        done.set()
        t.join()
    assert other.events == []


def test_explain_in_threads_while_other_threads_run_plain_operations():
    cases = [(fn.__name__, *args) for fn, args, _ in CALLS]
    want = {case: explain(*case).text() for case in cases}  # one thread at a time
    errors: list = []
    stop = threading.Event()
    start = threading.Barrier(4)

    def explaining(order):
        start.wait()
        try:
            for _ in range(50):
                for case in order:
                    got = explain(*case).text()
                    assert got == want[case], (case, got, want[case])
        except Exception as e:  # reported to the main thread
            errors.append(e)

    def plain():
        start.wait()
        try:
            while not stop.is_set():
                assert recorder() is None
                _plain_calls()
        except Exception as e:  # reported to the main thread
            errors.append(e)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, inside the operations
    try:
        workers = [threading.Thread(target=plain) for _ in range(2)]
        explainers = [threading.Thread(target=explaining, args=(o,)) for o in (cases, cases[::-1])]
        for t in workers + explainers:
            t.start()
        for t in explainers:
            t.join()
        stop.set()
        for t in workers:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []
    assert recorder() is None
    rec = Listener()
    with recording(rec):
        pass
    _plain_calls()
    assert rec.events == []


def test_the_plain_path_builds_no_event(monkeypatch):
    def built(*args, **kwargs):
        raise AssertionError("an event was built with no recorder listening")

    monkeypatch.setattr(events.Event, "__init__", built)  # every event is built through it
    with pytest.raises(AssertionError, match="no recorder"):  # the patch is seen
        events.KeptModes(1)
    _plain_calls()
    composition(Layout((6, 2), (8, 2)), (3, None))
    coalesce(Layout((2, 1, 6), (1, 6, 2)), (1, 1))
    zipped_divide(Layout((8, 6)), (Layout(4), Layout(3)))


def test_events_are_small_frozen_slotted_records():
    assert len(EVENTS) >= 40
    for cls in EVENTS:
        assert "__slots__" in cls.__dict__ and cls.__slots__ == cls._fields, cls
        e = cls(*range(len(cls._fields)))
        assert not hasattr(e, "__dict__")
        assert e == cls(*range(len(cls._fields))) and hash(e) == hash(cls(*range(len(cls._fields))))
        for f in cls._fields:
            with pytest.raises(AttributeError, match="frozen"):
                setattr(e, f, -1)


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(level, module)`` of every import in ``path``: level 0 is absolute."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or ""))
    return out


def test_tracing_and_events_import_nothing_of_cutepy_but_errors():
    for name in ("tracing.py", "events.py"):
        for level, module in _imports(ROOT / "core" / name):
            assert level == 0 or module == "errors", (name, level, module)
            assert level > 0 or not module.startswith("cutepy"), (name, module)


def test_the_derivation_imports_the_algebra_not_the_package():
    for path in sorted((ROOT / "derivation").glob("*.py")):
        for level, module in _imports(path):
            assert not (level == 0 and module.split(".")[0] == "cutepy"), (path.name, module)
            assert not (level == 2 and module == ""), (path.name, "from .. import")
            if level == 2 and module.split(".")[0] in ("notation", "viz", "cli", "emit"):
                assert (path.name, module) == ("steps.py", "viz"), (path.name, module)  # lazy pictures
        assert "getattr(cutepy" not in path.read_text()
