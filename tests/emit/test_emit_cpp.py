"""The emitted C++ builds the same objects: compile ``cpp(obj)`` with g++ against the CUTLASS
headers and check that C++ prints cutepy's layouts / TV layouts back."""

from __future__ import annotations

import random

import pytest

import cutepy as cp
from cutepy.algebra.composed import ComposedLayout
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout, make_identity_layout
from cutepy.core.swizzle import Swizzle
from cutepy.emit import cpp, dsl
from cutepy.kernels.atoms import copy_atom, gmma_smem_layout, mma_atom
from cutepy.kernels.tiled import TiledCopy, TiledMMA, make_tiled_mma
from tests.kernels.atoms.atoms_cxx import INCLUDES
from tests.kernels.tiled.tiled_cxx import build_mma, copy_cases, mma_cases


def _layouts() -> list:
    rng = random.Random(5)
    out: list = [
        Layout(8),
        Layout((4, 8), (8, 1)),
        Layout(((2, 2), (4, 3)), ((1, 12), (2, 0))),
        Layout((3, 5), (-1, 7)),
        gmma_smem_layout("K", 128, 16),
        gmma_smem_layout("MN", 64, 8),
        ComposedLayout(Swizzle(2, 3, 3), 0, Layout((16, 32), (32, 1))),
    ]
    for _ in range(8):
        shape = tuple(rng.choice((1, 2, 3, 4)) for _ in range(rng.randint(1, 3)))
        out.append(Layout(shape, tuple(rng.randint(0, 9) for _ in shape)))
    return out


def _object_fields(obj) -> list[str]:
    if isinstance(obj, TiledMMA):
        return [
            str(obj.thr_layout_vmnk),
            str(obj.tv_layout_A_tiled),
            str(obj.tv_layout_B_tiled),
            str(obj.tv_layout_C_tiled),
        ]
    if isinstance(obj, TiledCopy):
        return [str(obj.layout_tv_tiled), str(obj.layout_src_tv_tiled), str(obj.layout_dst_tv_tiled)]
    return [str(obj)]


def _block(obj) -> str:
    if isinstance(obj, TiledMMA):
        return (
            f'auto x = {cpp(obj)}; print(x.get_thr_layout_vmnk()); printf("|"); print(x.get_layoutA_TV());'
            ' printf("|"); print(x.get_layoutB_TV()); printf("|"); print(x.get_layoutC_TV());'
        )
    if isinstance(obj, TiledCopy):
        return (
            f'auto x = {cpp(obj)}; print(typename decltype(x)::TiledLayout_TV{{}}); printf("|");'
            ' print(x.get_layoutS_TV()); printf("|"); print(x.get_layoutD_TV());'
        )
    return f"auto x = {cpp(obj)}; print(x);"


_RUNS: dict = {}


def _run(cxx) -> list:
    """The C++ results of the emitted objects' blocks and the host kernel body, compiled
    together (one translation unit: header parsing dominates the compile time)."""
    if "res" not in _RUNS:
        objs = _emitted_objects()
        _RUNS["res"] = cxx.run_cases([_block(o) for o in objs] + [_host_kernel()[0]], INCLUDES)
    return _RUNS["res"]


def _emitted_objects() -> list:
    return _layouts() + [build_mma(c) for c in mma_cases()[::3]] + [b()[0] for _, b in copy_cases()[::3]]


def test_emitted_cpp_prints_the_same_objects(cxx) -> None:
    objs = _emitted_objects()
    res = _run(cxx)[:-1]
    for o, r in zip(objs, res):
        assert r.ok, r.error[:500]
        assert cxx.normalise(r.output).split("|") == _object_fields(o), cpp(o)


def test_cpp_refuses_what_it_cannot_write() -> None:
    with pytest.raises(CutepyError, match="basis"):
        cpp(make_identity_layout((2, 3)))
    with pytest.raises(CutepyError):
        cpp("(2,3):(1,2)")


def test_dsl_expressions() -> None:
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    assert dsl(mma).startswith(
        "cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, "
        "cutlass.Float32, (16, 8, 16)), cute.make_layout((2, 2, 1), stride=(1, 2, 0))"
    )
    assert "permutation_mnk=(32, 32, 16)" in dsl(mma)
    assert "LoadCacheMode.GLOBAL" in dsl(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16))
    assert "transpose=True, num_matrices=4" in dsl(copy_atom("SM75_U16x8_LDSM_T", 16))
    assert dsl(Layout((2,), (1,))) == "cute.make_layout((2,), stride=(1,))"
    # a one-layout tiler stays a tuple in Python: (x,), not (x)
    atom = copy_atom("UniversalCopy<uint32_t>", 32)
    cot = cp.make_cotiled_copy(atom, Layout((32, 1), (1, 0)), Layout(32, 1))
    assert dsl(cot).endswith(", (cute.make_layout(32, stride=1),))")
    with pytest.raises(CutepyError, match="no CuTe DSL operation"):
        dsl(mma_atom("SM70_8x8x4_F16F16F16F16_TN"))


def _host_kernel() -> tuple:
    """The SM80 design of issue 21 emitted as a person writes it, in a host kernel body that
    partitions swizzled shared memory for thread 37; and the objects."""
    from cutepy.kernels.tiled import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B

    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                          Layout((32, 4), (4, 1)), Layout((1, 8)))
    s2r_a = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    s2r_b = make_tiled_copy_B(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    smem = cp.tile_to_shape(ComposedLayout(Swizzle(2, 3, 3), 0, Layout((8, 32), (32, 1))), (128, 32))
    body = f"""
auto mma = {cpp(mma)}; auto g2s = {cpp(g2s)}; auto s2r_a = {cpp(s2r_a)}; auto s2r_b = {cpp(s2r_b)};
static half_t smem[4096];
Tensor sA = make_tensor(make_smem_ptr(smem), {cpp(smem)});
auto show = [&](auto const& t) {{
  for (int i = 0; i < int(size(t)); ++i) printf(" %d", int(&t(i) - smem));
  printf("|");
}};
show(g2s.get_slice(37).partition_D(sA));
show(s2r_a.get_slice(37).partition_S(sA));
show(s2r_b.get_slice(37).partition_S(sA));
"""
    return body, (g2s, s2r_a, s2r_b, smem)


def test_emitted_design_partitions_in_a_host_kernel(cxx) -> None:
    """The host kernel body compiles with the emitted objects, and every element offset of
    thread 37's partitions of the swizzled smem equals cutepy's."""
    import numpy as np

    g2s, s2r_a, s2r_b, smem = _host_kernel()[1]
    assert cpp(s2r_a).startswith("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, make_tiled_mma(")
    assert cpp(g2s).startswith("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,half_t>{}, ")
    r = _run(cxx)[-1]
    assert r.ok, r.error[:800]
    inner = cp.make_tensor(np.arange(4096), smem.inner)

    def offsets(part) -> list[int]:
        return [smem.outer(int(o)) for o in np.asarray(part.layout.offsets()) + int(part.offset)]

    parts = [g2s.get_slice(37).partition_D(inner)]
    parts += [c.get_slice(37).partition_S(inner) for c in (s2r_a, s2r_b)]
    want = [offsets(p) for p in parts]
    got = [[int(x) for x in part.split()] for part in r.output.split("|")[:3]]
    assert got == want


def _dsl_python() -> str:
    """A Python with the CuTe DSL (``CUTEPY_DSL_PYTHON``, else this one if it imports cutlass.cute)."""
    import importlib.util
    import os
    import sys

    exe = os.environ.get("CUTEPY_DSL_PYTHON")
    if exe:
        return exe
    if importlib.util.find_spec("cutlass") is not None:
        if importlib.util.find_spec("cutlass.cute") is not None:
            return sys.executable
    pytest.skip("the CuTe DSL is not installed (pip install nvidia-cutlass-dsl, or set CUTEPY_DSL_PYTHON)")


@pytest.mark.parametrize("arch,names", [
    ("sm_90a", ["SM90_64x128x16_F32BF16BF16_SS", "SM90_64x64x16_F16F16F16_RS",
                "SM90_64x96x16_F32F16F16_SS<MN,K>", "SM90_64x32x32_F32E4M3E5M2_SS_TN"]),
    ("sm_100a", ["SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>",
                 "SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t,bfloat16_t,float,256,128,K,MN>",
                 "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,K,K>",
                 "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,K,K>",
                 "SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e4m3_t,float,64,192,K,K>"]),
    ("sm_80", ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F16F16F16F16_TN"]),
])
def test_emitted_dsl_operations_construct_in_the_cute_dsl(arch: str, names: list) -> None:
    """emit.dsl writes the current DSL API (cute.nvgpu.OperandMajorMode, tcgen05 for SM100):
    each operation constructs in the CuTe DSL and reports the atom's instruction shape."""
    import os
    import subprocess

    exe = _dsl_python()
    exprs = []
    for n in names:
        e = dsl(mma_atom(n))
        assert e.startswith("cute.make_mma_atom(") and "warpgroup.OperandMajorMode" not in e
        exprs.append(e[len("cute.make_mma_atom("):-1])
    prog = ("import warnings, cutlass, cutlass.cute as cute\n"
            "warnings.simplefilter('error', DeprecationWarning)\n"
            + "".join(f"print(repr(str({e})))\n" for e in exprs))
    out = subprocess.run([exe, "-c", prog], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "CUTE_DSL_ARCH": arch})
    assert out.returncode == 0, out.stderr[-2000:]
    printed = [eval(line) for line in out.stdout.splitlines() if line.startswith(("'", '"'))]
    assert len(printed) == len(names)
    for n, text in zip(names, printed):
        M, N, K = mma_atom(n).shape_mnk
        assert f"({M}, {N}, {K})" in text or f"{M}x{N}x{K}" in text or f"({M},{N},{K})" in text, (n, text)


def test_emitted_dsl_builds_the_same_objects_in_the_cute_dsl(tmp_path) -> None:
    """emit.dsl's TiledMMA and TiledCopys (make_tiled_copy_tv, make_tiled_copy_A/B as written)
    and a swizzled layout, built under @cute.jit on the CPU: the DSL prints cutepy's layouts."""
    import os
    import subprocess

    from cutepy.kernels.tiled import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B

    exe = _dsl_python()
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    copies = [make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                              Layout((32, 4), (4, 1)), Layout((1, 8))),
              make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma),
              make_tiled_copy_B(copy_atom("SM75_U32x2_LDSM_N", 16), mma)]
    swz = ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))
    assert dsl(copies[0]).startswith("cute.make_tiled_copy_tv(")
    assert dsl(copies[1]).startswith("cute.make_tiled_copy_A(")
    body = [f"    m = {dsl(mma)}",
            "    print(m.tv_layout_A_tiled); print(m.tv_layout_B_tiled); print(m.tv_layout_C_tiled)"]
    for c in copies:
        body += [f"    c = {dsl(c)}",
                 "    print(c.layout_tv_tiled); print(c.layout_src_tv_tiled); print(c.layout_dst_tv_tiled)"]
    body += [f"    print({dsl(swz)})"]
    src = tmp_path / "design.py"
    head = "import cutlass, cutlass.cute as cute\n\n\n@cute.jit\ndef f():\n"
    src.write_text(head + "\n".join(body) + "\n\n\nf()\n")
    out = subprocess.run([exe, str(src)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "CUTE_DSL_ARCH": "sm_80"})
    assert out.returncode == 0, out.stderr[-2000:]
    want = [str(mma.tv_layout_A_tiled), str(mma.tv_layout_B_tiled), str(mma.tv_layout_C_tiled)]
    for c in copies:
        want += [str(c.layout_tv_tiled), str(c.layout_src_tv_tiled), str(c.layout_dst_tv_tiled)]
    want += [str(swz)]
    got = out.stdout.strip().splitlines()
    got[-1] = got[-1].replace("S<", "Sw<", 1)  # the DSL prints a swizzle as S<B,M,S>
    assert got == want
