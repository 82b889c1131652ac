"""cutepy.banks.warp: the H100 wavefront rule against 100 measured instructions and its laws."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cutepy.banks import analyze
from cutepy.banks.strategies import lane_addresses, warp_instructions
from cutepy.banks.warp import pairing, wavefronts_batch
from cutepy.core.errors import CutepyError

SAMPLES = json.loads((Path(__file__).parents[1] / "data" / "smem_bank_samples.json").read_text())["records"]


def _kw(op: str, width: int, matrices: int | None = None) -> dict:
    if op in ("ldmatrix", "stmatrix"):
        return {"matrices": matrices if matrices is not None else width}
    return {"bytes": width}


def reference_wavefronts(op: str, width: int, matrices: int | None, addrs: list[int]) -> tuple[int, int]:
    """The rule of tests/data/smem_banks.md, written out independently (byte by byte)."""
    if op in ("ldmatrix", "stmatrix"):
        groups = [list(range(8 * j, 8 * j + 8)) for j in range(matrices)]
        size = 16
    else:
        n = {8: 2, 16: 4}.get(width, 1)
        if op == "ld" and n > 1 and (all(addrs[t] == addrs[t ^ 1] for t in range(32))
                                     or all(addrs[t] == addrs[t ^ 2] for t in range(32))):
            n //= 2
        groups = [list(range(32 // n * j, 32 // n * (j + 1))) for j in range(n)]
        size = width
    total = 0
    for lanes in groups:
        words = {(addrs[t] + b) // 4 for t in lanes for b in range(size)}
        total += max(sum(1 for w in words if w % 32 == bank) for bank in range(32))
    return total, len(groups)


@pytest.mark.parametrize("k", range(len(SAMPLES)))
def test_every_measured_instruction_is_reproduced(k: int) -> None:
    rec = SAMPLES[k]
    r = analyze(rec["addresses"], rec["op"], **_kw(rec["op"], rec["width"]))
    assert r.wavefronts == rec["measured"]["wavefronts"], rec["what"]
    assert r.bank_conflicts == rec["measured"]["bank_conflicts"], rec["what"]
    assert r.ideal == rec["measured"]["wavefronts"] - rec["measured"]["bank_conflicts"]


def test_samples_cover_every_instruction_kind() -> None:
    kinds = {(r["op"], r["width"]) for r in SAMPLES}
    assert {("ld", w) for w in (1, 2, 4, 8, 16)} <= kinds
    assert {("st", w) for w in (1, 2, 4, 8, 16)} <= kinds
    assert {(op, n) for op in ("ldmatrix", "stmatrix") for n in (1, 2, 4)} <= kinds


@given(warp_instructions())
def test_model_equals_the_rule_written_out(instr) -> None:
    op, width, matrices, addrs = instr
    r = analyze(addrs, op, **_kw(op, width, matrices))
    assert (r.wavefronts, r.phases) == reference_wavefronts(op, width, matrices, addrs)


@given(st.lists(warp_instructions(), min_size=1, max_size=4))
def test_batch_equals_one_by_one(instrs) -> None:
    for op, width, matrices, addrs in instrs:
        r = analyze(addrs, op, **_kw(op, width, matrices))
        batch = wavefronts_batch(np.array([addrs, addrs]), op, width, matrices)
        assert batch.tolist() == [[r.wavefronts, r.phases]] * 2


@given(warp_instructions())
def test_wavefronts_at_least_phases_and_at_most_words(instr) -> None:
    op, width, matrices, addrs = instr
    r = analyze(addrs, op, **_kw(op, width, matrices))
    assert r.wavefronts >= r.phases >= 1
    assert r.bank_conflicts == r.wavefronts - r.phases
    for p in r.phase_costs:
        size = 16 if matrices else width
        words = {(addrs[t] + b) // 4 for t in p.lanes for b in range(size)}
        assert -(-len(words) // 32) <= p.wavefronts <= len(words)
        assert len(p.bank_words) == p.wavefronts and all(w % 32 == p.bank for w in p.bank_words)


@given(st.sampled_from([1, 2, 4, 8, 16]), st.data())
def test_permuting_lanes_within_a_phase_changes_nothing(width, data) -> None:
    addrs = data.draw(lane_addresses(width))
    per = {8: 16, 16: 8}.get(width, 32)
    perm = data.draw(st.permutations(range(per)))
    phase = data.draw(st.integers(0, 32 // per - 1))
    moved = list(addrs)
    for i, j in enumerate(perm):
        moved[phase * per + i] = addrs[phase * per + j]
    for op in ("ld", "st"):
        assume(op == "st" or (pairing(op, width, addrs) == 0 and pairing(op, width, moved) == 0))
        assert analyze(moved, op, bytes=width).wavefronts == analyze(addrs, op, bytes=width).wavefronts


@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 255))
def test_one_address_broadcast_costs_one_wavefront_per_phase(width, slot) -> None:
    addrs = [slot * width] * 32
    for op in ("ld", "st"):
        r = analyze(addrs, op, bytes=width)
        assert r.bank_conflicts == 0
        assert r.wavefronts == r.phases
    # loads pair lanes: 8 bytes in one phase, 16 bytes in two; stores do not
    assert analyze(addrs, "ld", bytes=width).phases == {8: 1, 16: 2}.get(width, 1)
    assert analyze(addrs, "st", bytes=width).phases == {8: 2, 16: 4}.get(width, 1)


@given(warp_instructions(), st.integers(1, 64))
def test_moving_the_whole_warp_by_whole_bank_rows_changes_nothing(instr, k) -> None:
    op, width, matrices, addrs = instr
    kw = _kw(op, width, matrices)
    assert analyze([a + 128 * k for a in addrs], op, **kw).wavefronts == analyze(addrs, op, **kw).wavefronts


@given(st.sampled_from(["ldmatrix", "stmatrix"]), st.sampled_from([1, 2]), st.data())
def test_matrix_lanes_past_the_last_matrix_are_ignored(op, n, data) -> None:
    addrs = data.draw(lane_addresses(16))
    rest = data.draw(st.lists(st.integers(0, 255), min_size=32 - 8 * n, max_size=32 - 8 * n))
    other = addrs[: 8 * n] + [16 * x for x in rest]
    assert analyze(other, op, matrices=n).phase_costs == analyze(addrs, op, matrices=n).phase_costs


def test_inactive_lanes_and_phases() -> None:
    r = analyze([0, 128] + [None] * 30, "ld", bytes=16)
    assert (r.phases, r.wavefronts, r.phase_costs[0].lanes) == (1, 2, (0, 1))
    assert analyze([None] * 32, "st", bytes=4).wavefronts == 0


def test_the_report_names_the_worst_bank_and_its_lanes() -> None:
    addrs = [0, 128, 256, 384, 512] + [4 * t for t in range(5, 32)]   # sample "kway" ld 4 B
    r = analyze(addrs, "ld", bytes=4)
    p = r.phase_costs[0]
    assert (p.bank, p.bank_lanes, p.bank_words) == (0, (0, 1, 2, 3, 4), (0, 32, 64, 96, 128))
    text = str(r)
    assert "ld 4 B: 5 wavefronts, ideal 1, 4 bank conflicts (1 phase)" in text
    assert "0-4" in text


@pytest.mark.parametrize("args, kw, what", [
    ([0] * 31, {"bytes": 4}, "32 lanes"),
    ([2] + [0] * 31, {"bytes": 4}, "aligned"),
    ([0] * 32, {"bytes": 3}, "bytes per lane"),
    ([-4] + [0] * 31, {"bytes": 4}, "non-negative"),
    ([0] * 32, {"bytes": 4, "matrices": 1}, "not matrices"),
    (5, {"bytes": 4}, "sequence"),
])
def test_bad_instructions_are_refused(args, kw, what) -> None:
    with pytest.raises(CutepyError, match=what):
        analyze(args, "ld", **kw)


def test_bad_matrix_instructions_are_refused() -> None:
    with pytest.raises(CutepyError, match="matrices"):
        analyze([0] * 32, "ldmatrix", matrices=3)
    with pytest.raises(CutepyError, match="row address"):
        analyze([None] * 32, "ldmatrix", matrices=1)
    with pytest.raises(CutepyError, match="op must be"):
        analyze([0] * 32, "ldg", bytes=4)
