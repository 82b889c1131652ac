# ruff: noqa: E501 - the C++ cases are the tutorials' statements, one per line as CUTLASS writes them
"""CUTLASS's CuTe tutorials (examples/cute/tutorial: sgemm_1, sgemm_2, sgemm_sm70, sgemm_sm80 in
its default NT form and its TN half-precision form, tiled_copy, tiled_copy_if) on the host: the
kernels' partitioning code, copied statement for statement into host functions of the thread
index (``threadIdx.x`` -> ``tid``, ``blockIdx`` -> ``(1, 2)``), printing every smem layout,
TiledMMA, TiledCopy, fragment and per-thread partition; and the same objects built in cutepy.

Each printed line is ``name: <C++ print of the layout or object>`` and, for tensors over
memory, `` | <offset of element i from the buffer's start, for every 1-D index i>`` (a gmem
tensor's k mode sliced at 0). Problem sizes are the tutorials' defaults (5120 x 5120 x 4096;
256 x 512 and 528 x 300 for the copies), run-time ``int`` as in the tutorials, like the
leading dimensions, the block index and ``threadIdx.x``; prints are C++'s exact form (``_N``
static, ``N`` run-time; cutepy's ``format(x, "cxx")``).

Regenerate the stored prints (tests/data/tutorials_cxx47.txt) with CUTLASS 4.7's headers::

    SP=$(python -c "import site;print(site.getsitepackages()[0])")
    CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\
        python -m tests.kernels.tutorials_cxx
"""

from __future__ import annotations

import hashlib

import numpy as np

from cutepy import (
    Layout,
    Swizzle,
    composition,
    copy_atom,
    dynamic,
    elem_less,
    lazy_transform,
    local_partition,
    local_tile,
    make_fragment_like,
    make_identity_tensor,
    make_tensor_like,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_mma,
    mma_atom,
    size,
    tile_to_shape,
    tiled_divide,
)
from cutepy.core.inttuple import format_tuple
from cutepy.kernels.tensor import Tensor
from tests.cxx import cxx_harness
from tests.kernels.atoms.atoms_cxx import INCLUDES
from tests.paths import DATA

FILE = DATA / "tutorials_cxx47.txt"
THREADS = {"sgemm_1": (0, 1, 37, 255), "sgemm_2": (0, 1, 37, 255), "sgemm_sm70": (0, 1, 37, 255),
           "sgemm_sm80": (0, 1, 37, 255), "sgemm_sm80_tn": (0, 1, 37, 127), "tiled_copy": (0, 1, 37, 255),
           "tiled_copy_if": (0, 1, 37, 255)}

PREAMBLE = r"""
#include <cute/atom/copy_traits.hpp>
template <class T> static void P(const char* name, T const& x) { std::printf("%s: ", name); print(x); std::printf("\n"); }
template <class TT, class B> static void O(const char* name, TT const& t, B const* base) {
  std::printf("%s: ", name); print(t.layout()); std::printf(" |");
  for (int i = 0; i < int(size(t)); ++i) std::printf(" %d", int(&t(i) - base));
  std::printf("\n");
}
"""

_GEMM_HEAD = """
auto prob_shape = make_shape(M, N, K);
auto cta_tiler = make_shape(bM, bN, bK);
TA const* A = reinterpret_cast<TA const*>(0x10000); TB const* B = reinterpret_cast<TB const*>(0x10000);
TC* C = reinterpret_cast<TC*>(0x10000);
Tensor mA = make_tensor(make_gmem_ptr(A), select<0,2>(prob_shape), dA);
Tensor mB = make_tensor(make_gmem_ptr(B), select<1,2>(prob_shape), dB);
Tensor mC = make_tensor(make_gmem_ptr(C), select<0,1>(prob_shape), dC);
auto cta_coord = make_coord(bx, by, _);
Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});
static TA smemA[cosize_v<decltype(sA_layout)>];
static TB smemB[cosize_v<decltype(sB_layout)>];
Tensor sA = make_tensor(make_smem_ptr(smemA), sA_layout);
Tensor sB = make_tensor(make_smem_ptr(smemB), sB_layout);
P("sA_layout", sA_layout); P("sB_layout", sB_layout);
O("gA", gA(_,_,0), A); O("gB", gB(_,_,0), B); O("gC", gC, C);
"""

_NT = """
using TA = float; using TB = float; using TC = float;
int M = 5120; int N = 5120; int K = 4096; int ldA = M; int ldB = N; int ldC = M; int bx = 1; int by = 2;
auto dA = make_stride(Int<1>{}, ldA); auto dB = make_stride(Int<1>{}, ldB);
auto dC = make_stride(Int<1>{}, ldC);
auto bK = Int<8>{}; auto bM = Int<128>{}; auto bN = Int<128>{};
"""

_COPY_MMA = """
ThrCopy thr_copy_a = copyA.get_slice(tid);
Tensor tAgA = thr_copy_a.partition_S(gA); Tensor tAsA = thr_copy_a.partition_D(sA);
ThrCopy thr_copy_b = copyB.get_slice(tid);
Tensor tBgB = thr_copy_b.partition_S(gB); Tensor tBsB = thr_copy_b.partition_D(sB);
ThrMMA thr_mma = mmaC.get_slice(tid);
Tensor tCgC = thr_mma.partition_C(gC);
P("copyA", copyA); P("copyB", copyB); P("mmaC", mmaC);
P("size_copyA", size(copyA)); P("size_mmaC", size(mmaC));
P("thr_copy_a", thr_copy_a); P("thr_mma", thr_mma);
O("tAgA", tAgA(_,_,_,0), A); O("tBgB", tBgB(_,_,_,0), B); O("tCgC", tCgC, C);
"""

CXX = {
    "sgemm_1": _NT + """
auto sA_layout = make_layout(make_shape(bM, bK)); auto sB_layout = make_layout(make_shape(bN, bK));
auto tA = make_layout(make_shape(Int<32>{}, Int<8>{})); auto tB = make_layout(make_shape(Int<32>{}, Int<8>{}));
auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));
""" + _GEMM_HEAD + """
Tensor tAgA = local_partition(gA, tA, tid); Tensor tAsA = local_partition(sA, tA, tid);
Tensor tBgB = local_partition(gB, tB, tid); Tensor tBsB = local_partition(sB, tB, tid);
Tensor tCsA = local_partition(sA, tC, tid, Step<_1, X>{});
Tensor tCsB = local_partition(sB, tC, tid, Step< X,_1>{});
Tensor tCgC = local_partition(gC, tC, tid, Step<_1,_1>{});
Tensor tCrC = make_tensor_like(tCgC);
O("tAgA", tAgA(_,_,0), A); O("tAsA", tAsA, smemA); O("tBgB", tBgB(_,_,0), B); O("tBsB", tBsB, smemB);
O("tCsA", tCsA, smemA); O("tCsB", tCsB, smemB); O("tCgC", tCgC, C); P("tCrC", tCrC.layout());
""",
    "sgemm_2": _NT + """
auto sA_layout = make_layout(make_shape(bM, bK)); auto sB_layout = make_layout(make_shape(bN, bK));
TiledCopy copyA = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, TA>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, TB>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});
""" + _GEMM_HEAD + _COPY_MMA + """
Tensor tArA = make_fragment_like(tAsA); Tensor tBrB = make_fragment_like(tBsB);
Tensor tCsA = thr_mma.partition_A(sA); Tensor tCsB = thr_mma.partition_B(sB);
Tensor tCrC = thr_mma.make_fragment_C(tCgC);
O("tAsA", tAsA, smemA); O("tBsB", tBsB, smemB); P("tArA", tArA.layout()); P("tBrB", tBrB.layout());
O("tCsA", tCsA, smemA); O("tCsB", tCsB, smemB); P("tCrC", tCrC.layout());
""",
    "sgemm_sm70": _NT + """
auto sA_layout = make_layout(make_shape(bM, bK)); auto sB_layout = make_layout(make_shape(bN, bK));
TiledCopy copyA = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, TA>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, TB>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});
""" + _GEMM_HEAD + _COPY_MMA + """
Tensor tArA = make_fragment_like(tAsA); Tensor tBrB = make_fragment_like(tBsB);
Tensor tCsA = thr_mma.partition_A(sA); Tensor tCsB = thr_mma.partition_B(sB);
Tensor tCrA = thr_mma.make_fragment_A(tCsA); Tensor tCrB = thr_mma.make_fragment_B(tCsB);
Tensor tCrC = thr_mma.make_fragment_C(tCgC);
O("tAsA", tAsA, smemA); O("tBsB", tBsB, smemB); P("tArA", tArA.layout()); P("tBrB", tBrB.layout());
O("tCsA", tCsA, smemA); O("tCsB", tCsB, smemB);
P("tCrA", tCrA.layout()); P("tCrB", tCrB.layout()); P("tCrC", tCrC.layout());
""",
    "sgemm_sm80": _NT + """
auto bP = Int<3>{};
auto sA_layout = make_layout(make_shape(bM, bK, bP)); auto sB_layout = make_layout(make_shape(bN, bK, bP));
TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TA>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TB>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});
Copy_Atom<AutoVectorizingCopy, TA> s2r_atom_a; Copy_Atom<AutoVectorizingCopy, TB> s2r_atom_b;
""" + _GEMM_HEAD.replace("O(\"gA\"", "P(\"unused\", 0); O(\"gA\"") + _COPY_MMA + """
Tensor tCrA = thr_mma.partition_fragment_A(sA(_,_,0)); Tensor tCrB = thr_mma.partition_fragment_B(sB(_,_,0));
Tensor tCrC = thr_mma.make_fragment_C(tCgC);
TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mmaC); ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(tid);
Tensor tXsA = s2r_thr_copy_a.partition_S(sA); Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);
TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom_b, mmaC); ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(tid);
Tensor tXsB = s2r_thr_copy_b.partition_S(sB); Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);
O("tAsA", tAsA, smemA); O("tBsB", tBsB, smemB);
P("tCrA", tCrA.layout()); P("tCrB", tCrB.layout()); P("tCrC", tCrC.layout());
P("s2r_copy_a", s2r_copy_a); O("tXsA", tXsA, smemA); P("tXrA", tXrA.layout());
P("s2r_copy_b", s2r_copy_b); O("tXsB", tXsB, smemB); P("tXrB", tXrB.layout());
""",
    "sgemm_sm80_tn": """
using TA = half_t; using TB = half_t; using TC = half_t;
int M = 5120; int N = 5120; int K = 4096; int ldA = K; int ldB = K; int ldC = M; int bx = 1; int by = 2;
auto dA = make_stride(ldA, Int<1>{}); auto dB = make_stride(ldB, Int<1>{});
auto dC = make_stride(Int<1>{}, ldC);
auto bK = Int<64>{}; auto bP = Int<3>{}; auto bM = Int<128>{}; auto bN = Int<128>{};
auto swizzle_atom = composition(Swizzle<3,3,3>{}, Layout<Shape<_8,Shape<_8,_8>>, Stride<_8,Stride<_1,_64>>>{});
auto sA_layout = tile_to_shape(swizzle_atom, make_shape(Int<128>{}, bK, bP));
auto sB_layout = tile_to_shape(swizzle_atom, make_shape(Int<128>{}, bK, bP));
TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});
TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{});
Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_a; Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_b;
""" + _GEMM_HEAD + _COPY_MMA + """
Tensor tCrA = thr_mma.partition_fragment_A(sA(_,_,0)); Tensor tCrB = thr_mma.partition_fragment_B(sB(_,_,0));
Tensor tCrC = thr_mma.make_fragment_C(tCgC);
TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mmaC); ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(tid);
Tensor tXsA = s2r_thr_copy_a.partition_S(sA); Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);
TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom_b, mmaC); ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(tid);
Tensor tXsB = s2r_thr_copy_b.partition_S(sB); Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);
O("tAsA", tAsA, smemA); O("tBsB", tBsB, smemB);
P("tCrA", tCrA.layout()); P("tCrB", tCrB.layout()); P("tCrC", tCrC.layout());
P("s2r_copy_a", s2r_copy_a); O("tXsA", tXsA, smemA); P("tXrA", tXrA.layout());
P("s2r_copy_b", s2r_copy_b); O("tXsB", tXsB, smemB); P("tXrB", tXrB.layout());
""",
    "tiled_copy": """
using Element = float;
Element const* S = reinterpret_cast<Element const*>(0x10000);
Tensor tensor_S = make_tensor(make_gmem_ptr(S), make_layout(make_shape(256, 512)));
auto block_shape = make_shape(Int<128>{}, Int<64>{});
Tensor tiled_tensor_S = tiled_divide(tensor_S, block_shape);
Layout thr_layout = make_layout(make_shape(Int<32>{}, Int<8>{}));
Layout val_layout = make_layout(make_shape(Int<4>{}, Int<1>{}));
using CopyOp = UniversalCopy<uint_byte_t<sizeof(Element) * size(val_layout)>>;
TiledCopy tiled_copy = make_tiled_copy(Copy_Atom<CopyOp, Element>{}, thr_layout, val_layout);
int bx = 1; int by = 2;
Tensor tile_S = tiled_tensor_S(make_coord(_, _), bx, by);
ThrCopy thr_copy = tiled_copy.get_thread_slice(tid);
Tensor thr_tile_S = thr_copy.partition_S(tile_S);
Tensor fragment = make_fragment_like(thr_copy.partition_D(tile_S));
P("tiled_tensor_S", tiled_tensor_S.layout()); P("tiled_copy", tiled_copy);
O("tile_S", tile_S, S); O("thr_tile_S", thr_tile_S, S); P("fragment", fragment.layout());
""",
    "tiled_copy_if": """
using Element = float;
Element const* S = reinterpret_cast<Element const*>(0x10000);
Tensor tensor_S = make_tensor(make_gmem_ptr(S), make_layout(make_shape(528, 300)));
auto block_shape = make_shape(Int<128>{}, Int<64>{});
Layout thr_layout = make_layout(make_shape(Int<32>{}, Int<8>{}));
Layout val_layout = make_layout(make_shape(Int<4>{}, Int<1>{}));
TiledCopy tiled_copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, Element>{}, thr_layout, val_layout);
Tensor C = make_identity_tensor(shape(tensor_S));
int bx = 4; int by = 4;
auto block_coord = make_coord(bx, by);
Tensor tile_S = local_tile(tensor_S, block_shape, block_coord);
Tensor tile_C = local_tile(C, block_shape, block_coord);
Tensor thr_tile_S = local_partition(tile_S, thr_layout, tid);
Tensor thr_tile_C = local_partition(tile_C, thr_layout, tid);
ThrCopy thr_copy = tiled_copy.get_thread_slice(tid);
Tensor vthr_tile_S = thr_copy.partition_S(tile_S);
Tensor vthr_tile_C = thr_copy.partition_S(tile_C);
Tensor frag = make_fragment_like(vthr_tile_S);
P("tiled_copy", tiled_copy);
O("tile_S", tile_S, S); O("thr_tile_S", thr_tile_S, S); P("thr_tile_C", thr_tile_C);
O("vthr_tile_S", vthr_tile_S, S); P("vthr_tile_C", vthr_tile_C); P("frag", frag.layout());
std::printf("pred:"); for (int i = 0; i < int(size(vthr_tile_C)); ++i) std::printf(" %d", int(elem_less(vthr_tile_C(i), shape(tensor_S)))); std::printf("\\n");
auto V = [](const char* name, auto const& t) { std::printf("%s: ", name); print(t); std::printf(" |"); for (int i = 0; i < int(size(t)); ++i) std::printf(" %d", int(t(i))); std::printf("\\n"); };
Tensor P = cute::lazy::transform(C, [&](auto c) { return elem_less(c, shape(tensor_S)); });
Tensor tile_P = local_tile(P, block_shape, block_coord);
Tensor thr_tile_P = local_partition(tile_P, thr_layout, tid);
Tensor vthr_tile_P = thr_copy.partition_S(tile_P);
V("tile_P", tile_P); V("thr_tile_P", thr_tile_P); V("vthr_tile_P", vthr_tile_P);
""",
}


def cxx_case(name: str, tid: int) -> str:
    return f"int tid = {tid};\n" + CXX[name]


def cases() -> list[tuple[str, int]]:
    return [(n, t) for n, ts in THREADS.items() for t in ts]


# -- cutepy's side ---------------------------------------------------------------------------------


def _fmt(x: object) -> str:
    """C++'s exact print of a value (layouts, tensors, TiledCopy/TiledMMA): ``_`` on static ints."""
    if isinstance(x, (tuple, int)):
        return format_tuple(x, cxx=True)
    return format(x, "cxx")


class _Out:
    """Collects lines in the C++ print's form (``P``: a print; ``O``: a tensor's layout and the
    offsets of its elements from the buffer's start)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def P(self, name: str, x: object) -> None:  # noqa: N802 - the C++ helper's name
        self.lines.append(f"{name}: {_fmt(x)}")

    def O(self, name: str, t: Tensor, swizzled: object = None) -> None:  # noqa: N802, E743
        """``swizzled``: the swizzle of a ``Sw o 0 o L`` smem tensor, ``t`` a partition of ``L``:
        the element offsets are the swizzled offsets of ``t``. The copies' partitions ``tAsA`` and
        ``tBsB`` print as C++ prints them (C++ keeps the swizzle in the smem pointer); the ldmatrix
        partitions ``tXsA``/``tXsB`` compare offsets only: C++ prints them with the swizzle of
        the pointer moved into run-time strides (its swizzle pointers, not modelled here)."""
        if swizzled is not None:
            offs = [swizzled(int(x)) for x in np.asarray(t.layout.offsets()) + int(t.offset)]
            head = format(t.layout, "cxx") if name in ("tAsA", "tBsB") else "<swizzled>"
            self.lines.append(f"{name}: {head} |" + "".join(f" {int(o)}" for o in offs))
            return
        offs = np.asarray(t.layout.offsets()) + int(t.offset)
        self.lines.append(f"{name}: {format(t.layout, 'cxx')} |" + "".join(f" {int(o)}" for o in offs))


def _buffer(L: object) -> Tensor:
    """A tensor whose engine is never read: only its layout and offset are printed."""
    return Tensor(_NoData(), L, 0)


class _NoData:
    """An engine that only has a length (partitions never read it)."""

    def __len__(self) -> int:
        return 1 << 40


# the tutorials' run-time values: problem sizes, leading dimensions, block index (threadIdx.x: tid)
M, N, K = dynamic(5120), dynamic(5120), dynamic(4096)


def _gemm_head(o: _Out, dA: tuple, dB: tuple, dC: tuple, bK: int, sA_layout: object, sB_layout: object):
    cta = (128, 128, bK)
    mA, mB = _buffer(Layout((M, K), dA)), _buffer(Layout((N, K), dB))
    mC = _buffer(Layout((M, N), dC))
    coord = (dynamic(1), dynamic(2), None)
    gA = local_tile(mA, cta, coord, proj=(1, None, 1))
    gB = local_tile(mB, cta, coord, proj=(None, 1, 1))
    gC = local_tile(mC, cta, coord, proj=(1, 1, None))
    o.P("sA_layout", sA_layout)
    o.P("sB_layout", sB_layout)
    o.O("gA", gA(None, None, 0))
    o.O("gB", gB(None, None, 0))
    o.O("gC", gC)
    return gA, gB, gC


def _copy_mma(o: _Out, tid: int, copyA, copyB, mma, gA, gB, gC, sA, sB):
    tA, tB = copyA.get_slice(tid), copyB.get_slice(tid)
    thr = mma.get_slice(tid)
    tAgA, tBgB, tCgC = tA.partition_S(gA), tB.partition_S(gB), thr.partition_C(gC)
    o.P("copyA", copyA)
    o.P("copyB", copyB)
    o.P("mmaC", mma)
    o.P("size_copyA", copyA.size)
    o.P("size_mmaC", mma.size)
    o.P("thr_copy_a", tA)
    o.P("thr_mma", thr)
    o.O("tAgA", tAgA(None, None, None, 0))
    o.O("tBgB", tBgB(None, None, None, 0))
    o.O("tCgC", tCgC)
    return tA, tB, thr, tCgC


def _fma_design(atom: str):
    cp = make_tiled_copy(copy_atom(atom, 32), Layout((32, 8)), Layout((4, 1)))
    mma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (16, 16, 1))
    return cp, cp, mma


def cutepy_lines(name: str, tid: int) -> list[str]:
    o = _Out()
    tid = dynamic(tid)  # threadIdx.x
    nt = ((1, M), (1, N), (1, M))
    if name == "sgemm_1":
        sAL, sBL = Layout((128, 8)), Layout((128, 8))
        gA, gB, gC = _gemm_head(o, *nt, 8, sAL, sBL)
        sA, sB = _buffer(sAL), _buffer(sBL)
        tA, tB, tC = Layout((32, 8)), Layout((32, 8)), Layout((16, 16))
        tAgA, tAsA = local_partition(gA, tA, tid), local_partition(sA, tA, tid)
        tBgB, tBsB = local_partition(gB, tB, tid), local_partition(sB, tB, tid)
        tCsA = local_partition(sA, tC, tid, proj=(1, None))
        tCsB = local_partition(sB, tC, tid, proj=(None, 1))
        tCgC = local_partition(gC, tC, tid, proj=(1, 1))
        o.O("tAgA", tAgA(None, None, 0))
        o.O("tAsA", tAsA)
        o.O("tBgB", tBgB(None, None, 0))
        o.O("tBsB", tBsB)
        o.O("tCsA", tCsA)
        o.O("tCsB", tCsB)
        o.O("tCgC", tCgC)
        o.P("tCrC", make_tensor_like(tCgC).layout)
    elif name in ("sgemm_2", "sgemm_sm70", "sgemm_sm80"):
        sm80 = name == "sgemm_sm80"
        sAL = Layout((128, 8, 3)) if sm80 else Layout((128, 8))
        sBL = sAL
        copyA, copyB, mma = _fma_design("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>" if sm80
                                         else "UniversalCopy<uint128_t>")
        gA, gB, gC = _gemm_head(o, *nt, 8, sAL, sBL)
        if sm80:
            o.lines.insert(-3, "unused: 0")
        sA, sB = _buffer(sAL), _buffer(sBL)
        tA, tB, thr, tCgC = _copy_mma(o, tid, copyA, copyB, mma, gA, gB, gC, sA, sB)
        tAsA, tBsB = tA.partition_D(sA), tB.partition_D(sB)
        if not sm80:
            tCsA, tCsB = thr.partition_A(sA), thr.partition_B(sB)
            o.O("tAsA", tAsA)
            o.O("tBsB", tBsB)
            o.P("tArA", make_fragment_like(tAsA).layout)
            o.P("tBrB", make_fragment_like(tBsB).layout)
            o.O("tCsA", tCsA)
            o.O("tCsB", tCsB)
            if name == "sgemm_sm70":
                o.P("tCrA", thr.make_fragment_A(tCsA).layout)
                o.P("tCrB", thr.make_fragment_B(tCsB).layout)
            o.P("tCrC", thr.make_fragment_C(tCgC).layout)
        else:
            _s2r(o, tid, thr, mma, sA, sB, tAsA, tBsB, tCgC, copy_atom("AutoVectorizingCopy", 32))
    elif name == "sgemm_sm80_tn":
        atom = composition(Swizzle(3, 3, 3), Layout((8, (8, 8)), (8, (1, 64))))
        sAL = tile_to_shape(atom, (128, 64, 3))
        cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                             Layout((16, 8), (8, 1)), Layout((1, 8)))
        mma = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), (2, 2), (32, 32, 16))
        gA, gB, gC = _gemm_head(o, (K, 1), (K, 1), (1, M), 64, sAL, sAL)
        inner = _buffer(sAL.inner)  # Sw<3,3,3> o 0 o inner: partitions of inner, then the swizzle
        tA, tB, thr, tCgC = _copy_mma(o, tid, cp, cp, mma, gA, gB, gC, inner, inner)
        _s2r(o, tid, thr, mma, inner, inner, tA.partition_D(inner), tB.partition_D(inner), tCgC,
             copy_atom("SM75_U32x4_LDSM_N", 16), swizzled=sAL.outer, whole=_buffer(sAL))
    elif name == "tiled_copy":
        S = _buffer(Layout(dynamic((256, 512))))
        tiled = tiled_divide(S, (128, 64))
        cp = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 32), Layout((32, 8)), Layout((4, 1)))
        tile_S = tiled((None, None), dynamic(1), dynamic(2))
        thr = cp.get_slice(tid)
        o.P("tiled_tensor_S", tiled.layout)
        o.P("tiled_copy", cp)
        o.O("tile_S", tile_S)
        o.O("thr_tile_S", thr.partition_S(tile_S))
        o.P("fragment", make_fragment_like(thr.partition_D(tile_S).layout))
    elif name == "tiled_copy_if":
        shape = dynamic((528, 300))
        S = _buffer(Layout(shape))
        cp = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 32), Layout((32, 8)), Layout((4, 1)))
        tile_S = local_tile(S, (128, 64), dynamic((4, 4)))
        tile_C = local_tile(make_identity_tensor(shape), (128, 64), dynamic((4, 4)))
        thr = cp.get_slice(tid)
        vC = thr.partition_S(tile_C)
        o.P("tiled_copy", cp)
        o.O("tile_S", tile_S)
        o.O("thr_tile_S", local_partition(tile_S, Layout((32, 8)), tid))
        o.P("thr_tile_C", local_partition(tile_C, Layout((32, 8)), tid))
        o.O("vthr_tile_S", thr.partition_S(tile_S))
        o.P("vthr_tile_C", vC)
        o.P("frag", make_fragment_like(thr.partition_S(tile_S).layout))
        o.lines.append("pred:" + "".join(f" {int(elem_less(vC[i], shape))}" for i in range(size(vC))))
        # the tutorial's predicate tensor: C++'s lazy::transform of the identity tensor
        P = lazy_transform(make_identity_tensor(shape), lambda c: elem_less(c, shape))
        tile_P = local_tile(P, (128, 64), dynamic((4, 4)))
        for name, t in (("tile_P", tile_P), ("thr_tile_P", local_partition(tile_P, Layout((32, 8)), tid)),
                        ("vthr_tile_P", thr.partition_S(tile_P))):
            o.lines.append(f"{name}: {_fmt(t)} |" + "".join(f" {int(v)}" for v in t.values()))
    else:
        raise KeyError(name)
    return o.lines


def _s2r(o, tid, thr, mma, sA, sB, tAsA, tBsB, tCgC, atom, swizzled=None, whole=None):
    """``whole``: the swizzled smem tensor the register fragments are made from (C++ partitions it
    at the run-time thread index, which turns the swizzle into run-time strides)."""
    src = sA if whole is None else whole  # the TN tutorial's sA and sB share one layout
    sA0, sB0 = src(None, None, 0), src(None, None, 0)
    tCrA, tCrB = thr.partition_fragment_A(sA0), thr.partition_fragment_B(sB0)
    cpa, cpb = make_tiled_copy_A(atom, mma), make_tiled_copy_B(atom, mma)
    o.O("tAsA", tAsA, swizzled)
    o.O("tBsB", tBsB, swizzled)
    o.P("tCrA", tCrA.layout)
    o.P("tCrB", tCrB.layout)
    o.P("tCrC", thr.make_fragment_C(tCgC).layout)
    o.P("s2r_copy_a", cpa)
    o.O("tXsA", cpa.get_slice(tid).partition_S(sA), swizzled)
    o.P("tXrA", cpa.get_slice(tid).retile_D(tCrA).layout)
    o.P("s2r_copy_b", cpb)
    o.O("tXsB", cpb.get_slice(tid).partition_S(sB), swizzled)
    o.P("tXrB", cpb.get_slice(tid).retile_D(tCrB).layout)


# -- the stored C++ prints -------------------------------------------------------------------


def condense(line: str) -> str:
    """A printed line with its element offsets as their count, the first 8 and a sha1 of all
    (the stored file stays small; the comparison still covers every offset)."""
    if " |" not in line:
        return line
    head, nums = line.split(" |", 1)
    vals = nums.split()
    digest = hashlib.sha1(" ".join(vals).encode()).hexdigest()[:16]
    return f"{head} | n={len(vals)} {' '.join(vals[:8])} .. sha1={digest}"


def read() -> dict[tuple[str, int], list[str]]:
    """The stored prints: (tutorial, thread) -> lines."""
    out: dict[tuple[str, int], list[str]] = {}
    key = None
    for line in FILE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("== "):
            name, tid = line[3:].split()
            key = (name, int(tid))
            out[key] = []
        else:
            out[key].append(line)
    return out


def generate() -> str:
    cs = cases()
    res = cxx_harness.run_cases([cxx_case(n, t) for n, t in cs], INCLUDES, PREAMBLE)
    bad = [(c, r.error) for c, r in zip(cs, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ failed on {bad[0][0]}:\n{bad[0][1][:3000]}")
    head = [f"# {line}" for line in (__doc__ or "").strip().splitlines()]
    body = []
    for (n, t), r in zip(cs, res):
        body.append(f"== {n} {t}")
        body += [condense(x.strip()) for x in r.output.strip().splitlines() if x.strip()]
    return "\n".join(head + body) + "\n"


if __name__ == "__main__":
    FILE.write_text(generate())
    print(f"wrote {FILE}")
