"""``left_inverse`` is C++'s quasi-inverse (include/cute/layout.hpp, CUTLASS 4.7.0).

C++'s post-condition: ``layout(result(layout(i))) == layout(i)`` for all ``i < size(layout)``;
a left inverse (``result(layout(i)) == i``) when the layout is injective. cutepy answers what
C++ answers and refuses (``AdmissibilityError``) only where C++'s answer is no layout (a
negative extent from a negative stride), C++ does not compile (its divisibility assertion),
or C++'s answer breaks its own post-condition.

``_cxx_left_inverse`` below is a model of C++'s function written from layout.hpp for this test
(exchange sort of the coalesced strides, skip stride 0, quotient of each stride by the extent
below, close with the last sorted mode's shape); cutepy's answer must equal the model's
wherever the model's answer is a layout meeting the post-condition.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given

import cutepy as cp
from cutepy import AdmissibilityError, Layout, left_inverse
from cutepy.core import inttuple as it
from cutepy.strategies import injective_layouts, layouts, negative_stride_layouts
from tests.cxx import cxx47_prints, cxx_harness


def _cxx_left_inverse(A: Layout):
    """C++'s construction: (shape, stride) before the final coalesce, or None where C++'s
    static assertion fails."""
    C = cp.coalesce(A)
    fs = it.flatten_tuple(C.shape) if type(C.shape) is tuple else (C.shape,)
    fd = it.flatten_tuple(C.stride) if type(C.stride) is tuple else (C.stride,)
    pre = [it.product(fs[:k]) for k in range(len(fs))]
    order = list(range(len(fd)))
    for i in range(len(order)):  # C++'s detail::SortByKey: exchange sort
        for j in range(i + 1, len(order)):
            if fd[order[j]] < fd[order[i]]:
                order[i], order[j] = order[j], order[i]
    shape, stride, size = [], [0], 1
    for k in order:
        if fd[k] == 0:
            continue
        if fd[k] % size != 0:
            return None
        q = fd[k] // size  # exact: C++'s truncating division agrees
        shape.append(q)
        stride.append(pre[k])
        size *= q
    shape.append(fs[order[-1]])
    return tuple(shape), tuple(stride)


def _meets_post_condition(A: Layout, R: Layout) -> bool:
    return all(A(R(A(i))) == A(i) for i in range(A.size()))


@given(layouts(max_stride=16))
def test_left_inverse_is_cxx_quasi_inverse(A):
    model = _cxx_left_inverse(A)
    try:
        R = cp.left_inverse(A)
    except cp.AdmissibilityError:
        # refused only where C++ rejects, answers no layout, or breaks its post-condition
        if model is not None and all(s > 0 for s in model[0]):
            assert not _meets_post_condition(A, cp.coalesce(Layout(*model)))
        return
    assert model is not None
    assert R == cp.coalesce(Layout(*model))
    assert _meets_post_condition(A, R)


@given(injective_layouts())
def test_left_inverse_of_an_injective_layout_is_a_left_inverse(A):
    try:
        R = cp.left_inverse(A)
    except cp.AdmissibilityError:
        assume(False)
    assert [R(A(i)) for i in range(A.size())] == list(range(A.size()))


@given(negative_stride_layouts())
def test_left_inverse_refuses_negative_strides(A):
    try:
        cp.left_inverse(A)
    except cp.AdmissibilityError as e:
        assert "negative" in str(e) or "multiple" in str(e)
    else:
        raise AssertionError(f"left_inverse({A}) answered; C++'s answer has a negative extent")


def test_inverses_print_what_cxx47_prints():
    """Inputs where cutepy raised before issue 20 although C++ answers correctly, and inverses
    of layouts with equal strides, against CUTLASS 4.7.0's prints (tests/data/cxx47_prints.tsv)."""
    for op, text in cxx47_prints.PINNED:
        case = cxx47_prints.pinned_case(op, text)
        [res] = cxx47_prints.lookup([case])
        assert res is not None, f"{op}({text}) is not in {cxx47_prints.STORE.name}; regenerate it"
        want = cxx_harness.normalise(res.output) if res.ok else None
        if want is None or "-" in want.split(":")[0]:  # C++ rejects it, or answers no layout
            with pytest.raises(cp.AdmissibilityError):
                case.py()
        elif op == "left_inverse" and not _meets_post_condition(case.args[0], cp.parse(want)):
            with pytest.raises(cp.AdmissibilityError):  # C++'s answer breaks its post-condition
                case.py()
        else:
            assert str(case.py()) == want, f"{op}({text})"


def test_explain_walks_the_quasi_inverse():
    d = cp.explain(cp.left_inverse, cp.parse("(8,4):(1,4)"))
    assert d.error is None and str(d.result) == "(4,4):(1,8)"
    text = d.text()
    assert "stride 4: 4/1 = 4" in text and "closes the inverse" in text
    refused = cp.explain(cp.left_inverse, cp.parse("(2,2,2):(2,2,1)"))
    assert type(refused.error) is cp.AdmissibilityError and "post-condition" in str(refused.error)


def test_a_broken_post_condition_names_a_long_layout_in_short() -> None:
    """The message stays a line however long the layout (it printed 60 KB at rank 8000)."""
    A = Layout((3, 2) + (1,) * 3000, (1, 2) + (0,) * 3000)
    want = r"left_inverse of \(3,2,1,1.*\.\.\.: C\+\+'s answer \(2,2\):\(1,3\) breaks .* at i = 5"
    with pytest.raises(AdmissibilityError, match=want) as e:
        left_inverse(A)
    assert len(str(e.value)) < 300
