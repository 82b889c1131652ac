"""One warp's shared-memory instruction, costed the way the GPU counts it (H100, sm_90).

The rule (measured with Nsight Compute on 908 H100 instructions; ``tests/data/smem_banks.md``):

    32 banks x 4 bytes: byte address a lies in word a // 4, bank (a // 4) % 32.
    An instruction runs as phases (sets of lanes). A phase costs
        max over banks b of |{distinct 4-byte words of bank b that its lanes touch}|
    wavefronts     = sum over phases of that cost
    bank conflicts = wavefronts - phases            (ncu's l1tex__data_bank_conflicts_...)
    Phases:
        ld/st of 1, 2, 4 bytes: one phase (lanes 0-31)
        ld/st of 8 bytes:       two phases (0-15, 16-31)
        ld/st of 16 bytes:      four phases (0-7, 8-15, 16-23, 24-31)
        loads only: if a[t] == a[t ^ 1] for every lane, or a[t] == a[t ^ 2] for every lane,
            an 8-byte load is one phase and a 16-byte load two phases (0-15, 16-31)
        ldmatrix/stmatrix .xN (.trans alike): N phases; phase j = the 16-byte rows that
            lanes 8j..8j+7 point at
        cp.async of 4, 8 or 16 bytes (its shared-memory write; measured on an H200,
            ``tests/data/smem_bank_cp_async.json``): four phases (0-7, ..., 24-31) at every
            width, and a phase costs the most *accesses* one bank takes: lanes writing one
            word do not share it. ncu counts its conflicts against ``32 * bytes / 128``
            wavefronts, so a 4- or 8-byte cp.async always shows 3 or 2 at least.

The ideal count is the number of phases (at most 32 distinct words per phase, so every
phase can cost 1). Lanes given as ``None`` are inactive; a phase with no active lane is
not issued (an assumption: the measurements are all full warps), and the pairing
exception needs all 32 lanes.

>>> r = analyze([128 * t for t in range(32)], op="ld", bytes=4)     # one bank, 32 words
>>> r.wavefronts, r.phases, r.bank_conflicts
(32, 1, 31)
>>> analyze([16 * t for t in range(32)], op="ld", bytes=16).summary()
'ld 16 B: 4 wavefronts, ideal 4, 0 bank conflicts (4 phases)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import CutepyError
from ..core.inttuple import short_repr

#: Banks of shared memory, and bytes per bank word.
BANKS = 32
BANK_BYTES = 4
#: Lanes of a warp.
WARP = 32
#: Access widths of ld/st in bytes, and matrices of ldmatrix/stmatrix.
WIDTHS = (1, 2, 4, 8, 16)
MATRICES = (1, 2, 4)
#: Ops: loads and stores of 1-16 bytes per lane, and the 8x8-matrix instructions.
OPS = ("ld", "st", "ldmatrix", "stmatrix", "cp.async")
#: the widths cp.async copies
CP_ASYNC_WIDTHS = (4, 8, 16)



def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: ``1 warp``, ``4 warps``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"

@dataclass(frozen=True)
class PhaseCost:
    """One phase: its lanes, its wavefronts, and the bank that costs most.

    ``bank`` is the lowest-numbered bank among the most expensive; ``bank_lanes`` are the
    lanes that touch it and ``bank_words`` the distinct words (byte address // 4) it serves.

    >>> pc = analyze([128 * t for t in range(32)], op="ld", bytes=4).phase_costs[0]
    >>> pc.wavefronts, pc.bank, pc.bank_words[:3]
    (32, 0, (0, 32, 64))
    """

    lanes: tuple[int, ...]
    wavefronts: int
    bank: int
    bank_lanes: tuple[int, ...]
    bank_words: tuple[int, ...]


@dataclass(frozen=True)
class BankReport:
    """The cost of one warp instruction: ``analyze``'s answer.

    ``op`` and ``width`` (bytes per lane; 16 for a matrix row), ``matrices`` (ldmatrix /
    stmatrix only), the lane ``addresses`` and one :class:`PhaseCost` per issued phase;
    ``paired`` is 1 or 2 when the load pairing exception (lanes t and t ^ paired share
    addresses) merged phases, else 0.

    >>> r = analyze([128 * t for t in range(32)], op="ld", bytes=4)   # 32 lanes, one bank
    >>> r.wavefronts, r.phases, len(r.phase_costs)
    (32, 1, 1)
    """

    op: str
    width: int
    matrices: int | None
    addresses: tuple[int | None, ...]
    phase_costs: tuple[PhaseCost, ...]
    paired: int = 0

    @property
    def wavefronts(self) -> int:
        """What ncu counts in ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}``."""
        return sum(p.wavefronts for p in self.phase_costs)

    @property
    def phases(self) -> int:
        """Number of issued phases."""
        return len(self.phase_costs)

    @property
    def ideal(self) -> int:
        """Ideal wavefronts: one per phase (ncu's wavefronts - bank conflicts); for cp.async, what
        ncu counts against: the bytes its active lanes write, in 128-byte wavefronts."""
        if self.op == "cp.async":
            active = sum(a is not None for a in self.addresses)
            return max(1, -(-active * self.width // (BANKS * BANK_BYTES))) if active else 0
        return self.phases

    @property
    def bank_conflicts(self) -> int:
        """``wavefronts - ideal``: ncu's ``l1tex__data_bank_conflicts_...`` for this instruction."""
        return self.wavefronts - self.ideal

    @property
    def instruction(self) -> str:
        """``ld 16 B``, ``st 2 B``, ``ldmatrix.x4``."""
        return instruction_name(self.op, self.width, self.matrices)

    def summary(self) -> str:
        """One line: ``ld 16 B: 8 wavefronts, ideal 4, 4 bank conflicts (4 phases)``."""
        return (f"{self.instruction}: {count(self.wavefronts, 'wavefront')}, ideal {self.ideal}, "
                f"{count(self.bank_conflicts, 'bank conflict')} ({count(self.phases, 'phase')})")

    def __str__(self) -> str:
        head = self.summary()
        if self.paired:
            head += f"; lanes t and t^{self.paired} share addresses: phases merged"
        rows = [("phase", "lanes", "wavefronts", "worst bank", "its lanes", "its words")]
        for i, p in enumerate(self.phase_costs):
            rows.append((str(i), lane_ranges(p.lanes), str(p.wavefronts), str(p.bank),
                         lane_ranges(p.bank_lanes), ",".join(map(str, p.bank_words))))
        return head + "\n" + format_table(rows)


def instruction_name(op: str, width: int, matrices: int | None) -> str:
    """``ld 16 B`` or ``ldmatrix.x4``."""
    return f"{op}.x{matrices}" if matrices else f"{op} {width} B"


def lane_ranges(lanes: Sequence[int]) -> str:
    """``0-7,9,12-13``: sorted lanes as ranges.

    >>> lane_ranges([0, 1, 2, 3, 9, 12, 13])
    '0-3,9,12-13'
    """
    out: list[str] = []
    xs = sorted(lanes)
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(str(xs[i]) if i == j else f"{xs[i]}-{xs[j]}")
        i = j + 1
    return ",".join(out)


def format_table(rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns two spaces apart."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return "\n".join("  ".join(s.ljust(w) for s, w in zip(r, widths)).rstrip() for r in rows)


def check_instruction(op: Any, bytes: Any, matrices: Any) -> tuple[str, int, int | None]:
    """Validate ``op`` with its ``bytes`` (ld/st) or ``matrices`` (ldmatrix/stmatrix).

    Returns ``(op, width in bytes per lane, matrices or None)``.
    """
    if not isinstance(op, str) or op not in OPS:
        raise CutepyError(f"op must be one of {', '.join(OPS)}, got {short_repr(op)}")
    if op in ("ld", "st", "cp.async"):
        if matrices is not None:
            raise CutepyError(f"{op} takes bytes=, not matrices=")
        widths = CP_ASYNC_WIDTHS if op == "cp.async" else WIDTHS
        if type(bytes) is not int or bytes not in widths:
            raise CutepyError(f"{op}: bytes per lane must be one of {widths}, got {short_repr(bytes)}")
        return op, bytes, None
    if bytes is not None and bytes != 16:
        raise CutepyError(f"{op}: every lane points at a 16-byte row; bytes={bytes!r} is not 16")
    if type(matrices) is not int or matrices not in MATRICES:
        raise CutepyError(f"{op}: matrices must be one of {MATRICES}, got {short_repr(matrices)}")
    return op, 16, matrices


def _lane_addresses(addresses: Any) -> tuple[int | None, ...]:
    try:
        lanes = list(addresses)
    except TypeError:
        raise CutepyError(f"addresses must be a sequence of {WARP} lane byte addresses, "
                          f"got {addresses!r}") from None
    if len(lanes) != WARP:
        raise CutepyError(f"one warp has {WARP} lanes; got {len(lanes)} addresses")
    out: list[int | None] = []
    for t, a in enumerate(lanes):
        if a is None:
            out.append(None)
            continue
        if isinstance(a, np.integer):
            a = int(a)
        if type(a) is not int or a < 0:
            raise CutepyError(f"lane {t}: address must be a non-negative int or None, got {a!r}")
        out.append(a)
    return tuple(out)


def phase_lanes(op: str, width: int, matrices: int | None, paired: int) -> tuple[tuple[int, ...], ...]:
    """The lanes of each phase (before dropping inactive lanes)."""
    if matrices:
        return tuple(tuple(range(8 * j, 8 * j + 8)) for j in range(matrices))
    n = 4 if op == "cp.async" else {8: 2, 16: 4}.get(width, 1)
    if paired:
        n //= 2
    per = WARP // n
    return tuple(tuple(range(per * j, per * j + per)) for j in range(n))


def pairing(op: str, width: int, addresses: Sequence[int | None]) -> int:
    """1 or 2 if the load pairing exception applies (a[t] == a[t ^ k] for all t), else 0."""
    if op != "ld" or width not in (8, 16) or any(a is None for a in addresses):
        return 0
    for k in (1, 2):
        if all(addresses[t] == addresses[t ^ k] for t in range(WARP)):
            return k
    return 0


def analyze(addresses: Any, op: str = "ld", *, bytes: int | None = None,
            matrices: int | None = None) -> BankReport:
    """Cost one warp instruction from its 32 lane byte addresses.

    Pre:  ``op`` in ld, st (with ``bytes`` in 1, 2, 4, 8, 16; every address a multiple of
          it), cp.async (``bytes`` 4, 8 or 16) or ldmatrix, stmatrix (with ``matrices`` in
          1, 2, 4; lanes 0..8N-1 give 16-byte-aligned row addresses, the other lanes are
          ignored); ``None`` marks an inactive lane (ld/st/cp.async).
    Post: ``wavefronts >= ideal``; ``bank_conflicts == wavefronts - ideal`` is what
          Nsight Compute reports for the instruction (H100 for ld/st/ldmatrix/stmatrix, H200
          for cp.async).

    >>> r = analyze([0] * 32, op="ld", bytes=8)            # every lane, one address
    >>> r.phases, r.wavefronts, r.paired
    (1, 1, 1)
    >>> r = analyze([128 * (t % 8) for t in range(32)], op="ldmatrix", matrices=1)
    >>> r.wavefronts, r.phase_costs[0].bank, r.phase_costs[0].bank_lanes
    (8, 0, (0, 1, 2, 3, 4, 5, 6, 7))
    >>> r = analyze([8 * t for t in range(32)], op="cp.async", bytes=8)  # as ncu counts it
    >>> r.phases, r.wavefronts, r.ideal, r.bank_conflicts
    (4, 4, 2, 2)
    """
    op, width, matrices = check_instruction(op, bytes, matrices)
    addrs = _lane_addresses(addresses)
    used = range(8 * matrices) if matrices else range(WARP)
    for t in used:
        a = addrs[t]
        if a is None:
            if matrices:
                raise CutepyError(f"{op}.x{matrices}: lane {t} must give a row address")
            continue
        if a % width:
            raise CutepyError(f"lane {t}: address {a} is not aligned to the {width}-byte access")
    paired = pairing(op, width, addrs)
    nwords = max(1, width // BANK_BYTES)
    costs: list[PhaseCost] = []
    for lanes in phase_lanes(op, width, matrices, paired):
        active = tuple(t for t in lanes if addrs[t] is not None)
        if not active:
            continue
        words: dict[int, set[int]] = {}      # bank -> distinct words
        touching: dict[int, set[int]] = {}   # bank -> lanes
        accesses: dict[int, int] = {}        # bank -> (lane, word) accesses
        for t in active:
            first = addrs[t] // BANK_BYTES
            for w in range(first, first + nwords):
                words.setdefault(w % BANKS, set()).add(w)
                touching.setdefault(w % BANKS, set()).add(t)
                accesses[w % BANKS] = accesses.get(w % BANKS, 0) + 1
        if op == "cp.async":  # every access counts: lanes writing one word do not share it
            cost = max(accesses.values())
            bank = min(b for b, n in accesses.items() if n == cost)
            costs.append(PhaseCost(active, cost, bank, tuple(sorted(touching[bank])),
                                   tuple(sorted(words[bank]))))
            continue
        cost = max(len(ws) for ws in words.values())
        bank = min(b for b, ws in words.items() if len(ws) == cost)
        costs.append(PhaseCost(active, cost, bank, tuple(sorted(touching[bank])), tuple(sorted(words[bank]))))
    return BankReport(op, width, matrices, addrs, tuple(costs), paired)


def wavefronts_batch(addresses: np.ndarray, op: str, width: int, matrices: int | None,
                     cost: np.ndarray | None = None) -> np.ndarray:
    """Wavefronts and phases of many instructions at once (numpy), same rule as ``analyze``.

    Pre:  ``addresses`` is an int array ``[K, 32]`` of byte addresses, ``-1`` for inactive
          lanes, already checked for alignment; ``op``/``width``/``matrices`` as returned
          by ``check_instruction``; ``cost``, when given, is ``phase_costs_batch`` of the same.
    Post: an int64 array ``[K, 2]``: wavefronts and ideal wavefronts of each instruction,
          equal to ``analyze(...).wavefronts`` / ``.ideal`` row by row.

    >>> a = np.array([[128 * t for t in range(32)], [4 * t for t in range(32)]])
    >>> wavefronts_batch(a, "ld", 4, None).tolist()
    [[32, 1], [1, 1]]
    """
    if cost is None:
        cost = phase_costs_batch(addresses, op, width, matrices)
    if op == "cp.async":
        active = (np.asarray(addresses) >= 0).sum(axis=1)
        ideal = np.where(active > 0, np.maximum(1, -(-active * width // (BANKS * BANK_BYTES))), 0)
        return np.stack([cost.sum(axis=1), ideal], axis=1)
    return np.stack([cost.sum(axis=1), (cost > 0).sum(axis=1)], axis=1)


def phase_costs_batch(addresses: np.ndarray, op: str, width: int, matrices: int | None) -> np.ndarray:
    """The cost of every phase of many instructions: an int64 array ``[K, 4]`` (phase ``j`` of
    instruction ``k``; 0 for a phase not issued). Pre-conditions as ``wavefronts_batch``.

    >>> phase_costs_batch(np.array([[0] * 16 + [128 * t for t in range(16)]]), "st", 8, None).tolist()
    [[1, 16, 0, 0]]
    """
    a = np.asarray(addresses, dtype=np.int64)
    K = a.shape[0]
    lane = np.arange(WARP)
    if matrices:
        phase = np.broadcast_to(lane // 8, a.shape).copy()
        active = (a >= 0) & (lane < 8 * matrices)
    else:
        n = 4 if op == "cp.async" else {8: 2, 16: 4}.get(width, 1)
        phase = np.broadcast_to(lane // (WARP // n), a.shape).copy()
        active = a >= 0
        if op == "ld" and n > 1:
            full = active.all(axis=1)
            for k in (1, 2):
                merged = full & (a == a[:, lane ^ k]).all(axis=1)
                phase[merged] = lane // (WARP // (n // 2))
    nwords = max(1, width // BANK_BYTES)
    words = (a // BANK_BYTES)[:, :, None] + np.arange(nwords)              # [K, 32, nw]
    group = (np.arange(K)[:, None] * 4 + phase)[:, :, None]               # global phase id
    mask = np.broadcast_to(active[:, :, None], words.shape)
    g = np.broadcast_to(group, words.shape)[mask]
    w = words[mask]
    if g.size == 0:
        return np.zeros((K, 4), dtype=np.int64)
    span = int(w.max()) + 1
    if op == "cp.async":  # every access counts (lanes writing one word do not share it)
        ug, uw = g, w
    elif span * (4 * K) < (1 << 62):
        key = np.sort(g * span + w)
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]      # distinct (phase, word)
        ug, uw = key // span, key % span
    else:  # pragma: no cover - addresses beyond 2**40
        pairs = np.unique(np.stack([g, w], axis=1), axis=0)
        ug, uw = pairs[:, 0], pairs[:, 1]
    per_bank = np.bincount(ug * BANKS + uw % BANKS, minlength=4 * K * BANKS).reshape(K, 4, BANKS)
    return per_bank.max(axis=2)                                            # [K, 4]
