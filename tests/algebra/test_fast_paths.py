"""The plain path of each operation (no one listening) equals its recorded path: result and error.

Issue 31's speed-ups are short cuts taken only while no recorder listens (the hook behind
:func:`cutepy.explain`): a composition with a one-mode A scales B's strides, ``complement``
reads one kept form, a by-mode ``zipped_divide`` zips tuples, blocked and raked products read
A's kept complement, the inverses are kept on the value. While a recorder listens, every
operation takes its steps one by one and keeps nothing. So the two paths are two
implementations of one function: these properties check that they agree, on a fresh value and
on the same values asked again (their forms kept from the second request on), for admissible
inputs and for inputs an operation refuses (the same error, word for word).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cutepy import (
    CutepyError,
    Layout,
    blocked_product,
    complement,
    composition,
    left_inverse,
    logical_divide,
    logical_product,
    raked_product,
    right_inverse,
    zipped_divide,
)
from cutepy.core.tracing import recording
from cutepy.strategies import (
    complementable_pairs,
    composable_pairs,
    divisible_pairs,
    layouts,
    tiling_layouts,
)


class _Listener:
    """A recorder that opens no frame and drops every event: the operations take their
    recorded (step by step) path and answer as usual."""

    def opens(self, fn: Any) -> bool:
        return False

    def emit(self, event: Any) -> None:
        pass


def _outcome(fn: Any, *args: Any) -> tuple:
    try:
        return "ok", str(fn(*args))
    except CutepyError as e:
        return "error", type(e).__name__, str(e)


def _agree(fn: Any, *args: Any) -> tuple:
    """The outcome with a listener, then three plain calls (fresh, then kept forms): all equal."""
    with recording(_Listener()):
        listened = _outcome(fn, *args)
    plain = [_outcome(fn, *args) for _ in range(3)]
    assert plain == [listened] * 3, (fn.__name__, args)
    return listened


def _fresh(L: Layout) -> Layout:
    """An equal layout that keeps nothing yet."""
    return Layout(L.shape, L.stride)


@given(composable_pairs())
def test_composition_paths_agree(pair):
    A, B = pair
    assert _agree(composition, _fresh(A), B)[0] == "ok"


@given(layouts(negative=True), layouts(3))
def test_composition_paths_agree_on_any_pair(A, B):
    _agree(composition, A, B)


@given(complementable_pairs())
def test_complement_paths_agree(pair):
    A, M = pair
    assert _agree(complement, _fresh(A), M)[0] == "ok"


@given(layouts(negative=True), st.integers(1, 300))
def test_complement_paths_agree_on_any_layout(A, M):
    _agree(complement, A, M)


@given(divisible_pairs())
def test_divide_paths_agree(pair):
    A, T = pair
    assert _agree(logical_divide, _fresh(A), T)[0] == "ok"
    assert _agree(zipped_divide, _fresh(A), T)[0] == "ok"


@given(layouts(), st.lists(st.one_of(st.none(), tiling_layouts(2, 1)), min_size=1, max_size=3))
def test_by_mode_divide_paths_agree(A, tiler):
    _agree(logical_divide, A, tuple(tiler))
    _agree(zipped_divide, A, tuple(tiler))


def _products_agree(A: Layout, B: Layout) -> None:
    for op in (logical_product, blocked_product, raked_product):
        _agree(op, _fresh(A), B)


@given(layouts(), layouts(3))
def test_product_paths_agree(A, B):
    _products_agree(A, B)


@given(tiling_layouts(gaps=False), layouts(3, negative=True))
def test_product_paths_agree_on_compact_blocks(A, B):
    """A compact block has a one-mode complement: the products' shortest path (B's strides scaled)."""
    _products_agree(A, B)


@given(tiling_layouts(), tiling_layouts(3))
def test_product_paths_agree_on_tiling_blocks(A, B):
    _products_agree(A, B)


@given(layouts(negative=True))
def test_inverse_paths_agree(L):
    _agree(right_inverse, _fresh(L))
    _agree(left_inverse, _fresh(L))
