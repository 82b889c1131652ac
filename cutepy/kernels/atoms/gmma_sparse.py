"""SM90 sparse GMMA atoms (``wgmma.mma_async.sp``), as CUTLASS 4.7 defines them
(``cute/arch/mma_sm90_gmma_sparse.hpp``, ``_ext.hpp``, ``cute/atom/mma_traits_sm90_gmma_sparse.hpp``).

A 2:4 structured-sparse A: each atom has twice the K of the dense GMMA of its types (32 for
16-bit inputs, 16 for TF32, 64 for 8-bit), the same N, and a metadata layout ``tv_layout_E``
(C++'s ``ELayout``). Names are C++'s, ``SM90::GMMA::SPARSE::GMMA_64x{N}x{K}_{types}_{SS|RS}
[_TN][_SATURATE]`` with the 16-bit families' operand majors as ``<K,K>``, ``<MN,K>`` ...
(default ``<K,K>``; an RS atom needs a K-major A) and C++'s default scales and sparsity selector.

>>> from cutepy import mma_atom
>>> a = mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x32_F32F16F16_RS")
>>> a.shape_mnk, a.tv_layout_A, a.tv_layout_E
((64, 64, 32), ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024)), ((2,2,8,4),(16,2)):((1024,0,1,16),(64,8)))
"""

from __future__ import annotations

import re

from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import MMAAtom
from .umma_ext import SparseMMAAtom

#: N of the 16-bit, TF32 and FP8 sparse GMMA atoms, and of the integer ones (as the dense ones)
N_ALL = tuple(range(8, 257, 8))
N_INT = (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256)
_CODE = {"F16": "half_t", "BF16": "bfloat16_t", "TF32": "tfloat32_t", "F32": "float", "S8": "int8_t",
         "U8": "uint8_t", "S32": "int32_t", "E4M3": "float_e4m3_t", "E5M2": "float_e5m2_t"}
#: (types, K, suffixes after SS/RS, Ns, template parameters)
FAMILIES = (
    [(t, 32, ("",), N_ALL, "majors") for t in ("F16F16F16", "F32F16F16", "F32BF16BF16")]
    + [("F32TF32TF32", 16, ("_TN",), N_ALL, "scales")]
    + [(f"S32{a}{b}", 64, ("_TN", "_TN_SATURATE"), N_INT, "spsel")
       for a in ("S8", "U8") for b in ("S8", "U8")]
    + [(f"{d}{a}{b}", 64, ("_TN",), N_ALL, "scales") for d in ("F16", "F32") for a in ("E4M3", "E5M2")
       for b in ("E4M3", "E5M2")]
)
_RE = (r"SM90::GMMA::SPARSE::GMMA_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)((?:_TN)?(?:_SATURATE)?)"
                 r"(?:<(?:GMMA::Major::)?(K|MN),(?:GMMA::Major::)?(K|MN)>)?")


def _a_rs(k: int) -> Layout:
    """C++'s ``GMMA::ALayout_64x{K}`` for K = 16, 32, 64 (register-sourced sparse A)."""
    r = k // 8
    return Layout(((4, 8, 4), (r, 2, 2)), ((8 * k, 1, 16), (64, 8, 32 * k)))


def _e(k: int) -> Layout:
    """C++'s ``GMMA::ELayout_64x{K}`` (the metadata of a 64 x K sparse A)."""
    if k == 64:
        return Layout(((2, 2, 8, 4), (32,)), ((8, 2048, 1, 16), (64,)))
    return Layout(((2, 2, 8, 4), (k // 2, 2)), ((32 * k, 0, 1, 16), (64, 8)))


def lookup(name: str) -> MMAAtom | None:
    """The sparse GMMA atom ``name``, or None when the name is not one."""
    m = re.fullmatch(_RE, name.replace(" ", ""))
    if m is None:
        return None
    n, k, ty, src, suf, ma, mb = m.groups()
    n, k = int(n), int(k)
    fam = next((f for f in FAMILIES if f[0] == ty and f[1] == k and suf in f[2]), None)
    if fam is None:
        return None
    if n not in fam[3]:
        ns = "multiples of 8" if fam[3] is N_ALL else ", ".join(map(str, fam[3]))
        raise CutepyError(f"{name}: C++ defines this sparse GMMA for N in {ns}, not {n}")
    if ma is not None and fam[4] != "majors":
        raise CutepyError(f"{name}: only the 16-bit sparse GMMAs take operand majors")
    ma, mb = ma or "K", mb or "K"
    if src == "RS" and ma != "K":
        raise CutepyError(f"{name}: a register-sourced (RS) sparse GMMA needs a K-major A")
    base = f"SM90::GMMA::SPARSE::GMMA_64x{n}x{k}_{ty}_{src}{suf}"
    cpp = base + (f"<GMMA::Major::{ma},GMMA::Major::{mb}>" if fam[4] == "majors" else "<>")
    d, a, b = (_CODE[p] for p in re.findall("BF16|TF32|F16|F32|S8|U8|S32|E4M3|E5M2", ty))
    A = Layout((128, (64, k)), (0, (1, 64))) if src == "SS" else _a_rs(k)
    B = Layout((128, (n, k)), (0, (1, n)))
    C = Layout(((4, 8, 4), (2, 2, n // 8)), ((128, 1, 16), (64, 8, 512)))
    return SparseMMAAtom(name, (64, n, k), Layout(128, 1), A, B, C, (d, a, b, d), cpp, _e(k), 2)


def gmma_sparse_atoms() -> list[str]:
    """Every sparse GMMA name (SS and RS, each N, default majors).

    Pre:  none.
    Post: distinct names, each accepted by ``mma_atom``.

    >>> names = gmma_sparse_atoms()
    >>> len(names), names[0]
    (1056, 'SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS')
    """
    return [f"SM90::GMMA::SPARSE::GMMA_64x{n}x{k}_{ty}_{src}{suf}"
            for ty, k, sufs, ns, _ in FAMILIES for n in ns for src in ("SS", "RS") for suf in sufs]
