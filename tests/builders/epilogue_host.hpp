// builder_host.hpp with the epilogue's private members readable: CollectiveEpilogue keeps
// SmemLayoutC/D private, and the oracle prints them. Written for cutepy's tests.
#pragma once
// the standard and CUDA headers first, with their access as written
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <cuda_runtime.h>
#include <cuda.h>
#define private public
#include "builder_host.hpp"
#undef private

template <class T, class = void> struct cutepy_is_tma_epilogue : std::false_type {};
template <class T> struct cutepy_is_tma_epilogue<T, std::void_t<typename T::SmemLayoutC>> : std::true_type {};

template <class C> void cutepy_print_epilogue() {
  using namespace cute;
  if constexpr (cutepy_is_tma_epilogue<C>::value) {
    std::printf("@dispatch_policy\n"); cutepy_type_name<typename C::DispatchPolicy>();
    std::printf("\n@epilogue_tile\n"); print(typename C::EpilogueTile{});
    std::printf("\n@smem_layout_atom_c\n"); print(typename C::SmemLayoutAtomC{});
    std::printf("\n@smem_layout_atom_d\n"); print(typename C::SmemLayoutAtomD{});
    std::printf("\n@smem_layout_c\n"); print(typename C::SmemLayoutC{});
    std::printf("\n@smem_layout_d\n"); print(typename C::SmemLayoutD{});
    std::printf("\n@copy_op_g2s\n"); cutepy_type_name<typename C::CopyOpG2S>();
    std::printf("\n@copy_op_s2r\n"); cutepy_type_name<typename C::CopyOpS2R>();
    std::printf("\n@copy_op_s2g\n"); cutepy_type_name<typename C::CopyOpS2G>();
    std::printf("\n@copy_op_r2s\n"); cutepy_type_name<typename C::CopyOpR2S>();
    std::printf("\n@copy_atom_c\n"); print(typename C::CopyAtomC{});
    std::printf("\n@shared_storage_bytes\n%d", int(sizeof(typename C::SharedStorage)));
    std::printf("\n@tma_transaction_bytes\n%d", int(C::TmaTransactionBytes));
  } else {
    std::printf("@shared_storage_bytes\n%d", int(sizeof(typename C::SharedStorage)));
  }
  std::printf("\n");
}
