"""Whole-domain evaluation of a layout with numpy, no Python loop per element.

>>> from cutepy import Layout
>>> offsets(Layout(((2, 2), 3), ((24, 2), 8)))
array([ 0, 24,  2, 26,  8, 32, 10, 34, 16, 40, 18, 42])
>>> offsets(Layout((4, 3), (3, 1)), [0, 5, 11, 12])
array([ 0,  4, 11,  3])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import inttuple as it
from .errors import CutepyError

_INT64_MAX = (1 << 63) - 1


def _flat_int_modes(layout: Any) -> tuple[tuple, tuple]:
    fs = it.flatten(layout.shape)
    fd = it.flatten(layout.stride)
    for s, d in zip(fs, fd):
        if type(s) is not int or type(d) is not int:
            raise CutepyError(
                f"whole-domain evaluation of {layout} needs integer shapes and strides; "
                "substitute symbols (or use the identity's coordinates) first"
            )
    return fs, fd


def _check_range(layout: Any, fs: tuple, fd: tuple) -> None:
    reach = sum((s - 1) * abs(d) for s, d in zip(fs, fd))
    if reach > _INT64_MAX:
        raise CutepyError(f"offsets of {layout} reach {reach}, beyond int64; no array is made")


def offsets(layout: Any, indices: Any = None) -> np.ndarray:
    """``layout(i)`` as an int64 array, for ``i`` in ``range(size)`` or in ``indices``."""
    fs, fd = _flat_int_modes(layout)
    if indices is not None:
        return _offsets_at(layout, fs, fd, indices)
    _check_range(layout, fs, fd)
    n = it.product(fs)
    if n > _INT64_MAX:
        raise CutepyError(f"{layout} has {n} elements: too many for an array")
    out = np.empty(n, dtype=np.int64)
    if n == 0:
        return out
    out[0] = 0
    m = 1
    for s, d in zip(fs, fd):
        if s == 1:
            continue
        block = out[: m * s].reshape(s, m)
        np.add(
            out[:m][None, :],
            (np.arange(1, s, dtype=np.int64) * d)[:, None],
            out=block[1:],
        )
        m *= s
    return out


def _offsets_at(layout: Any, fs: tuple, fd: tuple, indices: Any) -> np.ndarray:
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise CutepyError(f"indices must be integers, got dtype {idx.dtype}")
    idx = idx.astype(np.int64, copy=False)
    if idx.size and fs:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < 0:
            raise CutepyError(f"index {lo} is negative")
        last_crd = hi // it.product(fs[:-1])
        reach = sum((s - 1) * abs(d) for s, d in zip(fs[:-1], fd[:-1])) + last_crd * abs(fd[-1])
        if reach > _INT64_MAX:
            raise CutepyError(f"offsets of {layout} at index {hi} reach {reach}, beyond int64")
    result = np.zeros(idx.shape, dtype=np.int64)
    rem = idx.copy()
    last = len(fs) - 1
    for k, (s, d) in enumerate(zip(fs, fd)):
        if k == last:
            c = rem
        else:
            c = rem % s
            rem //= s
        if d:
            result += c * d
    return result
