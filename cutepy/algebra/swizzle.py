"""The swizzle and the composed layout by their former home: names kept for importers.

``Swizzle`` (with ``SmemPtrFlag``, ``make_swizzle``, ``compose_swizzles``) lives in
:mod:`cutepy.core.swizzle`, beside its evaluation; ``ComposedLayout`` and the functions that
read one (``composed_parts``, ``is_layout``, ``pointer_flag``, ...) in
:mod:`cutepy.algebra.composed`. New code imports from there; this module re-exports them so
that ``from cutepy.algebra.swizzle import ComposedLayout, Swizzle`` goes on working.

>>> from cutepy.core.swizzle import Swizzle as S
>>> Swizzle is S
True
"""

from __future__ import annotations

from ..core.swizzle import MAX_SWIZZLE_BITS as MAX_SWIZZLE_BITS
from ..core.swizzle import SmemPtrFlag as SmemPtrFlag
from ..core.swizzle import Swizzle as Swizzle
from ..core.swizzle import compose_swizzles as compose_swizzles
from ..core.swizzle import is_ptr_flag as is_ptr_flag
from ..core.swizzle import make_swizzle as make_swizzle
from .composed import ComposedLayout as ComposedLayout
from .composed import composed_parts as composed_parts
from .composed import domain_offset as domain_offset
from .composed import get_nonswizzle_portion as get_nonswizzle_portion
from .composed import get_swizzle_portion as get_swizzle_portion
from .composed import is_layout as is_layout
from .composed import make_composed_layout as make_composed_layout
from .composed import pointer_flag as pointer_flag
from .composed import slice_and_offset_swizzled as slice_and_offset_swizzled

#: nothing is exported from here: cutepy takes these names from their homes
__all__: list[str] = []
