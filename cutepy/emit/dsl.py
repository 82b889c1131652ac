"""CuTe DSL (Python ``cutlass.cute``, CUTLASS 4.x) expressions that build cutepy's values.

The expressions follow the documented DSL API (``cute.make_layout``, ``cute.make_tiled_mma``,
``cute.nvgpu.warp.MmaF16BF16Op``, ``cute.make_copy_atom``, ...). They are not executed by
the test suite (the DSL needs its own wheel); atoms the DSL has no operation for raise.

>>> from cutepy.core.layout import Layout
>>> dsl(Layout((4, (2, 2)), (2, (1, 8))))
'cute.make_layout((4, (2, 2)), stride=(2, (1, 8)))'
>>> from cutepy.kernels.atoms import copy_atom
>>> dsl(copy_atom("SM75_U32x4_LDSM_N", 16))
'cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=4), cutlass.Float16)'
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import composed_parts
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..kernels.atoms.copy import CopyAtom, matrix_copy, parse_templated
from ..kernels.atoms.mma import MMAAtom, UMMAName, parse_gmma, parse_umma
from ..kernels.tiled.copy import TiledCopy
from ..kernels.tiled.mma import TiledMMA
from ..kernels.tmem_copy import tmem_op_parts

#: C++ element type -> CuTe DSL numeric type
DTYPE = {
    "half_t": "cutlass.Float16",
    "bfloat16_t": "cutlass.BFloat16",
    "float": "cutlass.Float32",
    "tfloat32_t": "cutlass.TFloat32",
    "double": "cutlass.Float64",
    "int8_t": "cutlass.Int8",
    "uint8_t": "cutlass.Uint8",
    "int32_t": "cutlass.Int32",
    "int16_t": "cutlass.Int16",
    "uint16_t": "cutlass.Uint16",
    "uint32_t": "cutlass.Uint32",
    "int64_t": "cutlass.Int64",
    "uint64_t": "cutlass.Uint64",
    "float_e4m3_t": "cutlass.Float8E4M3FN",
    "float_e5m2_t": "cutlass.Float8E5M2",
    "float_e2m1_t": "cutlass.Float4E2M1FN",
    "float_e2m3_t": "cutlass.Float6E2M3FN",
    "float_e3m2_t": "cutlass.Float6E3M2FN",
}
#: the DSL's operand majors (``cute.nvgpu.OperandMajorMode``; the per-arch enums are deprecated)
_MAJOR = "cute.nvgpu.OperandMajorMode."
#: element width -> the DSL numeric type a copy of that width is emitted with
BITS_DTYPE = {8: "cutlass.Int8", 16: "cutlass.Float16", 32: "cutlass.Float32", 64: "cutlass.Float64"}


def _tuple(t: Any) -> str:
    if isinstance(t, tuple):
        inner = ", ".join(_tuple(x) for x in t)
        return f"({inner},)" if len(t) == 1 else f"({inner})"
    if type(t) is not int:
        raise CutepyError(f"dsl: only integer layouts are emitted, {t!r} is not an int")
    return str(t)


def _mma_op(a: MMAAtom) -> str:
    d, ta, tb, _ = a.element_types
    if (a.name.startswith(("SM80_16x8x8_", "SM80_16x8x16_")) and a.name.endswith("_TN")
            and d in ("half_t", "float") and ta in ("half_t", "bfloat16_t") and tb == ta):
        return f"cute.nvgpu.warp.MmaF16BF16Op({DTYPE[ta]}, {DTYPE[d]}, {_tuple(a.shape_mnk)})"
    g = parse_gmma(a.name)
    if g is not None and g.suffix in ("", "_TN") and ta in ("half_t", "bfloat16_t", "float_e4m3_t",
                                                          "float_e5m2_t"):
        src = "SMEM" if g.src == "SS" else "RMEM"
        ma = _MAJOR + (g.a_major or "K")
        mb = _MAJOR + (g.b_major or "K")
        shape = _tuple(a.shape_mnk)
        common = f"{shape}, cute.nvgpu.warpgroup.OperandSource.{src}, {ma}, {mb}"
        if ta in ("half_t", "bfloat16_t"):
            return f"cute.nvgpu.warpgroup.MmaF16BF16Op({DTYPE[ta]}, {DTYPE[d]}, {common})"
        return f"cute.nvgpu.warpgroup.MmaF8Op({DTYPE[ta]}, {DTYPE[tb]}, {DTYPE[d]}, {common})"
    u = parse_umma(a.name)
    if u is not None:
        return _umma_op(a, u)
    if a.name.startswith("UniversalFMA"):
        return f"cute.nvgpu.MmaUniversalOp({DTYPE.get(d, 'cutlass.Float32')})"
    raise CutepyError(f"dsl: cutepy knows no CuTe DSL operation for the MMA atom {a.name}")


def _umma_op(a: MMAAtom, u: UMMAName) -> str:
    """An SM100 UMMA atom as the DSL's ``cute.nvgpu.tcgen05`` operation (C++'s template
    arguments: kind, 2x1SM -> ``CtaGroup.TWO``, SS/TS -> A from SMEM/TMEM, the majors)."""
    kind, pair, src, ta, tb = u.kind, u.two_sm, u.src, u.a, u.b
    acc = DTYPE[a.element_types[0]]
    for t in (ta, tb):
        if t not in DTYPE:
            raise CutepyError(f"dsl: no CuTe DSL numeric type for {t} (atom {a.name})")
    common = (f"{_tuple(a.shape_mnk)}, cute.nvgpu.tcgen05.CtaGroup.{'TWO' if pair else 'ONE'}, "
              f"cute.nvgpu.tcgen05.OperandSource.{'SMEM' if src == 'SS' else 'TMEM'}, "
              f"{_MAJOR}{u.a_major}, {_MAJOR}{u.b_major}")
    if kind == "TF32":
        return f"cute.nvgpu.tcgen05.MmaTF32Op({common})"
    if kind == "F16BF16":
        return f"cute.nvgpu.tcgen05.MmaF16BF16Op({DTYPE[ta]}, {acc}, {common})"
    if kind == "S8":
        return f"cute.nvgpu.tcgen05.MmaI8Op({DTYPE[ta]}, {common})"
    return f"cute.nvgpu.tcgen05.MmaF8F6F4Op({DTYPE[ta]}, {DTYPE[tb]}, {acc}, {common})"


def _copy_atom(a: CopyAtom) -> str:
    dt = BITS_DTYPE.get(a.element_bits)
    if dt is None:
        raise CutepyError(f"dsl: no DSL element type of {a.element_bits} bits")
    n = a.name
    matrix = matrix_copy(n)
    if matrix is not None:
        kind, count, transposed = matrix
        op = "LdMatrix8x8x16bOp" if kind == "ldmatrix" else "StMatrix8x8x16bOp"
        return f"cute.make_copy_atom(cute.nvgpu.warp.{op}(transpose={transposed}, num_matrices={count}), " \
            f"{dt})"
    t = parse_templated(n)
    if t is not None and t.type.startswith("uint") and t.bits is not None:
        if t.base.startswith("SM80_CP_ASYNC_CACHE"):
            cache = t.base.removeprefix("SM80_CP_ASYNC_CACHE").removesuffix("_ZFILL")  # ALWAYS, GLOBAL
            mode = "cute.nvgpu.cpasync.LoadCacheMode." + cache
            return (
                f"cute.make_copy_atom(cute.nvgpu.cpasync.CopyG2SOp(cache_mode={mode}), {dt}, "
                f"num_bits_per_copy={t.bits})"
            )
        return f"cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), {dt}, num_bits_per_copy={t.bits})"
    tmem = tmem_op_parts(n)
    if tmem is not None and tmem[0] != "LOAD_STAT":  # tcgen05's Ld/St ops: shape, repetition, packing
        kind, lanes, bits, reps, pack = tmem
        t5 = "cute.nvgpu.tcgen05."
        shape = f"{lanes}x{bits}b" + ("x2" if (lanes, bits) == (16, 32) else "")
        if kind == "LOAD":
            op = f"{t5}Ld{shape}Op({t5}Repetition.x{reps}, {t5}Pack.{'PACK_16b_IN_32b' if pack else 'NONE'})"
        else:
            unpack = "UNPACK_32b_IN_16b" if pack else "NONE"
            op = f"{t5}St{shape}Op({t5}Repetition.x{reps}, {t5}Unpack.{unpack})"
        return f"cute.make_copy_atom({op}, {dt})"
    raise CutepyError(f"dsl: cutepy knows no CuTe DSL operation for the copy atom {n}")


def _tiler(t: Any) -> str:
    if t is None:
        return "None"
    if isinstance(t, Layout):
        return dsl(t)
    if isinstance(t, tuple):  # a 1-tuple keeps its comma, or Python reads one tiler
        inner = ", ".join(_tiler(x) for x in t)
        return f"({inner},)" if len(t) == 1 else f"({inner})"
    return str(t)


def dsl(obj: Any) -> str:
    """The CuTe DSL expression (inside a ``@cute.jit`` function) that builds ``obj``.

    Handles Layout, ``Swizzle o offset o Layout``, MMA and copy atoms the DSL has operations
    for, TiledMMA (``cute.make_tiled_mma``) and TiledCopy (``cute.make_tiled_copy``).

    Pre:  ``obj`` is one of those, with integer shapes and strides, and an atom the DSL has an
          operation for (else ``CutepyError``).
    Post: a Python expression that, run under ``@cute.jit``, builds a value printing as ``obj``.

    >>> dsl(Layout((4, 2), (2, 1)))
    'cute.make_layout((4, 2), stride=(2, 1))'
    """
    if isinstance(obj, Layout):
        return f"cute.make_layout({_tuple(obj.shape)}, stride={_tuple(obj.stride)})"
    if isinstance(obj, Swizzle):
        return f"cute.make_swizzle({obj.bits}, {obj.base}, {obj.shift})"
    if (parts := composed_parts(obj)) is not None:
        outer, offset, inner = parts
        # a pointer flag (C++'s smem_ptr_flag_bits) is the DSL's 0: its swizzle stays on bytes
        return f"cute.make_composed_layout({dsl(outer)}, {int(offset)}, {dsl(inner)})"
    if isinstance(obj, MMAAtom):
        return f"cute.make_mma_atom({_mma_op(obj)})"
    if isinstance(obj, CopyAtom):
        return _copy_atom(obj)
    if isinstance(obj, TiledMMA):
        perm = obj.permutation_mnk
        p = "" if all(x is None for x in perm) else f", permutation_mnk={_tiler(tuple(perm))}"
        return f"cute.make_tiled_mma({_mma_op(obj.atom)}, {dsl(obj.atom_layout_mnk)}{p})"
    if isinstance(obj, TiledCopy):
        origin = obj.origin or ()
        if origin[:1] == ("make_tiled_copy",):  # as a person writes it: the DSL's make_tiled_copy_tv
            return (f"cute.make_tiled_copy_tv({_copy_atom(obj.copy_atom)}, {dsl(origin[1])}, "
                    f"{dsl(origin[2])})")
        if origin and origin[0].startswith("make_tiled_copy_"):
            return f"cute.{origin[0]}({_copy_atom(obj.copy_atom)}, {dsl(origin[1])})"
        return (
            f"cute.make_tiled_copy({_copy_atom(obj.copy_atom)}, {dsl(obj.layout_tv_tiled)}, "
            f"{_tiler(obj.tiler_mn)})"
        )
    raise CutepyError(f"dsl: no CuTe DSL expression for {type(obj).__name__}")
