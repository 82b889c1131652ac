"""A bank model you can set: banks, bank width, lanes per instruction and per phase.

The measured rule of :mod:`.warp` (NVIDIA, sm_90) stays the default and is what
:data:`NVIDIA_SMEM` means: ``analyze`` itself, its phases, pairing exception and matrix
instructions. Any other memory is a :class:`BankModel`:

    word   = byte address // bank_bytes,  bank = word % banks
    an access of w bytes at a touches the words a // bank_bytes ... (a + w - 1) // bank_bytes
    the lanes of one instruction run as phases (sets of lanes):
        explicit groups for (op, w) where the model lists them (AMD's ds_read_b128), else
        consecutive groups of ``lanes_per_phase`` lanes, else of
        min(lanes, banks * bank_bytes // max(w, bank_bytes)) lanes (one phase moves one row of banks)
    a phase costs max over banks of |distinct words of that bank its active lanes touch|
    (lanes reading one word share it: a broadcast costs nothing)
    wavefronts = sum of the phase costs;  ideal = phases;  conflicts = wavefronts - ideal

:data:`AMD_CDNA3_LDS` is AMD's LDS of CDNA3 (MI300, gfx942): 32 banks of 4 bytes, a wave of
64 lanes; ``ds_read/ds_write_b32`` in two phases of 32 lanes (AMD's OpenCL optimization guide:
"threads 0-31 and 32-63 are checked for conflicts"), ``b64`` in four phases of 16 (its
quarter-wavefronts, the same guide's advice for 8-byte accesses: 128 bytes a clock),
``ds_write_b128`` in eight phases of 8 consecutive lanes and ``ds_read_b128`` in eight phases
of interleaved lanes (0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27, the
same in the upper half), both from AMD's Composable Kernel documentation, "Understanding AMD
GPU LDS and Bank Conflicts" (rocm.docs.amd.com). No AMD GPU measured them here: they are
AMD's documented rule, not a measurement.

>>> AMD_CDNA3_LDS.analyze([16 * t for t in range(64)], op="ld", bytes=16).summary()
'ld 16 B: 8 wavefronts, ideal 8, 0 bank conflicts (8 phases)'
>>> BankModel("one phase", lanes_per_phase=32).analyze([128 * t for t in range(32)], bytes=4).wavefronts
32
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CutepyError
from .warp import BankReport, PhaseCost, analyze

#: widths (bytes per lane) a modelled load or store may have
MODEL_WIDTHS = (1, 2, 4, 8, 16)


def _pos_int(v: Any, what: str) -> int:
    if type(v) is not int or v < 1:
        raise CutepyError(f"BankModel: {what} must be a positive int, got {v!r}")
    return v


@dataclass(frozen=True)
class BankModel:
    """Banks, bank width and lanes of a shared memory; how one instruction's lanes split into phases.

    ``measured=True`` is NVIDIA's measured rule (:func:`cutepy.banks.analyze`); the other fields
    then only describe it. ``read_phases`` / ``write_phases`` map a width in bytes to explicit lane
    groups (each a tuple of lanes) for loads / stores of that width.

    Pre:  positive ints; ``lanes_per_phase`` (if given) divides ``lanes``; explicit groups
          partition ``range(lanes)``. Else ``CutepyError`` naming the field.
    Post: ``phases(op, w)`` partitions the lanes.

    >>> BankModel("LDS", banks=64, lanes=64).phases("ld", 4)[0][-1]
    63
    """

    name: str
    banks: int = 32
    bank_bytes: int = 4
    lanes: int = 32
    lanes_per_phase: int | None = None
    read_phases: dict = field(default_factory=dict)
    write_phases: dict = field(default_factory=dict)
    measured: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise CutepyError(f"BankModel: name must be a str, got {self.name!r}")
        _pos_int(self.banks, "banks")
        _pos_int(self.bank_bytes, "bank_bytes")
        _pos_int(self.lanes, "lanes")
        if self.lanes_per_phase is not None:
            _pos_int(self.lanes_per_phase, "lanes_per_phase")
            if self.lanes % self.lanes_per_phase:
                raise CutepyError(f"BankModel: lanes_per_phase={self.lanes_per_phase} does not divide "
                                  f"lanes={self.lanes}")
        for what in ("read_phases", "write_phases"):
            groups = getattr(self, what)
            if not isinstance(groups, dict):
                raise CutepyError(f"BankModel: {what} must be a dict {{width: lane groups}}, got {groups!r}")
            for w, gs in groups.items():
                flat = sorted(t for g in gs for t in g)
                if flat != list(range(self.lanes)):
                    raise CutepyError(f"BankModel: {what}[{w!r}] does not partition lanes "
                                      f"0..{self.lanes - 1}")
        if self.measured and (self.banks, self.bank_bytes, self.lanes) != (32, 4, 32):
            raise CutepyError("BankModel: the measured rule is NVIDIA's 32 banks x 4 bytes, 32 lanes")

    def phases(self, op: str, width: int) -> tuple[tuple[int, ...], ...]:
        """The lane groups of one ``op`` (``ld``/``st``) instruction of ``width`` bytes per lane."""
        groups = (self.read_phases if op == "ld" else self.write_phases).get(width)
        if groups is not None:
            return tuple(tuple(g) for g in groups)
        row = self.banks * self.bank_bytes // max(width, self.bank_bytes)
        per = self.lanes_per_phase or max(1, min(self.lanes, row))
        return tuple(tuple(range(j, j + per)) for j in range(0, self.lanes, per))

    def analyze(self, addresses: Any, op: str = "ld", *, bytes: int = 4) -> BankReport:
        """Cost one instruction from its lanes' byte addresses (``None``: an inactive lane).

        Pre:  ``op`` is ``ld`` or ``st``; ``bytes`` in 1, 2, 4, 8, 16; ``len(addresses) == lanes``;
              every address a non-negative int aligned to ``bytes``.
        Post: ``wavefronts >= ideal == phases`` (phases with an active lane).

        >>> AMD_CDNA3_LDS.analyze([4 * t for t in range(64)], op="st", bytes=4).wavefronts
        2
        """
        if self.measured:
            return analyze(addresses, op, bytes=bytes)
        if op not in ("ld", "st"):
            raise CutepyError(f"op must be 'ld' or 'st' for a bank model, got {op!r}")
        if type(bytes) is not int or bytes not in MODEL_WIDTHS:
            raise CutepyError(f"{op}: bytes per lane must be one of {MODEL_WIDTHS}, got {bytes!r}")
        addrs = _lanes(addresses, self.lanes)
        for t, a in enumerate(addrs):
            if a is not None and a % bytes:
                raise CutepyError(f"lane {t}: address {a} is not aligned to the {bytes}-byte access")
        costs = []
        for group in self.phases(op, bytes):
            active = tuple(t for t in group if addrs[t] is not None)
            if not active:
                continue
            costs.append(self._phase(active, addrs, bytes))
        return BankReport(op, bytes, None, addrs, tuple(costs), 0)

    def _phase(self, active: Sequence[int], addrs: Sequence[Any], width: int) -> PhaseCost:
        words: dict[int, set[int]] = {}
        touching: dict[int, set[int]] = {}
        for t in active:
            a = addrs[t]
            for w in range(a // self.bank_bytes, (a + width - 1) // self.bank_bytes + 1):
                words.setdefault(w % self.banks, set()).add(w)
                touching.setdefault(w % self.banks, set()).add(t)
        cost = max(len(ws) for ws in words.values())
        bank = min(b for b, ws in words.items() if len(ws) == cost)
        return PhaseCost(tuple(active), cost, bank, tuple(sorted(touching[bank])), tuple(sorted(words[bank])))


def _lanes(addresses: Any, lanes: int) -> tuple[Any, ...]:
    try:
        out = list(addresses)
    except TypeError:
        raise CutepyError(f"addresses must be a sequence of {lanes} lane byte addresses, "
                          f"got {addresses!r}") from None
    if len(out) != lanes:
        raise CutepyError(f"the model's instruction has {lanes} lanes; got {len(out)} addresses")
    for t, a in enumerate(out):
        if a is None:
            continue
        if type(a) is not int:
            try:
                a = operator.index(a)
            except TypeError:
                raise CutepyError(f"lane {t}: address must be a non-negative int or None, "
                                  f"got {a!r}") from None
            out[t] = a
        if a < 0:
            raise CutepyError(f"lane {t}: address must be a non-negative int or None, got {a!r}")
    return tuple(out)


def _amd_read_b128() -> tuple[tuple[int, ...], ...]:
    pairs = ((0, 20), (4, 16), (8, 28), (12, 24))
    groups = []
    for half in (0, 32):
        for a, b in pairs:
            groups.append(tuple(range(half + a, half + a + 4)) + tuple(range(half + b, half + b + 4)))
    return tuple(groups)


#: NVIDIA's shared memory, the rule measured on H100 (the default everywhere): ``analyze`` itself.
NVIDIA_SMEM = BankModel("NVIDIA shared memory (measured on sm_90)", measured=True)
#: AMD CDNA3 (MI300, gfx942) LDS: 32 banks x 4 bytes, 64-lane waves; AMD's documented phases.
AMD_CDNA3_LDS = BankModel("AMD CDNA3 LDS (AMD's documented rule)", banks=32, bank_bytes=4, lanes=64,
                          read_phases={16: _amd_read_b128()})

__all__ = ["AMD_CDNA3_LDS", "NVIDIA_SMEM", "BankModel"]
