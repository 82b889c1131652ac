#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cstdio>
using namespace cute;
template <class TC> void show(const char* name, TC tc) {
  printf("%s | ", name);
  print(typename TC::Tiler_MN{}); printf(" | ");
  print(tc.get_layoutS_TV()); printf(" | ");
  print(tc.get_layoutD_TV()); printf("\n");
}
template <class T> void bits(const char* name) {
  printf("%s | ", name); print(typename Copy_Traits<T>::SrcLayout{}); printf(" | "); print(typename Copy_Traits<T>::DstLayout{}); printf("\n");
}
using CPA = SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t>;
int main() {
  show("cp_half_k64", make_tiled_copy(Copy_Atom<CPA, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}));
  show("cp_half_m", make_tiled_copy(Copy_Atom<CPA, half_t>{}, Layout<Shape<_16,_8>,Stride<_1,_16>>{}, Layout<Shape<_8,_1>>{}));
  show("cp_half_k32", make_tiled_copy(Copy_Atom<CPA, half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{}));
  show("cp_tf32_k32", make_tiled_copy(Copy_Atom<CPA, tfloat32_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_4>>{}));
  show("cp_tf32_m", make_tiled_copy(Copy_Atom<CPA, tfloat32_t>{}, Layout<Shape<_16,_8>,Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{}));
  show("cp_int8_k64", make_tiled_copy(Copy_Atom<CPA, int8_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_16>>{}));
  using MH = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  using MT = TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>;
  using MI = TiledMMA<MMA_Atom<SM80_16x8x32_S32S8S8S32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_32>>;
  using MC = TiledMMA<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  show("ldsm_half_a", make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, MH{}));
  show("ldsmt_half_a", make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, MH{}));
  show("ldsm_tf32_a", make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, MT{}));
  show("univ_tf32_a", make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, MT{}));
  show("ldsm_int8_a", make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>{}, MI{}));
  show("stsm_half_c", make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, MC{}));
  bits<CPA>("bits_cp");
  bits<SM75_U32x4_LDSM_N>("bits_ldsm_x4");
  bits<SM75_U16x8_LDSM_T>("bits_ldsm_t");
  bits<UniversalCopy<tfloat32_t>>("bits_univ32");
  bits<SM90_U32x4_STSM_N>("bits_stsm_x4");
}
