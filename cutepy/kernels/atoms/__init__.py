"""MMA and copy atoms, and the GMMA shared-memory layout atoms, as C++ CuTe defines them."""

from .copy import CopyAtom, copy_atom, copy_atoms
from .mma import MMAAtom, mma_atom, mma_atoms
from .smem import gmma_smem_layout, tile_to_mma_shape

__all__ = [
    "CopyAtom", "MMAAtom", "copy_atom", "copy_atoms", "gmma_smem_layout", "mma_atom", "mma_atoms",
    "tile_to_mma_shape",
]
