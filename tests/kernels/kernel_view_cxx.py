"""A kernel's thread partitions with a run-time thread index (C++'s ``get_slice(int(t))``, what
``threadIdx.x`` gives) beside those of a static one (``get_slice(Int<t>{})``): FlashAttention-2's
Q tile (``SmemLayoutQ = tile_to_shape(Sw<S,3,3> o (8,kBlockKSmem):(kBlockKSmem,1), (kBlockM,
kHeadDim))``, a TiledMMA of 4 SM80 ``16x8x16`` warps over a 64x16x16 tile, the ``ldmatrix``
TiledCopy of A) at head dims 32, 64 and 128, as C++ prints each thread's ``partition_A``,
``partition_fragment_A``, the ``ldmatrix`` ``partition_S`` and a ``local_partition``.

Stored in tests/data/kernel_view_cxx.txt. Regenerate (CUTLASS 4.7 headers)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD python -m tests.kernels.kernel_view_cxx
"""

from __future__ import annotations

import re

from tests.paths import DATA

FILE = DATA / "kernel_view_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/mma_traits_sm80.hpp",
            "cute/atom/copy_atom.hpp", "cute/atom/copy_traits_sm75.hpp")
#: (head dim, kBlockM, kBlockKSmem, swizzle bits) of FlashAttention-2's forward kernel traits
DESIGNS = ((32, 128, 32, 2), (64, 128, 64, 3), (128, 128, 64, 3))
THREADS = (0, 5, 37, 127)
WHAT = ("partition_A", "partition_fragment_A", "ldmatrix partition_S", "local_partition")


def source(design: tuple, thr: int, static: bool) -> str:
    hd, bm, bk, sw = design
    t = f"Int<{thr}>{{}}" if static else f"int({thr})"
    return "\n".join([
        f"static half_t buf[{bm * hd}]; half_t* base = &buf[0];",
        f"auto sQl = tile_to_shape(composition(Swizzle<{sw},3,3>{{}}, Layout<Shape<_8,Int<{bk}>>, "
        f"Stride<Int<{bk}>,_1>>{{}}), make_shape(Int<{bm}>{{}}, Int<{hd}>{{}}));",
        "auto sQ = make_tensor(base, sQl);",
        "auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_4,_1,_1>>{}, "
        "Tile<_64,_16,_16>{});",
        f"auto thr = mma.get_slice({t});",
        "auto pA = thr.partition_A(sQ);",
        'print(pA.layout()); printf("|%d|", int(pA.data() - base));',
        "print(thr.partition_fragment_A(sQ).layout());",
        "auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);",
        f"auto pS = s2r.get_slice({t}).partition_S(sQ);",
        'printf("|"); print(pS.layout()); printf("|%d|", int(pS.data() - base));',
        f"auto lp = local_partition(sQ, Layout<Shape<_16,_8>,Stride<_8,_1>>{{}}, {t});",
        'print(lp.layout()); printf("|%d", int(lp.data() - base));',
    ])


def cases() -> list[tuple[tuple, int, bool]]:
    return [(d, t, s) for d in DESIGNS for t in THREADS for s in (False, True)]


def key(design: tuple, thr: int, static: bool) -> str:
    return f"hd{design[0]} t{thr} {'Int' if static else 'int'}"


def cxx_form(text: str) -> str:
    """C++'s print with its offset bits ``M_0|(16&16)=16`` read as the number they make."""
    return re.sub(r"M_\d+\|\([^)]*\)=(-?\d+)", r"\1", text)


def read() -> dict[str, list[str]]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t")
            out[k] = v.split("|")
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    cs = cases()
    res = cxx_harness.run_cases(["{ " + source(*c) + " }" for c in cs], INCLUDES)
    head = "".join(("# " + x).rstrip() + "\n" for x in (__doc__ or "").strip().splitlines())
    rows = []
    for c, r in zip(cs, res):
        assert r.ok, r.error[:2000]
        rows.append(f"{key(*c)}\t{cxx_form(r.output.strip())}\n")
    FILE.write_text(head + "".join(rows))


if __name__ == "__main__":
    main()
