// Runs TMA reductions (cp.reduce.async.bulk.tensor.<op>.tile) on a Hopper GPU exactly as cutepy
// describes them: cutepy's descriptor, per-instruction coordinates and smem offsets, so that the
// gmem that results can be compared with cutepy's prediction (tests/kernels/tma_reduce_hardware.py
// writes the cases and reads the verdicts). Build: nvcc -O2 -std=c++17 -arch=sm_90a tma_reduce_hardware.cu
//
// Usage: tma_reduce_hardware DIR K runs line K of DIR/cases.txt (one process a case: an element
// type a reduction refuses may end the CUDA context). A line:
//   id redop dtype rank gdim[rank] gstride_bytes[rank-1] box[rank] estride[rank] interleave swizzle
//   l2 oob gmem_bytes smem_bytes init_offset image_offset ninstr (c0 c1 c2 c3 c4 smem_offset)[ninstr]
// redop: 0 add, 1 min, 2 max, 3 inc, 4 dec, 5 and, 6 or, 7 xor. DIR/init.bin holds each case's
// gmem before (at init_offset), DIR/images.bin its smem (at image_offset), DIR/want.bin the gmem
// cutepy expects after (at init_offset). One line of status on stdout.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <fstream>
#include <sstream>
#include <string>

struct Instr { int c[5]; int off; };

__device__ inline uint32_t smem_u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

#define RED(OP)                                                                                              \
  switch (rank) {                                                                                            \
    case 1: asm volatile("cp.reduce.async.bulk.tensor.1d.global.shared::cta." #OP ".tile.bulk_group"         \
                         " [%0, {%2}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]) : "memory"); break;              \
    case 2: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." #OP ".tile.bulk_group"         \
                         " [%0, {%2, %3}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]) : "memory"); break; \
    case 3: asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta." #OP ".tile.bulk_group"         \
                         " [%0, {%2, %3, %4}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2])     \
                         : "memory"); break;                                                                 \
    case 4: asm volatile("cp.reduce.async.bulk.tensor.4d.global.shared::cta." #OP ".tile.bulk_group"         \
                         " [%0, {%2, %3, %4, %5}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]),\
                         "r"(c[3]) : "memory"); break;                                                       \
    default: asm volatile("cp.reduce.async.bulk.tensor.5d.global.shared::cta." #OP ".tile.bulk_group"        \
                          " [%0, {%2, %3, %4, %5, %6}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]),      \
                          "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");                                       \
  }

__global__ void tma_reduce(const __grid_constant__ CUtensorMap tmap, int redop, int rank, const Instr* ins, int n,
                           const unsigned char* image, int smem_bytes) {
  extern __shared__ __align__(1024) unsigned char smem[];
  for (int i = threadIdx.x; i < smem_bytes; i += blockDim.x) smem[i] = image[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const void* tm = &tmap;
    for (int k = 0; k < n; ++k) {
      uint32_t s = smem_u32(smem + ins[k].off);
      const int* c = ins[k].c;
      switch (redop) {
        case 0: RED(add) break;
        case 1: RED(min) break;
        case 2: RED(max) break;
        case 3: RED(inc) break;
        case 4: RED(dec) break;
        case 5: RED(and) break;
        case 6: RED(or) break;
        default: RED(xor)
      }
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int main(int argc, char** argv) {
  std::string dir = argv[1];
  int want_line = std::atoi(argv[2]);
  std::ifstream cases(dir + "/cases.txt");
  std::string line;
  for (int k = 0; k <= want_line; ++k) std::getline(cases, line);
  std::istringstream in(line);
  long long id; int redop, dtype, rank; in >> id >> redop >> dtype >> rank;
  cuuint64_t gd[5] = {1, 1, 1, 1, 1}, gs[4] = {0, 0, 0, 0}; cuuint32_t box[5] = {1, 1, 1, 1, 1}, es[5] = {1, 1, 1, 1, 1};
  for (int i = 0; i < rank; ++i) in >> gd[i];
  for (int i = 0; i + 1 < rank; ++i) in >> gs[i];
  for (int i = 0; i < rank; ++i) in >> box[i];
  for (int i = 0; i < rank; ++i) in >> es[i];
  int il, sw, l2, oob, n; long long gbytes, sbytes, init_off, image_off;
  in >> il >> sw >> l2 >> oob >> gbytes >> sbytes >> init_off >> image_off >> n;
  std::vector<Instr> ins(n);
  for (auto& k : ins) { for (int& c : k.c) in >> c; in >> k.off; }
  std::vector<unsigned char> init(gbytes), image(sbytes), want(gbytes), got(gbytes);
  std::ifstream fi(dir + "/init.bin", std::ios::binary), fm(dir + "/images.bin", std::ios::binary),
      fw(dir + "/want.bin", std::ios::binary);
  fi.seekg(init_off); fi.read((char*)init.data(), gbytes);
  fw.seekg(init_off); fw.read((char*)want.data(), gbytes);
  fm.seekg(image_off); fm.read((char*)image.data(), sbytes);
  unsigned char *g, *im; Instr* di;
  if (cudaMalloc(&g, gbytes) || cudaMalloc(&im, sbytes) || cudaMalloc(&di, sizeof(Instr) * n)) {
    std::printf("%lld setup failed\n", id); return 0;
  }
  cudaMemcpy(g, init.data(), gbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(im, image.data(), sbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(di, ins.data(), sizeof(Instr) * n, cudaMemcpyHostToDevice);
  void* fn = nullptr; cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
  CUtensorMap m;
  CUresult r = reinterpret_cast<EncodeFn>(fn)(&m, (CUtensorMapDataType)dtype, rank, g, gd, gs, box, es,
      (CUtensorMapInterleave)il, (CUtensorMapSwizzle)sw, (CUtensorMapL2promotion)l2, (CUtensorMapFloatOOBfill)oob);
  if (r != CUDA_SUCCESS) { std::printf("%lld encode %d\n", id, (int)r); return 0; }
  cudaFuncSetAttribute(tma_reduce, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  tma_reduce<<<1, 128, sbytes>>>(m, redop, rank, di, n, im, (int)sbytes);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::printf("%lld kernel %d %s\n", id, (int)e, cudaGetErrorName(e)); return 0; }
  cudaMemcpy(got.data(), g, gbytes, cudaMemcpyDeviceToHost);
  long long bad = 0, first = -1;
  for (long long k = 0; k < gbytes; ++k) if (got[k] != want[k]) { if (first < 0) first = k; ++bad; }
  if (!bad) std::printf("%lld match\n", id);
  else std::printf("%lld differ %lld of %lld first %lld got %d want %d\n", id, bad, gbytes, first, got[first], want[first]);
  return 0;
}
