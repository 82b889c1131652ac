"""Issue 25 on programs: a huge array is a size refusal naming the limit, never a MemoryError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cutepy
import cutepy.program as P


def test_an_8_tib_check_is_refused_with_the_element_limit():
    prog = P.pad(P.trace((2**40,), "y"), 1).reshape(2, 2**39 + 1)
    with pytest.raises(cutepy.ProgramError, match="element limit"):
        P.to_layout(prog)


def test_materializing_a_huge_buffer_or_huge_inputs_is_refused():
    with pytest.raises(cutepy.ProgramError, match="above the limit"):
        P.materialize(P.to_layout(P.pad(P.trace((2,), "x"), 2**40)))
    with pytest.raises(cutepy.ProgramError, match="above the limit"):
        P.default_data(P.trace((2**40,), "x"))


@given(st.integers(1, 40), st.integers(1, 3))
def test_pad_then_reshape_compiles_or_refuses_by_size(log_n, pad):
    n = 2**log_n
    prog = P.pad(P.trace((n,), "y"), pad).reshape(2, (n + 2 * pad) // 2)
    with cutepy.limits(max_elements=2**20):
        if n + 2 * pad <= 2**20:
            compiled = P.to_layout(prog)
            assert P.check(compiled)  # the program's own numpy run agrees with the compiled layout
        else:
            with pytest.raises(cutepy.CutepyError, match="element limit"):
                P.to_layout(prog)
