"""SM90 GMMA shared-memory descriptors: C++'s ``GMMA::make_gmma_desc`` and the descriptor
fragments ``partition_fragment_A/B`` give for ``_SS`` atoms (``cute/atom/mma_traits_sm90_gmma.hpp``,
CUTLASS 4.7).

A descriptor is a 64-bit word: the start address (bits 0-13, in 16-byte units), the leading
and stride byte offsets (bits 16-29 and 32-45, 16-byte units), the base offset (bits 49-51)
and the layout type (bits 62-63: INTERLEAVE 0, B128 1, B64 2, B32 3). A descriptor tensor's
engine is a :class:`DescriptorIterator`: element ``i`` is the word with ``i`` added to its low
32 bits, as C++'s ``DescriptorIterator::operator+``.

>>> from cutepy.algebra.products import tile_to_shape
>>> from cutepy.kernels.atoms.smem import gmma_smem_layout
>>> from cutepy.kernels.pointer import smem_ptr
>>> from cutepy.kernels.tensor import make_tensor
>>> sA = make_tensor(smem_ptr("half_t", 0x400), tile_to_shape(gmma_smem_layout("K", 32, 16), (64, 16)))
>>> d = make_gmma_desc("K", sA)
>>> hex(int(d)), d.layout_type, d.stride_byte_offset, d.leading_byte_offset
('0xc000001000010040', 'B32', 16, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..algebra.casting import upcast
from ..algebra.divides import logical_divide
from ..core.errors import CutepyError
from ..core.layout import Layout, size
from ..core.swizzle import Swizzle
from .pointer import Iterator, Pointer
from .tensor import Tensor

#: C++ ``GMMA::LayoutType`` by the swizzle's B (bits) on 16-byte units
LAYOUT_TYPES = {0: ("INTERLEAVE", 0), 1: ("B32", 3), 2: ("B64", 2), 3: ("B128", 1)}
_NAME_OF_CODE = {code: name for name, code in LAYOUT_TYPES.values()}


class GmmaDescriptor(int):
    """C++ ``GMMA::GmmaDescriptor``: the 64-bit word, with its fields as attributes.

    >>> d = GmmaDescriptor((1 << 62) | (64 << 32) | (1 << 16) | 0x40)
    >>> d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.layout_type
    (64, 1, 64, 'B128')
    """

    def __new__(cls, word: int) -> GmmaDescriptor:
        return super().__new__(cls, word & 0xFFFF_FFFF_FFFF_FFFF)

    def __init__(self, word: int) -> None:  # the typed signature (int's is untyped); __new__ builds it
        super().__init__()

    @property
    def start_address(self) -> int:
        return int(self) & 0x3FFF

    @property
    def leading_byte_offset(self) -> int:
        return (int(self) >> 16) & 0x3FFF

    @property
    def stride_byte_offset(self) -> int:
        return (int(self) >> 32) & 0x3FFF

    @property
    def base_offset(self) -> int:
        return (int(self) >> 49) & 0x7

    @property
    def layout_type(self) -> str:
        return _NAME_OF_CODE[(int(self) >> 62) & 0x3]

    def __str__(self) -> str:  # as C++'s print(GmmaDescriptor)
        return (
            f"GmmaDescriptor: 0x{int(self):016x}\n  start_addr :  0x{self.start_address:04x}\n"
            f"  leading_off:  0x{self.leading_byte_offset:04x} ({self.leading_byte_offset})\n"
            f"  stride_off :  0x{self.stride_byte_offset:04x} ({self.stride_byte_offset})\n"
            f"  base_offset:  0x{self.base_offset:01x}\n"
            f"  layout_type:  0x{(int(self) >> 62) & 3:01x} ({self.layout_type})"
        )

    def __repr__(self) -> str:
        return f"GmmaDescriptor(0x{int(self):016x})"


@dataclass(frozen=True)
class DescriptorIterator(Iterator):
    """C++ ``GMMA::DescriptorIterator``: ``it[i]`` is the descriptor advanced by ``i`` (16-byte
    units added to the low 32 bits of the word).

    >>> it = DescriptorIterator(GmmaDescriptor(0x4000004000010040))
    >>> hex(it[2]), it + 2
    ('0x4000004000010042', GMMA::DescriptorIterator)
    """

    desc: GmmaDescriptor
    family: str = "GMMA"

    def __getitem__(self, i: Any) -> GmmaDescriptor:
        w = int(self.desc)
        lo = ((w & 0xFFFF_FFFF) + int(i)) & 0xFFFF_FFFF
        return type(self.desc)((w & ~0xFFFF_FFFF) | lo)

    def __add__(self, i: Any) -> DescriptorIterator:
        return DescriptorIterator(self[i], self.family)

    def __str__(self) -> str:
        return f"{self.family}::DescriptorIterator"

    __repr__ = __str__


def _stride(L: Layout, i: int, j: int) -> int:
    return L.stride[i][j]


def _canonical_strides(what: str, major: str, u128: Layout, tiler: tuple, W: int, interleave: bool
                       ) -> tuple[int, int]:
    """(SBO, LBO) of the canonical layout ``logical_divide(u128, tiler)``, or ``CutepyError`` naming
    C++'s static assert ("Not a canonical GMMA_K Layout: ...")."""
    try:
        c = logical_divide(u128, tiler)
    except CutepyError as e:
        raise CutepyError(f"Not a canonical {what} Layout: {u128} in 16-byte units does not divide "
                          f"by {tiler}: {e}") from None
    ok = isinstance(c.shape, tuple) and len(c.shape) == 2 and all(
        isinstance(m, tuple) and len(m) == 2 and all(isinstance(x, int) for x in m) for m in c.shape
    )
    if not ok:
        raise CutepyError(f"Not a canonical {what} Layout: expected profile ((1,1),(1,1)), "
                          f"got {c} (in 16-byte units)")
    s00, s01, s10, s11 = _stride(c, 0, 0), _stride(c, 0, 1), _stride(c, 1, 0), _stride(c, 1, 1)
    if major == "MN":
        if not interleave and s00 != 1:
            raise CutepyError(f"Not a canonical {what} Layout: expected stride failure: {c} has stride "
                              f"{s00} in mode (0,0), not 1 (16-byte units)")
        if s10 != W:
            raise CutepyError(f"Not a canonical {what} Layout: expected stride failure: {c} has stride "
                              f"{s10} in mode (1,0), not {W} (16-byte units)")
        return (s01, s11) if interleave else (s11, s01)
    if s00 != W:
        raise CutepyError(f"Not a canonical {what} Layout: expected stride failure: {c} has stride "
                          f"{s00} in mode (0,0), not {W} (16-byte units)")
    if not interleave and s10 != 1:
        raise CutepyError(f"Not a canonical {what} Layout: expected stride failure: {c} has stride "
                          f"{s10} in mode (1,0), not 1 (16-byte units)")
    return s01, s10


def _canonical(major: str, u128: Layout, W: int, interleave: bool) -> tuple[int, int]:
    tiler = (Layout(W, 1), Layout(8, 1)) if major == "MN" else (Layout(8, 1), Layout(2, 1))
    return _canonical_strides(f"GMMA_{major}", major, u128, tiler, W, interleave)


def _desc_operand(family: str, fn: str, major: str, tensor: Any) -> tuple:
    """The checks both descriptor builders make of their operand, C++'s static-assert texts:
    ``(layout, smem pointer, element bits, layout in 16-byte units, the pointer's swizzle)``."""
    if major not in ("K", "MN"):
        raise CutepyError(f"{fn}: major is 'K' or 'MN', not {major!r}")
    smem = isinstance(tensor, Tensor) and isinstance(tensor.engine, Pointer) and tensor.engine.space == "smem"
    if not smem:
        raise CutepyError(f"{family} Descriptors can only be constructed on smem (a tensor over smem_ptr)")
    L = tensor.layout
    if not isinstance(L, Layout) or not isinstance(L.shape, tuple) or len(L.shape) != 2:
        raise CutepyError(f"{family} Descriptors can only be constructed on rank-2 tensors, not {L}")
    ptr = tensor.engine
    bits = ptr.bits
    if 128 % bits:
        raise CutepyError(f"{fn}: {bits}-bit elements do not pack into 16-byte units")
    try:
        u128 = upcast(L, 128 // bits)
    except CutepyError as e:
        raise CutepyError(f"{fn}: {L} does not recast to 16-byte units: {e}") from None
    return L, ptr, bits, u128, ptr.swizzle if ptr.swizzle is not None else Swizzle(0, 4, 3)


def make_gmma_desc(major: str, tensor: Tensor) -> GmmaDescriptor:
    """C++ ``GMMA::make_gmma_desc<Major>(tensor)``: the descriptor of a rank-2 smem tensor (MN x K).

    Pre:  ``major`` is ``"K"`` or ``"MN"``; ``tensor`` is a rank-2 tensor over a shared-memory
          pointer (swizzled ``Sw<B,4,3>`` or not) in GMMA's canonical form: K-major, an MN size
          that is a multiple of 8 and a K size of 2 (dense) or 4 (sparse) 16-byte units; MN-major,
          a K size of 256, 128 or 512 bits' worth of elements; strides as the canonical layout
          (else ``CutepyError`` with C++'s static-assert text and the numbers).
    Post: the 64-bit word C++ builds: start address ``>> 4``, LBO and SBO in 16-byte units,
          base offset 0 and the layout type of the swizzle.

    >>> from cutepy.algebra.products import tile_to_shape
    >>> from cutepy.kernels.atoms.smem import gmma_smem_layout
    >>> from cutepy.kernels.pointer import smem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> sA = make_tensor(smem_ptr("half_t", 0x800), tile_to_shape(gmma_smem_layout("MN", 128, 16), (64, 16)))
    >>> d = make_gmma_desc("MN", sA)     # (the module's example is K-major)
    >>> hex(int(d)), d.layout_type, d.start_address, d.stride_byte_offset
    ('0x4000004000000080', 'B128', 128, 64)
    """
    L, ptr, bits, u128, sw = _desc_operand("GMMA", "make_gmma_desc", major, tensor)
    if sw.base != 4 or sw.shift != 3 or not 0 <= sw.bits <= 3:
        raise CutepyError(
            f"make_gmma_desc: unsupported layout swizzle {sw} (GMMA takes Sw<0..3,4,3> on bytes)"
        )
    name, code = LAYOUT_TYPES[sw.bits]
    W = 1 << sw.bits
    interleave = sw.bits == 0
    if major == "MN":
        k = size(u128[1])
        if k not in (256 // bits, 128 // bits, 512 // bits):
            raise CutepyError(
                f"Not a canonical GMMA_MN Layout: expected K-size {256 // bits} (dense) or "
                f"{128 // bits}|{512 // bits} (sparse) for {bits}-bit elements, got {k}"
            )
    else:
        mn, k = size(u128[0]), size(u128[1])
        if mn % 8:
            raise CutepyError(f"Not a canonical GMMA_K Layout: expected MN-size multiple of 8, got {mn}")
        if k not in (2, 4):
            raise CutepyError(
                f"Not a canonical GMMA_K Layout: expected K-size 2 for dense or 4 for sparse (in units of "
                f"uint128_t), got {k}"
            )
    sbo, lbo = _canonical(major, u128, W, interleave)
    start = (ptr.address + (tensor.offset * bits) // 8) & 0xFFFF_FFFF
    word = ((start >> 4) & 0x3FFF) | ((lbo & 0x3FFF) << 16) | ((sbo & 0x3FFF) << 32) | (code << 62)
    return GmmaDescriptor(word)


#: C++ ``UMMA::LayoutType`` codes and the swizzle atom's MN size in 16-byte units
UMMA_LAYOUT_TYPES = {"SWIZZLE_NONE": (0, 1), "SWIZZLE_128B_BASE32B": (1, 8), "SWIZZLE_128B": (2, 8),
                     "SWIZZLE_64B": (4, 4), "SWIZZLE_32B": (6, 2)}
_UMMA_NAME = {code: name for name, (code, _) in UMMA_LAYOUT_TYPES.items()}


class UmmaDescriptor(int):
    """C++ ``UMMA::SmemDescriptor`` (SM100): start address (bits 0-13), LBO (16-29), SBO (32-45),
    version 1 (46-47), base offset (49-51), LBO mode (52), layout type (61-63), 16-byte units.

    >>> d = UmmaDescriptor((2 << 61) | (1 << 46) | (64 << 32) | (1 << 16))
    >>> d.layout_type, d.stride_byte_offset, d.version
    ('SWIZZLE_128B', 64, 1)
    """

    def __new__(cls, word: int) -> UmmaDescriptor:
        return super().__new__(cls, word & 0xFFFF_FFFF_FFFF_FFFF)

    def __init__(self, word: int) -> None:  # the typed signature (int's is untyped); __new__ builds it
        super().__init__()

    start_address = GmmaDescriptor.start_address
    leading_byte_offset = GmmaDescriptor.leading_byte_offset
    stride_byte_offset = GmmaDescriptor.stride_byte_offset
    base_offset = GmmaDescriptor.base_offset

    @property
    def version(self) -> int:
        return (int(self) >> 46) & 0x3

    @property
    def layout_type(self) -> str:
        return _UMMA_NAME.get((int(self) >> 61) & 0x7, "invalid")

    def __repr__(self) -> str:
        return f"UmmaDescriptor(0x{int(self):016x})"


def make_umma_desc(major: str, tensor: Tensor) -> UmmaDescriptor:
    """C++ ``UMMA::make_umma_desc<Major>(tensor)`` (SM100): the shared-memory descriptor of a rank-2
    smem tensor (MN x K) in UMMA's canonical form.

    Pre:  ``major`` is ``"K"`` or ``"MN"``; ``tensor`` a rank-2 tensor over a shared-memory pointer
          swizzled ``Sw<0..3,4,3>`` (or ``Sw<2,5,2>``, MN-major only), K-major with an MN size that is
          a multiple of 8 (16-byte units), strides as the canonical layout (else ``CutepyError``
          with C++'s static-assert text and the numbers).
    Post: the 64-bit word C++ builds (version 1, base offset 0, LBO mode 0).

    >>> from cutepy.algebra.products import tile_to_shape
    >>> from cutepy.kernels.atoms.smem import gmma_smem_layout
    >>> from cutepy.kernels.pointer import smem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> sA = make_tensor(smem_ptr("half_t", 0x400), tile_to_shape(gmma_smem_layout("K", 128, 16), (128, 64)))
    >>> d = make_umma_desc("K", sA)
    >>> d.layout_type, d.stride_byte_offset, d.leading_byte_offset, d.start_address
    ('SWIZZLE_128B', 64, 1, 64)
    """
    L, ptr, bits, u128, sw = _desc_operand("UMMA", "make_umma_desc", major, tensor)
    if sw.base == 4 and sw.shift == 3 and 0 <= sw.bits <= 3:
        name = ("SWIZZLE_NONE", "SWIZZLE_32B", "SWIZZLE_64B", "SWIZZLE_128B")[sw.bits]
    elif sw.base == 5 and sw.bits == 2 and sw.shift == 2:
        name = "SWIZZLE_128B_BASE32B"
    else:
        raise CutepyError(f"make_umma_desc: unsupported layout swizzle {sw} (UMMA takes Sw<0..3,4,3> or "
                          "Sw<2,5,2> on bytes)")
    code, W = UMMA_LAYOUT_TYPES[name]
    none = name == "SWIZZLE_NONE"
    if major == "MN":
        tiler = (Layout(W, 1), Layout(4 if name == "SWIZZLE_128B_BASE32B" else 8, 1))
    else:
        if name == "SWIZZLE_128B_BASE32B":
            raise CutepyError("SWIZZLE_128B_BASE32B is invalid for Major-K")
        if size(u128[0]) % 8:
            raise CutepyError(
                f"Not a canonical UMMA_K Layout: expected MN-size multiple of 8, got {size(u128[0])}"
            )
        tiler = (Layout(8, 1), Layout(2, 1))
    sbo, lbo = _canonical_strides(f"UMMA_{major}", major, u128, tiler, W, none)
    start = (ptr.address + (tensor.offset * bits) // 8) & 0xFFFF_FFFF
    word = (((start >> 4) & 0x3FFF) | ((lbo & 0x3FFF) << 16) | ((sbo & 0x3FFF) << 32) | (1 << 46)
            | (code << 61))
    return UmmaDescriptor(word)


def make_gmma_desc_tensor(major: str, smem_partition: Tensor, family: str = "GMMA") -> Tensor:
    """C++'s ``MakeTensor<GMMA::smem_desc<Major>>``: the descriptor fragment of a partitioned smem
    tensor ``(MMA atom values, Rest...)``: a ``DescriptorIterator`` over the descriptor of mode
    0, with the layout ``replace<0>(recast<uint128_t>(partition).layout(), 1:0)``.

    ``family`` is ``"GMMA"`` (SM90) or ``"UMMA"`` (SM100, C++'s ``UMMA::smem_desc``).

    Pre:  as :func:`make_gmma_desc` (:func:`make_umma_desc`) for mode 0 of ``smem_partition``.
    Post: ``result(i)`` is the descriptor word of the ``i``-th MMA's operand.
    """
    L = smem_partition.layout
    if not isinstance(L, Layout) or not isinstance(L.shape, tuple):
        raise CutepyError(f"a descriptor fragment needs a partitioned smem tensor (V, Rest...), not {L}")
    make = make_umma_desc if family == "UMMA" else make_gmma_desc
    desc = make(major, Tensor(smem_partition.engine, L[0], smem_partition.offset))
    bits = smem_partition.engine.bits
    u128 = upcast(L, 128 // bits)
    out = Layout((1,) + u128.shape[1:], (0,) + u128.stride[1:])
    return Tensor(DescriptorIterator(desc, family), out)


def operand_majors(cpp_type: str) -> tuple[str, str]:
    """The (A, B) majors of a GMMA/UMMA atom's C++ type (``GMMA::Major::MN``...; default K, K).

    >>> operand_majors("SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::MN,GMMA::Major::K>")
    ('MN', 'K')
    """
    if "UMMA::Major::" in cpp_type:
        parts = [p.strip().rsplit("::", 1)[-1] for p in cpp_type.rstrip(">").split(",")[-2:]]
        if all(p in ("K", "MN") for p in parts):
            return parts[0], parts[1]
    if "<GMMA::Major::" in cpp_type:
        inner = cpp_type[cpp_type.index("<GMMA::Major::") + 1: cpp_type.rindex(">")]
        parts = [p.strip().rsplit("::", 1)[-1] for p in inner.split(",")]
        if len(parts) == 2 and all(p in ("K", "MN") for p in parts):
            return parts[0], parts[1]
    return "K", "K"


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "DescriptorIterator",
    "GmmaDescriptor",
    "UmmaDescriptor",
    "make_gmma_desc",
    "make_umma_desc",
]
