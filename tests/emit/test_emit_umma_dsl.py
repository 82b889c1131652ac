"""emit.dsl of Blackwell UMMA TiledMMAs (``cute.make_tiled_mma(cute.nvgpu.tcgen05.Mma*Op(...), ...)``), run
in the CuTe DSL (``CUTEPY_DSL_PYTHON``, e.g. /work/venvs/cutedsl/bin/python, DSL 4.8) under ``@cute.jit``
for ``sm_100a``: the DSL prints cutepy's TiledMMA, its tiled TV layouts, thread ids and shapes."""

from __future__ import annotations

import os
import re
import subprocess
from typing import Any

from cutepy.core.layout import Layout
from cutepy.emit import dsl
from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.tiled import make_tiled_mma
from cutepy.notation import parse_layout
from tests.emit.test_emit_cpp import _dsl_python

#: (UMMA atom, atom layout) pairs: 1-SM and 2-SM, SS and TS, every kind, K- and MN-major
UMMAS = [
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>", None),
    ("SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,float,64,128,MN,K>", None),
    ("SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t,bfloat16_t,float,256,128,K,MN>", None),
    ("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,half_t,128,64,MN,MN>", None),
    ("SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,K,K>", None),
    ("SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,K,K>", None),
    ("SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e4m3_t,float,64,192,K,K>", None),
    ("SM100_MMA_F8F6F4_2x1SM_SS<float_e5m2_t,float_e4m3_t,float,256,256,MN,K>", None),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,K,K>", (1, 2, 1)),
]


def _size1_stride0(shape: Any, stride: Any) -> Any:
    if isinstance(shape, tuple):
        return tuple(_size1_stride0(s, d) for s, d in zip(shape, stride))
    return 0 if shape == 1 else stride


def _norm(text: str) -> str:
    """A layout's text with the stride of every size-1 mode 0 (the DSL prints the stride it was given
    there, C++ and cutepy print 0; the layouts are the same function)."""
    L = parse_layout(text)
    return str(Layout(L.shape, _size1_stride0(L.shape, L.stride)))


def _norm_print(text: str) -> list[str]:
    """The DSL's or cutepy's print of a TiledMMA as (name, normalised value) lines."""
    names = {"Thr Layout VMNK": "ThrLayoutVMNK", "Permutation MNK": "PermutationMNK",
             "Shape MNK": "Shape_MNK",
             "TV Layout A": "LayoutA_TV", "TV Layout B": "LayoutB_TV", "TV Layout C": "LayoutC_TV"}
    out = []
    for line in text.splitlines():
        if ":" not in line or line.strip() in ("TiledMMA", "Tiled MMA", "MMA_Atom", "MMA Atom"):
            continue
        k, v = (x.strip() for x in line.split(":", 1))
        k = names.get(k, k)
        if k.endswith("_TV") or k == "ThrLayoutVMNK":
            v = _norm(v)
        out.append(f"{k}: {v}")
    return out


def test_emitted_umma_tiled_mma_prints_the_same_in_the_cute_dsl(tmp_path) -> None:
    exe = _dsl_python()
    mmas = [make_tiled_mma(mma_atom(n), *(() if a is None else (a,))) for n, a in UMMAS]
    body = []
    for m in mmas:
        e = dsl(m)
        assert e.startswith("cute.make_tiled_mma(cute.nvgpu.tcgen05.Mma"), e
        body += [f"    m = {e}", '    print("@@")',
                 "    print(m.tv_layout_A_tiled); print(m.tv_layout_B_tiled); print(m.tv_layout_C_tiled)",
                 "    print(m.thr_id); print(m.shape_mnk); print(m)"]
    src = tmp_path / "umma.py"
    src.write_text("import cutlass, cutlass.cute as cute\n\n\n@cute.jit\ndef f():\n" + "\n".join(body)
                   + "\n\n\nf()\n")
    out = subprocess.run([exe, str(src)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "CUTE_DSL_ARCH": "sm_100a"})
    assert out.returncode == 0, out.stderr[-2000:]
    blocks = out.stdout.split("@@\n")[1:]
    assert len(blocks) == len(mmas)
    for (name, _), m, block in zip(UMMAS, mmas, blocks):
        lines = block.strip().splitlines()
        a, b, c, thr, shape = lines[:5]
        want = [str(m.tv_layout_A_tiled), str(m.tv_layout_B_tiled), str(m.tv_layout_C_tiled)]
        assert [a, b, c] == want, name
        assert thr == str(m.atom.thr_id), name
        assert re.sub(r"\s", "", shape) == str(tuple(m.atom.shape_mnk)).replace(" ", ""), name
        assert _norm_print("\n".join(lines[5:])) == _norm_print(str(m)), name


def _dsl_layout_lines(text: str) -> dict[str, str]:
    """``name: layout`` lines of a DSL print (``TV Layout Src: ...``) keyed by name, spaces squeezed."""
    out = {}
    for line in text.splitlines():
        if ":" in line:
            k, v = (x.strip() for x in line.split(":", 1))
            out[k] = v
    return out


def test_emitted_tmem_copies_print_the_same_in_the_cute_dsl(tmp_path) -> None:
    """emit.dsl of TMEM copy atoms (``cute.nvgpu.tcgen05.Ld16x256bOp(Repetition.x2, Pack.PACK_16b_IN_32b)``,
    ...) and of make_tmem_copy's TiledCopy over UMMA accumulators: the DSL builds the same atoms (thread
    ids, source and destination TV layouts), and its own ``tcgen05.make_tmem_copy`` gives cutepy's
    tiler, tiled TV layout and thread 37's partition of the accumulator."""
    from cutepy.emit.dsl import DTYPE
    from cutepy.kernels.tmem import make_tmem_frg
    from cutepy.kernels.tmem_copy import TMEM_COPY_OPS, make_tmem_copy, tmem_copy_atom

    exe = _dsl_python()
    ops = [o for o in TMEM_COPY_OPS if "STAT" not in o and re.search(r"b(1|4)x", o)]
    atoms = [tmem_copy_atom(o, 16 if o.endswith("_16b") else 32) for o in ops]
    accs = [("SM100_TMEM_LOAD_32dp32b8x", "float", ((128, 256), 1, 1), 1),
            ("SM100_TMEM_LOAD_16dp256b2x", "float", ((64, 128), 1, 2), 1),
            ("SM100_TMEM_STORE_16dp64b4x_16b", "half_t", ((128, 64), 2, 1), 2),
            ("SM100_TMEM_LOAD_16dp32b1x", "float", ((128, 128), 1, 1), 2),
            ("SM100_TMEM_LOAD_32dp32b2x_16b", "half_t", ((128, 64), 1, 1), 1)]
    body = []
    for a in atoms:
        body += [f"    a = {dsl(a)}", '    print("@@")', "    print(a)"]
    copies = []
    for op, t, shape, n_sm in accs:
        acc = make_tmem_frg(t, shape, n_sm, t)
        cp = make_tmem_copy(op, acc)
        copies.append((cp, acc))
        ptr = f"cute.make_ptr({DTYPE[t]}, 0, cute.AddressSpace.tmem)"
        body += [f"    acc = cute.make_tensor({ptr}, {dsl(acc.layout)})",
                 f"    c = cute.nvgpu.tcgen05.make_tmem_copy({dsl(cp.copy_atom)}, acc)", '    print("@@")',
                 "    print(c)", "    print(c.get_slice(37).partition_S(acc))"]
    src = tmp_path / "tmem.py"
    src.write_text("import cutlass, cutlass.cute as cute\n\n\n@cute.jit\ndef f():\n" + "\n".join(body)
                   + "\n\n\nf()\n")
    out = subprocess.run([exe, str(src)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "CUTE_DSL_ARCH": "sm_100a"})
    assert out.returncode == 0, out.stderr[-2000:]
    blocks = out.stdout.split("@@\n")[1:]
    assert len(blocks) == len(atoms) + len(copies)
    for a, block in zip(atoms, blocks):
        got = _dsl_layout_lines(block)
        want = [str(a.thr_id), str(a.layout_src_tv), str(a.layout_dst_tv)]
        assert [got["ThrID"], got["TV Layout Src"], got["TV Layout Dst"]] == want, a.name
    for (cp, acc), block in zip(copies, blocks[len(atoms):]):
        got = _dsl_layout_lines(block)
        assert got["Tiler MN"] == str(cp.tiler_mn).replace(" ", ""), cp.copy_atom.name
        assert got["TV Layout tiled"] == str(cp.layout_tv_tiled), cp.copy_atom.name
        part = block.strip().splitlines()[-1]  # tensor<ptr<f32, tmem> o LAYOUT>
        want = cp.get_slice(37).partition_S(acc)
        assert part.rsplit(" o ", 1)[1].rstrip(">") == str(want.layout), cp.copy_atom.name


def test_every_spelling_the_atoms_accept_emits_the_same_dsl_operation():
    """emit.dsl reads atom names through the atom modules' parsers (issue 30: no copy of their
    regexes): C++'s spelling with spaces and `UMMA::Major::`, and tensor-layouts' alias, give the
    operation of the plain C++ spelling."""
    from cutepy.kernels.atoms.copy import copy_atom

    plain = dsl(mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>"))
    assert plain.startswith("cute.make_mma_atom(cute.nvgpu.tcgen05.MmaF16BF16Op(")
    for name in ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>",
                 "SM100_128x256x16_F32F16F16_SS"):
        assert dsl(mma_atom(name)) == plain
    assert dsl(copy_atom("UniversalCopy< uint32_t >", 16)) == dsl(copy_atom("UniversalCopy<uint32_t>", 16))


def test_emit_parses_no_atom_name_itself():
    """The names are read in one module per family (atoms/mma.py, atoms/copy.py, tmem_copy.py)."""
    import sys
    from pathlib import Path

    source = Path(sys.modules["cutepy.emit.dsl"].__file__).read_text()  # cutepy.emit.dsl is also the function
    assert "import re" not in source and "re.compile" not in source
