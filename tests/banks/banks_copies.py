"""TiledCopy-like values for the bank tests, built from C++ CuTe prints (CUTLASS 4.2).

Until cutepy.tiled's TiledCopy is merged, these stand in for it with the same attributes
(the contract of cutepy.banks.analyze_copy). Every layout below is what this program
printed (g++ -std=c++17 against the CUTLASS 4.2 headers, no GPU):

    using MMA = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
    auto cp = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                              Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});
    auto ld = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, MMA{});
    auto ldt = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, MMA{});
    print(typename decltype(x)::Tiler_MN{}); print(x.get_layoutS_TV()); print(x.get_layoutD_TV());
    print(typename Copy_Traits<...>::SrcLayout{}); print(typename Copy_Traits<...>::DstLayout{});
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cutepy.notation import parse


@dataclass(frozen=True)
class CopyAtom:
    name: str
    op: str
    element_bits: int
    layout_src_tv_bits: Any
    layout_dst_tv_bits: Any


@dataclass(frozen=True)
class TiledCopy:
    copy_atom: CopyAtom
    size: int
    tiler_mn: tuple
    layout_src_tv_tiled: Any
    layout_dst_tv_tiled: Any


CP_ASYNC_16B = TiledCopy(
    CopyAtom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "cp.async", 16,
             parse("(1,128):(0,1)"), parse("(1,128):(0,1)")),
    128, (16, 64),
    parse("((8,16),(8,1)):((128,1),(16,0))"), parse("((8,16),(8,1)):((128,1),(16,0))"))

LDSM_X4_A = TiledCopy(
    CopyAtom("SM75_U32x4_LDSM_N", "ldmatrix", 16, parse("(32,128):(128,1)"), parse("(32,(32,4)):(32,(1,1024))")),
    128, (32, 16),
    parse("((16,2,2,2),(8,1)):((1,256,16,0),(32,0))"),
    parse("((4,8,2,2),((2,2,2),1)):((64,1,16,0),((32,8,256),0))"))

LDSM_T_B = TiledCopy(
    CopyAtom("SM75_U16x8_LDSM_T", "ldmatrix", 16, parse("(32,128):(128,1)"),
             parse("((4,8),(16,2,4)):((256,16),(1,128,1024))")),
    128, (32, 16),
    parse("((16,2,2,2),(8,1)):((32,16,0,8),(1,0))"),
    parse("((4,8,2,2),((2,2,2),1)):((64,1,0,8),((32,256,16),0))"))
