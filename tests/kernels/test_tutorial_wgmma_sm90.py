"""CUTLASS's tutorial hopper/wgmma_sm90 built in cutepy (gemm_nt, the default run, and gemm_tn;
m = n = 5120, k = 4096): the GMMA smem layouts, the cp.async TiledCopys over
``as_position_independent_swizzle_tensor`` of the swizzled smem, the TiledMMA, the CTA tiles and,
for threads 0, 1, 37 and 127, every partition and fragment print as C++ 4.7 prints them, and
every element of every tensor over memory sits at C++'s byte address (swizzled smem included)
(tests/data/tutorial_wgmma_sm90.txt, made by tests/kernels/tutorial_wgmma_cxx.py; compiled live
where g++ and the headers are here). Then the CTA tile's main loop runs on numpy data: gmem ->
swizzled smem through the tutorial's TiledCopys, WGMMA from smem, the epilogue, against A @ B.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import (
    CutepyError,
    Layout,
    SimulationError,
    as_position_independent_swizzle_tensor,
    check_tile,
    copy,
    copy_atom,
    cosize,
    dynamic,
    gemm,
    local_tile,
    make_identity_tensor,
    make_tensor,
    make_tiled_copy,
    make_tiled_mma,
    mma_atom,
    tile_to_shape,
)
from cutepy.core.inttuple import format_tuple
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import Pointer, gmem_ptr, smem_ptr
from cutepy.kernels.tensor import Tensor
from tests.kernels import tutorial_wgmma_cxx as tut

STORED = tut.read() if tut.FILE.is_file() else {}
M, N, K = dynamic(5120), dynamic(5120), dynamic(4096)  # the tutorial's run-time int m, n, k


def design(variant: str, dtype: str = "half_t") -> dict:
    """gemm_nt / gemm_tn's objects: smem layouts, TiledCopys and the TiledMMA."""
    major = "MN" if variant == "nt" else "K"
    sA = tile_to_shape(gmma_smem_layout(major, 128, dtype), (128, 64, 3))
    sB = tile_to_shape(gmma_smem_layout(major, 128, dtype), (128, 64, 3))
    atom = copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16)
    if variant == "nt":  # threads 16x8 m-major, 8x1 values
        cp = make_tiled_copy(atom, Layout((16, 8)), Layout((8, 1)))
    else:  # threads 16x8 k-major, 1x8 values
        cp = make_tiled_copy(atom, Layout((16, 8), (8, 1)), Layout((1, 8)))
    mma = make_tiled_mma(mma_atom(f"SM90_64x64x16_F16F16F16_SS<{major},{major}>"))
    return {"sA_layout": sA, "sB_layout": sB, "copy_a": cp, "copy_b": cp, "mma": mma}


def _addresses(t: Tensor) -> str:
    """``&t(i)`` for every 1-D index ``i``: the byte address (through a pointer's swizzle)."""
    p: Pointer = t.engine
    offs = np.asarray(t.layout.offsets(), dtype=np.int64) + int(t.offset)
    addr = p.address + offs * p.bits // 8
    if p.swizzle is not None:
        addr = p.swizzle(addr)
    return tut.condense(" ".join(str(int(a)) for a in addr))


def build(variant: str) -> dict[str, str]:
    d = design(variant)
    out: dict[str, object] = dict(d)
    out["size_copy_a"], out["size_mma"] = d["copy_a"].size, d["mma"].size
    dA, dB = ((1, M), (1, N)) if variant == "nt" else ((K, 1), (K, 1))
    mA = make_tensor(gmem_ptr("half_t", 0x10000000), Layout((M, K), dA))
    mB = make_tensor(gmem_ptr("half_t", 0x20000000), Layout((N, K), dB))
    mC = make_tensor(gmem_ptr("half_t", 0x30000000), Layout((M, N), (1, M)))
    cta, coord = (128, 128, 64), (dynamic(1), dynamic(2), None)  # blockIdx.x, blockIdx.y
    gA = local_tile(mA, cta, coord, proj=(1, None, 1))
    gB = local_tile(mB, cta, coord, proj=(None, 1, 1))
    gC = local_tile(mC, cta, coord, proj=(1, 1, None))
    sA = make_tensor(smem_ptr("half_t", 0x400), d["sA_layout"])
    sB = make_tensor(smem_ptr("half_t", 0xC400), d["sB_layout"])
    sA_, sB_ = as_position_independent_swizzle_tensor(sA), as_position_independent_swizzle_tensor(sB)
    out |= {"gA": gA, "gB": gB, "gC": gC, "sA": sA, "sB": sB, "sA_": sA_, "sB_": sB_,
            "sA addr": _addresses(sA), "sA_ addr": _addresses(sA_)}
    for t in tut.THREADS:
        t = dynamic(t)  # threadIdx.x
        ca, cb, thr = d["copy_a"].get_slice(t), d["copy_b"].get_slice(t), d["mma"].get_slice(t)
        tCsA, tCsB, tCgC = thr.partition_A(sA), thr.partition_B(sB), thr.partition_C(gC)
        parts = {"tAgA": ca.partition_S(gA), "tAsA": ca.partition_D(sA_), "tBgB": cb.partition_S(gB),
                 "tBsB": cb.partition_D(sB_), "tCsA": tCsA, "tCsB": tCsB, "tCgC": tCgC}
        for name, p in parts.items():
            out[f"{name} {t}"], out[f"{name} {t} addr"] = p, _addresses(p)
        out[f"thr_copy_a {t}"], out[f"thr_mma {t}"] = ca, thr
        out[f"tCrA {t}"] = thr.make_fragment_A(tCsA).layout
        out[f"tCrB {t}"] = thr.make_fragment_B(tCsB).layout
        out[f"tCrC {t}"] = thr.make_fragment_C(tCgC).layout
    return {k: v if isinstance(v, str) else _cxx(v) for k, v in out.items()}


def _cxx(x: object) -> str:
    """C++'s exact print (``_N`` static, ``N`` run-time)."""
    return format_tuple(x, cxx=True) if isinstance(x, (int, tuple)) else format(x, "cxx")


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_wgmma_sm90.txt is missing")
@pytest.mark.parametrize("variant", list(tut.VARIANTS))
def test_wgmma_sm90_objects_equal_cxx(variant: str) -> None:
    got, want = build(variant), STORED[variant]
    assert set(got) == set(want)
    wrong = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    assert not wrong, wrong


@pytest.mark.slow
def test_the_stored_prints_are_what_cxx_prints_now(cxx) -> None:
    """The stored file is what CUTLASS's headers print today (the 4.7 headers where
    CUTEPY_CXX_INCLUDE points at them; the default headers must agree)."""
    assert tut.run_cxx() == STORED


# -- the CTA tile simulated on data -------------------------------------------------------


def _simulate(variant: str, k_tiles: int, seed: int = 0) -> None:
    """gemm_device's main loop for one CTA tile on random data: per k-tile, cp.async gmem ->
    smem (the TiledCopys over the position-independent swizzled smem, pipelined over bP = 3
    stages as the tutorial rotates them), then the WGMMA TiledMMA reading the swizzled smem;
    the epilogue writes C, compared with numpy's A @ B.T (CuTe's B is N x K)."""
    d = design(variant)
    rng = np.random.default_rng(seed)
    Kt = 64 * k_tiles
    a = rng.integers(-2, 3, (128, Kt)).astype(np.float16)  # exact in fp16 sums
    b = rng.integers(-2, 3, (128, Kt)).astype(np.float16)
    order = "F" if variant == "nt" else "C"  # NT: A and B are m/n-major; TN: k-major
    dA = (1, 128) if variant == "nt" else (Kt, 1)
    mA = make_tensor(a.ravel(order=order), Layout((128, Kt), dA))
    mB = make_tensor(b.ravel(order=order), Layout((128, Kt), dA))
    gA = local_tile(mA, (128, 128, 64), (0, 0, None), proj=(1, None, 1))
    gB = local_tile(mB, (128, 128, 64), (0, 0, None), proj=(None, 1, 1))
    sA = make_tensor(np.zeros(cosize(d["sA_layout"]), np.float16), d["sA_layout"])
    sB = make_tensor(np.zeros(cosize(d["sB_layout"]), np.float16), d["sB_layout"])
    sA_, sB_ = as_position_independent_swizzle_tensor(sA), as_position_independent_swizzle_tensor(sB)
    mma = d["mma"]
    gC = make_tensor(np.zeros(128 * 128, np.float16), Layout((128, 128)))
    rC = [mma.get_slice(t).partition_fragment_C(gC) for t in range(mma.size)]
    for k in range(k_tiles):
        pipe = k % 3
        copy(d["copy_a"], gA(None, None, k), sA_(None, None, pipe))
        copy(d["copy_b"], gB(None, None, k), sB_(None, None, pipe))
        gemm(mma, sA(None, None, pipe), sB(None, None, pipe), rC)
    for t in range(mma.size):  # axpby(1, tCrC, 0, tCgC)
        copy(copy_atom("DefaultCopy", 16), rC[t], mma.get_slice(t).partition_C(gC))
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    assert check_tile(mma, gC, ref, rtol=0, atol=0) == 128 * 128


@pytest.mark.parametrize("variant", list(tut.VARIANTS))
def test_wgmma_sm90_cta_tile_simulates_to_numpy(variant: str) -> None:
    _simulate(variant, k_tiles=3 if variant == "nt" else 1)  # nt: every smem pipeline stage


def test_a_copy_that_ignores_the_swizzle_shows_as_a_wrong_tile() -> None:
    """Writing the smem tile through the unswizzled layout (forgetting
    ``as_position_independent_swizzle_tensor``'s swizzle) is caught: the WGMMA reads the swizzled
    places, and check_tile names the threads and values whose results differ."""
    d = design("tn")
    rng = np.random.default_rng(1)
    a = rng.integers(-2, 3, (128, 64)).astype(np.float16)
    mA = make_tensor(a.ravel(), Layout((128, 64), (64, 1)))
    sA = make_tensor(np.zeros(cosize(d["sA_layout"]), np.float16), d["sA_layout"])
    plain = Tensor(sA.engine, d["sA_layout"].inner)  # the layout under the swizzle
    copy(d["copy_a"], mA, plain(None, None, 0))
    copy(d["copy_b"], mA, as_position_independent_swizzle_tensor(sA)(None, None, 1))
    mma = d["mma"]
    gC = make_tensor(np.zeros(128 * 128, np.float16), Layout((128, 128)))
    gemm(mma, sA(None, None, 0), sA(None, None, 1), gC)
    with pytest.raises(SimulationError, match=r"differ from the reference:\n  \(\d+, \d+\).*held by thread"):
        check_tile(mma, gC, a.astype(np.float32) @ a.astype(np.float32).T, rtol=0, atol=0)


def test_position_independent_tensor_refuses_what_cxx_refuses() -> None:
    sA = make_tensor(smem_ptr("half_t", 0x400), design("nt")["sA_layout"])
    moved = Tensor(sA.engine, sA.layout, 8)  # starts 16 bytes in: not aligned to Sw<3,4,3>
    with pytest.raises(CutepyError, match="not aligned to its swizzle"):
        as_position_independent_swizzle_tensor(moved)
    with pytest.raises(CutepyError, match="Expected smem tensor"):
        as_position_independent_swizzle_tensor(make_tensor(gmem_ptr("half_t"), Layout(8)))
    plain = make_tensor(smem_ptr("half_t", 0x10), Layout(8))
    assert as_position_independent_swizzle_tensor(plain) is plain  # no swizzle: as it is
    # the element-form tensor addresses the bytes C++'s swizzled pointer does, at every element
    pi = as_position_independent_swizzle_tensor(sA)
    assert _addresses(pi) == _addresses(sA)


_TYPES = {8: "int8_t", 16: "half_t", 32: "float", 64: "double"}


@given(major=st.sampled_from(["K", "MN"]), sw=st.sampled_from([0, 32, 64, 128]),
       bits=st.sampled_from(sorted(_TYPES)), reps=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       pipe=st.booleans(), base=st.integers(0, 7), thread=st.integers(0, 3))
def test_position_independent_tensor_addresses_every_byte_cxx_does(major, sw, bits, reps, pipe, base, thread):
    """For every GMMA smem atom, element width, tiling and 1024-byte aligned base: the
    position-independent tensor addresses each element where the swizzled pointer does, and a
    TiledCopy's partition of it (its swizzle folded into strides where C++ folds it) lands each
    thread's value on the byte address of the tile coordinate the same partition of an identity
    tensor names."""
    atom = gmma_smem_layout(major, sw, bits)
    rows, cols = atom.inner.shape
    shape = (rows * reps[0], cols * reps[1]) + ((2,) if pipe else ())
    L = tile_to_shape(atom, shape)
    s = make_tensor(smem_ptr(_TYPES[bits], 1024 * base), L)
    pi = as_position_independent_swizzle_tensor(s)
    assert _addresses(pi) == _addresses(s)
    # 2x2 threads divide every atom (an MN-major 64-bit atom without swizzle has 2 rows)
    tc = make_tiled_copy(copy_atom(f"UniversalCopy<uint{bits}_t>", bits), Layout((2, 2)), Layout((1, 1)))
    tile = pi(None, None, 1) if pipe else pi
    whole = s(None, None, 1) if pipe else s
    part = tc.get_slice(thread).partition_D(tile)
    coords = tc.get_slice(thread).partition_D(make_identity_tensor(shape[:2])).values()
    assert [part(i) for i in range(len(coords))] == [whole(c) for c in coords]
