"""Triton's linear layouts beside CuTe's: Gluon specs in, CuTe layouts out and back, swizzles over F2.

- :class:`LinearLayout`: Triton's F2-linear map from named inputs (``register, lane, warp,
  block`` or ``offset, block``) to named outputs (``dim0, dim1, ...``), with Triton's flags,
  ``invert``, ``pseudo_invert`` and ``compose``.
- :func:`from_gluon`: the LinearLayout Triton builds for a Gluon layout and a shape (every
  kind of Triton 3.9: tensor memory, AMD MFMA and WMMA, explicit and partitioned layouts);
  :func:`padded_shared`: a padded shared layout's linear map and its padding (a CuTe layout).
- :func:`to_cute` / :func:`from_cute`: the same function as a CuTe TV layout (distributed) or
  coordinate -> offset layout (shared), plain or swizzled, and back.
- :func:`solve_swizzle`: the CuTe swizzle (and offset) with ``Sw o off o A == B``, or the F2
  proof that none exists; :func:`solve_conflict_free`: the swizzle that gives every
  shared-memory phase distinct banks (a rank condition), judged by a bank model.
"""

from .convert import from_cute, to_cute
from .gluon import PaddedShared, from_gluon, padded_shared
from .layout import LinearLayout
from .solve import ConflictFreeSwizzle, SwizzleSolution, solve_conflict_free, solve_swizzle

__all__ = [
    "ConflictFreeSwizzle",
    "LinearLayout",
    "PaddedShared",
    "SwizzleSolution",
    "from_cute",
    "from_gluon",
    "padded_shared",
    "solve_conflict_free",
    "solve_swizzle",
    "to_cute",
]
