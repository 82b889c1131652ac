"""Bad input to cutepy.linear raises CutepyError (never another exception, never a hang)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy import CutepyError, Layout
from cutepy.linear import LinearLayout, from_cute, from_gluon, solve_swizzle, to_cute
from cutepy.linear.spec import FIELDS

junk_int = st.one_of(st.integers(-3, 70), st.sampled_from([2**31, 2**62, 2**64, 3, 6, 0]))
junk = st.one_of(
    junk_int,
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(junk_int, max_size=4),
    st.lists(st.lists(junk_int, max_size=3), max_size=3),
)


@st.composite
def junk_specs(draw, depth=0):
    kind = draw(st.sampled_from(sorted(FIELDS) + ["NoSuchLayout"]))
    spec = {"kind": kind}
    for field in FIELDS.get(kind, {"x": None}):
        if draw(st.integers(0, 5)) == 0:
            continue  # a missing field
        if field == "parent" and depth < 2:
            spec[field] = draw(junk_specs(depth + 1))
        else:
            spec[field] = draw(junk)
    return spec


@settings(max_examples=300)
@given(junk_specs(), st.lists(st.one_of(junk_int, st.sampled_from([1, 2, 4, 8, 16, 64])), max_size=4))
def test_junk_gluon_specs_raise_cutepy_errors(spec, shape):
    try:
        L = from_gluon(spec, shape)
    except CutepyError:
        return
    assert isinstance(L, LinearLayout)


@given(st.text(max_size=60))
def test_junk_text_raises_cutepy_errors(text):
    try:
        from_gluon(text, [4, 4])
    except CutepyError:
        pass


@pytest.mark.parametrize(
    "text",
    [
        "BlockedLayout(",
        "os.system('x')",
        "BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[1], order=[0], x=1)",
        "BlockedLayout([1], [32], [1], [0])",
        "BlockedLayout(size_per_thread=f(), threads_per_warp=[32], warps_per_cta=[1], order=[0])",
        "BlockedLayout(size_per_thread=[2**40], threads_per_warp=[32], warps_per_cta=[1], order=[0])",
    ],
)
def test_text_that_is_not_a_gluon_layout(text):
    with pytest.raises(CutepyError):
        from_gluon(text, [4])


def test_huge_layouts_are_refused_before_any_work():
    with pytest.raises(CutepyError, match="elements|bits"):
        from_gluon(
            {
                "kind": "BlockedLayout",
                "size_per_thread": [2**40],
                "threads_per_warp": [32],
                "warps_per_cta": [1],
                "order": [0],
            },
            [2**41],
        )
    with pytest.raises(CutepyError, match="bits"):
        LinearLayout({"register": [[1]] * 65}, [("dim0", 2)])


@given(st.one_of(junk, st.just(Layout(4, 1))), st.one_of(junk, st.just(Layout(4, 2))))
def test_junk_to_the_converters_raises_cutepy_errors(a, b):
    for call in (
        lambda: to_cute(a),
        lambda: from_cute(a, shape=b),
        lambda: solve_swizzle(a, b),
        lambda: from_cute(a, kind="shared"),
    ):
        try:
            call()
        except CutepyError:
            pass


def test_a_nested_spec_with_a_junk_rank_is_refused() -> None:
    """Found by the junk-spec property: a SliceLayout over an NVMMASharedLayout whose rank is
    not an integer (it crashed with a TypeError)."""
    spec = {"kind": "SliceLayout", "dim": 0,
            "parent": {"kind": "NVMMASharedLayout", "swizzle_byte_width": 0, "element_bitwidth": 0,
                       "rank": ""}}
    with pytest.raises(CutepyError, match="rank must be a positive int"):
        from_gluon(spec, [1])
