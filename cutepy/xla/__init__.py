"""XLA shapes and tiled layouts: parse, print, index, size.

>>> s = parse_shape("f32[3,5]{1,0:T(2,2)}")
>>> str(s), linear_index(s, (2, 3)), sizes(s).array_size
('f32[3,5]{1,0:T(2,2)}', 17, 96)
>>> element_at(s, 17)
(2, 3)
>>> [str(t) for t in tpu_tiles("bf16", (1024, 1024))]
['(8,128)', '(2,1)']
"""

from __future__ import annotations

from .parser import MAX_NESTING, as_array_shape, parse_shape
from .semantics import buffer_elements, element_at, linear_index, linear_indices, tiled_dims
from .shape import (
    COMBINE_DIM,
    UNBOUNDED_DIM,
    ArrayShape,
    BufferShape,
    Shape,
    SplitConfig,
    Tile,
    TupleShape,
    XlaLayout,
)
from .sizes import ShapeSizes, sizes
from .tpu import tpu_tiles
from .types import ELEMENT_TYPES, ElementType, element_type

__all__ = [
    "COMBINE_DIM",
    "ELEMENT_TYPES",
    "MAX_NESTING",
    "UNBOUNDED_DIM",
    "ArrayShape",
    "BufferShape",
    "ElementType",
    "Shape",
    "ShapeSizes",
    "SplitConfig",
    "Tile",
    "TupleShape",
    "XlaLayout",
    "as_array_shape",
    "buffer_elements",
    "element_at",
    "element_type",
    "linear_index",
    "linear_indices",
    "parse_shape",
    "sizes",
    "tiled_dims",
    "tpu_tiles",
]
