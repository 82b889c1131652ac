"""cutepy: CuTe layout algebra in Python, and XLA's tiled layouts compiled into it.

>>> import cutepy
>>> A = cutepy.Layout((6, 2), (8, 2))
>>> cutepy.composition(A, cutepy.parse("(4,3):(3,1)"))
((2,2),3):((24,2),8)
"""

import importlib
import sys

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
from .core.basis import *  # noqa: F403
from .core.dynamic import *  # noqa: F403
from .core.errors import *  # noqa: F403
from .core.layout import *  # noqa: F403
from .core.layout import slice_
from .core.limits import *  # noqa: F403
from .core.swizzle import *  # noqa: F403
from .core.tuples import *  # noqa: F403
from .core.tuples import max as max  # noqa: A004  (cutepy.max; not in __all__)
from .core.tuples import min as min  # noqa: A004

# isort: split
from .algebra import casting as _casting
from .algebra import coalesce as _coalesce
from .algebra import complement as _complement
from .algebra import composed as _composed
from .algebra import composition as _composition
from .algebra import divides as _divides
from .algebra import inverse as _inverse
from .algebra import products as _products
from .algebra.casting import *  # noqa: F403
from .algebra.coalesce import *  # noqa: F403
from .algebra.complement import *  # noqa: F403
from .algebra.composed import *  # noqa: F403
from .algebra.composition import *  # noqa: F403
from .algebra.divides import *  # noqa: F403
from .algebra.inverse import *  # noqa: F403
from .algebra.products import *  # noqa: F403

# isort: split
from . import notation as _notation
from .notation import *  # noqa: F403

# isort: split
# kernel design: tensors (the algebra takes them too), atoms, tiled MMA and copy
from .kernels import atoms as _atoms
from .kernels import gmma_desc as _gmma_desc
from .kernels import pointer as _pointer
from .kernels import simulate as _simulate
from .kernels import tensor as _tensor
from .kernels import tiled as _tiled
from .kernels import tma as _tma
from .kernels import tmem as _tmem
from .kernels import tmem_copy as _tmem_copy
from .kernels.atoms import *  # noqa: F403
from .kernels.gmma_desc import *  # noqa: F403
from .kernels.pointer import *  # noqa: F403
from .kernels.simulate import *  # noqa: F403
from .kernels.tensor import *  # noqa: F403
from .kernels.tiled import *  # noqa: F403
from .kernels.tiled import checks as _checks
from .kernels.tiled.checks import *  # noqa: F403
from .kernels.tma import *  # noqa: F403
from .kernels.tmem import *  # noqa: F403
from .kernels.tmem_copy import *  # noqa: F403

# isort: split
# symbolic, proofs, derivations: namespaces of their own; cutepy takes their main entry points
from .symbolic import assuming as assuming
from .symbolic import declare as declare
from .symbolic import subs as subs
from .symbolic import symbols as symbols

_ANALYSES = ["assuming", "declare", "subs", "symbols"]

__version__ = "0.1.0"

_SUBPACKAGES = ("xla", "program", "viz", "strategies", "engine", "banks", "emit", "linear")

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


def __getattr__(name: str):
    """``cutepy.xla``, ``cutepy.program``, ``cutepy.viz``, ``cutepy.explain``... load on first use."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
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
    *_errors.__all__, *_basis.__all__, *_dynamic.__all__, *_layout.__all__, *_tuples.__all__,
    *_limits.__all__,
    *_coalesce.__all__, *_composition.__all__, *_complement.__all__, *_inverse.__all__, *_divides.__all__,
    *_products.__all__, *_casting.__all__, *_swizzle.__all__, *_composed.__all__, *_notation.__all__,
    *_tensor.__all__, *_simulate.__all__, *_pointer.__all__, *_tma.__all__, *_tmem.__all__,
    *_tmem_copy.__all__, *_gmma_desc.__all__, *_atoms.__all__,
    *_tiled.__all__, *_checks.__all__, *_ANALYSES,
    *_LAZY,
]

#: C++'s ``slice(crd, x)``, ``max``/``min`` of an IntTuple: reachable as ``cutepy.slice``,
#: ``cutepy.max``, ``cutepy.min``, but not in ``__all__``, so ``from cutepy import *`` keeps
#: Python's builtins.
slice = slice_  # noqa: A001
