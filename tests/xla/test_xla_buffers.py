"""pack/unpack real data through the compiled layout; the bytes must be the reference model's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy.core.errors import CutepyError
from cutepy.xla import ArrayShape, Tile, XlaLayout, buffer_elements, pack, storage_bits, unpack
from cutepy.xla.reference import PAD, reference_buffer

DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "f16": np.float16,
    "bf16": np.uint16,  # bit patterns: numpy has no bfloat16
    "s8": np.int8,
    "u16": np.uint16,
    "s32": np.int32,
    "u64": np.uint64,
    "c64": np.complex64,
    "c128": np.complex128,
    "pred": np.bool_,
    "f8e4m3fn": np.uint8,
    "s4": np.int8,  # unpacked: one byte each
}


def _reference_bytes(a: np.ndarray, shape: ArrayShape) -> bytes:
    """The reference model's buffer with real data, padding zero-filled."""
    slots = reference_buffer(shape)
    out = np.zeros(slots.size, dtype=a.dtype)
    used = slots != PAD
    out[used] = a.reshape(-1)[slots[used]]
    return out.tobytes()


def _xla_pack_int_n(values: list[int], bits: int) -> bytes:
    """XLA's PackIntN (xla/util.h), element by element: first element in the high bits."""
    per = 8 // bits
    mask = (1 << bits) - 1
    out = bytearray(-(-len(values) // per))
    for i, v in enumerate(values):
        out[i // per] |= (v & mask) << (bits * (per - 1 - i % per))
    return bytes(out)


@st.composite
def shapes(draw: st.DrawFn, types: list[str]) -> ArrayShape:
    rank = draw(st.integers(0, 4))
    dims = tuple(draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank)))
    m2m = tuple(draw(st.permutations(range(rank))))
    tiles = []
    cur = rank
    for _ in range(draw(st.integers(0, 2))):
        k = draw(st.integers(1, cur + 1))  # XLA: a tile has at least one dim
        tiles.append(Tile(tuple(draw(st.lists(st.sampled_from([1, 2, 3, 4, 8]), min_size=k, max_size=k)))))
        cur = max(cur, k) + k
    align = draw(st.sampled_from([1, 1, 4]))
    lay = XlaLayout(m2m, tiles=tuple(tiles), tail_padding_alignment_in_elements=align)
    shape = ArrayShape(draw(st.sampled_from(types)), dims, layout=lay)
    assume(buffer_elements(shape) <= 4000)
    return shape


def _data(shape: ArrayShape, seed: int) -> np.ndarray:
    dtype = np.dtype(DTYPES[shape.element_type])
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, size=int(np.prod(shape.dims)) * dtype.itemsize, dtype=np.uint8)
    a = raw.view(dtype) if dtype != np.bool_ else raw.astype(bool)
    return a.reshape(shape.dims)


@settings(max_examples=120, deadline=None)
@given(shapes(list(DTYPES)), st.integers(0, 2**32 - 1))
def test_pack_bytes_equal_the_reference_model(shape: ArrayShape, seed: int) -> None:
    a = _data(shape, seed)
    buf = pack(a, shape)
    assert buf.dtype == a.dtype and buf.size == buffer_elements(shape)
    assert buf.tobytes() == _reference_bytes(a, shape)
    assert unpack(buf, shape).tobytes() == a.tobytes()


@settings(max_examples=80, deadline=None)
@given(shapes(["s4", "u4", "s2", "u2", "pred", "s1"]), st.integers(0, 2**32 - 1))
def test_sub_byte_packing_is_xlas(shape: ArrayShape, seed: int) -> None:
    bits = {"s4": 4, "u4": 4, "s2": 2, "u2": 2, "pred": 1, "s1": 1}[shape.element_type]
    lay = shape.effective_layout
    packed = ArrayShape(shape.element_type, shape.dims, layout=XlaLayout(
        lay.minor_to_major, tiles=lay.tiles, element_size_in_bits=bits,
        tail_padding_alignment_in_elements=lay.tail_padding_alignment_in_elements))
    assert storage_bits(packed) == bits
    rng = np.random.default_rng(seed)
    signed = shape.element_type.startswith("s")
    lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
    a = rng.integers(lo, hi, size=shape.dims).astype(np.int8)
    if shape.element_type == "pred":
        a = a.astype(bool)
    buf = pack(a, packed)
    slots = reference_buffer(packed)
    values = [0 if s == PAD else int(a.reshape(-1)[s]) for s in slots]
    assert buf.dtype == np.uint8 and buf.tobytes() == _xla_pack_int_n(values, bits)
    back = unpack(buf, packed)
    assert np.array_equal(back, a)
    assert back.dtype == (np.bool_ if shape.element_type == "pred" else np.int8 if signed else np.uint8)


def test_figure_1_with_data() -> None:
    a = np.arange(15, dtype=np.float32).reshape(3, 5)
    buf = pack(a, "f32[3,5]{1,0:T(2,2)}")
    assert buf.tolist() == [0, 1, 5, 6, 2, 3, 7, 8, 4, 0, 9, 0,
                            10, 11, 0, 0, 12, 13, 0, 0, 14, 0, 0, 0]


def test_tpu_bf16_bit_patterns() -> None:
    shape = "bf16[16,256]{1,0:T(8,128)(2,1)}"
    a = np.arange(16 * 256, dtype=np.uint16).reshape(16, 256)
    buf = pack(a, shape)
    # each 32-bit word holds a pair of rows: (0,0) then (1,0), (0,1) then (1,1), ...
    assert buf[:6].tolist() == [0, 256, 1, 257, 2, 258]
    assert np.array_equal(unpack(buf, shape), a)


def test_e4_packs_two_per_byte_high_first() -> None:
    assert pack(np.array([1, -2, 3], dtype=np.int8), "s4[3]{0:E(4)}").tolist() == [0x1E, 0x30]
    assert unpack(np.array([0x1E, 0x30], dtype=np.uint8), "s4[3]{0:E(4)}").tolist() == [1, -2, 3]
    assert unpack(np.array([0xE0], dtype=np.uint8), "u4[2]{0:E(4)}").tolist() == [14, 0]


def test_errors() -> None:
    with pytest.raises(CutepyError, match="does not fit"):
        pack(np.zeros((2, 3), np.float32), "f32[3,2]")
    with pytest.raises(CutepyError, match="16-bit"):
        pack(np.zeros(4, np.float32), "bf16[4]")
    with pytest.raises(CutepyError, match="cannot store 3-bit"):
        pack(np.zeros(4, np.int8), "s4[4]{0:E(3)}")
    with pytest.raises(CutepyError, match="integers or bools"):
        pack(np.zeros(4, np.float32), "s4[4]{0:E(4)}")
    with pytest.raises(CutepyError, match="buffer of 24"):
        unpack(np.zeros(20, np.float32), "f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(CutepyError, match="uint8 buffer of 2 bytes"):
        unpack(np.zeros(2, np.int8), "s4[3]{0:E(4)}")
    with pytest.raises(CutepyError, match="unbounded"):
        pack(np.zeros(3), "f32[?]")
