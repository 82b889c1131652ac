#pragma once
// sycl-tla's Xe MMA traits on the host: glibc declares ffs() with C linkage and sycl-tla's
// cutlass/gpu_generics.h defines a C++ ffs(); glibc's comes first, sycl-tla's is renamed.
#include <strings.h>
#define ffs cutlass_ffs_host
#include <cute/layout.hpp>
#include <cute/atom/mma_traits_xe_legacy.hpp>
#include <cute/atom/mma_traits_xe.hpp>
#undef ffs
