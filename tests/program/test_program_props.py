"""Random array programs: the compiled pieces agree with numpy on every element."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cutepy.program as cp
from cutepy.program.engine import compile_program as engine_compile
from cutepy.program.rewrite import hoist_pads

MAX_SIZE = 1500


@st.composite
def factorizations(draw, n: int) -> tuple[int, ...]:
    """A random shape with ``n`` elements (rank 1 to 4)."""
    rank = draw(st.integers(1, 4))
    dims = []
    for _ in range(rank - 1):
        d = draw(st.sampled_from([k for k in range(1, n + 1) if n % k == 0]))
        dims.append(d)
        n //= d
    dims.append(n)
    return tuple(draw(st.permutations(dims)))


small_shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


@st.composite
def programs(draw, concat: bool = True, broadcast: bool = True, before_pads: bool = True):
    """A random chain of pad/resize, reshape, transpose (and swapaxes, moveaxis, .T),
    concatenate with fresh inputs, and broadcast_to."""
    count = iter(range(1000))
    x = cp.trace(draw(small_shapes), f"x{next(count)}")
    kinds = ["reshape", "transpose", "resize", "swapaxes", "moveaxis", "T"]
    kinds += ["pad"] * before_pads + ["concatenate"] * (2 * concat) + ["broadcast"] * broadcast
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(kinds))
        if kind == "reshape":
            x = x.reshape(draw(factorizations(x.size)))
        elif kind == "transpose":
            x = x.transpose(draw(st.permutations(range(x.ndim))))
        elif kind == "T":
            x = x.T
        elif kind == "swapaxes":
            x = cp.swapaxes(x, draw(st.integers(0, x.ndim - 1)), draw(st.integers(-x.ndim, -1)))
        elif kind == "moveaxis":
            x = cp.moveaxis(x, draw(st.integers(0, x.ndim - 1)), draw(st.integers(0, x.ndim - 1)))
        elif kind == "resize":
            new = tuple(e + draw(st.integers(0, 3)) for e in x.shape)
            if cp.trace(new).size <= MAX_SIZE:
                x = cp.resize(x, new)
        elif kind == "pad":
            pw = [(draw(st.integers(0, 2)), draw(st.integers(0, 1))) for _ in x.shape]
            if cp.pad(x, pw).size <= MAX_SIZE:
                x = cp.pad(x, pw)
        elif kind == "concatenate":
            ax = draw(st.integers(0, x.ndim - 1))
            other = list(x.shape)
            other[ax] = draw(st.integers(1, 3))
            y = cp.trace(tuple(other), f"x{next(count)}")
            if draw(st.booleans()):    # give the other operand a program of its own
                y = cp.trace(tuple(other[::-1]), f"x{next(count)}").T
            if x.size + y.size <= MAX_SIZE:
                x = cp.concatenate([x, y] if draw(st.booleans()) else [y, x], axis=ax)
        elif kind == "broadcast":
            lead = draw(st.integers(1, 3))
            if lead * x.size <= MAX_SIZE:
                x = cp.broadcast_to(x.reshape((1,) + x.shape), (lead,) + x.shape)
    return x


@settings(max_examples=400)
@given(programs())
def test_compiled_pieces_match_numpy_on_every_element(prog):
    report = cp.check(prog)
    assert report, f"{prog}: {report}\n{report.compiled.explain()}"
    inputs = {id(p.source) for p in report.compiled.pieces if p.source.op == "input"}
    assert inputs <= {id(x) for x in prog.inputs()}


@given(programs())
def test_materialized_layouts_rebuild_numpy_buffer(prog):
    c = cp.to_layout(prog)
    assert np.array_equal(cp.materialize(c), cp.buffer(prog))
    for p in c.pieces:
        offs = p.offsets()
        assert offs.shape == p.logical_shape
        assert offs.min() >= 0 and offs.max() < c.buffer_size
        # the piece is a function of the coordinates: spot-check the scalar call too
        idx = tuple(e - 1 for e in p.logical_shape)
        assert p(*idx) == offs[idx]


@given(programs(concat=False, broadcast=False, before_pads=False))
def test_single_input_programs_are_one_piece_without_base(prog):
    c = cp.to_layout(prog)
    assert len(c.pieces) == 1 and c.base == 0 and c.form in ("layout", "chain")
    assert (c.form == "chain") == bool(c.breaks)
    assert np.array_equal(c.offsets(), engine_compile(prog.inputs()[0].shape, _steps(prog)).offsets())


def _steps(prog: cp.TracedArray) -> list[tuple]:
    out = []
    while prog.op != "input":
        out.append((prog.op, prog.args[0]))
        prog = prog.parents[0]
    return out[::-1]


@given(programs(concat=False, broadcast=False, before_pads=False))
def test_hoisting_pads_keeps_every_offset(prog):
    shape, steps = prog.inputs()[0].shape, _steps(prog)
    moved = hoist_pads(shape, steps)
    assert [s[0] for s in moved if s[0] != "pad"] == [s[0] for s in steps if s[0] != "pad"]
    a, b = engine_compile(shape, steps), engine_compile(shape, moved)
    assert a.buffer_size == b.buffer_size
    assert np.array_equal(a.offsets(), b.offsets())


dims = st.integers(1, 6)


@settings(max_examples=60)
@given(dims, dims, dims, dims, st.sampled_from([1, 2, 3, 4, 8, 64]), st.sampled_from([1, 2, 3, 4, 8, 16]),
       st.booleans(), st.integers(0, 5))
def test_lmem_layout_is_one_layout_and_matches_its_lane_strides(n, c, h, w, npus, eus, aligned, extra):
    plain = cp.lmem_layout(n, c, h, w, npus=npus, eus=eus, aligned=aligned)
    L = cp.lmem_layout(n, c, h, w, npus=npus, eus=eus, aligned=aligned,
                       lane_stride=plain.lane_size + extra if extra else None)
    assert L.compiled.form == "layout"
    assert cp.check(L.program)
    got = L.compiled.offsets()
    nn, cc, hh, ww = np.indices((n, c, h, w))
    lane = L.lane_layout
    want = (cc % npus) * L.lane_stride + np.vectorize(lambda *x: lane(*x))(nn, cc // npus, hh, ww)
    assert np.array_equal(got, want)
    assert L.lost == L.lost_to_lanes + L.lost_to_eus and L.allocated == npus * plain.lane_size
    assert got.max() < npus * L.lane_stride


@settings(max_examples=40)
@given(dims, dims, st.integers(1, 3), st.integers(1, 3), st.sampled_from([1, 2, 4, 64]),
       st.sampled_from([1, 2, 4, 16]))
def test_weight_bias_merge_is_two_single_layouts(oc, ic, kh, kw, npus, eus):
    e = cp.weight_bias_program(oc, ic, kh, kw, npus=npus, eus=eus)
    c = cp.to_layout(e)
    assert [p.form for p in c.pieces] == ["layout", "layout"]
    per_lane = -(-oc // npus)                       # bias values per lane
    assert c.pieces[0].base == 0 and c.pieces[1].base == -(-per_lane // eus) * eus
    assert cp.check(e)
