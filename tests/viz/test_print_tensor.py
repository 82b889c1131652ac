"""print_tensor against C++ CuTe's print_tensor (CUTLASS 4.7 prints in tests/data)."""

from __future__ import annotations

import numpy as np
import pytest

from cutepy import Layout, make_tensor
from cutepy.viz import tensor_table
from tests.viz import print_tensor_cxx as ref

STORED = ref.read()


@pytest.mark.parametrize("k", range(len(ref.CASES)))
def test_print_tensor_matches_cxx(k: int) -> None:
    _, dtype, shape, stride, val = ref.CASES[k]
    n = int(np.prod(shape))
    i = np.arange(n)
    vals = {"i": i, "i / 4.0f": i / 4.0, "i / 4.0": i / 4.0, "i % 3 == 0": i % 3 == 0}[val]
    t = make_tensor(np.zeros(2 * n, dtype=dtype), Layout(shape, stride))
    for j in range(n):
        t[j] = vals[j]
    body = tensor_table(t).split("\n", 1)[1]
    assert body.rstrip("\n").split("\n") == STORED[k]
