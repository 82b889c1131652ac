"""MMA and copy atoms, and the GMMA shared-memory layout atoms, as C++ CuTe defines them.

Layer 4 (analyses, in :mod:`cutepy.kernels`). Each family's C++ names are read in its own
module: :mod:`.mma` (NVIDIA's MMA atoms), :mod:`.copy`; other vendors' atoms are one module per
vendor (:mod:`.vendors`).
"""

# issue 34 added amd, amx, intel (other vendors' atoms) and umma_ext (block-scaled, sparse UMMA)
from .amd import amd_mma_atom, amd_mma_atoms
from .amx import amx_mma_atom, amx_mma_atoms
from .cluster_copy import copy_bulk_s2s_atom, copy_dsmem_store_atom
from .copy import CopyAtom, copy_atom, copy_atoms
from .gmma_sparse import gmma_sparse_atoms
from .intel import wi_interleave, xe_mma_atom, xe_mma_atoms
from .intel_hpg import xe_hpg_mma_atom, xe_hpg_mma_atoms
from .mma import MMAAtom, mma_atom, mma_atoms
from .sm120_ext import WarpBlockScaledMMAAtom, sm120_ext_atoms
from .smem import gmma_smem_layout, tile_to_mma_shape
from .umma_ext import (
    BlockScaledMMAAtom,
    SparseMMAAtom,
    blockscaled_sf_atom,
    blockscaled_sf_layout,
    umma_ext_atoms,
)

__all__ = [
    "CopyAtom", "MMAAtom", "copy_atom", "copy_atoms", "gmma_smem_layout", "mma_atom", "mma_atoms",
    "tile_to_mma_shape",
    # issue 34: other vendors' atoms
    "amd_mma_atom", "amd_mma_atoms", "amx_mma_atom", "amx_mma_atoms", "wi_interleave", "xe_mma_atom",
    "xe_mma_atoms",
    # issue 34: SM100/SM103 block-scaled and sparse UMMA
    "BlockScaledMMAAtom", "SparseMMAAtom", "blockscaled_sf_atom", "blockscaled_sf_layout", "umma_ext_atoms",
    "gmma_sparse_atoms", "WarpBlockScaledMMAAtom", "sm120_ext_atoms",
    # issue 34: the CuTe DSL's copies into a peer CTA's shared memory
    "copy_bulk_s2s_atom", "copy_dsmem_store_atom",
    # issue 34: Intel Xe-HPG DPAS (sub-groups of 8) from Intel's OpenCL extension
    "xe_hpg_mma_atom", "xe_hpg_mma_atoms",
]
