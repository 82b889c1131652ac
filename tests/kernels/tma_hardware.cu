// Runs TMA loads and stores on a Hopper GPU exactly as cutepy describes them, so that the data
// can be compared with cutepy's prediction (tests/kernels/tma_hardware.py writes the cases
// and reads the verdicts). Build: nvcc -O2 -std=c++17 -arch=sm_90a tma_hardware.cu
//
// cases.txt, one case a line:
//   id dir dtype rank gdim[rank] gstride_bytes[rank-1] box[rank] estride[rank] interleave swizzle
//   l2 oob elem_bytes gmem_bytes smem_bytes ninstr (c0 c1 c2 c3 c4 smem_offset)[ninstr]
// dir 0: load (gmem holds each element's offset, little endian, truncated to the element
// width, shifted up 13 bits for TFLOAT32; smem starts as 0xCD), 1: store (smem image from images.bin, gmem starts as 0xCD).
// probes.txt: raw descriptors for the driver alone, one a line (rank ... oob, address offset).
// want.bin holds, case after case, the bytes cutepy expects (the smem after each load, the gmem
// after each store); status.txt says per case whether they came, or the first byte that did not.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <fstream>
#include <sstream>
#include <string>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); std::exit(1); } } while (0)

struct Instr { int c[5]; int off; };

__device__ inline uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void tma_run(const __grid_constant__ CUtensorMap tmap, int dir, int rank, const Instr* ins,
                        int n, unsigned tx, unsigned char* io, int smem_bytes) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ alignas(8) uint64_t bar;
  for (int i = threadIdx.x; i < smem_bytes; i += blockDim.x) smem[i] = dir == 0 ? 0xCD : io[i];
  uint32_t b = smem_u32(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const void* tm = &tmap;
    if (dir == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(tx) : "memory");
      for (int k = 0; k < n; ++k) {
        uint32_t d = smem_u32(smem + ins[k].off);
        const int* c = ins[k].c;
        switch (rank) {
          case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                               " [%0], [%1, {%3}], [%2];" :: "r"(d), "l"(tm), "r"(b), "r"(c[0]) : "memory"); break;
          case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                               " [%0], [%1, {%3, %4}], [%2];" :: "r"(d), "l"(tm), "r"(b), "r"(c[0]), "r"(c[1])
                               : "memory"); break;
          case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                               " [%0], [%1, {%3, %4, %5}], [%2];" :: "r"(d), "l"(tm), "r"(b), "r"(c[0]),
                               "r"(c[1]), "r"(c[2]) : "memory"); break;
          case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                               " [%0], [%1, {%3, %4, %5, %6}], [%2];" :: "r"(d), "l"(tm), "r"(b), "r"(c[0]),
                               "r"(c[1]), "r"(c[2]), "r"(c[3]) : "memory"); break;
          default: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                                " [%0], [%1, {%3, %4, %5, %6, %7}], [%2];" :: "r"(d), "l"(tm), "r"(b), "r"(c[0]),
                                "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
        }
      }
    } else {
      for (int k = 0; k < n; ++k) {
        uint32_t s = smem_u32(smem + ins[k].off);
        const int* c = ins[k].c;
        switch (rank) {
          case 1: asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%2}], [%1];"
                               :: "l"(tm), "r"(s), "r"(c[0]) : "memory"); break;
          case 2: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];"
                               :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]) : "memory"); break;
          case 3: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}],"
                               " [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory"); break;
          case 4: asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group"
                               " [%0, {%2, %3, %4, %5}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]),
                               "r"(c[2]), "r"(c[3]) : "memory"); break;
          default: asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group"
                                " [%0, {%2, %3, %4, %5, %6}], [%1];" :: "l"(tm), "r"(s), "r"(c[0]), "r"(c[1]),
                                "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
        }
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
  }
  if (dir == 0) {
    uint32_t done = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(b) : "memory");
    }
    __syncthreads();
    for (int i = threadIdx.x; i < smem_bytes; i += blockDim.x) io[i] = smem[i];
  }
}

using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// the driver's cuTensorMapEncodeTiled, found through the runtime (no link against libcuda)
static EncodeFn driver_encode() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  if (!fn || q != cudaDriverEntryPointSuccess) { std::fprintf(stderr, "no cuTensorMapEncodeTiled\n"); std::exit(1); }
  return reinterpret_cast<EncodeFn>(fn);
}

static CUresult encode(CUtensorMap* m, int dtype, int rank, void* addr, const cuuint64_t* gd, const cuuint64_t* gs,
                       const cuuint32_t* box, const cuuint32_t* es, int il, int sw, int l2, int oob) {
  static EncodeFn fn = driver_encode();
  return fn(m, (CUtensorMapDataType)dtype, rank, addr, gd, gs, box, es, (CUtensorMapInterleave)il,
            (CUtensorMapSwizzle)sw, (CUtensorMapL2promotion)l2, (CUtensorMapFloatOOBfill)oob);
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaFuncSetAttribute(tma_run, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  std::ofstream status(dir + "/status.txt");
  std::ifstream want(dir + "/want.bin", std::ios::binary);
  status << "device " << prop.name << " sm_" << prop.major << prop.minor << "\n";
  std::ifstream images(dir + "/images.bin", std::ios::binary);
  std::ifstream cases(dir + "/cases.txt");
  std::string line;
  unsigned char* dbuf = nullptr; size_t dcap = 0;
  unsigned char* sbuf = nullptr; CK(cudaMalloc(&sbuf, 256 * 1024));
  Instr* dins = nullptr; CK(cudaMalloc(&dins, sizeof(Instr) * 65536));
  while (std::getline(cases, line)) {
    std::istringstream in(line);
    long long id; int d, dtype, rank; in >> id >> d >> dtype >> rank;
    cuuint64_t gd[5] = {1, 1, 1, 1, 1}, gs[4] = {0, 0, 0, 0}; cuuint32_t box[5] = {1, 1, 1, 1, 1}, es[5] = {1, 1, 1, 1, 1};
    for (int i = 0; i < rank; ++i) in >> gd[i];
    for (int i = 0; i + 1 < rank; ++i) in >> gs[i];
    for (int i = 0; i < rank; ++i) in >> box[i];
    for (int i = 0; i < rank; ++i) in >> es[i];
    int il, sw, l2, oob, eb; long long gbytes, sbytes; int n;
    in >> il >> sw >> l2 >> oob >> eb >> gbytes >> sbytes >> n;
    std::vector<Instr> ins(n);
    unsigned tx = 0, per = eb;
    for (int i = 0; i < rank; ++i) per *= (box[i] + es[i] - 1) / es[i];
    for (auto& k : ins) { for (int& c : k.c) in >> c; in >> k.off; tx += per; }
    if ((size_t)gbytes > dcap) { if (dbuf) CK(cudaFree(dbuf)); CK(cudaMalloc(&dbuf, gbytes)); dcap = gbytes; }
    std::vector<unsigned char> host(d == 0 ? gbytes : sbytes);
    if (d == 0) {
      // TFLOAT32 loads drop the low 13 bits of each element: its offsets sit above them
      int shift = (dtype == 11 || dtype == 12) ? 13 : 0;
      for (long long k = 0; k < gbytes; ++k)
        host[k] = (unsigned char)((((unsigned long long)(k / eb)) << shift) >> (8 * (k % eb)));
      CK(cudaMemcpy(dbuf, host.data(), gbytes, cudaMemcpyHostToDevice));
    } else {
      images.read((char*)host.data(), sbytes);
      CK(cudaMemcpy(sbuf, host.data(), sbytes, cudaMemcpyHostToDevice));
      CK(cudaMemset(dbuf, 0xCD, gbytes));
    }
    CUtensorMap m;
    CUresult r = encode(&m, dtype, rank, dbuf, gd, gs, box, es, il, sw, l2, oob);
    status << id << " encode " << (int)r;
    if (r != CUDA_SUCCESS) { status << "\n"; want.seekg(d == 0 ? sbytes : gbytes, std::ios::cur); continue; }
    CK(cudaMemcpy(dins, ins.data(), sizeof(Instr) * n, cudaMemcpyHostToDevice));
    tma_run<<<1, 128, sbytes>>>(m, d, rank, dins, n, tx, sbuf, (int)sbytes);
    cudaError_t e = cudaDeviceSynchronize();
    status << " kernel " << (int)e << "\n";
    if (e != cudaSuccess) { status << "fatal " << cudaGetErrorString(e) << "\n"; break; }
    std::vector<unsigned char> res(d == 0 ? sbytes : gbytes);
    CK(cudaMemcpy(res.data(), d == 0 ? sbuf : dbuf, res.size(), cudaMemcpyDeviceToHost));
    std::vector<unsigned char> w(res.size());
    want.read((char*)w.data(), w.size());
    long long bad = 0, first = -1;
    for (size_t k = 0; k < w.size(); ++k) if (w[k] != res[k]) { if (first < 0) first = (long long)k; ++bad; }
    if (!bad) status << id << " match\n";
    else status << id << " differ " << bad << " of " << w.size() << " first " << first << " got "
                << (int)res[first] << " want " << (int)w[first] << "\n";
  }
  // the driver alone: raw descriptors whose acceptance cutepy predicts
  std::ifstream probes(dir + "/probes.txt");
  unsigned char* pbuf = nullptr; CK(cudaMalloc(&pbuf, 1 << 20));
  while (std::getline(probes, line)) {
    std::istringstream in(line);
    long long id; int dtype, rank; in >> id >> dtype >> rank;
    cuuint64_t gd[5], gs[4]; cuuint32_t box[5], es[5];
    for (int i = 0; i < rank; ++i) in >> gd[i];
    for (int i = 0; i + 1 < rank; ++i) in >> gs[i];
    for (int i = 0; i < rank; ++i) in >> box[i];
    for (int i = 0; i < rank; ++i) in >> es[i];
    int il, sw, l2, oob, addr_off; in >> il >> sw >> l2 >> oob >> addr_off;
    CUtensorMap m;
    CUresult r = encode(&m, dtype, rank, pbuf + addr_off, gd, gs, box, es, il, sw, l2, oob);
    status << "probe " << id << " encode " << (int)r << "\n";
  }
  return 0;
}
