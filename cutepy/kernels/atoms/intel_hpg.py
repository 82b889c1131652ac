"""Intel Xe-HPG DPAS atoms (Arc / DG2: sub-groups of 8 work-items), from Intel's documentation.

Intel's CuTe fork (sycl-tla) defines DPAS atoms only for sub-groups of 16 (Xe-HPC, Xe2:
:mod:`cutepy.kernels.atoms.intel`); for Xe-HPG there is no CuTe oracle. The semantics here are
Intel's OpenCL extension ``cl_intel_subgroup_matrix_multiply_accumulate`` (Khronos OpenCL-Docs,
``extensions/cl_intel_subgroup_matrix_multiply_accumulate.asciidoc``), whose functions for
"devices where the minimum subgroup size is 8" are Xe-HPG's DPAS (systolic depth 8, execution
size 8): ``intel_sub_group_<a>_<b>_matrix_mad_k<K>`` multiplies ``a`` (M x K) by ``b`` (K x N, N = 8,
the sub-group size) and adds ``acc`` (M x N), M = 1, 2, 4 or 8 the number of vector components of
``a``, ``acc`` and the result. As the extension says and its coding sample computes:

- ``a``: component ``m`` of work-item ``w`` is 32 bits of row ``m``, the ``p = 32 / bits`` elements
  ``k = p*w .. p*w + p - 1`` (K = 8p: 32 8-bit, 64 4-bit, 16 16-bit values per row);
- ``b``: work-item ``n`` holds column ``n``, its component ``c`` the ``p`` elements ``k = p*c ..``;
- ``acc`` and the result: work-item ``n`` holds column ``n``, component ``m`` row ``m``.

A value's index in a work-item's registers is ``component * p + element in the component`` (the
low bits first, as ``as_char4`` reads ``.x`` from the low byte). So, as CuTe TV layouts into the
column-major ``m + M*k``, ``n + 8*k`` and ``m + M*n`` (the Xe atoms' convention):
``A = (8,(p,M)):(p*M,(M,1))``, ``B = (8,(p,8)):(1,(8,8p))``, ``C = (8,M):(M,1)``. The suite checks
them by running the extension's coding sample, generalised to every type, as a numpy model on data
laid out by these layouts (tests/kernels/atoms/test_intel_hpg.py).

tensor-layouts' ``XeHPG_*`` atoms give Xe-HPG a sub-group of 16 (see :mod:`.intel`), so their
names are not taken; the atoms are named by the OpenCL built-in and M: ``xe_hpg::<builtin><M>``.

>>> a = xe_hpg_mma_atom("intel_sub_group_i8_i8_matrix_mad_k32", 8)
>>> a.shape_mnk, a.thr_id, a.tv_layout_A, a.tv_layout_B, a.tv_layout_C
((8, 8, 32), 8:1, (8,(4,8)):(32,(8,1)), (8,32):(1,8), (8,8):(8,1))
"""

from __future__ import annotations

import re

from ...algebra.coalesce import coalesce
from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import MMAAtom

#: the sub-group size (N) of Xe-HPG's DPAS
HPG_SG_SIZE = 8
#: the extension's element codes -> (cutepy's element type, bits)
HPG_TYPES = {"i8": ("int8_t", 8), "u8": ("uint8_t", 8), "i4": ("int4b_t", 4), "u4": ("uint4b_t", 4),
             "f16": ("half_t", 16), "bf16": ("bfloat16_t", 16)}
#: every built-in the extension lists for sub-groups of 8 (the fp32-accumulating fp16/bf16 ones,
#: and the integer ones with a 32-bit integer accumulator)
HPG_BUILTINS = (
    *(f"intel_sub_group_{a}_{b}_matrix_mad_k32" for a in ("i8", "u8") for b in ("i8", "u8")),
    *(f"intel_sub_group_{a}_{b}_matrix_mad_k64" for a in ("i4", "u4") for b in ("i4", "u4")),
    "intel_sub_group_f16_f16_matrix_mad_k16", "intel_sub_group_bf16_bf16_matrix_mad_k16",
)
_BUILTIN = re.compile(r"intel_sub_group_([a-z0-9]+)_([a-z0-9]+)_matrix_mad_k(\d+)")


def xe_hpg_mma_atom(builtin: str, m: int = 8) -> MMAAtom:
    """The Xe-HPG DPAS of the OpenCL built-in ``builtin`` with ``m`` rows (the vector width of its
    ``a``, ``acc`` and result), as the extension ``cl_intel_subgroup_matrix_multiply_accumulate``
    defines it for sub-groups of 8.

    Pre:  ``builtin`` one of :data:`HPG_BUILTINS`; ``m`` 1, 2, 4 or 8; else ``CutepyError`` naming
          the argument.
    Post: an :class:`MMAAtom` of shape ``(m, 8, K)``, ThrID ``8:1`` and the layouts the module
          docstring derives; element types ``(D, A, B, C)`` with D = C = ``int32_t`` for integer
          sources and ``float`` for fp16/bf16; ``cpp_type`` empty (no C++ CuTe atom).

    >>> xe_hpg_mma_atom("intel_sub_group_f16_f16_matrix_mad_k16", 4).tv_layout_A
    (8,(2,4)):(8,(4,1))
    >>> xe_hpg_mma_atom("intel_sub_group_f16_f16_matrix_mad_k16", 3)
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: xe_hpg_mma_atom: m (the rows) must be 1, 2, 4 or 8, not 3
    """
    if not isinstance(builtin, str) or builtin not in HPG_BUILTINS:
        raise CutepyError(f"xe_hpg_mma_atom: builtin must be one of {', '.join(HPG_BUILTINS)}, "
                          f"not {builtin!r}")
    if type(m) is not int or m not in (1, 2, 4, 8):
        raise CutepyError(f"xe_hpg_mma_atom: m (the rows) must be 1, 2, 4 or 8, not {m!r}")
    ta, tb, k = _BUILTIN.fullmatch(builtin).groups()
    (a, bits), (b, _) = HPG_TYPES[ta], HPG_TYPES[tb]
    p, k, n = 32 // bits, int(k), HPG_SG_SIZE
    acc = "float" if bits == 16 else "int32_t"
    A = coalesce(Layout((n, (p, m)), (p * m, (m, 1))), (1, 1))
    B = coalesce(Layout((n, (p, n)), (1, (n, n * p))), (1, 1))
    C = Layout((n, m), (m, 1))
    return MMAAtom(f"xe_hpg::{builtin}<{m}>", (m, n, k), Layout(n, 1), A, B, C, (acc, a, b, acc), "")


def xe_hpg_mma_atoms() -> list[str]:
    """Every Xe-HPG atom's name, ``xe_hpg::<builtin><M>``, for the built-ins of
    :data:`HPG_BUILTINS` and M = 8, 4, 2, 1.

    Pre:  none.
    Post: 40 distinct names; ``xe_hpg_mma_atom(builtin, M).name`` is each.

    >>> names = xe_hpg_mma_atoms()
    >>> len(names), names[0]
    (40, 'xe_hpg::intel_sub_group_i8_i8_matrix_mad_k32<8>')
    """
    return [f"xe_hpg::{b}<{m}>" for b in HPG_BUILTINS for m in (8, 4, 2, 1)]


__all__ = ["xe_hpg_mma_atom", "xe_hpg_mma_atoms"]
