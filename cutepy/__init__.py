"""cutepy: CuTe layout algebra in Python, and XLA's tiled layouts compiled into it.

>>> import cutepy
>>> A = cutepy.Layout((6, 2), (8, 2))
>>> cutepy.composition(A, cutepy.parse("(4,3):(3,1)"))
((2,2),3):((24,2),8)
"""

import importlib
import sys

from .algebra.casting import (
    downcast,
    make_layout_like,
    make_ordered_layout,
    max_alignment,
    recast_layout,
    upcast,
)
from .algebra.coalesce import coalesce, filter, filter_zeros
from .algebra.complement import complement, coshape
from .algebra.composition import is_admissible
from .algebra.divides import ceil_div, domain_distribute, evenly_divides
from .algebra.inverse import left_inverse, max_common_layout, max_common_vector, nullspace, right_inverse
from .algebra.products import (
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)
from .algebra.swizzle import (
    ComposedLayout,
    Swizzle,
    domain_offset,
    get_nonswizzle_portion,
    get_swizzle_portion,
    make_composed_layout,
    make_swizzle,
)
from .core.basis import E, ScaledBasis
from .core.errors import (
    AdmissibilityError,
    CutepyError,
    LayoutError,
    ParseError,
    ProgramError,
    SymbolicError,
    Undecided,
)
from .core.layout import (
    Layout,
    LayoutLeft,
    LayoutRight,
    append,
    coprofile,
    cosize,
    depth,
    dice,
    flatten,
    get,
    get_1d_coord,
    get_flat_coord,
    get_hier_coord,
    group,
    make_identity_layout,
    make_layout,
    prepend,
    rank,
    replace,
    select,
    shape,
    slice_,
    slice_and_offset,
    stride,
    take,
    unflatten,
)
from .core.tuples import (
    colex_geq,
    colex_gtr,
    colex_leq,
    colex_less,
    compact_col_major,
    compact_order,
    compact_row_major,
    compatible,
    congruent,
    crd2crd,
    crd2idx,
    elem_geq,
    elem_gtr,
    elem_leq,
    elem_less,
    elem_scale,
    idx2crd,
    inner_product,
    lex_geq,
    lex_gtr,
    lex_leq,
    lex_less,
    prefix_product,
    product,
    product_each,
    repeat_like,
    round_up,
    safe_div,
    shape_div,
    suffix_product,
    unwrap,
    weakly_congruent,
    wrap,
)
from .core.tuples import (
    max as max,  # noqa: A004  (cutepy.max; not in __all__)
)
from .core.tuples import (
    min as min,  # noqa: A004
)
from .notation import parse

# isort: split
# kernel design: tensors (the divides and size also take tensors), atoms, tiled MMA and copy
from .kernels.atoms import CopyAtom, MMAAtom, copy_atom, copy_atoms, gmma_smem_layout, mma_atom, mma_atoms
from .kernels.tensor import (
    Tensor,
    composition,
    flat_divide,
    inner_partition,
    local_partition,
    local_tile,
    logical_divide,
    make_fragment_like,
    make_identity_tensor,
    make_tensor,
    outer_partition,
    size,
    tiled_divide,
    zipped_divide,
)
from .kernels.tiled import (
    ThrCopy,
    ThrMMA,
    TiledCopy,
    TiledMMA,
    make_cotiled_copy,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_copy_C,
    make_tiled_copy_C_atom,
    make_tiled_copy_D,
    make_tiled_copy_S,
    make_tiled_mma,
    partition_fragment_A,
    partition_fragment_B,
    partition_fragment_C,
    partition_shape_A,
    partition_shape_B,
    partition_shape_C,
)
from .kernels.tiled.checks import CheckResult, check_cover, check_fits, check_vectorization

# isort: split
# symbolic, proofs, derivations
from .core.limits import limits  # noqa: E402 - ``with cutepy.limits(max_elements=n):`` (the module stays cutepy.core.limits)
from .derivation import Derivation, explain
from .equivalence import Equivalence, equivalent
from .symbolic import assuming, declare, subs, symbols

__version__ = "0.1.0"

_SUBPACKAGES = ("xla", "program", "viz", "strategies", "engine", "banks", "emit")

#: the classes Jupyter shows as pictures, by (module, class name): IPython matches them by
#: name, so none of these modules is imported before a value of its class is displayed
_DISPLAYED = (
    ("cutepy.core.layout", "Layout"),
    ("cutepy.algebra.swizzle", "ComposedLayout"),
    ("cutepy.algebra.swizzle", "Swizzle"),
    ("cutepy.xla.shape", "ArrayShape"),
    ("cutepy.xla.shape", "TupleShape"),
    ("cutepy.xla.shape", "BufferShape"),
    ("cutepy.derivation.steps", "Derivation"),
    ("cutepy.kernels.tensor", "Tensor"),
    ("cutepy.kernels.atoms.mma", "MMAAtom"),
    ("cutepy.kernels.atoms.copy", "CopyAtom"),
    ("cutepy.kernels.tiled.mma", "TiledMMA"),
    ("cutepy.kernels.tiled.copy", "TiledCopy"),
)


#: public names that live in a lazy subpackage (they load it, and numpy, on first use)
_LAZY_NAMES = {"print_layout": "viz"}


def __getattr__(name: str):
    """``cutepy.xla``, ``cutepy.program``, ``cutepy.viz``... load on first use (fast import)."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
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
    "LayoutLeft", "LayoutRight", "ParseError", "ProgramError", "ScaledBasis", "Swizzle", "SymbolicError",
    "Undecided",
    "append", "blocked_product", "ceil_div", "coalesce", "compatible", "complement",
    "composition", "congruent", "coshape", "cosize", "crd2idx", "depth", "dice", "downcast", "filter",
    "filter_zeros", "flat_divide", "flat_product", "flatten", "get", "get_1d_coord", "get_flat_coord",
    "get_hier_coord", "get_nonswizzle_portion", "get_swizzle_portion", "group", "idx2crd",
    "inner_product", "is_admissible", "left_inverse", "limits", "logical_divide", "logical_product",
    "make_composed_layout", "make_fragment_like", "make_identity_layout", "make_layout",
    "make_layout_like", "make_ordered_layout", "make_swizzle", "max_common_layout",
    "max_common_vector", "nullspace", "parse", "prefix_product", "prepend", "product",
    "raked_product", "rank", "recast_layout", "replace", "right_inverse", "select", "shape",
    "shape_div", "size", "slice_and_offset", "stride", "suffix_product", "take", "tile_to_shape",
    "tiled_divide", "tiled_product", "upcast", "weakly_congruent", "zipped_divide", "zipped_product",
    # kernel design
    "CheckResult", "CopyAtom", "MMAAtom", "Tensor", "ThrCopy", "ThrMMA", "TiledCopy", "TiledMMA",
    "check_cover", "check_fits", "check_vectorization", "copy_atom", "copy_atoms",
    "gmma_smem_layout", "inner_partition", "local_partition", "local_tile", "make_identity_tensor",
    "make_tensor", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
    "make_tiled_mma", "mma_atom", "mma_atoms", "outer_partition", "partition_fragment_A",
    "partition_fragment_B", "partition_fragment_C", "partition_shape_A", "partition_shape_B",
    "partition_shape_C",
    "make_cotiled_copy", "make_tiled_copy_C_atom", "make_tiled_copy_D", "make_tiled_copy_S",
    # C++ CuTe functions (issue 10)
    "compact_col_major", "compact_order", "compact_row_major", "coprofile", "crd2crd",
    "domain_distribute", "domain_offset", "evenly_divides", "max_alignment", "product_each", "round_up",
    "unflatten", "elem_less", "elem_leq", "elem_gtr", "elem_geq", "lex_less", "lex_leq", "lex_gtr",
    "lex_geq", "colex_less", "colex_leq", "colex_gtr", "colex_geq", "repeat_like", "unwrap", "wrap",
    "elem_scale", "safe_div",
    # symbolic, proofs, derivations
    "Derivation", "Equivalence", "assuming", "declare", "equivalent", "explain", "subs",
    "symbols",
    # pictures (lazy: cutepy.viz)
    "print_layout",
]

#: C++'s ``slice(crd, x)``, ``max``/``min`` of an IntTuple: reachable as ``cutepy.slice``,
#: ``cutepy.max``, ``cutepy.min``, but not in ``__all__``, so ``from cutepy import *`` keeps
#: Python's builtins.
slice = slice_  # noqa: A001
