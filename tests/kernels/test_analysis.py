"""cutepy.kernels.analysis: every answer equals brute force, and tensor-layouts' where both ask the same.

The brute-force references below evaluate the layout one index at a time (``L(i)``), an
independent path from the numpy enumeration and from the algebra the module uses. Each law
runs on the CI profile's seeded sample; ``test_laws_on_ten_thousand_cases`` (slow) runs every
law on 10**4 seeded cases.
"""

from __future__ import annotations

import contextvars
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy import (
    CutepyError,
    Layout,
    Undecided,
    declare,
    mma_atom,
    subs,
    symbols,
)
from cutepy.banks import AMD_CDNA3_LDS, BankModel, analyze
from cutepy.core import inttuple as it
from cutepy.kernels import analysis as an
from cutepy.strategies import layouts, offset_swizzled_layouts, swizzled_layouts, tiling_layouts

ANY = st.one_of(layouts(negative=True), layouts(), tiling_layouts(), swizzled_layouts(),
                offset_swizzled_layouts())
PLAIN = st.one_of(layouts(negative=True), tiling_layouts())


def brute(L) -> list[int]:
    return [L(i) for i in range(L.size())]


def brute_tv(L) -> list[list[int]]:
    """``[thread][value]`` by single-index evaluation (mode 0 the thread)."""
    n = L.size()
    T = L[0].size() if L.rank() > 1 else n
    return [[L(t + T * v) for v in range(n // T)] for t in range(T)]


# -- 1. a function you can trust -----------------------------------------------------------------


@given(ANY)
def test_injective_image_offset_table_and_aliasing_equal_brute_force(L):
    off = brute(L)
    assert an.is_injective(L) == (len(set(off)) == len(off))
    assert an.image(L) == sorted(set(off))
    table = an.offset_table(L)
    assert list(table) == sorted(set(off))
    for o, coords in table.items():
        assert [i for i, x in enumerate(off) if x == o] == [it.crd2idx(c, L.shape) for c in coords]
    p = an.aliasing_profile(L)
    counts = {o: off.count(o) for o in set(off)}
    assert p.max_alias_ways == max(counts.values())
    assert p.aliased_offsets == sorted(o for o, c in counts.items() if c > 1)
    assert p.duplicate_elements == len(off) - len(counts)
    ways = sorted(set(counts.values()))
    assert p.reuse_histogram == {w: sum(1 for c in counts.values() if c == w) for w in ways}


@given(ANY, st.integers(0, 600))
def test_footprint_surjective_and_bijective_equal_brute_force(L, n):
    off = brute(L)
    f = an.footprint(L)
    assert (f.min_offset, f.max_offset, f.unique_offsets) == (min(off), max(off), len(set(off)))
    assert f.span == max(off) - min(off) + 1 and f.holes == f.span - len(set(off))
    assert an.is_surjective(L) == (set(off) == set(range(min(off), max(off) + 1)))
    assert an.is_surjective(L, n) == (set(off) == set(range(n)))
    assert an.is_bijective(L) == (len(set(off)) == len(off) == max(off) - min(off) + 1)
    assert an.is_bijective(L, n) == (sorted(off) == list(range(n)))
    assert an.is_contiguous(L) == an.is_bijective(L)


@given(ANY)
def test_gap_profile_equals_brute_force(L):
    img = sorted(set(brute(L)))
    runs, start = [], img[0]
    for a, b in zip(img, img[1:]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    runs.append((start, img[-1]))
    g = an.gap_profile(L)
    assert g.runs == runs
    assert g.gap_sizes == [b[0] - a[1] - 1 for a, b in zip(runs, runs[1:])]
    assert g.isolated_offsets == sum(1 for a, b in runs if a == b)


# -- 3. vectorization ------------------------------------------------------------------------------


def _prefix(off: list[int]) -> int:
    n = 0
    while n < len(off) and off[n] == off[0] + n:
        n += 1
    return n


@given(ANY)
def test_contiguity_is_the_longest_contiguous_prefix(L):
    assert an.contiguity(L) == _prefix(brute(L))


@given(PLAIN, st.data())
def test_mode_and_slice_contiguity_equal_brute_force(L, data):
    r = L.rank()
    assume(r >= 2)
    shapes = [L[i].size() for i in range(r)]
    for i in range(r):
        coord = tuple(None if j == i else 0 for j in range(r))
        free = [L(tuple(it.idx2crd(x, L[i].shape) if j == i else 0 for j in range(r)))
                for x in range(shapes[i])]
        assert an.mode_contiguity(L)[i] == _prefix(free)
        fixed = [data.draw(st.integers(0, s - 1)) for s in shapes]
        coord = tuple(None if j == i else fixed[j] for j in range(r))
        sub = [L(tuple(it.idx2crd(x, L[i].shape) if j == i else fixed[j] for j in range(r)))
               for x in range(shapes[i])]
        assert an.slice_contiguity(L, coord) == _prefix(sub)


@given(ANY)
def test_thread_stride_profile_equals_brute_force(L):
    tv = brute_tv(L)
    p = an.thread_stride_profile(L)
    assert p.thread_count == len(tv) and p.value_count == len(tv[0])
    deltas = [[tv[t + 1][v] - tv[t][v] for t in range(len(tv) - 1)] for v in range(len(tv[0]))]
    assert p.per_value_deltas == deltas
    assert p.per_value_constant_stride == [d[0] if len(set(d)) == 1 else None for d in deltas]
    assert p.is_uniform == (len({x for d in deltas for x in d}) <= 1)


# -- 4. coalescing ----------------------------------------------------------------------------------

E_BYTES = st.sampled_from([1, 2, 4, 8, 16])


@given(tiling_layouts(), E_BYTES, st.sampled_from([0, 128, 4096]), st.sampled_from([8, 16, 32]))
def test_coalescing_counts_sectors_and_lines_of_every_instruction(L, E, base, warp):
    tv = brute_tv(L)
    rep = an.coalescing(L, element_bytes=E, vector_elems=1, base=base, warp_size=warp)
    want = []
    for w in range(math.ceil(len(tv) / warp)):
        for v in range(len(tv[0])):
            addrs = [base + tv[t][v] * E for t in range(w * warp, min(len(tv), (w + 1) * warp))]
            bytes_ = {a + k for a in addrs for k in range(E)}
            want.append((len({b // 32 for b in bytes_}), len({b // 128 for b in bytes_}),
                         math.ceil(len(bytes_) / 32), math.ceil(len(bytes_) / 128)))
    got = [(i.sectors, i.lines, i.min_sectors, i.min_lines) for i in rep.instructions]
    assert got == want
    assert all(s >= m for s, _, m, _ in got)


@given(tiling_layouts(), st.sampled_from([1, 2, 4]))
def test_coalescing_vectors_are_one_instruction_each(L, E):
    """A vector of V consecutive elements per thread moves V*E bytes: the sectors are those of
    its bytes, and the default vector is the widest every thread allows."""
    tv = brute_tv(L)
    V = len(tv[0])
    assume(V * E <= 16 and V & (V - 1) == 0)
    assume(all(row[j] == row[0] + j for row in tv for j in range(V)))
    assume(all(row[0] * E % (V * E) == 0 for row in tv))
    rep = an.coalescing(L, element_bytes=E)
    assert {i.width for i in rep.instructions} == {V * E}
    first = [tv[t][0] * E + k for t in range(min(32, len(tv))) for k in range(V * E)]
    assert rep.instructions[0].sectors == len({b // 32 for b in first})


def test_coalescing_rejects_what_no_instruction_does():
    with pytest.raises(CutepyError, match="element_bytes"):
        an.coalescing(Layout(32), element_bytes=3)
    with pytest.raises(CutepyError, match="not consecutive"):
        an.coalescing(Layout((32, 2), (2, 64)), element_bytes=4, vector_elems=2)
    with pytest.raises(CutepyError, match="aligned"):
        an.coalescing(Layout((32, 2), (3, 1)), element_bytes=4, vector_elems=2)
    with pytest.raises(CutepyError, match="base"):
        an.coalescing(Layout(32), element_bytes=4, base=-4)
    with pytest.raises(CutepyError, match="op"):
        an.coalescing(Layout(32), element_bytes=4, op="cp")
    with pytest.raises(CutepyError, match="layout must be"):
        an.coalescing("32:1", element_bytes=4)
    with pytest.raises(CutepyError, match="negative"):
        an.coalescing(Layout(32, -1), element_bytes=4)


@given(E_BYTES, st.lists(st.one_of(st.none(), st.integers(0, 1 << 14)), min_size=1, max_size=64),
       st.sampled_from(["ld", "st"]))
def test_gmem_access_counts_the_sectors_of_its_lanes_bytes(W, lanes, op):
    addrs = [None if a is None else a * W for a in lanes]
    live = [a for a in addrs if a is not None]
    assume(live)
    r = an.gmem_access(addrs, access_bytes=W, op=op)
    bytes_ = {a + k for a in live for k in range(W)}
    (i,) = r.instructions
    assert (i.sectors, i.lines, i.active_lanes) == (len({b // 32 for b in bytes_}),
                                                    len({b // 128 for b in bytes_}), len(live))
    assert (i.min_sectors, r.requests, r.op) == (math.ceil(len(bytes_) / 32), 1, op)
    assert i.addresses == tuple(-1 if a is None else a for a in addrs)


@given(tiling_layouts(), E_BYTES)
def test_gmem_access_of_each_instruction_is_coalescing_of_the_layout(L, E):
    rep = an.coalescing(L, element_bytes=E, vector_elems=1)
    for i in rep.instructions:
        (j,) = an.gmem_access(i.addresses, access_bytes=i.width).instructions
        assert (j.sectors, j.lines, j.min_sectors, j.unique_bytes) == (i.sectors, i.lines, i.min_sectors,
                                                                       i.unique_bytes)


def test_gmem_access_refuses_bad_lanes():
    for bad, msg in ((5, "sequence"), ([], "len\\(addresses\\)"), ([-4], "addresses\\[0\\]"),
                     ([2.0], "addresses\\[0\\]"), ([True], "addresses\\[0\\]"), ([1 << 60], "2\\*\\*56"),
                     ([0, 6], "addresses\\[1\\] = 6 is not 4-byte aligned"), ([0] * 5000, "len")):
        with pytest.raises(CutepyError, match=msg):
            an.gmem_access(bad, access_bytes=4)
    for W in (3, True, 4.0, 32):
        with pytest.raises(CutepyError, match="access_bytes must be 1, 2, 4, 8 or 16"):
            an.gmem_access([0], access_bytes=W)
    with pytest.raises(CutepyError, match="op"):
        an.gmem_access([0], access_bytes=4, op="red")


def test_a_tiled_copy_over_global_memory_is_costed_per_instruction():
    from cutepy import copy_atom, make_tiled_copy

    cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16), Layout((16, 8), (8, 1)),
                         Layout((1, 8)))
    row = an.analyze_gmem_copy(cp, Layout((16, 64), (64, 1)))
    col = an.analyze_gmem_copy(cp, Layout((16, 64), (1, 16)), base=0) if False else None
    assert row.is_coalesced and row.requests == 4
    # the same copy over a column-major tensor: its 8-element vectors are not contiguous there
    with pytest.raises(CutepyError, match="not consecutive"):
        an.analyze_gmem_copy(cp, Layout((16, 64), (1, 16)))
    del col
    # by brute force: every instruction's sectors
    tv = cp.layout_src_tv_tiled
    for ins in row.instructions:
        lanes = range(32 * ins.warp, 32 * ins.warp + 32)
        bytes_ = {2 * (64 * (i % 16) + i // 16) + k for t in lanes for v in range(8)
                  for i in [tv(t, v)] for k in range(2)}
        assert ins.sectors == len({b // 32 for b in bytes_})
    with pytest.raises(CutepyError, match="src= or dst="):
        an.analyze_gmem_copy(make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout(32), Layout(1)),
                             Layout(32))
    with pytest.raises(CutepyError, match="once"):
        an.analyze_gmem_copy(cp, Layout(16), src=Layout(16))
    with pytest.raises(CutepyError, match="TiledCopy"):
        an.analyze_gmem_copy("copy", Layout(16))


# -- 5. banks ----------------------------------------------------------------------------------------


@given(st.one_of(tiling_layouts(), swizzled_layouts()), st.sampled_from([1, 2, 4, 8, 16]))
def test_bank_conflicts_default_is_the_measured_rule(L, E):
    off = brute_tv(L)
    assume(min(min(r) for r in off) >= 0)
    rep = an.bank_conflicts(L, element_bytes=E, vector_elems=1)
    want = []
    for w in range(math.ceil(len(off) / 32)):
        for v in range(len(off[0])):
            lanes = [off[t][v] * E if t < len(off) else None for t in range(32 * w, 32 * w + 32)]
            want.append(analyze(lanes, "ld", bytes=E).wavefronts)
    assert [r.wavefronts for r in rep.reports] == want


@given(tiling_layouts(), st.sampled_from([8, 16, 32, 64]), st.sampled_from([4, 8]),
       st.sampled_from([1, 2, 4]), st.sampled_from([8, 16, 64]))
def test_a_bank_model_costs_each_phase_by_distinct_words_per_bank(L, banks, width, E, lanes):
    m = BankModel("m", banks=banks, bank_bytes=width, lanes=lanes, lanes_per_phase=min(lanes, 8))
    off = brute_tv(L)
    rep = an.bank_conflicts(L, element_bytes=E, vector_elems=1, model=m)
    want = []
    for w in range(math.ceil(len(off) / lanes)):
        for v in range(len(off[0])):
            cost = 0
            for p in range(lanes // 8 if lanes > 8 else 1):
                ts = [t for t in range(w * lanes + 8 * p, w * lanes + 8 * p + min(lanes, 8)) if t < len(off)]
                words = {(off[t][v] * E) // width for t in ts}
                if ts:
                    cost += max(sum(1 for x in words if x % banks == b) for b in range(banks))
            want.append(cost)
    assert [r.wavefronts for r in rep.reports] == want


def test_amd_lds_phases_are_amds_documented_ones():
    # ds_read_b128 pairs lanes 0-3 with 20-23 in one phase; ds_write_b128 takes 8 consecutive lanes.
    # Lanes 0-3 and 20-23 hit banks 0-15 at different words; every other lane reads one 16-byte
    # word in banks 16-19 (a broadcast)
    addr = [16 * t if t < 4 else 512 + 16 * (t - 20) if 20 <= t < 24 else 8256 for t in range(64)]
    rd = AMD_CDNA3_LDS.analyze(addr, op="ld", bytes=16)
    wr = AMD_CDNA3_LDS.analyze(addr, op="st", bytes=16)
    assert rd.phases == wr.phases == 8
    assert max(p.wavefronts for p in rd.phase_costs) == 2   # 0-3 and 20-23 collide in one read phase
    assert max(p.wavefronts for p in wr.phase_costs) == 1   # written in different phases
    assert [len(g) for g in AMD_CDNA3_LDS.phases("ld", 4)] == [32, 32]
    assert [len(g) for g in AMD_CDNA3_LDS.phases("ld", 8)] == [16] * 4


def test_bank_model_refuses_bad_fields():
    for kw, word in (({"banks": 0}, "banks"), ({"bank_bytes": 2.0}, "bank_bytes"), ({"lanes": -1}, "lanes"),
                     ({"lanes_per_phase": 3}, "lanes_per_phase"),
                     ({"read_phases": {16: ((0,),)}}, "read_phases")):
        with pytest.raises(CutepyError, match=word):
            BankModel("x", **kw)
    with pytest.raises(CutepyError, match="model"):
        an.bank_conflicts(Layout(32), element_bytes=4, model="amd")
    with pytest.raises(CutepyError, match="lanes"):
        AMD_CDNA3_LDS.analyze([0] * 32, bytes=4)


# -- 6. permutations ---------------------------------------------------------------------------------


@given(ANY)
def test_cycles_order_parity_and_fixed_points_equal_brute_force(L):
    off = brute(L)
    assert an.fixed_points(L) == [i for i, o in enumerate(off) if o == i]
    lo = min(off)
    if sorted(off) != list(range(lo, lo + len(off))):
        with pytest.raises(CutepyError, match="not a permutation"):
            an.cycles(L)
        return
    perm = [o - lo for o in off]
    cs = an.cycles(L)
    assert sorted(x for c in cs for x in c) == list(range(len(perm)))
    for c in cs:
        assert all(perm[c[k]] == c[(k + 1) % len(c)] for k in range(len(c)))
    orbit = []
    for i in range(len(perm)):  # the orbit length of every index, by walking it
        j, n = perm[i], 1
        while j != i:
            j, n = perm[j], n + 1
        orbit.append(n)
    assert an.order(L) == math.lcm(*orbit)
    inversions = sum(1 for i in range(len(perm)) for j in range(i + 1, len(perm)) if perm[i] > perm[j])
    assert an.permutation_parity(L) == (1 if inversions % 2 == 0 else -1)
    assert an.is_even_permutation(L) == (inversions % 2 == 0)


# -- symbolic and limits -------------------------------------------------------------------------------


def test_symbolic_layouts_are_answered_by_the_algebra():
    M, N = symbols("M N")
    L = Layout((8, M, N), (1, 16, -16 * M))
    f = an.footprint(L)
    for m, n in ((1, 1), (2, 3), (5, 2)):
        num = subs(L, {M: m, N: n})
        g = an.footprint(num)
        at = {M: m, N: n}
        assert (subs(f.min_offset, at), subs(f.max_offset, at)) == (g.min_offset, g.max_offset)
        assert subs(f.unique_offsets, {M: m, N: n}) == g.unique_offsets
    assert an.is_injective(L)
    with pytest.raises(Undecided, match="M"):      # coalesce needs to know whether M is 1
        an.contiguity(Layout((8, M), (1, 8)))

    def with_m_at_least_2():  # a fact declared in a copied context ends with it
        declare(M, min=2)
        return an.contiguity(Layout((8, M), (1, 8))), an.contiguity(Layout((8, M), (1, 16)))

    assert contextvars.copy_context().run(with_m_at_least_2) == (8 * M, 8)
    with pytest.raises(CutepyError, match="symbolic size"):
        an.image(L)
    with pytest.raises(CutepyError, match="substitute"):   # M - 3 may be negative, zero or 1..3
        an.footprint(Layout((4, 4), (1, M - 3)))


def test_enumeration_stops_at_the_limit_with_a_reason():
    big = Layout((1 << 12, 1 << 11), (1, 1 << 12))
    assert an.is_injective(big)                  # by the algebra: no enumeration
    with pytest.raises(CutepyError, match="enumeration limit"):
        an.image(big)
    assert len(an.image(Layout(64), limit=64)) == 64
    with pytest.raises(CutepyError, match="limit"):
        an.image(Layout(64), limit=0)
    with pytest.raises(CutepyError, match="layout must be"):
        an.is_injective((4, 2))
    with pytest.raises(CutepyError, match="codomain"):
        an.is_surjective(Layout(4), -1)


# -- 7. atoms --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["SM80_16x8x16_F32F16F16F32_TN", "SM70_8x8x4_F16F16F16F16_TN",
                                  "SM80_8x8x4_F64F64F64F64_TN"])
def test_atom_summary_and_operand_analysis_equal_brute_force(name):
    a = mma_atom(name)
    M, N, K = a.shape_mnk
    s = an.atom_summary(a)
    assert s.threads == a.tv_layout_C[0].size()
    assert s.c_coverage_ok == (sorted(brute(a.tv_layout_C)) == list(range(M * N)))
    r = an.operand_analysis(a)
    for key, L, n in (("a", a.tv_layout_A, M * K), ("b", a.tv_layout_B, N * K), ("c", a.tv_layout_C, M * N)):
        off = brute(L)
        assert r[key].unique_offsets == len(set(off)) and r[key].duplicates == len(off) - len(set(off))
        assert r[key].coverage_ok == (set(off) == set(range(n)))
    with pytest.raises(CutepyError, match="atom must be"):
        an.atom_summary(Layout(4))


# -- tensor-layouts, where it asks the same question ------------------------------------------------------

tl = pytest.importorskip("tensor_layouts")
tla = pytest.importorskip("tensor_layouts.analysis")


def to_tl(L):
    if hasattr(L, "outer"):
        sw = L.outer
        swizzle = tl.Swizzle(sw.bits, sw.base, sw.shift)
        return tl.layouts.expr.ComposedLayout(swizzle, to_tl(L.inner), offset=L.offset)
    return tl.Layout(L.shape, L.stride)


@given(ANY)
def test_structure_answers_equal_tensor_layouts(L):
    T = to_tl(L)
    assert an.is_injective(L) == tla.is_injective(T)
    assert an.image(L) == tla.image(T)
    assert an.is_surjective(L) == tla.is_surjective(T)
    assert an.fixed_points(L) == tla.fixed_points(T)
    f, g = an.footprint(L), tla.footprint(T)
    assert (f.min_offset, f.max_offset, f.span, f.unique_offsets, f.holes) == (
        g["min_offset"], g["max_offset"], g["span"], g["unique_offsets"], g["holes"])
    gp, tg = an.gap_profile(L), tla.gap_profile(T)
    assert (gp.runs, gp.gap_sizes, gp.max_gap) == (tg["runs"], tg["gap_sizes"], tg["max_gap"])
    table = an.offset_table(L)
    assert table == {o: [tuple(c) if isinstance(c, list) else c for c in cs]
                     for o, cs in sorted(tla.offset_table(T).items())}
    p = tla.thread_stride_profile(T)
    assert an.thread_stride_profile(L).per_value_deltas == p["per_value_deltas"]


@given(PLAIN)
def test_plain_layout_answers_equal_tensor_layouts(L):
    T = to_tl(L)
    a = tla.aliasing_profile(T)
    b = an.aliasing_profile(L)
    assert (b.max_alias_ways, b.reuse_histogram, b.aliased_offsets) == (
        a["max_alias_ways"], a["reuse_histogram"], a["aliased_offsets"])
    if min(brute(L)) == 0:  # tensor-layouts' bijectivity is onto [0, cosize)
        assert an.is_bijective(L) == tla.is_bijective(T)
    if min(brute(L)) >= 0:
        assert an.contiguity(L) == tla.contiguity(T)
    try:
        want = tla.cycles(T)
    except ValueError:
        with pytest.raises(CutepyError):
            an.cycles(L)
        return
    assert an.cycles(L) == want and an.order(L) == tla.order(T)
    assert an.permutation_parity(L) == tla.permutation_parity(T)


@given(tiling_layouts(), st.sampled_from([1, 2, 4, 8]))
def test_memory_answers_equal_tensor_layouts(L, E):
    """Where both ask the same: the first warp's lines (min offset 0: tensor-layouts rebases to it)
    and one phase of banks over the first 32 threads, one value each, elements no wider than a bank."""
    T = to_tl(L)
    c, d = an.coalescing_efficiency(L, element_bytes=E), tla.coalescing_efficiency(T, element_bytes=E)
    assert (c.transactions, c.cache_lines) == (d["transactions"], d["cache_lines"])
    assert c.efficiency == pytest.approx(d["efficiency"])
    s, t = an.segment_analysis(L, element_bytes=E), tla.segment_analysis(T, element_bytes=E)
    assert (s.segments, s.cache_lines, s.unique_bytes, s.requested_bytes) == (
        t["segments"], t["cache_lines"], t["unique_bytes"], t["requested_bytes"])
    tv = brute_tv(L)
    if E <= 4 and len(tv[0]) == 1:
        one = BankModel("one phase", lanes=32, lanes_per_phase=32)
        got = an.per_group_bank_conflicts(L, element_bytes=E, vector_elems=1, model=one).groups[0].max_ways
        assert got == tla.bank_conflicts(T, element_bytes=E)["max_ways"]


def test_atom_answers_equal_tensor_layouts():
    from tensor_layouts.atoms_nv import SM80_16x8x16_F16F16F16F16_TN as theirs

    ours = mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    r, t = an.operand_analysis(ours), tla.operand_analysis(theirs)
    for k in "abc":
        assert (r[k].unique_offsets, r[k].duplicates, r[k].coverage_ok) == (
            t[k]["unique_offsets"], t[k]["duplicates"], t[k]["coverage_ok"])
    s = an.atom_summary(ours)
    u = tla.atom_summary(theirs)
    assert (s.threads, s.values_a, s.values_b, s.values_c, s.c_coverage_ok) == (
        u["threads"], u["values_a"], u["values_b"], u["values_c"], u["c_coverage_ok"])


LAWS = [
    test_injective_image_offset_table_and_aliasing_equal_brute_force,
    test_footprint_surjective_and_bijective_equal_brute_force,
    test_gap_profile_equals_brute_force,
    test_contiguity_is_the_longest_contiguous_prefix,
    test_mode_and_slice_contiguity_equal_brute_force,
    test_thread_stride_profile_equals_brute_force,
    test_coalescing_counts_sectors_and_lines_of_every_instruction,
    test_bank_conflicts_default_is_the_measured_rule,
    test_a_bank_model_costs_each_phase_by_distinct_words_per_bank,
    test_cycles_order_parity_and_fixed_points_equal_brute_force,
]


@pytest.mark.slow
@pytest.mark.parametrize("law", LAWS, ids=lambda f: f.__name__)
def test_laws_on_ten_thousand_cases(law):
    settings(max_examples=10_000, derandomize=True, deadline=None)(law)()


def test_cutepy_exports_the_checklist_lazily():
    """``import cutepy`` stays free of numpy: the analyses load on first use, every one of them."""
    import cutepy

    assert cutepy._ANALYSIS_NAMES == tuple(an.__all__)
    assert set(an.__all__) <= set(cutepy.__all__)
    assert cutepy.is_injective is an.is_injective and cutepy.Footprint is an.Footprint


L44 = Layout((4, 4), (4, 1))


@pytest.mark.parametrize("call, word", [
    (lambda: an.is_injective([4, 4]), "layout"),
    (lambda: an.image(L44, limit=-1), "limit"),
    (lambda: an.footprint("4:1"), "layout"),
    (lambda: an.is_bijective(L44, 2.5), "codomain"),
    (lambda: an.slice_contiguity(L44, "row"), "coord"),
    (lambda: an.slice_contiguity(L44, (9, None)), "coord"),
    (lambda: an.coalescing(L44, element_bytes=4, vector_elems=0), "vector_elems"),
    (lambda: an.coalescing(L44, element_bytes=4, warp_size=0), "warp_size"),
    (lambda: an.coalescing(L44, element_bytes=4, vector_elems=8), "bytes per instruction"),
    (lambda: an.coalescing_efficiency(L44, element_bytes=4, cache_line_bytes=0), "cache_line_bytes"),
    (lambda: an.segment_analysis(L44, element_bytes=4, segment_bytes=-32), "segment_bytes"),
    (lambda: an.per_group_coalescing(L44, element_bytes=4, group_size=0), "group_size"),
    (lambda: an.bank_conflicts(L44, element_bytes=4, op="ldmatrix"), "op"),
    (lambda: an.bank_conflicts(L44, element_bytes=4, base=3.0), "base"),
    (lambda: an.per_group_bank_conflicts(L44, element_bytes=6), "element_bytes"),
    (lambda: an.cycles(Layout(4, 2)), "not a permutation"),
    (lambda: an.order(Layout((2, 2), (0, 1))), "not a permutation"),
    (lambda: an.operand_analysis(Layout(4)), "atom"),
    (lambda: an.analyze_gmem_copy(None, L44), "TiledCopy"),
])
def test_bad_input_is_refused_naming_the_argument(call, word):
    with pytest.raises(CutepyError, match=word):
        call()


@pytest.mark.parametrize("kw", [{"base": 10**30}, {"warp_size": 10**30}, {"warp_size": True}])
def test_out_of_range_sizes_are_refused_not_overflowed(kw):
    with pytest.raises(CutepyError, match="base|warp_size"):
        an.coalescing(Layout((32, 2)), element_bytes=4, **kw)
    with pytest.raises(CutepyError, match="cache_line_bytes"):
        an.coalescing_efficiency(Layout(32), element_bytes=4, cache_line_bytes=10**30)
