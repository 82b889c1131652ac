// one warp, one cp.async per lane at the byte offsets of a pattern; ncu reads the counters
#include <cuda_runtime.h>
#include <cstdio>
__constant__ unsigned offs[32];
template <int W> __global__ void probe(const char* g) {
  __shared__ __align__(1024) char s[8192];
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(s + offs[threadIdx.x]));
  const char* src = g + threadIdx.x * 16;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(d), "l"(src), "n"(W) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (s[threadIdx.x] == 123) printf("");
}
int main() {
  char* g; cudaMalloc(&g, 1 << 16);
  unsigned h[32];
  int widths[3] = {4, 8, 16};
  for (int wi = 0; wi < 3; ++wi) {
    int w = widths[wi];
    for (int p = 0; p < 7; ++p) {
      for (int l = 0; l < 32; ++l) {
        unsigned a;
        switch (p) {
          case 0: a = l * w; break;                              // linear
          case 1: a = (l ^ 1) * w; break;                        // pairs swapped
          case 2: a = l * 2 * w; break;                          // stride 2w
          case 3: a = l * 128; break;                            // one bank group
          case 4: a = 0; break;                                  // all one address
          case 5: a = (l % 8) * w + (l / 8) * 256; break;        // 8-lane rows 256 B apart
          default: a = ((l * w) ^ (((l * w) >> 7) & 7) << 4) % 4096;  // a Sw<3,4,3>-like pattern
        }
        h[l] = a % 8192 / w * w;
      }
      cudaMemcpyToSymbol(offs, h, sizeof h);
      if (w == 4) probe<4><<<1, 32>>>(g); else if (w == 8) probe<8><<<1, 32>>>(g); else probe<16><<<1, 32>>>(g);
      cudaDeviceSynchronize();
      printf("launch width %d pattern %d:", w, p);
      for (int l = 0; l < 32; ++l) printf(" %u", h[l]);
      printf("\n");
    }
  }
  return 0;
}
