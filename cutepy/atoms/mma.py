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

- ``UniversalFMA`` is ``UniversalFMA<float>``; ``UniversalFMA<T>`` or ``UniversalFMA<D,A,B,C>``
  names the element types (the layouts do not depend on them).
- SM90 GMMA atoms are ``SM90_64x{N}x{K}_{types}_{SS|RS}[_TN][_SATURATE]`` exactly as the C++
  aliases. Those C++ templates on the operand majors (``F16F16F16``, ``F32F16F16``,
  ``F32BF16BF16``) may carry them as ``<K,K>``, ``<MN,K>``, ... (default ``<K,K>``; an RS atom
  needs a K-major A); the TF32 and FP8 ones take C++'s default scales. The layouts depend
  on neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import CutepyError
from ..layout import Layout

#: bits of the C++ element types the atoms use.
TYPE_BITS = {
    "half_t": 16,
    "bfloat16_t": 16,
    "tfloat32_t": 32,
    "float": 32,
    "double": 64,
    "int8_t": 8,
    "uint8_t": 8,
    "int32_t": 32,
    "float_e4m3_t": 8,
    "float_e5m2_t": 8,
    "complex<double>": 128,
    "int16_t": 16,
}
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
}


@dataclass(frozen=True)
class MMAAtom:
    """One MMA instruction: C++ ``MMA_Atom<Op>`` (``ThrID``, ``ALayout``, ``BLayout``, ``CLayout``).

    ``cpp_type`` is the C++ type that builds it (``MMA_Atom<cpp_type>``).

    >>> m = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    >>> m.shape_mnk, m.thr_id, m.tv_layout_C
    ((16, 8, 16), 32:1, ((4,8),(2,2)):((32,1),(16,8)))
    """

    name: str
    shape_mnk: tuple
    thr_id: Layout
    tv_layout_A: Layout
    tv_layout_B: Layout
    tv_layout_C: Layout
    element_types: tuple  # (D, A, B, C) C++ type names
    cpp_type: str

    @property
    def element_type_A(self) -> str:
        return self.element_types[1]

    @property
    def element_type_B(self) -> str:
        return self.element_types[2]

    @property
    def element_type_C(self) -> str:
        return self.element_types[3]

    def __str__(self) -> str:
        return (
            f"MMA_Atom {self.name}\n  ThrID:      {self.thr_id}\n"
            f"  Shape_MNK:  ({','.join(map(str, self.shape_mnk))})\n"
            f"  LayoutA_TV: {self.tv_layout_A}\n  LayoutB_TV: {self.tv_layout_B}\n"
            f"  LayoutC_TV: {self.tv_layout_C}"
        )

    def __repr__(self) -> str:
        return f"mma_atom({self.name!r})"


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


def _types(code: str) -> tuple:
    """``F32F16F16F32`` -> ("float", "half_t", "half_t", "float")."""
    parts = re.findall(r"BF16|TF32|F16|F32|F64|S8|U8|S32|E4M3|E5M2|C64", code)
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
    for ty in ("F64F64F64F64", "C64C64C64C64"):
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
                t[f"SM80_16x8x32_{ty}"] = (
                    (16, 8, 32),
                    _T32,
                    _L(((4, 8), (4, 2, 2)), ((64, 1), (16, 8, 256))),
                    _L(((4, 8), (4, 2)), ((32, 1), (8, 128))),
                    _SM80_16x8_Row,
                )
    return t


_FIXED = _fixed_atoms()

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


def _gmma(name: str) -> MMAAtom | None:
    m = _GMMA_RE.fullmatch(name)
    if m is None:
        return None
    n, k, ty, src, suf, ma, mb = m.groups()
    n, k = int(n), int(k)
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


_UFMA_RE = re.compile(r"UniversalFMA(?:<([a-z0-9_]+)(?:,([a-z0-9_]+),([a-z0-9_]+),([a-z0-9_]+))?>)?")


def _ufma(name: str) -> MMAAtom | None:
    m = _UFMA_RE.fullmatch(name.replace(" ", ""))
    if m is None:
        return None
    d = m.group(1) or "float"
    a, b, c = (m.group(2) or d), (m.group(3) or d), (m.group(4) or d)
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
    cutepy.errors.CutepyError: unknown MMA atom 'SM80_16x8x8_F16' (see cutepy.mma_atoms() for the names)
    """
    if not isinstance(name, str):
        raise CutepyError(f"an MMA atom is named by a string, not {name!r}")
    if name in _FIXED:
        shape, thr, A, B, C = _FIXED[name]
        types = (
            ("int32_t", "int8_t", "int8_t", "int32_t")
            if name == "SM61_DP4A"
            else (
                ("int32_t", "int16_t", "int16_t", "int32_t")
                if name == "SM61_DP2A"
                else _types(name.split("_")[2])
            )
        )
        return MMAAtom(name, shape, thr, A, B, C, types, name)
    atom = _gmma(name) or _ufma(name)
    if atom is None:
        raise CutepyError(f"unknown MMA atom {name!r} (see cutepy.mma_atoms() for the names)")
    return atom


def mma_atoms() -> list[str]:
    """Every atom name :func:`mma_atom` knows (templated atoms in their default spelling).

    Pre:  none.
    Post: a list of names, each accepted by :func:`mma_atom`.

    >>> names = mma_atoms()
    >>> "SM80_16x8x16_F32BF16BF16F32_TN" in names, "SM90_64x248x16_F32F16F16_RS" in names
    (True, True)
    """
    return list(_FIXED) + _gmma_names() + ["UniversalFMA"]
