"""Every warp instruction that reads or writes a shared-memory tile, costed exactly.

A thread-value (TV) layout maps ``(thread, value)`` to an index of the tile (the domain of
the shared-memory layout); the shared-memory layout maps that index to an element offset.
Values are split into vectors of ``V`` consecutive value indices, one instruction each:

    instruction (warp w, vector k), lane t:  byte address
        a = smem(tv(32 w + t, k V)) * E,   with smem(tv(32 w + t, k V + v)) = smem(tv(.., k V)) + v

(the ``V`` elements of a vector must be consecutive in shared memory and the vector aligned
to its ``V E`` bytes, as the hardware requires). Threads past the last full warp are
inactive lanes. For ldmatrix/stmatrix every lane's vector is one 16-byte row (``V E = 16``).

>>> from cutepy.core.layout import Layout
>>> smem = Layout((32, 32), (32, 1))                  # fp32, row-major, 128 B rows
>>> column = Layout((32, 1), (1, 0))                  # lane t reads (t, 0)
>>> analyze_layout(smem, column, element_bytes=4, op="ld").summary()
'ld 4 B: 32 wavefronts, ideal 1, 31 bank conflicts (1 instruction, 1 warp)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.composed import is_layout
from ..core.errors import CutepyError
from ..core.inttuple import short_repr
from ..core.lazy import load
from .warp import (
    WARP,
    BankReport,
    analyze,
    check_instruction,
    count,
    format_table,
    instruction_name,
    lane_ranges,
    phase_costs_batch,
    wavefronts_batch,
)

#: kept reports on a TiledCopy value (a sweep costs one copy on one tile many times)
_memo = load("cutepy.kernels.memo")

#: Largest TV layout (threads x values) that the analyses accept.
MAX_ELEMENTS = 1 << 22
#: Copy ops a TiledCopy's atom may have, and the side that touches shared memory.
COPY_SIDES = {"ldmatrix": "src", "ld": "src", "stmatrix": "dst", "st": "dst", "cp.async": "dst"}
#: Rows of the per-instruction table that ``str(TileReport)`` prints before eliding.
TABLE_ROWS = 64


@dataclass(frozen=True, eq=False)
class Access:
    """One access pattern of a tile: every instruction's lanes as tile indices.

    ``index[i, t, v]`` is the tile index (smem-layout domain) of element ``v`` of lane
    ``t``'s vector in instruction ``i`` (``-1``: inactive lane); ``where[i]`` is
    ``(tile, warp, vector k)``. ``op``/``width``/``matrices`` describe the hardware
    instruction (cp.async by its measured rule, see :mod:`.warp`); ``label`` names it.

    >>> from cutepy.core.layout import Layout
    >>> a = make_access(tv_table(Layout((32, 1), (1, 0))), "ld", 1, 4)
    >>> a.op, a.width, a.index.shape, a.where
    ('ld', 4, (1, 32, 1), ((0, 0, 0),))
    """

    label: str
    op: str
    width: int
    matrices: int | None
    vector: int
    index: np.ndarray
    where: tuple[tuple[int, int, int], ...]

    @property
    def instruction(self) -> str:
        return instruction_name(self.label, self.width, self.matrices)


@dataclass(frozen=True)
class Instruction:
    """One warp instruction of a tile: which tile repetition, warp and vector, and its cost.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.core.layout import Layout
    >>> from cutepy.kernels.tiled.copy import make_tiled_copy
    >>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
    ...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
    >>> i = analyze_copy(cp, Layout((16, 64), (64, 1))).instructions[1]
    >>> i.tile, i.warp, i.vector, i.report.wavefronts
    (0, 1, 0, 4)
    """

    tile: int
    warp: int
    vector: int
    report: BankReport


class TileReport:
    """All instructions of an access to a tile, with totals and per-warp sums.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.core.layout import Layout
    >>> from cutepy.kernels.tiled.copy import make_tiled_copy
    >>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
    ...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
    >>> analyze_copy(cp, Layout((16, 64), (64, 1))).summary()
    'cp.async 16 B: 16 wavefronts, ideal 16, 0 bank conflicts (4 instructions, 4 warps)'
    """

    __slots__ = ("what", "instruction", "_instructions", "_make", "_totals")

    def __init__(self, what: str, instruction: str, instructions: tuple[Instruction, ...]):
        for name, value in (("what", what), ("instruction", instruction), ("_instructions", instructions),
                            ("_make", None), ("_totals", None)):
            object.__setattr__(self, name, value)

    @classmethod
    def _lazy(cls, what: str, instruction: str, make: Any, totals: tuple[int, int, int]) -> TileReport:
        """A report whose instructions are costed in detail when first asked for (``make()``);
        ``totals`` are its wavefronts, ideal wavefronts and phases, computed already (numpy)."""
        r = cls(what, instruction, None)
        object.__setattr__(r, "_make", make)
        object.__setattr__(r, "_totals", totals)
        return r

    @property
    def instructions(self) -> tuple[Instruction, ...]:
        """Every instruction with its :class:`~cutepy.banks.warp.BankReport`."""
        if self._instructions is None:
            object.__setattr__(self, "_instructions", self._make())
            object.__setattr__(self, "_make", None)
        return self._instructions

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a TileReport is immutable: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        return type(other) is TileReport and (self.what, self.instruction, self.instructions) == (
            other.what, other.instruction, other.instructions)

    def __hash__(self) -> int:
        return hash((self.what, self.instruction, self.instructions))

    def __repr__(self) -> str:
        return (f"TileReport(what={self.what!r}, instruction={self.instruction!r}, "
                f"instructions={self.instructions!r})")

    def __reduce__(self):
        return (TileReport, (self.what, self.instruction, self.instructions))

    @property
    def wavefronts(self) -> int:
        if self._totals is not None:
            return self._totals[0]
        return sum(i.report.wavefronts for i in self.instructions)

    @property
    def phases(self) -> int:
        if self._totals is not None:
            return self._totals[2]
        return sum(i.report.phases for i in self.instructions)

    @property
    def ideal(self) -> int:
        if self._totals is not None:
            return self._totals[1]
        return sum(i.report.ideal for i in self.instructions)

    @property
    def bank_conflicts(self) -> int:
        return self.wavefronts - self.ideal

    @property
    def warps(self) -> int:
        return len({i.warp for i in self.instructions})

    def per_warp(self) -> tuple[tuple[int, int, int, int], ...]:
        """``(warp, instructions, wavefronts, ideal)`` for every warp."""
        acc: dict[int, list[int]] = {}
        for i in self.instructions:
            a = acc.setdefault(i.warp, [0, 0, 0])
            a[0] += 1
            a[1] += i.report.wavefronts
            a[2] += i.report.ideal
        return tuple((w, *acc[w]) for w in sorted(acc))

    def summary(self) -> str:
        """One line, e.g. ``ld 16 B: 32 wavefronts, ideal 32, 0 bank conflicts (8 instructions, 4 warps)``."""
        return (f"{self.instruction}: {count(self.wavefronts, 'wavefront')}, ideal {self.ideal}, "
                f"{count(self.bank_conflicts, 'bank conflict')} "
                f"({count(len(self.instructions), 'instruction')}, {count(self.warps, 'warp')})")

    def __str__(self) -> str:
        rows = [("tile", "warp", "vector", "wavefronts", "ideal", "conflicts", "worst phase: lanes -> bank")]
        for i in self.instructions[:TABLE_ROWS]:
            r = i.report
            worst = max(r.phase_costs, key=lambda p: p.wavefronts, default=None)
            note = "" if worst is None or worst.wavefronts <= 1 else (
                f"{_lanes(worst.bank_lanes)} -> bank {worst.bank} ({worst.wavefronts} words)")
            rows.append((str(i.tile), str(i.warp), str(i.vector), str(r.wavefronts), str(r.ideal),
                         str(r.bank_conflicts), note))
        text = f"{self.what}\n{self.summary()}\n{format_table(rows)}"
        if len(self.instructions) > TABLE_ROWS:
            text += f"\n... {len(self.instructions) - TABLE_ROWS} more instructions"
        return text


def _lanes(lanes: tuple[int, ...]) -> str:
    return "lanes " + lane_ranges(lanes)


# -- building accesses ----------------------------------------------------------------------


def tv_table(tv_layout: Any) -> np.ndarray:
    """``tv(t, v)`` as an int array ``[threads, values]`` (a rank-1 layout has one value)."""
    if not is_layout(tv_layout):
        raise CutepyError(f"a thread-value layout must be a Layout, got {short_repr(tv_layout)}")
    size = tv_layout.size()
    if type(size) is not int:
        raise CutepyError(f"thread-value layout {tv_layout} must have a static integer size")
    if size > MAX_ELEMENTS:
        raise CutepyError(f"thread-value layout {tv_layout} has {size} elements; the limit is {MAX_ELEMENTS}")
    rank = tv_layout.rank()
    if rank > 2:
        raise CutepyError(f"thread-value layout {tv_layout} must have rank 1 or 2 (threads, values)")
    threads = size if rank < 2 else tv_layout[0].size()
    return np.asarray(tv_layout.offsets(), dtype=np.int64).reshape(size // threads, threads).T


def infer_matrices(rows: np.ndarray) -> int:
    """Matrices of an ldmatrix/stmatrix from one warp's row starts: the smallest ``N`` in
    1, 2, 4 with ``rows[t] == rows[t % 8N]`` for every lane (C++ atoms repeat the 8N rows)."""
    for n in (1, 2):
        if all(rows[t] == rows[t % (8 * n)] for t in range(len(rows))):
            return n
    return 4


def make_access(table: np.ndarray, op: str, vector: int, element_bytes: int, *,
                matrices: int | None = None, label: str | None = None,
                tiles: np.ndarray | None = None) -> Access:
    """The instructions of ``table`` (``[threads, values]`` tile indices) as an :class:`Access`.

    ``tiles`` (``[R, n]``) maps each of the ``n`` indices of one tile to the smem domain for
    every repetition ``R`` of the tile (default: one tile, the identity).
    """
    E, V = element_bytes, vector
    if matrices is not None and type(matrices) is not int:
        raise CutepyError(f"{op}: matrices must be 1, 2 or 4, got {short_repr(matrices)}")
    if type(V) is not int or V < 1:
        raise CutepyError(f"vector_elems must be a positive int, got {short_repr(V)}")
    threads, values = table.shape
    if values % V:
        raise CutepyError(f"{values} values per thread do not split into vectors of {short_repr(V)}")
    if op in ("ldmatrix", "stmatrix"):
        if V * E != 16:
            raise CutepyError(f"{op}: a lane's row is 16 bytes, not {V} x {E}-byte elements")
        if matrices is None:
            rows = table[: min(WARP, threads), 0].tolist() + [None] * max(0, WARP - threads)
            matrices = infer_matrices(rows)
    model, width, matrices = check_instruction(op, None if matrices else V * E, matrices)
    warps = -(-threads // WARP)
    padded = np.full((warps * WARP, values), -1, dtype=np.int64)
    padded[:threads] = table
    nk = values // V
    index = padded.reshape(warps, WARP, nk, V).transpose(0, 2, 1, 3).reshape(warps * nk, WARP, V)
    where = [(0, w, k) for w in range(warps) for k in range(nk)]
    if matrices:  # the one rule of an ldmatrix/stmatrix access: lanes 0..8N-1 give the rows
        missing = index[:, : 8 * matrices, 0] < 0
        if missing.any():
            i, t = map(int, np.argwhere(missing)[0])
            raise CutepyError(f"{op}.x{matrices}: lane {t} of warp {where[i][1]} must give a row address "
                              f"(the thread-value layout has {threads} threads)")
    if tiles is not None:
        R = tiles.shape[0]
        inside = index >= 0
        if inside.any() and int(index.max()) >= tiles.shape[1]:
            raise CutepyError(f"the thread-value layout reaches index {int(index.max())}, "
                              f"beyond the tile of {tiles.shape[1]} elements")
        index = np.where(inside[None], tiles[:, np.where(inside, index, 0)], -1)
        index = index.reshape(R * len(where), WARP, V)
        where = [(r, w, k) for r in range(R) for (_, w, k) in where]
    return Access(label or op, model, width, matrices, V, index, tuple(where))


def lane_addresses(access: Access, offsets: np.ndarray, element_bytes: int) -> tuple[np.ndarray, str | None]:
    """Byte addresses ``[K, 32]`` (``-1`` inactive) of ``access`` under ``offsets`` (the smem
    layout's offset of every domain index), and the first reason the vectors are invalid
    (not consecutive or not aligned), or None."""
    idx = access.index
    active = idx[:, :, 0] >= 0
    if int(idx.max(initial=-1)) >= len(offsets):
        return np.empty(0), (f"the access reaches index {int(idx.max())}, "
                             f"beyond the {len(offsets)}-element layout")
    off = np.where(idx >= 0, offsets[np.maximum(idx, 0)], -1)
    V = access.vector
    step = off - off[:, :, :1]
    bad = active & (step != np.arange(V)).any(axis=2)
    if bad.any():
        i, t = map(int, np.argwhere(bad)[0])
        return np.empty(0), (f"instruction {i}, lane {t}: the {V} elements of its vector sit at offsets "
                             f"{off[i, t].tolist()}, not consecutive")
    addr = np.where(active, off[:, :, 0] * element_bytes, -1)
    width = 16 if access.matrices else access.width
    misaligned = active & (addr % width != 0)
    if misaligned.any():
        i, t = map(int, np.argwhere(misaligned)[0])
        return np.empty(0), (f"instruction {i}, lane {t}: byte address {int(addr[i, t])} "
                             f"is not {width}-byte aligned")
    return addr, None


def check_element_bytes(element_bytes: Any) -> int:
    if type(element_bytes) is not int or element_bytes not in (1, 2, 4, 8, 16):
        raise CutepyError(f"element_bytes must be 1, 2, 4, 8 or 16, got {short_repr(element_bytes)}")
    return element_bytes


def smem_offsets(smem_layout: Any) -> np.ndarray:
    """Every offset of a shared-memory layout (Layout or swizzled ComposedLayout)."""
    if not is_layout(smem_layout):
        raise CutepyError(f"the shared-memory layout must be a Layout or ComposedLayout, got "
                          f"{short_repr(smem_layout)}")
    size = smem_layout.size()
    if type(size) is not int or size > MAX_ELEMENTS:
        raise CutepyError(f"shared-memory layout {smem_layout}: size must be an int up to {MAX_ELEMENTS}")
    off = np.asarray(smem_layout.offsets(), dtype=np.int64)
    if off.size and int(off.min()) < 0:
        raise CutepyError(f"shared-memory layout {smem_layout} has negative offsets")
    return off


def report_access(access: Access, smem_layout: Any, element_bytes: int, what: str) -> TileReport:
    """Cost every instruction of ``access`` against ``smem_layout`` in full detail."""
    addr, why = lane_addresses(access, smem_offsets(smem_layout), element_bytes)
    if why:
        raise CutepyError(f"{what}: {why}")
    kw = {"matrices": access.matrices} if access.matrices else {"bytes": access.width}
    op, width, matrices = check_instruction(access.op, kw.get("bytes"), kw.get("matrices"))

    def instructions() -> tuple[Instruction, ...]:
        out = []
        for (tile, warp, k), row in zip(access.where, addr.tolist()):
            lanes = [a if a >= 0 else None for a in row]
            if access.matrices:
                lanes = lanes[: 8 * access.matrices] + [None] * (WARP - 8 * access.matrices)
            out.append(Instruction(tile, warp, k, analyze(lanes, access.op, **kw)))
        return tuple(out)

    if not len(addr):
        return TileReport(what, access.instruction, instructions())
    # the totals at once (wavefronts_batch: analyze's rule, row by row); the lanes' addresses are
    # checked already (lane_addresses, copy_access), so no instruction's analysis can fail
    cost = phase_costs_batch(addr, op, width, matrices)
    both = wavefronts_batch(addr, op, width, matrices, cost).sum(axis=0)
    return TileReport._lazy(what, access.instruction, instructions,
                            (int(both[0]), int(both[1]), int((cost > 0).sum())))


# -- the public analyses ---------------------------------------------------------------------


def analyze_layout(smem_layout: Any, tv_layout: Any, *, element_bytes: int, vector_elems: int | None = None,
                   op: str = "ld", matrices: int | None = None, partial: bool = False) -> TileReport:
    """Cost every warp instruction of a thread-value layout reading or writing a tile.

    Lane ``t`` of warp ``w`` accesses ``smem_layout(tv_layout(32 w + t, k V))`` (times
    ``element_bytes``) with ``V = vector_elems`` elements (default 1; for ldmatrix /
    stmatrix the 16-byte row, ``16 // element_bytes``), one instruction per vector ``k``.
    ``matrices`` (ldmatrix/stmatrix) defaults to the number the lanes' rows imply.
    ``op="cp.async"`` is costed by the rule measured for its shared-memory write on an H200
    (four phases of 8 lanes at every width; every access counts).

    Pre:  ``smem_layout`` a Layout or swizzled ComposedLayout whose domain holds every
          value of ``tv_layout`` (rank 1 or 2: threads, values); a TV layout of more than one
          warp covers the whole domain unless ``partial`` (else its totals would be those of
          part of the tile: ``CutepyError`` saying how much it covers; one warp's lanes are a
          sample and may cover part); vectors consecutive and aligned in shared memory (else
          CutepyError naming the lane).
    Post: one instruction per (warp, vector); totals are sums over them.

    >>> from cutepy import Layout, Swizzle
    >>> smem = Swizzle(3, 4, 3).compose(Layout((32, 32), (32, 1)))
    >>> r = analyze_layout(smem, Layout(((4, 8), 1), ((32, 1), 0)), element_bytes=2)
    >>> r.wavefronts, r.bank_conflicts                       # an H100 measurement: 2, 1
    (2, 1)
    """
    E = check_element_bytes(element_bytes)
    if not is_layout(smem_layout):
        raise CutepyError(f"the shared-memory layout must be a Layout or ComposedLayout, got "
                          f"{short_repr(smem_layout)}")
    if not isinstance(op, str):
        raise CutepyError(f"op must be ld, st, ldmatrix, stmatrix or cp.async, got {short_repr(op)}")
    if op in ("ldmatrix", "stmatrix") and vector_elems is None:
        vector_elems = 16 // E
    if op not in ("ld", "st", "ldmatrix", "stmatrix", "cp.async"):
        raise CutepyError(f"op must be ld, st, ldmatrix, stmatrix or cp.async, got {short_repr(op)}")
    table = tv_table(tv_layout)
    if not partial and table.shape[0] > WARP:  # a CTA's TV layout: it should cover its tile
        n, reached = int(smem_layout.size()), int(np.unique(table).size)
        if reached < n:
            raise CutepyError(
                f"the TV layout {tv_layout} of {table.shape[0]} threads reaches {reached} of the {n} "
                f"elements of {smem_layout}: its totals would be those of part of the tile "
                "(pass partial=True to cost that part)")
    access = make_access(table, op, 1 if vector_elems is None else vector_elems, E,
                         matrices=matrices, label=op)
    return report_access(access, smem_layout, E, f"{access.instruction} of {smem_layout} by {tv_layout}")


def _size_of(x: Any) -> int:
    if type(x) is int:
        return x
    if isinstance(x, tuple):
        return int(np.prod([_size_of(y) for y in x]))
    if hasattr(x, "size"):
        return _size_of(x.size() if callable(x.size) else x.size)
    raise CutepyError(f"cannot take the size of the tiler mode {x!r}")


def _tile_indices(tiler: tuple[int, ...], smem_layout: Any) -> np.ndarray:
    """``[R, n]``: the smem-domain index of tile index ``i`` in repetition ``r`` (colex).

    The tile covers the first ``len(tiler)`` modes of the shared-memory layout, each a
    whole number of times; further modes (pipeline stages, say) are more repetitions. A
    layout of lower rank must have exactly the tile's size (its index is the tile's).
    """
    n = int(np.prod(tiler))
    size = smem_layout.size()
    rank = smem_layout.rank()
    shape = tuple(_size_of(smem_layout[i]) for i in range(rank)) if rank > 1 else (size,)
    if len(shape) < len(tiler):
        if size == n:
            return np.arange(n, dtype=np.int64)[None]
        raise CutepyError(f"the copy's tile {tiler} has more modes than the shared-memory "
                          f"layout's shape {shape}")
    full = tuple(tiler) + (1,) * (len(shape) - len(tiler))
    if any(s % t for s, t in zip(shape, full)):
        raise CutepyError(f"the copy's tile {tiler} does not tile the shared-memory layout's shape {shape}")
    reps = tuple(s // t for s, t in zip(shape, full))
    local = np.array(np.unravel_index(np.arange(n), full, order="F"))               # [rank, n]
    rep = np.array(np.unravel_index(np.arange(int(np.prod(reps))), reps, order="F"))  # [rank, R]
    coord = local[:, None, :] + (rep * np.array(full)[:, None])[:, :, None]         # [rank, R, n]
    return np.ravel_multi_index(tuple(coord), shape, order="F")


def copy_access(tiled_copy: Any, smem_layout: Any, side: str | None = None) -> tuple[Access, int, str]:
    """The shared-memory side of a TiledCopy as an :class:`Access`; also its element bytes and name.

    Contract (the TiledCopy of cutepy.kernels.tiled): ``.size`` threads, ``.tiler_mn``,
    ``.layout_src_tv_tiled`` / ``.layout_dst_tv_tiled`` ((thread, value) -> tile index),
    ``.copy_atom`` with ``.op``, ``.element_bits``, ``.layout_src_tv_bits`` /
    ``.layout_dst_tv_bits`` (bits per thread: the vector) and ``.name``.
    ldmatrix/ld read shared memory through src; stmatrix/st/cp.async write it through dst.
    """
    try:
        atom = tiled_copy.copy_atom
        op, bits, name = atom.op, atom.element_bits, atom.name
    except AttributeError as e:
        raise CutepyError(f"{tiled_copy!r} is not a TiledCopy "
                          "(needs .copy_atom with .op, .element_bits, .name)") from e
    if op not in COPY_SIDES:
        raise CutepyError(f"copy atom {name}: op {op!r} is not one of {', '.join(COPY_SIDES)}")
    if side is not None:  # the caller says which side of the copy shared memory is on
        if op in ("ld", "st"):
            op = "ld" if side == "src" else "st"
        elif COPY_SIDES[op] != side:
            where = "source" if COPY_SIDES[op] == "src" else "destination"
            raise CutepyError(f"copy atom {name} ({op}) has shared memory as its {where}, not its "
                              f"{'source' if side == 'src' else 'destination'}")
    if type(bits) is not int or bits % 8:
        raise CutepyError(f"copy atom {name}: element_bits must be a whole number of bytes, got {bits!r}")
    E = check_element_bytes(bits // 8)
    side = COPY_SIDES[op]
    tv = getattr(tiled_copy, f"layout_{side}_tv_tiled")
    atom_bits = getattr(atom, f"layout_{side}_tv_bits")
    bits_table = tv_table(atom_bits)
    vector_bits = bits_table.shape[1]
    if vector_bits % bits:
        raise CutepyError(f"copy atom {name}: {vector_bits} bits per thread "
                          "is not a whole number of elements")
    matrices = infer_matrices(bits_table[:WARP, 0].tolist()) if op in ("ldmatrix", "stmatrix") else None
    tiler = tuple(_size_of(x) for x in tiled_copy.tiler_mn)
    threads = tiled_copy.size() if callable(tiled_copy.size) else tiled_copy.size
    table = tv_table(tv)
    if table.shape[0] != threads:
        raise CutepyError(f"{name}: the {side} TV layout has {table.shape[0]} threads, the copy {threads}")
    access = make_access(table, op, vector_bits // bits, E, matrices=matrices, label=op,
                         tiles=_tile_indices(tiler, smem_layout))
    return access, E, f"{name} ({side} = shared memory)"


def analyze_copy(tiled_copy: Any, smem_layout: Any = None, *, src: Any = None, dst: Any = None) -> TileReport:
    """Cost every warp instruction a TiledCopy issues on its shared-memory side.

    Which side is shared memory: ``src=smem_layout`` (the copy reads it: ``ld``) or
    ``dst=smem_layout`` (it writes it: ``st``), so that a ``UniversalCopy`` into shared
    memory is costed as the store it is; a plain ``smem_layout`` takes the atom's own
    direction (ldmatrix and ld read, stmatrix, st and cp.async write).

    The tile ``tiled_copy.tiler_mn`` is laid over ``smem_layout``'s shape as many times as
    it fits (colexicographic order of repetitions); each repetition, warp and vector is one
    instruction. cp.async is costed by its own measured rule (four phases, every access counts).

    Pre:  ``tiled_copy`` is a TiledCopy whose tile fits ``smem_layout``'s shape (a Layout or a
          swizzled layout with non-negative offsets); else ``CutepyError``.
    Post: ``report.ideal`` is the wavefront count without any bank conflict;
          ``report.wavefronts >= report.ideal``.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.core.layout import Layout
    >>> from cutepy.kernels.tiled.copy import make_tiled_copy
    >>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
    ...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
    >>> r = analyze_copy(cp, Layout((16, 64), (64, 1)))
    >>> r.wavefronts, r.ideal, len(r.instructions)
    (16, 16, 4)
    >>> st = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((32, 1)), Layout((1, 1)))
    >>> analyze_copy(st, dst=Layout((32, 1))).summary(), analyze_copy(st, src=Layout((32, 1))).summary()[:5]
    ('st 4 B: 1 wavefront, ideal 1, 0 bank conflicts (1 instruction, 1 warp)', 'ld 4 ')
    """
    given = [(k, v) for k, v in (("smem_layout", smem_layout), ("src", src), ("dst", dst)) if v is not None]
    if len(given) != 1:
        raise CutepyError("analyze_copy takes the shared-memory layout once: as smem_layout, src= or dst=")
    what, smem_layout = given[0]

    def report() -> TileReport:
        access, E, name = copy_access(tiled_copy, smem_layout, None if what == "smem_layout" else what)
        return report_access(access, smem_layout, E, f"{name} on {smem_layout}")

    params = getattr(tiled_copy, "__dataclass_params__", None)
    if params is not None and params.frozen:  # a TiledCopy value: its report is kept on it
        return _memo.derived_of(tiled_copy, f"banks {what}", smem_layout, report)
    return report()
