"""XLA shapes and tiled layouts: parse, print, index, size, compile to CuTe and back.

Layer 3 (engines): XLA's own text is parsed here (:mod:`.parser`), its formula computed
(:mod:`.semantics`) and compiled to CuTe layouts (:mod:`.compile`, :mod:`.decompile`).

>>> s = parse_shape("f32[3,5]{1,0:T(2,2)}")
>>> str(s), linear_index(s, (2, 3)), sizes(s).array_size
('f32[3,5]{1,0:T(2,2)}', 17, 96)
>>> element_at(s, 17)
(2, 3)
>>> [str(t) for t in tpu_tiles("bf16", (1024, 1024))]
['(8,128)', '(2,1)']
>>> to_cute(s)
((2,2),(2,3)):((2,12),(1,4))
>>> c = compile_details(s)
>>> c.form, c.domain, c(2, 3)
('layout', (4, 6), 17)
>>> str(from_cute(c))
'{1,0:T(2,2)}'
"""

from __future__ import annotations

from .buffers import pack, storage_bits, unpack
from .compile import (
    PLAIN_CHECK,
    XlaCompiledLayout,
    check_compile,
    compile_details,
    offsets_at,
    program,
    to_cute,
)
from .decompile import from_cute
from .parser import MAX_NESTING, as_array_shape, parse_shape
from .report import report
from .semantics import (
    buffer_elements,
    element_at,
    linear_index,
    linear_indices,
    linear_indices_at,
    tiled_dims,
)
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
    "PLAIN_CHECK",
    "UNBOUNDED_DIM",
    "ArrayShape",
    "BufferShape",
    "ElementType",
    "Shape",
    "ShapeSizes",
    "SplitConfig",
    "Tile",
    "TupleShape",
    "XlaCompiledLayout",
    "XlaLayout",
    "as_array_shape",
    "buffer_elements",
    "check_compile",
    "compile_details",
    "element_at",
    "element_type",
    "from_cute",
    "linear_index",
    "linear_indices",
    "linear_indices_at",
    "offsets_at",
    "pack",
    "parse_shape",
    "program",
    "report",
    "sizes",
    "storage_bits",
    "tiled_dims",
    "to_cute",
    "tpu_tiles",
    "unpack",
]
