"""Issue 33, item 1: a static slice of a swizzled layout is refused where C++ CuTe 4.7 refuses it
and never reads the wrong elements.

C++'s answers (or 'rejected' where it does not compile the slice) are stored in
tests/data/swizzle_slice_cxx47.txt by tests/algebra/swizzle_slice_cxx47.py. Where C++ compiles
a slice whose answer is wrong (the fixed offset carries into the swizzle's bits), cutepy gives
the right answer or refuses; the brute-force model (tests/fuzz/brute.py) is the judge.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy import ComposedLayout, CutepyError, Layout, parse
from cutepy.core.layout import slice_and_offset
from cutepy.strategies import swizzled_layouts
from tests.algebra import swizzle_slice_cxx47 as cxx
from tests.fuzz import brute

STORED = cxx.read()
CASES = {cxx.key(C, crd): (C, crd) for C, crd in cxx.cases()}


def _truth(C: ComposedLayout, crd: tuple) -> list[int]:
    """The layout's values along the free mode, by brute force."""
    shape = C.inner.shape
    i = crd.index(None)
    out = []
    for j in range(shape[i]):
        c = tuple(j if x is None else x for x in crd)
        idx = c[0] + shape[0] * c[1]
        out.append(brute.evaluate(C, idx))
    return out


def _values(sub, off: int) -> list[int]:
    return [off + brute.evaluate(sub, j) for j in range(brute.size(sub))]


def _parse_answer(text: str) -> tuple:
    sub, off = text.split("|")
    return parse(sub), int(off)


def test_the_stored_table_has_every_case() -> None:
    assert set(STORED) == set(CASES)
    assert sum(v == "rejected" for v in STORED.values()) >= 10
    assert sum(v != "rejected" for v in STORED.values()) >= 10


@pytest.mark.parametrize("key", sorted(CASES))
def test_swizzled_slice_follows_cxx47(key: str) -> None:
    C, crd = CASES[key]
    got = cxx.cutepy_answer(C, crd)
    want = STORED[key]
    truth = _truth(C, crd)
    if want == "rejected":
        assert got == "rejected", f"C++ refuses {key}; cutepy answers {got}"
        return
    if _values(*_parse_answer(want)) == truth:
        assert got == want  # C++ is right: the same answer, mode for mode
    elif got != "rejected":  # C++ compiles a wrong answer: cutepy's is the right one
        assert _values(*_parse_answer(got)) == truth


def test_the_issue_slice_is_refused_as_in_cxx() -> None:
    C = parse("Sw<1,0,3> o 0 o (3,3):(3,1)")
    with pytest.raises(CutepyError, match="C\\+\\+ refuses this slice"):
        slice_and_offset((2, None), C)


@settings(max_examples=300, deadline=None)
@given(C=swizzled_layouts(), data=st.data())
def test_a_swizzled_slice_never_reads_wrong_elements(C: ComposedLayout, data) -> None:
    shape = C.inner.shape
    assume(isinstance(shape, tuple) and len(shape) >= 2)
    k = data.draw(st.integers(0, len(shape) - 1))
    crd = tuple(None if i == k else data.draw(st.integers(0, brute.nsize(s) - 1))
                for i, s in enumerate(shape))
    try:
        sub, off = slice_and_offset(crd, C)
    except CutepyError:
        sub = off = None
    assume(sub is not None)
    # the free mode's values, by brute force over the whole layout
    inner = Layout(shape, C.inner.stride)
    for j in range(brute.nsize(shape[k])):
        c = tuple(j if x is None else x for x in crd)
        want = brute.swizzle(C.offset + brute.evaluate(inner, brute.crd2idx(c, shape, _colmajor(shape))),
                             C.outer.bits, C.outer.base, C.outer.shift)
        assert off + brute.evaluate(sub, j) == want, (crd, C, sub, off)


def _colmajor(shape):
    return brute.prefix_product(shape)
