"""The non-NVIDIA atoms behind :func:`cutepy.mma_atom`: AMD (``amd.py``), Intel Xe (``intel.py``)
and x86 AMX (``amx.py``), one module per vendor, each citing its source.

>>> lookup("cdna3::v_mfma_f32_16x16x16_f16").shape_mnk
(16, 16, 16)
>>> lookup("SM80_16x8x16_F32F16F16F32_TN") is None
True
"""

from __future__ import annotations

from .amd import amd_mma_atom, amd_mma_atoms
from .amx import amx_mma_atom, amx_mma_atoms
from .intel import xe_mma_atom, xe_mma_atoms
from .mma_types import MMAAtom

#: the vendors :func:`cutepy.mma_atoms` lists besides ``"nvidia"``
VENDORS = ("amd", "intel", "x86")


def names(vendor: str) -> list[str]:
    """The atom names of ``vendor`` (one of :data:`VENDORS`).

    >>> names("x86")[:2]
    ['TDPBF16PS', 'TDPFP16PS']
    """
    if vendor == "amd":
        return amd_mma_atoms()
    if vendor == "intel":
        return xe_mma_atoms()
    return amx_mma_atoms()


def lookup(name: str) -> MMAAtom | None:
    """The vendor atom called ``name``, or None when the name is not a vendor's.

    A name that looks like a vendor's (``v_mfma_``/``v_wmma_``, ``XE_``, ``TDP``) but is not
    known raises that vendor's ``CutepyError``.
    """
    low = name.strip().lower()
    if "v_mfma_" in low or "v_wmma_" in low:
        return amd_mma_atom(name)
    if name.startswith("XE_"):
        return xe_mma_atom(name)
    if name.upper().startswith("TDP"):
        return amx_mma_atom(name)
    return None
