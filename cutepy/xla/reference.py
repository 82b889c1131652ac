"""A deliberately simple reference model of XLA tiling, to check :mod:`.semantics`.

It runs the docs' recipe on real data (only the guard on numpy's rank limit, 64 dims,
reads :mod:`.padding`): ``np.arange`` of the logical array,
transposed to physical order (``minor_to_major``), then for each tile level
reshape-merge the ``*`` dims, pad with ``-1`` to whole tiles, split every tiled
dim into ``(ceil(d/t), t)`` and transpose all the ``t`` to the minor end; finally
flatten and pad to a multiple of ``L(n)``. It shares no code with
:mod:`.semantics` (only the shape objects), so the two can check each other.

Figure 2 of the docs, ``f32[4,8]{1,0:T(2,4)(2,1)}``:

>>> reference_buffer("f32[4,8]{1,0:T(2,4)(2,1)}")[:8]
array([ 0,  8,  1,  9,  2, 10,  3, 11])
>>> reference_offsets("f32[4,8]{1,0:T(2,4)(2,1)}")[0]
array([ 0,  2,  4,  6,  8, 10, 12, 14])
"""

from __future__ import annotations

from ..core.errors import CutepyError
from ..core.lazy import load
from ..core.limits import max_elements
from ..program.engine import MAX_ARRAY_DIMS
from .padding import max_rank
from .parser import as_array_shape
from .semantics import buffer_elements
from .shape import COMBINE_DIM, Shape

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError

#: Value the reference model stores in padding slots.
PAD = -1


def _tile_once(a: np.ndarray, tile: tuple[int, ...]) -> np.ndarray:
    """One tile level on an array whose axes are physical dims, major first."""
    k = len(tile)
    if k > a.ndim:
        a = a.reshape((1,) * (k - a.ndim) + a.shape)
    p = a.ndim - k
    merged = list(a.shape[:p])
    sizes = []
    carry = 1
    for d, t in zip(a.shape[p:], tile, strict=True):
        if t == COMBINE_DIM:
            carry *= d
        else:
            merged.append(carry * d)
            sizes.append(t)
            carry = 1
    a = a.reshape(merged)
    widths = [(0, 0)] * p + [(0, -d % t) for d, t in zip(merged[p:], sizes, strict=True)]
    if widths:
        a = np.pad(a, widths, constant_values=PAD)
    split = list(merged[:p])
    for d, t in zip(merged[p:], sizes, strict=True):
        split += [-(-d // t), t]
    a = a.reshape(split)
    g = len(sizes)
    perm = list(range(p)) + [p + 2 * j for j in range(g)] + [p + 2 * j + 1 for j in range(g)]
    return a.transpose(perm)


def reference_buffer(shape: Shape | str) -> np.ndarray:
    """The physical buffer: at each slot, the C-order logical index stored there, or -1.

    >>> reference_buffer("f32[2,3]{0,1}")
    array([0, 3, 1, 4, 2, 5])
    """
    arr = as_array_shape(shape)
    dims = arr.concrete_bounds("reference_buffer()")
    slots = buffer_elements(arr)
    if slots > max_elements():  # the model holds the whole padded buffer
        raise CutepyError(f"the reference model of {arr} needs a buffer of {slots} slots, above the element "
                          f"limit of {max_elements()} (raise it with cutepy.limits(max_elements=...))")
    if max_rank(arr) > MAX_ARRAY_DIMS:
        raise CutepyError(f"the reference model of {arr} needs {max_rank(arr)}-dimensional arrays; "
                          f"numpy allows at most {MAX_ARRAY_DIMS}")
    lay = arr.effective_layout
    a = np.arange(int(np.prod(dims, dtype=np.int64)), dtype=np.int64).reshape(dims)
    a = a.transpose(tuple(reversed(lay.minor_to_major)))
    for tile in lay.tiles:
        a = _tile_once(a, tile.dims)
    flat = a.reshape(-1)
    align = lay.tail_padding_alignment_in_elements
    return np.pad(flat, (0, -flat.size % align), constant_values=PAD)


def reference_offsets(shape: Shape | str) -> np.ndarray:
    """Where each logical element landed: an int64 array shaped like the logical dims.

    >>> reference_offsets("f32[3,5]{1,0:T(2,2)}")[2]
    array([12, 13, 16, 17, 20])
    """
    arr = as_array_shape(shape)
    buf = reference_buffer(arr)
    slots = np.nonzero(buf != PAD)[0]
    n = int(np.prod(arr.bounds, dtype=np.int64))
    if slots.size != n or not np.array_equal(np.sort(buf[slots]), np.arange(n)):
        raise CutepyError(f"reference model lost or duplicated elements of {arr}")
    out = np.empty(n, dtype=np.int64)
    out[buf[slots]] = slots
    return out.reshape(arr.bounds)
