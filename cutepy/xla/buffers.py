"""Real data in XLA's tiled layouts: :func:`pack` an array into its physical buffer, :func:`unpack` it.

Both go through the compiled CuTe form (:func:`~cutepy.xla.compile_details`): ``pack`` writes
element ``i`` of the array at ``layout(i)`` in a zero-filled buffer of every slot
(tile and ``L`` padding included); ``unpack`` reads them back.

Element storage. An element takes ``E(n)`` bits when the layout says so, else its
type's whole bytes (``pred`` and an unpacked ``s4`` take one byte each):

- whole bytes: the array may have any numpy dtype of exactly that width, since only
  elements move. numpy has no ``bf16`` or 8-bit floats: pass their bit patterns
  (``uint16``, ``uint8``) or an ``ml_dtypes`` array; ``f32`` takes ``float32`` or
  ``uint32`` alike. The buffer has the array's dtype, one entry per slot.
- sub-byte ``E(1)``, ``E(2)``, ``E(4)``: the array holds one value per entry (any
  integer or bool dtype; the low ``n`` bits count) and the buffer is ``uint8`` bytes,
  packed as XLA's ``PackIntN`` does (``xla/util.h``): the first element of a byte in
  its high-order bits. ``unpack`` returns ``int8`` with the sign extended for signed
  types, ``bool`` for ``pred``, ``uint8`` otherwise (``f4e2m1fn`` bit patterns).
- any other width (``E(3)``, ``E(32)`` on ``pred``) is refused.

>>> import numpy as np
>>> a = np.arange(15, dtype=np.float32).reshape(3, 5)
>>> buf = pack(a, "f32[3,5]{1,0:T(2,2)}")
>>> buf[:8].tolist(), buf.size
([0.0, 1.0, 5.0, 6.0, 2.0, 3.0, 7.0, 8.0], 24)
>>> np.array_equal(unpack(buf, "f32[3,5]{1,0:T(2,2)}"), a)
True
>>> pack(np.array([1, -2, 3], dtype=np.int8), "s4[3]{0:E(4)}").tolist()
[30, 48]
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CutepyError
from ..core.lazy import load
from ..core.limits import max_elements
from .compile import compile_details
from .parser import as_array_shape
from .shape import ArrayShape, Shape

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError


def storage_bits(shape: Shape | str) -> int:
    """Bits one element takes in the buffer: ``E(n)``, else the type's whole bytes.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: ``n`` for an ``E(n)`` layout, else ``8 * ceil(bits / 8)`` of the element type.

    >>> storage_bits("s4[8]"), storage_bits("s4[8]{0:E(4)}"), storage_bits("bf16[2]")
    (8, 4, 16)
    """
    arr = as_array_shape(shape)
    e = arr.effective_layout.element_size_in_bits
    return e or 8 * arr.type.byte_width


def _packing(arr: ArrayShape) -> int:
    """Elements per byte (1 for whole-byte storage); raises for widths cutepy cannot store."""
    bits = storage_bits(arr)
    if bits % 8 == 0:
        return 1
    if bits in (1, 2, 4):
        return 8 // bits
    raise CutepyError(f"{arr}: cannot store {bits}-bit elements (whole bytes, or 1, 2 or 4 bits)")


def _offsets(arr: ArrayShape) -> tuple[np.ndarray, int]:
    compiled = compile_details(arr)
    if compiled.buffer_size > max_elements():  # the buffer is allocated slot by slot
        raise CutepyError(f"{arr} has a buffer of {compiled.buffer_size} slots, above the element limit of "
                          f"{max_elements()}; raise it with cutepy.limits(max_elements=...)")
    return compiled.offsets(), compiled.buffer_size


def pack(array: Any, shape: Shape | str) -> np.ndarray:
    """The physical buffer of ``array`` laid out as ``shape`` says; padding is zero.

    Pre:  ``array`` has ``shape``'s dims and values its element type can store; sub-byte types
          take integers or bools (else ``CutepyError``).
    Post: ``unpack(pack(array, shape), shape) == array``; the buffer has
          ``buffer_elements(shape)`` slots (bytes for sub-byte types), padding zero.

    >>> pack(np.arange(6, dtype=np.int32).reshape(2, 3), "s32[2,3]{0,1}").tolist()
    [0, 3, 1, 4, 2, 5]
    """
    arr = as_array_shape(shape)
    a = np.asarray(array)
    if a.shape != arr.concrete_bounds("pack()"):
        raise CutepyError(f"an array of shape {a.shape} does not fit {arr} (dims {arr.bounds})")
    per_byte = _packing(arr)
    offsets, slots = _offsets(arr)
    if per_byte == 1:
        bits = storage_bits(arr)
        if a.dtype.itemsize * 8 != bits:
            raise CutepyError(
                f"{arr} stores {bits}-bit elements; the array's {a.dtype} has {a.dtype.itemsize * 8} "
                "(pass bit patterns of the right width, e.g. uint16 for bf16)"
            )
        buf = np.zeros(slots, dtype=a.dtype)
        buf[offsets] = a
        return buf
    if a.dtype.kind not in "biu":
        raise CutepyError(f"{arr} packs sub-byte values: pass integers or bools, not {a.dtype}")
    bits = 8 // per_byte
    values = np.zeros(-(-slots // per_byte) * per_byte, dtype=np.uint8)
    values[offsets] = a.astype(np.int64) & ((1 << bits) - 1)
    lanes = values.reshape(-1, per_byte)
    out = np.zeros(lanes.shape[0], dtype=np.uint8)
    for j in range(per_byte):
        out |= lanes[:, j] << np.uint8(bits * (per_byte - 1 - j))
    return out


def unpack(buffer: Any, shape: Shape | str) -> np.ndarray:
    """The logical array stored in ``buffer`` (as :func:`pack` made it).

    Pre:  ``buffer`` is what :func:`pack` makes for ``shape`` (its size and dtype, else ``CutepyError``).
    Post: an array of ``shape``'s dims with ``pack(result, shape)`` equal to ``buffer`` outside padding.

    >>> unpack(np.array([30, 48], dtype=np.uint8), "s4[3]{0:E(4)}").tolist()
    [1, -2, 3]
    """
    arr = as_array_shape(shape)
    arr.concrete_bounds("unpack()")
    buf = np.asarray(buffer).reshape(-1)
    per_byte = _packing(arr)
    offsets, slots = _offsets(arr)
    if per_byte == 1:
        if buf.size < slots:
            raise CutepyError(f"{arr} needs a buffer of {slots} elements, got {buf.size}")
        return buf[offsets]
    need = -(-slots // per_byte)
    if buf.dtype != np.uint8 or buf.size < need:
        raise CutepyError(f"{arr} needs a uint8 buffer of {need} bytes, got {buf.size} {buf.dtype}")
    bits = 8 // per_byte
    lanes = np.empty((buf.size, per_byte), dtype=np.uint8)
    for j in range(per_byte):
        lanes[:, j] = (buf >> np.uint8(bits * (per_byte - 1 - j))) & np.uint8((1 << bits) - 1)
    values = lanes.reshape(-1)[offsets]
    kind = arr.type.kind
    if kind == "signed":
        v = values.astype(np.int8)
        return np.where(v >= 1 << (bits - 1), v - (1 << bits), v).astype(np.int8)
    if kind == "pred":
        return values.astype(bool)
    return values
