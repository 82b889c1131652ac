"""Design sweeps: every legal SM90 mainloop design in a space the user bounds, each with costs
computed exactly from the design (no timing model), in a table to sort and filter.

Layered above :mod:`cutepy.builders.sm90`: a design is what :func:`collective_builder` returns
for one (tile, cluster, schedule, stage count); the sweep calls it through a cache of the parts
that do not depend on the stage count, so 10^4 designs take seconds. The row of CUTLASS's own pick
(``KernelScheduleAuto``, ``StageCountAuto``, the tile and cluster the user names) is marked.

Columns (per design; one CTA computes one ``tile_m x tile_n`` output tile):

- ``smem_bytes``: ``sizeof`` the mainloop's ``SharedStorage``; ``stages``.
- ``threads``: a producer warp group plus the consumer warp groups (cooperative and ping-pong
  two, basic warp-specialized one; cp.async ``KernelCpAsyncWarpSpecialized`` two producers).
- ``acc_registers``: 32-bit registers per consumer thread holding the accumulator fragment
  (``tile_m * tile_n * bits(acc) / 32`` over the threads sharing a tile: 256 cooperative,
  128 otherwise); ``a_registers``: the A fragment of an RS GMMA for one k-block.
- ``ctas_per_sm``: CTAs an SM holds at once, bounded by shared memory (233472 bytes per SM, 1 KB
  reserved per CTA) and by the registers the fragments alone take (65536 per SM, in
  warp-granular allocations of 8 registers per thread); a lower bound on what the compiler
  needs, so an upper bound on occupancy.
- ``tma_boxes_per_stage``: TMA copies a CTA issues per stage for A and B (each box at most 256
  rows and, swizzled, one swizzle row of bytes along the contiguous mode), ``None`` for cp.async.
- ``gmem_sectors_per_row``: 32-byte sectors one TMA box row touches along the contiguous mode
  of A (then B); for cp.async, the sectors one warp's instruction touches.
- ``bank_wavefronts_per_stage``: shared-memory wavefronts of the warp instructions that write a
  stage (cp.async, counted with :mod:`cutepy.banks`' measured model) or the ideal 128 bytes per
  wavefront of TMA's bulk writes; GMMA's own reads of its canonical layouts are not warp
  instructions and are not counted.
- ``waste``: the fraction of MMA work spent on padding at the problem's edges,
  ``1 - M*N / (ceil(M/tile_m)*tile_m * ceil(N/tile_n)*tile_n)``; ``tiles``: CTAs the problem needs.

>>> t = sweep((4096, 4096, 4096), "half_t", "RowMajor", "half_t", "ColumnMajor", "float",
...           tile_shapes=[(128, 128, 64), (128, 256, 64)], cluster_shapes=[(1, 2, 1)],
...           stage_counts=["auto", 3])
>>> len(t), t.cutlass_pick()["stages"]
(12, 7)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape
from typing import Any

from ..banks import analyze_copy
from ..core.errors import CutepyError
from ..core.lazy import load
from ..kernels.pointer import element_bits
from .selectors import SM90_SMEM_CAPACITY_BYTES, canonical_element
from .sm90 import CollectiveMma, CopyOp, collective_builder, recluster, restage

pandas = load("pandas")  # optional (DesignTable.to_pandas): loaded on first use

__all__ = ["DesignTable", "sweep"]

SM90_SMEM_PER_SM = 233472
SMEM_RESERVED_PER_CTA = 1024
REGISTERS_PER_SM = 65536
MAX_CTAS_PER_SM = 32

DEFAULT_TILES = tuple(
    (m, n, k)
    for m in (64, 128, 192, 256)
    for n in (32, 64, 96, 128, 160, 192, 224, 256)
    for k in (32, 64, 128)
)
DEFAULT_CLUSTERS = ((1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1), (1, 4, 1), (4, 1, 1))
DEFAULT_SCHEDULES = (
    "KernelTmaWarpSpecialized",
    "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpong",
)
DEFAULT_STAGES = ("auto", 2, 3, 4, 5, 6, 7, 8)

COLUMNS = (
    "tile_m",
    "tile_n",
    "tile_k",
    "cluster_m",
    "cluster_n",
    "schedule",
    "stage_count",
    "stages",
    "mma",
    "smem_atom_a",
    "smem_atom_b",
    "smem_bytes",
    "threads",
    "acc_registers",
    "a_registers",
    "ctas_per_sm",
    "tma_boxes_per_stage",
    "gmem_sectors_per_row",
    "bank_wavefronts_per_stage",
    "tiles",
    "waste",
    "cutlass_pick",
)


def _atom_name(atom: Any) -> str:
    text = str(atom)
    sw = text.split(" o ")[0]
    width = {"Sw<0,4,3>": "INTER", "Sw<1,4,3>": "SW32", "Sw<2,4,3>": "SW64", "Sw<3,4,3>": "SW128"}.get(sw, sw)
    inner = text.split(" o ")[-1]
    major = "K" if inner.endswith(",1)") else "MN"
    return f"{major}_{width}"


def _box_rows(smem_atom: Any, mn: int, k: int, k_major: bool, bits: int) -> tuple[int, int]:
    """(TMA boxes per tile, bytes of one box row along the contiguous mode)."""
    name = _atom_name(smem_atom)
    row_bytes = {"INTER": 16, "SW32": 32, "SW64": 64, "SW128": 128}[name.split("_")[1]]
    contiguous = k if k_major else mn
    other = mn if k_major else k
    inner = min(
        contiguous * bits // 8, row_bytes if name.split("_")[1] != "INTER" else contiguous * bits // 8
    )
    inner_elems = max(1, inner * 8 // bits)
    boxes = math.ceil(contiguous / inner_elems) * math.ceil(other / 256)
    return boxes, inner


def _warp_sectors(copy: Any, bits: int) -> int:
    """32-byte sectors one warp's cp.async instruction touches: its 32 threads laid along the gmem
    rows of the tiled copy (``threads_major`` per row, ``vector`` elements each)."""
    thr, val = copy.origin[1], copy.origin[2]
    k_major = thr.stride[1] == 1
    major = thr.shape[1] if k_major else thr.shape[0]
    vector_bytes = (val.shape[1] if k_major else val.shape[0]) * bits // 8
    per_row = min(32, major)
    return (32 // per_row) * -(-per_row * vector_bytes // 32)


def _registers(n: int) -> int:
    return -(-n // 8) * 8


@dataclass(frozen=True)
class DesignTable:
    """Rows of a sweep (dicts keyed by :data:`COLUMNS`): sortable and filterable, shown as an HTML
    table in a notebook, and a pandas DataFrame with :meth:`to_pandas` where pandas is installed.

    >>> t = DesignTable((dict(a=2, cutlass_pick=False), dict(a=1, cutlass_pick=True)), ("a", "cutlass_pick"))
    >>> [r["a"] for r in t.sort("a")], t.cutlass_pick()["a"]
    ([1, 2], 1)
    """

    rows: tuple
    columns: tuple = COLUMNS

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Any:
        return iter(self.rows)

    def __getitem__(self, i: int) -> dict:
        return self.rows[i]

    def sort(self, *keys: str, reverse: bool = False) -> DesignTable:
        """The rows ordered by ``keys`` (``None`` values last)."""
        for k in keys:
            if k not in self.columns:
                raise CutepyError(f"DesignTable.sort: no column {k!r}; columns: {', '.join(self.columns)}")
        rows = sorted(
            self.rows,
            key=lambda r: tuple((r[k] is None, r[k] if r[k] is not None else 0) for k in keys),
            reverse=reverse,
        )
        return DesignTable(tuple(rows), self.columns)

    def filter(self, predicate: Callable[[dict], bool] | None = None, **equal: Any) -> DesignTable:
        """The rows for which ``predicate(row)`` holds and each ``column=value`` matches."""
        for k in equal:
            if k not in self.columns:
                raise CutepyError(f"DesignTable.filter: no column {k!r}; columns: {', '.join(self.columns)}")
        rows = [
            r
            for r in self.rows
            if all(r[k] == v for k, v in equal.items()) and (predicate is None or predicate(r))
        ]
        return DesignTable(tuple(rows), self.columns)

    def head(self, n: int = 10) -> DesignTable:
        return DesignTable(self.rows[:n], self.columns)

    def cutlass_pick(self) -> dict:
        """The row CUTLASS's builder would pick (``KernelScheduleAuto``, ``StageCountAuto``)."""
        for r in self.rows:
            if r["cutlass_pick"]:
                return r
        raise CutepyError(
            "DesignTable.cutlass_pick: the table holds no row of CUTLASS's pick (filtered out?)"
        )

    def to_pandas(self) -> Any:
        """The rows as a ``pandas.DataFrame`` (pandas must be installed)."""
        return pandas.DataFrame(list(self.rows), columns=list(self.columns))

    def __repr__(self) -> str:
        shown = self.rows[:20]
        widths = {c: max(len(c), *(len(str(r[c])) for r in shown)) if shown else len(c) for c in self.columns}
        lines = ["  ".join(c.ljust(widths[c]) for c in self.columns)]
        lines += ["  ".join(str(r[c]).ljust(widths[c]) for c in self.columns) for r in shown]
        if len(self.rows) > len(shown):
            lines.append(f"... {len(self.rows) - len(shown)} more rows")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(c)}</th>" for c in self.columns)
        body = []
        for r in self.rows[:50]:
            style = ' style="font-weight:bold;background:#fff3c4"' if r["cutlass_pick"] else ""
            body.append(
                f"<tr{style}>" + "".join(f"<td>{escape(str(r[c]))}</td>" for c in self.columns) + "</tr>"
            )
        more = f"<p>{len(self.rows) - 50} more rows</p>" if len(self.rows) > 50 else ""
        return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{more}"


def _bank_wavefronts(c: CollectiveMma) -> int:
    """Wavefronts of one stage's writes: cp.async warp instructions counted by the measured model,
    TMA's bulk writes at 128 bytes a wavefront."""
    total = 0
    for copy, smem, elem, mn in (
        (c.gmem_tiled_copy_a, c.smem_layout_a, c.element_a, c.tile_shape[0]),
        (c.gmem_tiled_copy_b, c.smem_layout_b, c.element_b, c.tile_shape[1]),
    ):
        if isinstance(copy, CopyOp):
            total += -(-mn * c.tile_shape[2] * element_bits(elem) // 8 // 128)
        else:
            total += _cp_async_wavefronts(copy, smem)
    return total


def _flat_size(x: Any) -> int:
    if isinstance(x, tuple):
        out = 1
        for y in x:
            out *= _flat_size(y)
        return out
    return x


def _cp_async_wavefronts(copy: Any, smem: Any) -> int:
    stage = smem(None, None, 0)
    report = analyze_copy(copy, dst=stage)
    return int(report.wavefronts)


def sweep(
    problem: tuple,
    element_a: str,
    layout_a: str,
    element_b: str,
    layout_b: str,
    element_accumulator: str,
    *,
    tile_shapes: Iterable[tuple] = DEFAULT_TILES,
    cluster_shapes: Iterable[tuple] = DEFAULT_CLUSTERS,
    schedules: Iterable[str] = DEFAULT_SCHEDULES,
    stage_counts: Iterable[Any] = DEFAULT_STAGES,
    alignment_a: int | None = None,
    alignment_b: int | None = None,
    pick: tuple | None = None,
) -> DesignTable:
    """Every legal SM90 mainloop design for ``problem = (M, N, K)`` in the bounded space (each
    tile shape x cluster shape x kernel schedule x stage count that CUTLASS's builder accepts),
    with its costs (see the module's docstring), and CUTLASS's own pick marked.

    ``pick``: the ``(tile_shape, cluster_shape)`` whose ``KernelScheduleAuto``/``StageCountAuto``
    build is CUTLASS's pick (default: the first tile and cluster shapes given); that row is
    added if the space does not hold it. Alignments default to 16 bytes (TMA's).

    Pre:  ``problem`` is three positive ints; the element and layout names are CUTLASS's (else
          ``CutepyError``).
    Post: one row per legal design; exactly one row has ``cutlass_pick``, and its members equal
          :func:`collective_builder`'s for ``KernelScheduleAuto`` and ``"auto"`` stages.

    >>> t = sweep((512, 512, 512), "half_t", "RowMajor", "half_t", "ColumnMajor", "float",
    ...           tile_shapes=[(128, 128, 64)], cluster_shapes=[(1, 1, 1)], stage_counts=["auto"])
    >>> [(r["schedule"], r["stages"], r["smem_bytes"])
    ...  for r in t.sort("schedule")]  # doctest: +NORMALIZE_WHITESPACE
    [('KernelTmaWarpSpecialized', 7, 229504), ('KernelTmaWarpSpecializedCooperative', 7, 229504),
     ('KernelTmaWarpSpecializedPingpong', 7, 229504)]
    """
    if not (
        isinstance(problem, tuple) and len(problem) == 3 and all(type(x) is int and x > 0 for x in problem)
    ):
        raise CutepyError(f"sweep: problem is (M, N, K), three positive ints, not {problem!r}")
    ea, eb, acc = (
        canonical_element(element_a),
        canonical_element(element_b),
        canonical_element(element_accumulator),
    )
    al_a = alignment_a or 128 // element_bits(ea)
    al_b = alignment_b or 128 // element_bits(eb)
    tiles, clusters = list(tile_shapes), list(cluster_shapes)
    schedules, stage_counts = list(schedules), list(stage_counts)
    if pick is None:
        pick = (tiles[0], clusters[0])
    memo: dict = {}

    def make(tile: tuple, cluster: tuple, schedule: str, stages: Any) -> CollectiveMma:
        """CUTLASS's builder for this problem's types and layouts at one point of the space."""
        return collective_builder("Sm90", "OpClassTensorOp", ea, layout_a, al_a, eb, layout_b, al_b, acc,
                                  tile, cluster, stages, schedule)

    def build(tile: tuple, cluster: tuple, schedule: str, stages: Any) -> CollectiveMma:
        key = (tile, cluster, schedule)
        if key not in memo:
            first = (tile, schedule)  # the cluster changes only the copies' multicast: build once per tile
            if first not in memo:
                try:
                    memo[first] = make(tile, cluster, schedule, "auto")
                except CutepyError as e:
                    memo[first] = e
            made = memo[first]
            memo[key] = made if isinstance(made, CutepyError) else recluster(made, cluster)
        base = memo[key]
        if isinstance(base, CutepyError):
            if type(stages) is int:  # a fixed count can make a design legal that auto's count refused
                return make(tile, cluster, schedule, stages)
            raise base
        if stages == "auto":
            return base
        if isinstance(stages, tuple):
            return make(tile, cluster, schedule, stages)
        return restage(base, stages)

    fixed: dict = {}
    pick_c = make(pick[0], pick[1], "KernelScheduleAuto", "auto")  # CUTLASS's own choice
    rows = []
    seen_pick = False
    for tile in tiles:
        for cluster in clusters:
            for schedule in schedules:
                for stages in stage_counts:
                    try:
                        c = build(tile, cluster, schedule, stages)
                    except CutepyError:
                        continue
                    if c.shared_storage_bytes > SM90_SMEM_CAPACITY_BYTES:
                        continue  # C++ compiles it, but no SM90 CTA can hold its shared memory
                    is_pick = (tile, cluster) == pick and schedule == pick_c.schedule and stages == "auto"
                    seen_pick |= is_pick
                    rows.append(_row(problem, c, stages, acc, is_pick, fixed))
    if not seen_pick:
        rows.append(_row(problem, pick_c, "auto", acc, True, fixed))
    return DesignTable(tuple(rows))


def _row(problem: tuple, c: CollectiveMma, stage_count: Any, acc: str, is_pick: bool, cache: dict) -> dict:
    m, n, _ = problem
    tm, tn, tk = c.tile_shape
    key = (c.builder, c.schedule, c.tile_shape, c.cluster_shape, c.smem_layout_atom_a, c.smem_layout_atom_b)
    fixed = cache.get(key)
    if fixed is None:
        fixed = _fixed(c, acc)
        cache[key] = fixed
    tiles = math.ceil(m / tm) * math.ceil(n / tn)
    waste = 1 - (m * n) / (math.ceil(m / tm) * tm * math.ceil(n / tn) * tn)
    by_smem = SM90_SMEM_PER_SM // (c.shared_storage_bytes + SMEM_RESERVED_PER_CTA)
    regs = _registers(fixed["acc_registers"] + fixed["a_registers"])
    by_regs = REGISTERS_PER_SM // (regs * fixed["threads"]) if regs else MAX_CTAS_PER_SM
    return dict(
        tile_m=tm,
        tile_n=tn,
        tile_k=tk,
        cluster_m=c.cluster_shape[0],
        cluster_n=c.cluster_shape[1],
        schedule=c.schedule,
        stage_count=stage_count,
        stages=c.stages,
        mma=fixed["mma"],
        smem_atom_a=fixed["atom_a"],
        smem_atom_b=fixed["atom_b"],
        smem_bytes=c.shared_storage_bytes,
        threads=fixed["threads"],
        acc_registers=fixed["acc_registers"],
        a_registers=fixed["a_registers"],
        ctas_per_sm=min(by_smem, by_regs, MAX_CTAS_PER_SM),
        tma_boxes_per_stage=fixed["boxes"],
        gmem_sectors_per_row=fixed["sectors"],
        bank_wavefronts_per_stage=fixed["wavefronts"],
        tiles=tiles,
        waste=round(waste, 6),
        cutlass_pick=is_pick,
    )


def _fixed(c: CollectiveMma, acc: str) -> dict:
    tm, tn, tk = c.tile_shape
    cooperative = "Cooperative" in c.schedule
    consumers = 2 if ("Cooperative" in c.schedule or "Pingpong" in c.schedule) else 1
    producers = 2 if c.schedule == "KernelCpAsyncWarpSpecialized" else 1
    threads = 128 * (consumers + producers)
    sharing = 256 if cooperative and c.tiled_mma.size == 256 else 128
    acc_regs = tm * tn * element_bits(acc) // 32 // sharing
    a_regs = 0
    if c.builder.endswith("RS"):
        a_regs = tm * c.tiled_mma.atom.shape_mnk[2] * element_bits(c.element_a) // 32 // sharing
    bits_a, bits_b = element_bits(c.element_a), element_bits(c.element_b)
    if isinstance(c.gmem_tiled_copy_a, CopyOp):
        ba, ia = _box_rows(c.smem_layout_atom_a, tm, tk, c.layout_a == "RowMajor", bits_a)
        bb, ib = _box_rows(c.smem_layout_atom_b, tn, tk, c.layout_b == "ColumnMajor", bits_b)
        boxes: int | None = ba + bb
        sectors: Any = (-(-ia // 32), -(-ib // 32))
    else:
        boxes = None
        sectors = (_warp_sectors(c.gmem_tiled_copy_a, bits_a), _warp_sectors(c.gmem_tiled_copy_b, bits_b))
    return dict(
        mma=c.tiled_mma.atom.name,
        atom_a=_atom_name(c.smem_layout_atom_a),
        atom_b=_atom_name(c.smem_layout_atom_b),
        threads=threads,
        acc_registers=acc_regs,
        a_registers=a_regs,
        boxes=boxes,
        sectors=sectors,
        wavefronts=_bank_wavefronts(c),
    )
