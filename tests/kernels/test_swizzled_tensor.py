"""Tensors over a swizzled shared-memory layout partition, slice and tile as C++ CuTe does.

The reference is C++'s print of an SM80 fp16 GEMM's A tile (tests/data/swizzled_tensor_sm80.txt,
its provenance in its header); where g++ and the headers are here, the same prints are made live.
"""

from __future__ import annotations

import re

import numpy as np

import cutepy as cp
from cutepy import Layout, Swizzle
from tests.paths import DATA

DATA_FILE = DATA / "swizzled_tensor_sm80.txt"
THREADS = (0, 1, 37, 127)
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/mma_traits_sm80.hpp")
CXX = """{ static half_t buf[128*32]; half_t* base = &buf[0];
  auto sA = tile_to_shape(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{}),
                          make_shape(Int<128>{}, Int<32>{}));
  auto tA = make_tensor(base, sA);
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{});
  for (int t : {0, 1, 37, 127}) { auto p = mma.get_slice(t).partition_A(tA);
    print("partition_A "); print(t); print("\\t"); print(p.layout());
    print("\\t"); print(int(p.data() - base)); print("\\n"); }
  auto sl = tA(Int<1>{}, _); print("slice (1,_)\\t"); print(sl.layout());
  print("\\t"); print(int(sl.data() - base)); print("\\n");
  int one = 1; auto sr = tA(one, _); print("slice (one,_) run-time\\t"); print(sr.layout());
  print("\\t"); print(int(sr.data() - base)); print("\\n");
  auto lt = local_tile(tA, make_shape(Int<64>{}, Int<16>{}), make_coord(1, 1));
  print("local_tile (64,16) at (1,1)\\t"); print(lt.layout());
  print("\\t"); print(int(lt.data() - base)); }"""


def _smem_tensor() -> cp.Tensor:
    atom = cp.composition(Swizzle(2, 3, 3), Layout((8, 32), (32, 1)))
    return cp.make_tensor(np.arange(128 * 32), cp.tile_to_shape(atom, (128, 32)))


def _cutepy_lines() -> dict[str, tuple[str, int]]:
    t = _smem_tensor()
    mma = cp.make_tiled_mma(cp.mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout((2, 2, 1)))
    out = {}
    for thr in THREADS:  # the thread index is a run-time int, as in a kernel
        p = mma.get_slice(cp.dynamic(thr)).partition_A(t)
        out[f"partition_A {thr}"] = (format(p.layout, "cxx"), p.offset)
    s = t(1, None)
    out["slice (1,_)"] = (format(s.layout, "cxx"), s.offset)
    s = t(cp.dynamic(1), None)  # C++ turns the swizzle into run-time strides
    out["slice (one,_) run-time"] = (format(s.layout, "cxx"), s.offset)
    tile = cp.local_tile(t, (64, 16), cp.dynamic((1, 1)))
    out["local_tile (64,16) at (1,1)"] = (format(tile.layout, "cxx"), tile.offset)
    return out


def _read(text: str) -> dict[str, tuple[str, int]]:
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return {what: (layout, int(off)) for what, layout, off in rows}


def _cxx_form(print_: str) -> str:
    """C++'s print with its offset bits ``M_0|(16&16)=16`` read as 16 (a run-time offset)."""
    return re.sub(r"M_\d+\|\([^)]*\)=(-?\d+)", r"\1", print_)


def test_swizzled_smem_partitions_slices_and_tiles_as_cxx_prints() -> None:
    want = _read(DATA_FILE.read_text())
    assert len(want) == len(THREADS) + 3
    assert _cutepy_lines() == want


def test_every_thread_partition_reads_the_elements_the_swizzle_puts_there() -> None:
    """The partition's values are the tile's: thread t's (v, m, k) value sits where the swizzled
    layout puts the tile coordinate the plain TiledMMA gives it."""
    t = _smem_tensor()
    mma = cp.make_tiled_mma(cp.mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout((2, 2, 1)))
    coords = cp.make_identity_tensor((128, 32))
    for thr in range(mma.size):
        values = mma.get_slice(thr).partition_A(t).values()
        where = mma.get_slice(thr).partition_A(coords).values()
        assert [int(v) for v in values] == [int(t.layout(c)) for c in where]


def test_the_stored_prints_are_what_cxx_prints_now(cxx) -> None:
    [r] = cxx.run_cases([CXX], INCLUDES)
    assert r.ok, r.error[:2000]
    got = {}
    for line in r.output.splitlines():
        what, layout, off = line.split("\t")
        got[what] = (_cxx_form(layout), int(off))
    assert got == _read(DATA_FILE.read_text())


if __name__ == "__main__":  # print the data file's rows from live C++
    from tests.cxx import cxx_harness

    [result] = cxx_harness.run_cases([CXX], INCLUDES)
    if not result.ok:
        raise SystemExit(result.error)
    print(result.output)
