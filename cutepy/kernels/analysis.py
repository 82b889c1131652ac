"""A designer's checklist: the questions a kernel designer asks of a layout, each answered.

Layered above the layout, the algebra and the bank model (an analyses module): it reads
layouts, plain or swizzled (``Sw o off o L``), and where the algebra allows symbolic ones; it
never draws or parses. The names are tensor-layouts' (its ``analysis`` module), so a user of
either finds the other's; ``docs/analyses.md`` lists where the answers differ and why.

1. Is it a function I can trust?  :func:`is_injective`, :func:`is_surjective` (onto a codomain),
   :func:`is_bijective` / :func:`is_contiguous`, :func:`image`, :func:`offset_table`,
   :func:`aliasing_profile`.
2. What memory does it touch?  :func:`footprint`, :func:`gap_profile`.
3. Can a thread vectorize?  :func:`contiguity`, :func:`mode_contiguity`,
   :func:`slice_contiguity`, :func:`thread_stride_profile`.
4. Is global memory coalesced?  :func:`coalescing` (every warp instruction: 32-byte sectors and
   128-byte lines against the minimum), :func:`coalescing_efficiency`, :func:`segment_analysis`,
   :func:`per_group_coalescing`, and :func:`analyze_gmem_copy` for a TiledCopy.
5. Are shared-memory banks conflict-free?  :func:`bank_conflicts`,
   :func:`per_group_bank_conflicts` (NVIDIA's measured rule, or any
   :class:`~cutepy.banks.BankModel`: AMD's LDS, a bank count, width and phase of your own).
6. Is it a permutation, and which?  :func:`cycles`, :func:`fixed_points`, :func:`order`,
   :func:`permutation_parity`, :func:`is_even_permutation`.
7. What does an MMA atom hold?  :func:`atom_summary`, :func:`operand_analysis`.

How each is answered: from the algebra where it can be (injectivity of a layout whose sorted
strides each exceed the reach of the modes below them, the extremes of the offsets, contiguity
from ``coalesce``; symbolic layouts take only these paths, and an undecided fact raises
:class:`~cutepy.Undecided` naming it), else by enumerating the offsets (numpy), only up to
``limit`` elements (:data:`ENUMERATION_LIMIT`, 2**22, unless raised per call): above it a
:class:`~cutepy.CutepyError` says so. The property tests check every answer against brute force.

>>> from cutepy import Layout, Swizzle, make_composed_layout
>>> is_injective(Layout((4, 2), (0, 1))), is_bijective(Layout((2, 2), (2, 1)))
(False, True)
>>> footprint(Layout((4, 2), (2, 16))).span
23
>>> cycles(make_composed_layout(Swizzle(1, 0, 1), 0, Layout(4)))
[[0], [1], [2, 3]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..algebra.coalesce import coalesce
from ..algebra.composed import composed_parts, is_layout, make_composed_layout
from ..banks.model import NVIDIA_SMEM, BankModel
from ..banks.tile import _tile_indices, check_element_bytes, make_access, tv_table
from ..banks.warp import WARP, BankReport, count, format_table
from ..core import inttuple as it
from ..core.errors import CutepyError, Undecided
from ..core.layout import Layout, slice_and_offset
from ..core.lazy import load

np = load("numpy")  # numpy loads on first use (enumeration needs it)

#: Largest number of elements an analysis enumerates unless ``limit=`` raises it.
ENUMERATION_LIMIT = 1 << 22
#: NVIDIA's global-memory granules: a sector (what DRAM and L2 move) and an L1 cache line.
SECTOR_BYTES = 32
LINE_BYTES = 128


# -- arguments ---------------------------------------------------------------------------------


def _layout(x: Any, fn: str, arg: str = "layout") -> Any:
    if not is_layout(x):
        raise CutepyError(f"{fn}: {arg} must be a Layout or a swizzled ComposedLayout, got {x!r}")
    return x


def _limit(limit: Any, fn: str) -> int:
    if type(limit) is not int or limit < 1:
        raise CutepyError(f"{fn}: limit must be a positive int, got {limit!r}")
    return limit


def _offsets(layout: Any, fn: str, limit: Any) -> Any:
    """Every offset of ``layout`` (int64), after checking its size against ``limit``."""
    _layout(layout, fn)
    lim = _limit(limit, fn)
    n = layout.size()
    if not isinstance(n, int):
        raise CutepyError(f"{fn}: {layout} has a symbolic size; substitute its symbols (cutepy.subs) "
                          "to enumerate it")
    if n > lim:
        raise CutepyError(f"{fn}: {layout} has {n} elements, above the enumeration limit of {lim} "
                          "(pass limit= to raise it)")
    try:
        return np.asarray(layout.offsets(), dtype=np.int64)
    except CutepyError as e:
        raise CutepyError(f"{fn}: cannot enumerate {layout}: {e}") from None


def _known(a: Any, rel: str, b: Any) -> bool | None:
    """``a REL b`` where the facts decide it, else None (a symbolic comparison left open)."""
    try:
        return bool({"==": lambda: a == b, ">": lambda: a > b, "<": lambda: a < b}[rel]())
    except Undecided:
        return None


def _flat_modes(layout: Layout) -> list[tuple[Any, Any]]:
    """The flat modes without those known to have size 1."""
    return [(s, d) for s, d in zip(it.flatten_tuple(layout.shape), it.flatten_tuple(layout.stride))
            if _known(s, "==", 1) is not True]


def _is_int(x: Any) -> bool:
    return type(x) is int


# -- 1. a function you can trust -------------------------------------------------------------


def _injective_by_algebra(layout: Layout) -> bool | None:
    """True when the sorted |strides| each exceed the reach of the modes below (then distinct
    coordinates give distinct offsets: a mixed radix); False with a stride-0 mode of size > 1;
    None when this test cannot tell."""
    modes = _flat_modes(layout)
    if any(_known(s, "==", 0) for s, _ in modes):
        return True
    if any(_known(d, "==", 0) and _known(s, ">", 1) for s, d in modes):
        return False
    absd = []
    for s, d in modes:
        neg = _known(d, "<", 0)
        if neg is None:
            return None
        absd.append((s, -d if neg else d))
    try:
        keyed = sorted(absd, key=lambda m: m[1])
    except Undecided:
        return None
    reach = 0
    for s, ad in keyed:
        if _known(ad, ">", reach) is not True:
            return None
        reach = reach + (s - 1) * ad
    return True


def is_injective(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> bool:
    """Whether distinct coordinates give distinct offsets (no two elements alias).

    Algorithm: a swizzle and an offset are bijections of the integers, so ``Sw o off o L`` is
    injective iff ``L`` is. For ``L``: a stride-0 mode of size > 1 aliases; sorted by
    ``|stride|``, strides that each exceed the reach ``sum (s-1)|d|`` of the modes below are
    injective (symbolic layouts included); otherwise the offsets are enumerated (up to ``limit``).

    Pre:  ``layout`` a Layout or ComposedLayout; ``limit`` a positive int.
    Post: equals ``len(set(offsets)) == size``.

    >>> from cutepy import Layout
    >>> is_injective(Layout((4, 2), (1, 4))), is_injective(Layout((4, 2), (1, 2)))
    (True, False)
    """
    _layout(layout, "is_injective")
    _limit(limit, "is_injective")
    parts = composed_parts(layout)
    if parts is not None:
        return is_injective(parts[2], limit=limit)
    verdict = _injective_by_algebra(layout)
    if verdict is not None:
        return verdict
    off = _offsets(layout, "is_injective", limit)
    return int(np.unique(off).size) == off.size


def image(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> list[int]:
    """The distinct offsets ``layout`` produces, sorted (its range, against the codomain it spans).

    Pre:  as :func:`is_injective` (at most ``limit`` elements). Post: sorted, distinct.

    >>> from cutepy import Layout
    >>> image(Layout((4, 2), (0, 1)))
    [0, 1]
    """
    return np.unique(_offsets(layout, "image", limit)).tolist()


def offset_table(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> dict[int, list[Any]]:
    """``{offset: [natural coordinate, ...]}``: the inverse of the layout, aliasing in plain sight.

    Offsets ascend; each offset's coordinates in index order (colexicographic), written as the
    layout's shape nests them (``idx2crd``).

    Pre:  as :func:`is_injective`. Post: the lists together hold every coordinate once.

    >>> from cutepy import Layout
    >>> offset_table(Layout((2, 2), (0, 1)))
    {0: [(0, 0), (1, 0)], 1: [(0, 1), (1, 1)]}
    """
    off = _offsets(layout, "offset_table", limit)
    shape = layout.shape
    table: dict[int, list[Any]] = {}
    for i, o in enumerate(off.tolist()):
        table.setdefault(o, []).append(it.idx2crd(i, shape))
    return dict(sorted(table.items()))


@dataclass(frozen=True)
class AliasingProfile:
    """How often offsets are shared: ``aliasing_profile``'s answer (tensor-layouts' fields).

    >>> from cutepy import Layout
    >>> aliasing_profile(Layout(4, 1)).has_aliasing
    False
    """

    has_aliasing: bool
    max_alias_ways: int
    aliased_offset_count: int
    duplicate_elements: int
    reuse_histogram: dict
    aliased_offsets: list


def aliasing_profile(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> AliasingProfile:
    """How many coordinates share each offset: the worst, a histogram, and which offsets.

    Pre:  as :func:`is_injective`. Post: ``duplicate_elements == size - len(image)``;
          ``reuse_histogram`` maps ``ways -> number of offsets`` reached that many times.

    >>> from cutepy import Layout
    >>> p = aliasing_profile(Layout((4, 2), (0, 1)))
    >>> p.max_alias_ways, p.reuse_histogram, p.duplicate_elements
    (4, {4: 2}, 6)
    """
    off = _offsets(layout, "aliasing_profile", limit)
    vals, counts = np.unique(off, return_counts=True)
    ways, nways = np.unique(counts, return_counts=True)
    aliased = vals[counts > 1].tolist()
    return AliasingProfile(bool(aliased), int(counts.max()) if counts.size else 0, len(aliased),
                           int(off.size - vals.size), dict(zip(ways.tolist(), nways.tolist())), aliased)


# -- 2. the memory it touches -----------------------------------------------------------------


@dataclass(frozen=True)
class Footprint:
    """The offsets a layout spans and how densely: ``footprint``'s answer (tensor-layouts' fields).

    ``span = max_offset - min_offset + 1``; ``holes = span - unique_offsets``;
    ``reuse_factor = total_elements / unique_offsets``. Symbolic where the layout is.

    >>> from cutepy import Layout
    >>> f = footprint(Layout(8, 1))
    >>> f.min_offset, f.max_offset, f.span, f.holes, f.reuse_factor
    (0, 7, 8, 0, 1.0)
    """

    min_offset: Any
    max_offset: Any
    span: Any
    unique_offsets: Any
    total_elements: Any
    reuse_factor: Any
    holes: Any


def _extremes(layout: Layout) -> tuple[Any, Any]:
    lo = hi = 0
    for s, d in _flat_modes(layout):
        if d > 0:  # a symbolic stride of unknown sign raises Undecided, naming the fact
            hi = hi + (s - 1) * d
        elif d < 0:
            lo = lo + (s - 1) * d
    return lo, hi


def footprint(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> Footprint:
    """Smallest and largest offset, the span between, the distinct offsets, holes and reuse.

    Algorithm: for a plain layout the extremes are ``sum (s-1) d`` over the negative and the
    positive strides (symbolic too), and the distinct offsets are the size when
    :func:`is_injective` proves injectivity by the algebra; otherwise (a swizzle, aliasing
    strides) the offsets are enumerated.

    Pre:  as :func:`is_injective`. Post: ``min_offset <= every offset <= max_offset``.

    >>> from cutepy import Layout, symbols
    >>> f = footprint(Layout((4, 2), (0, 1)))
    >>> f.span, f.unique_offsets, f.reuse_factor, f.holes
    (2, 2, 4.0, 0)
    >>> M = symbols("M")
    >>> footprint(Layout((8, M), (1, 16))).span
    16*M-8
    """
    _layout(layout, "footprint")
    _limit(limit, "footprint")
    total = layout.size()
    if composed_parts(layout) is None and _injective_by_algebra(layout) is True:
        lo, hi = _extremes(layout)
        uniq = total
    else:
        off = _offsets(layout, "footprint", limit)
        if off.size == 0:
            return Footprint(0, 0, 0, 0, 0, 0.0, 0)
        lo, hi, uniq = int(off.min()), int(off.max()), int(np.unique(off).size)
    span = hi - lo + 1
    reuse = total / uniq if _is_int(total) and _is_int(uniq) else total // uniq
    return Footprint(lo, hi, span, uniq, total, reuse, span - uniq)


@dataclass(frozen=True)
class GapProfile:
    """The runs of consecutive offsets in the image and the gaps between them.

    >>> from cutepy import Layout
    >>> gap_profile(Layout(4, 2)).run_count
    4
    """

    runs: list
    gap_sizes: list
    max_gap: int
    avg_gap: float
    run_count: int
    isolated_offsets: int


def gap_profile(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> GapProfile:
    """The image as runs ``(first, last)`` of consecutive offsets and the gaps between them.

    Pre:  as :func:`is_injective`. Post: runs ascend and are separated by ``gap_sizes`` >= 1.

    >>> from cutepy import Layout
    >>> g = gap_profile(Layout((2, 2), (1, 4)))
    >>> g.runs, g.gap_sizes, g.max_gap
    ([(0, 1), (4, 5)], [2], 2)
    """
    img = np.unique(_offsets(layout, "gap_profile", limit))
    if img.size == 0:
        return GapProfile([], [], 0, 0.0, 0, 0)
    breaks = np.nonzero(np.diff(img) > 1)[0]
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [img.size - 1]))
    runs = [(int(img[a]), int(img[b])) for a, b in zip(starts, ends)]
    gaps = [int(img[a] - img[b] - 1) for a, b in zip(starts[1:], ends[:-1])]
    return GapProfile(runs, gaps, max(gaps, default=0), sum(gaps) / len(gaps) if gaps else 0.0, len(runs),
                      sum(1 for a, b in runs if a == b))


def is_surjective(layout: Any, codomain: Any = None, *, limit: int = ENUMERATION_LIMIT) -> bool:
    """Whether the offsets cover the codomain: ``[0, codomain)`` when given, else the layout's own
    span ``[min offset, max offset]`` (no holes).

    Pre:  as :func:`is_injective`; ``codomain`` None or a non-negative int.
    Post: equals ``set(offsets) == set(range(codomain))`` (resp. the span).

    >>> from cutepy import Layout
    >>> is_surjective(Layout(4, 2)), is_surjective(Layout((4, 2), (1, 4)), 8), is_surjective(Layout(4), 8)
    (False, True, False)
    """
    if codomain is not None and (type(codomain) is not int or codomain < 0):
        raise CutepyError(f"is_surjective: codomain must be a non-negative int or None, got {codomain!r}")
    f = footprint(layout, limit=limit)
    if codomain is None:
        return bool(f.holes == 0)
    if codomain == 0:
        return f.total_elements == 0
    return bool(f.unique_offsets == codomain and f.min_offset == 0 and f.max_offset == codomain - 1)


def is_bijective(layout: Any, codomain: Any = None, *, limit: int = ENUMERATION_LIMIT) -> bool:
    """Injective and surjective: a permutation of ``[0, codomain)`` (default: of its own span).

    Pre:  as :func:`is_surjective`. Post: ``is_injective and is_surjective``.

    >>> from cutepy import Layout
    >>> is_bijective(Layout((2, 2), (2, 1))), is_bijective(Layout(4, 2)), is_bijective(Layout((4, 2), (0, 1)))
    (True, False, False)
    """
    return is_injective(layout, limit=limit) and is_surjective(layout, codomain, limit=limit)


def is_contiguous(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> bool:
    """tensor-layouts' name for :func:`is_bijective` onto the layout's span: one dense block,
    each offset once.

    Pre:  as :func:`is_injective`. Post: ``is_bijective(layout)``.

    >>> from cutepy import Layout
    >>> is_contiguous(Layout((4, 8), (8, 1))), is_contiguous(Layout((4, 8), (1, 8)))
    (True, False)
    """
    return is_bijective(layout, limit=limit)


# -- 3. vectorization -------------------------------------------------------------------------


def contiguity(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> Any:
    """The longest run from index 0 that stays contiguous: ``L(i) == L(0) + i`` for ``i < n``.

    The widest vector a thread could move from its first element. Algorithm: for a plain layout,
    the first mode of ``coalesce(L)`` when its stride is 1 (its size), else 1 (symbolic too); a
    swizzled layout is enumerated.

    Pre:  as :func:`is_injective`. Post: ``1 <= n <= size`` (0 for an empty layout).

    >>> from cutepy import Layout
    >>> contiguity(Layout((4, 8), (1, 4))), contiguity(Layout((4, 8), (1, 8))), contiguity(Layout(8, 2))
    (32, 4, 1)
    """
    _layout(layout, "contiguity")
    _limit(limit, "contiguity")
    if composed_parts(layout) is None:
        c = coalesce(layout)
        s = c.shape[0] if isinstance(c.shape, tuple) else c.shape
        d = c.stride[0] if isinstance(c.stride, tuple) else c.stride
        if s == 1:
            return 1
        return s if d == 1 else 1
    off = _offsets(layout, "contiguity", limit)
    if off.size == 0:
        return 0
    bad = np.nonzero(off != off[0] + np.arange(off.size))[0]
    return int(bad[0]) if bad.size else int(off.size)


def mode_contiguity(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> list:
    """:func:`contiguity` of each top-level mode (the others held at 0).

    Pre:  as :func:`is_injective`. Post: one entry per mode (one for a rank-1 layout).

    >>> from cutepy import Layout
    >>> mode_contiguity(Layout((4, 8), (8, 1)))
    [1, 8]
    """
    _layout(layout, "mode_contiguity")
    r = layout.rank()
    if r <= 1:
        return [contiguity(layout, limit=limit)]
    out = []
    for i in range(r):
        coord = tuple(None if j == i else 0 for j in range(r))
        out.append(slice_contiguity(layout, coord, limit=limit))
    return out


def _check_coord(coord: Any, shape: Any, fn: str, layout: Any) -> None:
    """Every fixed entry of ``coord`` an index inside its mode (C++ does not check; we do)."""
    if coord is None:
        return
    if isinstance(coord, tuple):
        if not isinstance(shape, tuple) or len(coord) != len(shape):
            raise CutepyError(f"{fn}: coord {coord!r} does not match the shape of {layout}")
        for c, s in zip(coord, shape):
            _check_coord(c, s, fn, layout)
        return
    n = it.product(shape)
    if type(coord) is not int or not 0 <= coord < n:
        raise CutepyError(f"{fn}: coord entry {coord!r} is outside its mode of size {n} in {layout}")


def _sliced(layout: Any, coord: Any, fn: str) -> Any:
    parts = composed_parts(layout)
    inner = parts[2] if parts is not None else layout
    _check_coord(coord, inner.shape, fn, layout)
    try:
        sub, off = slice_and_offset(coord, inner)
    except CutepyError as e:
        raise CutepyError(f"{fn}: coord {coord!r} does not slice {layout}: {e}") from None
    if parts is None:
        return sub
    return make_composed_layout(parts[0], parts[1] + off, sub)


def slice_contiguity(layout: Any, coord: Any, *, limit: int = ENUMERATION_LIMIT) -> Any:
    """:func:`contiguity` of the layout after fixing the coordinates of ``coord`` (``None``:
    free): "with these held, how wide can a thread read?".

    Pre:  ``coord`` a coordinate of the layout's shape with ``None`` for the free modes.
    Post: 1 when every mode is fixed.

    >>> from cutepy import Layout
    >>> L = Layout((4, 8), (8, 1))
    >>> slice_contiguity(L, (0, None)), slice_contiguity(L, (None, 0))
    (8, 1)
    """
    _layout(layout, "slice_contiguity")
    if not isinstance(coord, tuple) and coord is not None and not isinstance(coord, int):
        raise CutepyError(f"slice_contiguity: coord must be a coordinate with None for free modes, "
                          f"got {coord!r}")
    sub = _sliced(layout, coord, "slice_contiguity")
    return contiguity(sub, limit=limit)


@dataclass(frozen=True)
class ThreadStrideProfile:
    """How a TV layout's offset moves from thread ``t`` to ``t + 1``, value by value.

    >>> from cutepy import Layout
    >>> thread_stride_profile(Layout((4, 2), (0, 1))).has_broadcast_lane
    True
    """

    thread_count: int
    value_count: int
    per_value_deltas: list
    per_value_unique_strides: list
    per_value_constant_stride: list
    per_value_is_constant: list
    global_unique_strides: list
    is_uniform: bool
    has_broadcast_lane: bool


def _tv_offsets(layout: Any, fn: str, limit: Any) -> Any:
    """``[threads, values]`` offsets of a TV layout: mode 0 the thread, the other modes the value
    (colexicographic); a rank-1 layout is one value per thread."""
    off = _offsets(layout, fn, limit)
    threads = int(layout[0].size()) if layout.rank() > 1 else off.size
    if threads == 0:
        return off.reshape(0, 0)
    return off.reshape(off.size // threads, threads).T


def thread_stride_profile(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> ThreadStrideProfile:
    """The offset step from thread ``t`` to ``t + 1`` for every value of a TV layout.

    ``delta[v][t] = L(t + 1, v) - L(t, v)``; a value whose steps are all one number has a
    constant stride (0: every thread reads the same element, a broadcast).

    Pre:  a TV layout (mode 0 the threads) of at most ``limit`` elements.
    Post: ``len(per_value_deltas) == value_count``, each ``thread_count - 1`` long.

    >>> from cutepy import Layout
    >>> p = thread_stride_profile(Layout((4, 2), (2, 1)))
    >>> p.per_value_constant_stride, p.is_uniform
    ([2, 2], True)
    """
    tv = _tv_offsets(_layout(layout, "thread_stride_profile"), "thread_stride_profile", limit)
    T, V = tv.shape
    deltas = np.diff(tv, axis=0).T if T > 1 else np.zeros((V, 0), dtype=np.int64)
    per = [d.tolist() for d in deltas]
    uniq = [sorted(set(d)) for d in per]
    const = [u[0] if len(u) == 1 else None for u in uniq]
    every = sorted(set(np.unique(deltas).tolist())) if deltas.size else []
    return ThreadStrideProfile(T, V, per, uniq, const, [len(u) <= 1 for u in uniq], every, len(every) <= 1,
                               T > 1 and any(c == 0 for c in const))


# -- 4. global memory: coalescing --------------------------------------------------------------


@dataclass(frozen=True)
class GmemInstruction:
    """One warp instruction on global memory: what it touches against the least it could.

    ``sectors`` / ``lines``: distinct 32-byte sectors and 128-byte lines its active lanes'
    bytes fall in; ``min_sectors`` / ``min_lines``: those its distinct bytes need at least
    (``ceil(unique_bytes / 32)``, ``/ 128``); ``requested_bytes`` counts every lane's bytes.

    >>> from cutepy import Layout
    >>> i = coalescing(Layout(32, 2), element_bytes=4).instructions[0]
    >>> i.sectors, i.min_sectors, i.lines
    (8, 4, 2)
    """

    warp: int
    vector: int
    width: int
    active_lanes: int
    requested_bytes: int
    unique_bytes: int
    sectors: int
    lines: int
    min_sectors: int
    min_lines: int
    #: each lane's byte address (``-1``: inactive), what a probe on a GPU replays
    addresses: tuple = field(default=(), repr=False, compare=False)


@dataclass(frozen=True)
class CoalescingReport:
    """Every warp instruction of an access to global memory, with totals.

    >>> from cutepy import Layout
    >>> coalescing(Layout(32, 1), element_bytes=4).summary()
    'ld 4 B: 4 sectors (ideal 4), 1 line (ideal 1), efficiency 100% (1 instruction, 1 warp)'
    """

    what: str
    op: str
    instructions: tuple

    def _sum(self, f: str) -> int:
        return sum(getattr(i, f) for i in self.instructions)

    @property
    def sectors(self) -> int:
        return self._sum("sectors")

    @property
    def lines(self) -> int:
        return self._sum("lines")

    @property
    def min_sectors(self) -> int:
        return self._sum("min_sectors")

    @property
    def min_lines(self) -> int:
        return self._sum("min_lines")

    @property
    def requests(self) -> int:
        """Warp instructions issued: ncu's requests (``l1tex__t_requests_pipe_lsu_mem_global_op_ld``)."""
        return len(self.instructions)

    @property
    def sectors_per_request(self) -> float:
        return self.sectors / self.requests if self.requests else 0.0

    @property
    def efficiency(self) -> float:
        """Distinct bytes used over bytes moved in sectors (1.0: every sector byte is used)."""
        moved = self.sectors * SECTOR_BYTES
        return self._sum("unique_bytes") / moved if moved else 0.0

    @property
    def is_coalesced(self) -> bool:
        """Every instruction touches the fewest sectors its bytes allow."""
        return all(i.sectors == i.min_sectors for i in self.instructions)

    def summary(self) -> str:
        widths = sorted({i.width for i in self.instructions})
        w = "/".join(map(str, widths)) or "0"
        return (f"{self.op} {w} B: {count(self.sectors, 'sector')} (ideal {self.min_sectors}), "
                f"{count(self.lines, 'line')} (ideal {self.min_lines}), efficiency {self.efficiency:.0%} "
                f"({count(self.requests, 'instruction')}, "
                f"{count(len({i.warp for i in self.instructions}), 'warp')})")

    def __str__(self) -> str:
        rows = [("warp", "vector", "bytes/lane", "lanes", "sectors", "ideal", "lines", "ideal")]
        for i in self.instructions[:64]:
            rows.append(tuple(map(str, (i.warp, i.vector, i.width, i.active_lanes, i.sectors, i.min_sectors,
                                        i.lines, i.min_lines))))
        text = f"{self.what}\n{self.summary()}\n{format_table(rows)}"
        if len(self.instructions) > 64:
            text += f"\n... {len(self.instructions) - 64} more instructions"
        return text


def _check_bytes(element_bytes: Any, fn: str) -> int:
    try:
        return check_element_bytes(element_bytes)
    except CutepyError as e:
        raise CutepyError(f"{fn}: {e}") from None


def _auto_vector(tv: Any, E: int, base: int) -> int:
    """The widest vector (a power of two of elements, at most 16 bytes, dividing the values)
    whose elements sit consecutively and aligned in memory for every thread."""
    T, V = tv.shape
    v = 1
    while v * 2 * E <= 16 and V % (v * 2) == 0:
        v *= 2
    while v > 1:
        g = tv.reshape(T, V // v, v)
        ok = (g - g[:, :, :1] == np.arange(v)).all() and ((base + g[:, :, 0] * E) % (v * E) == 0).all()
        if ok:
            return v
        v //= 2
    return 1


def _gmem_rows(addr: Any, width: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """Per instruction (row of lane byte addresses, -1 inactive): active lanes, requested and
    unique bytes, sectors, lines, min sectors, min lines."""
    out = []
    for row in addr:
        a = row[row >= 0]
        if a.size == 0:
            out.append((0, 0, 0, 0, 0, 0, 0))
            continue
        starts = np.unique(a)
        uniq = int(starts.size) * width
        last = starts + width - 1
        sectors = np.unique(np.concatenate((starts // SECTOR_BYTES, last // SECTOR_BYTES))).size
        lines = np.unique(np.concatenate((starts // LINE_BYTES, last // LINE_BYTES))).size
        out.append((int(a.size), int(a.size) * width, uniq, int(sectors), int(lines),
                    -(-uniq // SECTOR_BYTES), -(-uniq // LINE_BYTES)))
    return out


def _check_op(op: Any, fn: str) -> str:
    if op not in ("ld", "st"):
        raise CutepyError(f"{fn}: op must be 'ld' or 'st', got {op!r}")
    return op


#: the largest byte address, lane count and granule these analyses take (far beyond any GPU's)
MAX_ADDRESS = 1 << 56
MAX_LANES = 1 << 12


def _check_base(base: Any, fn: str) -> int:
    if type(base) is not int or not 0 <= base < MAX_ADDRESS:
        raise CutepyError(f"{fn}: base must be a non-negative int below 2**56 (the tensor's byte address), "
                          f"got {base!r}")
    return base


def _check_lanes(lanes: Any, fn: str, name: str = "warp_size") -> int:
    if type(lanes) is not int or not 1 <= lanes <= MAX_LANES:
        raise CutepyError(f"{fn}: {name} must be a positive int up to {MAX_LANES}, got {lanes!r}")
    return lanes


def _vector_arg(v: Any, fn: str) -> Any:
    if v is not None and (type(v) is not int or v < 1):
        raise CutepyError(f"{fn}: vector_elems must be a positive int or None, got {v!r}")
    return v


def _instructions(tv: Any, V: int, lanes: int, fn: str) -> tuple[Any, list[tuple[int, int]]]:
    """``[K, lanes, V]`` offsets (``-1`` padding marks an inactive lane via a mask) and (warp, k)."""
    T, NV = tv.shape
    if NV % V:
        raise CutepyError(f"{fn}: {NV} values per thread do not split into vectors of {V}")
    warps = -(-T // lanes)
    padded = np.zeros((warps * lanes, NV), dtype=np.int64)
    active = np.zeros(warps * lanes, dtype=bool)
    padded[:T] = tv
    active[:T] = True
    nk = NV // V
    idx = padded.reshape(warps, lanes, nk, V).transpose(0, 2, 1, 3).reshape(warps * nk, lanes, V)
    act = np.repeat(active.reshape(warps, 1, lanes), nk, axis=1).reshape(warps * nk, lanes)
    return (idx, act), [(w, k) for w in range(warps) for k in range(nk)]


def _vector_addresses(idx: Any, act: Any, V: int, E: int, base: int, fn: str) -> Any:
    step = idx - idx[:, :, :1]
    bad = act & (step != np.arange(V)).any(axis=2)
    if bad.any():
        i, t = map(int, np.argwhere(bad)[0])
        raise CutepyError(f"{fn}: instruction {i}, lane {t}: the {V} elements of its vector sit at offsets "
                          f"{idx[i, t].tolist()}, not consecutive")
    addr = base + idx[:, :, 0] * E
    if (act & (addr < 0)).any():
        raise CutepyError(f"{fn}: a lane's byte address is negative; pass base= (the tensor's byte address)")
    mis = act & (addr % (V * E) != 0)
    if mis.any():
        i, t = map(int, np.argwhere(mis)[0])
        raise CutepyError(f"{fn}: instruction {i}, lane {t}: byte address {int(addr[i, t])} is not "
                          f"{V * E}-byte aligned")
    return np.where(act, addr, -1)


def coalescing(layout: Any, *, element_bytes: int, vector_elems: int | None = None, op: str = "ld",
               base: int = 0, warp_size: int = WARP, limit: int = ENUMERATION_LIMIT) -> CoalescingReport:
    """Every warp instruction of a TV layout over global memory: sectors and lines against the minimum.

    ``layout`` maps ``(thread, value)`` (mode 0 the thread) to the element offset in a tensor at
    byte address ``base``. Thread ``t`` of warp ``w`` moves ``V = vector_elems`` consecutive
    values per instruction (default: the widest vector, up to 16 bytes, that every thread's
    values allow), one instruction per vector.

    The rule (NVIDIA, CUDA C++ Programming Guide "Device Memory Accesses" and Best Practices
    Guide "Coalesced Access to Global Memory"): a warp's load or store of 1, 2, 4, 8 or 16
    naturally aligned bytes per thread is served in 32-byte sectors; it costs the distinct
    sectors its active lanes' bytes fall in (ncu: ``l1tex__t_sectors_pipe_lsu_mem_global_op_ld``
    / ``_st`` over ``l1tex__t_requests_...``), at least ``ceil(distinct bytes / 32)``; 128-byte
    lines likewise. Measured: on an H200, ncu's sectors and requests equal these in 199 probes
    (tests/data/gmem_coalescing_h200.json); lines have no counter and are the rule.

    Pre:  ``element_bytes`` in 1, 2, 4, 8, 16 and ``V * element_bytes`` too; every vector
          consecutive and aligned in memory (else ``CutepyError`` naming the lane).
    Post: ``sectors >= min_sectors`` and ``lines >= min_lines`` for every instruction.

    >>> from cutepy import Layout
    >>> coalescing(Layout((32, 4), (4, 1)), element_bytes=4).summary()   # 16 B per thread
    'ld 16 B: 16 sectors (ideal 16), 4 lines (ideal 4), efficiency 100% (1 instruction, 1 warp)'
    >>> r = coalescing(Layout(32, 32), element_bytes=4)                  # a column: one sector each
    >>> r.sectors, r.min_sectors, r.is_coalesced
    (32, 4, False)
    """
    fn = "coalescing"
    _layout(layout, fn)
    E = _check_bytes(element_bytes, fn)
    _check_op(op, fn)
    _check_base(base, fn)
    _check_lanes(warp_size, fn)
    _vector_arg(vector_elems, fn)
    tv = _tv_offsets(layout, fn, limit)
    V = _auto_vector(tv, E, base) if vector_elems is None else vector_elems
    if V * E not in (1, 2, 4, 8, 16):
        raise CutepyError(f"{fn}: a thread moves 1, 2, 4, 8 or 16 bytes per instruction, not {V} x {E}")
    (idx, act), where = _instructions(tv, V, warp_size, fn)
    addr = _vector_addresses(idx, act, V, E, base, fn)
    rows = _gmem_rows(addr, V * E)
    ins = tuple(GmemInstruction(w, k, V * E, *r, tuple(a.tolist()))
                for (w, k), r, a in zip(where, rows, addr) if r[0])
    return CoalescingReport(f"{op} of {layout} ({E}-byte elements at byte {base})", op, ins)


def gmem_access(addresses: Any, *, access_bytes: int, op: str = "ld") -> CoalescingReport:
    """One warp instruction on global memory, given by its lanes' byte addresses: the sectors
    and lines it touches (the rule of :func:`coalescing`), as :func:`cutepy.banks.analyze` costs
    one shared-memory instruction.

    Pre:  ``addresses`` a sequence of 1 to 4096 lane byte addresses (non-negative ints below
          2**56, ``None`` or ``-1`` for an inactive lane), each aligned to ``access_bytes`` (1, 2,
          4, 8 or 16). Post: one instruction, ``sectors >= min_sectors``.

    >>> r = gmem_access([4 * t for t in range(32)], access_bytes=4)
    >>> r.sectors, r.lines, r.is_coalesced
    (4, 1, True)
    >>> gmem_access([128 * t for t in range(32)], access_bytes=4, op="st").summary()
    'st 4 B: 32 sectors (ideal 4), 32 lines (ideal 1), efficiency 12% (1 instruction, 1 warp)'
    """
    fn = "gmem_access"
    if access_bytes not in (1, 2, 4, 8, 16) or type(access_bytes) is not int:
        raise CutepyError(f"{fn}: access_bytes must be 1, 2, 4, 8 or 16, got {access_bytes!r}")
    W = access_bytes
    _check_op(op, fn)
    try:
        lanes = list(addresses)
    except TypeError:
        raise CutepyError(f"{fn}: addresses must be a sequence of lane byte addresses, "
                          f"got {addresses!r}") from None
    _check_lanes(len(lanes), fn, "len(addresses)")
    row = []
    for t, a in enumerate(lanes):
        if a is None or (type(a) is int and a == -1):
            row.append(-1)
            continue
        if type(a) is not int or not 0 <= a < MAX_ADDRESS:
            raise CutepyError(f"{fn}: addresses[{t}] must be a non-negative int below 2**56 "
                              f"(or None / -1 for an inactive lane), got {a!r}")
        if a % W:
            raise CutepyError(f"{fn}: addresses[{t}] = {a} is not {W}-byte aligned")
        row.append(a)
    addr = np.asarray([row], dtype=np.int64)
    r = _gmem_rows(addr, W)[0]
    ins = (GmemInstruction(0, 0, W, *r, tuple(row)),) if r[0] else ()
    return CoalescingReport(f"{op} of {W} B by {len(row)} lanes", op, ins)


def analyze_gmem_copy(tiled_copy: Any, gmem_layout: Any = None, *, src: Any = None, dst: Any = None,
                      base: int = 0) -> CoalescingReport:
    """Every warp instruction a TiledCopy issues on its global-memory side, costed in sectors.

    Which side is global memory: ``src=`` (the copy reads it) or ``dst=`` (writes it); a plain
    ``gmem_layout`` takes the side the atom does not spend on shared memory (cp.async reads
    global memory). The copy's tile is laid over the layout's shape as many times as it fits,
    as :func:`cutepy.banks.analyze_copy` does; each repetition, warp and vector is one
    instruction of the atom's bits per thread.

    Pre:  ``tiled_copy`` a TiledCopy whose tile fits the layout; its vectors consecutive and
          aligned in memory. Post: as :func:`coalescing`.

    >>> from cutepy import Layout, copy_atom, make_tiled_copy
    >>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
    ...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
    >>> analyze_gmem_copy(cp, Layout((16, 64), (64, 1))).summary()
    'ld 16 B: 64 sectors (ideal 64), 16 lines (ideal 16), efficiency 100% (4 instructions, 4 warps)'
    """
    fn = "analyze_gmem_copy"
    given = [(k, v) for k, v in (("gmem_layout", gmem_layout), ("src", src), ("dst", dst)) if v is not None]
    if len(given) != 1:
        raise CutepyError(f"{fn} takes the global-memory layout once: as gmem_layout, src= or dst=")
    what, layout = given[0]
    _layout(layout, fn, what)
    _check_base(base, fn)
    try:
        atom = tiled_copy.copy_atom
        aop, bits, name = atom.op, atom.element_bits, atom.name
    except AttributeError:
        raise CutepyError(f"{fn}: tiled_copy must be a TiledCopy, got {tiled_copy!r}") from None
    if aop in ("ldmatrix", "stmatrix"):
        raise CutepyError(f"{fn}: {name} ({aop}) moves between shared memory and registers: no global side")
    if what == "gmem_layout":
        if aop == "cp.async":
            side = "src"
        elif aop in ("ld", "st"):
            raise CutepyError(f"{fn}: {name} may read or write global memory: pass src= or dst=")
        else:
            raise CutepyError(f"{fn}: {name}: op {aop!r} has no global-memory side this analysis knows")
    else:
        side = what
        if aop == "cp.async" and side == "dst":
            raise CutepyError(f"{fn}: {name} (cp.async) writes shared memory; global memory is its src")
    if type(bits) is not int or bits % 8:
        raise CutepyError(f"{fn}: {name}: element_bits must be whole bytes, got {bits!r}")
    E = _check_bytes(bits // 8, fn)
    vector_bits = tv_table(getattr(atom, f"layout_{side}_tv_bits")).shape[1]
    V = vector_bits // bits
    tiler = tuple(int(x.size()) if hasattr(x, "size") else int(math.prod(it.flatten_tuple(x)))
                  if isinstance(x, tuple) else int(x) for x in tiled_copy.tiler_mn)
    table = tv_table(getattr(tiled_copy, f"layout_{side}_tv_tiled"))
    op = "ld" if side == "src" else "st"
    try:
        access = make_access(table, op, V, E, tiles=_tile_indices(tiler, layout))
    except CutepyError as e:
        raise CutepyError(f"{fn}: {e}") from None
    offsets = np.asarray(layout.offsets(), dtype=np.int64)
    idx = access.index
    act = idx[:, :, 0] >= 0
    off = np.where(idx >= 0, offsets[np.maximum(idx, 0)], 0)
    addr = _vector_addresses(off, act, V, E, base, fn)
    rows = _gmem_rows(addr, V * E)
    ins = tuple(GmemInstruction(w, k, V * E, *r, tuple(a.tolist()))
                for (_, w, k), r, a in zip(access.where, rows, addr) if r[0])
    return CoalescingReport(f"{name} ({side} = global memory) on {layout}", op, ins)


@dataclass(frozen=True)
class CoalescingEfficiency:
    """tensor-layouts' ``coalescing_efficiency`` answer: lines touched by the first warp.

    >>> from cutepy import Layout
    >>> coalescing_efficiency(Layout(32, 64), element_bytes=2).transactions
    32
    """

    transactions: int
    efficiency: float
    cache_lines: list


def _first_group(layout: Any, fn: str, element_bytes: Any, warp_size: Any, limit: Any) -> tuple[Any, int]:
    _layout(layout, fn)
    E = _check_bytes(element_bytes, fn)
    _check_lanes(warp_size, fn)
    tv = _tv_offsets(layout, fn, limit)
    return tv, E


def coalescing_efficiency(layout: Any, *, element_bytes: int, warp_size: int = WARP,
                          cache_line_bytes: int = LINE_BYTES, limit: int = ENUMERATION_LIMIT
                          ) -> CoalescingEfficiency:
    """The 128-byte lines the first warp's threads touch (all their values), and the share of
    those bytes it uses: tensor-layouts' question, answered on the layout's offsets as they are
    (a tensor at byte 0; tensor-layouts moves the smallest offset to 0). Per instruction, in
    sectors: :func:`coalescing`.

    Pre:  as :func:`coalescing`; ``cache_line_bytes`` a positive int.
    Post: ``transactions == len(cache_lines)``.

    >>> from cutepy import Layout
    >>> c = coalescing_efficiency(Layout(32, 1), element_bytes=2)
    >>> c.transactions, c.efficiency
    (1, 0.5)
    """
    fn = "coalescing_efficiency"
    _check_lanes(cache_line_bytes, fn, "cache_line_bytes")
    tv, E = _first_group(layout, fn, element_bytes, warp_size, limit)
    off = tv[:warp_size].reshape(-1)
    uniq = np.unique(off)
    lines = np.unique((off * E) // cache_line_bytes) if off.size else np.zeros(0, dtype=np.int64)
    moved = lines.size * cache_line_bytes
    return CoalescingEfficiency(int(lines.size), uniq.size * E / moved if moved else 0.0, lines.tolist())


@dataclass(frozen=True)
class SegmentAnalysis:
    """tensor-layouts' ``segment_analysis`` answer: sectors and lines of the first warp.

    >>> from cutepy import Layout
    >>> segment_analysis(Layout(32, 1), element_bytes=4).segments
    4
    """

    segments: int
    cache_lines: int
    unique_bytes: int
    requested_bytes: int
    transferred_bytes: int
    segment_efficiency: float
    first_byte_addr: int
    first_alignment: int


def segment_analysis(layout: Any, *, element_bytes: int, warp_size: int = WARP,
                     segment_bytes: int = SECTOR_BYTES,
                     cache_line_bytes: int = LINE_BYTES, limit: int = ENUMERATION_LIMIT) -> SegmentAnalysis:
    """The 32-byte segments (sectors) and 128-byte lines the first warp's elements fall in.

    Each element counts its own bytes (an element of 16 bytes spans its sector only). As
    :func:`coalescing_efficiency`, addresses are the offsets as they are (byte 0 = offset 0).

    Pre:  as :func:`coalescing_efficiency`. Post: ``transferred_bytes == segments * segment_bytes``.

    >>> from cutepy import Layout
    >>> s = segment_analysis(Layout(32, 2), element_bytes=4)
    >>> s.segments, s.cache_lines, s.segment_efficiency
    (8, 2, 0.5)
    """
    fn = "segment_analysis"
    _check_lanes(segment_bytes, fn, "segment_bytes")
    _check_lanes(cache_line_bytes, fn, "cache_line_bytes")
    tv, E = _first_group(layout, fn, element_bytes, warp_size, limit)
    off = tv[:warp_size].reshape(-1)
    if off.size == 0:
        return SegmentAnalysis(0, 0, 0, 0, 0, 0.0, 0, 0)
    b = np.unique(off) * E
    segs = np.unique(np.concatenate((b // segment_bytes, (b + E - 1) // segment_bytes)))
    lines = np.unique(np.concatenate((b // cache_line_bytes, (b + E - 1) // cache_line_bytes)))
    first = int(tv[0, 0]) * E
    moved = segs.size * segment_bytes
    return SegmentAnalysis(int(segs.size), int(lines.size), int(b.size * E), int(off.size * E), moved,
                           b.size * E / moved, first, first % segment_bytes)


@dataclass(frozen=True)
class PerGroup:
    """A per-group answer: each group's result, the worst group and its value.

    >>> from cutepy import Layout
    >>> per_group_coalescing(Layout(64, 2), element_bytes=4).worst
    0.5
    """

    groups: list
    worst_group: int
    worst: Any


def per_group_coalescing(layout: Any, *, element_bytes: int, group_size: int = WARP,
                         vector_elems: int | None = None, base: int = 0,
                         limit: int = ENUMERATION_LIMIT) -> PerGroup:
    """:func:`coalescing` warp by warp: each warp's sectors against its minimum, and the warp
    that wastes most (lowest efficiency).

    Pre:  as :func:`coalescing`. Post: one entry per warp; ``worst`` is its efficiency.

    >>> from cutepy import Layout
    >>> g = per_group_coalescing(Layout((64, 1), (1, 0)), element_bytes=4)
    >>> len(g.groups), g.worst
    (2, 1.0)
    """
    rep = coalescing(layout, element_bytes=element_bytes, vector_elems=vector_elems, base=base,
                     warp_size=_check_lanes(group_size, "per_group_coalescing", "group_size"), limit=limit)
    by: dict[int, list] = {}
    for i in rep.instructions:
        by.setdefault(i.warp, []).append(i)
    groups = [CoalescingReport(f"warp {w} of {rep.what}", rep.op, tuple(by[w])) for w in sorted(by)]
    effs = [g.efficiency for g in groups]
    worst = min(range(len(effs)), key=lambda j: effs[j]) if effs else 0
    return PerGroup(groups, worst, effs[worst] if effs else 0.0)


# -- 5. shared memory: banks -------------------------------------------------------------------


@dataclass(frozen=True)
class BankConflicts:
    """Every instruction of a TV layout on shared memory under a bank model, with totals.

    ``max_ways``: the costliest phase's wavefronts (1: conflict-free), tensor-layouts' word.

    >>> from cutepy import Layout
    >>> r = bank_conflicts(Layout(32, 2), element_bytes=4)
    >>> r.wavefronts, r.ideal, r.max_ways
    (2, 1, 2)
    """

    model: str
    reports: tuple

    @property
    def wavefronts(self) -> int:
        return sum(r.wavefronts for r in self.reports)

    @property
    def ideal(self) -> int:
        return sum(r.ideal for r in self.reports)

    @property
    def bank_conflicts(self) -> int:
        return self.wavefronts - self.ideal

    @property
    def max_ways(self) -> int:
        return max((p.wavefronts for r in self.reports for p in r.phase_costs), default=1)

    @property
    def conflict_free(self) -> bool:
        return self.max_ways <= 1

    def summary(self) -> str:
        return (f"{self.model}: {count(self.wavefronts, 'wavefront')}, ideal {self.ideal}, "
                f"{count(self.bank_conflicts, 'bank conflict')}, worst phase {self.max_ways}-way "
                f"({count(len(self.reports), 'instruction')})")


def _model(model: Any, fn: str) -> BankModel:
    if model is None:
        return NVIDIA_SMEM
    if not isinstance(model, BankModel):
        raise CutepyError(f"{fn}: model must be a cutepy.banks.BankModel, got {model!r}")
    return model


def _bank_reports(layout: Any, fn: str, element_bytes: Any, model: Any, vector_elems: Any, op: Any,
                  base: Any, limit: Any) -> tuple[BankModel, list[tuple[int, BankReport]]]:
    _layout(layout, fn)
    E = _check_bytes(element_bytes, fn)
    m = _model(model, fn)
    _check_op(op, fn)
    _check_base(base, fn)
    _vector_arg(vector_elems, fn)
    tv = _tv_offsets(layout, fn, limit)
    V = _auto_vector(tv, E, base) if vector_elems is None else vector_elems
    if V * E not in (1, 2, 4, 8, 16):
        raise CutepyError(f"{fn}: a thread moves 1, 2, 4, 8 or 16 bytes per instruction, not {V} x {E}")
    (idx, act), where = _instructions(tv, V, m.lanes, fn)
    addr = _vector_addresses(idx, act, V, E, base, fn)
    out = []
    for (w, _), row in zip(where, addr.tolist()):
        lanes = [a if a >= 0 else None for a in row]
        if all(a is None for a in lanes):
            continue
        out.append((w, m.analyze(lanes, op, bytes=V * E)))
    return m, out


def bank_conflicts(layout: Any, *, element_bytes: int, model: BankModel | None = None,
                   vector_elems: int | None = None, op: str = "ld", base: int = 0,
                   limit: int = ENUMERATION_LIMIT) -> BankConflicts:
    """The bank cost of every instruction of a TV layout on shared memory.

    ``layout`` maps ``(thread, value)`` to the element offset (swizzles included) in a buffer at
    byte ``base``; each vector of ``vector_elems`` values (default: the widest every thread
    allows) is one instruction of ``model.lanes`` lanes. ``model`` defaults to NVIDIA's rule as
    measured on H100 (:data:`cutepy.banks.NVIDIA_SMEM`); :data:`cutepy.banks.AMD_CDNA3_LDS` is
    AMD's LDS, and ``BankModel(name, banks=, bank_bytes=, lanes=, lanes_per_phase=)`` any other.

    Pre:  as :func:`coalescing`. Post: ``wavefronts >= ideal``; ``conflict_free`` iff every
          phase costs one wavefront.

    >>> from cutepy import Layout, Swizzle, make_composed_layout
    >>> bank_conflicts(Layout((32, 32), (32, 1)), element_bytes=4, vector_elems=1).max_ways
    32
    >>> sw = make_composed_layout(Swizzle(5, 0, 5), 0, Layout((32, 32), (32, 1)))
    >>> bank_conflicts(sw, element_bytes=4, vector_elems=1).conflict_free
    True
    >>> from cutepy.banks import AMD_CDNA3_LDS
    >>> r = bank_conflicts(Layout((64, 4), (4, 1)), element_bytes=4, model=AMD_CDNA3_LDS)
    >>> r.wavefronts, r.ideal, r.max_ways
    (8, 8, 1)
    """
    m, reps = _bank_reports(layout, "bank_conflicts", element_bytes, model, vector_elems, op, base, limit)
    return BankConflicts(m.name, tuple(r for _, r in reps))


def per_group_bank_conflicts(layout: Any, *, element_bytes: int, model: BankModel | None = None,
                             vector_elems: int | None = None, op: str = "ld", base: int = 0,
                             limit: int = ENUMERATION_LIMIT) -> PerGroup:
    """:func:`bank_conflicts` warp (or wave) by warp, and the warp with the worst phase.

    Pre:  as :func:`bank_conflicts`. Post: one entry per warp; ``worst`` its worst phase.

    >>> from cutepy import Layout
    >>> g = per_group_bank_conflicts(Layout((64, 1), (32, 0)), element_bytes=4)
    >>> [x.max_ways for x in g.groups], g.worst
    ([32, 32], 32)
    """
    m, reps = _bank_reports(layout, "per_group_bank_conflicts", element_bytes, model, vector_elems, op, base,
                            limit)
    by: dict[int, list] = {}
    for w, r in reps:
        by.setdefault(w, []).append(r)
    groups = [BankConflicts(m.name, tuple(by[w])) for w in sorted(by)]
    ways = [g.max_ways for g in groups]
    worst = max(range(len(ways)), key=lambda j: ways[j]) if ways else 0
    return PerGroup(groups, worst, ways[worst] if ways else 1)


# -- 6. permutations ---------------------------------------------------------------------------


def _permutation(layout: Any, fn: str, limit: Any) -> Any:
    off = _offsets(layout, fn, limit)
    if off.size == 0:
        return off
    lo, hi = int(off.min()), int(off.max())
    if hi - lo + 1 != off.size or np.unique(off).size != off.size:
        raise CutepyError(f"{fn}: {layout} is not a permutation: its {off.size} offsets are not a dense "
                          f"range without repeats (they span [{lo}, {hi}] with {np.unique(off).size} "
                          "distinct)")
    return off - lo


def cycles(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> list[list[int]]:
    """The cycles of the permutation ``i -> L(i) - min offset`` of a bijective layout.

    Each cycle starts at its smallest index; cycles in order of their start; fixed points are
    cycles of one.

    Pre:  the offsets are a dense range without repeats (else ``CutepyError``).
    Post: the cycles partition ``range(size)``.

    >>> from cutepy import Layout
    >>> cycles(Layout((2, 3), (3, 1)))
    [[0], [1, 3, 4, 2], [5]]
    """
    perm = _permutation(layout, "cycles", limit).tolist()
    seen = [False] * len(perm)
    out = []
    for s in range(len(perm)):
        if seen[s]:
            continue
        c = []
        j = s
        while not seen[j]:
            seen[j] = True
            c.append(j)
            j = perm[j]
        out.append(c)
    return out


def fixed_points(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> list[int]:
    """The indices ``i`` with ``L(i) == i`` (any layout, bijective or not).

    Pre:  as :func:`is_injective`. Post: ascending indices.

    >>> from cutepy import Layout
    >>> fixed_points(Layout((2, 2), (2, 1)))
    [0, 3]
    """
    off = _offsets(layout, "fixed_points", limit)
    return np.nonzero(off == np.arange(off.size))[0].tolist()


def order(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> int:
    """The order of the permutation: the least ``k >= 1`` with ``P^k`` the identity (lcm of the
    cycle lengths).

    Pre:  as :func:`cycles`. Post: ``k >= 1``.

    >>> from cutepy import Layout
    >>> order(Layout((2, 3), (3, 1))), order(Layout(6))
    (4, 1)
    """
    k = 1
    for c in cycles(layout, limit=limit):
        k = math.lcm(k, len(c))
    return k


def permutation_parity(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> int:
    """+1 for an even permutation, -1 for an odd one (``(-1)**(size - number of cycles)``).

    Pre:  as :func:`cycles`. Post: +1 or -1.

    >>> from cutepy import Layout
    >>> permutation_parity(Layout((2, 2), (2, 1))), permutation_parity(Layout(4))
    (-1, 1)
    """
    cs = cycles(layout, limit=limit)
    n = sum(len(c) for c in cs)
    return 1 if (n - len(cs)) % 2 == 0 else -1


def is_even_permutation(layout: Any, *, limit: int = ENUMERATION_LIMIT) -> bool:
    """``permutation_parity(layout) == 1``.

    Pre:  as :func:`cycles`. Post: a bool.

    >>> from cutepy import Layout
    >>> is_even_permutation(Layout((2, 3), (3, 1)))
    False
    """
    return permutation_parity(layout, limit=limit) == 1


# -- 7. atoms ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AtomSummary:
    """What an MMA atom holds: shape, threads and values per operand, and two checks.

    >>> from cutepy import mma_atom
    >>> print(atom_summary(mma_atom("SM80_16x8x8_F32F16F16F32_TN")))
    SM80_16x8x8_F32F16F16F32_TN
      Shape (M, N, K):   16 x 8 x 8
      Threads:           32
      Values per thread: A=4, B=2, C=4
      C covers M*N once: True
    """

    name: str
    shape_mnk: tuple
    threads: int
    values_a: int
    values_b: int
    values_c: int
    c_coverage_ok: bool
    a_broadcast: bool
    b_broadcast: bool

    def __str__(self) -> str:
        m, n, k = self.shape_mnk
        lines = [self.name, f"  Shape (M, N, K):   {m} x {n} x {k}", f"  Threads:           {self.threads}",
                 f"  Values per thread: A={self.values_a}, B={self.values_b}, C={self.values_c}",
                 f"  C covers M*N once: {self.c_coverage_ok}"]
        lines += [f"  {x} is broadcast (a stride-0 mode)" for x, b in (("A", self.a_broadcast),
                                                                      ("B", self.b_broadcast)) if b]
        return "\n".join(lines)


def _atom(atom: Any, fn: str) -> Any:
    need = ("shape_mnk", "tv_layout_A", "tv_layout_B", "tv_layout_C")
    if not all(hasattr(atom, a) for a in need):
        raise CutepyError(f"{fn}: atom must be an MMAAtom (or TiledMMA) with shape_mnk and tv_layout_A/B/C, "
                          f"got {atom!r}")
    return atom


def _broadcast(L: Layout) -> bool:
    return any(s != 1 and d == 0 for s, d in zip(it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)))


def atom_summary(atom: Any) -> AtomSummary:
    """The numbers a kernel writer wants from an MMA atom: M, N, K, threads, values per thread
    of A, B and C, whether C's thread-values cover ``M x N`` exactly once, and whether A or B is
    held by several threads (a stride-0 mode: a broadcast).

    Pre:  ``atom`` an MMAAtom (or anything with ``shape_mnk`` and ``tv_layout_A/B/C``).
    Post: ``threads`` is the size of C's thread mode; values are the value modes' sizes.

    >>> from cutepy import mma_atom
    >>> s = atom_summary(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    >>> s.threads, (s.values_a, s.values_b, s.values_c), s.c_coverage_ok
    (32, (8, 4, 4), True)
    """
    a = _atom(atom, "atom_summary")
    M, N, K = (int(x) for x in a.shape_mnk)
    C = a.tv_layout_C
    off = np.asarray(C.offsets(), dtype=np.int64)
    name = getattr(a, "name", type(a).__name__)
    return AtomSummary(name, (M, N, K), int(C[0].size()), int(a.tv_layout_A[1].size()),
                       int(a.tv_layout_B[1].size()), int(C[1].size()),
                       bool(off.size == M * N and np.array_equal(np.sort(off), np.arange(M * N))),
                       _broadcast(a.tv_layout_A), _broadcast(a.tv_layout_B))


@dataclass(frozen=True)
class OperandCoverage:
    """How one operand's thread-values cover its ``M x K`` (``N x K``, ``M x N``) domain.

    >>> from cutepy import mma_atom
    >>> operand_analysis(mma_atom("SM80_16x8x8_F32F16F16F32_TN"))["b"].thread_utilization
    1.0
    """

    domain_size: int
    unique_offsets: int
    total_accesses: int
    duplicates: int
    coverage_ok: bool
    missing: list
    extra: list
    thread_utilization: float


def _coverage(L: Layout, n: int) -> OperandCoverage:
    off = np.asarray(L.offsets(), dtype=np.int64)
    u = np.unique(off)
    missing = np.setdiff1d(np.arange(n), u).tolist()
    extra = u[(u < 0) | (u >= n)].tolist()
    return OperandCoverage(n, int(u.size), int(off.size), int(off.size - u.size), not missing and not extra,
                           missing, extra, u.size / off.size if off.size else 0.0)


def operand_analysis(atom: Any) -> dict[str, OperandCoverage]:
    """For A, B and C of an MMA atom: distinct elements reached, accesses, duplicates (the same
    element in several threads or values), whether the domain is covered exactly, and the share
    of accesses that are distinct.

    Pre:  as :func:`atom_summary`. Post: keys ``a``, ``b``, ``c``; ``duplicates == total - unique``.

    >>> from cutepy import mma_atom
    >>> r = operand_analysis(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    >>> r["a"].coverage_ok, r["a"].domain_size, r["c"].duplicates
    (True, 256, 0)
    """
    a = _atom(atom, "operand_analysis")
    M, N, K = (int(x) for x in a.shape_mnk)
    return {"a": _coverage(a.tv_layout_A, M * K), "b": _coverage(a.tv_layout_B, N * K),
            "c": _coverage(a.tv_layout_C, M * N)}


__all__ = [
    "AliasingProfile",
    "AtomSummary",
    "BankConflicts",
    "CoalescingEfficiency",
    "CoalescingReport",
    "Footprint",
    "GapProfile",
    "GmemInstruction",
    "OperandCoverage",
    "PerGroup",
    "SegmentAnalysis",
    "ThreadStrideProfile",
    "aliasing_profile",
    "analyze_gmem_copy",
    "atom_summary",
    "bank_conflicts",
    "coalescing",
    "coalescing_efficiency",
    "contiguity",
    "cycles",
    "fixed_points",
    "footprint",
    "gap_profile",
    "gmem_access",
    "image",
    "is_bijective",
    "is_contiguous",
    "is_even_permutation",
    "is_injective",
    "is_surjective",
    "mode_contiguity",
    "offset_table",
    "operand_analysis",
    "order",
    "per_group_bank_conflicts",
    "per_group_coalescing",
    "permutation_parity",
    "segment_analysis",
    "slice_contiguity",
    "thread_stride_profile",
]
