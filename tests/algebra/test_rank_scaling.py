"""Issue 33, item 10: the inverses and ``max_common_vector`` of layouts of thousands of modes do
near-linear work, measured by counting executed Python lines (``sys.settrace``), never by timing."""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np  # noqa: F401 (imported before counting: an import is not the algorithm's work)
import pytest

import cutepy
from cutepy import Layout


def lines(fn: Callable[[], object]) -> int:
    """The Python line events ``fn()`` executes (a CutepyError is a fine answer)."""
    n = 0

    def tracer(frame, event, arg):
        nonlocal n
        if event == "line":
            n += 1
        return tracer

    fn()  # warm: lazy imports and caches are not the work measured
    sys.settrace(tracer)
    try:
        try:
            fn()
        except cutepy.CutepyError:
            pass
    finally:
        sys.settrace(None)
    return n


def _units(r: int) -> Layout:
    """``r`` modes, all of size 1 but three, strides varied: the fuzz run's huge-rank layouts."""
    shape = [1] * r
    shape[r // 3], shape[r // 2], shape[-1] = 2, 3, 4
    stride = [(7 * k) % 1000 for k in range(r)]
    stride[r // 3], stride[r // 2], stride[-1] = 1, 2, 6
    return Layout(tuple(shape), tuple(stride))


def _compact(r: int) -> Layout:
    shape = [1] * r
    for k in range(0, r, r // 12):
        shape[k] = 2
    stride, acc = [], 1
    for k, s in enumerate(shape):
        stride.append(acc if s > 1 else k % 97)
        acc *= s
    return Layout(tuple(shape), tuple(stride))


@pytest.mark.parametrize("family", [_units, _compact])
@pytest.mark.parametrize("op", ["left_inverse", "right_inverse", "max_common_vector"])
def test_inverses_and_common_vector_are_near_linear_in_the_rank(op: str, family) -> None:
    def call(r: int) -> Callable[[], object]:
        A = family(r)
        return (lambda: cutepy.max_common_vector(A, A)) if op == "max_common_vector" else (
            lambda: getattr(cutepy, op)(A))

    small, big = lines(call(1000)), lines(call(8000))
    assert big <= 8 * 1.5 * small, (small, big)  # 8x the rank: at most 12x the work
