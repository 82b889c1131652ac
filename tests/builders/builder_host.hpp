// Host stand-ins that let CUTLASS 4.7's CollectiveBuilders (gemm and epilogue) compile with g++,
// and the printers tests/builders/builder_cxx.py calls in each case. Written for cutepy's tests.
#pragma once
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <cuda_runtime.h>
struct cutepy_dim3 { unsigned x = 0, y = 0, z = 0; };
static cutepy_dim3 threadIdx, blockIdx, blockDim, gridDim;
inline void __syncthreads() {}
inline void __syncwarp(unsigned = 0xffffffff) {}
inline void __threadfence() {}
// device intrinsics named in member functions the host never instantiates: a declaration suffices
template <class... T> int __shfl_sync(T...);
template <class... T> int __shfl_up_sync(T...);
template <class... T> int __shfl_down_sync(T...);
template <class... T> int __shfl_xor_sync(T...);
template <class... T> int __byte_perm(T...);
template <class... T> int __dp4a(T...);
template <class... T> int __hfma2(T...);
// headers that test __CUDACC_VER_MAJOR__ for device-only features come first, without it
#include <cutlass/arch/wmma.h>
#include <cutlass/arch/mma.h>
#include <cutlass/gemm/collective/collective_mma.hpp>
#include <cutlass/epilogue/collective/collective_epilogue.hpp>
// the builders read the toolkit version (KernelScheduleAuto picks by it): CUDA 12.9
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 9
#define CUTLASS_SM90_COLLECTIVE_BUILDER_SUPPORTED
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#undef __CUDACC_VER_MAJOR__
#undef __CUDACC_VER_MINOR__
#include <cute/tensor.hpp>

extern "C" cudaError_t cudaGetLastError() { return cudaSuccess; }
extern "C" cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t) { return cudaSuccess; }

// the compiler's name of T (from __PRETTY_FUNCTION__: "... [with T = NAME]")
template <class T> void cutepy_type_name() {
  const char* f = __PRETTY_FUNCTION__;
  const char* s = std::strstr(f, "T = ") + 4;
  std::string name(s);
  name = name.substr(0, name.rfind(']'));
  std::printf("%s", name.c_str());
}

template <class T, class = void> struct cutepy_has_tma_bytes : std::false_type {};
template <class T> struct cutepy_has_tma_bytes<T, std::void_t<decltype(T::TmaTransactionBytes)>> : std::true_type {};

template <class Copy> void cutepy_print_gmem_copy() {
  if constexpr (std::is_same_v<Copy, cute::SM90_TMA_LOAD> || std::is_same_v<Copy, cute::SM90_TMA_LOAD_MULTICAST>) {
    cutepy_type_name<Copy>();
  } else {
    cute::print(Copy{});
  }
}

template <class Atom> void cutepy_print_smem_copy() {
  if constexpr (std::is_void_v<Atom>) { std::printf("void"); } else { cute::print(Atom{}); }
}

template <class C> void cutepy_print_mainloop() {
  using namespace cute;
  std::printf("@dispatch_policy\n"); cutepy_type_name<typename C::DispatchPolicy>();
  std::printf("\n@stages\n%d", int(C::DispatchPolicy::Stages));
  std::printf("\n@tiled_mma\n"); print(typename C::TiledMma{});
  std::printf("@smem_layout_atom_a\n"); print(typename C::SmemLayoutAtomA{});
  std::printf("\n@smem_layout_atom_b\n"); print(typename C::SmemLayoutAtomB{});
  std::printf("\n@smem_layout_a\n"); print(typename C::SmemLayoutA{});
  std::printf("\n@smem_layout_b\n"); print(typename C::SmemLayoutB{});
  std::printf("\n@gmem_tiled_copy_a\n"); cutepy_print_gmem_copy<typename C::GmemTiledCopyA>();
  std::printf("\n@gmem_tiled_copy_b\n"); cutepy_print_gmem_copy<typename C::GmemTiledCopyB>();
  std::printf("\n@smem_copy_atom_a\n"); cutepy_print_smem_copy<typename C::SmemCopyAtomA>();
  std::printf("\n@smem_copy_atom_b\n"); cutepy_print_smem_copy<typename C::SmemCopyAtomB>();
  std::printf("\n@shared_storage_bytes\n%d", int(sizeof(typename C::SharedStorage)));
  if constexpr (cutepy_has_tma_bytes<C>::value) {
    std::printf("\n@tma_transaction_bytes\n%d", int(C::TmaTransactionBytes));
  }
  std::printf("\n");
}
