"""The TMA copy atom and the CTA-collective TiledCopy: C++'s ``Copy_Atom<Copy_Traits<SM90_TMA_*>>``
and ``detail::make_tma_copy_atom``, which every maker (SM90's and SM100's) goes through, with the
checks of its arguments. Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.coalesce import coalesce
from ...algebra.composed import composed_parts, make_composed_layout, pointer_flag
from ...algebra.composition import composition
from ...algebra.divides import zipped_divide
from ...core import inttuple as it
from ...core.basis import ArithTuple, ScaledBasis
from ...core.dynamic import static_eq
from ...core.errors import CutepyError
from ...core.layout import Layout, make_identity_layout, size, slice_and_offset
from ...core.swizzle import Swizzle
from ..atoms.copy import CopyAtom
from ..pointer import Pointer, as_pointer_flag_layout
from ..tensor import Tensor
from ..tiled.copy import TiledCopy
from ..tiled.zip import zip_layout
from .descriptor import (
    TMA_OPS,
    TmaDescriptor,
    _check_reduction,
    _descriptor,
    _fmt,
    _recast,
    _refuse,
    _tma_type,
)
from .gbasis import _construct_gbasis, _g_stride, _modes


@dataclass(frozen=True)
class TmaAtom(CopyAtom):
    """C++ ``Copy_Atom<Copy_Traits<SM90_TMA_*, NumBitsPerTMA, AuxTmaParams>, T>``: one TMA
    instruction moving the whole box, with its descriptor, ``gbasis`` (C++'s ``TmaGmemBasis``:
    box shape -> gmem mode), ``g_stride`` (the strides of the TMA coordinate tensor) and
    ``tma_swizzle`` (the smem swizzle on byte addresses)."""

    descriptor: TmaDescriptor | None = None
    gbasis: Layout | None = None
    g_stride: Any = None
    tma_swizzle: Swizzle | None = None
    num_multicast: int = 1

    def get_tma_tensor(self, shape: Any) -> Tensor:
        """C++ ``get_tma_tensor(shape)``: the coordinate tensor whose values are TMA coordinates.

        Pre:  ``shape`` is congruent with the gmem tensor's shape (else ``CutepyError``).
        Post: ``result(c) == sum(c_i * g_stride_i)``, a tuple of ``descriptor.rank`` coordinates.
        """
        if shape is None or not it.congruent(shape, self.g_stride):
            raise CutepyError(f"get_tma_tensor: the shape {shape} is not congruent with the gmem "
                              f"tensor's modes (g_stride {_fmt(self.g_stride)})")
        # C++ make_coord_tensor: the origin has the strides' coprofile (one entry per TMA mode used)
        modes = [b.mode[0] for b in it.flatten_tuple(self.g_stride) if isinstance(b, ScaledBasis) and b.mode]
        rank = max(modes) + 1 if modes else 1
        return Tensor(None, Layout(shape, self.g_stride), ArithTuple((0,) * rank))

    def __str__(self) -> str:  # as C++'s print(Copy_Atom)
        return (
            f"Copy_Atom\n  ThrID:        {self.thr_id}\n"
            f"  ValLayoutSrc: {self.layout_src_tv}\n  ValLayoutDst: {self.layout_dst_tv}\n"
            f"  ValLayoutRef: {self.layout_ref_tv}\n  ValueType:    {self.element_bits}b"
        )

    def __repr__(self) -> str:
        return f"TmaAtom({self.name}, box {self.gbasis})"


def compose_cxx(A: Layout, B: Any) -> Layout:
    """C++'s ``composition(A, B)`` for a multi-mode ``B``: each leaf mode of ``B`` composed with
    ``A`` on its own (``transform_layout``), without cutepy's check that ``B``'s modes add up
    without carries. TMA's multicast split relies on it: C++ composes the CTA and value modes
    separately even where their sum passes one of ``A``'s modes.

    >>> compose_cxx(Layout((128, 64), (1, 128)), Layout((2, 128), (64, 1)))
    (2,128):(64,1)
    """
    if isinstance(B, tuple):
        if len(B) > (len(A.shape) if isinstance(A.shape, tuple) else 1):
            raise CutepyError(f"composition: tiler {B} has more modes than {A}")
        shape, stride = _modes(A)
        ss, dd = [], []
        for i, t in enumerate(B):
            m = Layout(shape[i], stride[i]) if t is None else compose_cxx(Layout(shape[i], stride[i]), t)
            ss.append(m.shape)
            dd.append(m.stride)
        return Layout(tuple(ss) + shape[len(B):], tuple(dd) + stride[len(B):])
    if not isinstance(B, Layout) or not isinstance(B.shape, tuple):
        return composition(A, B)
    parts = [compose_cxx(A, Layout(s, d)) for s, d in zip(B.shape, B.stride)]
    return Layout(tuple(p.shape for p in parts), tuple(p.stride for p in parts))


@dataclass(frozen=True)
class TmaTiledCopy(TiledCopy):
    """The CTA-collective TiledCopy of ``make_tma_copy``: threads are the CTAs of the multicast
    (one for a plain load or store), values the smem tile's elements; ``smem_layout`` is the
    smem tile's layout without its swizzle (C++'s ``get_nonswizzle_portion``)."""

    smem_layout: Any = None

    def tile2thrfrg(self, L: Layout, ref2trg: Layout) -> Layout:
        """As :meth:`TiledCopy.tile2thrfrg`, composing mode by mode as C++ does."""
        atom_thr = size(self.copy_atom.layout_ref_tv[0])
        atom_val = size(self.copy_atom.layout_ref_tv[1])
        atom_layout_tv = zipped_divide(self.layout_tv_tiled, (Layout(atom_thr), Layout(atom_val)))
        trg_layout_tv = compose_cxx(atom_layout_tv, (ref2trg, None))
        thrval2mn = coalesce(zip_layout(trg_layout_tv), (1, (1, 1)))
        if (parts := composed_parts(L)) is not None:  # C++: a composed layout composes its inner layout
            outer, offset, inner = parts
            tv = make_composed_layout(outer, offset, compose_cxx(inner, (thrval2mn, None)))
        else:
            tv = compose_cxx(L, (thrval2mn, None))
        return slice_and_offset(((None, None), None), tv)[0]

    @property
    def descriptor(self) -> TmaDescriptor:
        return self.copy_atom.descriptor

    @property
    def gbasis(self) -> Layout:
        return self.copy_atom.gbasis

    @property
    def g_stride(self) -> Any:
        return self.copy_atom.g_stride

    @property
    def tma_swizzle(self) -> Swizzle:
        return self.copy_atom.tma_swizzle

    def get_tma_tensor(self, shape: Any = None) -> Tensor:
        """See :meth:`TmaAtom.get_tma_tensor` (an im2col TMA's needs no ``shape``)."""
        return self.copy_atom.get_tma_tensor(shape)


def _smem_parts(slayout: Any, dtype: str) -> tuple[Swizzle, Layout]:
    """The byte swizzle and the plain layout of a smem layout in any of cutepy's forms.

    C++ reads the swizzle of ``Sw o offset o L`` on bytes whatever the offset (its
    ``get_swizzle_portion``), and ignores the offset (``get_nonswizzle_portion`` is ``L``): so
    for the pointer-flag form, whatever the flag's width (a mismatch then meets the driver's
    rules), and for an offset that is not a static 0 (a slice of a pointer-flag layout at a
    run-time or non-zero stage, ``sA(_,_,k)``). ``Sw o 0 o L`` with a static 0 is cutepy's
    element-offset form: the swizzle is read on ``dtype``'s element offsets."""
    if isinstance(slayout, Layout):
        return Swizzle(0, 4, 3), slayout
    if (parts := composed_parts(slayout)) is not None and isinstance(parts[0], Swizzle):
        if pointer_flag(slayout) is None and static_eq(parts[1], 0):  # the element-offset form
            slayout = as_pointer_flag_layout(slayout, dtype)
        outer, _, inner = composed_parts(slayout)
        if not isinstance(inner, Layout):
            raise _refuse("the smem layout must be Sw o offset o L with a plain L", str(slayout))
        return outer, inner
    raise CutepyError(f"TMA: the smem layout must be a Layout or a swizzled layout, not {slayout!r}")


def _gtensor_parts(gtensor: Any) -> tuple[Pointer, Layout]:
    if not isinstance(gtensor, Tensor) or not isinstance(gtensor.engine, Pointer):
        raise CutepyError(
            "TMA: the gmem tensor must be make_tensor(gmem_ptr(T, address), layout), not "
            + it.short_repr(gtensor)
        )
    ptr = gtensor.engine
    if ptr.space != "gmem":
        raise CutepyError(f"TMA: the gmem tensor's pointer {ptr} is not a global-memory pointer")
    if not isinstance(gtensor.layout, Layout):
        raise CutepyError(f"TMA: the gmem tensor's layout must be a plain Layout, not {gtensor.layout}")
    for x in it.flatten_tuple((gtensor.layout.shape, gtensor.layout.stride)):
        if not isinstance(x, int) or type(x) is bool:  # static or run-time (DynamicInt) integers
            raise CutepyError(f"TMA: the gmem layout {gtensor.layout} must have integer shapes and strides")
    return ptr + gtensor.offset, gtensor.layout


def _tma_atom(op: str, gtensor: Any, slayout: Any, num_multicast: int, cta_v_map: Layout,
              internal_type: str | None) -> tuple[TmaAtom, Layout]:
    """C++ ``detail::make_tma_copy_atom``; also returns the plain smem layout."""
    if not isinstance(op, str) or op not in TMA_OPS:
        raise CutepyError(f"TMA: unknown operation {it.short_repr(op)}; one of {', '.join(TMA_OPS)}")
    ptr, glayout = _gtensor_parts(gtensor)
    _check_overhang(glayout, cta_v_map)
    sw, smem = _smem_parts(slayout, ptr.dtype)
    tma_name, tma_bits = _tma_type(ptr.dtype, internal_type)
    _check_reduction(op, tma_name)
    old_bits = ptr.bits
    glayout_t = _recast(glayout, old_bits, tma_bits)
    gbasis = _construct_gbasis(glayout.shape, glayout_t, glayout, smem, cta_v_map, old_bits, tma_bits)
    count = size(gbasis)
    if op.endswith(("_GATHER4", "_SCATTER4")):  # C++: the box is one row of mode 0; 4 rows move
        rank = len(gbasis.shape) if isinstance(gbasis.shape, tuple) else 1
        if rank != 2:
            raise _refuse("TMA gather4/scatter4 only supports 2-D tensors (C++'s static_assert)",
                          f"the TMA box {gbasis} has rank {rank}")
        gbasis = composition(gbasis, make_identity_layout((gbasis.shape[0], 1)))
        count = size(gbasis) * 4
    nbits = count * tma_bits
    if nbits >= 1 << 31:
        raise _refuse("the bits of one TMA must fit C++'s int NumBitsPerTMA "
                      "(overflow in a constant expression)",
                      f"a box of {size(gbasis)} {tma_name} is {nbits} bits")
    desc, bstride = _descriptor(ptr, glayout_t, gbasis, sw, num_multicast, tma_name, tma_bits)
    g_stride = _g_stride(glayout.shape, glayout, glayout_t, gbasis, bstride, old_bits, tma_bits)
    nthr, direction = TMA_OPS[op]
    if nthr == 1:
        thr, vals = Layout(1, 0), Layout((1, nbits), (0, 1))
    else:
        thr, vals = Layout(nthr, 1), Layout((nthr, nbits), (nbits, 1))
    if nbits % old_bits:
        raise _refuse("the box is not a whole number of elements",
                      f"{nbits} bits of {old_bits}-bit {ptr.dtype}")
    atom = TmaAtom(
        name=op, element_bits=old_bits, thr_id=thr, layout_src_tv_bits=vals, layout_dst_tv_bits=vals,
        layout_ref_tv_bits=vals, op="st" if direction == "load" else "ld", cpp_type=op,
        descriptor=desc, gbasis=gbasis, g_stride=g_stride, tma_swizzle=sw, num_multicast=num_multicast,
    )
    return atom, smem


def _cta_v_map(gtensor: Any, cta_tiler: Any) -> Layout:
    _, glayout = _gtensor_parts(gtensor)
    try:
        return composition(make_identity_layout(glayout.shape), cta_tiler)
    except CutepyError as e:
        raise CutepyError(
            f"TMA: the CTA tile {it.short_repr(cta_tiler)} does not tile the gmem tensor {glayout}: {e}"
        ) from None


def _check_overhang(glayout: Layout, cta_v_map: Layout) -> None:
    """Refuse a CTA tile that overhangs a gmem mode of static extent 1 (C++ builds it silently).

    C++ drops a static extent-1 gmem mode (``Int<1>``; a run-time 1 stays in the descriptor)
    from the descriptor (its TMA coordinate stride is 0), so the tile's indices 1, 2, ... along
    that mode reach the same gmem elements as index 0: a load brings real data where the tile is
    out of bounds instead of zeros, a store writes the out-of-bounds part of the tile over
    in-bounds elements. Measured on an H200 (tests/data/tma_hardware.json); TMA clips every
    other overhang correctly. ``cta_v_map`` (tile coordinate -> gmem coordinate) says how far
    the tile reaches along each mode, for
    every way of building a TMA atom.
    """
    shape = glayout.shape if isinstance(glayout.shape, tuple) else (glayout.shape,)
    reach = [0] * len(shape)
    for s, d in zip(it.flatten_tuple(cta_v_map.shape), it.flatten_tuple(cta_v_map.stride)):
        if isinstance(d, ScaledBasis) and d.mode and d.mode[0] < len(shape):
            reach[d.mode[0]] += (s - 1) * d.value
    for i, (s, r) in enumerate(zip(shape, reach)):
        if static_eq(it.product(s), 1) and r >= 1:  # a run-time 1 stays in the descriptor: TMA clips it
            raise _refuse(
                "the CTA tile overhangs a gmem mode of extent 1, which TMA cannot clip",
                f"gmem mode {i} has extent 1 and the tile {r + 1}; C++ drops that mode from the descriptor, "
                "so the tile's indices 1.. along it would load (or store over) the elements at index 0 "
                "instead of being out of bounds",
            )
