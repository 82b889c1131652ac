"""The operations ``explain`` can run, by name: the algebra's functions, imported directly.

>>> operation("complement").__module__
'cutepy.algebra.complement'
>>> operation("no_such_op")
Traceback (most recent call last):
...
cutepy.CutepyError: explain: cutepy has no operation 'no_such_op'
"""

from __future__ import annotations

from collections.abc import Callable

from ..algebra.casting import downcast, make_layout_like, make_ordered_layout, upcast
from ..algebra.coalesce import coalesce, filter
from ..algebra.complement import complement
from ..algebra.composition import composition, is_admissible
from ..algebra.divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from ..algebra.inverse import left_inverse, max_common_layout, max_common_vector, nullspace, right_inverse
from ..algebra.products import (
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)
from ..core.errors import CutepyError
from ..core.layout import (
    append,
    cosize,
    depth,
    dice,
    flatten,
    get,
    group,
    make_identity_layout,
    make_layout,
    prepend,
    rank,
    replace,
    select,
    size,
    slice_and_offset,
    take,
)

#: every operation ``explain`` knows, by its name; those without an explainer are "computed directly"
OPERATIONS: dict[str, Callable] = {
    fn.__name__: fn
    for fn in (
        coalesce, filter, complement, composition, is_admissible,
        logical_divide, zipped_divide, tiled_divide, flat_divide,
        logical_product, zipped_product, tiled_product, flat_product, blocked_product, raked_product,
        tile_to_shape, right_inverse, left_inverse, nullspace, max_common_layout, max_common_vector,
        upcast, downcast, make_layout, make_layout_like, make_ordered_layout, make_identity_layout,
        size, cosize, rank, depth, flatten, append, prepend, group, select, take, get, replace, dice,
        slice_and_offset,
    )
}


def operation(name: str) -> Callable:
    """The operation called ``name`` (else :class:`~cutepy.CutepyError`)."""
    fn = OPERATIONS.get(name)
    if fn is None:
        raise CutepyError(f"explain: cutepy has no operation {name!r}")
    return fn
