"""Copies into another CTA's shared memory (distributed shared memory, DSMEM) of a cluster: the CuTe
DSL's ``cpasync.CopyDsmemStoreOp`` (PTX ``st.async.shared::cluster``: registers to a peer CTA's shared
memory, completing on its mbarrier) and ``cpasync.CopyBulkS2SOp`` (PTX ``cp.async.bulk.shared::cluster
.shared::cta``: a bulk copy from this CTA's shared memory into a peer's). C++ CuTe 4.7 has neither as
an atom (only the raw ``st.async`` in ``cute/arch/cluster_sm90.hpp``); the DSL (4.8) has both, and its
atoms are the oracle (tests/kernels/test_cluster_copy.py). Part of layer 4 (kernel values).

Both are one thread moving one vector: ``ThrID`` ``1:0``, source and destination ``(1, n)`` values.

>>> a = copy_dsmem_store_atom("half_t", 128)
>>> a.name, a.thr_id, a.layout_src_tv, a.layout_dst_tv
('CopyDsmemStoreOp', 1:0, (1,8):(0,1), (1,8):(0,1))
"""

from __future__ import annotations

from ...core.errors import CutepyError
from ...core.layout import Layout
from ..pointer import element_bits
from .copy import CopyAtom

#: the vector widths ``st.async`` stores (``.b32``, ``.v2.b32``/``.b64``, ``.v4.b32``): the DSL's
#: ``num_bits_per_copy`` (0: one element)
DSMEM_STORE_BITS = (0, 32, 64, 128)


def _vector_atom(name: str, bits: int, nbits: int, op: str) -> CopyAtom:
    vec = Layout((1, nbits), (0, 1))
    return CopyAtom(name, bits, Layout(1, 0), vec, vec, vec, op, "")


def copy_dsmem_store_atom(element_type: str, num_bits_per_copy: int = 0) -> CopyAtom:
    """The CuTe DSL's ``cute.make_copy_atom(cpasync.CopyDsmemStoreOp(), T, num_bits_per_copy=n)``:
    one thread stores ``n`` bits of registers into a peer CTA's shared memory (``st.async``).

    Pre:  ``element_type`` a C++ element type; ``num_bits_per_copy`` one of :data:`DSMEM_STORE_BITS`
          (the DSL's rule) and, unless 0, at least one element (the DSL builds a one-element atom for
          a 64-bit element in a 32-bit store, which ``st.async`` cannot move: cutepy refuses it);
          else ``CutepyError`` naming the argument.
    Post: ``ThrID`` ``1:0``; source, destination and reference ``(1, n / bits(T))`` values (one for
          ``n = 0``), as the DSL prints them.

    >>> copy_dsmem_store_atom("float").layout_src_tv, copy_dsmem_store_atom("int8_t", 64).layout_dst_tv
    ((1,1):(0,1), (1,8):(0,1))
    """
    bits = element_bits(element_type)
    if type(num_bits_per_copy) is not int or num_bits_per_copy not in DSMEM_STORE_BITS:
        raise CutepyError(f"copy_dsmem_store_atom: num_bits_per_copy must be one of "
                          f"{', '.join(map(str, DSMEM_STORE_BITS))} (st.async's widths), "
                          f"not {num_bits_per_copy!r}")
    if num_bits_per_copy and num_bits_per_copy < bits:
        raise CutepyError(f"copy_dsmem_store_atom: num_bits_per_copy {num_bits_per_copy} is narrower "
                          f"than one {element_type} ({bits} bits): st.async cannot store part of an element")
    if num_bits_per_copy % bits:
        raise CutepyError(f"copy_dsmem_store_atom: num_bits_per_copy {num_bits_per_copy} is not a whole "
                          f"number of {element_type} ({bits} bits)")
    return _vector_atom("CopyDsmemStoreOp", bits, num_bits_per_copy or bits, "st")


def copy_bulk_s2s_atom(element_type: str, num_bits_per_copy: int) -> CopyAtom:
    """The CuTe DSL's ``cute.make_copy_atom(cpasync.CopyBulkS2SOp(), T, num_bits_per_copy=n)``: one
    thread copies ``n`` bits of this CTA's shared memory into a peer CTA's (``cp.async.bulk``).

    Pre:  ``element_type`` a C++ element type; ``num_bits_per_copy`` a positive multiple of 128 (PTX:
          the size of ``cp.async.bulk`` is a multiple of 16 bytes; the DSL's host side builds any width,
          and for 0 an atom with no values) and of the element's bits; else ``CutepyError`` naming
          the argument.
    Post: ``ThrID`` ``1:0``; source, destination and reference ``(1, n / bits(T))`` values, as the DSL
          prints them.

    >>> copy_bulk_s2s_atom("half_t", 1024).layout_src_tv
    (1,64):(0,1)
    """
    bits = element_bits(element_type)
    n = num_bits_per_copy
    if type(n) is not int or n < 128 or n % 128 or n % bits:
        raise CutepyError(f"copy_bulk_s2s_atom: num_bits_per_copy must be a positive multiple of 128 bits "
                          f"(cp.async.bulk moves multiples of 16 bytes) and of {element_type}'s {bits} bits, "
                          f"not {n!r}")
    return _vector_atom("CopyBulkS2SOp", bits, n, "st")


__all__ = ["copy_bulk_s2s_atom", "copy_dsmem_store_atom"]
