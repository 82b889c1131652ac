#pragma once
// host-only stand-in: sycl_vec.hpp names sycl::marray and sycl::half, the traits never use them
namespace sycl { template <class T, int N> struct marray { T v[N]; }; struct half { unsigned short x; }; }
