"""SM120 sparse and block-scaled warp-level MMA atoms, as CUTLASS 4.7 defines them
(``cute/arch/mma_sm120.hpp``, ``mma_sm120_sparse.hpp``, ``cute/atom/mma_traits_sm120.hpp``,
``mma_traits_sm120_sparse.hpp``).

Names are C++'s types:

- ``SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<A,B,C,SF,VS>``: the F8F6F4 ``mma.sync`` with one
  ``float_ue8m0_t`` scale per 32 elements of K (``VS`` 32);
- ``SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,SF,VS>``: FP4, ``VS``
  16 (NVFP4, ``float_ue4m3_t``) or 32 (MXFP4, ``float_ue8m0_t``);
- ``SM120::SPARSE::SM120_SPARSE_16x8x64_TN<A,B,C>`` and the block-scaled sparse
  ``SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<...>`` (``VS`` 32) and
  ``..._16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,SF,VS>`` (``VS`` 32 or 64).

Block-scaled atoms carry the scale factors' thread-value layouts (C++'s ``SFALayout``,
``SFBLayout``: ``(thread, value) -> m + 16*k`` of the factor's element, 16 and 8 threads
effectively); sparse ones the metadata's (``ELayout``) where C++ gives one.

>>> from cutepy import mma_atom
>>> a = mma_atom("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,"
...              "float_ue4m3_t,16>")
>>> a.shape_mnk, a.sf_vec_size, a.tv_layout_SFA
((16, 8, 64), 16, ((2,2,8),64):((8,0,1),16))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import MMAAtom
from .umma_ext import BlockScaledMMAAtom, SparseMMAAtom

_F8F6F4 = ("float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t")
_T32 = Layout(32, 1)
_C = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))  # SM120_16x8_Row (= SM80_16x8_Row)
_A32 = Layout(((4, 8), (4, 2, 2)), ((64, 1), (16, 8, 256)))  # SM80_16x8x32 8-bit A
_B32 = Layout(((4, 8), (4, 2)), ((32, 1), (8, 128)))
_A64 = Layout(((4, 8), (8, 2, 2)), ((128, 1), (16, 8, 512)))
_B64 = Layout(((4, 8), (8, 2)), ((64, 1), (8, 256)))
_B64_SPARSE = Layout(((4, 8), (4, 4)), ((32, 1), (8, 128)))
_E64 = Layout(((2, 2, 8), 32), ((8, 512, 1), 16))
_A128 = Layout(((4, 8), (16, 2, 2)), ((256, 1), (16, 8, 1024)))
_B128 = Layout(((4, 8), (8, 4)), ((64, 1), (8, 256)))


def _sfa(k: int) -> Layout:
    return Layout(((2, 2, 8), k), ((8, 0, 1), 16))


def _sfb(k: int) -> Layout:
    return Layout(((4, 8), k), ((0, 1), 8))


@dataclass(frozen=True)
class WarpBlockScaledMMAAtom(BlockScaledMMAAtom):
    """A warp-level block-scaled atom (SM120): :class:`BlockScaledMMAAtom` with the scale factors'
    thread-value layouts ``tv_layout_SFA`` (``(thread, value) -> m + M*k``) and ``tv_layout_SFB``
    (``n + N*k``), and, when ``sparse``, the metadata's ``tv_layout_E`` (None when C++ gives none).

    >>> from cutepy import mma_atom
    >>> mma_atom("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,"
    ...          "float_ue8m0_t,32>").tv_layout_SFB
    ((4,8),32):((0,1),8)
    """

    tv_layout_SFA: Layout | None = None
    tv_layout_SFB: Layout | None = None
    tv_layout_E: Layout | None = None


_T = r"([a-z0-9_]+)"
_RE = (
    r"SM120::(BLOCKSCALED::SPARSE::SM120_SPARSE|BLOCKSCALED::SM120|SPARSE::SM120_SPARSE)"
    rf"_16x8x(32|64|128)_TN(_VS)?<{_T},{_T},{_T}(?:,{_T},(\d+))?>"
)


def lookup(name: str) -> MMAAtom | None:
    """The SM120 sparse or block-scaled atom ``name``, or None when the name is not one."""
    m = re.fullmatch(_RE, name.replace(" ", ""))
    if m is None:
        return None
    kind, k, vs_suffix, a, b, c, sf, vs = m.groups()
    k = int(k)
    scaled, sparse = kind.startswith("BLOCKSCALED"), "SPARSE" in kind
    if scaled != bool(vs_suffix) or scaled != (sf is not None):
        return None
    fp4_only = k == 128 or (k == 64 and not sparse)
    known = {(True, False, 32), (True, False, 64), (False, True, 64), (True, True, 64), (True, True, 128)}
    if (scaled, sparse, k) not in known:
        return None
    ok_ab = ("float_e2m1_t",) if fp4_only else _F8F6F4
    if a not in ok_ab or b not in ok_ab:
        raise CutepyError(f"{name}: C++ specialises this MMA for A and B among {ok_ab}")
    if c != "float":
        raise CutepyError(f"{name}: the accumulator type C is float, not {c}")
    cpp = f"SM120::{kind}_16x8x{k}_TN{vs_suffix or ''}<{a},{b},{c}" + (f",{sf},{vs}>" if scaled else ">")
    if not scaled:
        return SparseMMAAtom(name, (16, 8, 64), _T32, _A64, _B64_SPARSE, _C, (c, a, b, c), cpp, _E64, 2)
    vec = int(vs)
    sfs = ("float_ue4m3_t", "float_ue8m0_t") if fp4_only else ("float_ue8m0_t",)
    if sf not in sfs:
        raise CutepyError(f"{name}: the scale-factor type SF is one of {sfs}, not {sf}")
    want = {32: (32,), 64: (16, 32) if not sparse else (32,), 128: (32, 64)}[k]
    if vec not in want:
        raise CutepyError(f"{name}: C++ takes the scale-vector size VS among {want}, not {vec}")
    if k == 128 and sf == "float_ue4m3_t" and vec != 32:
        raise CutepyError(f"{name}: VS=64 needs float_ue8m0_t scale factors (C++'s static_assert)")
    A, B = {32: (_A32, _B32), 64: (_A64, _B64_SPARSE if sparse else _B64), 128: (_A128, _B128)}[k]
    sf_k = 64 if sparse and k == 64 else k
    return WarpBlockScaledMMAAtom(name, (16, 8, k), _T32, A, B, _C, (c, a, b, c), cpp, sf, vec, sparse,
                                  _sfa(sf_k), _sfb(sf_k), _E64 if sparse and k == 64 else None)


def sm120_ext_atoms() -> list[str]:
    """The SM120 sparse and block-scaled atom names, one per C++ specialisation (and scale-vector
    size where C++ takes two).

    Pre:  none.
    Post: distinct names, each accepted by ``mma_atom``.

    >>> len(sm120_ext_atoms())
    79
    """
    pairs = [(a, b) for a in _F8F6F4 for b in _F8F6F4]
    out = [f"SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<{a},{b},float,float_ue8m0_t,32>" for a, b in pairs]
    out += [f"SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,{sf},{vs}>"
            for sf, vs in (("float_ue4m3_t", 16), ("float_ue8m0_t", 32))]
    out += [f"SM120::SPARSE::SM120_SPARSE_16x8x64_TN<{a},{b},float>" for a, b in pairs]
    out += [f"SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<{a},{b},float,float_ue8m0_t,32>"
            for a, b in pairs]
    fp4 = "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float"
    out += [f"{fp4},{sf},{vs}>" for sf, vs in (("float_ue4m3_t", 32), ("float_ue8m0_t", 64))]
    return out
