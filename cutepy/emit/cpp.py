"""C++ CuTe expressions that build cutepy's values (static integers, CUTLASS 4.2 names).

>>> from cutepy.core.layout import Layout
>>> cpp(Layout((4, (2, 2)), (2, (1, 8))))
'Layout<Shape<Int<4>,Shape<Int<2>,Int<2>>>,Stride<Int<2>,Stride<Int<1>,Int<8>>>>{}'
>>> from cutepy.kernels.atoms import mma_atom
>>> from cutepy.kernels.tiled import make_tiled_mma
>>> mma = make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), (2, 1), (None, 16))
>>> print(*cpp(mma).split(", "), sep=",\\n")
make_tiled_mma(MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>{},
Layout<Shape<Int<2>,Int<1>,Int<1>>,Stride<Int<1>,Int<0>,Int<0>>>{},
Tile<Underscore,Int<16>,Underscore>{})
"""

from __future__ import annotations

from typing import Any

from ..algebra.swizzle import SmemPtrFlag, Swizzle, composed_parts
from ..core.basis import ScaledBasis
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..kernels.atoms.copy import CopyAtom
from ..kernels.atoms.mma import MMAAtom
from ..kernels.tiled.copy import TiledCopy
from ..kernels.tiled.mma import TiledMMA

#: the C++ element type emitted for a copy of ``bits``-bit elements
ELEMENT_TYPE = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double", 128: "uint128_t"}


def _int(x: Any, kind: str) -> str:
    if isinstance(x, tuple):
        return f"{kind}<" + ",".join(_int(v, kind) for v in x) + ">"
    if isinstance(x, ScaledBasis):
        raise CutepyError(
            f"cpp: basis strides ({x}) are not emitted; build identity layouts with "
            "make_identity_layout in C++"
        )
    if type(x) is not int:
        raise CutepyError(f"cpp: only integer layouts are emitted, {x!r} is not an int")
    return f"Int<{x}>"


def _layout(L: Layout) -> str:
    shape = L.shape if isinstance(L.shape, tuple) else L.shape
    s = _int(shape, "Shape") if isinstance(shape, tuple) else _int(shape, "")
    d = _int(L.stride, "Stride") if isinstance(L.stride, tuple) else _int(L.stride, "")
    return f"Layout<{s},{d}>{{}}"


def _tiler(t: Any) -> str:
    if t is None:
        return "Underscore"
    if isinstance(t, Layout):
        return _layout(t)[:-2]
    if isinstance(t, tuple):
        return "Tile<" + ",".join(_tiler(x) for x in t) + ">"
    return _int(t, "")


def cpp(obj: Any) -> str:
    """The C++ expression (a value of a static type) that builds ``obj``.

    Handles Layout, ``Swizzle o offset o Layout``, MMAAtom, CopyAtom, TiledMMA and TiledCopy.

    Pre:  ``obj`` is one of those, with integer shapes, strides and offset (else ``CutepyError``).
    Post: a C++ expression of a static type that builds ``obj``; for a (swizzled) layout its
          ``cute::print`` prints ``str(obj)``, static ``_`` markers aside.

    >>> cpp(Layout((4, 2), (2, 1)))
    'Layout<Shape<Int<4>,Int<2>>,Stride<Int<2>,Int<1>>>{}'
    >>> from cutepy import ComposedLayout, Swizzle
    >>> cpp(ComposedLayout(Swizzle(3, 3, 3), 0, Layout(8, 1)))
    'make_composed_layout(Swizzle<3,3,3>{}, Int<0>{}, Layout<Int<8>,Int<1>>{})'
    """
    if isinstance(obj, Layout):
        return _layout(obj)
    if isinstance(obj, Swizzle):
        return f"Swizzle<{obj.bits},{obj.base},{obj.shift}>{{}}"
    if (parts := composed_parts(obj)) is not None:
        outer, offset, inner = parts
        if not isinstance(offset, int):
            raise CutepyError(f"cpp: composed layout offset {offset!r} is not an int")
        if isinstance(offset, SmemPtrFlag):  # C++'s pointer flag: the swizzle acts on bytes
            off = f"smem_ptr_flag_bits<{offset.bits}>{{}}"
            return f"make_composed_layout({cpp(outer)}, {off}, {cpp(inner)})"
        return f"make_composed_layout({cpp(outer)}, Int<{offset}>{{}}, {cpp(inner)})"
    if isinstance(obj, MMAAtom):
        if not obj.cpp_type:  # AMD's and AMX's atoms: no C++ CuTe spells them
            raise CutepyError(f"cpp: the MMA atom {obj.name} has no C++ CuTe type to emit")
        return f"MMA_Atom<{obj.cpp_type}>{{}}"
    if isinstance(obj, CopyAtom):
        t = ELEMENT_TYPE.get(obj.element_bits, f"uint_bit_t<{obj.element_bits}>")
        return f"Copy_Atom<{obj.cpp_type},{t}>{{}}"
    if isinstance(obj, TiledMMA):
        return (
            f"make_tiled_mma({cpp(obj.atom)}, {cpp(obj.atom_layout_mnk)}, "
            f"{_tiler(tuple(obj.permutation_mnk))}{{}})"
        )
    if isinstance(obj, TiledCopy):
        origin = obj.origin or ()
        if origin[:1] == ("make_tiled_copy",):  # as a person writes it
            return f"make_tiled_copy({cpp(obj.copy_atom)}, {cpp(origin[1])}, {cpp(origin[2])})"
        if origin and origin[0].startswith("make_tiled_copy_"):
            return f"{origin[0]}({cpp(obj.copy_atom)}, {cpp(origin[1])})"
        t = obj.tiler_mn
        tiler = (
            (_int(t, "Shape") + "{}")
            if isinstance(t, tuple) and all(type(x) is int for x in t)
            else (_tiler(t) + "{}")
        )
        return f"make_tiled_copy_impl({cpp(obj.copy_atom)}, {cpp(obj.layout_tv_tiled)}, {tiler})"
    raise CutepyError(f"cpp: no C++ expression for {type(obj).__name__}")
