"""The swizzle with the fewest bits that makes every access of a tile conflict-free, with proof.

Family searched: ``Swizzle<B,M,S>`` composed onto the (unswizzled) shared-memory layout,
``Sw o 0 o layout``, with ``B >= 1``, ``M >= 0``, ``|S| >= B`` (both signs) and every bit
it reads or writes below ``n = bit_length(cosize(layout) - 1)``; plus the identity (``B = 0``).

Why that finite family is exhaustive: on offsets below ``2**n`` a source bit at or above
``n`` is always 0, and a target bit at or above ``n`` only moves an address by a multiple of
``2**n``; when ``2**n`` elements span at least 128 bytes that never changes a bank, so it can
only split one word into two of the same bank (never fewer wavefronts). Either way the
swizzle is no better than the one without those bits, which has fewer bits and is in the
family. A tile of less than 128 bytes has every word in its own bank: the identity is ideal.
For the same reason a swizzle whose target bits (the bits it XORs into) all lie outside the
bank bits of a byte address (bits 2-6, i.e. element bits ``[2 - log2 E, 7 - log2 E)``) is
never better than no swizzle; the search skips those after trying the identity.

Order of preference among the swizzles that reach the ideal: fewest bits ``B``, then
``S > 0`` before ``S < 0``, then smallest ``|S|``, then smallest ``M``. A candidate is valid
only if every vector stays consecutive and aligned. With none reaching the ideal, the
answer is the valid swizzle with the fewest wavefronts (then the same order), and its
per-access table shows which accesses still conflict: the proof that the family cannot.

>>> from cutepy.core.layout import Layout
>>> smem = Layout((8, 64), (64, 1))                          # fp16, 128-byte rows
>>> tv = Layout(((8, 4), 8), ((1, 64), 8))        # lane t: row t % 8, 16 B at column 8 (t // 8)
>>> r = find_swizzle(smem, [(tv, "ld", 8)], element_bytes=2)
>>> r.swizzle, r.found, r.baseline[0].wavefronts, r.table[0].wavefronts
(Sw<3,3,3>, True, 32, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.composed import ComposedLayout, composed_parts
from ..core.errors import CutepyError
from ..core.inttuple import short_repr
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from .tile import (
    Access,
    check_element_bytes,
    copy_access,
    lane_addresses,
    make_access,
    smem_offsets,
    tv_table,
)
from .warp import count, format_table, wavefronts_batch

#: Upper limit on the number of candidate swizzles (``n`` up to 30 bits stays below it).
MAX_CANDIDATES = 20000


@dataclass(frozen=True)
class AccessCost:
    """One access under one swizzle: instructions, wavefronts and the ideal count.

    >>> from cutepy.core.layout import Layout
    >>> tv = Layout(((8, 4), 8), ((1, 64), 8))
    >>> r = find_swizzle(Layout((8, 64), (64, 1)), [(tv, "ld", 8)], element_bytes=2)
    >>> r.table[0]
    AccessCost(name='ld 16 B by ((8,4),8):((1,64),8)', instructions=1, wavefronts=4, ideal=4)
    """

    name: str
    instructions: int
    wavefronts: int
    ideal: int

    @property
    def bank_conflicts(self) -> int:
        return self.wavefronts - self.ideal


@dataclass(frozen=True)
class SwizzleSearch:
    """``find_swizzle``'s answer.

    ``found``: some swizzle of the family brings every access to its ideal; ``swizzle`` is
    then the preferred one (``Sw<0,..>``-free: ``None`` means no swizzle is needed) and
    ``layout`` the swizzled layout. Otherwise ``swizzle`` is the best candidate and
    ``table`` shows what still conflicts. ``baseline`` is the table without a swizzle,
    ``alternatives`` the other ideal swizzles with as few bits, ``candidates`` the number of
    swizzles costed (the identity and every family member that can move a bank, up to the
    answer's bit count), ``bits`` the ``n`` of the family bound.

    >>> from cutepy.core.layout import Layout
    >>> tv = Layout(((8, 4), 8), ((1, 64), 8))
    >>> r = find_swizzle(Layout((8, 64), (64, 1)), [(tv, "ld", 8)], element_bytes=2)
    >>> r.found, r.swizzle, r.layout
    (True, Sw<3,3,3>, Sw<3,3,3> o 0 o (8,64):(64,1))
    """

    found: bool
    swizzle: Swizzle | None
    layout: Layout | ComposedLayout
    table: tuple[AccessCost, ...]
    baseline: tuple[AccessCost, ...]
    alternatives: tuple[Swizzle, ...]
    candidates: int
    bits: int

    @property
    def wavefronts(self) -> int:
        return sum(a.wavefronts for a in self.table)

    @property
    def ideal(self) -> int:
        return sum(a.ideal for a in self.table)

    def summary(self) -> str:
        """One line: the verdict."""
        sw = "no swizzle" if self.swizzle is None else str(self.swizzle)
        if self.found:
            return (f"{sw}: every access at its ideal ({count(self.ideal, 'wavefront')}; "
                    f"{self.candidates} swizzles of {self.bits} address bits searched)")
        return (f"no swizzle of the family reaches the ideal; best {sw}: {self.wavefronts} wavefronts, "
                f"ideal {self.ideal} ({self.candidates} swizzles of {self.bits} address bits searched)")

    def __str__(self) -> str:
        rows = [("access", "instructions", "wavefronts before", "wavefronts after", "ideal",
                 "conflicts after")]
        for b, a in zip(self.baseline, self.table):
            rows.append((a.name, str(a.instructions), str(b.wavefronts), str(a.wavefronts), str(a.ideal),
                         str(a.bank_conflicts)))
        return f"{self.summary()}\nlayout: {self.layout}\n{format_table(rows)}"


def swizzle_family(n: int) -> list[Swizzle]:
    """Every ``Swizzle<B,M,S>`` with ``B >= 1``, ``|S| >= B`` whose bits lie below ``n``, in
    order of preference (fewest bits, positive shift, smallest ``|S|``, smallest ``M``).

    Pre:  ``n`` is a non-negative integer (the address bits the swizzles may touch).
    Post: every ``Sw<B,M,S>`` with ``B >= 1``, ``|S| >= B`` and ``M + B + |S| <= n`` (the
          bits it reads and writes lie below ``n``), each once, in that order.

    >>> [str(s) for s in swizzle_family(3)]
    ['Sw<1,0,1>', 'Sw<1,1,1>', 'Sw<1,0,-1>', 'Sw<1,1,-1>', 'Sw<1,0,2>', 'Sw<1,0,-2>']
    """
    if type(n) is not int and not isinstance(n, np.integer):
        raise CutepyError(f"swizzle_family: n must be a non-negative integer (address bits), "
                          f"not {short_repr(n)}")
    n = int(n)
    if not 0 <= n <= 64:
        raise CutepyError(f"swizzle_family: n = {short_repr(n)} address bits; expected 0 to 64")
    out = []
    for B in range(1, n // 2 + 1):
        for S in range(B, n - B + 1):
            for sign in (1, -1):
                for M in range(0, n - B - S + 1):
                    out.append(Swizzle(B, M, sign * S))
    return out


@dataclass(frozen=True)
class Viewed:
    """An access of the tile through another view of it: ``view`` maps the access's tile
    index (its coordinates, colexicographic) to the index of the shared-memory layout's
    domain. A transpose writes rows through the identity and reads columns through
    ``Layout((N, M), (M, 1))``; both go to :func:`find_swizzle` together.

    >>> Viewed((Layout((32, 1), (1, 0)), "ld", 1), Layout((32, 32), (32, 1))).view
    (32,32):(32,1)
    """

    access: Any
    view: Layout


def _view_indices(view: Any, smem_layout: Any, k: int) -> np.ndarray:
    """The smem-domain index of each of the view's indices (checked to lie in the domain)."""
    if not isinstance(view, Layout):
        raise CutepyError(f"access {k}: a view is a Layout (tile index -> smem index), not {view!r}")
    idx = np.asarray(view.offsets(), dtype=np.int64)
    n = int(smem_layout.size())
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise CutepyError(f"access {k}: the view {view} reaches index {int(idx.max())}, outside the "
                          f"{n} elements of {smem_layout}")
    return idx


def _planned(item: Any, element_bytes: int, smem_layout: Any, k: int) -> tuple[Access, str, Any]:
    """``_access`` of an entry, with the smem indices of its view (``None``: the layout's own)."""
    if isinstance(item, Viewed):
        access, name = _access(item.access, element_bytes, smem_layout, k)
        return access, f"{name} through {item.view}", _view_indices(item.view, smem_layout, k)
    return (*_access(item, element_bytes, smem_layout, k), None)


def _access(item: Any, element_bytes: int, smem_layout: Any, k: int) -> tuple[Access, str]:
    """One entry of ``accesses`` as an Access and a name for the table."""
    obj, op, vector, matrices = item, None, None, None
    if isinstance(item, tuple):
        if not 2 <= len(item) <= 4:
            raise CutepyError(f"access {k}: expected (tv_layout or tiled copy, op, vector[, matrices]), "
                              f"got {item!r}")
        obj, op, vector, matrices = (*item, None, None)[:4]
    if hasattr(obj, "copy_atom"):
        plain = getattr(obj.copy_atom, "op", None) in ("ld", "st")  # a UniversalCopy stores or loads as told
        access, E, name = copy_access(obj, smem_layout, {"st": "dst", "ld": "src"}.get(op) if plain else None)
        if E != element_bytes:
            raise CutepyError(f"access {k}: {name} moves {E}-byte elements, "
                              f"the tile holds {element_bytes}-byte ones")
        if op is not None and op != access.label:
            raise CutepyError(f"access {k}: {name} is a {access.label}, not {op!r}")
        if vector is not None and vector != access.vector:
            raise CutepyError(f"access {k}: {name} moves vectors of {access.vector} elements, not {vector!r}")
        return access, f"{access.instruction} {name}"
    if op not in ("ld", "st", "ldmatrix", "stmatrix", "cp.async"):
        raise CutepyError(f"access {k}: op must be ld, st, ldmatrix, stmatrix or cp.async, got {op!r}")
    if vector is None:
        vector = 16 // element_bytes if op in ("ldmatrix", "stmatrix") else 1
    access = make_access(tv_table(obj), op, vector, element_bytes, matrices=matrices, label=op)
    return access, f"{access.instruction} by {obj}"


def _costs(accesses: Sequence[tuple[Access, str, Any]], offsets: np.ndarray,
           E: int) -> tuple[AccessCost, ...] | None:
    out = []
    for access, name, view in accesses:
        addr, why = lane_addresses(access, offsets if view is None else offsets[view], E)
        if why:
            return None
        wp = wavefronts_batch(addr, access.op, access.width, access.matrices)
        out.append(AccessCost(name, len(access.where), int(wp[:, 0].sum()), int(wp[:, 1].sum())))
    return tuple(out)


def find_swizzle(smem_layout: Layout, accesses: Sequence[Any], element_bytes: int) -> SwizzleSearch:
    """The ``Swizzle<B,M,S>`` with the fewest bits that brings every access to its ideal.

    ``accesses``: reads and writes of the tile, each a TiledCopy (its shared-memory side),
    or a tuple ``(tv_layout, op, vector_elems[, matrices])`` (op: ld, st, ldmatrix,
    stmatrix, cp.async), or ``(tiled_copy, op, vector)`` with ``None`` for what the copy
    already says; any of them wrapped in :class:`Viewed` addresses the tile through another
    view (a transpose's column reads next to its row writes).

    Pre:  ``smem_layout`` an unswizzled Layout with non-negative offsets; every access
          valid (consecutive, aligned vectors) on it.
    Post: ``found`` iff some swizzle of the family (see the module) gives every access
          ``wavefronts == ideal``; then no swizzle with fewer bits does. Otherwise
          ``table`` is the best one's costs and ``alternatives`` is empty.

    >>> from cutepy.core.layout import Layout
    >>> smem = Layout((8, 64), (64, 1))                        # fp16, 128-byte rows
    >>> find_swizzle(smem, [(Layout(((8, 4), 8), ((1, 64), 8)), "ld", 8)], element_bytes=2).swizzle
    Sw<3,3,3>

    A 32 x 32 fp32 transpose: warps write rows, then read columns through the transposed view.

    >>> rows = (Layout((32, 32), (32, 1)), "st", 1)     # warp j, lane t writes (j, t): a row
    >>> tile = Layout((32, 32), (32, 1))
    >>> r = find_swizzle(tile, [rows, Viewed(rows, Layout((32, 32), (32, 1)))], element_bytes=4)
    >>> r.found, r.swizzle, [a.wavefronts for a in r.baseline]
    (True, Sw<5,0,5>, [32, 1024])
    """
    if composed_parts(smem_layout) is not None:
        raise CutepyError(f"find_swizzle composes a swizzle onto a plain layout; "
                          f"pass the inner layout of {smem_layout}")
    E = check_element_bytes(element_bytes)
    base = smem_offsets(smem_layout)
    if not isinstance(accesses, (list, tuple)):
        raise CutepyError(f"find_swizzle: accesses must be a list of accesses (tiled copies or "
                          f"(tv_layout, op, vector) tuples), not {short_repr(accesses)}")
    if not accesses:
        raise CutepyError("find_swizzle needs at least one access of the tile")
    plans = [_planned(a, E, smem_layout, k) for k, a in enumerate(accesses)]
    for access, name, view in plans:
        _, why = lane_addresses(access, base if view is None else base[view], E)
        if why:
            raise CutepyError(f"{name} on {smem_layout}: {why}")
    n = int(base.max()).bit_length() if base.size else 0
    family = swizzle_family(n)
    if len(family) > MAX_CANDIDATES:
        raise CutepyError(f"{len(family)} candidate swizzles for {n} address bits; "
                          f"the limit is {MAX_CANDIDATES}")
    baseline = _costs(plans, base, E)
    assert baseline is not None
    best: tuple[int, int, Swizzle | None, tuple[AccessCost, ...]] = (
        sum(a.wavefronts for a in baseline), 0, None, baseline)
    ideal = sum(a.ideal for a in baseline)
    winners: list[tuple[Swizzle | None, tuple[AccessCost, ...]]] = []
    if best[0] == ideal:
        winners.append((None, baseline))
    tried = 1
    # bits below ``lo`` of the element index pick a byte within a 4-byte word; a swizzle
    # that changes only those bits changes no wavefront (bits above the bank bits still
    # can: they move a lane to another word of the same bank, which may merge two words)
    lo = max(0, 2 - (E.bit_length() - 1))
    for rank, sw in enumerate(family, start=1):
        if winners and sw.bits > (winners[0][0].bits if winners[0][0] else 0):
            break
        target = sw.base - min(0, sw.shift)
        if target + sw.bits <= lo:  # it moves bytes within a word only: no word or bank changes
            continue
        tried += 1
        costs = _costs(plans, sw(base), E)
        if costs is None:
            continue
        total = sum(a.wavefronts for a in costs)
        if total == ideal:
            winners.append((sw, costs))
        elif total < best[0]:
            best = (total, rank, sw, costs)
    if winners:
        sw, table = winners[0]
        layout = smem_layout if sw is None else ComposedLayout(sw, 0, smem_layout)
        others = tuple(w for w, _ in winners[1:] if w is not None)
        return SwizzleSearch(True, sw, layout, table, baseline, others, tried, n)
    _, _, sw, table = best
    layout = smem_layout if sw is None else ComposedLayout(sw, 0, smem_layout)
    return SwizzleSearch(False, sw, layout, table, baseline, (), tried, n)
