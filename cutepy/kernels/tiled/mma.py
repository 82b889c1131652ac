"""TiledMMA: an MMA atom repeated over a layout of atoms, and the per-thread partitions,
ported from C++ CuTe's ``cute/atom/mma_atom.hpp`` (CUTLASS 4.2).

>>> from cutepy.kernels.atoms import mma_atom
>>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
>>> mma.thr_layout_vmnk, mma.tile_size_mnk, mma.size
((32,2,2,1):(1,32,64,0), (32, 32, 16), 128)
>>> mma.tv_layout_A_tiled
((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))
>>> from cutepy.kernels.tensor import make_identity_tensor
>>> mma.get_slice(5).partition_C(make_identity_tensor((64, 64)))
ArithTuple(1,2) o ((2,2),2,4):((1@1,8@0),32@0,16@1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.casting import make_fragment_like
from ...algebra.complement import complement
from ...algebra.composition import composition
from ...algebra.divides import logical_divide, zipped_divide
from ...algebra.inverse import right_inverse
from ...algebra.products import tiled_product
from ...core.errors import CutepyError
from ...core.inttuple import StaticCxxFormat, format_tuple, format_value, short_repr
from ...core.inttuple import flatten_tuple as flatten
from ...core.kinds import SIZE, ThreadsKind
from ...core.layout import Layout, append, make_layout, size, slice_and_offset
from ..atoms.mma import NUMPY_TYPES, MMAAtom
from ..gmma_desc import make_gmma_desc_tensor, operand_majors
from ..memo import derived, derived_of, sliced
from ..pointer import Pointer
from ..tensor import Tensor, compact_layout, flat_coord, thread_index
from ..tmem import make_tmem_frg
from .zip import check_tiler, rank_of, repeat_wild

#: the most threads a TiledMMA may have (pictures and checks enumerate them)
MAX_THREADS = 4096


def _as_layout(x: Any) -> Any:
    """A layout (plain or swizzled: the algebra takes either) from a layout or a shape."""
    if isinstance(x, (tuple, int)):
        return Layout(x)
    return x


def _perm_size(p: Any) -> int:
    if isinstance(p, tuple):
        n = 1
        for q in p:
            n *= _perm_size(q)
        return n
    return size(p) if isinstance(p, Layout) else p


@dataclass(frozen=True)
class TiledMMA(StaticCxxFormat, ThreadsKind):
    """C++ ``TiledMMA<MMA_Atom, AtomLayoutMNK, PermutationMNK>``.

    ``atom_layout_mnk`` is the rank-3 layout of atoms; ``permutation_mnk`` is a 3-tuple of
    tilers (``None`` = C++'s ``_``, an int, a layout or a tuple of them).

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> mma.tile_size_mnk, mma.size
    ((32, 16, 16), 128)
    """

    atom: MMAAtom
    atom_layout_mnk: Layout
    permutation_mnk: tuple

    # -- sizes -------------------------------------------------------------------------
    @property
    def thr_layout_vmnk(self) -> Layout:
        return derived(self, ("vmnk",), lambda: tiled_product(self.atom.thr_id, self.atom_layout_mnk))

    @property
    def size(self) -> int:
        return size(self.thr_layout_vmnk)

    def permutation(self, i: int) -> Any:
        """C++ ``permutation_mnk<i>()``: the tiler of mode i (``_`` -> atom extent x atoms)."""
        p = self.permutation_mnk[i]
        if p is None:
            return self.atom.shape_mnk[i] * size(self.thr_layout_vmnk[i + 1])
        return p

    @property
    def tile_size_mnk(self) -> tuple:
        return tuple(_perm_size(self.permutation(i)) for i in range(3))

    # -- thread fragments (C++ thrfrg_A/B/C) -----------------------------------------------
    def _thrfrg(self, L: Layout, a: int, b: int, atom_tv: Layout) -> Layout:
        # the same for every thread: made once per layout
        return derived_of(self, f"thrfrg{a}{b}", L, lambda: self._thrfrg_of(L, a, b, atom_tv))

    def _thrfrg_of(self, L: Layout, a: int, b: int, atom_tv: Layout) -> Layout:
        t = logical_divide(L, (self.permutation(a), self.permutation(b)))
        ab = zipped_divide(
            t, (Layout(self.atom.shape_mnk[a]), Layout(self.atom.shape_mnk[b]))
        )
        tv = composition(ab, (atom_tv, None))
        vmnk = self.thr_layout_vmnk
        thr_tile = (None, (Layout(size(vmnk[a + 1])), Layout(size(vmnk[b + 1]))))
        return zipped_divide(tv, thr_tile)

    def thrfrg_A(self, L: Layout) -> Layout:
        """``((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))`` of an ``M x K`` layout."""
        return self._thrfrg(_as_layout(L), 0, 2, self.atom.tv_layout_A)

    def thrfrg_B(self, L: Layout) -> Layout:
        """``((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))`` of an ``N x K`` layout."""
        return self._thrfrg(_as_layout(L), 1, 2, self.atom.tv_layout_B)

    def thrfrg_C(self, L: Layout) -> Layout:
        """``((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))`` of an ``M x N`` layout."""
        return self._thrfrg(_as_layout(L), 0, 1, self.atom.tv_layout_C)

    # -- the tiled TV layouts (C++ get_layoutA_TV/B/C) ----------------------------------
    def _thridx_2_thrid(self) -> Layout:
        vmnk = self.thr_layout_vmnk
        return composition(
            Layout((size(vmnk), 1), (1, 0)), right_inverse(make_layout(vmnk, complement(vmnk)))
        )

    @property
    def tv_layout_C_tiled(self) -> Layout:
        """``(thread, value) -> m + M*n`` over the ``M x N`` tile (C++ ``get_layoutC_TV``).

        An atom layout with more than one atom along K gives those atoms' threads the indices
        past the ``M x N`` tile, exactly as C++ CuTe 4.7 does (checked: tests/data/
        tiled_partitions_cxx47.txt): ``make_tiled_mma(UniversalFMA, (1, 2, 2))`` maps threads 2
        and 3 to ``(0,2)`` and ``(0,3)`` of a 1x2 tile; ``check_cover`` of its
        ``make_tiled_copy_C`` says so, and ``gemm`` refuses a whole ``C`` for such a design.

        >>> from cutepy.kernels.atoms import mma_atom
        >>> mma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (1, 2, 2))
        >>> mma.tv_layout_C_tiled, mma.tile_size_mnk
        ((4,(1,(1,1))):(1,(0,(0,0))), (1, 2, 2))
        """
        return derived(self, ("tvC",), self._tv_layout_C_tiled)

    def _tv_layout_C_tiled(self) -> Layout:
        M, N, _ = self.tile_size_mnk
        return composition(self.thrfrg_C(Layout((M, N))), (self._thridx_2_thrid(), None))

    @property
    def tv_layout_A_tiled(self) -> Layout:
        """``(thread, value) -> m + M*k`` over the ``M x K`` tile (C++ ``get_layoutA_TV``)."""
        return derived(self, ("tvA",), self._tv_layout_A_tiled)

    def _tv_layout_A_tiled(self) -> Layout:
        M, _, K = self.tile_size_mnk
        vmnk = self.thr_layout_vmnk
        atile = (None, (Layout((size(vmnk[1]), size(vmnk[2])), (1, 0)), None))
        L = composition(self.thrfrg_A(Layout((M, K))), (atile, None))
        return composition(L, (self._thridx_2_thrid(), None))

    @property
    def tv_layout_B_tiled(self) -> Layout:
        """``(thread, value) -> n + N*k`` over the ``N x K`` tile (C++ ``get_layoutB_TV``)."""
        return derived(self, ("tvB",), self._tv_layout_B_tiled)

    def _tv_layout_B_tiled(self) -> Layout:
        _, N, K = self.tile_size_mnk
        vmnk = self.thr_layout_vmnk
        btile = (None, (Layout((size(vmnk[1]), size(vmnk[2])), (0, 1)), None))
        L = composition(self.thrfrg_B(Layout((N, K))), (btile, None))
        return composition(L, (self._thridx_2_thrid(), None))

    def get_layoutA_TV(self) -> Layout:  # noqa: N802  (C++'s name)
        """C++'s ``get_layoutA_TV()``: :attr:`tv_layout_A_tiled` (the DSL's name) under C++'s."""
        return self.tv_layout_A_tiled

    def get_layoutB_TV(self) -> Layout:  # noqa: N802  (C++'s name)
        """C++'s ``get_layoutB_TV()``: :attr:`tv_layout_B_tiled` under C++'s name."""
        return self.tv_layout_B_tiled

    def get_layoutC_TV(self) -> Layout:  # noqa: N802  (C++'s name)
        """C++'s ``get_layoutC_TV()``: :attr:`tv_layout_C_tiled` under C++'s name."""
        return self.tv_layout_C_tiled

    def _size(self) -> int:
        """C++ ``size(tiled_mma)``: the number of threads."""
        return self.size

    def make_fragment_A(self, part: Any) -> Tensor:
        """C++ ``TiledMMA::make_fragment_A``: registers of the atom's A type shaped like ``part``;
        for a GMMA/UMMA atom reading A from shared memory and a partition over ``smem_ptr``,
        C++'s descriptor tensor (the wgmma_sm90 tutorial's ``thr_mma.make_fragment_A(tCsA)``)."""
        if _reads_smem(self.atom, "A") and _over_smem(part):
            return _descriptor_fragment(self.atom, 0, part)
        return _fragment(make_fragment_like(_layout_of(part)), self.atom.element_types[1])

    def make_fragment_B(self, part: Any) -> Tensor:
        """C++ ``TiledMMA::make_fragment_B``: registers of the atom's B type shaped like ``part``;
        a descriptor tensor for a GMMA/UMMA atom's smem B partition over ``smem_ptr``."""
        if _reads_smem(self.atom, "B") and _over_smem(part):
            return _descriptor_fragment(self.atom, 1, part)
        return _fragment(make_fragment_like(_layout_of(part)), self.atom.element_types[2])

    def make_fragment_C(self, part: Any) -> Tensor:
        """C++ ``TiledMMA::make_fragment_C``: compact registers of the atom's C type, ``part``'s shape
        (tensor memory for an SM100 UMMA ``_SS`` atom, as C++)."""
        if _umma_ss(self.atom):
            return _tmem_fragment(self.atom, _layout_of(part).shape)
        return _fragment(compact_layout(_layout_of(part).shape), self.atom.element_types[3])

    def thread_ids(self) -> list[int]:
        """The thread indices this TiledMMA uses: the values of ``thr_layout_vmnk``
        (``0 .. size-1`` except for atoms whose threads are not consecutive, e.g. SM70's quad pairs)."""
        return list(self._thread_ids())

    def _thread_ids(self) -> tuple[int, ...]:
        ids = lambda: tuple(sorted({int(x) for x in self.thr_layout_vmnk.offsets()}))  # noqa: E731
        return derived(self, ("ids",), ids)

    def get_slice(self, thr_idx: int, *, static: bool = False) -> ThrMMA:
        """The partitioner of thread ``thr_idx`` (C++ ``get_slice``); an index between the
        :meth:`thread_ids` (an SM70 lane outside the quad pair) aliases one, as in C++.

        The index is run-time, as a kernel's ``threadIdx.x`` (and C++'s ``get_slice(37)``), so
        the partitions are the ones the kernel computes; ``static=True`` gives those of C++'s
        ``get_slice(Int<37>{})`` (:func:`~cutepy.kernels.tensor.thread_index`)."""
        top = self._thread_ids()[-1]
        thr_idx = thread_index(thr_idx, static, "thread")
        if not thr_idx <= top:
            raise CutepyError(f"thread {short_repr(thr_idx)} is outside this TiledMMA's thread "
                              f"indices 0..{top}")
        # (thread, run-time?) -> (v,m,n,k): at most 2 * MAX_THREADS entries
        coords = derived(self, ("coords",), dict)
        key = (int(thr_idx), type(thr_idx) is not int)
        crd = coords.get(key)
        if crd is None:
            crd = coords[key] = flat_coord(self.thr_layout_vmnk, thr_idx)
        return ThrMMA(self, crd)

    get_thread_slice = get_slice

    def __str__(self) -> str:
        perm = ",".join("_" if p is None else str(p) for p in self.permutation_mnk)
        return (
            f"TiledMMA\n  ThrLayoutVMNK:  {self.thr_layout_vmnk}\n  PermutationMNK: ({perm})\n{self.atom}"
        )

    def __repr__(self) -> str:
        return (
            f"make_tiled_mma({self.atom!r}, {self.atom_layout_mnk}, "
            f"({', '.join('None' if p is None else str(p) for p in self.permutation_mnk)}))"
        )


SIZE.register(TiledMMA, TiledMMA._size)  # C++'s size(tiled_mma): its threads


def thread_crd(thr: Layout, coord: tuple) -> tuple:
    """The coordinate a thread slices its fragment at: ``(coord, (_, repeat<rank<1,1>>(_)))``."""
    return (coord, (None, repeat_wild(rank_of(thr.shape[1][1]))))


#: the thread coordinate each operand's partition reads from the (v,m,n,k) one
OPERAND_COORD = {
    "A": lambda v, m, n, k: (v, (m, k)),
    "B": lambda v, m, n, k: (v, (n, k)),
    "C": lambda v, m, n, k: (v, (m, n)),
}


def _partition(mma: TiledMMA, thr: Layout, coord: tuple, tensor: Any) -> Any:
    """``thr_tensor(coord, (_, repeat<rank<1,1>>(_)))`` on a tensor or a layout."""
    crd = thread_crd(thr, coord)
    sub, off = sliced(mma, thr, crd)  # kept on the TiledMMA: a sweep partitions alike again
    if isinstance(tensor, Tensor):
        return Tensor(tensor.engine, sub, tensor.offset + off)
    return sub


@dataclass(frozen=True)
class ThrMMA:
    """C++ ``ThrMMA``: one thread's view of a TiledMMA; ``thr_vmnk`` is its (v,m,n,k) coordinate.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> from cutepy.kernels.tensor import make_identity_tensor
    >>> thr = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1)).get_slice(37)
    >>> thr.thr_vmnk, thr.partition_C(make_identity_tensor((32, 16)))
    ((5, 1, 0, 0), ArithTuple(17,2) o ((2,2),1,1):((1@1,8@0),0,0))
    """

    tiled_mma: TiledMMA
    thr_vmnk: tuple

    def partition_A(self, tensor: Any) -> Any:
        """The values of the ``M x K`` tensor this thread feeds as A: ``(FrgV, RestM, RestK)``."""
        return _partition(self.tiled_mma, self.tiled_mma.thrfrg_A(_layout_of(tensor)),
                          OPERAND_COORD["A"](*self.thr_vmnk), tensor)

    def partition_B(self, tensor: Any) -> Any:
        """The values of the ``N x K`` tensor this thread feeds as B: ``(FrgV, RestN, RestK)``."""
        return _partition(self.tiled_mma, self.tiled_mma.thrfrg_B(_layout_of(tensor)),
                          OPERAND_COORD["B"](*self.thr_vmnk), tensor)

    def partition_C(self, tensor: Any) -> Any:
        """The values of the ``M x N`` tensor this thread accumulates: ``(FrgV, RestM, RestN)``."""
        return _partition(self.tiled_mma, self.tiled_mma.thrfrg_C(_layout_of(tensor)),
                          OPERAND_COORD["C"](*self.thr_vmnk), tensor)

    def partition_fragment_A(self, tensor: Any) -> Tensor:
        """A register fragment shaped like ``partition_A(tensor)`` (C++ ``make_fragment_like``):
        each value its own register, of the atom's A type (a coordinate tensor's partition too:
        its basis strides are ordered, never aliased); for a GMMA/UMMA atom reading A from shared
        memory, C++'s descriptor fragment of the smem tensor."""
        if _reads_smem(self.tiled_mma.atom, "A"):
            return _descriptor_fragment(self.tiled_mma.atom, 0, self.partition_A(tensor))
        return self.make_fragment_A(self.partition_A(tensor))

    def partition_fragment_B(self, tensor: Any) -> Tensor:
        """A register fragment shaped like ``partition_B(tensor)``, of the atom's B type; for a
        GMMA/UMMA atom, C++'s descriptor fragment of the smem tensor."""
        if _reads_smem(self.tiled_mma.atom, "B"):
            return _descriptor_fragment(self.tiled_mma.atom, 1, self.partition_B(tensor))
        return self.make_fragment_B(self.partition_B(tensor))

    def partition_fragment_C(self, tensor: Any) -> Tensor:
        """A compact register fragment of ``partition_C(tensor)``'s shape (C++ ``make_fragment_C``);
        for an SM100 UMMA atom, C++'s tensor-memory accumulator."""
        return self.make_fragment_C(self.partition_C(tensor))

    def make_fragment_A(self, part: Any) -> Tensor:
        """C++ ``make_fragment_A``: a register tensor like the partition ``part`` (``make_fragment_like``)."""
        return self.tiled_mma.make_fragment_A(part)

    def make_fragment_B(self, part: Any) -> Tensor:
        """C++ ``make_fragment_B``: a register tensor like the partition ``part``."""
        return self.tiled_mma.make_fragment_B(part)

    def make_fragment_C(self, part: Any) -> Tensor:
        """C++ ``make_fragment_C``: a compact register tensor of ``part``'s shape."""
        return self.tiled_mma.make_fragment_C(part)

    def __str__(self) -> str:
        return f"ThrMMA\n  Thr VMNK: ({','.join(map(str, self.thr_vmnk))})\n{self.tiled_mma}"

    def __format__(self, spec: str) -> str:
        """``format(x, "cxx")``: C++'s exact print, the (v,m,n,k) coordinate as ``get_flat_coord``
        of the thread index gives it (run-time where the index is, ``_0`` on a mode of size 1)."""
        return format_value(self, spec, lambda: f"ThrMMA\n  Thr VMNK: "
                            f"{format_tuple(tuple(self.thr_vmnk), cxx=True)}\n{self.tiled_mma:cxx}")


def _layout_of(x: Any) -> Any:
    """The layout of a tensor (plain or swizzled), or a layout given as itself or its shape."""
    return x.layout if isinstance(x, Tensor) else _as_layout(x)


def _reads_smem(atom: MMAAtom, which: str) -> bool:
    """Whether a GMMA/UMMA atom reads this operand from shared memory through a descriptor."""
    if atom.name.startswith("SM100_MMA_"):
        return _umma_ss(atom) or which == "B"
    return atom.name.startswith("SM90_64x") and ("_SS" in atom.name or which == "B")


def _over_smem(part: Any) -> bool:
    """Whether ``part`` is a tensor over a shared-memory pointer (C++'s ``is_smem``)."""
    return isinstance(part, Tensor) and isinstance(part.engine, Pointer) and part.engine.space == "smem"


def _umma_ss(atom: MMAAtom) -> bool:
    return atom.name.startswith("SM100_MMA_") and "_SS<" in atom.name


def _tmem_fragment(atom: MMAAtom, shape: Any) -> Tensor:
    """C++'s ``UMMA::tmem_frg_{1,2}sm<c_type>`` accumulator of an SM100 ``_SS`` atom."""
    return make_tmem_frg(atom.element_types[0], shape, 2 if "_2x1SM_" in atom.name else 1)


def _no_descriptor(atom: MMAAtom, which: str) -> None:
    if _reads_smem(atom, which):
        raise CutepyError(
            f"{atom.name} reads {which} from shared memory through a descriptor; its fragment is "
            f"a descriptor tensor of the smem tile: use get_slice(t).partition_fragment_{which}(smem tensor)"
        )


def _descriptor_fragment(atom: MMAAtom, operand: int, part: Any) -> Tensor:
    """C++'s ``make_fragment_A/B`` of a GMMA ``smem_desc`` operand: the descriptor tensor."""
    if not isinstance(part, Tensor) or not isinstance(part.engine, Pointer) or part.engine.space != "smem":
        raise CutepyError(
            f"{atom.name} reads its operand from shared memory through a descriptor: partition a "
            "tensor over smem_ptr (C++: Expected SMEM Tensor to construct a GMMA/UMMA Desc Tensor)"
        )
    family = "UMMA" if atom.name.startswith("SM100_MMA_") else "GMMA"
    return make_gmma_desc_tensor(operand_majors(atom.cpp_type)[operand], part, family)


def _fragment(L: Layout, cxx_type: str | None = None) -> Tensor:
    """A zeroed register tensor of layout ``L``, of the numpy type simulating ``cxx_type``
    (int64 when none is given)."""
    import numpy as np  # optional heavy dependency, loaded lazily

    dtype = np.dtype(NUMPY_TYPES.get(cxx_type, "float32")) if cxx_type else np.int64
    return Tensor(np.zeros(int(L.cosize()), dtype=dtype), L)


def _shape_of(mma: TiledMMA, thr: Layout, shape: Any) -> Any:
    crd = (0, (None, repeat_wild(rank_of(shape))))
    return slice_and_offset(crd, thr)[0].shape


def partition_shape_A(mma: TiledMMA, shape_mk: Any) -> Any:
    """C++ ``partition_shape_A``: the shape of one thread's A values of an ``M x K`` tile.

    Pre:  ``shape_mk`` is an ``(M, K)`` shape the TiledMMA's ``(M, K)`` tile divides.
    Post: ``(FrgV, RestM, RestK)``, the shape of ``mma.get_slice(t).partition_A`` of an
          ``M x K`` tensor for any thread ``t``.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_shape_A(mma, (64, 32))
    ((2, 2, 2), 2, 2)
    """
    return _shape_of(mma, mma.thrfrg_A(Layout(shape_mk)), shape_mk)


def partition_shape_B(mma: TiledMMA, shape_nk: Any) -> Any:
    """C++ ``partition_shape_B``: the shape of one thread's B values of an ``N x K`` tile.

    Pre:  ``shape_nk`` is an ``(N, K)`` shape the TiledMMA's ``(N, K)`` tile divides.
    Post: ``(FrgV, RestN, RestK)``, the shape of ``partition_B`` of an ``N x K`` tensor.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_shape_B(mma, (64, 32))
    ((2, 2), 4, 2)
    """
    return _shape_of(mma, mma.thrfrg_B(Layout(shape_nk)), shape_nk)


def partition_shape_C(mma: TiledMMA, shape_mn: Any) -> Any:
    """C++ ``partition_shape_C``: the shape of one thread's C values of an ``M x N`` tile.

    Pre:  ``shape_mn`` is an ``(M, N)`` shape the TiledMMA's ``(M, N)`` tile divides.
    Post: ``(FrgV, RestM, RestN)``, the shape of ``partition_C`` of an ``M x N`` tensor.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_shape_C(mma, (64, 64))
    ((2, 2), 2, 4)
    """
    return _shape_of(mma, mma.thrfrg_C(Layout(shape_mn)), shape_mn)


def partition_fragment_C(mma: TiledMMA, shape_mn: Any) -> Tensor:
    """C++ ``partition_fragment_C(mma, shape)``: a compact fragment of ``partition_shape_C``.

    Pre:  as :func:`partition_shape_C`.
    Post: a zeroed register tensor of the atom's C type (numpy's nearest, :data:`NUMPY_TYPES`)
          whose layout is ``make_layout(partition_shape_C(mma, shape_mn))`` (compact, column-major);
          for an SM100 ``_SS`` UMMA atom, the tensor-memory accumulator C++'s ``UMMA::tmem_frg``
          makes (a tensor over ``tmem_ptr``).

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_fragment_C(mma, (64, 64))
    array[float32] o ((2,2),2,4):((1,2),4,8)
    >>> umma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>"))
    >>> partition_fragment_C(umma, (128, 256))
    tmem_[32b](0x0000.0000) o ((128,256),1,1):((65536,1),0,0)
    """
    shape = partition_shape_C(mma, shape_mn)
    if _umma_ss(mma.atom):  # C++'s UMMA::tmem_frg: the accumulator lives in tensor memory
        return _tmem_fragment(mma.atom, shape)
    return _fragment(compact_layout(shape), mma.atom.element_types[3])


def partition_fragment_A(mma: TiledMMA, shape_mk: Any) -> Tensor:
    """A compact fragment of ``partition_shape_A`` (register-sourced atoms only).

    Pre:  as :func:`partition_shape_A`; the atom reads A from registers (an SM90 ``_SS`` atom's
          A is a shared-memory descriptor: ``CutepyError``).
    Post: a zeroed register tensor whose layout is ``make_layout(partition_shape_A(mma, shape_mk))``.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_fragment_A(mma, (64, 32))
    array[float16] o ((2,2,2),2,2):((1,2,4),8,16)
    """
    _no_descriptor(mma.atom, "A")
    return _fragment(compact_layout(partition_shape_A(mma, shape_mk)), mma.atom.element_types[1])


def partition_fragment_B(mma: TiledMMA, shape_nk: Any) -> Tensor:
    """A compact fragment of ``partition_shape_B`` (register-sourced atoms only).

    Pre:  as :func:`partition_shape_B`; the atom reads B from registers (an SM90 atom's B is
          a shared-memory descriptor: ``CutepyError``).
    Post: a zeroed register tensor whose layout is ``make_layout(partition_shape_B(mma, shape_nk))``.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> partition_fragment_B(mma, (64, 32))
    array[float16] o ((2,2),4,2):((1,2),4,16)
    """
    _no_descriptor(mma.atom, "B")
    return _fragment(compact_layout(partition_shape_B(mma, shape_nk)), mma.atom.element_types[2])


def make_tiled_mma(atom: MMAAtom, atom_layout: Any = None, permutation: Any = None) -> TiledMMA:
    """C++ ``make_tiled_mma(atom, thr_layout, permutations)``.

    ``atom_layout`` is a layout or a shape (compact column-major) of up to 3 modes, padded
    with ``1:0``; ``permutation`` is a tuple of up to 3 tilers, padded with ``None`` (``_``).

    Pre:  ``atom`` is an MMA atom; ``atom_layout`` has at most 3 modes and no stride-0 mode of
          size > 1; every permutation tiler's size is a multiple of the atom extent times the
          atoms in that mode (else ``CutepyError``; C++ would divide unevenly).
    Post: ``size(result) == size(atom.ThrID) * size(atom_layout)``; ``tile_size_mnk`` is the
          atom's ``(M, N, K)`` times the atoms per mode, or the permutation tilers' sizes.

    >>> from cutepy.kernels.atoms import mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> mma.thr_layout_vmnk, mma.tile_size_mnk, mma.size
    ((32,2,2,1):(1,32,64,0), (32, 16, 16), 128)
    """
    if not isinstance(atom, MMAAtom):
        raise CutepyError(f"make_tiled_mma takes an MMA atom (cutepy.mma_atom(name)), not {atom!r}")
    L = Layout(1, 0) if atom_layout is None else _as_layout(atom_layout)
    if not isinstance(L, Layout):
        raise CutepyError(f"make_tiled_mma: the atom layout must be a layout or a shape of up to 3 modes, "
                          f"not {short_repr(atom_layout)}")
    if L.rank() > 3:
        raise CutepyError(f"make_tiled_mma: the atom layout {L} has more than 3 modes")
    if not isinstance(L.shape, tuple):
        L = Layout((L.shape,), (L.stride,))
    L = append(L, Layout(1, 0), n=3)
    for s, d in zip(flatten(L.shape), flatten(L.stride)):
        if s > 1 and d == 0:
            raise CutepyError(f"make_tiled_mma: the atom layout {L} repeats an atom position (a mode of "
                              f"size {s} has stride 0); C++ divides by that zero stride in get_slice")
    perm = (
        tuple(permutation)
        if isinstance(permutation, (tuple, list))
        else (() if permutation is None else (permutation,))
    )
    if len(perm) > 3:
        raise CutepyError(f"make_tiled_mma: {len(perm)} permutations given, at most 3 (M, N, K)")
    perm = perm + (None,) * (3 - len(perm))
    for i, p in enumerate(perm):
        check_tiler(p, f"make_tiled_mma: permutation {'MNK'[i]}")
    mma = TiledMMA(atom, L, perm)
    if mma.size > MAX_THREADS:
        raise CutepyError(f"make_tiled_mma: {mma.size} threads exceed the limit {MAX_THREADS}")
    for i, p in enumerate(perm):
        if p is not None:
            need = atom.shape_mnk[i] * size(mma.thr_layout_vmnk[i + 1])
            if _perm_size(p) % need != 0:
                raise CutepyError(
                    f"make_tiled_mma: permutation {'MNK'[i]} of size {_perm_size(p)} is not a "
                    f"multiple of the {need} the atoms cover in that mode"
                )
    return mma
