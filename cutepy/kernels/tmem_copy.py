"""Blackwell tensor-memory copies: the ``SM100_TMEM_LOAD/STORE_32dp32b{N}x`` atoms and C++'s
``make_tmem_copy`` (``cute/atom/copy_traits_sm100.hpp``, CUTLASS 4.7): each of a warpgroup's
4 warps reads its own quarter of the 128 lanes, each thread one lane, ``N`` columns at a time.

>>> from cutepy.kernels.tmem import make_tmem_frg
>>> t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", make_tmem_frg("float", ((128, 256), 1, 1)))
>>> t2r.size, t2r.copy_atom.num_val_src
(128, 256)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..algebra.casting import upcast
from ..algebra.coalesce import coalesce
from ..core.errors import CutepyError
from ..core.layout import Layout
from .atoms.copy import CopyAtom
from .tensor import Tensor
from .tiled.copy import TiledCopy, make_cotiled_copy
from .tmem import dp

#: TMEM's lane stride in bit addressing (C++ ``TMEM::DP_b``)
DP_BITS = 1 << 21
#: the repetitions C++ defines for the 32dp32b TMEM load/store atoms
TMEM_REPS = (1, 2, 4, 8, 16, 32, 64, 128)


@dataclass(frozen=True)
class TmemCopyAtom(CopyAtom):
    """C++ ``Copy_Atom<SM100_TMEM_{LOAD,STORE}_32dp32b{N}x, T>``: a warp moving 32 lanes x ``N``
    32-bit columns between tensor memory and registers; ``val_id`` is the traits' ``ValID``
    (logical bit -> TMEM bit address)."""

    val_id: Layout | None = None

    def __str__(self) -> str:  # as C++'s print(Copy_Atom)
        return (
            f"Copy_Atom\n  ThrID:        {self.thr_id}\n"
            f"  ValLayoutSrc: {self.layout_src_tv}\n  ValLayoutDst: {self.layout_dst_tv}\n"
            f"  ValLayoutRef: {self.layout_ref_tv}\n  ValueType:    {self.element_bits}b"
        )


def tmem_copy_atom(name: str, element_bits: int) -> TmemCopyAtom:
    """C++ ``Copy_Atom<SM100_TMEM_LOAD_32dp32b{N}x, T>`` (or ``_STORE_``) for ``element_bits``-bit ``T``.

    Pre:  ``name`` is ``SM100_TMEM_LOAD_32dp32b{N}x`` or ``SM100_TMEM_STORE_32dp32b{N}x`` with ``N`` one of
          :data:`TMEM_REPS` (the other TMEM shapes are not modelled here); ``element_bits`` divides 32
          (else ``CutepyError``).
    Post: the traits' layouts as C++ (``copy_traits_sm100.hpp``): 32 threads, each ``N`` columns of
          its lane; a store swaps the source and destination of the load.

    >>> a = tmem_copy_atom("SM100_TMEM_LOAD_32dp32b8x", 32)
    >>> a.layout_src_tv, a.layout_dst_tv, a.val_id
    ((32,256):(0,1), (32,8):(8,1), (256,32):(1,2097152))
    """
    m = re.fullmatch(r"SM100_TMEM_(LOAD|STORE)_32dp32b(\d+)x", name)
    if m is None or int(m.group(2)) not in TMEM_REPS:
        raise CutepyError(f"unknown TMEM copy atom {name!r}: SM100_TMEM_LOAD_32dp32b{{N}}x or "
                          f"SM100_TMEM_STORE_32dp32b{{N}}x with N in {TMEM_REPS}")
    if type(element_bits) is not int or element_bits < 1 or 32 % element_bits:
        raise CutepyError(f"{name}: the element width must divide 32 bits, not {element_bits!r}")
    n = int(m.group(2))
    tmem_side = Layout((32, 1024 * n), (0, 1))
    reg_side = Layout((32, 32 * n), (32 * n, 1))
    load = m.group(1) == "LOAD"
    src, dst = (tmem_side, reg_side) if load else (reg_side, tmem_side)
    return TmemCopyAtom(
        name=name, element_bits=element_bits, thr_id=Layout(32, 1), layout_src_tv_bits=src,
        layout_dst_tv_bits=dst, layout_ref_tv_bits=tmem_side, op="ld" if load else "st", cpp_type=name,
        val_id=Layout((32 * n, 32), (1, DP_BITS)),
    )


def make_tmem_copy(atom: Any, tmem: Tensor) -> TiledCopy:
    """C++ ``make_tmem_copy(atom, tmem_tensor)``: the TiledCopy of a warpgroup, warp ``w`` on the
    lanes ``32*w ..`` of tensor memory, each thread its lane's columns.

    Pre:  ``atom`` is a :class:`TmemCopyAtom` (or its name); ``tmem`` a tensor over ``tmem_ptr`` of
          the atom's element width (C++: "Expected a CopyAtom with the same type-width as the
          Tensor."; else ``CutepyError``).
    Post: C++'s ``make_cotiled_copy(atom, ((32,4):(0,32*DP), coalesce(upcast(ValID))), tmem.layout())``.

    >>> from cutepy.kernels.tmem import make_tmem_frg
    >>> acc = make_tmem_frg("float", ((128, 256), 1, 1))
    >>> t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", acc)
    >>> t2r.size, t2r.layout_tv_tiled
    (128, ((32,4),(8,32)):((0,1),(4,32)))
    """
    if not isinstance(tmem, Tensor) or getattr(tmem.engine, "space", None) != "tmem":
        raise CutepyError(f"make_tmem_copy: expected a TMEM tensor (over tmem_ptr), not {tmem!r}")
    if isinstance(atom, str):
        atom = tmem_copy_atom(atom, tmem.engine.bits)
    if not isinstance(atom, TmemCopyAtom):
        raise CutepyError(f"make_tmem_copy takes a TMEM copy atom (tmem_copy_atom), not {atom!r}")
    bits = tmem.engine.bits
    if atom.element_bits != bits:
        raise CutepyError(f"Expected a CopyAtom with the same type-width as the Tensor: {atom.element_bits} "
                          f"vs {bits} bits")
    atom_t = Layout((32, 4), (0, 32 * dp(bits)))
    atom_v = coalesce(upcast(atom.val_id, bits))
    tv = Layout((atom_t.shape, atom_v.shape), (atom_t.stride, atom_v.stride))
    return make_cotiled_copy(atom, tv, tmem.layout)


__all__ = ["DP_BITS", "TMEM_REPS", "TmemCopyAtom", "make_tmem_copy", "tmem_copy_atom"]
