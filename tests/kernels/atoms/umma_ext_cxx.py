"""C++ side of the block-scaled and sparse SM100/SM103 UMMA atoms and the block-scaled scale-factor
layouts: CUTLASS 4.7's headers compiled on the host.

Regenerate tests/data/atoms_umma_ext_cxx47.txt with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 python -m tests.kernels.atoms.umma_ext_cxx

Rows: an atom's ``ThrID|Shape_MNK|A|B|C`` (and ``|SFVecSize`` for a block-scaled one),
after instantiating its operation and ``MMA_Atom`` (so the operation's static_asserts vouch that
C++ accepts it); ``reject:`` rows say whether C++ rejects a shape or vector size just outside
the rules cutepy encodes; ``sf_atom:`` and ``sf_layout:`` rows print
``Sm1xxBlockScaledBasicChunk<VS, major>::SfAtom`` and
``Sm1xxBlockScaledConfig<VS>::tile_atom_to_shape_SFA(problem)``.
"""

from __future__ import annotations

from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.atoms.umma_ext import BlockScaledMMAAtom, umma_ext_atoms
from tests.kernels.atoms.atoms_cxx import read_table
from tests.paths import DATA

FILE = DATA / "atoms_umma_ext_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/mma_traits_sm100.hpp",
            "cutlass/detail/sm100_blockscaled_layout.hpp")
#: (name cutepy must refuse, the C++ operation it would be): shapes and vector sizes just outside
REJECTS = [
    "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,256,64,K,K>",
    "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,12,K,K>",
    "SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,int32_t,128,24,K,K>",
    "SM100_MMA_S8_2x1SM_SS_SPARSE<int8_t,int8_t,int32_t,256,48,K,K>",
    "SM100_MMA_F8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,128,8,K,K>",
    "SM100_MMA_TF32_2x1SM_SS_SPARSE<tfloat32_t,tfloat32_t,float,64,64,K,K>",
    "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,64,64,K,K>",
    "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,64,K,K>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,64,K,K>",
    "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,256,40,32,K,K>",
    "SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,8,16,K,K>",
    "SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,32,K,K>",
    "SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,64,K,K>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,32,K,K>",
]
#: spellings beyond the listed defaults (other types, majors, vector sizes)
VARIANTS = [
    "SM100_MMA_F16BF16_SS_SPARSE<bfloat16_t,bfloat16_t,float,64,40,MN,K>",
    "SM100_MMA_S8_SS_SPARSE<uint8_t,int8_t,int32_t,64,8,K,MN>",
    "SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<float_e2m1_t,float_e5m2_t,half_t,256,96,K,K>",
    "SM100_MMA_MXF8F6F4_SS<float_e2m3_t,float_e3m2_t,float,float_ue8m0_t,128,24,MN,MN>",
    "SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE<float_e5m2_t,float_e4m3_t,float,float_ue8m0_t,256,48,K,K>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,96,32,K,K>",
    "SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,64,K,K>",
    "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,32,32,K,K>",
    "SM103::SM103_MXF4_ULTRA_2x1SM_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,256,128,32,K,K>",
]
SF_ATOMS = [(vs, major) for vs in (16, 32) for major in ("K", "MN")]
#: (VS, M, K, L or None): problems the scale-factor layouts are printed for
SF_PROBLEMS = [(32, 128, 128, None), (32, 256, 512, None), (16, 384, 256, None), (16, 128, 192, 3),
               (32, 512, 256, 2), (64, 256, 512, None)]


def atom_case(name: str) -> str:
    t = mma_atom(name).cpp_type
    out = (
        f"(void)sizeof({t}); {{ MMA_Atom<{t}> inst{{}}; (void)inst; }} using A = MMA_Atom<{t}>;"
        ' print(typename A::ThrID{}); printf("|"); print(typename A::Shape_MNK{}); printf("|");'
        ' print(typename A::LayoutA_TV{}); printf("|"); print(typename A::LayoutB_TV{}); printf("|");'
        " print(typename A::LayoutC_TV{});"
    )
    if isinstance(mma_atom(name), BlockScaledMMAAtom):
        out += f' printf("|%d", int(MMA_Traits<{t}>::SFVecSize));'
    return out


def fields(name: str) -> list[str]:
    a = mma_atom(name)
    out = [str(a.thr_id), "(" + ",".join(map(str, a.shape_mnk)) + ")", str(a.tv_layout_A), str(a.tv_layout_B),
           str(a.tv_layout_C)]
    if isinstance(a, BlockScaledMMAAtom):
        out += [str(a.sf_vec_size)]
    return out


def reject_cpp(name: str) -> str:
    """The C++ type of a name cutepy refuses, written out from the name (majors spelled)."""
    return name.replace(",K,K>", ",UMMA::Major::K,UMMA::Major::K>")


def sf_atom_case(vs: int, major: str) -> str:
    chunk = f"cutlass::detail::Sm1xxBlockScaledBasicChunk<{vs}, UMMA::Major::{major}>"
    return f"print(typename {chunk}::SfAtom{{}});"


def sf_layout_case(vs: int, m: int, k: int, batch: int | None) -> str:
    shape = f"make_shape(Int<{m}>{{}}, Int<64>{{}}, Int<{k}>{{}}" + (f", Int<{batch}>{{}})" if batch else ")")
    return f"print(cutlass::detail::Sm1xxBlockScaledConfig<{vs}>::tile_atom_to_shape_SFA({shape}));"


def sf_key(vs: int, m: int, k: int, batch: int | None) -> str:
    return f"sf_layout:{vs}/{m}x{k}" + (f"x{batch}" if batch else "")


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS to CUTLASS 4.7's include directory")
    names = umma_ext_atoms() + VARIANTS
    keyed = [(n, atom_case(n)) for n in names]
    keyed += [(f"sf_atom:{vs}/{mj}", sf_atom_case(vs, mj)) for vs, mj in SF_ATOMS]
    keyed += [(sf_key(*p), sf_layout_case(*p)) for p in SF_PROBLEMS]
    # the shape rules are the operation's static_asserts, the type rules its traits'
    rejects = [f"(void)sizeof({reject_cpp(r)}); (void)sizeof(MMA_Traits<{reject_cpp(r)}>);" for r in REJECTS]
    cases = [c for _, c in keyed] + rejects
    keys = [0] * len(keyed) + list(range(1, len(REJECTS) + 1))  # each rejection compiles alone
    res = cxx_harness.run_cases(cases, INCLUDES, keys=keys)
    rows = []
    for (key, _), r in zip(keyed, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {key}: {r.error[:600]}")
        rows.append((key, cxx_harness.normalise(r.output)))
    for name, r in zip(REJECTS, res[len(keyed):]):
        verdict = "accepted" if r.ok else "rejected" if "static assertion failed" in r.error else "error"
        rows.append((f"reject:{name}", verdict))
    head = (
        "# C++ CuTe (CUTLASS 4.7.0) prints, static-integer underscores dropped.\n"
        "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 "
        "python -m tests.kernels.atoms.umma_ext_cxx\n"
    )
    FILE.write_text(head + "".join(f"{k}\t{v}\n" for k, v in rows))


STORED = read_table(FILE) if FILE.exists() else {}

if __name__ == "__main__":
    main()
