"""Hypothesis strategies that generate layouts, for cutepy's own tests and for yours.

Requires ``hypothesis`` (installed with the ``test`` extra). Every strategy yields
plain-integer :class:`~cutepy.Layout` objects (or pairs) small enough to check
exhaustively, unless it says otherwise (run-time leaves, symbols).

>>> from hypothesis import given, settings
>>> from cutepy import composition
>>> from cutepy.strategies import composable_pairs
>>> @settings(deadline=None, max_examples=50)
... @given(composable_pairs())
... def test_composition(pair):
...     A, B = pair
...     R = composition(A, B)
...     assert all(R(i) == A(B(i)) for i in range(B.size()))
>>> test_composition()

The strategies by what they generate (import them from here, ``cutepy.strategies``):

- :mod:`.layout`: :func:`int_tuples`, :func:`shapes`, :func:`layouts`,
  :func:`tiling_layouts`, :func:`injective_layouts`, :func:`negative_stride_layouts`,
  :func:`coordinates` of a shape, :func:`with_dynamic_leaves` (run-time integers, C++'s ``int``).
- :mod:`.pairs`: arguments an operation accepts together: :func:`composable_pairs`,
  :func:`divisible_pairs`, :func:`complementable_pairs`.
- :mod:`.swizzle`: :func:`swizzles`, :func:`swizzled_layouts`, :func:`offset_swizzled_layouts`.
- :mod:`.symbolic`: :class:`SymbolicCase`, :func:`symbolic_cases`, :func:`symbolic_pairs`
  (layout expressions over declared symbols).

Warp instructions that stress the bank rule are :mod:`cutepy.banks.strategies`.

Layer 4 (analyses): a client of the algebra and the symbolic front, like a test.
"""

from . import layout, pairs, swizzle, symbolic  # the modules, for their lists of names
from .layout import coordinates as coordinates
from .layout import injective_layouts as injective_layouts
from .layout import int_tuples as int_tuples
from .layout import layouts as layouts
from .layout import negative_stride_layouts as negative_stride_layouts
from .layout import shapes as shapes
from .layout import tiling_layouts as tiling_layouts
from .layout import with_dynamic_leaves as with_dynamic_leaves
from .pairs import complementable_pairs as complementable_pairs
from .pairs import composable_pairs as composable_pairs
from .pairs import divisible_pairs as divisible_pairs
from .swizzle import offset_swizzled_layouts as offset_swizzled_layouts
from .swizzle import swizzled_layouts as swizzled_layouts
from .swizzle import swizzles as swizzles
from .symbolic import SymbolicCase as SymbolicCase
from .symbolic import symbolic_cases as symbolic_cases
from .symbolic import symbolic_pairs as symbolic_pairs

#: every strategy of the four modules, as each module lists its own
__all__ = [*layout.__all__, *pairs.__all__, *swizzle.__all__, *symbolic.__all__]
