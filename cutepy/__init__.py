"""cutepy: CuTe layout algebra in Python, and XLA's tiled layouts compiled into it.

>>> import cutepy
>>> A = cutepy.Layout((6, 2), (8, 2))
>>> cutepy.composition(A, cutepy.parse("(4,3):(3,1)"))
((2,2),3):((24,2),8)
"""

import importlib
import sys

from .basis import E, ScaledBasis
from .casting import downcast, upcast
from .coalesce import coalesce, filter
from .complement import complement
from .composition import composition, is_admissible
from .divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from .errors import AdmissibilityError, CutepyError, LayoutError, ParseError, SymbolicError
from .inttuple import (
    ceil_div,
    compatible,
    congruent,
    crd2idx,
    idx2crd,
    inner_product,
    prefix_product,
    product,
    shape_div,
    suffix_product,
    weakly_congruent,
)
from .inverse import left_inverse, max_common_layout, max_common_vector, nullspace, right_inverse
from .layout import (
    Layout,
    LayoutLeft,
    LayoutRight,
    append,
    cosize,
    depth,
    dice,
    flatten,
    get,
    group,
    make_identity_layout,
    make_layout,
    make_layout_like,
    make_ordered_layout,
    prepend,
    rank,
    replace,
    select,
    shape,
    size,
    slice_and_offset,
    stride,
    take,
)
from .notation import parse
from .products import (
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)
from .swizzle import ComposedLayout, Swizzle, make_composed_layout

# isort: split
# symbolic, proofs, derivations
from .derivation import Derivation, explain
from .equivalence import Equivalence, equivalent
from .symbolic import assuming, declare, subs, symbols

__version__ = "0.1.0"

_SUBPACKAGES = ("xla", "program", "viz", "strategies", "engine")

#: the classes Jupyter shows as pictures, by (module, class name): IPython matches them by
#: name, so none of these modules is imported before a value of its class is displayed
_DISPLAYED = (
    ("cutepy.layout", "Layout"),
    ("cutepy.swizzle", "ComposedLayout"),
    ("cutepy.swizzle", "Swizzle"),
    ("cutepy.xla.shape", "ArrayShape"),
    ("cutepy.xla.shape", "TupleShape"),
    ("cutepy.xla.shape", "BufferShape"),
    ("cutepy.derivation.steps", "Derivation"),
)


def __getattr__(name: str):
    """``cutepy.xla``, ``cutepy.program``, ``cutepy.viz``... load on first use (fast import)."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'cutepy' has no attribute {name!r}")


def _mimebundle(obj):
    """Jupyter output for ``obj``: picture (SVG and an ``<img>`` that untrusted notebooks show) and text."""
    # lazy subpackage: pictures load numpy, which a plain ``import cutepy`` does not
    from .viz import display

    return display.mimebundle(obj)


def _register_display() -> None:
    """Teach a running IPython (Jupyter, VS Code, nbconvert) to draw cutepy values.

    Called once at import; outside IPython it does nothing. The registration lives in
    IPython's own formatter tables, so the value classes carry no drawing code.
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    formatter = shell.display_formatter.mimebundle_formatter
    for module, name in _DISPLAYED:
        formatter.for_type_by_name(module, name, _mimebundle)


_register_display()

__all__ = [
    "AdmissibilityError", "ComposedLayout", "CutepyError", "E", "Layout", "LayoutError",
    "LayoutLeft", "LayoutRight", "ParseError", "ScaledBasis", "Swizzle", "SymbolicError",
    "append", "blocked_product", "ceil_div", "coalesce", "compatible", "complement",
    "composition", "congruent", "cosize", "crd2idx", "depth", "dice", "downcast", "filter",
    "flat_divide", "flat_product", "flatten", "get", "group", "idx2crd", "inner_product",
    "is_admissible", "left_inverse", "logical_divide", "logical_product", "make_composed_layout",
    "make_identity_layout", "make_layout", "make_layout_like", "make_ordered_layout",
    "max_common_layout", "max_common_vector", "nullspace", "parse", "prefix_product",
    "prepend", "product", "raked_product", "rank", "replace", "right_inverse", "select",
    "shape", "shape_div", "size", "slice_and_offset", "stride", "suffix_product", "take",
    "tile_to_shape", "tiled_divide", "tiled_product", "upcast", "weakly_congruent",
    "zipped_divide", "zipped_product",
    # symbolic, proofs, derivations
    "Derivation", "Equivalence", "assuming", "declare", "equivalent", "explain", "subs",
    "symbols",
]
