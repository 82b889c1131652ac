"""The MMA atoms added after the first table (SM80 4-bit and 1-bit integers, SM89 FP8, SM90 F64 and
complex<double>, SM100 UMMA and vectorized FMA, SM120 F8F6F4) against C++ CuTe 4.2.

Every such atom's ThrID, Shape_MNK, A/B/C TV layouts and element widths equal what C++ prints
for ``MMA_Atom<cpp_type>``; each case also instantiates the C++ operation and the atom, so the
operation's own static_asserts (UMMA's M/N rules) vouch that C++ accepts it. The prints are
stored in tests/data/atoms_mma_more.txt; regenerate them with::

    python -m tests.kernels.atoms.test_mma_more

(needs g++ and the CUTLASS/CUDA header wheels; about 3 minutes on 2 cores). The table also holds
the width C++ gives each element type of ``TYPE_BITS``, the print of the one ALayout cutepy cannot
hold, and whether C++ rejects a few UMMA shapes just outside the rules cutepy encodes.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import mma_atom, mma_atoms
from cutepy.kernels.atoms.mma import TYPE_BITS, UMMA_TYPES, umma_shapes
from cutepy.notation import parse
from tests.kernels.atoms.atoms_cxx import INCLUDES, MMA_FILE, mma_case, read_table
from tests.kernels.atoms.atoms_cxx import mma_fields as fields
from tests.kernels.tiled.partition_cxx47 import INT4_ATOMS
from tests.kernels.tiled.partition_cxx47 import read as read_cxx47
from tests.paths import DATA

HERE = Path(__file__).resolve().parent

MORE_FILE = DATA / "atoms_mma_more.txt"
MORE_INCLUDES = INCLUDES + (
    "cute/atom/mma_traits_sm89.hpp",
    "cute/atom/mma_traits_sm90.hpp",
    "cute/atom/mma_traits_sm100.hpp",
    "cute/atom/mma_traits_sm120.hpp",
)
#: the atoms C++ defines whose ALayout is not a Layout (cutepy refuses them)
INCONGRUENT = ("SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC")
FIRST_TABLE = set(read_table(MMA_FILE))
#: spellings mma_atom accepts beyond the listed names (other types and majors, peers' names);
#: each is compiled as the C++ type cutepy maps it to
VARIANTS = (
    "SM100_MMA_F8F6F4_SS<float_e2m1_t,float_e5m2_t,half_t,128,32,K,MN>",
    "SM100_MMA_F8F6F4_2x1SM_SS<float_e3m2_t,float_e2m3_t,float,256,64,MN,MN>",
    "SM100_MMA_F8F6F4_2x1SM_TS<float_e5m2_t,float_e4m3_t,half_t,128,96,K,MN>",
    "SM100_MMA_F16BF16_2x1SM_SS<bfloat16_t,bfloat16_t,float,256,48,MN,MN>",
    "SM100_MMA_F16BF16_TS<half_t,half_t,half_t,64,40,K,MN>",
    "SM100_MMA_S8_TS<uint8_t, int8_t, int32_t, 64, 8, UMMA::Major::K, UMMA::Major::MN>",
    "SM100_64x64x16_F16F16F16_SS",
    "SM100_128x256x8_F32TF32TF32F32_SS",
    "SM100_128x64x32_S32S8U8_TS",
    "SM120_16x8x32_F32E4M3E4M3F32_TN",
    "SM120_16x8x32_F16E2M1E5M2F16_TN",
    "SM120_16x8x32_TN<float_e3m2_t, float_e2m1_t, half_t>",
    "SM90::MMA_16x8x8_C64C64C64C64_TN",
    "SM90::MMA_16x8x16_F64F64F64F64_TN",
)


def new_names() -> list[str]:
    """The atoms this table covers: every listed atom the first table (atoms_mma.txt) lacks."""
    return [n for n in mma_atoms() if n not in FIRST_TABLE]


def atom_case(name: str) -> str:
    """The C++ block printing the atom, after instantiating its operation and the atom itself."""
    t = mma_atom(name).cpp_type
    return f"(void)sizeof({t}); {{ MMA_Atom<{t}> inst{{}}; (void)inst; }} " + mma_case(name)


def rejection_cases() -> list[tuple[str, str]]:
    """(key, C++ operation) for UMMA shapes just outside the rules: C++ must reject every one."""
    out = []
    for kind, types in UMMA_TYPES.items():
        a, b, c = types[0]
        for two in ("", "2x1SM_"):
            for src in ("SS", "TS"):
                ok = umma_shapes(kind, bool(two), src)
                ms = sorted({m for m, _ in ok})
                n_min = min(n for m, n in ok if m == ms[-1])
                bad = [(ms[0] // 2, 64), (ms[-1] * 2, 64), (ms[-1], n_min - 8), (ms[-1], 264)]
                gaps = [n for n in range(8, 257, 8) if (ms[-1], n) not in ok and n > n_min]
                bad += [(ms[-1], gaps[0])] if gaps else []
                key = f"reject:SM100_MMA_{kind}_{two}{src}"
                for m, n in bad:
                    assert (m, n) not in ok
                    out.append((f"{key}/{m}x{n}/K", _umma_op(kind, two, src, m, n)))
                if kind == "F8F6F4" and src == "SS":  # an MN-major B needs N a multiple of 16 (32)
                    mn_ok = umma_shapes(kind, bool(two), src, "MN")
                    m, n = next((m, n) for m, n in ok if m == ms[-1] and (m, n) not in mn_ok)
                    out.append((f"{key}/{m}x{n}/MN", _umma_op(kind, two, src, m, n, "MN")))
    return out


def _umma_op(kind: str, two: str, src: str, m: int, n: int, b_major: str = "K") -> str:
    """The C++ type of a UMMA atom with the kind's first element types, written out here."""
    a, b, c = UMMA_TYPES[kind][0]
    mb = f"UMMA::Major::{b_major}"
    if kind == "F8F6F4" and src == "SS":
        return (
            f"MMA_Traits<SM100_MMA_F8F6F4_{two}SS, {a}, {b}, {c}, Int<{m}>, Int<{n}>,"
            f" integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, {mb}>,"
            " integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>,"
            " integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>"
        )
    return f"SM100_MMA_{kind}_{two}{src}<{a}, {b}, {c}, {m}, {n}, UMMA::Major::K, {mb}>"


def type_bits_case(t: str) -> str:
    return f'printf("%d", int(sizeof_bits_v<{t.replace("complex<double>", "cutlass::complex<double>")}>));'


def incongruent_case(name: str) -> str:
    return f"print(typename MMA_Traits<{name}>::ALayout{{}});"


def main() -> None:
    from tests.cxx import cxx_harness

    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    keyed = [(n, atom_case(n)) for n in new_names() + list(VARIANTS)]
    keyed += [(f"sizeof_bits<{t}>", type_bits_case(t)) for t in sorted(TYPE_BITS)]
    keyed += [(f"ALayout:{n}", incongruent_case(n)) for n in INCONGRUENT]
    rejects = rejection_cases()
    res = cxx_harness.run_cases([c for _, c in keyed] + [f"(void)sizeof({op});" for _, op in rejects],
                                MORE_INCLUDES)
    rows = []
    for (key, _), r in zip(keyed, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {key}: {r.error[:500]}")
        rows.append((key, cxx_harness.normalise(r.output)))
    for (key, _), r in zip(rejects, res[len(keyed):]):
        verdict = "accepted" if r.ok else "rejected" if "static assertion failed" in r.error else "error"
        rows.append((key, verdict))
    head = (
        "# C++ CuTe (CUTLASS 4.2) prints, static-integer underscores dropped.\n"
        "# Regenerate: python -m tests.kernels.atoms.test_mma_more\n"
    )
    MORE_FILE.write_text(head + "".join(f"{k}\t{v}\n" for k, v in rows))


STORED = read_table(MORE_FILE) if MORE_FILE.exists() else {}
STORED_47 = read_cxx47()
FAMILIES = ("SM80", "SM89", "SM90", "SM100_MMA", "SM100_2x1x1", "SM100_1x2x1", "SM120")


def test_the_table_covers_exactly_the_new_atoms() -> None:
    stored = {k for k in STORED if not k.startswith(("sizeof_bits<", "ALayout:", "reject:"))}
    assert stored == set(new_names()) | set(VARIANTS)
    assert len(stored) > 400


@pytest.mark.parametrize("family", FAMILIES)
def test_new_atoms_equal_cxx_print(family: str) -> None:
    names = [n for n in new_names() if n.startswith(family)]
    assert names
    for n in names:
        # the int4 16x8x32 atoms follow CUTLASS 4.7 (its BLayout fix): their 4.7 print is in
        # tests/data/tiled_partitions_cxx47.txt (tests/kernels/tiled/test_partition_cxx47.py)
        want = STORED_47[f"atom/{n}"].split("|") if n in INT4_ATOMS else STORED[n]
        assert fields(n) == want, n


def test_type_bits_equal_cxx() -> None:
    for t, bits in TYPE_BITS.items():
        assert [str(bits)] == STORED[f"sizeof_bits<{t}>"], t


def test_incongruent_b1_atoms_are_refused() -> None:
    """C++'s 16x8x128 1-bit ALayout nests shape and stride differently: no Layout holds it."""
    for n in INCONGRUENT:
        [text] = STORED[f"ALayout:{n}"]
        with pytest.raises(CutepyError):
            parse(text)
        with pytest.raises(CutepyError, match="not a layout cutepy can hold"):
            mma_atom(n)
        assert n not in mma_atoms()


def test_umma_shapes_outside_the_rules_are_rejected_by_cxx() -> None:
    keys = [k for k, _ in rejection_cases()]
    assert keys
    for k in keys:
        assert STORED[k] == ["rejected"], k
        kind_op, mn, b_major = k[len("reject:"):].split("/")
        kind = re.match(r"SM100_MMA_(TF32|F16BF16|S8|F8F6F4)", kind_op).group(1)
        m, n = map(int, mn.split("x"))
        a, b, c = UMMA_TYPES[kind][0]
        with pytest.raises(CutepyError, match="does not accept"):
            mma_atom(f"{kind_op}<{a},{b},{c},{m},{n},K,{b_major}>")


def _header_names(files: tuple[str, ...], pattern: str) -> set[str]:
    cutlass_library = pytest.importorskip("cutlass_library")
    root = Path(cutlass_library.__file__).parent / "source" / "include" / "cute"
    if not root.is_dir():
        pytest.skip("CUTLASS headers not installed")
    return set(re.findall(pattern, "".join((root / f).read_text() for f in files)))


def test_fixed_names_follow_the_headers() -> None:
    """The SM80 sub-byte, SM89, SM90 warp-level and SM100 FMA atoms are exactly the headers' traits."""
    pat = r"struct MMA_Traits<(SM(?:80|89|90|100)_\w+)>"
    files = ("atom/mma_traits_sm80.hpp", "atom/mma_traits_sm89.hpp", "atom/mma_traits_sm90.hpp",
             "atom/mma_traits_sm100.hpp")
    in_headers = _header_names(files, pat) - FIRST_TABLE - set(INCONGRUENT)
    listed = {n for n in new_names() if "<" not in n}
    assert in_headers == listed


def test_sm120_names_follow_the_headers() -> None:
    pat = r"struct (SM120_16x8x32_TN<\w+, \w+, \w+>)"
    in_headers = {n.replace(" ", "") for n in _header_names(("arch/mma_sm120.hpp",), pat)}
    assert in_headers == {n for n in mma_atoms() if n.startswith("SM120")}


def test_variant_spellings_equal_cxx_print() -> None:
    for v in VARIANTS:
        assert fields(v) == STORED[v], v


def test_peer_and_namespace_spellings_name_the_cxx_types() -> None:
    """tensor-layouts' names and C++'s SM90:: spelling map to these C++ types (written out here)."""
    cpp = {
        "SM120_16x8x32_F32E4M3E4M3F32_TN": "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>",
        "SM120_16x8x32_F16E2M1E5M2F16_TN": "SM120_16x8x32_TN<float_e2m1_t,float_e5m2_t,half_t>",
        "SM100_64x64x16_F16F16F16_SS":
            "SM100_MMA_F16BF16_SS<half_t,half_t,half_t,64,64,UMMA::Major::K,UMMA::Major::K>",
        "SM100_128x256x8_F32TF32TF32F32_SS":
            "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
        "SM100_128x64x32_S32S8U8_TS":
            "SM100_MMA_S8_TS<int8_t,uint8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K>",
        "SM90::MMA_16x8x8_C64C64C64C64_TN": "SM90_16x8x8_C64C64C64C64_TN",
    }
    for alias, want in cpp.items():
        assert alias in VARIANTS
        assert mma_atom(alias).cpp_type == want, alias


def test_bad_names() -> None:
    with pytest.raises(CutepyError, match="K-major A"):
        mma_atom("SM100_MMA_F16BF16_TS<half_t,half_t,float,128,64,MN,K>")
    with pytest.raises(CutepyError, match="types among"):
        mma_atom("SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,half_t,128,64,K,K>")
    with pytest.raises(CutepyError, match="C\\+\\+ defines"):
        mma_atom("SM120_16x8x32_TN<float_e4m3_t,int8_t,float>")
    for bad in ("SM120_16x8x32_F32E4M3E4M3F16_TN", "SM100_64x64x8_F16F16F16_SS", "SM89_16x8x32_F32E4M3"):
        with pytest.raises(CutepyError, match="unknown MMA atom"):
            mma_atom(bad)


@pytest.mark.slow
def test_new_atoms_match_live_cxx(cxx) -> None:
    """A seeded sample recompiled now; CUTEPY_ATOMS_LIVE=N samples N, =all checks every new atom."""
    names = new_names()
    want = os.environ.get("CUTEPY_ATOMS_LIVE", "12")
    k = len(names) if want == "all" else min(len(names), int(want))
    sample = sorted(set(random.Random(11).sample(names, k)) | {"SM89_16x8x32_F32E4M3E4M3F32_TN"})
    res = cxx.run_cases([atom_case(n) for n in sample], MORE_INCLUDES)
    for n, r in zip(sample, res):
        assert r.ok, r.error[:500]
        assert fields(n) == cxx.normalise(r.output).split("|"), n


if __name__ == "__main__":
    main()


def test_universal_fma_takes_cxx_default_types() -> None:
    """C++: template <class D, class A = D, class B = A, class C = D> struct UniversalFMA."""
    from cutepy.kernels.atoms import mma_atom as _atom

    assert _atom("UniversalFMA<float,float,float>").cpp_type == "UniversalFMA<float,float,float,float>"
    assert _atom("UniversalFMA<double,float>").element_types == ("double", "float", "float", "double")
    assert _atom("UniversalFMA<float,half_t,half_t>").element_types == ("float", "half_t", "half_t", "float")
