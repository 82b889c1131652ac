"""benchmarks/bench_designs.py's sweep, checked (not timed): what it keeps across designs (built
parts, partitions, bank reports, plans, folded layouts) changes no design's result, refusals
included, and its shares deal every design to exactly one worker."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_designs.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_designs", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kept_parts_change_no_result(bench):
    points = bench.designs(48, seed=5)
    for c in bench.BUILDERS.values():
        c.cache_clear()
    warm, _, counts = bench.check_share(points, False)
    cold, _, _ = bench.check_share(points, True)  # every part built anew for each design
    assert warm == cold
    assert any(r.reason for r in warm) and any(r.ok for r in warm)  # refusals and passes both met
    assert counts["partitions", "miss"] + counts.get(("partitions", "hit"), 0) >= 2 * len(points) - 10


def test_shares_deal_every_design_once(bench):
    points = bench.designs(300, seed=7)
    groups = bench.tile_groups(points)
    assert sorted(i for g in groups for i in g) == list(range(len(points)))
    assert all(len({(points[i].swizzle_bits, points[i].tile[0], points[i].tile[2]) for i in g}) == 1
               for g in groups)
    for jobs in (1, 2, 3):
        parts = bench.shares(points, jobs)
        assert sorted(i for p in parts for i in p) == list(range(len(points)))
        tiles = [{(points[i].swizzle_bits, points[i].tile[0], points[i].tile[2]) for i in p} for p in parts]
        assert all(not (a & b) for k, a in enumerate(tiles) for b in tiles[k + 1:])  # no tile in two shares
