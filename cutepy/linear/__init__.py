"""Triton's linear layouts beside CuTe's: Gluon specs in, CuTe layouts out and back, swizzles over F2.

- :class:`LinearLayout`: Triton's F2-linear map from named inputs (``register, lane, warp,
  block`` or ``offset, block``) to named outputs (``dim0, dim1, ...``), with Triton's flags,
  ``invert``, ``pseudo_invert`` and ``compose``.
- :func:`from_gluon`: the LinearLayout Triton builds for a Gluon layout and a shape.
- :func:`to_cute` / :func:`from_cute`: the same function as a CuTe TV layout (distributed) or
  coordinate -> offset layout (shared), plain or swizzled, and back.
"""

from .convert import from_cute, to_cute
from .gluon import from_gluon
from .layout import LinearLayout

__all__ = ["LinearLayout", "from_cute", "from_gluon", "to_cute"]
