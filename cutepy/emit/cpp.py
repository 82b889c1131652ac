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

from ..algebra.composed import composed_parts
from ..core.basis import ScaledBasis
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import SmemPtrFlag, Swizzle
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
        if not obj.cpp_type:  # the CuTe DSL's copies C++ CuTe lacks (tmem_load_red_atom, ...)
            raise CutepyError(f"cpp: the copy atom {obj.name} has no C++ CuTe type to emit")
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


# CUTLASS's GEMM builders (issue 32): the CollectiveBuilder instantiation and what it expands to

#: C++ spelling of the element types the builders take
_CUTLASS_TYPES = {"float": "float", "double": "double", "int8_t": "int8_t", "uint8_t": "uint8_t",
                  "int32_t": "int32_t", "void": "void"}


def _cutlass_type(t: str) -> str:
    return _CUTLASS_TYPES.get(t, f"cutlass::{t}")


def _static_shape(t: tuple) -> str:
    return "Shape<" + ",".join(f"_{x}" for x in t) + ">"


def _stage_count(s: Any) -> str:
    if s == "auto":
        return "cutlass::gemm::collective::StageCountAuto"
    if isinstance(s, tuple):
        return f"cutlass::gemm::collective::StageCountAutoCarveout<{s[1]}>"
    return f"cutlass::gemm::collective::StageCount<{s}>"


def _smem_atom_name(atom: Any, element: str) -> str:
    """``GMMA::Layout_{K,MN}_{SW128,SW64,SW32,INTER}_Atom<T>`` of a GMMA smem atom."""
    outer, _, inner = composed_parts(atom)
    width = {0: "INTER", 1: "SW32", 2: "SW64", 3: "SW128"}[outer.bits]
    major = "K" if inner.stride[1] == 1 else "MN"
    return f"GMMA::Layout_{major}_{width}_Atom<{_cutlass_type(element)}>"


def _gmem_copy(copy: Any, element: str) -> str:
    if isinstance(copy, TiledCopy):
        thr, val = copy.origin[1], copy.origin[2]
        major = thr.stride[1] == 1  # K-major: Layout<Shape<minor,major>, Stride<major,_1>>
        shape = f"Shape<Int<{thr.shape[0]}>,Int<{thr.shape[1]}>>"
        stride = f"Stride<Int<{thr.stride[0]}>,_1>" if major else f"Stride<_1,Int<{thr.stride[1]}>>"
        vshape = f"Shape<_1,Int<{val.shape[1]}>>" if major else f"Shape<Int<{val.shape[0]}>,_1>"
        atom = f"Copy_Atom<{copy.copy_atom.cpp_type}, {_cutlass_type(element)}>"
        return f"decltype(make_tiled_copy({atom}{{}}, Layout<{shape},{stride}>{{}}, Layout<{vshape}>{{}}))"
    return f"cute::{copy}"


def cpp_collective(c: Any) -> str:
    """The C++ of a mainloop collective (:func:`cutepy.builders.collective_builder`'s result): the
    ``CollectiveBuilder`` instantiation as a CUTLASS user writes it, then the explicit ``using``
    declarations it expands to and the ``CollectiveMma`` they make (``CollectiveMainloopExplicit``),
    the same C++ type as the builder's ``CollectiveOp``.

    Pre:  ``c`` is an SM90 ``CollectiveMma`` from :func:`~cutepy.builders.collective_builder` (else
          ``CutepyError``).
    Post: C++ statements (inside a function or at namespace scope, after ``using namespace cute;``)
          declaring ``CollectiveMainloop`` and ``CollectiveMainloopExplicit``; C++ compiles
          ``std::is_same_v<CollectiveMainloop, CollectiveMainloopExplicit>`` to true.

    >>> from cutepy.builders import collective_builder
    >>> c = collective_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8,
    ...                        "float", (128, 128, 64), (1, 2, 1), "auto", "KernelScheduleAuto")
    >>> print(cpp_collective(c).splitlines()[10])
    using DispatchPolicy = cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<7, Shape<_1,_2,_1>, \
cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
    """
    if not hasattr(c, "arguments") or not hasattr(c, "dispatch_policy") or len(c.arguments) != 13:
        raise CutepyError(f"cpp_collective: give the result of collective_builder, not {type(c).__name__}")
    arch, op_class, ea, la, al_a, eb, lb, al_b, acc, tile, cluster, stages, schedule = c.arguments
    if arch != "Sm90":
        raise CutepyError(f"cpp_collective: writes SM90 collectives (their explicit form is checked against "
                          f"CUTLASS), not {arch}")
    sched = (f"cutlass::gemm::collective::{schedule}" if schedule == "KernelScheduleAuto"
             else f"cutlass::gemm::{schedule}")
    lines = [
        "// CUTLASS's CollectiveBuilder, as a CUTLASS user writes it",
        "using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<",
        f"    cutlass::arch::{arch}, cutlass::arch::{op_class},",
        f"    {_cutlass_type(ea)}, cutlass::layout::{la}, {al_a},",
        f"    {_cutlass_type(eb)}, cutlass::layout::{lb}, {al_b},",
        f"    {_cutlass_type(acc)},",
        f"    {_static_shape(tile)}, {_static_shape(cluster)},",
        f"    {_stage_count(stages)},",
        f"    {sched}>::CollectiveOp;",
        "// what it expands to (cutepy.builders.collective_builder's choices)",
    ]
    p = c.dispatch_policy
    policy_args = [str(p.stages), _static_shape(p.cluster_shape)]
    policy_args += [f"cutlass::gemm::{p.schedule}"] if p.schedule else []
    lines.append(f"using DispatchPolicy = cutlass::gemm::{p.name}<{', '.join(policy_args)}>;")
    mma = c.tiled_mma
    atom_layout = "Layout<" + _static_shape(tuple(mma.atom_layout_mnk.shape)) + ">"
    op = mma.atom.cpp_type
    lines.append(f"using TiledMma = decltype(make_tiled_mma({op}{{}}, {atom_layout}{{}}));")
    a_mma = "tfloat32_t" if ea == "float" and not c.builder.startswith("GMMA_TMA_WS_FP8") else ea
    b_mma = "tfloat32_t" if eb == "float" and not c.builder.startswith("GMMA_TMA_WS_FP8") else eb
    lines.append(f"using GmemTiledCopyA = {_gmem_copy(c.gmem_tiled_copy_a, ea)};")
    lines.append(f"using GmemTiledCopyB = {_gmem_copy(c.gmem_tiled_copy_b, eb)};")
    lines.append(f"using SmemLayoutAtomA = {_smem_atom_name(c.smem_layout_atom_a, a_mma)};")
    lines.append(f"using SmemLayoutAtomB = {_smem_atom_name(c.smem_layout_atom_b, b_mma)};")
    for name, atom, element in (("A", c.smem_copy_atom_a, ea), ("B", c.smem_copy_atom_b, eb)):
        text = "void" if atom is None else f"Copy_Atom<cute::{atom.cpp_type}, {_cutlass_type(element)}>"
        lines.append(f"using SmemCopyAtom{name} = {text};")
    lines += [
        "using CollectiveMainloopExplicit = cutlass::gemm::collective::CollectiveMma<",
        f"    DispatchPolicy, {_static_shape(tile)},",
        f"    {_cutlass_type(ea)}, cutlass::gemm::TagToStrideA_t<cutlass::layout::{la}>,",
        f"    {_cutlass_type(eb)}, cutlass::gemm::TagToStrideB_t<cutlass::layout::{lb}>,",
        "    TiledMma,",
        "    GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA, cute::identity,",
        "    GmemTiledCopyB, SmemLayoutAtomB, SmemCopyAtomB, cute::identity>;",
    ]
    return "\n".join(lines)
