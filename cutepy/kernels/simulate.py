"""Simulation: run a kernel design's copies and MMAs on numpy data, thread by thread.

``copy(tiled_copy, src, dst)``, ``copy_if(tiled_copy, pred, src, dst)`` and
``gemm(tiled_mma, A, B, C)`` do what every thread of the CTA does in C++: each operand is
either a **whole tile** (a tensor the tiled object partitions for every thread, as
``partition_S``/``partition_D``/``partition_A``...) or a **list of per-thread tensors**
(``[thr_t.partition_S(sA) for t in ...]``, register fragments, C++'s per-thread view),
indexed by thread. Collective instructions (``ldmatrix``, ``mma.sync``, GMMA) exchange
values between the threads of one atom exactly as their thread-value layouts say: the
values thread ``a`` of an atom holds sit at ``layout_src_tv(a, v)`` of the atom's data
and arrive at the thread and value whose ``layout_dst_tv`` names that element.

A design mistake shows: a read or write outside a tensor, two values written to one
element with different data (an aliasing fragment) or threads of one atom disagreeing
on a shared operand raise :class:`~cutepy.SimulationError` naming the thread and value;
a wrong result is located by :func:`check_tile` (which thread and value hold it).

>>> import numpy as np
>>> from cutepy import Layout, make_tensor, make_tiled_copy, copy_atom
>>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
>>> src = make_tensor(np.arange(64, dtype=np.float32), Layout((4, 16)))
>>> dst = make_tensor(np.zeros(64, dtype=np.float32), Layout((4, 16), (16, 1)))
>>> copy(cp, src, dst)
>>> float(dst(3, 5)) == float(src(3, 5))
True

Post (every function): a destination is written only when the whole operation succeeds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core import inttuple as it
from ..core.errors import CutepyError, SimulationError
from ..core.layout import Layout
from ..core.layout import size as _size
from ..core.lazy import load
from .atoms.copy import CopyAtom, copy_atom
from .atoms.mma import NUMPY_TYPES
from .tensor import MAX_VALUES, Tensor, TransformIter, compact_layout, flat_coord
from .tiled.copy import TiledCopy
from .tiled.mma import TiledMMA

np = load("numpy")  # numpy loads on first use (the module's import needs none)


def numpy_dtype(cxx_type: str) -> Any:
    """The numpy dtype that simulates C++ element type ``cxx_type`` (``half_t`` -> float16).

    Pre:  ``cxx_type`` is one of :data:`NUMPY_TYPES` (else ``CutepyError``).
    Post: a ``numpy.dtype``; types numpy lacks (bfloat16, tf32, fp8, fp6, fp4) compute in float32.

    >>> numpy_dtype("half_t"), numpy_dtype("float")
    (dtype('float16'), dtype('float32'))
    """
    if cxx_type not in NUMPY_TYPES:
        raise CutepyError(f"no numpy type simulates the C++ element type {cxx_type!r}")
    return np.dtype(NUMPY_TYPES[cxx_type])


# -- operands: per thread, an engine and the engine offsets of its values -----------------


@dataclass
class _Part:
    """Thread ``thread``'s view of an operand: ``engine[offs[i]]`` is its value ``i``; ``shape`` is
    the partition's shape; ``where(i)`` says where value ``i`` sits, for messages."""

    thread: int
    engine: Any
    offs: Any
    shape: Any
    name: str
    coords: Any = None  # the whole tile's 1-D indices of the values (whole-tile operands)
    tile_shape: Any = None

    def where(self, i: int) -> str:
        s = f"thread {self.thread} value {i} of {self.name}"
        if self.coords is not None:
            s += f" (tile coordinate {it.idx2crd(int(self.coords[i]), self.tile_shape)})"
        return s


def _engine_offsets(x: Tensor, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise CutepyError(f"{name} must be a tensor or a list of per-thread tensors, not {it.short_repr(x)}")
    if x.engine is None:
        raise CutepyError(f"{name} is a coordinate tensor ({x}); simulation needs tensors over arrays")
    n = _size(x.layout)
    if not isinstance(n, int) or n > MAX_VALUES:
        raise CutepyError(f"{name} has {n} elements, over the simulation limit {MAX_VALUES}")
    return np.asarray(x.layout.offsets(), dtype=np.int64) + int(x.offset)


def _parts(x: Any, threads: list[int], name: str, partition: Any) -> list[_Part]:
    """The per-thread views of operand ``x``: a whole tile is partitioned by ``partition(t, L)``
    (``L`` its compact index layout), a list gives one tensor per thread."""
    if isinstance(x, (list, tuple)):
        if len(x) != threads[-1] + 1:
            raise CutepyError(f"{name} is a list of {len(x)} per-thread tensors; the design has "
                              f"threads 0..{threads[-1]}")
        return [_Part(t, x[t].engine if isinstance(x[t], Tensor) else None,
                      _engine_offsets(x[t], f"{name}[{t}]"), x[t].shape, f"{name}[{t}]") for t in threads]
    offs = _engine_offsets(x, name)
    index = _index_tensor(x.shape)
    out = []
    for t in threads:
        P = partition(t, index)
        idx = P.layout.offsets() + P.offset
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= len(offs)):
            raise CutepyError(f"{name} of shape {x.shape} is not a whole number of the design's tiles: "
                              f"thread {t}'s partition {P.shape} reaches tile index "
                              f"{int(idx.max())}, outside its {len(offs)} elements")
        out.append(_Part(t, x.engine, offs[idx], P.shape, name, idx, x.shape))
    return out


def _index_tensor(shape: Any) -> Tensor:
    """The tensor of ``shape`` whose value at each coordinate is its 1-D (colexicographic) index:
    partitioning it says which elements of a whole tile a thread holds."""
    L = compact_layout(shape)
    return Tensor(np.arange(int(L.cosize())), L)


def _read(p: _Part, mask: Any = None) -> Any:
    n = len(p.engine)
    bad = (p.offs < 0) | (p.offs >= n)
    if mask is not None:
        bad &= mask
    if bad.any():
        i = int(np.argmax(bad))
        raise SimulationError(f"{p.where(i)} reads offset {int(p.offs[i])}, outside its engine of length {n}")
    safe = np.where(bad | ((p.offs < 0) | (p.offs >= n)), 0, p.offs)
    return p.engine[safe]


def _commit(writes: list[tuple[_Part, Any, Any]]) -> None:
    """Check and perform ``(part, values, mask)`` writes: every offset in its engine, and no two
    values written to one element with different data; nothing is written if a check fails."""
    by_engine: dict[int, list] = {}
    for p, vals, mask in writes:
        n = len(p.engine)
        sel = np.ones(len(p.offs), bool) if mask is None else np.asarray(mask, bool)
        bad = sel & ((p.offs < 0) | (p.offs >= n))
        if bad.any():
            i = int(np.argmax(bad))
            raise SimulationError(f"{p.where(i)} writes offset {int(p.offs[i])}, outside its engine "
                                  f"of length {n}")
        by_engine.setdefault(id(p.engine), []).append((p, vals, sel))
    for group in by_engine.values():
        offs = np.concatenate([p.offs[s] for p, _, s in group])
        vals = np.concatenate([np.asarray(v)[s] for _, v, s in group])
        who = [(p, i) for p, _, s in group for i in np.nonzero(s)[0]]
        order = np.argsort(offs, kind="stable")
        o, v = offs[order], vals[order]
        same = o[1:] == o[:-1]
        differ = same & ~((v[1:] == v[:-1]) | ((v[1:] != v[1:]) & (v[:-1] != v[:-1])))
        if differ.any():
            j = int(np.argmax(differ))
            (p1, i1), (p2, i2) = who[order[j]], who[order[j + 1]]
            raise SimulationError(
                f"{p1.where(int(i1))} and {p2.where(int(i2))} both write offset {int(o[j])} "
                f"({_val(v[j])} and {_val(v[j + 1])}): the destination layout maps two values to one element"
            )
    for p, vals, sel in writes:
        p.engine[p.offs[sel]] = np.asarray(vals)[sel]


# -- copy ---------------------------------------------------------------------------------


def _tv_table(L: Layout, nthr: int, nval: int) -> Any:
    return np.array([[int(L(t, v)) for v in range(nval)] for t in range(nthr)], dtype=np.int64)


def _copy_atom_threads(tc: Any) -> tuple[CopyAtom, int, list[int]]:
    if isinstance(tc, TiledCopy):
        return tc.copy_atom, _size(tc.copy_atom.layout_ref_tv[0]), list(range(tc.size))
    if isinstance(tc, CopyAtom):
        return tc, _size(tc.layout_ref_tv[0]), list(range(_size(tc.layout_ref_tv[0])))
    raise CutepyError(f"copy takes a TiledCopy or a copy atom first, not {it.short_repr(tc)}")


def _computed(x: Any) -> Any:
    """A predicate that computes its values (a :func:`~cutepy.lazy_transform` view, C++'s
    ``lazy::transform`` in tiled_copy_if) as booleans over an array, element for element."""
    if isinstance(x, (list, tuple)):
        return [_computed(t) for t in x]
    if isinstance(x, Tensor) and isinstance(x.engine, TransformIter):
        return Tensor(np.asarray(x.values(), dtype=bool), compact_layout(x.shape))
    return x


def _run_copy(tc: Any, pred: Any, src: Any, dst: Any) -> None:
    pred = _computed(pred)
    atom, at, threads = _copy_atom_threads(tc)
    single = isinstance(tc, CopyAtom)
    if single and at == 1 and isinstance(src, Tensor):
        src, dst, pred = [src], [dst], (None if pred is None else [pred])
    elif single:
        raise CutepyError(f"{atom.name} moves data between {at} threads; pass one tensor per thread "
                          "(lists) or copy with a TiledCopy")
    # every thread's values, not a kernel's view of one: static indices (the same values, fast)
    sl = (lambda t: tc.get_slice(t, static=True)) if not single else None
    S = _parts(src, threads, "src", lambda t, L: sl(t).partition_S(L))
    D = _parts(dst, threads, "dst", lambda t, L: sl(t).partition_D(L))
    P = None if pred is None else _parts(pred, threads, "pred", lambda t, L: sl(t).partition_S(L))
    avs, avd = atom.num_val_src, atom.num_val_dst
    src_tv = _tv_table(atom.layout_src_tv, at, avs)
    dst_tv = _tv_table(atom.layout_dst_tv, at, avd)
    width = int(max(src_tv.max(), dst_tv.max())) + 1
    writes = []
    for g in range(len(threads) // at):
        grp = range(g * at, (g + 1) * at)
        nrest = None
        for a in grp:
            for p, av in ((S[a], avs), (D[a], avd)):
                if len(p.offs) % av or (nrest is not None and len(p.offs) // av != nrest):
                    raise SimulationError(
                        f"{p.name} of thread {p.thread} has {len(p.offs)} values, not (atom values "
                        f"{av}) x {nrest or 'n'} as the other operands: its shape {p.shape} does not "
                        "match the copy's partition")
                nrest = len(p.offs) // av
        masks = {}
        buf = None
        have = np.zeros((nrest, width), bool)
        for a in grp:
            mask = None
            if P is not None:
                pm = np.asarray(_read(P[a]), bool)
                mask = pm if len(pm) == len(S[a].offs) else np.repeat(pm, avs) if len(pm) == nrest else None
                if mask is None:
                    raise SimulationError(
                        f"pred of thread {a} has {len(pm)} values; src has {len(S[a].offs)}")
            masks[a] = mask
            vals = _read(S[a], mask).reshape(nrest, avs)
            if buf is None:
                buf = np.zeros((nrest, width), dtype=vals.dtype)
            m = np.ones((nrest, avs), bool) if mask is None else mask.reshape(nrest, avs)
            cols = src_tv[a - g * at]
            for v in range(avs):
                buf[m[:, v], cols[v]] = vals[m[:, v], v]
                have[m[:, v], cols[v]] = True
        for a in grp:
            cols = dst_tv[a - g * at]
            out = buf[:, cols]
            ok = have[:, cols]
            if masks[a] is not None and avs == avd:
                ok &= masks[a].reshape(nrest, avd)
            writes.append((D[a], out.reshape(-1), ok.reshape(-1)))
    _commit(writes)


def copy(tiled_copy: Any, src: Any, dst: Any = None) -> None:
    """C++ ``copy(tiled_copy, src, dst)`` run by every thread: ``dst`` gets ``src``'s values.

    ``src`` and ``dst`` are whole tiles (each thread's ``partition_S(src)`` goes to its
    ``partition_D(dst)``) or lists of per-thread tensors ``(CopyV, Rest...)`` (C++'s per-thread
    call); a copy atom with one thread copies one thread's tensors element by element, and
    ``copy(src, dst)`` (C++'s atom-less ``copy``) does so with ``DefaultCopy``.

    Pre:  ``tiled_copy`` is a TiledCopy (or a one-thread copy atom); the operands are tensors
          over arrays whose partitions have the same number of values per thread; every value
          read or written lies in its engine (else ``SimulationError`` naming thread and value).
    Post: every element a destination value maps to holds the source value the atom's
          thread-value layouts route to it (cast to ``dst``'s dtype); nothing else is written;
          if two values would land on one element with different data, ``SimulationError``
          and nothing is written.

    >>> import numpy as np
    >>> from cutepy import Layout, make_tensor, copy_atom
    >>> s = make_tensor(np.arange(4.0), Layout(4))
    >>> d = make_tensor(np.zeros(4), Layout(4))
    >>> copy(copy_atom("UniversalCopy<uint64_t>", 64), s, d); d.engine.tolist()
    [0.0, 1.0, 2.0, 3.0]
    >>> e = make_tensor(np.zeros(4), Layout(4, 1)); copy(d, e); e.engine.tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    if dst is None:  # copy(src, dst): C++'s element-wise copy
        tiled_copy, src, dst = _default_atom(tiled_copy), tiled_copy, src
    _run_copy(tiled_copy, None, src, dst)


def _default_atom(src: Any) -> CopyAtom:
    """``DefaultCopy`` for ``src``'s elements (one value per thread, any type)."""
    return copy_atom("DefaultCopy", 8)


def copy_if(tiled_copy: Any, pred: Any, src: Any, dst: Any) -> None:
    """C++ ``copy_if(tiled_copy, pred, src, dst)``: :func:`copy` of the values whose predicate holds.

    ``pred`` is shaped like ``src`` (a whole tile of booleans, e.g. ``elem_less`` of an identity
    tensor against the tensor's shape, as C++'s tiled_copy_if tutorial; or per-thread lists,
    one predicate per value or per atom call). Values whose predicate is false are neither
    read (they may lie outside the source) nor written.

    Pre:  as :func:`copy`; ``pred`` holds booleans (a tensor over an array or a
          :func:`~cutepy.lazy_transform` view, or a list of them).
    Post: as :func:`copy` for the values whose predicate is true; the others are untouched.

    >>> import numpy as np
    >>> from cutepy import Layout, make_tensor, copy_atom
    >>> s = make_tensor(np.arange(4.0), Layout(4))
    >>> d = make_tensor(np.zeros(4), Layout(4))
    >>> p = make_tensor(np.array([True, False, True, False]), Layout(4))
    >>> copy_if(copy_atom("UniversalCopy<uint64_t>", 64), p, s, d); d.engine.tolist()
    [0.0, 0.0, 2.0, 0.0]
    """
    _run_copy(tiled_copy, pred, src, dst)


# -- gemm ---------------------------------------------------------------------------------


def _rest_shape(shape: Any, who: str) -> tuple[int, int]:
    """``(V, M, K)`` -> (size M, size K); ``(V, M)`` -> (M, 1); ``(V)`` -> (1, 1)."""
    modes = shape if isinstance(shape, tuple) else (shape,)
    if len(modes) > 3:
        raise CutepyError(f"{who} has shape {shape}: a gemm operand is (V), (V,M) or (V,M,K)")
    sizes = [it.product(m) if isinstance(m, tuple) else m for m in modes[1:]] + [1, 1]
    return int(sizes[0]), int(sizes[1])


def gemm(tiled_mma: TiledMMA, A: Any, B: Any, C: Any) -> None:
    """C++ ``gemm(tiled_mma, A, B, C)`` run by every thread: ``C += A * B^T`` through the atoms.

    Whole tiles (``A``: M x K, ``B``: N x K, ``C``: M x N, CuTe's convention) are partitioned
    for every thread (``partition_A/B/C``); lists give each thread's fragments
    (``(V, M', K')``, ``(V, N', K')``, ``(V, M', N')``; C++ ``tCrA``...). Each atom instance
    gathers its threads' values into its ``M x K``, ``N x K`` and ``M x N`` tiles by the atom's
    thread-value layouts, multiplies in ``C``'s dtype (K blocks outermost, as C++), and
    returns the ``C`` values to the threads.

    Pre:  ``tiled_mma`` is a TiledMMA; every thread's fragments have the atom's values in
          mode 0 and agree on M', N', K'; threads of one atom that hold the same element of
          A or B hold the same value (else ``SimulationError`` naming both); whole tiles are
          whole numbers of the MMA's tiles, and a whole ``C`` needs an atom layout with one atom
          along K (atoms split along K each hold a partial sum of the same ``C`` elements, whose
          reduction C++ leaves to the kernel: pass per-thread ``C`` fragments), else ``CutepyError``.
    Post: every C value of every thread is its element of ``C + A B^T`` (in C's dtype);
          nothing is written if a check fails.

    >>> import numpy as np
    >>> from cutepy import Layout, make_tensor, make_tiled_mma, mma_atom
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> a, b = np.ones((32, 16), np.float16), np.ones((16, 16), np.float16)
    >>> A = make_tensor(a.ravel(order="F"), Layout((32, 16)))
    >>> B = make_tensor(b.ravel(order="F"), Layout((16, 16)))
    >>> C = make_tensor(np.zeros(32 * 16, np.float32), Layout((32, 16)))
    >>> gemm(mma, A, B, C); float(C(31, 15))
    16.0
    """
    if not isinstance(tiled_mma, TiledMMA):
        raise CutepyError(f"gemm takes a TiledMMA first (cutepy.make_tiled_mma), not "
                          f"{it.short_repr(tiled_mma)}")
    mma, atom = tiled_mma, tiled_mma.atom
    k_atoms = _size(mma.atom_layout_mnk[2])
    if k_atoms != 1 and not isinstance(C, (list, tuple)):
        raise CutepyError(f"gemm: the TiledMMA's atom layout {mma.atom_layout_mnk} splits K over "
                          f"{k_atoms} atoms, each holding a partial sum of the same C elements (C++ leaves "
                          "their reduction to the kernel); pass per-thread C fragments (a list), "
                          "not a whole C")
    threads = mma.thread_ids()
    vmnk = {t: flat_coord(mma.thr_layout_vmnk, t) for t in threads}
    PA = _parts(A, threads, "A", lambda t, L: mma.get_slice(t, static=True).partition_A(L))
    PB = _parts(B, threads, "B", lambda t, L: mma.get_slice(t, static=True).partition_B(L))
    PC = _parts(C, threads, "C", lambda t, L: mma.get_slice(t, static=True).partition_C(L))
    Ma, Na, Ka = atom.shape_mnk
    nthr = _size(atom.thr_id)
    tvs = {}
    for key, L in (("A", atom.tv_layout_A), ("B", atom.tv_layout_B), ("C", atom.tv_layout_C)):
        tvs[key] = _tv_table(L, nthr, _size(L[1]))
    groups: dict[tuple, dict[int, int]] = {}
    for i, t in enumerate(threads):
        v, m, n, k = vmnk[t]
        groups.setdefault((m, n, k), {})[v] = i
    writes = []
    for members in groups.values():
        first = PC[next(iter(members.values()))]
        Mr, Nr = _rest_shape(first.shape, first.name)
        Kr = None
        tiles = {}
        for key, parts, (rows, ext) in (("A", PA, (Ma, Ka)), ("B", PB, (Na, Ka)), ("C", PC, (Ma, Na))):
            tv = tvs[key]
            V = tv.shape[1]
            tile = None
            for v, i in sorted(members.items()):
                p = parts[i]
                r1, r2 = _rest_shape(p.shape, f"{p.name} of thread {p.thread}")
                if len(p.offs) != V * r1 * r2:
                    raise SimulationError(f"{p.name} of thread {p.thread} has shape {p.shape}: "
                                          f"mode 0 must hold the atom's {V} values")
                if key == "A":
                    Kr = r2 if Kr is None else Kr
                want = {"A": (Mr, Kr), "B": (Nr, Kr), "C": (Mr, Nr)}[key]
                if (r1, r2) != want:
                    raise SimulationError(f"{p.name} of thread {p.thread} has shape {p.shape}: its rest "
                                          f"modes {(r1, r2)} do not match the other operands' {want}")
                vals = _read(p).reshape(r2, r1, V)
                if tile is None:
                    tile = np.zeros((r2, r1, rows * ext), dtype=vals.dtype)
                    seen = np.zeros(rows * ext, bool)
                cols = tv[v]
                clash = seen[cols] & np.any(tile[:, :, cols] != vals, axis=(0, 1))
                if clash.any():
                    j = int(np.argmax(clash))
                    raise SimulationError(
                        f"{p.where(j)} disagrees with another thread of its atom on element "
                        f"{it.idx2crd(int(cols[j]), (rows, ext))} of the atom's {key} tile")
                tile[:, :, cols] = vals
                seen[cols] = True
            if not seen.all():
                hole = it.idx2crd(int(np.argmin(seen)), (rows, ext))
                raise SimulationError(f"the threads of an atom leave element {hole} of its {key} tile unset")
            # (r2, r1, ext, rows): position m + rows*k
            tiles[key] = tile.reshape(tile.shape[0], tile.shape[1], ext, rows)
        a = tiles["A"]  # (K', M', Ka, Ma)
        b = tiles["B"]  # (K', N', Ka, Na)
        c = tiles["C"]  # (N', M', Na, Ma)
        acc = c.astype(c.dtype, copy=True)
        ct = acc.dtype
        for kk in range(a.shape[0]):
            # acc[n', m', na, ma] += sum_k a[kk, m', k, ma] * b[kk, n', k, na]
            acc += np.einsum("xkm,ykn->yxnm", a[kk].astype(ct), b[kk].astype(ct)).astype(ct)
        flat = acc.reshape(acc.shape[0], acc.shape[1], Ma * Na)
        for v, i in members.items():
            writes.append((PC[i], flat[:, :, tvs["C"][v]].reshape(-1), None))
    _commit(writes)


# -- locating a wrong result ----------------------------------------------------------------


def check_tile(tiled: Any, got: Any, want: Any, rtol: float = 1e-2, atol: float = 1e-2) -> int:
    """Compare a simulated whole tile with its reference; name the thread and value of each wrong element.

    ``tiled`` is the TiledMMA (its C partition) or TiledCopy (its destination partition) that
    produced ``got``; ``want`` is a numpy array of ``got``'s shape (``product_each``, e.g.
    ``A @ B.T``) or a tensor.

    Pre:  ``got`` is a tensor over an array of rank 2 (or whose modes flatten to ``want``'s shape).
    Post: returns the number of elements checked when all are close (``numpy.isclose``);
          else ``SimulationError`` listing up to 8 wrong elements, each with its coordinate,
          the two values, and the thread and value index of ``tiled`` that hold it.

    >>> import numpy as np
    >>> from cutepy import Layout, make_tensor, make_tiled_mma, mma_atom
    >>> mma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (4, 4, 1))
    >>> C = make_tensor(np.zeros(16, np.float32), Layout((4, 4)))
    >>> check_tile(mma, C, np.zeros((4, 4)))
    16
    """
    if not isinstance(got, Tensor) or got.engine is None:
        raise CutepyError(f"check_tile compares a tensor over an array, not {got!r}")
    shape = it.product_each_tuple(got.shape) if isinstance(got.shape, tuple) else (got.shape,)
    vals = np.array([got(i) for i in range(_size(got.layout))])
    if isinstance(want, Tensor):
        ref = np.asarray(want.values())
    else:
        try:
            ref = np.asarray(want)
            if ref.dtype.kind not in "biufc":
                raise TypeError(ref.dtype)
        except (TypeError, ValueError):  # ragged nesting, text, objects
            raise CutepyError(f"check_tile: the reference must be an array of numbers, not "
                              f"{it.short_repr(want)}") from None
        if ref.shape != tuple(shape):
            raise CutepyError(f"check_tile: the reference has shape {ref.shape}, the tile {tuple(shape)}")
        ref = ref.ravel(order="F")
    if ref.size != vals.size:
        raise CutepyError(f"check_tile: the reference has {ref.size} elements, the tile {vals.size}")
    bad = ~np.isclose(vals.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=atol)
    if not bad.any():
        return int(vals.size)
    owner = _owners(tiled, got.shape)
    lines = []
    for i in np.nonzero(bad)[0][:8]:
        crd = it.idx2crd(int(i), shape)
        held = owner.get(int(i), [])
        who = ", ".join(f"thread {t} value {v}" for t, v in held[:4]) or "no thread"
        lines.append(f"  {crd}: got {_val(vals[i])}, expected {_val(ref[i])}; held by {who}")
    raise SimulationError(f"{int(bad.sum())} of {vals.size} elements differ from the reference:\n"
                          + "\n".join(lines))


def _val(x: Any) -> str:
    """A value for a message: numpy scalars as plain numbers (6 significant digits)."""
    x = x.item() if hasattr(x, "item") else x
    return f"{x:.6g}" if isinstance(x, float) else repr(x)


def _owners(tiled: Any, shape: Any) -> dict[int, list[tuple[int, int]]]:
    index = _index_tensor(shape)
    if isinstance(tiled, TiledMMA):
        parts = [(t, tiled.get_slice(t, static=True).partition_C(index)) for t in tiled.thread_ids()]
    elif isinstance(tiled, TiledCopy):
        parts = [(t, tiled.get_slice(t, static=True).partition_D(index)) for t in range(tiled.size)]
    else:
        raise CutepyError(f"check_tile takes the TiledMMA or TiledCopy that made the tile, not {tiled!r}")
    out: dict[int, list[tuple[int, int]]] = {}
    for t, P in parts:
        for v, i in enumerate((P.layout.offsets() + P.offset).tolist()):
            out.setdefault(int(i), []).append((t, v))
    return out


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = ["check_tile", "copy", "copy_if", "gemm"]
