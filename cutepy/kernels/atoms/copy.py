"""Copy atoms: the thread-value layouts of one copy instruction, as C++ CuTe's ``Copy_Traits``
(``cute/atom/copy_traits_sm75.hpp``, ``_sm80``, ``_sm90``; CUTLASS 4.2) and ``Copy_Atom``.

The traits give bit layouts, ``(thread, value) -> bit`` of the source and destination;
``Copy_Atom<Op, T>`` recasts them to elements of ``element_bits`` bits
(``recast_layout<uint1_t, T>``, i.e. :func:`cutepy.algebra.casting.upcast`).

>>> a = copy_atom("SM75_U32x4_LDSM_N", 16)
>>> a.layout_src_tv, a.layout_dst_tv
((32,8):(8,1), (32,(2,4)):(2,(1,64)))
>>> a.layout_dst_tv_bits, a.op
((32,(32,4)):(32,(1,1024)), 'ldmatrix')
>>> copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16).layout_src_tv
(1,8):(0,1)

Names are the C++ type names: ``SM75_U32x{1,2,4}_LDSM_N``, ``SM75_U16x{2,4,8}_LDSM_T``,
``SM90_U32x{1,2,4}_STSM_N``, ``SM90_U16x{2,4,8}_STSM_T``,
``SM80_CP_ASYNC_{CACHEALWAYS,CACHEGLOBAL}[_ZFILL]<S>`` and ``UniversalCopy<S>`` with
``S`` one of ``uint{8,16,32,64,128}_t`` (cp.async: 32, 64 or 128 bits; CACHEGLOBAL: 128).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ...algebra.casting import upcast
from ...core.errors import CutepyError
from ...core.inttuple import StaticCxxFormat, short_repr
from ...core.inttuple import flatten_tuple as flatten
from ...core.layout import Layout, size
from .mma import TYPE_BITS

#: what an atom does to shared memory, by op: the bank-conflict analysis reads it.
OPS = ("ldmatrix", "stmatrix", "ld", "st", "cp.async", "shfl")


@dataclass(frozen=True)
class CopyAtom(StaticCxxFormat):
    """C++ ``Copy_Atom<Op, T>`` with ``T`` of ``element_bits`` bits.

    ``layout_*_tv_bits`` are the traits' ``SrcLayout``/``DstLayout``/``RefLayout``
    (thread, value) -> bit; ``layout_*_tv`` are ``ValLayoutSrc``/``Dst``/``Ref`` in elements.

    >>> a = copy_atom("SM75_U32x4_LDSM_N", 16)
    >>> a.num_val_src, a.layout_src_tv, a.layout_dst_tv
    (8, (32,8):(8,1), (32,(2,4)):(2,(1,64)))
    """

    name: str
    element_bits: int
    thr_id: Layout
    layout_src_tv_bits: Layout
    layout_dst_tv_bits: Layout
    layout_ref_tv_bits: Layout
    op: str
    cpp_type: str

    @property
    def layout_src_tv(self) -> Layout:
        return _recast(self.layout_src_tv_bits, self.element_bits)

    @property
    def layout_dst_tv(self) -> Layout:
        return _recast(self.layout_dst_tv_bits, self.element_bits)

    @property
    def layout_ref_tv(self) -> Layout:
        return _recast(self.layout_ref_tv_bits, self.element_bits)

    @property
    def num_val_src(self) -> int:
        return size(self.layout_src_tv[1])

    @property
    def num_val_dst(self) -> int:
        return size(self.layout_dst_tv[1])

    def __str__(self) -> str:
        return (
            f"Copy_Atom\n  ThrID:        {self.thr_id}\n"
            f"  ValLayoutSrc: {self.layout_src_tv}\n  ValLayoutDst: {self.layout_dst_tv}\n"
            f"  ValLayoutRef: {self.layout_ref_tv}\n  ValueType:    {self.element_bits}b"
        )

    def __repr__(self) -> str:
        return f"copy_atom({self.name!r}, {self.element_bits})"


def _recast(bits: Layout, element_bits: int) -> Layout:
    return bits if element_bits == 1 else upcast(bits, element_bits)


_L = Layout
# ldmatrix (copy_traits_sm75.hpp): name -> (SrcLayout, DstLayout) in bits
_LDSM = {
    "SM75_U32x1_LDSM_N": (_L(((8, 4), 128), ((128, 0), 1)), _L((32, 32), (32, 1))),
    "SM75_U32x2_LDSM_N": (_L(((16, 2), 128), ((128, 0), 1)), _L((32, (32, 2)), (32, (1, 1024)))),
    "SM75_U32x4_LDSM_N": (_L((32, 128), (128, 1)), _L((32, (32, 4)), (32, (1, 1024)))),
    "SM75_U16x2_LDSM_T": (_L(((8, 4), 128), ((128, 0), 1)), _L(((4, 8), (16, 2)), ((256, 16), (1, 128)))),
    "SM75_U16x4_LDSM_T": (
        _L(((16, 2), 128), ((128, 0), 1)),
        _L(((4, 8), (16, 2, 2)), ((256, 16), (1, 128, 1024))),
    ),
    "SM75_U16x8_LDSM_T": (_L((32, 128), (128, 1)), _L(((4, 8), (16, 2, 4)), ((256, 16), (1, 128, 1024)))),
}
#: SM100's 8-bit ldmatrix/stmatrix, its 4/6-bit-to-8-bit unpacking ldmatrix, its 256-bit global
#: load/store, and SM50's warp shuffles (copy_traits_sm100.hpp, copy_traits_sm50.hpp, CUTLASS 4.7):
#: and tcgen05.cp (SM100_UTCCP_*; its TMEM-side ValID is not modelled here; the 4dp256bit "TMEM
#: refresh" ones, whose bit layouts no element wider than a bit tiles, are left out):
#: name -> (SrcLayout, DstLayout, RefLayout is Src (True) or Dst (False), thread count, op)
_U8T_DST = {n: _L(((4, 8), (8, 2, 2, *((n // 4,) if n > 4 else ()))),
                  ((256, 8), (1, 128, 64, *((1024,) if n > 4 else ()))))
            for n in (4, 8, 16)}
_MORE = {
    "SM100_U8x8_LDSM_T": (_L(((2, 2, 4, 2), 128), ((128, 1024, 256, 0), 1)), _U8T_DST[8], False, 32,
                          "ldmatrix"),
    "SM100_U8x16_LDSM_T": (_L(((2, 2, 4, 2), 128), ((128, 1024, 256, 2048), 1)), _U8T_DST[16], False, 32,
                           "ldmatrix"),
    "SM100_U8x4_STSM_T": (_U8T_DST[4], _L(((8, 4), 128), ((128, 0), 1)), True, 32, "stmatrix"),
    "SM100_U8x8_STSM_T": (_U8T_DST[8], _L(((16, 2), 128), ((128, 0), 1)), True, 32, "stmatrix"),
    "SM100_U8x16_STSM_T": (_U8T_DST[16], _L((32, 128), (128, 1)), True, 32, "stmatrix"),
    **{
        f"SM100_SU{b}_DU8x16_x{x}_LDSM_N": (
            _L((32, 128), (128, 1)) if x == 4 else _L(((8 * x, 4 // x), 128), ((128, 0), 1)),
            _L((32, 32), (32, 1)) if x == 1 else _L((32, (32, x)), (32, (1, 1024))), False, 32, "ldmatrix")
        for b in (4, 6) for x in (1, 2, 4)
    },
    # tcgen05.cp (smem -> tensor memory, one thread per CTA): source and destination in bits
    **{
        f"SM100_UTCCP_{shape}_{c}cta": (_L((c, src_s), (0, src_d)), _L((c, dst_s), (0, dst_d)), False, -c,
                                        "ld")
        for c in (1, 2)
        for shape, src_s, src_d, dst_s, dst_d in (
            ("128dp256bit", 32768, 1, 32768, 1), ("128dp128bit", 16384, 1, 16384, 1),
            ("4x32dp128bit", (32, 128, 4), (1, 32, 0), 16384, 1),
            ("2x64dp128bitlw0213", (64, 128, 2), (1, 64, 0), 16384, 1),
        )
    },
    "SM100_LOAD_256bit_CACHE_NOALLOCATION": (_L((1, 256), (0, 1)), _L((1, 256), (0, 1)), True, 1, "ld"),
    "SM100_STORE_256bit_CACHE_NOALLOCATION": (_L((1, 256), (0, 1)), _L((1, 256), (0, 1)), True, 1, "st"),
    "SM50_Shuffle_U32_2x2Trans_XOR1": (_L((32, 64), (64, 1)), _L(((2, 16), (32, 2)), ((32, 128), (1, 64))),
                                       True, 32, "shfl"),
    "SM50_Shuffle_U32_2x2Trans_XOR4": (_L((32, 64), (64, 1)),
                                       _L(((4, 2, 4), (32, 2)), ((64, 32, 512), (1, 256))), True, 32, "shfl"),
}
#: SM90's bulk (non-tensor) copies, ``SM90_BULK_COPY_{G2S,S2G}<bits>`` (cp.async.bulk)
_BULK = re.compile(r"SM90_BULK_COPY_(G2S|S2G)<(\d+)>")
_UINT_BITS = {"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64, "uint128_t": 128}
_TEMPLATED = re.compile(
    r"(SM80_CP_ASYNC_(?:CACHEALWAYS|CACHEGLOBAL)(?:_ZFILL)?|UniversalCopy)<([\w:<>]+?)(?:,[\w:<>]+)?>"
)
#: C++'s auto-vectorizing copies (``cute/arch/copy.hpp``): one value per thread, any element type
_AUTO = {"DefaultCopy": 8, "AutoVectorizingCopy": 128}
_AUTO_ALIGNED = frozenset(f"AutoVectorizingCopyWithAssumedAlignment<{b}>" for b in (8, 16, 32, 64, 128))


def _type_bits(name: str) -> int | None:
    """Bits of a C++ element type named in a copy template (``uint128_t``, ``float``, ``half_t``)."""
    return _UINT_BITS.get(name, TYPE_BITS.get(name))


class TemplatedName(NamedTuple):
    """A templated copy atom's name read: ``base<type>`` (cp.async's and ``UniversalCopy``)."""

    base: str
    type: str
    bits: int | None


def parse_templated(name: str) -> TemplatedName | None:
    """``SM80_CP_ASYNC_{CACHEALWAYS,CACHEGLOBAL}[_ZFILL]<T>`` or ``UniversalCopy<T>`` (C++ may
    name a second type; spaces ignored) read into its base, ``T`` and ``T``'s bits (None when
    unknown); None when ``name`` is not one. The one reader of these names (the atoms here and
    :mod:`cutepy.emit.dsl` ask it).

    >>> parse_templated("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>")
    TemplatedName(base='SM80_CP_ASYNC_CACHEGLOBAL', type='uint128_t', bits=128)
    """
    m = _TEMPLATED.fullmatch(name.replace(" ", ""))
    return None if m is None else TemplatedName(m.group(1), m.group(2), _type_bits(m.group(2)))


def matrix_copy(name: str) -> tuple[str, int, bool] | None:
    """``(op, matrices, transposed)`` of SM75's ldmatrix and SM90's stmatrix atoms (8x8 matrices of
    16-bit elements: ``"ldmatrix"`` or ``"stmatrix"``, how many, transposed or not), else None.

    >>> matrix_copy("SM90_U16x8_STSM_T"), matrix_copy("SM100_U8x8_LDSM_T")
    (('stmatrix', 4, True), None)
    """
    op, ld = "ldmatrix", name
    if name.startswith("SM90_") and name.endswith(("_STSM_N", "_STSM_T")):
        op, ld = "stmatrix", "SM75_" + name[5:].replace("STSM", "LDSM")
    if ld not in _LDSM:
        return None
    # the table's register side: 32 threads x 32 bits per 8x8 matrix of 16-bit elements
    return op, size(_LDSM[ld][1]) // 1024, ld.endswith("_T")


def _atom(name: str, element_bits: int, op: str | None) -> CopyAtom:
    if name in _LDSM:
        src, dst = _LDSM[name]
        return CopyAtom(name, element_bits, Layout(32, 1), src, dst, dst, op or "ldmatrix", name)
    if name.startswith("SM90_") and name.endswith(("_STSM_N", "_STSM_T")):
        ld = "SM75_" + name[5:].replace("STSM", "LDSM")
        if ld in _LDSM:
            src, dst = _LDSM[ld]
            return CopyAtom(name, element_bits, Layout(32, 1), dst, src, dst, op or "stmatrix", name)
    bulk = _BULK.fullmatch(name.replace(" ", ""))
    if bulk is not None:  # C++'s Copy_Traits<SM90_BULK_COPY_{G2S,S2G}, Int<bits>>: one thread, one vector
        direction, nbits = bulk.group(1), int(bulk.group(2))
        if nbits < 128 or nbits % 128:
            raise CutepyError(f"copy_atom {name}: a bulk copy moves a positive multiple of 16 bytes "
                              f"(C++: 'Bulk Copy requires copy vector size align to 16B'), not {nbits} bits")
        vec = Layout((1, nbits), (0, 1))
        cpp = f"Copy_Traits<SM90_BULK_COPY_{direction},Int<{nbits}>>"
        kind = "st" if direction == "G2S" else "ld"  # what it does to shared memory
        return CopyAtom(name, element_bits, Layout(1, 0), vec, vec, vec, op or kind, cpp)
    if name in _MORE:
        src, dst, ref_src, threads, kind = _MORE[name]
        # a negative count: C++'s ThrID Layout<_n> with n CTAs (1 prints as 1:0 like Layout<_1>)
        thr = Layout(abs(threads), 1) if abs(threads) > 1 else Layout(1, 0)
        return CopyAtom(name, element_bits, thr, src, dst, src if ref_src else dst, op or kind, name)
    if name in _AUTO or name in _AUTO_ALIGNED:
        one = Layout((1, 1), (0, 0))
        return CopyAtom(name, element_bits, Layout(1, 0), one, one, one, op or "ld", name)
    t = parse_templated(name)
    if t is not None and t.bits is not None:
        base, bits = t.base, t.bits
        vec = Layout((1, bits), (0, 1))
        if base.startswith("SM80"):
            if bits not in (32, 64, 128) or ("CACHEGLOBAL" in base and bits != 128):
                raise CutepyError(f"{name}: cp.async moves 4, 8 or 16 bytes (CACHEGLOBAL: 16 only)")
            return CopyAtom(name, element_bits, Layout(1, 0), vec, vec, vec, op or "cp.async", name)
        return CopyAtom(name, element_bits, Layout(1, 0), vec, vec, vec, op or "ld", name)
    raise CutepyError(f"unknown copy atom {name!r} (see cutepy.copy_atoms() for the names)")


def copy_atom(name: str, element_bits: int | None = None, op: str | None = None) -> CopyAtom:
    """C++ ``Copy_Atom<name, T>`` for an element type ``T`` of ``element_bits`` bits.

    A templated name carries its type as C++ writes it (``UniversalCopy<float>``,
    ``SM80_CP_ASYNC_CACHEALWAYS<uint128_t>``); ``element_bits`` defaults to that type's bits.
    ``DefaultCopy``, ``AutoVectorizingCopy`` and ``AutoVectorizingCopyWithAssumedAlignment<N>``
    copy one value per thread of any type.

    ``op`` overrides what the atom does to shared memory (e.g. ``"st"`` for a
    ``UniversalCopy`` that writes shared memory; the default is ``"ld"``).

    Pre:  ``name`` is one of :func:`copy_atoms`; ``element_bits`` is a positive int dividing the
          bits each thread moves per value group (C++ would not compile otherwise); ``op`` is one
          of ``OPS`` (else ``CutepyError``).
    Post: ``layout_*_tv`` are the traits' (thread, value) -> bit layouts recast to elements:
          ``size(layout_src_tv) * element_bits`` is the bits the atom moves.

    >>> copy_atom("SM90_U32x2_STSM_N", 16).layout_dst_tv
    ((16,2),8):((8,0),1)
    >>> copy_atom("SM75_U32x1_LDSM_N", 48)
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: copy_atom SM75_U32x1_LDSM_N: 48-bit elements do not tile its 32-bit values
    """
    if not isinstance(name, str):
        raise CutepyError(f"a copy atom is named by a string, not {short_repr(name)}")
    if element_bits is None:
        t = parse_templated(name)
        element_bits = t.bits if t is not None else None
        if element_bits is None:
            raise CutepyError(f"copy_atom {name}: give the element type's bits (C++ Copy_Atom<{name}, T>)")
    if type(element_bits) is not int or not 1 <= element_bits <= 1024:
        raise CutepyError(f"copy_atom {name}: element_bits must be a positive int (at most 1024), not "
                          f"{short_repr(element_bits)}")
    if op is not None and (not isinstance(op, str) or op not in OPS):
        raise CutepyError(f"copy_atom {name}: op {short_repr(op)} is not one of {OPS}")
    atom = _atom(name, element_bits, op)
    if name in _AUTO or name in _AUTO_ALIGNED:
        return atom
    vbits = min(_contiguous_bits(atom.layout_src_tv_bits), _contiguous_bits(atom.layout_dst_tv_bits))
    if vbits % element_bits != 0:
        raise CutepyError(
            f"copy_atom {name}: {element_bits}-bit elements do not tile its {vbits}-bit values"
        )
    return atom


def _contiguous_bits(L: Layout) -> int:
    """The bits of the value mode's first contiguous run (the unit an element must divide)."""
    s, d = flatten(L.shape[1]), flatten(L.stride[1])
    run = 1
    for si, di in zip(s, d):
        if di != run:
            break
        run *= si
    return run


def copy_atoms() -> list[str]:
    """Every copy-atom name :func:`copy_atom` knows.

    Pre:  none.
    Post: a sorted list of names, each accepted by ``copy_atom(name, bits)`` for some ``bits``.

    >>> "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>" in copy_atoms()
    True
    """
    out = list(_LDSM)
    out += ["SM90_" + n[5:].replace("LDSM", "STSM") for n in _LDSM]
    for base in ("SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL"):
        out += [f"{base}<uint{b}_t>" for b in (32, 64, 128)]
    out += ["SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>"]
    out += [f"UniversalCopy<uint{b}_t>" for b in (8, 16, 32, 64, 128)]
    return out + list(_MORE) + ["SM90_BULK_COPY_G2S<1024>", "SM90_BULK_COPY_S2G<1024>"]
