"""Every TMEM load/store op of C++ 4.7 (16dp256b, 16dp128b, 16dp64b, 16dp32b, 32dp32b; repetitions,
``_16b`` packing, stores, LOAD_STAT) through ``make_tmem_copy`` over UMMA accumulators, against C++'s
stored prints (tests/data/tmem_ops_cxx.txt, made by tests/kernels/tmem_ops_cxx.py): the TiledCopy with
its Copy_Atom, and the partitions of threads 0, 1, 37 and 127; cases C++ refuses cutepy refuses.
CI checks a seeded sample; ``-m slow`` checks every stored case."""

from __future__ import annotations

import random
import re

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout, size
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tmem import make_tmem_frg
from cutepy.kernels.tmem_copy import (
    TMEM_COPY_OPS,
    TMEM_SHAPES,
    make_tmem_copy,
    op_repeater,
    tmem_copy_atom,
    tmem_load_to_store,
)
from tests.kernels import tmem_ops_cxx as T

STORED = T.read() if T.FILE.is_file() else {}
CASES = T.cases()
SAMPLE = random.Random(2026).sample(CASES, 40)


def build(c: tuple) -> dict[str, str] | Exception:
    """cutepy's prints of one case (as tmem_ops_cxx.cxx_case prints C++'s), or its CutepyError."""
    op, t, st, n_sm, alloc, shape = c
    try:
        acc = make_tmem_frg(t, shape, n_sm, st, alloc)
        gC = make_tensor(gmem_ptr(t, 0x10000), Layout(acc.layout.shape))
        cp = make_tmem_copy(op, acc)
        src, dst = (acc, gC) if "STORE" not in op else (gC, acc)
        out = {"TILED": str(cp)}
        for thr in T.THREADS:
            s = cp.get_slice(thr)
            out[f"S{thr}"], out[f"D{thr}"] = str(s.partition_S(src)), str(s.partition_D(dst))
        return out
    except CutepyError as e:
        return e


def _check(c: tuple) -> str:
    want = STORED[T.key(c)]
    got = build(c)
    if "REFUSED" in want:
        assert isinstance(got, Exception), f"C++ refuses {T.key(c)} ({want['REFUSED']}); cutepy built it"
        return "refused"
    assert not isinstance(got, Exception), f"cutepy refuses {T.key(c)}: {got}"
    assert got == want
    return "exact"


@pytest.mark.skipif(not STORED, reason="tests/data/tmem_ops_cxx.txt is missing")
@pytest.mark.parametrize("c", SAMPLE, ids=T.key)
def test_tmem_op_equals_cxx(c: tuple) -> None:
    _check(c)


@pytest.mark.slow
@pytest.mark.skipif(not STORED, reason="tests/data/tmem_ops_cxx.txt is missing")
def test_every_stored_tmem_op_case_equals_cxx() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        r = _check(c)
        counts[r] = counts.get(r, 0) + 1
    assert sum(counts.values()) == len(CASES) and len(STORED) == len({T.key(c) for c in CASES})
    assert counts["exact"] > 250 and counts["refused"] > 100


@pytest.mark.skipif(not T.TRAITS_FILE.is_file(), reason="tests/data/tmem_traits_cxx.txt is missing")
def test_every_op_has_cxx_traits() -> None:
    """ThrID, ValID, SrcLayout, DstLayout, RefLayout of all 150 ops as C++ 4.7 prints them."""
    want = T.read_traits()
    assert sorted(want) == sorted(TMEM_COPY_OPS)
    for op in TMEM_COPY_OPS:
        a = tmem_copy_atom(op, 32)
        got = [a.thr_id, a.val_id, a.layout_src_tv_bits, a.layout_dst_tv_bits, a.layout_ref_tv_bits]
        assert [str(x) for x in got] == want[op], op


def test_every_op_is_drawn() -> None:
    assert {c[0] for c in CASES} == set(TMEM_COPY_OPS)
    assert len(TMEM_COPY_OPS) == 150


ONE_X = [o for o in TMEM_COPY_OPS if "b1x" in o and "STAT" not in o]


@pytest.mark.parametrize("op", ONE_X)
def test_op_repeater_picks_the_widest_repetition_that_divides(op: str) -> None:
    """C++'s rule, read off copy_traits_sm100.hpp: the largest N whose N x (bits of one lane of the
    1x op) divides bits_n; the chosen atom then spans that many bits of one lane."""
    unit = size(tmem_copy_atom(op, 32).val_id[0])  # logical bits of one lane of the 1x op (ValID mode 0)
    shape = re.search(r"\d+dp\d+b", op).group(0)
    for bits_n in (unit, 3 * unit, 8 * unit, 24 * unit, 1 << 20):
        got = op_repeater(op, bits_n)
        n = max(r for r in TMEM_SHAPES[shape] if bits_n % (unit * r) == 0)
        assert got == op.replace("b1x", f"b{n}x")
        assert got in TMEM_COPY_OPS
    with pytest.raises(CutepyError, match="selects no op"):
        op_repeater(op, unit // 2)


def test_op_repeater_refusals() -> None:
    with pytest.raises(CutepyError, match="1x tmem copy operator"):
        op_repeater("SM100_TMEM_LOAD_16dp256b2x", 4096)
    with pytest.raises(CutepyError, match="unknown TMEM copy atom"):
        op_repeater("SM100_TMEM_LOAD_8dp32b1x", 4096)
    with pytest.raises(CutepyError, match="positive int"):
        op_repeater("SM100_TMEM_LOAD_32dp32b1x", 0)


def test_tmem_load_to_store_swaps_the_atom() -> None:
    for op in TMEM_COPY_OPS:
        if op.startswith("SM100_TMEM_LOAD_") and "STAT" not in op:
            st = tmem_load_to_store(op)
            a, b = tmem_copy_atom(op, 32), tmem_copy_atom(st, 32)
            assert (a.layout_src_tv_bits, a.layout_dst_tv_bits, a.val_id) == (
                b.layout_dst_tv_bits, b.layout_src_tv_bits, b.val_id)
    with pytest.raises(CutepyError, match="No TMEM_STORE"):
        tmem_load_to_store("SM100_TMEM_STORE_32dp32b1x")
    with pytest.raises(CutepyError, match="unknown TMEM copy atom"):
        tmem_copy_atom("SM100_TMEM_LOAD_16dp256b64x", 32)
