"""Shared-memory bank conflicts exactly as the GPU counts them, and swizzles found with proof.

- :func:`analyze`: one warp instruction from its 32 lane byte addresses (ld/st of 1-16
  bytes, ldmatrix/stmatrix .x1/.x2/.x4) -> :class:`BankReport` (wavefronts, phases, ncu's
  bank conflicts, the worst bank of each phase).
- :func:`analyze_layout` / :func:`analyze_copy`: every warp instruction of a thread-value
  layout or a TiledCopy against a (swizzled) shared-memory layout -> :class:`TileReport`.
- :func:`find_swizzle`: the ``Swizzle<B,M,S>`` with the fewest bits that makes every
  access of a tile conflict-free, or the proof that none does -> :class:`SwizzleSearch`.
- :class:`BankModel`: other memories (banks, bank width, lanes per phase; AMD's LDS as
  :data:`AMD_CDNA3_LDS`); :data:`NVIDIA_SMEM` is the measured rule above.

The rule is the one measured on H100 (sm_90) with Nsight Compute; see ``docs/banks.md``.
"""

from .model import AMD_CDNA3_LDS, NVIDIA_SMEM, BankModel
from .swizzle_search import AccessCost, SwizzleSearch, Viewed, find_swizzle, swizzle_family
from .tile import Access, Instruction, TileReport, analyze_copy, analyze_layout
from .warp import BankReport, PhaseCost, analyze

__all__ = [
    "AMD_CDNA3_LDS",
    "Access",
    "AccessCost",
    "BankModel",
    "BankReport",
    "Instruction",
    "NVIDIA_SMEM",
    "PhaseCost",
    "SwizzleSearch",
    "TileReport",
    "Viewed",
    "analyze",
    "analyze_copy",
    "analyze_layout",
    "find_swizzle",
    "swizzle_family",
]
