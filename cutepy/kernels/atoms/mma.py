"""MMA atoms: the thread-value layouts of one tensor-core (or FMA) instruction, as C++ CuTe's
``MMA_Traits`` define them (``cute/atom/mma_traits_sm*.hpp``, CUTLASS 4.2).

An atom computes ``C[M,N] += A[M,K] * B[N,K]`` with ``size(thr_id)`` threads;
``tv_layout_A`` maps ``(thread, value)`` to the column-major index ``m + M*k`` of the
``M x K`` tile of A (likewise B over ``N x K`` and C over ``M x N``).

>>> atom = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
>>> atom.shape_mnk, atom.thr_id
((16, 8, 16), 32:1)
>>> atom.tv_layout_A
((4,8),(2,2,2)):((32,1),(16,8,128))
>>> atom.element_types
('float', 'half_t', 'half_t', 'float')
>>> mma_atom("SM90_64x96x16_F16F16F16_SS").tv_layout_C
((4,8,4),(2,2,12)):((128,1,16),(64,8,512))

Names are the C++ type names. Templated C++ atoms follow these rules:

- ``UniversalFMA`` is ``UniversalFMA<float>``; ``UniversalFMA<D[,A[,B[,C]]]>`` names the element
  types with C++'s defaults (``A = D``, ``B = A``, ``C = D``; the layouts do not depend on them).
- SM90 GMMA atoms are ``SM90_64x{N}x{K}_{types}_{SS|RS}[_TN][_SATURATE]`` exactly as the C++
  aliases. Those C++ templates on the operand majors (``F16F16F16``, ``F32F16F16``,
  ``F32BF16BF16``) may carry them as ``<K,K>``, ``<MN,K>``, ... (default ``<K,K>``; an RS atom
  needs a K-major A); the TF32 and FP8 ones take C++'s default scales. The layouts depend
  on neither.
- SM120 warp-level F8F6F4 atoms are ``SM120_16x8x32_TN<A,B,C>`` with C++'s element types
  (A, B among ``float_e2m1_t``, ``float_e3m2_t``, ``float_e2m3_t``, ``float_e4m3_t``,
  ``float_e5m2_t``; C ``float`` or ``half_t``). As in C++'s traits, A and B travel as ``uint8_t``
  containers, so ``element_types`` says ``uint8_t`` for them. tensor-layouts' spelling
  ``SM120_16x8x32_{C}{A}{B}{C}_TN`` (``SM120_16x8x32_F32E4M3E4M3F32_TN``) names the same atom.
- SM100 UMMA atoms are ``SM100_MMA_{TF32|F16BF16|S8|F8F6F4}[_2x1SM]_{SS|TS}<A,B,C,M,N,a_major,
  b_major>`` with the majors ``K``/``MN`` (or ``UMMA::Major::K``...; a TS atom needs a K-major A),
  for the M and N C++'s static_asserts accept (:func:`umma_shapes`) and the element types PTX
  defines (:data:`UMMA_TYPES`). One "thread" holds the whole tile, two (one per CTA) for
  ``2x1SM``; K is 256 bits of A (32 for F8F6F4). C++ has no template ``SM100_MMA_F8F6F4_SS<...>``:
  that name (and its ``_2x1SM_`` twin) stands for C++'s ``MMA_Traits<SM100_MMA_F8F6F4_SS, A, B, C,
  C<M>, C<N>, ...>``, which ``cpp_type`` spells out. :func:`mma_atoms` lists each (M, N) once,
  with the first types of :data:`UMMA_TYPES` and K-major operands. The scaled, sparse and
  block-scaled (MX) UMMA families are not here. tensor-layouts' ``SM100_{M}x{N}x{K}_{D}{A}{B}_{SS|TS}``
  (``SM100_64x64x16_F16F16F16_SS``) names the single-CTA atom.
- C++ spells the SM90 double-precision atoms both ``SM90_16x8x4_F64F64F64F64_TN`` (the alias in
  ``cute``, listed) and ``SM90::MMA_16x8x4_F64F64F64F64_TN`` (accepted).

Families beyond SM90 GMMA: SM80 4-bit (``S4``/``U4``, ``_SATURATE``) and 1-bit XOR/AND-popcount
(``U1``) integer atoms, SM80's Gauss-complex ``SM80_8x8x4_GC64C64C64GC64_TN``, SM89 FP8
(``E4M3``/``E5M2`` into ``F32`` or ``F16``), SM90 ``F64`` and ``C64`` warp-level atoms, SM100's
vectorized ``SM100_2x1x1_F32F32F32F32`` / ``SM100_1x2x1_F32F32F32F32`` and the UMMA and SM120
atoms above. ``SM80_16x8x128_S32U1U1S32_TN_{XORPOPC,ANDPOPC}`` are refused: C++'s ALayout for
them nests its shape and stride differently, which no Layout can hold.

>>> mma_atom("SM120_16x8x32_TN<float_e2m1_t,float_e4m3_t,float>").tv_layout_B
((4,8),(4,2)):((32,1),(8,128))
>>> mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,K,MN>").tv_layout_A
(2,(128,16)):(128,(1,256))
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from ...core.errors import CutepyError
from ...core.inttuple import short_repr
from ...core.layout import Layout
from . import gmma_sparse, sm120_ext, umma_ext, vendors
from .mma_types import NUMPY_TYPES as NUMPY_TYPES  # re-exported: the simulator and tiled MMA read it
from .mma_types import TYPE_BITS, UMMA_TYPES, MMAAtom, umma_layout

_CODE = {
    "F16": "half_t",
    "BF16": "bfloat16_t",
    "TF32": "tfloat32_t",
    "F32": "float",
    "F64": "double",
    "S8": "int8_t",
    "U8": "uint8_t",
    "S32": "int32_t",
    "E4M3": "float_e4m3_t",
    "E5M2": "float_e5m2_t",
    "C64": "complex<double>",
    "S4": "int4b_t",
    "U4": "uint4b_t",
    "U1": "uint1b_t",
    "E2M1": "float_e2m1_t",
    "E2M3": "float_e2m3_t",
    "E3M2": "float_e3m2_t",
}


def _L(shape: Any, stride: Any) -> Layout:
    return Layout(shape, stride)


# -- the layouts of the headers (names as there) ------------------------------------------

# SM70 (mma_traits_sm70.hpp)
_SM70_QuadPair = _L((4, 2), (1, 16))
_SM70_8x4_Row = _L((8, 4), (1, 8))
_SM70_8x4_Col = _L(((4, 2), 4), ((8, 4), 1))
_SM70_8x8_16b = _L((8, 8), (1, 8))
_SM70_8x8_32b = _L(((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))
# SM80 (mma_traits_sm80.hpp)
_SM80_8x4 = _L(((4, 8), 1), ((8, 1), 0))
_SM80_8x8_Row = _L(((4, 8), 2), ((16, 1), 8))
_SM80_8x16_Row = _L(((4, 8), 4), ((32, 1), 8))
_SM80_16x8_Row = _L(((4, 8), (2, 2)), ((32, 1), (16, 8)))
_T32 = Layout(32, 1)
#: A, B, C of SM80_16x8x32_S32S8S8S32_TN, which SM89's FP8 and SM120's F8F6F4 atoms reuse
_SM80_16x8x32_8BIT = (
    _L(((4, 8), (4, 2, 2)), ((64, 1), (16, 8, 256))),
    _L(((4, 8), (4, 2)), ((32, 1), (8, 128))),
    _SM80_16x8_Row,
)


def _types(code: str) -> tuple:
    """``F32F16F16F32`` -> ("float", "half_t", "half_t", "float")."""
    parts = re.findall(r"BF16|TF32|F16|F32|F64|S8|U8|S32|S4|U4|U1|E4M3|E5M2|E2M1|E2M3|E3M2|C64", code)
    return tuple(_CODE[p] for p in parts)


def _fixed_atoms() -> dict[str, tuple]:
    """name -> (shape_mnk, thr_id, A, B, C) for the non-templated atoms."""
    t: dict[str, tuple] = {}
    one = Layout(1, 0)
    t["SM61_DP4A"] = ((1, 1, 4), one, _L((1, 4), (0, 1)), _L((1, 4), (0, 1)), _L((1, 1), (0, 0)))
    t["SM61_DP2A"] = ((1, 1, 2), one, _L((1, 2), (0, 1)), _L((1, 2), (0, 1)), _L((1, 1), (0, 0)))
    for acc in ("F16F16F16F16", "F32F16F16F32"):
        C = _SM70_8x8_16b if acc == "F16F16F16F16" else _SM70_8x8_32b
        for tn in ("TN", "NT", "NN", "TT"):
            A = _SM70_8x4_Row if tn[0] == "T" else _SM70_8x4_Col
            B = _SM70_8x4_Row if tn[1] == "N" else _SM70_8x4_Col
            t[f"SM70_8x8x4_{acc}_{tn}"] = ((8, 8, 4), _SM70_QuadPair, A, B, C)
    t["SM75_16x8x8_F32F16F16F32_TN"] = ((16, 8, 8), _T32, _SM80_16x8_Row, _SM80_8x8_Row, _SM80_16x8_Row)
    t["SM75_8x8x16_S32S8S8S32_TN"] = ((8, 8, 16), _T32, _SM80_8x16_Row, _SM80_8x16_Row, _SM80_8x8_Row)
    a16 = _L(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128)))
    b16 = _L(((4, 8), (2, 2)), ((16, 1), (8, 64)))
    for ty in ("F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32"):
        t[f"SM80_16x8x8_{ty}_TN"] = ((16, 8, 8), _T32, _SM80_16x8_Row, _SM80_8x8_Row, _SM80_16x8_Row)
        t[f"SM80_16x8x16_{ty}_TN"] = ((16, 8, 16), _T32, a16, b16, _SM80_16x8_Row)
    t["SM80_16x8x4_F32TF32TF32F32_TN"] = (
        (16, 8, 4),
        _T32,
        _L(((4, 8), 2), ((16, 1), 8)),
        _SM80_8x4,
        _SM80_16x8_Row,
    )
    t["SM80_16x8x8_F32TF32TF32F32_TN"] = (
        (16, 8, 8),
        _T32,
        b16,
        _L(((4, 8), 2), ((8, 1), 32)),
        _SM80_16x8_Row,
    )
    for ty in ("F64F64F64F64", "C64C64C64C64", "GC64C64C64GC64"):
        t[f"SM80_8x8x4_{ty}_TN"] = ((8, 8, 4), _T32, _SM80_8x4, _SM80_8x4, _SM80_8x8_Row)
    for a in ("S8", "U8"):
        for b in ("S8", "U8"):
            for sat in ("", "_SATURATE"):
                ty = f"S32{a}{b}S32_TN{sat}"
                t[f"SM80_8x8x16_{ty}"] = ((8, 8, 16), _T32, _SM80_8x16_Row, _SM80_8x16_Row, _SM80_8x8_Row)
                t[f"SM80_16x8x16_{ty}"] = (
                    (16, 8, 16),
                    _T32,
                    _L(((4, 8), (4, 2)), ((64, 1), (16, 8))),
                    _SM80_8x16_Row,
                    _SM80_16x8_Row,
                )
                t[f"SM80_16x8x32_{ty}"] = ((16, 8, 32), _T32, *_SM80_16x8x32_8BIT)
    # 4-bit integers (int4b_t / uint4b_t): the S4S4 traits, which the U4 mixes inherit
    s4 = {
        (8, 8, 32): (_L(((4, 8), (8,)), ((64, 1), (8,))), _L(((4, 8), (8,)), ((64, 1), (8,))), _SM80_8x8_Row),
        (16, 8, 32): (  # BLayout as CUTLASS 4.7 (4.2's stride 32 reached half of the 8x32 tile twice)
            _L(((4, 8), (8, 2)), ((128, 1), (16, 8))),
            _L(((4, 8), (8,)), ((64, 1), (8,))),
            _SM80_16x8_Row,
        ),
        (16, 8, 64): (
            _L(((4, 8), (8, 2, 2)), ((128, 1), (16, 8, 512))),
            _L(((4, 8), (8, 2)), ((64, 1), (8, 256))),
            _SM80_16x8_Row,
        ),
    }
    for a in ("S4", "U4"):
        for b in ("S4", "U4"):
            for sat in ("", "_SATURATE"):
                for (m, n, k), abc in s4.items():
                    t[f"SM80_{m}x{n}x{k}_S32{a}{b}S32_TN{sat}"] = ((m, n, k), _T32, *abc)
    # 1-bit (uint1b_t) XOR/AND-popcount atoms. SM80_16x8x128_S32U1U1S32_TN_{XOR,AND}POPC are left
    # out: C++'s ALayout there is ((4,8),(32,2)):((512,1),((16,8))), whose shape and stride do not
    # nest the same way, so it is not a Layout (see _NOT_A_LAYOUT).
    for op in ("XORPOPC", "ANDPOPC"):
        b1_8 = _L(((4, 8), 32), ((256, 1), 8))
        t[f"SM80_8x8x128_S32U1U1S32_TN_{op}"] = ((8, 8, 128), _T32, b1_8, b1_8, _SM80_8x8_Row)
        t[f"SM80_16x8x256_S32U1U1S32_TN_{op}"] = (
            (16, 8, 256),
            _T32,
            _L(((4, 8), (32, 2, 2)), ((512, 1), (16, 8, 2048))),
            _L(((4, 8), (32, 2)), ((256, 1), (8, 1024))),
            _SM80_16x8_Row,
        )
    # SM89 FP8 (mma_traits_sm89.hpp)
    for d in ("F32", "F16"):
        for a in ("E4M3", "E5M2"):
            for b in ("E4M3", "E5M2"):
                t[f"SM89_16x8x32_{d}{a}{b}{d}_TN"] = ((16, 8, 32), _T32, *_SM80_16x8x32_8BIT)
    # SM90 double precision and complex<double> (mma_traits_sm90.hpp; C++'s cute::SM90_16x8x{K}_...
    # aliases of SM90::MMA_16x8x{K}_...)
    c16 = _L(((4, 8), (2, 2)), ((32, 1), (16, 8)))
    f64 = {
        4: (_L(((4, 8), 2), ((16, 1), 8)), _L(((4, 8), 1), ((8, 1), 0))),
        8: (_L(((4, 8), (2, 2)), ((16, 1), (8, 64))), _L(((4, 8), 2), ((8, 1), 32))),
        16: (_L(((4, 8), (2, 4)), ((16, 1), (8, 64))), _L(((4, 8), 4), ((8, 1), 32))),
    }
    for ty in ("F64F64F64F64", "C64C64C64C64"):
        for k, (A, B) in f64.items():
            t[f"SM90_16x8x{k}_{ty}_TN"] = ((16, 8, k), _T32, A, B, c16)
    # SM100 vectorized FMA (mma_traits_sm100.hpp)
    one = Layout(1, 0)
    v1, v2 = _L((1, 1), (0, 0)), _L((1, 2), (0, 1))  # C++'s Layout<Shape<_1,_1>>, Layout<Shape<_1,_2>>
    t["SM100_2x1x1_F32F32F32F32"] = ((2, 1, 1), one, v2, v1, v2)
    t["SM100_1x2x1_F32F32F32F32"] = ((1, 2, 1), one, v1, v2, v2)
    return t


_fixed = functools.cache(_fixed_atoms)  # built on first use: keeps `import cutepy` light
#: SM80_8x8x4_GC64C64C64GC64_TN accumulates in C++'s three-double Gauss form of a complex<double>
_GAUSS = "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex"
_GC64_TYPES = (_GAUSS, "complex<double>", "complex<double>", _GAUSS)

# -- SM90 GMMA (mma_traits_sm90_gmma.hpp, mma_traits_sm90_gmma_ext.hpp) -------------------
#: N of the 16-bit, TF32 and FP8 GMMA atoms: every multiple of 8 up to 256.
GMMA_N_ALL = tuple(range(8, 257, 8))
#: N of the integer GMMA atoms (the headers define these only).
GMMA_N_INT = (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256)
_GMMA_FAMILIES = (  # (types, K, suffixes after SS/RS, Ns, C++ template parameters)
    [
        ("F16F16F16", 16, ("",), GMMA_N_ALL, "majors"),
        ("F32F16F16", 16, ("",), GMMA_N_ALL, "majors"),
        ("F32BF16BF16", 16, ("",), GMMA_N_ALL, "majors"),
        ("F32TF32TF32", 8, ("_TN",), GMMA_N_ALL, "scales"),
    ]
    + [
        (f"S32{a}{b}", 32, ("_TN", "_TN_SATURATE"), GMMA_N_INT, "")
        for a in ("S8", "U8")
        for b in ("S8", "U8")
    ]
    + [
        (f"{d}{a}{b}", 32, ("_TN",), GMMA_N_ALL, "scales")
        for d in ("F16", "F32")
        for a in ("E4M3", "E5M2")
        for b in ("E4M3", "E5M2")
    ]
)
_GMMA_RE = re.compile(
    r"SM90_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)((?:_TN)?(?:_SATURATE)?)(?:<(K|MN),(K|MN)>)?"
)


def gmma_layout_AB(mn: int, k: int) -> Layout:
    """C++ ``GMMA::ABLayout<MN, K>``: every one of the 128 threads sees the whole tile (descriptor)."""
    return Layout((128, (mn, k)), (0, (1, mn)))


def gmma_layout_C(n: int) -> Layout:
    """C++ ``GMMA::CLayout_64xN<N>``."""
    return Layout(((4, 8, 4), (2, 2, n // 8)), ((128, 1, 16), (64, 8, 512)))


def gmma_layout_A_rs(k: int) -> Layout:
    """C++ ``GMMA::ALayout_64x{K}`` (register-sourced A), for K = 8, 16, 32."""
    table = {
        8: Layout(((4, 8, 4), (2, 2)), ((64, 1, 16), (8, 256))),
        16: Layout(((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))),
        32: Layout(((4, 8, 4), (4, 2, 2)), ((256, 1, 16), (64, 8, 1024))),
    }
    return table[k]


def _gmma_names() -> list[str]:
    out = []
    for ty, k, sufs, ns, _ in _GMMA_FAMILIES:
        for n in ns:
            for src in ("SS", "RS"):
                for suf in sufs:
                    out.append(f"SM90_64x{n}x{k}_{ty}_{src}{suf}")
    return out


class GMMAName(NamedTuple):
    """The parts of an SM90 GMMA atom's name, ``SM90_64x{n}x{k}_{types}_{src}{suffix}[<{a},{b}>]``
    (``a_major``/``b_major``: the template's majors, None where the name has none)."""

    n: int
    k: int
    types: str
    src: str
    suffix: str
    a_major: str | None
    b_major: str | None


def parse_gmma(name: str) -> GMMAName | None:
    """The parts of an SM90 GMMA name (C++'s spelling), or None when ``name`` is not one; the one
    reader of these names (the atoms here and :mod:`cutepy.emit.dsl` ask it).

    >>> parse_gmma("SM90_64x128x16_F32F16F16_SS<MN,K>")
    GMMAName(n=128, k=16, types='F32F16F16', src='SS', suffix='', a_major='MN', b_major='K')
    """
    m = _GMMA_RE.fullmatch(name)
    if m is None:
        return None
    n, k, ty, src, suf, ma, mb = m.groups()
    return GMMAName(int(n), int(k), ty, src, suf, ma, mb)


def _gmma(name: str) -> MMAAtom | None:
    g = parse_gmma(name)
    if g is None:
        return None
    n, k, ty, src, suf, ma, mb = g
    fam = next((f for f in _GMMA_FAMILIES if f[0] == ty and f[1] == k and suf in f[2] and n in f[3]), None)
    if fam is None:
        return None
    params = fam[4]
    if ma is not None and params != "majors":
        return None
    ma, mb = ma or "K", mb or "K"
    if src == "RS" and ma != "K":
        raise CutepyError(f"{name}: a register-sourced (RS) GMMA needs a K-major A")
    base = f"SM90_64x{n}x{k}_{ty}_{src}{suf}"
    cpp = base + {"majors": f"<GMMA::Major::{ma},GMMA::Major::{mb}>", "scales": "<>", "": ""}[params]
    d, a, b = _types(ty)
    A = gmma_layout_AB(64, k) if src == "SS" else gmma_layout_A_rs(k)
    return MMAAtom(
        name, (64, n, k), Layout(128, 1), A, gmma_layout_AB(n, k), gmma_layout_C(n), (d, a, b, d), cpp
    )


# -- SM120 warp-level F8F6F4 (mma_sm120.hpp, mma_traits_sm120.hpp) -----------------------
#: the A/B element types of SM120_16x8x32_TN, in the header's order, and its C types
SM120_AB_TYPES = ("float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t")
SM120_C_TYPES = ("float", "half_t")
_SM120_RE = re.compile(r"SM120_16x8x32_TN<([a-z0-9_]+),([a-z0-9_]+),([a-z0-9_]+)>")
_F8F6F4 = "(E2M1|E3M2|E2M3|E4M3|E5M2)"
_SM120_ALIAS_RE = re.compile(f"SM120_16x8x32_(F32|F16){_F8F6F4}{_F8F6F4}(F32|F16)_TN")


def _sm120_names() -> list[str]:
    ab = SM120_AB_TYPES
    return [f"SM120_16x8x32_TN<{a},{b},{c}>" for c in SM120_C_TYPES for a in ab for b in ab]


def _sm120(name: str) -> MMAAtom | None:
    key = name.replace(" ", "")
    m = _SM120_RE.fullmatch(key)
    if m is not None:
        a, b, c = m.groups()
        if a not in SM120_AB_TYPES or b not in SM120_AB_TYPES or c not in SM120_C_TYPES:
            raise CutepyError(
                f"{name}: C++ defines SM120_16x8x32_TN<A,B,C> for A, B in {', '.join(SM120_AB_TYPES)} "
                f"and C in {', '.join(SM120_C_TYPES)}"
            )
    else:
        m = _SM120_ALIAS_RE.fullmatch(key)
        if m is None or m.group(1) != m.group(4):
            return None
        c, a, b = _CODE[m.group(1)], _CODE[m.group(2)], _CODE[m.group(3)]
    cpp = f"SM120_16x8x32_TN<{a},{b},{c}>"
    # C++'s traits inherit SM80_16x8x32_S32S8S8S32_TN and hand A and B over as uint8_t containers
    return MMAAtom(name, (16, 8, 32), _T32, *_SM80_16x8x32_8BIT, (c, "uint8_t", "uint8_t", c), cpp)


# -- SM100 UMMA (mma_sm100_umma.hpp, mma_traits_sm100.hpp) ---------------------------------
_UMMA_RE = re.compile(
    r"SM100_MMA_(TF32|F16BF16|S8|F8F6F4)_(2x1SM_)?(SS|TS)<([a-z0-9_]+),([a-z0-9_]+),([a-z0-9_]+),(\d+),(\d+),"
    r"(?:UMMA::Major::)?(K|MN),(?:UMMA::Major::)?(K|MN)>"
)
_UMMA_ALIAS_RE = re.compile(r"SM100_(\d+)x(\d+)x(\d+)_([A-Z0-9]+)_(SS|TS)")


def umma_shapes(kind: str, two_sm: bool, src: str, b_major: str = "K") -> list[tuple[int, int]]:
    """The (M, N) C++'s ``SM100_MMA_{kind}[_2x1SM]_{src}`` static_asserts accept (only the
    F8F6F4 SS atoms' N depends on ``b_major``, ``"K"`` or ``"MN"``).

    >>> umma_shapes("F16BF16", False, "TS")[:3], len(umma_shapes("S8", True, "SS"))
    ([(64, 8), (64, 16), (64, 24)], 16)
    >>> len(umma_shapes("F8F6F4", False, "SS")), len(umma_shapes("F8F6F4", False, "SS", "MN"))
    (64, 32)
    """
    out = []
    mn_b = kind == "F8F6F4" and src == "SS" and b_major == "MN"
    for m in (128, 256) if two_sm else (64, 128):
        if two_sm:
            step = 32 if kind == "S8" or src == "TS" or mn_b else 16
            ns = list(range(step, 257, step))
        elif kind == "S8":
            ns = [8, *range(16, 257, 16)]
        else:
            step = 16 if (src == "TS" and m == 128) or mn_b else 8
            ns = list(range(step, 257, step))
        out += [(m, n) for n in ns]
    return out


def _umma_names() -> list[str]:
    out = []
    for kind, types in UMMA_TYPES.items():
        a, b, c = types[0]
        for two in ("", "2x1SM_"):
            for src in ("SS", "TS"):
                for m, n in umma_shapes(kind, bool(two), src):
                    out.append(f"SM100_MMA_{kind}_{two}{src}<{a},{b},{c},{m},{n},K,K>")
    return out


def _umma_alias(name: str) -> tuple | None:
    """tensor-layouts' ``SM100_{M}x{N}x{K}_{D}{A}{B}[{C}]_{SS|TS}`` -> the C++ parameters."""
    m = _UMMA_ALIAS_RE.fullmatch(name)
    if m is None:
        return None
    mm, n, k, code, src = m.groups()
    ty = _types(code)
    if "".join(k2 for k2 in re.findall("BF16|TF32|F16|F32|S8|U8|S32", code)) != code or len(ty) not in (3, 4):
        return None
    if len(ty) == 4 and ty[3] != ty[0]:
        return None
    d, a, b = ty[:3]
    kind = next((kd for kd, tys in UMMA_TYPES.items() if a in {t[0] for t in tys}), None)
    if kind is None or int(k) != 256 // TYPE_BITS[a]:
        return None
    return kind, "", src, a, b, d, mm, n, "K", "K"


class UMMAName(NamedTuple):
    """The parts of an SM100 UMMA atom's name, C++'s ``SM100_MMA_{kind}[_2x1SM]_{src}<a,b,c,m,n,
    a_major,b_major>`` (the majors with or without ``UMMA::Major::``)."""

    kind: str
    two_sm: bool
    src: str
    a: str
    b: str
    c: str
    m: int
    n: int
    a_major: str
    b_major: str


def parse_umma(name: str) -> UMMAName | None:
    """The parts of an SM100 UMMA name, in C++'s spelling or tensor-layouts'
    ``SM100_{M}x{N}x{K}_{D}{A}{B}[{C}]_{SS|TS}`` (spaces ignored), or None when ``name`` is not
    one; the one reader of these names (the atoms here and :mod:`cutepy.emit.dsl` ask it). The
    parts are not checked against what C++ accepts (:func:`mma_atom` does that).

    >>> u = parse_umma("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,UMMA::Major::K,MN>")
    >>> u.kind, u.two_sm, u.src, (u.a, u.b, u.c), (u.m, u.n), (u.a_major, u.b_major)
    ('F16BF16', True, 'SS', ('half_t', 'half_t', 'float'), (256, 128), ('K', 'MN'))
    >>> parse_umma("SM100_128x256x16_F32F16F16_SS").kind, parse_umma("SM90_64x8x16_F16F16F16_SS")
    ('F16BF16', None)
    """
    key = name.replace(" ", "")
    m = _UMMA_RE.fullmatch(key)
    groups = m.groups() if m is not None else _umma_alias(key)
    if groups is None:
        return None
    kind, two, src, a, b, c, mm, n, ma, mb = groups
    return UMMAName(kind, bool(two), src, a, b, c, int(mm), int(n), ma, mb)


def _umma(name: str) -> MMAAtom | None:
    u = parse_umma(name)
    if u is None:
        return None
    kind, two_sm, src, a, b, c, mm, n, ma, mb = u
    op = f"SM100_MMA_{kind}_{'2x1SM_' if two_sm else ''}{src}"
    if (a, b, c) not in UMMA_TYPES[kind]:
        raise CutepyError(f"{name}: {op} takes (A, B, C) types among {UMMA_TYPES[kind]}, not {(a, b, c)}")
    if (mm, n) not in umma_shapes(kind, two_sm, src, mb):
        raise CutepyError(
            f"{name}: C++'s {op} does not accept M={mm}, N={n} with a {mb}-major B"
            " (see cutepy.kernels.atoms.mma.umma_shapes)"
        )
    if src == "TS" and ma != "K":
        raise CutepyError(f"{name}: a TMEM-sourced (TS) UMMA needs a K-major A")
    k = 32 if kind == "F8F6F4" else 256 // TYPE_BITS[a]  # C++: 256 bits of A, but 32 for F8F6F4
    if kind == "F8F6F4" and src == "SS":  # C++ specialises MMA_Traits<Op, types..., M, N, ...> here
        ic = "integral_constant"
        cpp = (
            f"MMA_Traits<{op},{a},{b},{c},C<{mm}>,C<{n}>,{ic}<UMMA::Major,UMMA::Major::{ma}>,"
            f"{ic}<UMMA::Major,UMMA::Major::{mb}>,{ic}<UMMA::ScaleIn,UMMA::ScaleIn::One>,"
            f"{ic}<UMMA::ScaleIn,UMMA::ScaleIn::One>>"
        )
    else:
        cpp = f"{op}<{a},{b},{c},{mm},{n},UMMA::Major::{ma},UMMA::Major::{mb}>"
    thr = Layout(2, 1) if two_sm else Layout(1, 0)
    A, B, C = umma_layout(mm, k, two_sm), umma_layout(n, k, two_sm), umma_layout(mm, n, two_sm)
    return MMAAtom(name, (mm, n, k), thr, A, B, C, (c, a, b, c), cpp)


#: atoms C++ names whose layouts are not Layouts (shape and stride nest differently)
_NOT_A_LAYOUT = {
    f"SM80_16x8x128_S32U1U1S32_TN_{op}": "((4,8),(32,2)):((512,1),((16,8)))" for op in ("XORPOPC", "ANDPOPC")
}


_T = r"([a-z0-9_]+)"
_UFMA_RE = re.compile(rf"UniversalFMA(?:<{_T}(?:,{_T})?(?:,{_T})?(?:,{_T})?>)?")


def _ufma(name: str) -> MMAAtom | None:
    """C++ ``UniversalFMA<D, A = D, B = A, C = D>`` (``cute/arch/mma.hpp``): 1 to 4 types."""
    m = _UFMA_RE.fullmatch(name.replace(" ", ""))
    if m is None:
        return None
    d = m.group(1) or "float"
    a = m.group(2) or d
    b, c = (m.group(3) or a), (m.group(4) or d)
    z = Layout((1, 1), (0, 0))
    return MMAAtom(name, (1, 1, 1), Layout(1, 0), z, z, z, (d, a, b, c), f"UniversalFMA<{d},{a},{b},{c}>")


def mma_atom(name: str) -> MMAAtom:
    """The MMA atom C++ calls ``name`` (see the module docstring for templated names).

    Pre:  ``name`` is a string naming a known atom (else ``CutepyError``; see :func:`mma_atoms`).
    Post: an :class:`MMAAtom` whose TV layouts are C++'s ``ALayout``/``BLayout``/``CLayout``:
          ``(thread, value) -> m + M*k`` (A), ``n + N*k`` (B), ``m + M*n`` (C).

    >>> mma_atom("SM70_8x8x4_F32F16F16F32_NT").tv_layout_A
    ((4,2),4):((8,4),1)
    >>> mma_atom("SM80_16x8x8_F16")
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: unknown MMA atom 'SM80_16x8x8_F16' (see cutepy.mma_atoms() for the names)
    """
    if not isinstance(name, str):
        raise CutepyError(f"an MMA atom is named by a string, not {short_repr(name)}")
    fixed = "SM90_" + name[len("SM90::MMA_"):] if name.startswith("SM90::MMA_") else name
    if fixed in _fixed():
        shape, thr, A, B, C = _fixed()[fixed]
        types = (
            ("int32_t", "int8_t", "int8_t", "int32_t")
            if name == "SM61_DP4A"
            else (
                ("int32_t", "int16_t", "int16_t", "int32_t")
                if name == "SM61_DP2A"
                else _GC64_TYPES
                if fixed == "SM80_8x8x4_GC64C64C64GC64_TN"
                else _types(fixed.split("_")[2])
            )
        )
        return MMAAtom(name, shape, thr, A, B, C, types, fixed)
    if name in _NOT_A_LAYOUT:
        raise CutepyError(
            f"{name}: C++'s ALayout {_NOT_A_LAYOUT[name]} nests its shape and stride differently, "
            "so it is not a layout cutepy can hold"
        )
    atom = _gmma(name) or _sm120(name) or _umma(name) or _ufma(name) or _ext_atom(name) or _vendor_atom(name)
    if atom is None:
        raise CutepyError(f"unknown MMA atom {name!r} (see cutepy.mma_atoms() for the names)")
    return atom


def mma_atoms(vendor: str = "nvidia") -> list[str]:
    """Every atom name :func:`mma_atom` knows (templated atoms in their default spelling).

    ``vendor`` picks the family: ``"nvidia"`` (C++ CuTe's atoms, the default; the block-scaled and
    sparse UMMA ones are listed by :func:`~cutepy.kernels.atoms.umma_ext.umma_ext_atoms`), ``"amd"``
    (MFMA and WMMA), ``"intel"`` (Xe DPAS, sycl-tla's names), ``"x86"`` (AMX) or ``"all"``.

    Pre:  ``vendor`` is one of those (else ``CutepyError``).
    Post: a list of names, each accepted by :func:`mma_atom`.

    >>> names = mma_atoms()
    >>> "SM80_16x8x16_F32BF16BF16F32_TN" in names, "SM90_64x248x16_F32F16F16_RS" in names
    (True, True)
    >>> "cdna3::v_mfma_f32_32x32x8_f16" in mma_atoms("amd"), "TDPBF16PS" in mma_atoms("x86")
    (True, True)
    """
    if vendor not in ("nvidia", *vendors.VENDORS, "all"):
        others = ", ".join(map(repr, vendors.VENDORS))
        raise CutepyError(f"mma_atoms: vendor must be 'nvidia', {others} or 'all', not {vendor!r}")
    nvidia = list(_fixed()) + _gmma_names() + _sm120_names() + _umma_names() + ["UniversalFMA"]
    if vendor == "nvidia":
        return nvidia
    if vendor == "all":
        others = [n for v in vendors.VENDORS for n in vendors.names(v)]
        ext = umma_ext.umma_ext_atoms(every_n=True) + gmma_sparse.gmma_sparse_atoms()
        return nvidia + ext + sm120_ext.sm120_ext_atoms() + others
    return vendors.names(vendor)


def _ext_atom(name: str) -> MMAAtom | None:
    """A block-scaled or sparse SM100/SM103 UMMA atom (``cutepy.kernels.atoms.umma_ext``) or a sparse
    SM90 GMMA atom (``gmma_sparse``) or an SM120 sparse or block-scaled one (``sm120_ext``), or None."""
    return umma_ext.lookup(name) or gmma_sparse.lookup(name) or sm120_ext.lookup(name)


def _vendor_atom(name: str) -> MMAAtom | None:
    """An AMD, Intel or x86 atom (``cutepy.kernels.atoms.vendors``), or None."""
    return vendors.lookup(name)
