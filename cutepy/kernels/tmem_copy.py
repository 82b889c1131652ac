"""Blackwell tensor-memory copies: the ``SM100_TMEM_{LOAD,STORE}_{L}dp{B}b{N}x[_16b]`` atoms
(``32dp32b``: each thread one lane; ``16dp256b``/``16dp128b``/``16dp64b``/``16dp32b``: 16 lanes
shared by the warp's threads), C++'s ``TMEM::op_repeater`` / ``TMEM::tmem_load_to_store`` and
``make_tmem_copy`` (``cute/atom/copy_traits_sm100.hpp``, CUTLASS 4.7): each of a warpgroup's
4 warps works in its own quarter of the 128 lanes.

>>> from cutepy.kernels.tmem import make_tmem_frg
>>> t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", make_tmem_frg("float", ((128, 256), 1, 1)))
>>> t2r.size, t2r.copy_atom.num_val_src
(128, 256)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..algebra.casting import upcast
from ..algebra.coalesce import coalesce
from ..core.errors import CutepyError
from ..core.layout import Layout
from .atoms.copy import CopyAtom, copy_atom
from .tensor import Tensor
from .tiled.copy import TiledCopy, make_cotiled_copy
from .tmem import dp

#: TMEM's lane stride in bit addressing (C++ ``TMEM::DP_b``)
DP_BITS = 1 << 21
#: the repetitions C++ defines for the 32dp32b TMEM load/store atoms
TMEM_REPS = (1, 2, 4, 8, 16, 32, 64, 128)
#: C++'s TMEM load/store shapes (``{lanes}dp{bits}b``) and the repetitions each is defined for
#: (``copy_traits_sm100.hpp``); ``16dp32b`` is PTX's ``16x32bx2`` (two 16-lane halves)
TMEM_SHAPES = {
    "16dp256b": TMEM_REPS[:6], "16dp128b": TMEM_REPS[:7], "16dp64b": TMEM_REPS,
    "16dp32b": TMEM_REPS, "32dp32b": TMEM_REPS,
}
#: the row-statistics loads (same layouts as the 32dp32b loads of these repetitions)
TMEM_STAT_REPS = (32, 128)


def _op_table() -> dict[str, tuple[str, int, int, int, bool]]:
    """Each op's name and its parts: (kind, lanes, bits, repetitions, 16b-packed)."""
    out = {}
    for kind in ("LOAD", "STORE"):
        for shape, reps in TMEM_SHAPES.items():
            lanes, bits = shape.removesuffix("b").split("dp")
            for n in reps:
                for pack in ("", "_16b"):
                    out[f"SM100_TMEM_{kind}_{shape}{n}x{pack}"] = (kind, int(lanes), int(bits), n, bool(pack))
    for n in TMEM_STAT_REPS:
        out[f"SM100_TMEM_LOAD_STAT_32dp32b{n}x"] = ("LOAD_STAT", 32, 32, n, False)
    return out


#: every TMEM load/store op C++ 4.7 defines and its parts (the names are read here, not parsed)
_OPS = _op_table()
#: every TMEM load/store op C++ 4.7 defines (``SM100_TMEM_{LOAD,STORE}_*``, ``SM100_TMEM_LOAD_STAT_*``)
TMEM_COPY_OPS = tuple(_OPS)


def tmem_op_parts(name: str) -> tuple[str, int, int, int, bool] | None:
    """``(kind, lanes, bits, repetitions, 16b-packed)`` of a TMEM load/store op C++ defines
    (``kind``: ``"LOAD"``, ``"STORE"`` or ``"LOAD_STAT"``), else None; the one reader of these
    names (the atoms here and :mod:`cutepy.emit.dsl` ask it).

    >>> tmem_op_parts("SM100_TMEM_LOAD_16dp256b2x_16b"), tmem_op_parts("SM100_TMEM_LOAD_16dp256b64x")
    (('LOAD', 16, 256, 2, True), None)
    """
    return _OPS.get(name) if isinstance(name, str) else None


@dataclass(frozen=True)
class TmemCopyAtom(CopyAtom):
    """C++ ``Copy_Atom<SM100_TMEM_{LOAD,STORE}_{L}dp{B}b{N}x[_16b], T>``: a warp moving ``L`` lanes x
    ``B*N`` bits between tensor memory and registers; ``val_id`` is the traits' ``ValID``
    (logical bit -> TMEM bit address).

    >>> a = tmem_copy_atom("SM100_TMEM_LOAD_16dp256b1x", 32)
    >>> type(a).__name__, a.thr_id, a.layout_src_tv
    ('TmemCopyAtom', 32:1, (32,128):(0,1))
    """

    val_id: Layout | None = None

    def __str__(self) -> str:  # as C++'s print(Copy_Atom)
        return (
            f"Copy_Atom\n  ThrID:        {self.thr_id}\n"
            f"  ValLayoutSrc: {self.layout_src_tv}\n  ValLayoutDst: {self.layout_dst_tv}\n"
            f"  ValLayoutRef: {self.layout_ref_tv}\n  ValueType:    {self.element_bits}b"
        )


def _parse(name: Any) -> tuple[str, int, int, int, bool]:
    """(kind, lanes, bits, repetitions, 16b-packed) of a TMEM op name C++ defines, else CutepyError."""
    parts = tmem_op_parts(name)
    if parts is None:
        raise CutepyError(f"unknown TMEM copy atom {name!r}: C++ defines "
                          f"SM100_TMEM_{{LOAD,STORE}}_{{shape}}{{N}}x"
                          f"[_16b] for the shapes and N of {TMEM_SHAPES} and SM100_TMEM_LOAD_STAT_32dp32b"
                          f"{{N}}x for N in {TMEM_STAT_REPS}")
    return parts


def _traits(lanes: int, bits: int, n: int, pack: bool) -> tuple[Layout, Layout, Layout]:
    """(ValID, TMEM-side (thr,val)->bit, register-side (thr,val)->bit) of a TMEM load, as C++'s traits."""
    cols = (64 if (lanes, bits) == (16, 32) else bits) * n  # bits one lane spans (32bx2: two 32b halves)
    val_id = (Layout(((16, cols // 16), lanes), ((1, 32), DP_BITS)) if pack
              else Layout((cols, lanes), (1, DP_BITS)))
    tmem_side = Layout((32, cols * lanes), (0, 1))
    rep = ((n,), (bits,)) if n > 1 else ((), ())  # C++ writes the repetition mode only when N > 1
    if lanes == 32:  # thread t: lane t
        reg = Layout((32, cols), (cols, 1))
    elif bits in (256, 128):  # thread (t0,t1): lane t1 (+8), 32-bit words t0 of each B/4-bit quarter
        w = bits // 4
        reg = Layout(((4, 8), (w, 2) + rep[0]), ((w, cols), (1, 8 * cols) + rep[1]))
    elif bits == 64:  # thread (t0,t1,t2): lane t2 + 8*t0, word t1
        reg = Layout(((2, 2, 8), (32, n) if n > 1 else 32), ((8 * cols, 32, cols), (1, 64) if n > 1 else 1))
    else:  # 16x32bx2: thread (t0,t1): lane t0 of half t1
        reg = Layout(((16, 2), 32 * n), ((cols, cols // 2), 1))
    return val_id, tmem_side, reg


def tmem_copy_atom(name: str, element_bits: int) -> TmemCopyAtom:
    """C++ ``Copy_Atom<Op, T>`` of a TMEM load or store op (``SM100_TMEM_LOAD_16dp256b2x_16b``, ...)
    for ``element_bits``-bit ``T``.

    Pre:  ``name`` is one of :data:`TMEM_COPY_OPS` (C++ 4.7's ``SM100_TMEM_{LOAD,STORE}_{L}dp{B}b{N}x``
          with or without ``_16b``, and ``SM100_TMEM_LOAD_STAT_32dp32b{32,128}x``); ``element_bits``
          divides 32 (else ``CutepyError``).
    Post: the traits' layouts as C++ (``copy_traits_sm100.hpp``): 32 threads; the TMEM side is
          every thread seeing the whole ``L`` lanes x ``B*N`` bits, the register side C++'s
          fragment; a store swaps the source and destination of the load; ``val_id`` is C++'s
          ``ValID`` (a ``_16b`` op reads the low 16 bits of each 32-bit column).

    >>> a = tmem_copy_atom("SM100_TMEM_LOAD_32dp32b8x", 32)
    >>> a.layout_src_tv, a.layout_dst_tv, a.val_id
    ((32,256):(0,1), (32,8):(8,1), (256,32):(1,2097152))
    >>> a = tmem_copy_atom("SM100_TMEM_STORE_16dp256b1x_16b", 16)
    >>> a.layout_src_tv, a.val_id
    (((4,8),(4,2)):((4,16),(1,128)), ((16,16),16):((1,32),2097152))
    """
    kind, lanes, bits, n, pack = _parse(name)
    if type(element_bits) is not int or element_bits < 1 or 32 % element_bits:
        raise CutepyError(f"{name}: the element width must divide 32 bits, not {element_bits!r}")
    val_id, tmem_side, reg_side = _traits(lanes, bits, n, pack)
    load = kind != "STORE"
    src, dst = (tmem_side, reg_side) if load else (reg_side, tmem_side)
    return TmemCopyAtom(
        name=name, element_bits=element_bits, thr_id=Layout(32, 1), layout_src_tv_bits=src,
        layout_dst_tv_bits=dst, layout_ref_tv_bits=tmem_side, op="ld" if load else "st", cpp_type=name,
        val_id=val_id,
    )


def op_repeater(op: str, bits_n: int) -> str:
    """C++ ``TMEM::op_repeater<Op, bits_n>()``: the widest repetition of a 1x TMEM load/store op whose
    columns divide ``bits_n`` bits (what CUTLASS's SM100 epilogue builder picks).

    Pre:  ``op`` is a ``1x`` load or store of :data:`TMEM_COPY_OPS` (C++: "Must pass 1x tmem copy
          operator"); ``bits_n`` a positive int that one repetition's bits per lane divide (C++
          returns nothing then and the caller fails to compile); else ``CutepyError``.
    Post: the op's name with ``1x`` replaced by the largest ``Nx`` C++ defines whose ``N`` times the
          bits per lane of one repetition divides ``bits_n``.

    >>> op_repeater("SM100_TMEM_LOAD_32dp32b1x", 32 * 24)
    'SM100_TMEM_LOAD_32dp32b8x'
    >>> op_repeater("SM100_TMEM_STORE_16dp256b1x_16b", 1 << 20)
    'SM100_TMEM_STORE_16dp256b32x_16b'
    """
    kind, lanes, bits, n, pack = _parse(op)
    if n != 1 or kind == "LOAD_STAT":
        raise CutepyError(f"TMEM::op_repeater: Must pass 1x tmem copy operator, not {op}")
    if type(bits_n) is not int or bits_n < 1:
        raise CutepyError(f"TMEM::op_repeater: bits_n must be a positive int, not {bits_n!r}")
    shape = f"{lanes}dp{bits}b"
    unit = 64 if (lanes, bits) == (16, 32) else bits
    for reps in reversed(TMEM_SHAPES[shape]):
        if bits_n % (unit * reps) == 0:
            return f"SM100_TMEM_{kind}_{shape}{reps}x{'_16b' if pack else ''}"
    raise CutepyError(f"TMEM::op_repeater<{op}, {bits_n}>: {bits_n} bits is not a multiple of the op's "
                      f"{unit} bits per lane, so C++ selects no op")


def tmem_load_to_store(op: str) -> str:
    """C++ ``TMEM::tmem_load_to_store(Op{})``: the TMEM store that writes back what the load reads.

    Pre:  ``op`` is an ``SM100_TMEM_LOAD_*`` op of :data:`TMEM_COPY_OPS` other than ``LOAD_STAT`` (C++:
          "No TMEM_STORE matching for provided TMEM_LOAD"; else ``CutepyError``).
    Post: the ``SM100_TMEM_STORE_*`` op of the same shape, repetition and packing; its atom's source
          and destination layouts are the load's swapped.

    >>> tmem_load_to_store("SM100_TMEM_LOAD_16dp64b4x_16b")
    'SM100_TMEM_STORE_16dp64b4x_16b'
    """
    kind = _parse(op)[0]
    if kind != "LOAD":
        raise CutepyError(f"TMEM::tmem_load_to_store: No TMEM_STORE matching for provided TMEM_LOAD {op}")
    return op.replace("SM100_TMEM_LOAD_", "SM100_TMEM_STORE_", 1)


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


#: tcgen05.cp (smem -> tensor memory): C++'s ``Copy_Traits<SM100_UTCCP_{shape}_{1,2}cta>::ValID``,
#: (value) -> TMEM bit address (``copy_traits_sm100.hpp``, CUTLASS 4.7)
UTCCP_VAL_ID = {
    "128dp256bit": Layout((128, 256), (DP_BITS, 1)),
    "128dp128bit": Layout((128, 128), (DP_BITS, 1)),
    "4x32dp128bit": Layout((32, 128, 4), (DP_BITS, 1, DP_BITS * 32)),
    "2x64dp128bitlw0213": Layout((64, 128, 2), (DP_BITS, 1, DP_BITS * 64)),
}
#: the tcgen05.cp ops: name -> (shape, CTAs)
_UTCCP = {f"SM100_UTCCP_{shape}_{ctas}cta": (shape, ctas) for shape in UTCCP_VAL_ID for ctas in (1, 2)}


def make_utccp_copy(op: str, tmem: Tensor) -> TiledCopy:
    """C++ ``make_utccp_copy(op, tmem_tensor)`` (the CuTe DSL's ``make_s2t_copy``): the TiledCopy
    of a ``tcgen05.cp`` from shared to tensor memory, one issuing thread per CTA (two for ``_2cta``).

    Pre:  ``op`` is ``SM100_UTCCP_{128dp256bit|128dp128bit|4x32dp128bit|2x64dp128bitlw0213}_{1|2}cta``;
          ``tmem`` a tensor over ``tmem_ptr`` whose layout covers the op's lanes and columns (else
          ``CutepyError`` naming the argument).
    Post: C++'s ``make_cotiled_copy(Copy_Atom<op, T>, (size(ThrID):0, coalesce(upcast<bits(T)>(ValID))),
          tmem.layout())``.

    >>> from cutepy.kernels.pointer import tmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> t = make_tensor(tmem_ptr("float", 0), Layout((128, 8), (65536, 1)))
    >>> make_utccp_copy("SM100_UTCCP_4x32dp128bit_1cta", t).layout_tv_tiled
    (1,(32,4,4)):(0,(1,128,32))
    """
    found = _UTCCP.get(op) if isinstance(op, str) else None
    if found is None:
        raise CutepyError(f"make_utccp_copy: op must name a tcgen05.cp atom (SM100_UTCCP_..._1cta or _2cta), "
                          f"not {op!r}")
    if not isinstance(tmem, Tensor) or getattr(tmem.engine, "space", None) != "tmem":
        raise CutepyError(f"make_utccp_copy: tmem must be a TMEM tensor (over tmem_ptr), not {tmem!r}")
    bits = tmem.engine.bits
    atom = copy_atom(op, bits)
    shape, ctas = found
    atom_t = Layout(ctas, 0)
    atom_v = coalesce(upcast(UTCCP_VAL_ID[shape], bits))
    tv = Layout((atom_t.shape, atom_v.shape), (atom_t.stride, atom_v.stride))
    return make_cotiled_copy(atom, tv, tmem.layout)


#: the CuTe DSL's name of :func:`make_utccp_copy`
make_s2t_copy = make_utccp_copy

#: what cutepy exports from this module (cutepy.__all__ is made of these lists); the tables and
#: C++'s ``TMEM::op_repeater`` / ``TMEM::tmem_load_to_store`` stay namespaced here
__all__ = ["TmemCopyAtom", "make_s2t_copy", "make_tmem_copy", "make_utccp_copy", "tmem_copy_atom"]
