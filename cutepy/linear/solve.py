"""Swizzles solved over F2: which CuTe swizzle turns layout A into layout B, or why none does.

A CuTe ``Swizzle<B,M,S>`` is the F2-linear map ``x -> x ^ N(x)`` where ``N`` moves the ``B``
bits at ``[M + S, M + S + B)`` down by ``S`` (up by ``-S`` when ``S < 0``). For linear ``A``
(columns ``a_k``, the offsets of its index bits) and affine ``B`` (constant ``b_0``,
columns ``b_k``), ``Sw o off o A == B`` as functions exactly when

1. ``Sw(a_k) == b_k`` for every ``k``: a linear system. It has a linear solution ``X`` only
   if every XOR relation among the ``a_k`` holds among the ``b_k`` (else: the proof);
2. ``X - I`` is such a shift: from ``d_k = a_k ^ b_k``, each candidate shift ``S`` (a set
   bit of ``a_k`` minus the lowest bit of ``d_k``) fixes the bits the swizzle must read,
   the smallest contiguous range holding them is the swizzle (else: the proof);
3. ``off = Sw(b_0)`` and ``off`` shares no bit with ``A`` (so ``off + A(i) == off ^ A(i)``).

:func:`solve_conflict_free` asks the other linear question: which swizzle makes the lanes
of each shared-memory phase hit distinct banks (a rank condition on the lane bits), with
an exact bank model (e.g. ``cutepy.banks``) as the judge of each candidate it proposes.

>>> from cutepy import Layout, Swizzle, composition
>>> A = Layout((8, 64), (64, 1))
>>> solve_swizzle(A, composition(Swizzle(3, 3, 3), A)).swizzle
Sw<3,3,3>
>>> print(solve_swizzle(Layout(4, 1), Layout(4, 2)).proof)  # doctest: +NORMALIZE_WHITESPACE
no swizzle: Sw(A(1)) = B(1) asks the swizzle to turn 1 into 2; a swizzle XORs into a value only
shifted copies of its other bits, and 1 has no other bit to shift onto bit 0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..algebra.composed import ComposedLayout, composed_parts, is_layout
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from . import f2
from .convert import bit_columns, refuse_pointer_flag, swizzles


def _affine(F: Any, what: str) -> tuple[int, list[int]]:
    """``(F(0), [F(2**k) ^ F(0)])`` of a layout or ``Sw o off o Layout`` that is F2-affine."""
    refuse_pointer_flag(F, f"solve_swizzle: {what}")
    parts = composed_parts(F)
    if parts is not None and parts[1] != 0:
        outer, offset, inner = parts
        if not isinstance(outer, Swizzle) or not isinstance(inner, Layout) or type(offset) is not int:
            raise CutepyError(f"solve_swizzle: {what} {F} is not F2-affine")
        cols = bit_columns(inner, what)
        bits = 0
        for c in cols:
            bits |= c
        if offset < 0 or offset & bits:
            raise CutepyError(
                f"solve_swizzle: {what} {F}: the offset {offset} shares bits with the layout, so "
                "offset + layout carries: not F2-affine"
            )
        return outer(offset), [outer(c) for c in cols]
    return 0, bit_columns(F, what)


@dataclass(frozen=True)
class SwizzleSolution:
    """``solve_swizzle``'s answer: the swizzle and offset, or the proof that none exists.

    >>> from cutepy import Layout
    >>> r = solve_swizzle(Layout(4, 1), Layout(4, 1)); r.found, r.swizzle, r.offset
    (True, Sw<0,0,0>, 0)
    """

    found: bool
    swizzle: Swizzle | None
    offset: int
    proof: str

    def layout(self, A: Any) -> Any:
        """``Sw o offset o A`` (``A`` itself when the swizzle is the identity and the offset 0)."""
        if not self.found or self.swizzle is None:
            raise CutepyError(f"solve_swizzle found no swizzle: {self.proof}")
        if self.swizzle.bits == 0 and self.offset == 0:
            return A
        return ComposedLayout(self.swizzle, self.offset, A)


def _shift_candidates(a: int, d: int) -> list[int]:
    low = (d & -d).bit_length() - 1
    return [p - low for p in range(a.bit_length()) if a >> p & 1 and p != low]


def _contiguous(mask: int) -> tuple[int, int]:
    lo = (mask & -mask).bit_length() - 1
    return lo, mask.bit_length() - lo


def _try_shift(s: int, pairs: list[tuple[int, int]]) -> Swizzle | None:
    """The smallest swizzle with shift ``s`` mapping each ``a`` to ``a ^ d``, or None."""
    must = mustnot = 0
    for a, d in pairs:
        if s > 0:
            src = d << s  # the bits of a the swizzle reads, moved down by s onto d
        else:
            src = d >> -s  # moved up by -s onto d
            if src << -s != d:
                return None
        if src & ~a:
            return None
        must |= src
        mustnot |= a & ~src
    if must == 0:
        return None
    lo, width = _contiguous(must)
    rng = ((1 << width) - 1) << lo
    if rng & mustnot or width > abs(s):
        return None
    m = lo - s if s > 0 else lo
    if m < 0:
        return None
    sw = Swizzle(width, m, s)
    return sw if all(sw(a) == a ^ d for a, d in pairs) else None


def _swizzles_by_preference(n: int) -> Any:
    """Every swizzle whose bits lie below ``n`` (the identity first), fewest bits, then ``S > 0``,
    smallest ``|S|``, smallest ``M``: the order ``solve_swizzle`` prefers."""
    yield Swizzle(0, 0, 0)
    for b in range(1, n // 2 + 1):
        for s in range(b, n - b + 1):
            for sign in (1, -1):
                for m in range(0, n - b - s + 1):
                    yield Swizzle(b, m, sign * s)


def solve_swizzle(A: Any, B: Any) -> SwizzleSolution:
    """The CuTe swizzle ``Sw`` and offset with ``Sw o offset o A == B`` as functions, or the proof
    that none exists (the F2 system with no solution, in words).

    Pre: ``A`` a Layout (or ``Sw o 0 o Layout``) and ``B`` a Layout or swizzled layout of the
    same size, both F2-linear/affine (power-of-two modes with disjoint bits); else
    ``CutepyError`` naming the mode that is not.
    Post: ``found`` and ``B(i) == Sw(offset + A(i))`` for every ``i``, with the swizzle of
    fewest bits (then ``S > 0``, smallest ``|S|``); or not ``found`` and ``proof`` says
    which equation fails.

    >>> from cutepy import Layout, Swizzle, composition
    >>> A = Layout((8, 32), (32, 1))
    >>> r = solve_swizzle(A, composition(Swizzle(2, 3, 3), A)); r.swizzle, r.offset
    (Sw<2,3,3>, 0)
    """
    for name, F in (("A", A), ("B", B)):
        if not is_layout(F):
            raise CutepyError(
                f"solve_swizzle: {name} must be a Layout or a swizzled layout, got {type(F).__name__}"
            )
    size_a = it.size(A.shape)
    size_b = it.size(B.shape)
    if size_a != size_b:
        raise CutepyError(
            f"solve_swizzle: A has {size_a} elements and B {size_b}: they are not the same domain"
        )
    if (parts := composed_parts(A)) is not None and parts[1] != 0:
        raise CutepyError("solve_swizzle: A must be linear (no offset); put the offset in B")
    a_cols = bit_columns(A, "A")
    b0, b_cols = _affine(B, "B")
    # 1. the linear system X a_k = b_k: consistent iff the relations among the a_k hold for the b_k
    width = max([c.bit_length() for c in a_cols + b_cols] + [1])
    rows = [a | (b << width) | (1 << (2 * width + k)) for k, (a, b) in enumerate(zip(a_cols, b_cols))]
    for r in f2.rref(rows):
        if r & ((1 << width) - 1) == 0 and (r >> width) & ((1 << width) - 1):
            ks = [k for k in range(len(a_cols)) if r >> (2 * width + k) & 1]
            terms = " ^ ".join(f"A({1 << k})" for k in ks)
            bterms = " ^ ".join(f"B'({1 << k})" for k in ks)
            return SwizzleSolution(
                False,
                None,
                0,
                (
                    f"no swizzle: {terms} = 0 but {bterms} = {(r >> width) & ((1 << width) - 1)} "
                    "(B' = B - B(0)); a swizzle is linear, so no linear map, let alone a swizzle, "
                    "sends A to B"
                ),
            )
    pairs = [(a, a ^ b) for a, b in zip(a_cols, b_cols)]
    moved = [(a, d) for a, d in pairs if d]
    sw: Swizzle | None = Swizzle(0, 0, 0) if not moved else None
    if moved:
        a0, d0 = moved[0]
        k0 = a_cols.index(a0)
        cands = sorted(set(_shift_candidates(a0, d0)), key=lambda s: (s < 0, abs(s)))
        found = [x for x in (_try_shift(s, pairs) for s in cands) if x is not None]
        if not found:
            low = (d0 & -d0).bit_length() - 1
            if not cands:
                return SwizzleSolution(
                    False,
                    None,
                    0,
                    (
                        f"no swizzle: Sw(A({1 << k0})) = B({1 << k0}) asks the swizzle to turn {a0} into "
                        f"{a0 ^ d0}; a swizzle XORs into a value only shifted copies of its other bits, and "
                        f"{a0} has no other bit to shift onto bit {low}"
                    ),
                )
            return SwizzleSolution(
                False,
                None,
                0,
                (
                    f"no swizzle: Sw(A({1 << k0})) = B({1 << k0}) needs bit {low} XORed into {a0}; every "
                    f"shift S in {cands} that could do it makes another equation Sw(a_k) = b_k fail "
                    "(the bits it must read are not one contiguous range of at most |S| bits that leaves "
                    "the others alone)"
                ),
            )
        found.sort(key=lambda x: (x.bits, x.shift < 0, abs(x.shift), x.base))
        sw = found[0]
    assert sw is not None
    off = sw(b0)
    bits = 0
    for c in a_cols:
        bits |= c
    if off & bits:  # another swizzle that meets the linear equations may move the offset off A's bits
        n = max(width, b0.bit_length())
        for other in _swizzles_by_preference(n):
            if not other(b0) & bits and all(other(a) == a ^ d for a, d in pairs):
                sw, off = other, other(b0)
                break
    if off & bits:
        return SwizzleSolution(
            False,
            None,
            0,
            (
                f"no swizzle: B(0) = {b0} needs the offset Sw^-1(B(0)) = {off}, which shares bits with A "
                f"(mask {bits}), so offset + A(i) carries instead of XORing; no other swizzle that "
                f"sends A's bits to B's moves the offset off them"
            ),
        )
    return SwizzleSolution(True, sw, off, f"{sw} o {off} o A == B at every input (checked bit by bit)")


# ---- conflict-free swizzles for a TV access (the bank question, linear part) ------------------------


@dataclass(frozen=True)
class ConflictFreeSwizzle:
    """``solve_conflict_free``'s answer: the swizzle, the candidates tried, or the proof.

    >>> from cutepy import Layout
    >>> r = solve_conflict_free(Layout((8, 64), (64, 1)), [(Layout(((8, 4), 8), ((1, 64), 8)), 16)], 2)
    >>> r.found, r.swizzle
    (True, Sw<3,3,3>)
    """

    found: bool
    swizzle: Swizzle | None
    tried: int
    proof: str


def _phase_rank_ok(sw: Swizzle, cols: Sequence[int], shift: int, bank_bits: int) -> bool:
    """Lanes of a phase conflict-free: distinct chunks never share a bank group (a rank condition)."""
    chunks = [sw(c) >> shift for c in cols]
    banks = [c & ((1 << bank_bits) - 1) for c in chunks]
    return f2.f2_rank(banks) == f2.f2_rank(chunks)


def solve_conflict_free(
    smem: Layout,
    accesses: Sequence[tuple[Layout, int]],
    element_bytes: int,
    bank_model: Callable[[Any], bool] | None = None,
) -> ConflictFreeSwizzle:
    """The swizzle of fewest bits that makes every access's phases hit distinct banks.

    ``accesses``: ``(tv_layout, bytes_per_lane)`` pairs, lane ``t`` reading ``bytes_per_lane``
    consecutive bytes at ``smem(tv_layout(t, 0))``; a phase is the ``128 / bytes`` lanes the
    hardware serves together (32 for 4 B, 16 for 8 B, 8 for 16 B, as ``ldmatrix`` rows). Over
    F2 the phase is conflict-free iff its lanes' chunk addresses and their bank groups have the
    same rank (distinct chunks in distinct banks), and a translation (other lanes, other
    values) keeps that. Candidates are tried in the order fewest bits, ``S > 0``, smallest
    ``|S|``, smallest ``M``, keeping each vector whole; ``bank_model(candidate_smem)`` (e.g. a
    ``cutepy.banks`` check), when given, must agree before a candidate is accepted.

    Pre: ``smem`` and every ``tv_layout`` F2-linear; ``bytes_per_lane`` in 4, 8, 16; powers of two.
    Post: ``found`` with the swizzle, or the proof that no swizzle of the family does it.

    >>> from cutepy import Layout
    >>> solve_conflict_free(Layout((8, 32), (32, 1)), [(Layout(((8, 4), 8), ((1, 64), 8)), 16)], 2).swizzle
    Sw<2,3,3>
    """
    if type(element_bytes) is not int or element_bytes not in (1, 2, 4, 8, 16):
        raise CutepyError(
            f"solve_conflict_free: element_bytes = {it.short_repr(element_bytes)}: expected 1, 2, 4, 8 or 16"
        )
    smem_cols = bit_columns(smem, "the shared-memory layout")
    nbits = max([c.bit_length() for c in smem_cols] + [1])
    e_log = element_bytes.bit_length() - 1
    checks = []
    min_m = 0
    if not isinstance(accesses, (list, tuple)):
        raise CutepyError(f"solve_conflict_free: accesses must be a list of (tv_layout, bytes_per_lane) "
                          f"pairs, got {it.short_repr(accesses)}")
    for k, acc in enumerate(accesses):
        if not isinstance(acc, (tuple, list)) or len(acc) != 2:
            raise CutepyError(
                f"solve_conflict_free: access {k} must be (tv_layout, bytes_per_lane), got "
                f"{it.short_repr(acc)}"
            )
        tv, nbytes = acc
        if type(nbytes) is not int or nbytes not in (4, 8, 16) or nbytes < element_bytes:
            raise CutepyError(
                f"solve_conflict_free: access {k}: {it.short_repr(nbytes)} bytes per lane: expected "
                f"4, 8 or 16"
            )
        tv_cols = bit_columns(tv, f"access {k}'s TV layout")
        threads = it.size(tv.shape[0]) if isinstance(tv.shape, tuple) else it.size(tv.shape)
        phase_bits = min((128 // nbytes).bit_length() - 1, threads.bit_length() - 1)
        lane_cols = []
        for c in tv_cols[:phase_bits]:
            v = 0
            for j, s in enumerate(smem_cols):
                if c >> j & 1:
                    v ^= s
            lane_cols.append(v)
        shift = (nbytes.bit_length() - 1) - e_log  # element bits inside one lane's chunk
        bank_bits = 7 - (nbytes.bit_length() - 1)  # 128-byte line / chunk
        checks.append((lane_cols, shift, bank_bits))
        min_m = max(min_m, shift)
    tried = 0
    for sw in [Swizzle(0, 0, 0)] + swizzles(min(nbits, 24)):
        if sw.bits and min(sw.base, sw.base + sw.shift if sw.shift < 0 else sw.base) < min_m:
            continue  # it would split a lane's vector
        if sw.bits and (sw.zzz_mask | sw.yyy_mask) >> nbits:
            continue
        tried += 1
        if all(_phase_rank_ok(sw, cols, s, b) for cols, s, b in checks):
            cand = smem if sw.bits == 0 else ComposedLayout(sw, 0, smem)
            if bank_model is None or bank_model(cand):
                return ConflictFreeSwizzle(
                    True, sw, tried, f"{sw}: every phase's lanes span as many banks as chunks"
                )
    ranks = [
        (f2.f2_rank([c >> s & ((1 << b) - 1) for c in cols]), f2.f2_rank([c >> s for c in cols]))
        for cols, s, b in checks
    ]
    return ConflictFreeSwizzle(
        False,
        None,
        tried,
        (
            f"no swizzle of {tried} tried gives every phase distinct banks (without one: bank rank / "
            f"chunk rank per access {ranks}); the lanes of a phase need more independent address bits "
            "in the bank window than a shift of the layout's bits provides"
        ),
    )
