"""Intel Xe DPAS atoms, as Intel's CuTe fork (sycl-tla, formerly cutlass-sycl) defines them.

Source: github.com/intel/sycl-tla (commit 6601377d2), ``include/cute/atom/mma_traits_xe.hpp``
(``XE_DPAS_TT<M, D, A, B = A, C = D>``) and ``mma_traits_xe_legacy.hpp``
(``XE_{M}x16x{K}_{D}{A}{B}{C}_TT``). Both are DPAS on Xe-HPC/Xe2 (Ponte Vecchio, Battlemage):
a sub-group of 16 work-items computes ``C[M,16] += A[M,K] * B[16,K]`` for a repeat count
``M`` of 1 to 8 and 256 bits of K per row (``K = 256 / max(bits(A), bits(B))``). The layouts are
C++'s ``ALayout``/``BLayout``/``CLayout`` (``(work-item, value) -> m + M*k``, ``n + 16*k``,
``m + M*n``); the suite checks every atom against sycl-tla's own prints (compiled on the host).

>>> a = xe_mma_atom("XE_DPAS_TT<8,float,bfloat16_t>")
>>> a.shape_mnk, a.thr_id, a.tv_layout_B
((8, 16, 16), 16:1, ((2,8),(2,8)):((16,1),(8,32)))
>>> xe_mma_atom("XE_8x16x32_S32S8S8S32_TT").tv_layout_A
(16,(2,8)):(16,(8,1))

sycl-tla has no Xe-HPG (sub-group of 8) MMA traits, so none are here. tensor-layouts'
``XeHPC_*``/``XeHPG_*`` atoms give Xe-HPC a sub-group of 8 and Xe-HPG one of 16 (the other way
round from Intel's documentation), so cutepy does not take their names.
"""

from __future__ import annotations

import re

from ...algebra.coalesce import coalesce
from ...algebra.composition import composition
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from .mma_types import TYPE_BITS, MMAAtom

#: sub-group size of the sycl-tla DPAS atoms (``intel::sg_size``)
SG_SIZE = 16
#: bits of the element types the Xe atoms use (TYPE_BITS plus DPAS's unsigned 32-bit accumulator)
XE_TYPE_BITS = {**TYPE_BITS, "uint32_t": 32}
#: (D, A, B, C) of every ``CUTE_DECLARE_XE_DPAS_TT`` in sycl-tla's ``cute/arch/mma_xe.hpp``
XE_DPAS_TYPES = tuple(
    tuple({"f": "float", "tf32": "tfloat32_t", "bf": "bfloat16_t", "hf": "half_t", "ud": "uint32_t",
           "d": "int32_t", "u8": "uint8_t", "s8": "int8_t", "u4": "uint4b_t", "s4": "int4b_t"}[c]
          for c in row.split())
    for row in (
        "f tf32 tf32 f", "f bf bf f", "bf bf bf f", "f bf bf bf", "bf bf bf bf",
        "f hf hf f", "f hf hf hf", "hf hf hf f", "hf hf hf hf",
        "ud u8 u8 ud", "d u8 u8 d", "d u8 s8 d", "d s8 u8 d", "d s8 s8 d",
        "ud u8 u4 ud", "d u8 u4 d", "d u8 s4 d", "d s8 u4 d", "d s8 s4 d",
        "ud u4 u8 ud", "d u4 u8 d", "d u4 s8 d", "d s4 u8 d", "d s4 s8 d",
        "ud u4 u4 ud", "d u4 u4 d", "d u4 s4 d", "d s4 u4 d", "d s4 s4 d",
    )
)
#: the legacy atoms' types, as their names spell them
_LEGACY = {
    "BF16BF16BF16BF16": ("bfloat16_t",) * 4,
    "F32BF16BF16F32": ("float", "bfloat16_t", "bfloat16_t", "float"),
    "F32F16F16F32": ("float", "half_t", "half_t", "float"),
    "F16F16F16F16": ("half_t",) * 4,
    "S32S8S8S32": ("int32_t", "int8_t", "int8_t", "int32_t"),
    "S32U8U8S32": ("int32_t", "uint8_t", "uint8_t", "int32_t"),
    "F32TF32TF32F32": ("float", "tfloat32_t", "tfloat32_t", "float"),
}
_LEGACY_RE = (r"XE_([1248])x16x(8|16|32)_([A-Z0-9]+)_TT")
_DPAS_RE = (r"XE_DPAS_TT<(\d+),([a-z0-9_]+)(?:,([a-z0-9_]+))?(?:,([a-z0-9_]+))?(?:,([a-z0-9_]+))?>")


def wi_interleave(bits: int, layout: Layout) -> Layout:
    """sycl-tla's ``detail::wi_interleave<T>(layout)``: ``layout``'s elements dealt to the 16
    work-items of a sub-group, a byte at a time (``ceil(8/bits)`` elements of ``bits`` bits).

    Pre:  ``bits`` a positive int, ``layout`` a Layout (else ``CutepyError``); a size that is not
          a multiple of 16 is dealt as C++ deals it (``ceil_div``).
    Post: ``coalesce(composition(layout, (16,(p,v/p)):(p,(1,16p))), (1,1))`` with ``p`` the
          elements per byte and ``v = size(layout)/16``.

    >>> wi_interleave(8, Layout((32, 8), (8, 1)))
    (16,(2,8)):(8,(128,1))
    """
    if type(bits) is not int or bits < 1:
        raise CutepyError(f"wi_interleave: bits must be a positive int, not {bits!r}")
    if not isinstance(layout, Layout):
        raise CutepyError(f"wi_interleave: layout must be a Layout, not {layout!r}")
    per_byte = -(-8 // bits)
    vals = -(-size(layout) // SG_SIZE)
    tv = Layout((SG_SIZE, (per_byte, vals // per_byte)), (per_byte, (1, SG_SIZE * per_byte)))
    return coalesce(composition(layout, tv), (1, 1))


def _legacy(name: str) -> MMAAtom | None:
    m = re.fullmatch(_LEGACY_RE, name)
    if m is None or m.group(3) not in _LEGACY:
        return None
    mm, k, types = int(m.group(1)), int(m.group(2)), _LEGACY[m.group(3)]
    bits = XE_TYPE_BITS[types[1]]
    if k != 256 // bits:
        return None
    if bits == 16:
        A = Layout((16, mm), (mm, 1))
    elif bits == 8:
        A = Layout((16, (2, mm)), (2 * mm, (mm, 1)))
    else:  # tf32: two work-items per row of 8
        A = Layout(((8, 2), max(mm // 2, 1)), ((mm, 1 if mm > 1 else 0), 2 if mm > 2 else 0))
    B = Layout((16, k), (1, 16))
    C = Layout((16, mm), (mm, 1))
    return MMAAtom(name, (mm, 16, k), Layout(SG_SIZE, 1), A, B, C, types, name)


def _dpas(name: str) -> MMAAtom | None:
    m = re.fullmatch(_DPAS_RE, name.replace(" ", ""))
    if m is None:
        return None
    mm, d, a, b, c = int(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)
    if a is None:
        raise CutepyError(f"{name}: XE_DPAS_TT<M, D, A[, B[, C]]> needs at least the A type")
    b, c = b or a, c or d
    if (d, a, b, c) not in XE_DPAS_TYPES:
        raise CutepyError(f"{name}: sycl-tla declares XE_DPAS_TT for (D, A, B, C) among {XE_DPAS_TYPES}")
    if not 1 <= mm <= 8:
        raise CutepyError(f"{name}: the DPAS repeat count M is 1 to 8, not {mm}")
    ba, bb = XE_TYPE_BITS[a], XE_TYPE_BITS[b]
    k = 256 // max(ba, bb)
    bv = 32 // bb
    A = wi_interleave(ba, Layout((k, mm), (mm, 1)))
    B = wi_interleave(bb, Layout((bv, 16, k // bv), (16, 1, 16 * bv)))
    C = Layout((16, mm), (mm, 1))
    cpp = f"XE_DPAS_TT<{mm},{d},{a},{b},{c}>"
    return MMAAtom(name, (mm, 16, k), Layout(SG_SIZE, 1), A, B, C, (d, a, b, c), cpp)


def xe_mma_atom(name: str) -> MMAAtom:
    """The Intel Xe DPAS atom sycl-tla calls ``name`` (``XE_DPAS_TT<M,D,A[,B[,C]]>`` with C++'s
    defaults ``B = A``, ``C = D``, or a legacy ``XE_{M}x16x{K}_{types}_TT``).

    Pre:  ``name`` is a string naming one of :func:`xe_mma_atoms` (any M of 1 to 8 for
          ``XE_DPAS_TT``; else ``CutepyError``).
    Post: an :class:`MMAAtom` whose ThrID is the 16 work-items of a sub-group and whose TV
          layouts are sycl-tla's ``ALayout``, ``BLayout``, ``CLayout``.

    >>> xe_mma_atom("XE_8x16x8_F32TF32TF32F32_TT").tv_layout_A
    ((8,2),4):((8,1),2)
    >>> xe_mma_atom("XE_DPAS_TT<9,float,half_t>")
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: XE_DPAS_TT<9,float,half_t>: the DPAS repeat count M is 1 to 8, not 9
    """
    if not isinstance(name, str):
        raise CutepyError(f"xe_mma_atom: name must be a string, not {name!r}")
    atom = _legacy(name) or _dpas(name)
    if atom is None:
        raise CutepyError(f"unknown Intel Xe MMA atom {name!r} (see cutepy.mma_atoms(vendor='intel'))")
    return atom


def xe_mma_atoms() -> list[str]:
    """Every Intel Xe atom name: sycl-tla's 28 legacy atoms and ``XE_DPAS_TT`` for M = 1..8 and
    each declared type tuple (written out in full).

    Pre:  none.
    Post: a list of distinct names, each accepted by :func:`xe_mma_atom` and ``mma_atom``.

    >>> names = xe_mma_atoms()
    >>> len(names), names[0], names[-1]
    (260, 'XE_8x16x16_BF16BF16BF16BF16_TT', 'XE_DPAS_TT<8,int32_t,int4b_t,int4b_t,int32_t>')
    """
    out = [
        f"XE_{m}x16x{256 // XE_TYPE_BITS[t[1]]}_{code}_TT"
        for code, t in _LEGACY.items() for m in (8, 4, 2, 1)
    ]
    out += [f"XE_DPAS_TT<{m},{','.join(t)}>" for t in XE_DPAS_TYPES for m in range(1, 9)]
    return out
