"""TMA copies (Hopper and Blackwell): the copy atom, its ``cuTensorMapEncodeTiled`` descriptor
and the CTA-collective TiledCopy, ported from C++ CuTe's ``cute/atom/copy_traits_sm90_tma.hpp``
(CUTLASS 4.7): ``make_tma_copy``, ``make_tma_atom``, ``tma_partition`` and
``create_tma_multicast_mask``.

The smem layout's inverse is traced through the CTA tile into gmem modes to find the largest
box TMA can move in one instruction (``gbasis``: box mode -> gmem mode); the descriptor is
what C++ hands the driver. Every configuration C++ refuses (a static assert, a run-time
assert in the descriptor's construction) and every descriptor the driver's documented rules
(``cuda.h``) reject raise a :class:`~cutepy.CutepyError` naming the rule and the numbers.

The package, one module per idea: :mod:`.descriptor` (the descriptor, the formats and the
driver's rules), :mod:`.gbasis` (the box traced into gmem), :mod:`.atom` (the atom, the TiledCopy
and the one builder every maker uses), :mod:`.sm90` and :mod:`.sm100` (the makers),
:mod:`.partition` (``tma_partition``), :mod:`.masks` (``create_tma_multicast_mask``) and
:mod:`.im2col` (``make_im2col_tma_copy``, with its ``cuTensorMapEncodeIm2col`` descriptor).

>>> from cutepy.kernels.atoms import gmma_smem_layout
>>> from cutepy.kernels.pointer import gmem_ptr
>>> from cutepy.kernels.tensor import make_tensor
>>> from cutepy.algebra.products import tile_to_shape
>>> from cutepy.core.layout import Layout
>>> g = make_tensor(gmem_ptr("bfloat16_t", 0x10000), Layout((1024, 256), (256, 1)))
>>> s = tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64))
>>> tma = make_tma_copy("SM90_TMA_LOAD", g, s)
>>> d = tma.descriptor
>>> d.data_type, d.global_dim, d.global_strides, d.box_dim, d.swizzle
('BFLOAT16', (256, 1024), (512,), (64, 128), '128B')
>>> tma.gbasis, tma.tiler_mn, tma.layout_tv_tiled
((64,128):(1@1,1@0), (128, 64), (1,(((64,128),1))):(0,(((128,1),0))))
>>> tma.get_tma_tensor((1024, 256))
ArithTuple(0,0) o (1024,256):(1@1,1@0)
"""

from __future__ import annotations

# the values and tables tma.py held before it became a package, importable from here as before
from .atom import TmaAtom as TmaAtom
from .atom import TmaTiledCopy as TmaTiledCopy
from .atom import compose_cxx as compose_cxx
from .descriptor import MAX_BOX as MAX_BOX
from .descriptor import MAX_RANK as MAX_RANK
from .descriptor import SWIZZLE_SPAN as SWIZZLE_SPAN
from .descriptor import TMA_DATA_TYPE as TMA_DATA_TYPE
from .descriptor import TMA_OPS as TMA_OPS
from .descriptor import TMA_REDUCTIONS as TMA_REDUCTIONS
from .descriptor import TmaDescriptor as TmaDescriptor
from .im2col import IM2COL_OPS as IM2COL_OPS
from .im2col import Im2colDescriptor as Im2colDescriptor
from .im2col import Im2colTmaAtom as Im2colTmaAtom
from .im2col import make_im2col_tma_copy
from .masks import create_tma_multicast_mask
from .partition import tma_partition
from .sm90 import make_tma_atom, make_tma_copy
from .sm100 import make_tma_atom_A_sm100, make_tma_atom_B_sm100

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "create_tma_multicast_mask", "make_im2col_tma_copy", "make_tma_atom", "make_tma_atom_A_sm100",
    "make_tma_atom_B_sm100",
    "make_tma_copy", "tma_partition",
]
