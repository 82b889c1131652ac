"""x86 AMX tile-multiply atoms (Intel Advanced Matrix Extensions), under Intel's mnemonics.

Source: Intel 64 and IA-32 Architectures Software Developer's Manual, vol. 2 (instruction set
reference: TDPBF16PS, TDPFP16PS, TDPBSSD, TDPBSUD, TDPBUSD, TDPBUUD) and vol. 1 ch. 18 (tiles).
A tile register holds up to 16 rows of 64 bytes. ``TDPBF16PS tC, tA, tB`` does, for each row
``m`` of C and each fp32 column ``n``, ``C[m].fp32[n] += sum over k, p of A[m].bf16[2k+p] *
B[k].bf16[2n+p]``: A is the ``M x K`` matrix row-major, B is stored "VNNI"-packed (each tile row
holds two (four for 8-bit) consecutive K for every column N). The integer forms do the same
over four bytes (``TDPBSSD``: signed A and B; ``SU``/``US``/``UU`` the other signednesses).

An atom is the full-size instruction (16 rows, 64-byte rows): one "thread" (the core) holds
every tile, and a value is an element's place in its tile register, row by row. So
``tv_layout_A(0, v)`` is the ``m + M*k`` of the A element stored ``v``-th in the A tile,
``tv_layout_B(0, v)`` the ``n + N*k`` of B's (its VNNI order), ``tv_layout_C(0, v)`` C's
``m + M*n``. The suite runs the SDM's pseudo-code on random tiles and checks that the layouts
carry it out.

>>> a = amx_mma_atom("TDPBF16PS")
>>> a.shape_mnk, a.tv_layout_B
((16, 16, 32), (1,(2,16,16)):(0,(16,1,32)))
>>> amx_mma_atom("TDPBSUD").element_types
('int32_t', 'int8_t', 'uint8_t', 'int32_t')
"""

from __future__ import annotations

from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import MMAAtom

#: tile rows and bytes per row of the full-size AMX tile (palette 1)
TILE_ROWS, TILE_BYTES = 16, 64
#: mnemonic -> (A type, B type, C type)
AMX_INSTRUCTIONS = {
    "TDPBF16PS": ("bfloat16_t", "bfloat16_t", "float"),
    "TDPFP16PS": ("half_t", "half_t", "float"),
    "TDPBSSD": ("int8_t", "int8_t", "int32_t"),
    "TDPBSUD": ("int8_t", "uint8_t", "int32_t"),
    "TDPBUSD": ("uint8_t", "int8_t", "int32_t"),
    "TDPBUUD": ("uint8_t", "uint8_t", "int32_t"),
}


def amx_mma_atom(name: str) -> MMAAtom:
    """The AMX atom ``name`` (one of :data:`AMX_INSTRUCTIONS`, either case).

    Pre:  ``name`` is a string naming an AMX tile dot-product instruction (else ``CutepyError``).
    Post: an :class:`MMAAtom` of shape ``(16, 16, K)`` with ``K`` 32 (16-bit inputs) or 64
          (8-bit), one thread, values in tile-register order (B in its VNNI packing).

    >>> amx_mma_atom("tdpbssd").tv_layout_A
    (1,(64,16)):(0,(16,1))
    >>> amx_mma_atom("TDPBF8PS")
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: amx_mma_atom: unknown AMX instruction 'TDPBF8PS' (see cutepy.amx_mma_atoms())
    """
    if not isinstance(name, str):
        raise CutepyError(f"amx_mma_atom: name must be a string, not {name!r}")
    key = name.strip().upper()
    if key not in AMX_INSTRUCTIONS:
        raise CutepyError(f"amx_mma_atom: unknown AMX instruction {name!r} (see cutepy.amx_mma_atoms())")
    a, b, c = AMX_INSTRUCTIONS[key]
    pack = 2 if a in ("bfloat16_t", "half_t") else 4  # K elements per 32-bit dword
    m = TILE_ROWS
    n = TILE_BYTES // 4  # fp32 / int32 columns of C
    k = TILE_BYTES // (4 // pack)  # elements of a 64-byte A row
    A = Layout((1, (k, m)), (0, (m, 1)))  # A row m holds A[m][0..K)
    # B row r holds B[pack*r + p][n] at element pack*n + p (VNNI)
    B = Layout((1, (pack, n, k // pack)), (0, (n, 1, n * pack)))
    C = Layout((1, (n, m)), (0, (m, 1)))
    return MMAAtom(key, (m, n, k), Layout(1, 0), A, B, C, (c, a, b, c), "")


def amx_mma_atoms() -> list[str]:
    """The AMX atom names.

    Pre:  none.
    Post: the mnemonics :func:`amx_mma_atom` (and ``mma_atom``) accept.

    >>> amx_mma_atoms()
    ['TDPBF16PS', 'TDPFP16PS', 'TDPBSSD', 'TDPBSUD', 'TDPBUSD', 'TDPBUUD']
    """
    return list(AMX_INSTRUCTIONS)
