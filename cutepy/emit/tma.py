"""The C++ and CuTe DSL code of a TMA copy: the ``make_tma_copy`` / ``make_tma_atom`` call with
its gmem tensor and smem layout, as a kernel's host code writes it.

The arguments are checked by building the copy first (:func:`cutepy.kernels.tma.make_tma_copy`):
what is emitted is a configuration C++ accepts and the driver's rules allow. GMMA smem layouts
are written as C++ spells them, ``tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{}, ...)``.

>>> from cutepy.core.layout import Layout
>>> from cutepy.kernels.pointer import gmem_ptr
>>> from cutepy.kernels.tensor import make_tensor
>>> from cutepy.kernels.atoms import gmma_smem_layout
>>> from cutepy.algebra.products import tile_to_shape
>>> g = make_tensor(gmem_ptr("bfloat16_t", 0x10000), Layout((1024, 256), (256, 1)))
>>> s = tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64))
>>> code = cpp_make_tma_copy("SM90_TMA_LOAD", g, s).splitlines()
>>> for line in code[:1] + code[2:]:
...     print(line)
using T = cute::bfloat16_t;
auto smem_layout = tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{}, make_shape(Int<128>{}, Int<64>{}));
auto tma = make_tma_copy(SM90_TMA_LOAD{}, gmem, smem_layout, make_shape(Int<128>{}, Int<64>{}), Int<1>{});
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import pointer_flag
from ..algebra.products import tile_to_shape
from ..core.errors import CutepyError
from ..core.inttuple import product_each_tuple as product_each
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..kernels.atoms.smem import gmma_smem_layout
from ..kernels.pointer import as_pointer_flag_layout
from ..kernels.tma import make_tma_atom, make_tma_copy
from .dsl import DTYPE, dsl

_SW_NAME = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}


def _shape(t: Any) -> str:
    if isinstance(t, tuple):
        return "make_shape(" + ", ".join(_shape(x) for x in t) + ")"
    if type(t) is not int:
        raise CutepyError(f"emit: {t!r} is not an integer shape")
    return f"Int<{t}>{{}}"


def _stride(t: Any) -> str:
    if isinstance(t, tuple):
        return "make_stride(" + ", ".join(_stride(x) for x in t) + ")"
    if type(t) is not int:
        raise CutepyError(f"emit: {t!r} is not an integer stride")
    return f"Int<{t}>{{}}"


def _cxx_type(dtype: str) -> str:
    if dtype.startswith("complex<"):
        return "cute::" + dtype
    if dtype.endswith("_t") and not dtype.startswith(("int", "uint")):
        return "cute::" + dtype
    return dtype


def _gmma_spelling(L: Any, bits: int) -> tuple[str, str, Any] | None:
    """(major, swizzle name, tile shape) when ``L`` is a GMMA atom tiled to a shape."""
    if pointer_flag(L) is None:
        return None
    shape = product_each(L.shape) if isinstance(L.shape, tuple) else L.shape
    for major in ("K", "MN"):
        for sw in _SW_NAME:
            try:
                if tile_to_shape(gmma_smem_layout(major, sw, bits), shape) == L:
                    return major, _SW_NAME[sw], shape
            except CutepyError:
                continue
    return None


def _smem(L: Any, dtype: str, bits: int) -> str:
    if isinstance(L, Layout):
        return f"make_layout({_shape(L.shape)}, {_stride(L.stride)})"
    flagged = as_pointer_flag_layout(L, dtype)
    g = _gmma_spelling(flagged, bits)
    if g is not None:
        major, sw, shape = g
        return f"tile_to_shape(GMMA::Layout_{major}_{sw}_Atom<T>{{}}, {_shape(shape)})"
    sw = flagged.outer
    if not isinstance(sw, Swizzle):
        raise CutepyError(f"emit: {L} is not a swizzled smem layout")
    inner = flagged.inner
    return (f"composition(Swizzle<{sw.bits},{sw.base},{sw.shift}>{{}}, smem_ptr_flag_bits<{bits}>{{}}, "
            f"make_layout({_shape(inner.shape)}, {_stride(inner.stride)}))")


def cpp_make_tma_copy(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                      cluster_size: int = 1, atom: bool = False, internal_type: str | None = None) -> str:
    """C++ host code declaring ``gmem``, ``smem_layout`` and ``tma`` (``make_tma_copy``, or
    ``make_tma_atom`` with ``atom=True``; ``make_tma_copy<TmaInternalType>`` with ``internal_type``)
    for these arguments.

    Pre:  the arguments build a TMA copy (:func:`cutepy.kernels.tma.make_tma_copy`'s rules; else
          its ``CutepyError``); shapes and strides are integers (emitted as ``Int<N>``).
    Post: four lines of C++ (``using T``, the gmem tensor, the smem layout, the call) that, with
          CUTLASS's headers, build the copy whose descriptor is ``make_tma_copy(...).descriptor``.
    """
    build = make_tma_atom if atom else make_tma_copy
    build(op, gmem_tensor, smem_layout, cta_tile, cluster_size, internal_type)  # checks every rule first
    ptr, g = gmem_tensor.engine + gmem_tensor.offset, gmem_tensor.layout
    tile = cta_tile if cta_tile is not None else _tile_of(smem_layout)
    fn = "make_tma_atom" if atom else "make_tma_copy"
    if internal_type is not None:
        fn += f"<{_cxx_type(internal_type)}>"
    return "\n".join([
        f"using T = {_cxx_type(ptr.dtype)};",
        f"Tensor gmem = make_tensor(make_gmem_ptr(reinterpret_cast<T*>(0x{ptr.address:x}ull)), "
        f"make_layout({_shape(g.shape)}, {_stride(g.stride)}));",
        f"auto smem_layout = {_smem(smem_layout, ptr.dtype, ptr.bits)};",
        f"auto tma = {fn}({op}{{}}, gmem, smem_layout, {_shape(tile)}, Int<{cluster_size}>{{}});",
    ])


def _tile_of(smem_layout: Any) -> Any:
    s = smem_layout.shape
    return product_each(s) if isinstance(s, tuple) else s


#: the CuTe DSL's TMA operations (``cutlass.cute.nvgpu.cpasync``)
DSL_OPS = {
    "SM90_TMA_LOAD": "cpasync.CopyBulkTensorTileG2SOp()",
    "SM90_TMA_LOAD_MULTICAST": "cpasync.CopyBulkTensorTileG2SMulticastOp()",
    "SM90_TMA_STORE": "cpasync.CopyBulkTensorTileS2GOp()",
    **{f"SM90_TMA_REDUCE_{k}": f"cpasync.CopyReduceBulkTensorTileS2GOp(cute.ReductionKind.{k})"
       for k in ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR")},
    "SM100_TMA_2SM_LOAD": "cpasync.CopyBulkTensorTileG2SOp(tcgen05.CtaGroup.TWO)",
    "SM100_TMA_2SM_LOAD_MULTICAST": "cpasync.CopyBulkTensorTileG2SMulticastOp(tcgen05.CtaGroup.TWO)",
}


def dsl_make_tma_atom(op: str, gmem_tensor_name: str, smem_layout: Any, cta_tile: Any,
                      num_multicast: int = 1, internal_type: str | None = None) -> str:
    """The CuTe DSL call ``cpasync.make_tiled_tma_atom(op, gmem, smem_layout, cta_tiler,
    num_multicast[, internal_type=...])`` for a gmem tensor named ``gmem_tensor_name`` in the jit
    function.

    Pre:  ``op`` is one of :data:`DSL_OPS`; ``smem_layout`` a layout or swizzled layout with
          integer shapes; ``internal_type`` None or a C++ element name with a DSL numeric type
          (else ``CutepyError``).
    Post: one Python expression, returning ``(tma_atom, tma_tensor)`` in the DSL.

    >>> from cutepy.core.layout import Layout
    >>> dsl_make_tma_atom("SM90_TMA_LOAD", "mA", Layout((64, 32), (32, 1)), (64, 32))
    'cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mA, \
cute.make_layout((64, 32), stride=(32, 1)), (64, 32), num_multicast=1)'
    """
    if op not in DSL_OPS:
        raise CutepyError(f"dsl_make_tma_atom: unknown TMA operation {op!r}; one of {', '.join(DSL_OPS)}")
    it = ""
    if internal_type is not None:
        if internal_type not in DTYPE:
            raise CutepyError(f"dsl_make_tma_atom: no CuTe DSL numeric type for {internal_type!r}")
        it = f", internal_type={DTYPE[internal_type]}"
    return (f"cpasync.make_tiled_tma_atom({DSL_OPS[op]}, {gmem_tensor_name}, {dsl(smem_layout)}, "
            f"{cta_tile}, num_multicast={num_multicast}{it})")


__all__ = ["DSL_OPS", "cpp_make_tma_copy", "dsl_make_tma_atom"]
