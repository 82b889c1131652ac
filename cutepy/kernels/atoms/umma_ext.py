"""SM100 block-scaled and sparse UMMA atoms, and the block-scaled scale-factor layouts, as CUTLASS
4.7 defines them (``cute/arch/mma_sm100_umma.hpp``, ``cute/atom/mma_traits_sm100.hpp``,
``cutlass/detail/sm100_blockscaled_layout.hpp``).

Names are the C++ operations with their template arguments (majors ``K``/``MN`` or
``UMMA::Major::K``...; C++'s default ``ScaleIn::One`` negations):

- ``SM100_MMA_{TF32|F16BF16|S8|F8F6F4}[_2x1SM]_SS_SPARSE<A,B,C,M,N,a_major,b_major>``: 2:4
  structured-sparse A (K is twice the dense atom's: 512 bits of A);
- ``SM100_MMA_MXF8F6F4[_2x1SM]_SS[_SPARSE]<A,B,C,SF,M,N,a_major,b_major>``: MX block-scaled
  8/6/4-bit inputs, one ``SF`` (``float_ue8m0_t``) per 32 elements of K (64 of the sparse A's
  logical K);
- ``SM100_MMA_MXF4[_2x1SM]_SS<A,B,C,SF,M,N,VS,a_major,b_major>`` and
  ``SM100_MMA_MXF4NVF4[_2x1SM]_SS_SPARSE<...>``: 4-bit inputs, one ``SF`` per ``VS`` elements
  (``VS`` 16 with ``float_ue4m3_t``: NVFP4; 32 with ``float_ue8m0_t``: MXFP4);
- ``SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<A,B,C,SF,M,N,VS,a_major,b_major>`` (SM103's K = 96).

The TV layouts are UMMA's: one thread holds the whole tile (two, one per CTA, for ``2x1SM``).

>>> from cutepy import mma_atom
>>> a = mma_atom("SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,16,K,K>")
>>> a.shape_mnk, a.sf_vec_size, a.sf_type
((128, 64, 64), 16, 'float_ue4m3_t')
>>> mma_atom("SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64,K,K>").shape_mnk
(128, 64, 32)

The scale factors of an ``M x K`` operand lie in the layout
``Sm1xxBlockScaledConfig<VS>::tile_atom_to_shape_SFA``: :func:`blockscaled_sf_layout`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...algebra.products import tile_to_shape
from ...core.errors import CutepyError
from ...core.layout import Layout
from .mma_types import UMMA_TYPES, MMAAtom, umma_layout

#: the scale-factor element types and their bits
SF_TYPES = {"float_ue8m0_t": 8, "float_ue4m3_t": 8}
_F8F6F4 = ("float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t")
_BITS = {"tfloat32_t": 32, "half_t": 16, "bfloat16_t": 16, "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8,
         "float_e5m2_t": 8, "float_e2m3_t": 6, "float_e3m2_t": 6, "float_e2m1_t": 4}


@dataclass(frozen=True)
class BlockScaledMMAAtom(MMAAtom):
    """An MMA atom whose A and B carry one scale factor of ``sf_type`` per ``sf_vec_size``
    elements of K (C++'s ``ValTypeSFA``/``ValTypeSFB`` and ``SFVecSize``); ``sparse`` for the
    2:4-sparse ones.

    >>> from cutepy import mma_atom
    >>> a = mma_atom("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,128,K,K>")
    >>> a.sf_vec_size, a.shape_mnk[2] // a.sf_vec_size
    (32, 1)
    """

    sf_type: str = "float_ue8m0_t"
    sf_vec_size: int = 32
    sparse: bool = False


@dataclass(frozen=True)
class SparseMMAAtom(MMAAtom):
    """An MMA atom with a 2:4 structured-sparse A: K counts A's logical (uncompressed) columns,
    half of which the instruction reads, with their metadata (``tv_layout_E`` where C++'s traits
    give an ``ELayout``; None when the metadata lives in tensor memory, as for UMMA).

    >>> from cutepy import mma_atom
    >>> mma_atom("SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,int32_t,64,8,K,K>").sparsity
    2
    """

    tv_layout_E: Layout | None = None
    sparsity: int = 2


def _n_rule(lo: int, step: int) -> tuple[int, ...]:
    return tuple(range(lo, 257, step))


#: (family, two_sm) -> (M -> valid N), as the static_asserts of mma_sm100_umma.hpp say
_SHAPES = {
    ("TF32_SPARSE", False): {64: _n_rule(8, 8), 128: _n_rule(8, 8)},
    ("TF32_SPARSE", True): {128: _n_rule(16, 16), 256: _n_rule(16, 16)},
    ("F16BF16_SPARSE", False): {64: _n_rule(8, 8), 128: _n_rule(8, 8)},
    ("F16BF16_SPARSE", True): {128: _n_rule(16, 16), 256: _n_rule(16, 16)},
    ("S8_SPARSE", False): {64: (8, *_n_rule(16, 16)), 128: (8, *_n_rule(16, 16))},
    ("S8_SPARSE", True): {128: _n_rule(32, 32), 256: _n_rule(32, 32)},
    ("F8F6F4_SPARSE", False): {64: _n_rule(8, 8), 128: _n_rule(16, 16)},
    ("F8F6F4_SPARSE", True): {128: _n_rule(32, 32), 256: _n_rule(32, 32)},
    ("MXF8F6F4", False): {128: _n_rule(8, 8)},
    ("MXF8F6F4", True): {256: _n_rule(16, 16)},
    ("MXF8F6F4_SPARSE", False): {128: _n_rule(8, 8)},
    ("MXF8F6F4_SPARSE", True): {256: _n_rule(16, 16)},
    ("MXF4", False): {128: _n_rule(8, 8)},
    ("MXF4", True): {128: _n_rule(16, 16), 256: _n_rule(16, 16)},
    ("MXF4NVF4_SPARSE", False): {128: _n_rule(8, 8)},
    ("MXF4NVF4_SPARSE", True): {128: _n_rule(16, 16), 256: _n_rule(16, 16)},
    ("MXF4_ULTRA", False): {128: _n_rule(16, 16)},
    ("MXF4_ULTRA", True): {128: _n_rule(16, 16), 256: _n_rule(16, 16)},
}
#: family -> (K, allowed vector sizes or None, sparse)
_FAMILY = {
    "MXF8F6F4": (32, None, False), "MXF8F6F4_SPARSE": (64, None, True), "MXF4": (64, (16, 32), False),
    "MXF4NVF4_SPARSE": (128, (32, 64), True), "MXF4_ULTRA": (96, (16, 32), False),
}
_M = r"(?:UMMA::Major::)?(K|MN)"
_T = r"([a-z0-9_]+)"
_SPARSE_RE = (
    rf"SM100_MMA_(TF32|F16BF16|S8|F8F6F4)_(2x1SM_)?SS_SPARSE<{_T},{_T},{_T},(\d+),(\d+),{_M},{_M}>"
)
_MX_RE = (
    rf"(?:SM100_MMA_(MXF8F6F4|MXF4|MXF4NVF4)|(?:SM103::)?SM103_(MXF4_ULTRA))_(2x1SM_)?SS(_SPARSE|_VS)?"
    rf"<{_T},{_T},{_T},{_T},(\d+),(\d+),(?:(\d+),)?{_M},{_M}>"
)


def _check_shape(name: str, fam: str, two: bool, m: int, n: int) -> None:
    rule = _SHAPES[(fam, two)]
    if m not in rule or n not in rule[m]:
        ms = ", ".join(f"M={mm}: N in {ns[0]}..{ns[-1]} step {ns[-1] - ns[-2]}" for mm, ns in rule.items())
        raise CutepyError(f"{name}: C++ does not accept M={m}, N={n} ({ms})")


def _sparse(name: str) -> MMAAtom | None:
    mt = re.fullmatch(_SPARSE_RE, name)
    if mt is None:
        return None
    kind, two, a, b, c, m, n, ma, mb = mt.groups()
    m, n, two_sm = int(m), int(n), bool(two)
    if (a, b, c) not in UMMA_TYPES[kind]:
        raise CutepyError(f"{name}: SM100_MMA_{kind}_SS_SPARSE takes (A, B, C) among {UMMA_TYPES[kind]}")
    _check_shape(name, f"{kind}_SPARSE", two_sm, m, n)
    k = 64 if kind == "F8F6F4" else 512 // _BITS[a]
    op = f"SM100_MMA_{kind}_{two or ''}SS_SPARSE"
    cpp = f"{op}<{a},{b},{c},{m},{n},UMMA::Major::{ma},UMMA::Major::{mb}>"
    thr = Layout(2, 1) if two_sm else Layout(1, 0)
    return SparseMMAAtom(name, (m, n, k), thr, umma_layout(m, k, two_sm), umma_layout(n, k, two_sm),
                         umma_layout(m, n, two_sm), (c, a, b, c), cpp)


def _scaled(name: str) -> MMAAtom | None:
    mt = re.fullmatch(_MX_RE, name)
    if mt is None:
        return None
    fam100, ultra, two, suffix, a, b, c, sf, m, n, vs, ma, mb = mt.groups()
    fam = fam100 or ultra
    if ultra is not None and suffix != "_VS" or ultra is None and suffix == "_VS":
        return None
    fam = fam + ("_SPARSE" if suffix == "_SPARSE" else "")
    if fam not in _FAMILY:
        return None
    k, vss, sparse = _FAMILY[fam]
    m, n, two_sm = int(m), int(n), bool(two)
    if (vss is None) != (vs is None):
        raise CutepyError(f"{name}: {'give' if vss else 'no'} scale-vector size VS "
                          f"{'between N and the majors' if vss else 'in this operation'}")
    four = fam.startswith("MXF4")
    ok_ab = ("float_e2m1_t",) if four else _F8F6F4
    if a not in ok_ab or b not in ok_ab:
        raise CutepyError(f"{name}: A and B must be among {ok_ab}")
    if c not in ("float", "half_t"):
        raise CutepyError(f"{name}: the accumulator type C is float or half_t, not {c}")
    if sf not in SF_TYPES or (not four and sf != "float_ue8m0_t"):
        raise CutepyError(f"{name}: the scale-factor type SF is {'float_ue8m0_t' if not four else 'one of '}"
                          f"{'' if not four else ', '.join(SF_TYPES)}, not {sf}")
    vec = (64 if sparse else 32) if vs is None else int(vs)  # C++: MXF8F6F4's SFVecSize, doubled when sparse
    if vss is not None and vec not in vss:
        raise CutepyError(f"{name}: C++ takes the scale-vector size VS among {vss}, not {vec}")
    doubled = {"MXF4": 32, "MXF4NVF4_SPARSE": 64, "MXF4_ULTRA": 32}.get(fam)  # C++'s "2x mode"
    if vec == doubled and sf != "float_ue8m0_t" and not (fam == "MXF4" and two_sm):
        raise CutepyError(f"{name}: VS={vec} needs float_ue8m0_t scale factors (C++'s static_assert)")
    _check_shape(name, fam, two_sm, m, n)
    if ultra is not None:
        op = f"SM103::SM103_MXF4_ULTRA_{two or ''}SS_VS"
    else:
        op = f"SM100_MMA_{fam100}_{two or ''}SS{suffix or ''}"
    vs_arg = f"{vec}," if vs is not None else ""
    cpp = f"{op}<{a},{b},{c},{sf},{m},{n},{vs_arg}UMMA::Major::{ma},UMMA::Major::{mb}>"
    thr = Layout(2, 1) if two_sm else Layout(1, 0)
    return BlockScaledMMAAtom(name, (m, n, k), thr, umma_layout(m, k, two_sm), umma_layout(n, k, two_sm),
                              umma_layout(m, n, two_sm), (c, a, b, c), cpp, sf, vec, sparse)


def lookup(name: str) -> MMAAtom | None:
    """The block-scaled or sparse SM100/SM103 atom ``name``, or None when it is not one."""
    key = name.replace(" ", "")
    return _sparse(key) or _scaled(key)


def _sample(ns: tuple[int, ...]) -> list[int]:
    return sorted({ns[0], ns[1], ns[len(ns) // 2], ns[-1]})


def umma_ext_atoms(every_n: bool = False) -> list[str]:
    """Names of the block-scaled and sparse SM100/SM103 atoms: for each family and M, every N
    C++ accepts (``every_n``) or four of them (the two smallest, a middle one, the largest),
    with the family's first types and K-major operands.

    Pre:  ``every_n`` a bool.
    Post: distinct names, each accepted by ``mma_atom``.

    >>> names = umma_ext_atoms()
    >>> names[0]
    'SM100_MMA_TF32_SS_SPARSE<tfloat32_t,tfloat32_t,float,64,8,K,K>'
    >>> len(names), len(umma_ext_atoms(every_n=True))
    (116, 578)
    """
    if type(every_n) is not bool:
        raise CutepyError(f"umma_ext_atoms: every_n must be a bool, not {every_n!r}")
    out = []
    for (fam, two), rule in _SHAPES.items():
        t2 = "2x1SM_" if two else ""
        for m, ns in rule.items():
            for n in ns if every_n else _sample(ns):
                if fam.endswith("_SPARSE") and fam.split("_")[0] in UMMA_TYPES:
                    kind = fam.split("_")[0]
                    a, b, c = UMMA_TYPES[kind][0]
                    out.append(f"SM100_MMA_{kind}_{t2}SS_SPARSE<{a},{b},{c},{m},{n},K,K>")
                elif fam.startswith("MXF8F6F4"):
                    sp = "_SPARSE" if fam.endswith("_SPARSE") else ""
                    out.append(f"SM100_MMA_MXF8F6F4_{t2}SS{sp}<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,"
                               f"{m},{n},K,K>")
                else:
                    op = {"MXF4": f"SM100_MMA_MXF4_{t2}SS",
                          "MXF4NVF4_SPARSE": f"SM100_MMA_MXF4NVF4_{t2}SS_SPARSE",
                          "MXF4_ULTRA": f"SM103::SM103_MXF4_ULTRA_{t2}SS_VS"}[fam]
                    vs = 32 if fam == "MXF4NVF4_SPARSE" else 16
                    sf = "float_ue8m0_t" if vs == 32 else "float_ue4m3_t"
                    out.append(f"{op}<float_e2m1_t,float_e2m1_t,float,{sf},{m},{n},{vs},K,K>")
    return out


def blockscaled_sf_atom(sf_vec_size: int, major: str = "K") -> Layout:
    """C++'s ``Sm1xxBlockScaledBasicChunk<SFVecSize, major>::SfAtom``: the scale factors of a
    128 x (4 * ``sf_vec_size``) block of an operand, ``(mn, k) -> offset`` with K-major chunks of
    4 factors and the 128 rows as (32, 4), each factor broadcast over its ``sf_vec_size``
    elements (stride 0).

    Pre:  ``sf_vec_size`` a positive int; ``major`` ``"K"`` or ``"MN"`` (else ``CutepyError``).
    Post: a layout of size ``128 * 4 * sf_vec_size`` and cosize 512 (128 x 4 factors).

    >>> blockscaled_sf_atom(32)
    ((32,4),(32,4)):((16,4),(0,1))
    >>> blockscaled_sf_atom(16, "MN")
    ((16,4),(32,4)):((0,1),(16,4))
    """
    if type(sf_vec_size) is not int or sf_vec_size < 1:
        raise CutepyError(f"blockscaled_sf_atom: sf_vec_size must be a positive int, not {sf_vec_size!r}")
    if major not in ("K", "MN"):
        raise CutepyError(f"blockscaled_sf_atom: major must be 'K' or 'MN', not {major!r}")
    if major == "K":
        return Layout(((32, 4), (sf_vec_size, 4)), ((16, 4), (0, 1)))
    return Layout(((sf_vec_size, 4), (32, 4)), ((0, 1), (16, 4)))


def blockscaled_sf_layout(sf_vec_size: int, mn: int, k: int, batches: int | None = None) -> Layout:
    """C++'s ``Sm1xxBlockScaledConfig<SFVecSize>::tile_atom_to_shape_SFA`` (and ``_SFB``) for an
    ``mn x k`` operand (``x batches``): the K-major :func:`blockscaled_sf_atom` tiled over
    ``(mn, k[, batches])`` K first (``tile_to_shape(SfAtom, (MN, K[, L]), Step<2,1[,3]>)``):
    ``(m, k[, l]) -> `` the offset of the scale factor of element ``(m, k)``.

    Pre:  ``mn`` a positive multiple of 128, ``k`` of ``4 * sf_vec_size``, ``batches`` positive
          or None (else ``CutepyError`` naming the argument).
    Post: ``L(m, k[, l])`` is the same for the ``sf_vec_size`` elements of a K-run and distinct
          across runs: ``cosize(L) = mn * k / sf_vec_size (* batches)``.

    >>> blockscaled_sf_layout(32, 256, 256)
    (((32,4),2),((32,4),2)):(((16,4),1024),((0,1),512))
    """
    atom = blockscaled_sf_atom(sf_vec_size)
    for arg, v, q in (("mn", mn, 128), ("k", k, 4 * sf_vec_size)):
        if type(v) is not int or v < 1 or v % q:
            raise CutepyError(f"blockscaled_sf_layout: {arg} must be a positive multiple of {q}, not {v!r}")
    if batches is None:
        return tile_to_shape(atom, (mn, k), (2, 1))
    if type(batches) is not int or batches < 1:
        raise CutepyError(f"blockscaled_sf_layout: batches must be a positive int or None, not {batches!r}")
    return tile_to_shape(atom, (mn, k, batches), (2, 1, 3))


__all__ = ["BlockScaledMMAAtom", "SparseMMAAtom", "blockscaled_sf_atom", "blockscaled_sf_layout",
           "umma_ext_atoms"]
