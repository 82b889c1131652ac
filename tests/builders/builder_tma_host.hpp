// builder_host.hpp with CuTe's TMA descriptor code compiled in (for tests/builders/builder_cxx.py tma):
// CuTe's TMA headers come first (before CUTLASS's wmma/mma headers), under the CUDA 12.9 version macros and
// CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL, so make_tma_copy calls cuTensorMapEncodeTiled (a recording
// stub the unit defines: tests/kernels/tma_cxx.py STUB). Written for cutepy's tests.
#pragma once
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 9
#define CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1
#include <cute/tensor.hpp>
#include <cute/arch/copy_sm90_desc.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm100_tma.hpp>
#undef __CUDACC_VER_MAJOR__
#undef __CUDACC_VER_MINOR__
#include "builder_host.hpp"
