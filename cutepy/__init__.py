"""cutepy: CuTe layout algebra in Python, and XLA's tiled layouts compiled into it.

>>> import cutepy
>>> A = cutepy.Layout((6, 2), (8, 2))
>>> cutepy.composition(A, cutepy.parse("(4,3):(3,1)"))
((2,2),3):((24,2),8)

Layer 6: the package re-exports the public API (CuTe's names) and registers Jupyter's
display. Each module below owns its exports (its ``__all__``); this file imports each of
those names explicitly, one list per module (``tests/test_one_home.py`` checks the lists
match), and ``cutepy.__all__`` is made of the modules' lists. A new export: add it to its
module's ``__all__`` and to that module's list here. Subpackages that load numpy or sympy,
and the proofs and derivations, load on first use (:func:`cutepy.core.lazy.attach`), and so
do the kernel modules (tensors, atoms, tiled operations, TMA, TMEM: their lists sit under
``if TYPE_CHECKING:``, and the first use of one of their names, or of ``__all__``, imports them
all), so ``import cutepy`` stays fast.
"""

import sys
from typing import TYPE_CHECKING, Any

# first: a compiled core (python -m cutepy.build) is checked against its sources before any of
# it loads (importing cutepy.compiled does that)
from . import compiled as _compiled
from .compiled import (
    build_info as build_info,
)

# The public surface: every module below owns its exports (its ``__all__``); ``cutepy``
# re-exports them, and ``__all__`` is made of those lists, so a new operation is exported by
# adding it to its module's list. Layer by layer: values and the layout, the algebra, text in.
from .core import basis as _basis
from .core import dynamic as _dynamic
from .core import errors as _errors
from .core import layout as _layout
from .core import limits as _limits
from .core import swizzle as _swizzle
from .core import tuples as _tuples
from .core.basis import (
    E as E,
)
from .core.basis import (
    ScaledBasis as ScaledBasis,
)
from .core.dynamic import (
    DynamicInt as DynamicInt,
)
from .core.dynamic import (
    dynamic as dynamic,
)
from .core.errors import (
    AdmissibilityError as AdmissibilityError,
)
from .core.errors import (
    CutepyError as CutepyError,
)
from .core.errors import (
    LayoutError as LayoutError,
)
from .core.errors import (
    ParseError as ParseError,
)
from .core.errors import (
    ProgramError as ProgramError,
)
from .core.errors import (
    SimulationError as SimulationError,
)
from .core.errors import (
    SymbolicError as SymbolicError,
)
from .core.errors import (
    Undecided as Undecided,
)
from .core.layout import (
    Layout as Layout,
)
from .core.layout import (
    LayoutLeft as LayoutLeft,
)
from .core.layout import (
    LayoutRight as LayoutRight,
)
from .core.layout import (
    append as append,
)
from .core.layout import (
    coprofile as coprofile,
)
from .core.layout import (
    cosize as cosize,
)
from .core.layout import (
    depth as depth,
)
from .core.layout import (
    dice as dice,
)
from .core.layout import (
    flatten as flatten,
)
from .core.layout import (
    get as get,
)
from .core.layout import (
    get_1d_coord as get_1d_coord,
)
from .core.layout import (
    get_flat_coord as get_flat_coord,
)
from .core.layout import (
    get_hier_coord as get_hier_coord,
)
from .core.layout import (
    group as group,
)
from .core.layout import (
    group_modes as group_modes,
)
from .core.layout import (
    is_static as is_static,
)
from .core.layout import (
    make_identity_layout as make_identity_layout,
)
from .core.layout import (
    make_layout as make_layout,
)
from .core.layout import (
    prepend as prepend,
)
from .core.layout import (
    rank as rank,
)
from .core.layout import (
    replace as replace,
)
from .core.layout import (
    select as select,
)
from .core.layout import (
    shape as shape,
)
from .core.layout import (
    size as size,
)
from .core.layout import slice_
from .core.layout import (
    slice_and_offset as slice_and_offset,
)
from .core.layout import (
    stride as stride,
)
from .core.layout import (
    take as take,
)
from .core.layout import (
    unflatten as unflatten,
)
from .core.lazy import DEPRECATED, attach, load
from .core.limits import (
    limits as limits,
)
from .core.swizzle import (
    Swizzle as Swizzle,
)
from .core.swizzle import (
    make_swizzle as make_swizzle,
)
from .core.tuples import (
    colex_geq as colex_geq,
)
from .core.tuples import (
    colex_gtr as colex_gtr,
)
from .core.tuples import (
    colex_leq as colex_leq,
)
from .core.tuples import (
    colex_less as colex_less,
)
from .core.tuples import (
    compact_col_major as compact_col_major,
)
from .core.tuples import (
    compact_order as compact_order,
)
from .core.tuples import (
    compact_row_major as compact_row_major,
)
from .core.tuples import (
    compatible as compatible,
)
from .core.tuples import (
    congruent as congruent,
)
from .core.tuples import (
    crd2crd as crd2crd,
)
from .core.tuples import (
    crd2idx as crd2idx,
)
from .core.tuples import (
    elem_geq as elem_geq,
)
from .core.tuples import (
    elem_gtr as elem_gtr,
)
from .core.tuples import (
    elem_leq as elem_leq,
)
from .core.tuples import (
    elem_less as elem_less,
)
from .core.tuples import (
    elem_scale as elem_scale,
)
from .core.tuples import format as format  # noqa: A004  (cutepy.format; not in __all__)
from .core.tuples import (
    idx2crd as idx2crd,
)
from .core.tuples import (
    inner_product as inner_product,
)
from .core.tuples import (
    lex_geq as lex_geq,
)
from .core.tuples import (
    lex_gtr as lex_gtr,
)
from .core.tuples import (
    lex_leq as lex_leq,
)
from .core.tuples import (
    lex_less as lex_less,
)
from .core.tuples import max as max  # noqa: A004  (cutepy.max; not in __all__)
from .core.tuples import min as min  # noqa: A004
from .core.tuples import (
    prefix_product as prefix_product,
)
from .core.tuples import (
    product as product,
)
from .core.tuples import (
    product_each as product_each,
)
from .core.tuples import (
    repeat_like as repeat_like,
)
from .core.tuples import (
    round_up as round_up,
)
from .core.tuples import (
    safe_div as safe_div,
)
from .core.tuples import (
    shape_div as shape_div,
)
from .core.tuples import (
    suffix_product as suffix_product,
)
from .core.tuples import (
    unwrap as unwrap,
)
from .core.tuples import (
    weakly_congruent as weakly_congruent,
)
from .core.tuples import (
    wrap as wrap,
)

# isort: split
from .algebra import casting as _casting
from .algebra import coalesce as _coalesce
from .algebra import complement as _complement
from .algebra import composed as _composed
from .algebra import composition as _composition
from .algebra import divides as _divides
from .algebra import inverse as _inverse
from .algebra import products as _products
from .algebra.casting import (
    downcast as downcast,
)
from .algebra.casting import (
    make_fragment_like as make_fragment_like,
)
from .algebra.casting import (
    make_layout_like as make_layout_like,
)
from .algebra.casting import (
    make_ordered_layout as make_ordered_layout,
)
from .algebra.casting import (
    max_alignment as max_alignment,
)
from .algebra.casting import (
    recast_layout as recast_layout,
)
from .algebra.casting import (
    upcast as upcast,
)
from .algebra.coalesce import (
    coalesce as coalesce,
)
from .algebra.coalesce import (
    filter as filter,
)
from .algebra.coalesce import (
    filter_zeros as filter_zeros,
)
from .algebra.complement import (
    complement as complement,
)
from .algebra.complement import (
    coshape as coshape,
)
from .algebra.composed import (
    ComposedLayout as ComposedLayout,
)
from .algebra.composed import (
    domain_offset as domain_offset,
)
from .algebra.composed import (
    get_nonswizzle_portion as get_nonswizzle_portion,
)
from .algebra.composed import (
    get_swizzle_portion as get_swizzle_portion,
)
from .algebra.composed import (
    make_composed_layout as make_composed_layout,
)
from .algebra.composition import (
    composition as composition,
)
from .algebra.composition import (
    is_admissible as is_admissible,
)
from .algebra.divides import (
    ceil_div as ceil_div,
)
from .algebra.divides import (
    domain_distribute as domain_distribute,
)
from .algebra.divides import (
    evenly_divides as evenly_divides,
)
from .algebra.divides import (
    flat_divide as flat_divide,
)
from .algebra.divides import (
    logical_divide as logical_divide,
)
from .algebra.divides import (
    tiled_divide as tiled_divide,
)
from .algebra.divides import (
    zipped_divide as zipped_divide,
)
from .algebra.inverse import (
    left_inverse as left_inverse,
)
from .algebra.inverse import (
    max_common_layout as max_common_layout,
)
from .algebra.inverse import (
    max_common_vector as max_common_vector,
)
from .algebra.inverse import (
    nullspace as nullspace,
)
from .algebra.inverse import (
    right_inverse as right_inverse,
)
from .algebra.products import (
    blocked_product as blocked_product,
)
from .algebra.products import (
    flat_product as flat_product,
)
from .algebra.products import (
    logical_product as logical_product,
)
from .algebra.products import (
    raked_product as raked_product,
)
from .algebra.products import (
    tile_to_shape as tile_to_shape,
)
from .algebra.products import (
    tiled_product as tiled_product,
)
from .algebra.products import (
    zipped_product as zipped_product,
)

# isort: split
from . import notation as _notation
from .notation import (
    parse as parse,
)

# isort: split
# kernel design: tensors (the algebra takes them too), atoms, tiled MMA and copy, TMA, TMEM.
# Loaded on first use of any of their names, all together (they register the tensors' variants
# of the algebra): ``import cutepy`` stays fast. Each module's exports are listed below, for
# type checkers, and the modules in ``_KERNELS`` (``tests/test_one_home.py`` checks both).

if TYPE_CHECKING:
    from .kernels.atoms import (
        CopyAtom as CopyAtom,
    )
    from .kernels.atoms import (
        MMAAtom as MMAAtom,
    )
    from .kernels.atoms import (
        copy_atom as copy_atom,
    )
    from .kernels.atoms import (
        copy_atoms as copy_atoms,
    )
    from .kernels.atoms import (
        gmma_smem_layout as gmma_smem_layout,
    )
    from .kernels.atoms import (
        mma_atom as mma_atom,
    )
    from .kernels.atoms import (
        mma_atoms as mma_atoms,
    )
    from .kernels.atoms import (
        tile_to_mma_shape as tile_to_mma_shape,
    )
    from .kernels.gmma_desc import (
        DescriptorIterator as DescriptorIterator,
    )
    from .kernels.gmma_desc import (
        GmmaDescriptor as GmmaDescriptor,
    )
    from .kernels.gmma_desc import (
        UmmaDescriptor as UmmaDescriptor,
    )
    from .kernels.gmma_desc import (
        make_gmma_desc as make_gmma_desc,
    )
    from .kernels.gmma_desc import (
        make_umma_desc as make_umma_desc,
    )
    from .kernels.pointer import (
        as_position_independent_swizzle_layout as as_position_independent_swizzle_layout,
    )
    from .kernels.pointer import (
        gmem_ptr as gmem_ptr,
    )
    from .kernels.pointer import (
        smem_ptr as smem_ptr,
    )
    from .kernels.pointer import (
        tmem_ptr as tmem_ptr,
    )
    from .kernels.simulate import (
        check_tile as check_tile,
    )
    from .kernels.simulate import (
        copy as copy,
    )
    from .kernels.simulate import (
        copy_if as copy_if,
    )
    from .kernels.simulate import (
        gemm as gemm,
    )
    from .kernels.tensor import (
        Tensor as Tensor,
    )
    from .kernels.tensor import (
        as_position_independent_swizzle_tensor as as_position_independent_swizzle_tensor,
    )
    from .kernels.tensor import (
        inner_partition as inner_partition,
    )
    from .kernels.tensor import (
        local_partition as local_partition,
    )
    from .kernels.tensor import (
        local_tile as local_tile,
    )
    from .kernels.tensor import (
        make_identity_tensor as make_identity_tensor,
    )
    from .kernels.tensor import (
        make_tensor as make_tensor,
    )
    from .kernels.tensor import (
        make_tensor_like as make_tensor_like,
    )
    from .kernels.tensor import (
        outer_partition as outer_partition,
    )
    from .kernels.tensor import (
        tensor as tensor,
    )
    from .kernels.tiled import (
        ThrCopy as ThrCopy,
    )
    from .kernels.tiled import (
        ThrMMA as ThrMMA,
    )
    from .kernels.tiled import (
        TiledCopy as TiledCopy,
    )
    from .kernels.tiled import (
        TiledMMA as TiledMMA,
    )
    from .kernels.tiled import (
        make_cotiled_copy as make_cotiled_copy,
    )
    from .kernels.tiled import (
        make_tiled_copy as make_tiled_copy,
    )
    from .kernels.tiled import (
        make_tiled_copy_A as make_tiled_copy_A,
    )
    from .kernels.tiled import (
        make_tiled_copy_B as make_tiled_copy_B,
    )
    from .kernels.tiled import (
        make_tiled_copy_C as make_tiled_copy_C,
    )
    from .kernels.tiled import (
        make_tiled_copy_C_atom as make_tiled_copy_C_atom,
    )
    from .kernels.tiled import (
        make_tiled_copy_D as make_tiled_copy_D,
    )
    from .kernels.tiled import (
        make_tiled_copy_S as make_tiled_copy_S,
    )
    from .kernels.tiled import (
        make_tiled_mma as make_tiled_mma,
    )
    from .kernels.tiled import (
        partition_fragment_A as partition_fragment_A,
    )
    from .kernels.tiled import (
        partition_fragment_B as partition_fragment_B,
    )
    from .kernels.tiled import (
        partition_fragment_C as partition_fragment_C,
    )
    from .kernels.tiled import (
        partition_shape_A as partition_shape_A,
    )
    from .kernels.tiled import (
        partition_shape_B as partition_shape_B,
    )
    from .kernels.tiled import (
        partition_shape_C as partition_shape_C,
    )
    from .kernels.tiled.checks import (
        CheckResult as CheckResult,
    )
    from .kernels.tiled.checks import (
        check_cover as check_cover,
    )
    from .kernels.tiled.checks import (
        check_fits as check_fits,
    )
    from .kernels.tiled.checks import (
        check_vectorization as check_vectorization,
    )
    from .kernels.tma import (
        create_tma_multicast_mask as create_tma_multicast_mask,
    )
    from .kernels.tma import (
        make_im2col_tma_copy as make_im2col_tma_copy,
    )
    from .kernels.tma import (
        make_tma_atom as make_tma_atom,
    )
    from .kernels.tma import (
        make_tma_atom_A_sm100 as make_tma_atom_A_sm100,
    )
    from .kernels.tma import (
        make_tma_atom_B_sm100 as make_tma_atom_B_sm100,
    )
    from .kernels.tma import (
        make_tma_copy as make_tma_copy,
    )
    from .kernels.tma import (
        tma_partition as tma_partition,
    )
    from .kernels.tmem import (
        make_tmem_frg as make_tmem_frg,
    )
    from .kernels.tmem import (
        tmem_columns as tmem_columns,
    )
    from .kernels.tmem_copy import (
        TmemCopyAtom as TmemCopyAtom,
    )
    from .kernels.tmem_copy import (
        make_tmem_copy as make_tmem_copy,
    )
    from .kernels.tmem_copy import (
        tmem_copy_atom as tmem_copy_atom,
    )

    # isort: split
    # exports added by the merges of issues 32-35 (one block per module)
    from .kernels.atoms import (
        BlockScaledMMAAtom as BlockScaledMMAAtom,
    )
    from .kernels.atoms import (
        SparseMMAAtom as SparseMMAAtom,
    )
    from .kernels.atoms import (
        WarpBlockScaledMMAAtom as WarpBlockScaledMMAAtom,
    )
    from .kernels.atoms import (
        amd_mma_atom as amd_mma_atom,
    )
    from .kernels.atoms import (
        amd_mma_atoms as amd_mma_atoms,
    )
    from .kernels.atoms import (
        amx_mma_atom as amx_mma_atom,
    )
    from .kernels.atoms import (
        amx_mma_atoms as amx_mma_atoms,
    )
    from .kernels.atoms import (
        blockscaled_sf_atom as blockscaled_sf_atom,
    )
    from .kernels.atoms import (
        blockscaled_sf_layout as blockscaled_sf_layout,
    )
    from .kernels.atoms import (
        gmma_sparse_atoms as gmma_sparse_atoms,
    )
    from .kernels.atoms import (
        sm120_ext_atoms as sm120_ext_atoms,
    )
    from .kernels.atoms import (
        umma_ext_atoms as umma_ext_atoms,
    )
    from .kernels.atoms import (
        wi_interleave as wi_interleave,
    )
    from .kernels.atoms import (
        xe_mma_atom as xe_mma_atom,
    )
    from .kernels.atoms import (
        xe_mma_atoms as xe_mma_atoms,
    )
    from .kernels.tensor import (
        lazy_transform as lazy_transform,
    )
    from .kernels.tensor import (
        thread_index as thread_index,
    )
    from .kernels.tiled import (
        make_tiled_copy_impl as make_tiled_copy_impl,
    )
    from .kernels.tmem_copy import (
        make_s2t_copy as make_s2t_copy,
    )
    from .kernels.tmem_copy import (
        make_utccp_copy as make_utccp_copy,
    )

    # isort: split
    # exports added by the merges of issue 34's last rows (one block per module)
    from .kernels.atoms import (
        copy_bulk_s2s_atom as copy_bulk_s2s_atom,
    )
    from .kernels.atoms import (
        copy_dsmem_store_atom as copy_dsmem_store_atom,
    )
    from .kernels.atoms import (
        xe_hpg_mma_atom as xe_hpg_mma_atom,
    )
    from .kernels.atoms import (
        xe_hpg_mma_atoms as xe_hpg_mma_atoms,
    )
    from .kernels.tmem_reduce import (
        tmem_load_red_atom as tmem_load_red_atom,
    )

# isort: split
# symbolic, proofs, derivations: namespaces of their own; cutepy takes their main entry points
from .symbolic import assuming as assuming
from .symbolic import declare as declare
from .symbolic import subs as subs
from .symbolic import symbols as symbols

_ANALYSES = ["assuming", "declare", "subs", "symbols"]

__version__ = "0.1.0"

#: the kernel modules whose ``__all__`` cutepy re-exports (in this order), loaded on first use
_KERNELS = (
    load("cutepy.kernels.tensor"), load("cutepy.kernels.simulate"), load("cutepy.kernels.pointer"),
    load("cutepy.kernels.tma"), load("cutepy.kernels.tmem"), load("cutepy.kernels.tmem_copy"),
    load("cutepy.kernels.tmem_reduce"), load("cutepy.kernels.gmma_desc"), load("cutepy.kernels.atoms"),
    load("cutepy.kernels.tiled"), load("cutepy.kernels.tiled.checks"),
)
#: C++'s ``cute::lazy``: ``cutepy.lazy.transform`` (not in ``__all__``)
lazy = load("cutepy.kernels.lazy")

_SUBPACKAGES = ("xla", "program", "viz", "strategies", "engine", "banks", "emit", "linear",
                "builders")  # builders: CUTLASS's GEMM CollectiveBuilders (issue 32)

#: the classes Jupyter shows as pictures, by (module, class name): IPython matches them by
#: name, so none of these modules is imported before a value of its class is displayed
_DISPLAYED = (
    ("cutepy.core.layout", "Layout"),
    ("cutepy.algebra.composed", "ComposedLayout"),
    ("cutepy.core.swizzle", "Swizzle"),
    ("cutepy.xla.shape", "ArrayShape"),
    ("cutepy.xla.shape", "TupleShape"),
    ("cutepy.xla.shape", "BufferShape"),
    ("cutepy.derivation.steps", "Derivation"),
    ("cutepy.kernels.tensor", "Tensor"),
    ("cutepy.kernels.atoms.mma", "MMAAtom"),
    ("cutepy.kernels.atoms.copy", "CopyAtom"),
    ("cutepy.kernels.tiled.mma", "TiledMMA"),
    ("cutepy.kernels.tiled.copy", "TiledCopy"),
    ("cutepy.linear.layout", "LinearLayout"),
)


#: names loaded on first use (fast import: proofs, derivations, and printing, which loads numpy):
#: name -> the subpackage that defines it
_LAZY = {"Derivation": "derivation", "explain": "derivation", "Equivalence": "equivalence",
         "equivalent": "equivalence", "print_tensor": "viz.text", "print_layout": "viz.text"}

# issue 34: the designer's checklist of analyses (cutepy.kernels.analysis, tensor-layouts' names),
# loaded on first use (it reads layouts with numpy); tests/kernels/test_analysis.py checks this
# list is that module's __all__
_ANALYSIS_NAMES = (
    "AliasingProfile", "AtomSummary", "BankConflicts", "CoalescingEfficiency", "CoalescingReport",
    "Footprint", "GapProfile", "GmemInstruction", "OperandCoverage", "PerGroup", "SegmentAnalysis",
    "ThreadStrideProfile", "aliasing_profile", "analyze_gmem_copy", "atom_summary",
    "bank_conflicts", "coalescing", "coalescing_efficiency", "contiguity", "cycles", "fixed_points",
    "footprint", "gap_profile", "gmem_access", "image", "is_bijective", "is_contiguous",
    "is_even_permutation",
    "is_injective", "is_surjective", "mode_contiguity", "offset_table", "operand_analysis", "order",
    "per_group_bank_conflicts", "per_group_coalescing", "permutation_parity", "segment_analysis",
    "slice_contiguity", "thread_stride_profile",
)
_LAZY.update({name: "kernels.analysis" for name in _ANALYSIS_NAMES})


_lazy_getattr, _lazy_dir = attach(__name__, submodules=_SUBPACKAGES, names=_LAZY)

#: a deprecated alias whose new home is above its old one: registered here, the one layer that
#: may reach both (``cutepy.program`` reads it through :func:`cutepy.core.lazy.deprecation_getattr`)
DEPRECATED["cutepy.program"] = {
    "lanes_svg": ("cutepy.program.lanes_svg moved to cutepy.viz.lanes_svg", lambda: _viz_program.lanes_svg),
}

#: pictures load numpy, which a plain ``import cutepy`` does not: these load on first use
_viz_display = load("cutepy.viz.display")
_viz_program = load("cutepy.viz.program")


def _mimebundle(obj):
    """Jupyter output for ``obj``: picture (SVG and an ``<img>`` that untrusted notebooks show) and text."""
    return _viz_display.mimebundle(obj)


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

#: the exports of the modules loaded at import (``__all__`` adds the kernels' and the lazy names)
_EAGER_ALL = [
    *_compiled.__all__, *_errors.__all__, *_basis.__all__, *_dynamic.__all__, *_layout.__all__,
    *_tuples.__all__,
    *_limits.__all__,
    *_coalesce.__all__, *_composition.__all__, *_complement.__all__, *_inverse.__all__, *_divides.__all__,
    *_products.__all__, *_casting.__all__, *_swizzle.__all__, *_composed.__all__, *_notation.__all__,
]


def _exports() -> list[str]:
    """``__all__``: made on first use, when the kernel modules (:data:`_KERNELS`) are imported
    and their exports bound here."""
    if "__all__" not in globals():
        names: list[str] = []
        for module in _KERNELS:
            for name in module.__all__:
                globals()[name] = getattr(module, name)
            names.extend(module.__all__)
        globals()["__all__"] = [*_EAGER_ALL, *names, *_ANALYSES, *_LAZY]
    return globals()["__all__"]


def __getattr__(name: str) -> Any:
    """The subpackages and lazy names (:func:`cutepy.core.lazy.attach`); a kernel name or
    ``__all__`` loads the kernel modules (once: their names are bound here)."""
    try:
        return _lazy_getattr(name)
    except AttributeError:
        pass
    if "__all__" not in globals() and (name == "__all__" or not name.startswith("__")):
        _exports()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(_lazy_dir()) | set(_exports()))

#: C++'s ``slice(crd, x)``, ``max``/``min`` of an IntTuple (and ``format``, which prints one
#: C++'s way): reachable as ``cutepy.slice``, ``cutepy.max``, ``cutepy.min``, ``cutepy.format``,
#: but not in ``__all__``, so ``from cutepy import *`` keeps Python's builtins.
slice = slice_  # noqa: A001
