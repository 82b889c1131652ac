"""Every thread's partition of a tensor at once: what a design sweep checks for each thread.

``partition_all(tiled, which, tensor)[t]`` is ``tiled.get_slice(t).partition_<which>(tensor)``
for every thread ``t`` of a TiledMMA (``which`` ``"A"``, ``"B"``, ``"C"``) or a TiledCopy
(``"S"``, ``"D"``), the same value with the same kinds of leaves, made together: the threads'
fixed offsets are computed as one numpy expression, the threads fall into a few groups that
share a sliced layout (:func:`cutepy.algebra.composed.slice_and_offset_many`), one thread of each
group is sliced as ``get_slice`` slices it, and the others' offsets are checked element by
element as that slice checks them. Where that cannot be done (a symbolic or coordinate
tensor, a pattern the batched slice does not cover, an error) each thread is partitioned one at a
time, so every result and every error is the per-thread one. The batch is kept on the
TiledMMA or TiledCopy (:func:`cutepy.kernels.memo.derived_of`, bounded) by the tensor's layout,
and a TiledMMA's also on a swizzled tensor layout by what it is made from (:func:`_signature`;
:func:`cutepy.algebra.composed.kept_table`), as are the layouts its slices fold into.

>>> from cutepy import Layout, composition, Swizzle, make_tiled_mma, mma_atom, make_tensor
>>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
>>> sA = make_tensor(None, composition(Swizzle(3, 3, 3), Layout((32, 64), (64, 1))))
>>> parts = partition_all(mma, "A", sA)
>>> len(parts), parts[37] == mma.get_slice(37).partition_A(sA)
(128, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...algebra.composed import FOLD_LIMIT, composed_parts, fold_table, kept_table, slice_and_offset_many
from ...core import inttuple as it
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from ...core.lazy import load
from ..memo import derived, derived_of, exact_key, sliced
from ..tensor import Tensor, thread_index
from . import copy as _copy
from . import mma as _mma

if TYPE_CHECKING:  # numpy is imported only where offsets are computed
    import numpy as np
else:  # numpy loads on first use
    np = load("numpy")

#: the largest |offset| a batch computes in int64 (beyond: one thread at a time)
_BOUND = 1 << 60


class ThreadPartitions:
    """Every thread's partition of one tensor (see the module): ``len`` threads, ``[t]`` thread
    ``t``'s partition (a Tensor, or a layout for a layout argument), ``offsets`` each thread's
    offset from the tensor's own (an int64 array; None where the threads were partitioned one
    at a time), ``layouts`` the distinct sliced layouts.

    Pre:  made by :func:`partition_all`.
    Post: ``self[t] == tiled.get_slice(t).partition_<which>(tensor)``.
    """

    __slots__ = ("_tensor", "_subs", "_which", "offsets", "_kind", "_items")

    def __init__(self, tensor: Any, batch: tuple | None, items: list | None):
        self._tensor, self._items = tensor, items
        if batch is None:
            self._subs, self._which, self.offsets, self._kind = None, None, None, None
        else:
            self._subs, self._which, self.offsets, self._kind = batch

    @property
    def layouts(self) -> tuple:
        """The distinct layouts the threads' partitions have (one per group of threads)."""
        if self._items is not None:
            return tuple(dict.fromkeys(_layout(x) for x in self._items))
        return tuple(self._subs)

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self._which)

    def __getitem__(self, t: int) -> Any:
        if self._items is not None:
            return self._items[t]
        sub = self._subs[self._which[t]]
        off = self._kind(int(self.offsets[t]))
        tensor = self._tensor
        if isinstance(tensor, Tensor):
            return Tensor(tensor.engine, sub, tensor.offset + off)
        return sub

    def __iter__(self):
        return (self[t] for t in range(len(self)))


def _layout(x: Any) -> Any:
    return x.layout if isinstance(x, Tensor) else x


def partition_all(tiled: Any, which: str, tensor: Any, *, static: bool = False) -> ThreadPartitions:
    """Every thread's ``partition_<which>`` of ``tensor`` (see the module).

    Pre:  ``tiled`` a TiledMMA (``which`` in ``"A"``, ``"B"``, ``"C"``) or a TiledCopy (``"S"``,
          ``"D"``); ``tensor`` as its ``partition_<which>`` takes it; ``static`` as ``get_slice``'s.
    Post: ``len(result) == size(tiled)`` and ``result[t] ==
          tiled.get_slice(t, static=static).partition_<which>(tensor)`` for each ``t``, leaf kinds
          included; an error is the first failing thread's, as the per-thread calls raise it.
    """
    if isinstance(tiled, _mma.TiledMMA) and which in _mma.OPERAND_COORD:
        how = f"thrfrg_{which}"
    elif isinstance(tiled, _copy.TiledCopy) and which in ("S", "D"):
        how = f"tidfrg_{which}"
    else:
        raise CutepyError(f"partition_all: {type(tiled).__name__} has no partition_{which}")
    layout = _copy._layout_of(tensor)

    def make() -> tuple | None:
        shared, key = kept_table(layout, "partitions"), _signature(tiled, which, static)
        if shared is not None and key is not None and key in shared:
            return shared[key]  # another TiledMMA that partitions alike made it
        batch = _batch(tiled, which, static, getattr(tiled, how)(layout), layout)
        if shared is not None and key is not None:
            if len(shared) >= FOLD_LIMIT:
                shared.clear()
            shared[key] = batch
        return batch

    batch = derived_of(tiled, f"all{which}{int(static)}", layout, make)
    if batch is not None:
        return ThreadPartitions(tensor, batch, None)
    method = f"partition_{which}"
    return ThreadPartitions(tensor, None, [getattr(tiled.get_slice(t, static=static), method)(tensor)
                                           for t in range(size(tiled))])


def _signature(tiled: Any, which: str, static: bool) -> tuple | None:
    """What a TiledMMA's partitions of a layout are made from, all of it (the fragment: its
    permutations, atom shape, the operand's atom TV layout and thread layout; each thread's
    coordinate: the thread layout and the atom's thread ids): two TiledMMAs with one signature
    (atoms that differ only in value types) partition a layout alike. None for a TiledCopy."""
    if not isinstance(tiled, _mma.TiledMMA):
        return None
    a, b = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which]
    atom = tiled.atom
    tv = {"A": atom.tv_layout_A, "B": atom.tv_layout_B, "C": atom.tv_layout_C}[which]
    return ("mma", which, static, tiled.permutation(a), tiled.permutation(b), atom.shape_mnk, tv,
            tiled.thr_layout_vmnk, atom.thr_id)


def _thread_coords(tiled: Any, which: str, static: bool) -> tuple[int, Any, Any]:
    """``(n, coord, template)``: the number of threads, ``coord(t)`` thread ``t``'s coordinate of its
    fragment's thread mode as ``get_slice`` makes it (asked only for the few threads a batch
    slices), and every thread's coordinate at once as a template of int64 columns
    (one per leaf; ``None`` where the thread layout has a leaf that is not an ``int``), kept on
    ``tiled``. The columns are ``get_slice``'s arithmetic on all threads: C++'s
    ``get_flat_coord``, each leaf ``(t / d) % s`` (0 for a stride 0) folded per mode."""
    def make() -> tuple[int, Any, Any]:
        n = size(tiled)
        if isinstance(tiled, _mma.TiledMMA):
            operand = _mma.OPERAND_COORD[which]

            def coord(t: int) -> Any:  # (get_slice keeps each thread's coordinate on tiled)
                return operand(*tiled.get_slice(t, static=static).thr_vmnk)
            vmnk = tiled.thr_layout_vmnk
            if not all(type(x) is int for x in it.flatten_tuple((vmnk.shape, vmnk.stride))):
                return n, coord, None
            return n, coord, operand(*_flat_coords(vmnk, np.arange(n, dtype=np.int64)))

        def coord(t: int) -> Any:
            return thread_index(t, static, "thread")
        return n, coord, np.arange(n, dtype=np.int64)
    return derived(tiled, ("thread_coords", which, static), make)


def _flat_coords(layout: Layout, t: Any) -> tuple:
    """:func:`cutepy.kernels.tensor.flat_coord` of every index in the int64 array ``t``: one
    column per top-level mode (static integer leaves)."""
    modes = layout.shape if type(layout.shape) is tuple else (layout.shape,)
    strides = layout.stride if type(layout.shape) is tuple else (layout.stride,)
    out = []
    for s, d in zip(modes, strides):
        col, scale = np.zeros_like(t), 1
        for si, di in zip(it.flatten_tuple(s), it.flatten_tuple(d)):
            if di != 0:
                col += (t // di) % si * scale
            scale *= si
        out.append(col)
    return tuple(out)


def _batch(tiled: Any, which: str, static: bool, frg: Any, layout: Any) -> tuple | None:
    """The layout-level batch of :func:`partition_all` (None: partition one thread at a time)."""
    parts = composed_parts(frg)
    inner = frg if type(frg) is Layout else parts[2] if parts is not None else None
    if type(inner) is not Layout or not exact_key(frg) or type(inner.shape) is not tuple:
        return None
    if not all(type(x) is int for x in it.flatten_tuple((inner.shape, inner.stride))):
        return None  # a coordinate tensor's basis strides: one thread at a time
    n, coord, template = _thread_coords(tiled, which, static)
    if template is None or not n:
        return None
    mode_s, mode_d = inner.shape[0], inner.stride[0]
    bound = sum(abs(d) * s for s, d in zip(it.flatten_tuple(mode_s), it.flatten_tuple(mode_d)))
    bound += abs(int(parts[1])) if parts is not None else 0  # the composed layout's offset
    if bound + size(inner) * max(1, max(abs(d) for d in it.flatten_tuple(inner.stride))) > _BOUND:
        return None
    if isinstance(tiled, _mma.TiledMMA):
        def crd(i: int) -> tuple:
            return _mma.thread_crd(frg, coord(i))
    else:
        def crd(i: int) -> tuple:
            return _copy.thread_crd(coord(i), layout)
    fixed = np.asarray(_crd2idx(template, mode_s, mode_d) + np.zeros(n, dtype=np.int64))
    try:
        return slice_and_offset_many(crd, frg, fixed, lambda i: sliced(tiled, frg, crd(i)),
                                     fold_table(layout))  # kept on the tensor's layout
    except CutepyError:  # the per-thread path raises it again, for the first thread that fails
        return None


def _crd2idx(crd: Any, shape: Any, stride: Any) -> Any:
    """:func:`cutepy.core.inttuple.crd2idx` of int64 columns (one value per thread), the wildcard
    ``None`` adding nothing: an integer into a tuple mode split colexicographically, the last
    mode taking what is left (the coordinates are non-negative)."""
    if crd is None:
        return 0
    if type(crd) is tuple:
        r = 0
        for c, s, d in zip(crd, shape, stride):
            r = r + _crd2idx(c, s, d)
        return r
    if type(shape) is tuple:
        r, last = 0, len(shape) - 1
        for k, (s, d) in enumerate(zip(shape, stride)):
            if k == last:
                r = r + _crd2idx(crd, s, d)
            else:
                n = it.product(s)
                r = r + _crd2idx(crd % n, s, d)
                crd = crd // n
        return r
    return crd * stride


#: what cutepy.kernels.tiled exports from this module
__all__ = ["ThreadPartitions", "partition_all"]
