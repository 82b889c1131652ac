"""CUTLASS's CuTe tutorial hopper/wgmma_tma_sm90 (gemm_nt, the default 'N','T' run with m=512,
n=256, k=1024) as host code: every object the kernel builds, printed for threads 0, 1, 37 and
127 of CTA (1, 0). As in the tutorials, problem sizes, leading dimensions, the block index and
``threadIdx.x`` are run-time ``int``s (tile sizes static); prints are stored in C++'s exact form
(``_N`` static, ``N`` run-time). Stored in tests/data/tutorial_wgmma_tma_sm90.txt (and the
blackwell files below).

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.tutorial_cxx
"""

from __future__ import annotations

import sys
from typing import Any

from tests.kernels import tma_cxx
from tests.paths import DATA

FILE = DATA / "tutorial_wgmma_tma_sm90.txt"
THREADS = (0, 1, 37, 127)

SOURCE = r'''
using TA = cute::half_t; using TB = cute::half_t; using TC = cute::half_t;
int M = 512, N = 256, K = 1024;
auto dA = make_stride(Int<1>{}, M); auto dB = make_stride(Int<1>{}, N);
auto dC = make_stride(Int<1>{}, M);
auto bM = Int<128>{}; auto bN = Int<128>{}; auto bK = Int<64>{}; auto bP = Int<3>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto sA_layout = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, make_shape(bM, bK, bP));
auto sB_layout = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TB>{}, make_shape(bN, bK, bP));
TiledMMA mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{});
Tensor A = make_tensor(make_gmem_ptr((TA*)0x10000000ull), make_shape(M, K), dA);
Tensor B = make_tensor(make_gmem_ptr((TB*)0x20000000ull), make_shape(N, K), dB);
Copy_Atom tma_a = make_tma_atom(SM90_TMA_LOAD{}, A, sA_layout(_,_,0), make_shape(bM, bK));
Copy_Atom tma_b = make_tma_atom(SM90_TMA_LOAD{}, B, sB_layout(_,_,0), make_shape(bN, bK));
printf("@sA\n"); print(sA_layout); printf("\n@sB\n"); print(sB_layout);
printf("\n@mma\n"); print(mma);
printf("\n@tma_a\n"); print(tma_a); printf("\n@tma_b\n"); print(tma_b);
Tensor mA = tma_a.get_tma_tensor(make_shape(M, K));
Tensor mB = tma_b.get_tma_tensor(make_shape(N, K));
Tensor mC = make_tensor(make_gmem_ptr((TC*)0x30000000ull), make_shape(M, N), dC);
int bx = 1, by = 0;  // blockIdx.x, blockIdx.y
auto cta_coord = make_coord(bx, by, _);
Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});
Tensor sA = make_tensor(make_smem_ptr((TA*)0x400), sA_layout);
Tensor sB = make_tensor(make_smem_ptr((TB*)0xc400), sB_layout);
printf("\n@gA\n"); print(gA); printf("\n@gB\n"); print(gB); printf("\n@gC\n"); print(gC);
auto [tAgA, tAsA] = tma_partition(tma_a, Int<0>{}, Layout<_1>{},
                                  group_modes<0,2>(sA), group_modes<0,2>(gA));
auto [tBgB, tBsB] = tma_partition(tma_b, Int<0>{}, Layout<_1>{},
                                  group_modes<0,2>(sB), group_modes<0,2>(gB));
printf("\n@tAgA\n"); print(tAgA); printf("\n@tAsA\n"); print(tAsA);
printf("\n@tBgB\n"); print(tBgB); printf("\n@tBsB\n"); print(tBsB);
int threads[] = {{THREADS}};
for (int t : threads) {
  ThrMMA thr_mma = mma.get_thread_slice(t);
  Tensor tCsA = thr_mma.partition_A(sA); Tensor tCsB = thr_mma.partition_B(sB);
  Tensor tCgC = thr_mma.partition_C(gC);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  Tensor tCrA = thr_mma.make_fragment_A(tCsA); Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  printf("\n@tCsA %d\n", t); print(tCsA); printf("\n@tCsB %d\n", t); print(tCsB);
  printf("\n@tCgC %d\n", t); print(tCgC); printf("\n@tCrC %d\n", t); print(tCrC.layout());
  printf("\n@tCrA %d\n", t); print(tCrA.layout()); printf("\n@tCrB %d\n", t); print(tCrB.layout());
}
printf("\n");
'''.replace("{THREADS}", ", ".join(map(str, THREADS)))


FILE_SM100 = DATA / "tutorial_blackwell_02.txt"

#: blackwell/02_mma_tma_sm100 (Gemm 512x1024x256, half_t A/B K-major, float C) as host code, for
#: the CTA at blockIdx (1, 2); UMMA descriptor fragments (make_fragment_A/B) are left out.
SOURCE_SM100 = r'''
using TypeA = cute::half_t; using TypeB = cute::half_t; using TypeC = float;
int Gemm_M = 512, Gemm_N = 1024, Gemm_K = 256;
Tensor mA = make_tensor(make_gmem_ptr((TypeA*)0x10000000ull), make_layout(make_shape(Gemm_M, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mB = make_tensor(make_gmem_ptr((TypeB*)0x20000000ull), make_layout(make_shape(Gemm_N, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mC = make_tensor(make_gmem_ptr((TypeC*)0x30000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256,
                                                         UMMA::Major::K, UMMA::Major::K>{});
auto bM = tile_size<0>(tiled_mma); auto bN = tile_size<1>(tiled_mma);
auto bK = tile_size<2>(tiled_mma) * Int<4>{};
auto mma_tiler = make_shape(bM, bN, bK);
auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(size<0>(mma_tiler), size<2>(mma_tiler)));
auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
Copy_Atom tma_atom_A = make_tma_atom(SM90_TMA_LOAD{}, mA, sA_layout, select<0,2>(mma_tiler));
Copy_Atom tma_atom_B = make_tma_atom(SM90_TMA_LOAD{}, mB, sB_layout, select<1,2>(mma_tiler));
Tensor mA_tma = tma_atom_A.get_tma_tensor(shape(mA));
Tensor mB_tma = tma_atom_B.get_tma_tensor(shape(mB));
printf("@mma\n"); print(tiled_mma); printf("\n@sA\n"); print(sA_layout); printf("\n@sB\n"); print(sB_layout);
printf("\n@tma_a\n"); print(tma_atom_A); printf("\n@tma_b\n"); print(tma_atom_B);
printf("\n@mA\n"); print(mA_tma); printf("\n@mB\n"); print(mB_tma);
auto cluster_shape = make_shape(Int<1>{}, Int<1>{}, Int<1>{});
Layout cluster_layout_vmnk = tiled_divide(make_layout(cluster_shape),
                                          make_tile(typename decltype(tiled_mma)::AtomThrID{}));
int bx = 1, by = 2;  // blockIdx.x, blockIdx.y
auto mma_coord_vmnk = make_coord(bx % size<0>(cluster_layout_vmnk), bx / size<0>(cluster_layout_vmnk), by, _);
auto mma_coord = select<1,2,3>(mma_coord_vmnk);
Tensor gA = local_tile(mA_tma, mma_tiler, mma_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB_tma, mma_tiler, mma_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, mma_tiler, mma_coord, Step<_1,_1, X>{});
printf("\n@gA\n"); print(gA); printf("\n@gB\n"); print(gB); printf("\n@gC\n"); print(gC);
Tensor tCsA = make_tensor(make_smem_ptr((TypeA*)0x400), sA_layout);
Tensor tCsB = make_tensor(make_smem_ptr((TypeB*)0x4400), sB_layout);
ThrMMA cta_mma = tiled_mma.get_slice(get<0>(mma_coord_vmnk));
Tensor tCgA = cta_mma.partition_A(gA); Tensor tCgB = cta_mma.partition_B(gB);
Tensor tCgC = cta_mma.partition_C(gC);
printf("\n@tCgA\n"); print(tCgA); printf("\n@tCgB\n"); print(tCgB); printf("\n@tCgC\n"); print(tCgC);
Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);
printf("\n@tCtAcc\n"); print(tCtAcc);
auto [tAgA, tAsA] = tma_partition(tma_atom_A, Int<0>{}, Layout<_1>{},
                                  group_modes<0,3>(tCsA), group_modes<0,3>(tCgA));
auto [tBgB, tBsB] = tma_partition(tma_atom_B, Int<0>{}, Layout<_1>{},
                                  group_modes<0,3>(tCsB), group_modes<0,3>(tCgB));
printf("\n@tAgA\n"); print(tAgA); printf("\n@tAsA\n"); print(tAsA);
printf("\n@tBgB\n"); print(tBgB); printf("\n@tBsB\n"); print(tBsB);
printf("\n");
'''


FILE_SM100_2SM = DATA / "tutorial_blackwell_04.txt"

#: blackwell/04_mma_tma_2sm_sm100 (2-SM UMMA 256x256, cluster 4x4x1, multicast 2-SM TMA) as host
#: code for the CTA at blockIdx (5, 1), block rank 5 in its cluster.
SOURCE_SM100_2SM = r'''
using TypeA = cute::half_t; using TypeB = cute::half_t; using TypeC = float;
int Gemm_M = 512, Gemm_N = 1024, Gemm_K = 256;
Tensor mA = make_tensor(make_gmem_ptr((TypeA*)0x10000000ull), make_layout(make_shape(Gemm_M, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mB = make_tensor(make_gmem_ptr((TypeB*)0x20000000ull), make_layout(make_shape(Gemm_N, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mC = make_tensor(make_gmem_ptr((TypeC*)0x30000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<TypeA, TypeB, TypeC, 256, 256,
                                                               UMMA::Major::K, UMMA::Major::K>{});
auto bM = tile_size<0>(tiled_mma); auto bN = tile_size<1>(tiled_mma);
auto bK = tile_size<2>(tiled_mma) * Int<4>{};
auto mma_tiler = make_shape(bM, bN, bK);
auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(size<0>(mma_tiler), size<2>(mma_tiler)));
auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
auto cluster_shape = make_shape(Int<4>{}, Int<4>{}, Int<1>{});
Layout cluster_layout_vmnk = tiled_divide(make_layout(cluster_shape),
                                          make_tile(typename decltype(tiled_mma)::AtomThrID{}));
Copy_Atom tma_atom_A = make_tma_atom_A_sm100(SM100_TMA_2SM_LOAD_MULTICAST{}, mA, sA_layout, mma_tiler,
                                             tiled_mma, cluster_layout_vmnk);
Copy_Atom tma_atom_B = make_tma_atom_B_sm100(SM100_TMA_2SM_LOAD_MULTICAST{}, mB, sB_layout, mma_tiler,
                                             tiled_mma, cluster_layout_vmnk);
Tensor mA_tma = tma_atom_A.get_tma_tensor(shape(mA));
Tensor mB_tma = tma_atom_B.get_tma_tensor(shape(mB));
printf("@mma\n"); print(tiled_mma); printf("\n@sA\n"); print(sA_layout); printf("\n@sB\n"); print(sB_layout);
printf("\n@cluster\n"); print(cluster_layout_vmnk);
printf("\n@tma_a\n"); print(tma_atom_A); printf("\n@tma_b\n"); print(tma_atom_B);
printf("\n@mA\n"); print(mA_tma); printf("\n@mB\n"); print(mB_tma);
int bx = 5, by = 1;
auto mma_coord_vmnk = make_coord(bx % size<0>(cluster_layout_vmnk), bx / size<0>(cluster_layout_vmnk), by, _);
auto mma_coord = select<1,2,3>(mma_coord_vmnk);
Tensor gA = local_tile(mA_tma, mma_tiler, mma_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB_tma, mma_tiler, mma_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, mma_tiler, mma_coord, Step<_1,_1, X>{});
printf("\n@gA\n"); print(gA); printf("\n@gB\n"); print(gB); printf("\n@gC\n"); print(gC);
Tensor tCsA = make_tensor(make_smem_ptr((TypeA*)0x400), sA_layout);
Tensor tCsB = make_tensor(make_smem_ptr((TypeB*)0x4400), sB_layout);
ThrMMA cta_mma = tiled_mma.get_slice(get<0>(mma_coord_vmnk));
Tensor tCgA = cta_mma.partition_A(gA); Tensor tCgB = cta_mma.partition_B(gB);
Tensor tCgC = cta_mma.partition_C(gC);
printf("\n@tCgA\n"); print(tCgA); printf("\n@tCgB\n"); print(tCgB); printf("\n@tCgC\n"); print(tCgC);
printf("\n@tCtAcc\n"); print(cta_mma.make_fragment_C(tCgC));
auto cta_in_cluster_coord_vmnk = cluster_layout_vmnk.get_flat_coord(5);
auto [tAgA, tAsA] = tma_partition(tma_atom_A, get<2>(cta_in_cluster_coord_vmnk),
                                  make_layout(size<2>(cluster_layout_vmnk)),
                                  group_modes<0,3>(tCsA), group_modes<0,3>(tCgA));
auto [tBgB, tBsB] = tma_partition(tma_atom_B, get<1>(cta_in_cluster_coord_vmnk),
                                  make_layout(size<1>(cluster_layout_vmnk)),
                                  group_modes<0,3>(tCsB), group_modes<0,3>(tCgB));
printf("\n@tAgA\n"); print(tAgA); printf("\n@tAsA\n"); print(tAsA);
printf("\n@tBgB\n"); print(tBgB); printf("\n@tBsB\n"); print(tBsB);
printf("\n@masks\n%d %d %d",
       int(create_tma_multicast_mask<2>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)),
       int(create_tma_multicast_mask<1>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)),
       int(create_tma_multicast_mask<0,1>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk) |
           create_tma_multicast_mask<0,2>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)));
printf("\n");
'''


FILE_SM100_EPI = DATA / "tutorial_blackwell_05.txt"

#: blackwell/05_mma_tma_epi_sm100's epilogue (the 2-SM UMMA of /04, CTA (5, 1)): TMA atoms for C
#: (load) and D (store) over 128x64 epilogue tiles, their partitions and the TMEM -> smem copy.
SOURCE_SM100_EPI = r'''
using TypeC = float; using TypeD = float;
int Gemm_M = 512, Gemm_N = 1024;
Tensor mC = make_tensor(make_gmem_ptr((TypeC*)0x30000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
Tensor mD = make_tensor(make_gmem_ptr((TypeD*)0x40000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, TypeC, 256, 256,
                                                               UMMA::Major::K, UMMA::Major::K>{});
auto mma_tiler = make_shape(tile_size<0>(tiled_mma), tile_size<1>(tiled_mma),
                            tile_size<2>(tiled_mma) * Int<4>{});
auto mma_shape_C = partition_shape_C(tiled_mma, make_shape(size<0>(mma_tiler), size<1>(mma_tiler)));
auto epi_tiler = make_tile(size<0,0>(mma_shape_C), size<0,1>(mma_shape_C) / Int<4>{});
auto sC_layout = group<0,2>(tile_to_shape(UMMA::Layout_K_SW128_Atom<TypeC>{},
                                          make_shape(size<0>(epi_tiler), size<1>(epi_tiler))));
auto sD_layout = group<0,2>(tile_to_shape(UMMA::Layout_K_SW128_Atom<TypeD>{},
                                          make_shape(size<0>(epi_tiler), size<1>(epi_tiler))));
Copy_Atom tma_atom_C = make_tma_atom(SM90_TMA_LOAD{}, mC, sC_layout, epi_tiler);
Copy_Atom tma_atom_D = make_tma_atom(SM90_TMA_STORE{}, mD, sD_layout, epi_tiler);
Tensor mC_tma = tma_atom_C.get_tma_tensor(shape(mC));
Tensor mD_tma = tma_atom_D.get_tma_tensor(shape(mD));
printf("@sC\n"); print(sC_layout);
printf("\n@tma_c\n"); print(tma_atom_C); printf("\n@tma_d\n"); print(tma_atom_D);
printf("\n@mC\n"); print(mC_tma); printf("\n@mD\n"); print(mD_tma);
int bx = 5, by = 1;
auto mma_coord = make_coord(bx / 2, by, _);
ThrMMA cta_mma = tiled_mma.get_slice(bx % 2);
Tensor gC = local_tile(mC_tma, mma_tiler, mma_coord, Step<_1,_1, X>{});
Tensor gD = local_tile(mD_tma, mma_tiler, mma_coord, Step<_1,_1, X>{});
Tensor tCgC = cta_mma.partition_C(gC); Tensor tCgD = cta_mma.partition_C(gD);
Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);
auto epi_tiler_v = make_tile(epi_tiler);
Tensor tAcc_epi = zipped_divide(tCtAcc, epi_tiler_v);
Tensor gC_epi = zipped_divide(tCgC, epi_tiler_v);
Tensor gD_epi = zipped_divide(tCgD, epi_tiler_v);
Tensor sC_epi = make_tensor(make_smem_ptr((TypeC*)0x400), sC_layout);
Tensor sD_epi = make_tensor(make_smem_ptr((TypeD*)0x8400), sD_layout);
printf("\n@tAcc_epi\n"); print(tAcc_epi); printf("\n@gC_epi\n"); print(gC_epi);
auto [tGS_gC, tGS_sC] = tma_partition(tma_atom_C, sC_epi, gC_epi);
auto [tSG_gD, tSG_sD] = tma_partition(tma_atom_D, sD_epi, gD_epi);
printf("\n@tGS_gC\n"); print(tGS_gC); printf("\n@tGS_sC\n"); print(tGS_sC);
printf("\n@tSG_gD\n"); print(tSG_gD); printf("\n@tSG_sD\n"); print(tSG_sD);
TiledCopy t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tAcc_epi(_,_0{}));
printf("\n@t2r\n"); print(t2r_copy);
int threads[] = {0, 1, 37, 127};
for (int t : threads) {
  ThrCopy thr_t2r = t2r_copy.get_slice(t);
  printf("\n@tTR_tAcc %d\n", t); print(thr_t2r.partition_S(tAcc_epi));
  printf("\n@tTR_sC %d\n", t); print(thr_t2r.partition_D(sC_epi));
}
printf("\n");
'''


FILE_SM100_03 = DATA / "tutorial_blackwell_03.txt"

#: blackwell/03_mma_tma_multicast_sm100 (1-SM UMMA 128x256, 4x4 cluster, SM90_TMA_LOAD_MULTICAST;
#: CTA (5, 1), block rank 5), with the objects blackwell/01 builds too: the UMMA descriptor
#: fragments of A and B and the TMEM -> register copy of the accumulator.
SOURCE_SM100_03 = r'''
using TypeA = cute::half_t; using TypeB = cute::half_t; using TypeC = float;
int Gemm_M = 512, Gemm_N = 1024, Gemm_K = 256;
Tensor mA = make_tensor(make_gmem_ptr((TypeA*)0x10000000ull), make_layout(make_shape(Gemm_M, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mB = make_tensor(make_gmem_ptr((TypeB*)0x20000000ull), make_layout(make_shape(Gemm_N, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mC = make_tensor(make_gmem_ptr((TypeC*)0x30000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256,
                                                         UMMA::Major::K, UMMA::Major::K>{});
auto bM = tile_size<0>(tiled_mma); auto bN = tile_size<1>(tiled_mma);
auto bK = tile_size<2>(tiled_mma) * Int<4>{};
auto mma_tiler = make_shape(bM, bN, bK);
auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(size<0>(mma_tiler), size<2>(mma_tiler)));
auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
auto cluster_shape = make_shape(Int<4>{}, Int<4>{}, Int<1>{});
Layout cluster_layout_vmnk = tiled_divide(make_layout(cluster_shape),
                                          make_tile(typename decltype(tiled_mma)::AtomThrID{}));
Copy_Atom tma_atom_A = make_tma_atom(SM90_TMA_LOAD_MULTICAST{}, mA, sA_layout, select<0,2>(mma_tiler),
                                     size<2>(cluster_layout_vmnk));
Copy_Atom tma_atom_B = make_tma_atom(SM90_TMA_LOAD_MULTICAST{}, mB, sB_layout, select<1,2>(mma_tiler),
                                     size<1>(cluster_layout_vmnk));
Tensor mA_tma = tma_atom_A.get_tma_tensor(shape(mA));
Tensor mB_tma = tma_atom_B.get_tma_tensor(shape(mB));
printf("@cluster\n"); print(cluster_layout_vmnk);
printf("\n@tma_a\n"); print(tma_atom_A); printf("\n@tma_b\n"); print(tma_atom_B);
int bx = 5, by = 1;
auto mma_coord_vmnk = make_coord(bx % size<0>(cluster_layout_vmnk), bx / size<0>(cluster_layout_vmnk), by, _);
auto mma_coord = select<1,2,3>(mma_coord_vmnk);
Tensor gA = local_tile(mA_tma, mma_tiler, mma_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB_tma, mma_tiler, mma_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, mma_tiler, mma_coord, Step<_1,_1, X>{});
Tensor tCsA = make_tensor(make_smem_ptr((TypeA*)0x400), sA_layout);
Tensor tCsB = make_tensor(make_smem_ptr((TypeB*)0x4400), sB_layout);
ThrMMA cta_mma = tiled_mma.get_slice(get<0>(mma_coord_vmnk));
Tensor tCgA = cta_mma.partition_A(gA); Tensor tCgB = cta_mma.partition_B(gB);
Tensor tCgC = cta_mma.partition_C(gC);
Tensor tCrA = cta_mma.make_fragment_A(tCsA); Tensor tCrB = cta_mma.make_fragment_B(tCsB);
Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);
printf("\n@tCgA\n"); print(tCgA); printf("\n@tCgB\n"); print(tCgB); printf("\n@tCgC\n"); print(tCgC);
printf("\n@tCrA\n"); print(tCrA.layout()); printf("\n@tCrB\n"); print(tCrB.layout());
printf("\n@tCtAcc\n"); print(tCtAcc);
auto cta_in_cluster_coord_vmnk = cluster_layout_vmnk.get_flat_coord(5);
auto [tAgA, tAsA] = tma_partition(tma_atom_A, get<2>(cta_in_cluster_coord_vmnk),
                                  make_layout(size<2>(cluster_layout_vmnk)),
                                  group_modes<0,3>(tCsA), group_modes<0,3>(tCgA));
auto [tBgB, tBsB] = tma_partition(tma_atom_B, get<1>(cta_in_cluster_coord_vmnk),
                                  make_layout(size<1>(cluster_layout_vmnk)),
                                  group_modes<0,3>(tCsB), group_modes<0,3>(tCgB));
printf("\n@tAgA\n"); print(tAgA); printf("\n@tAsA\n"); print(tAsA);
printf("\n@tBgB\n"); print(tBgB); printf("\n@tBsB\n"); print(tBsB);
printf("\n@masks\n%d %d %d",
       int(create_tma_multicast_mask<2>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)),
       int(create_tma_multicast_mask<1>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)),
       int(create_tma_multicast_mask<0,1>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk) |
           create_tma_multicast_mask<0,2>(cluster_layout_vmnk, cta_in_cluster_coord_vmnk)));
TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
printf("\n@t2r\n"); print(tiled_t2r_copy);
int threads[] = {0, 1, 37, 127};
for (int t : threads) {
  ThrCopy thr_t2r_copy = tiled_t2r_copy.get_slice(t);
  printf("\n@tDtAcc %d\n", t); print(thr_t2r_copy.partition_S(tCtAcc));
  printf("\n@tDgC %d\n", t); print(thr_t2r_copy.partition_D(tCgC));
}
printf("\n");
'''


FILE_SM100_01 = DATA / "tutorial_blackwell_01.txt"

#: blackwell/01_mma_sm100 (1-SM UMMA 128x256 from plain gmem tensors; CTA (1, 2)): the tiles, MMA
#: partitions, UMMA descriptor fragments, the TMEM accumulator and the TMEM -> register copy.
SOURCE_SM100_01 = r'''
using TypeA = cute::half_t; using TypeB = cute::half_t; using TypeC = float;
int Gemm_M = 512, Gemm_N = 1024, Gemm_K = 256;
Tensor mA = make_tensor(make_gmem_ptr((TypeA*)0x10000000ull), make_layout(make_shape(Gemm_M, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mB = make_tensor(make_gmem_ptr((TypeB*)0x20000000ull), make_layout(make_shape(Gemm_N, Gemm_K),
                                                                          make_stride(Gemm_K, Int<1>{})));
Tensor mC = make_tensor(make_gmem_ptr((TypeC*)0x30000000ull), make_layout(make_shape(Gemm_M, Gemm_N),
                                                                          make_stride(Gemm_N, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256,
                                                         UMMA::Major::K, UMMA::Major::K>{});
auto mma_tiler = make_shape(tile_size<0>(tiled_mma), tile_size<1>(tiled_mma),
                            tile_size<2>(tiled_mma) * Int<4>{});
auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(size<0>(mma_tiler), size<2>(mma_tiler)));
auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
printf("@sA\n"); print(sA_layout); printf("\n@sB\n"); print(sB_layout);
auto cluster_shape = make_shape(Int<1>{}, Int<1>{}, Int<1>{});
Layout cluster_layout_vmnk = tiled_divide(make_layout(cluster_shape),
                                          make_tile(typename decltype(tiled_mma)::AtomThrID{}));
int bx = 1, by = 2;  // blockIdx.x, blockIdx.y
auto mma_coord_vmnk = make_coord(bx % size<0>(cluster_layout_vmnk), bx / size<0>(cluster_layout_vmnk), by, _);
auto mma_coord = select<1,2,3>(mma_coord_vmnk);
Tensor gA = local_tile(mA, mma_tiler, mma_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB, mma_tiler, mma_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, mma_tiler, mma_coord, Step<_1,_1, X>{});
printf("\n@gA\n"); print(gA); printf("\n@gB\n"); print(gB); printf("\n@gC\n"); print(gC);
Tensor tCsA = make_tensor(make_smem_ptr((TypeA*)0x400), sA_layout);
Tensor tCsB = make_tensor(make_smem_ptr((TypeB*)0x4400), sB_layout);
ThrMMA cta_mma = tiled_mma.get_slice(get<0>(mma_coord_vmnk));
Tensor tCgA = cta_mma.partition_A(gA); Tensor tCgB = cta_mma.partition_B(gB);
Tensor tCgC = cta_mma.partition_C(gC);
printf("\n@tCgA\n"); print(tCgA); printf("\n@tCgB\n"); print(tCgB); printf("\n@tCgC\n"); print(tCgC);
Tensor tCrA = cta_mma.make_fragment_A(tCsA); Tensor tCrB = cta_mma.make_fragment_B(tCsB);
Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);
printf("\n@tCrA\n"); print(tCrA.layout()); printf("\n@tCrB\n"); print(tCrB.layout());
printf("\n@tCtAcc\n"); print(tCtAcc);
TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
printf("\n@t2r\n"); print(tiled_t2r_copy);
int threads[] = {0, 1, 37, 127};
for (int t : threads) {
  ThrCopy thr_t2r_copy = tiled_t2r_copy.get_slice(t);
  printf("\n@tDgC %d\n", t); print(thr_t2r_copy.partition_D(tCgC));
  printf("\n@tDtAcc %d\n", t); print(thr_t2r_copy.partition_S(tCtAcc));
}
printf("\n");
'''


def read(path: Any = FILE) -> dict[str, str]:
    """``@section`` -> the print (C++'s exact form) of the stored run."""
    return tma_cxx.parse_output(path.read_text().split("\n", 3)[3])["sections"]


def read_descriptors(path: Any = FILE) -> list[dict]:
    """The descriptors the stub driver received, in order (tma_a, tma_b)."""
    lines = [x for x in path.read_text().splitlines() if x.startswith("DESC ")]
    return [tma_cxx.parse_output(x)["descriptor"] for x in lines]


#: command-line flag -> (C++ source, stored file, tutorial name)
RUNS = {
    "": (SOURCE, FILE, "hopper/wgmma_tma_sm90 gemm_nt"),
    "--sm100-01": (SOURCE_SM100_01, FILE_SM100_01, "blackwell/01_mma_sm100"),
    "--sm100": (SOURCE_SM100, FILE_SM100, "blackwell/02_mma_tma_sm100"),
    "--sm100-03": (SOURCE_SM100_03, FILE_SM100_03, "blackwell/03_mma_tma_multicast_sm100"),
    "--sm100-2sm": (SOURCE_SM100_2SM, FILE_SM100_2SM, "blackwell/04_mma_tma_2sm_sm100"),
    "--sm100-epi": (SOURCE_SM100_EPI, FILE_SM100_EPI, "blackwell/05_mma_tma_epi_sm100 epilogue"),
}


def run_cxx(flag: str = "") -> str:
    """Compile and run the host code of ``RUNS[flag]``; the stored file's text (SystemExit with the
    compiler's words where C++ fails)."""
    from tests.cxx import cxx_harness

    source, _, name = RUNS[flag]
    sm100 = flag != ""
    includes = tma_cxx.INCLUDES + (("cute/atom/mma_traits_sm100.hpp", "cute/atom/copy_traits_sm100.hpp")
                                   if sm100 else ())
    [r] = cxx_harness.run_cases([source], includes, preamble=tma_cxx.STUB, defines=tma_cxx.DEFINES)
    if not r.ok:
        raise SystemExit(r.error[:2000])
    # host C++ has no smem addresses: cast_smem_ptr_to_uint prints this (and gives 0)
    out = r.output.replace("ERROR: cast_smem_ptr_to_uint not supported but used.\n", "")
    out = out.replace("ERROR: cast_smem_ptr_to_uint not supported but used.", "")
    head = (f"# C++ CuTe (CUTLASS 4.7): {name} objects as host code\n"
            "# (tests/kernels/tutorial_cxx.py), in C++'s exact form (_N static, N run-time).\n"
            f"# Regenerate: python -m tests.kernels.tutorial_cxx {flag} (CUTEPY_CXX_INCLUDE: see there)\n")
    return head + "\n".join(out.strip().splitlines()) + "\n"


def main() -> None:
    flag = next((f for f in RUNS if f and f in sys.argv), "")
    RUNS[flag][1].write_text(run_cxx(flag))
    print("stored", file=sys.stderr)



def cxx_print(x: object) -> str:
    """cutepy's print of ``x`` in C++'s exact form (``_N`` static, ``N`` run-time), as stored."""
    from cutepy.core.inttuple import format_tuple

    if isinstance(x, str):
        return x
    return format_tuple(x, cxx=True) if isinstance(x, (int, tuple)) else format(x, "cxx")


if __name__ == "__main__":
    main()


def group_tile(t: Any, end: int) -> Any:
    """``t`` with its modes ``[0, end)`` grouped into one (C++ ``group_modes<0,end>``)."""
    from cutepy.core.layout import group
    from cutepy.kernels.tensor import Tensor

    return Tensor(t.engine, group(t.layout, 0, end), t.offset)


def sm100_gemm_head(atom: str) -> tuple:
    """The Blackwell tutorials' common start: run-time ``M, N, K`` (512, 1024, 256), the K-major
    gmem tensors A, B (half_t) and C (float), the TiledMMA of ``atom``, its CTA tile
    ``(bM, bN, 4 * MMA_K)`` and the SW128 K-major smem layouts of A and B.

    Returns ``(M, N, K, mA, mB, mC, mma, bM, bN, bK, sA_layout, sB_layout)``."""
    from cutepy import Layout, dynamic
    from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
    from cutepy.kernels.pointer import gmem_ptr
    from cutepy.kernels.tensor import make_tensor
    from cutepy.kernels.tiled import make_tiled_mma, partition_shape_A, partition_shape_B

    M, N, K = dynamic(512), dynamic(1024), dynamic(256)  # the tutorial's run-time int Gemm_M, _N, _K
    mA = make_tensor(gmem_ptr("half_t", 0x10000000), Layout((M, K), (K, 1)))
    mB = make_tensor(gmem_ptr("half_t", 0x20000000), Layout((N, K), (K, 1)))
    mC = make_tensor(gmem_ptr("float", 0x30000000), Layout((M, N), (N, 1)))
    mma = make_tiled_mma(mma_atom(atom))
    bM, bN, bK = mma.tile_size_mnk[0], mma.tile_size_mnk[1], mma.tile_size_mnk[2] * 4
    sA_layout = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_A(mma, (bM, bK)))
    sB_layout = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_B(mma, (bN, bK)))
    return M, N, K, mA, mB, mC, mma, bM, bN, bK, sA_layout, sB_layout
