"""Array programs (issue 6): the seed's examples, the API's numpy semantics, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import cutepy.program as cp
from cutepy import Layout
from cutepy.core.errors import CutepyError
from cutepy.program.compiler import Piece
from cutepy.program.engine import ChainLayout, CompiledLayout
from cutepy.program.engine import compile_program as engine_compile
from cutepy.viz import lanes_svg

SEED = cp.tpu_mlir_lmem_programs()
DATA = cp.tpu_mlir_lmem_data()


# --- the TPU-MLIR LMEM programs, reproduced ----------------------------------------------------
def test_seed_lmem_buffer_matches_the_seed_by_hand():
    out = cp.run(SEED["lmem"], DATA)
    assert out.shape == (4, 2, 2, 2, 4)
    # lane 0 holds channels 0 and 4; each channel's 6 values padded to 8 (two EU rows)
    assert out[0, 0, 0].tolist() == [[0, 1, 2, 3], [4, 5, 0, 0]]
    assert out[0, 0, 1].tolist() == [[24, 25, 26, 27], [28, 29, 0, 0]]
    # lane 1 has channel 1 and nothing in its second slot (channel 5 does not exist)
    assert out[1, 1, 0].tolist() == [[36, 37, 38, 39], [40, 41, 0, 0]]
    assert not out[1, 0, 1].any() and not out[3, 1, 1].any()


def test_seed_lmem_compiles_to_one_layout():
    p = cp.to_layout(SEED["lmem"])
    assert p.form == "layout" and p.base == 0
    assert p.layout == Layout((2, (4, 2), 2, 3), (16, (32, 8), 3, 1))
    assert p.pieces[0].compiled.domain == (2, 8, 2, 3)
    assert p(1, 4, 1, 2) == 0 * 32 + 1 * 16 + 1 * 8 + 1 * 3 + 2
    assert cp.check(SEED["lmem"], DATA)
    assert cp.check(SEED["lmem"]).checked == 60


def test_seed_lmem_as_written_is_a_chain_for_the_engine_alone():
    """Without moving the channel pad before the h*w merge, the split of 5 channels by
    4 lanes does not divide: the engine keeps a chain and says so."""
    steps = [("reshape", (2, 5, 6)), ("pad", (2, 8, 8)), ("reshape", (2, 2, 4, 2, 4)),
             ("transpose", (2, 0, 1, 3, 4))]
    raw = engine_compile((2, 5, 2, 3), steps)
    assert raw.form == "chain" and "transpose" in raw.breaks[0]
    assert np.array_equal(raw.offsets(), cp.to_layout(SEED["lmem"]).offsets())


def test_seed_weight_reorder():
    w = SEED["weight"]
    assert w.shape == (4, 1, 2, 6, 4)
    p = cp.to_layout(w)
    assert p.form == "layout"
    assert p.layout == Layout((2, (4, 2), 2, 3), (48, (1, 24), 12, 4))
    out = cp.run(w, DATA)
    # lane oc=1, ic group 0, kernel position 0: ic 0..3 of oc 1 -> a[1, 0:4, 0, 0]
    assert out[1, 0, 0, 0].tolist() == [30, 36, 42, 48]
    assert out[1, 0, 1, 5].tolist() == [59, 0, 0, 0]   # ic 4 then EU padding
    assert not out[2:].any()                            # oc padded from 2 to 4 lanes
    assert cp.check(w, DATA)


def test_seed_bias_and_merge():
    b = cp.to_layout(SEED["bias"])
    assert b.form == "layout" and b.layout == Layout(((4, 2),), ((4, 1),))
    assert cp.run(SEED["bias"], DATA).reshape(4, 4).tolist() == [
        [60, 64, 0, 0], [61, 0, 0, 0], [62, 0, 0, 0], [63, 0, 0, 0]]
    m = cp.to_layout(SEED["merged"])
    assert m.form == "pieces" and [p.name for p in m.pieces] == ["d", "a"]
    bias, wt = m.pieces
    assert (bias.base, str(bias.layout)) == (0, "((4,2)):((52,1))")
    assert (wt.base, str(wt.layout)) == (4, "(2,(4,2),2,3):(52,(1,24),12,4)")
    assert all(p.form == "layout" for p in m.pieces)
    e = cp.run(SEED["merged"], DATA)
    assert e.shape == (4, 13, 4) and e[0, 0].tolist() == [60, 64, 0, 0]
    assert e[1, 1:4].reshape(-1).tolist()[:4] == [30, 36, 42, 48]
    report = cp.check(SEED["merged"], DATA)
    assert report and report.checked == 65 and report.compiled.buffer_size == 208


def test_seed_merged_buffer_equals_materialized_layouts():
    m = cp.to_layout(SEED["merged"])
    assert np.array_equal(cp.materialize(m, DATA), cp.buffer(SEED["merged"], DATA))


def test_lmem_layout_helper_on_the_seed():
    L = cp.lmem_layout(2, 5, 2, 3, npus=4, eus=4)
    assert L.layout == cp.to_layout(SEED["lmem"]).layout
    assert L.lane_shape == (2, 2, 2, 3) and L.lane_strides == (16, 8, 3, 1)
    assert L.lane_size == 32 and L.allocated == 128 and L.used == 60
    assert (L.lost, L.lost_to_lanes, L.lost_to_eus) == (68, 48, 20)
    assert [L.lane_of(c) for c in range(5)] == [0, 1, 2, 3, 0]
    assert "68 lost" in str(L)


def test_lmem_layout_bm1684x_and_partition_stride():
    L = cp.lmem_layout(1, 96, 7, 7, eus=16)
    assert L.npus == 64 and L.c_per_npu == 2 and L.channel_stride == 64
    assert L.lost_to_lanes == 32 * 64 and L.lost_to_eus == 96 * 15
    P = cp.lmem_layout(1, 96, 7, 7, eus=16, lane_stride=1024)
    assert P.compiled.form == "layout" and P.lane_stride == 1024
    assert P.layout(0, 65, 0, 0) == 1024 + 64
    assert cp.check(P.program)
    C = cp.lmem_layout(1, 5, 2, 3, npus=4, eus=4, aligned=False)
    assert C.lane_strides == (12, 6, 3, 1) and C.lost_to_eus == 0
    assert cp.check(C.program)


def test_weight_bias_program_general():
    e = cp.weight_bias_program(3, 7, 3, 3, npus=2, eus=4)
    m = cp.to_layout(e)
    assert [p.name for p in m.pieces] == ["bias", "weight"]
    assert all(p.form == "layout" for p in m.pieces)
    assert m.pieces[1].base == 4 and cp.check(e)


# --- the API reads like numpy ---------------------------------------------------------------
def test_methods_match_numpy():
    x = np.arange(24).reshape(2, 3, 4)
    t = cp.trace((2, 3, 4), "x")
    cases = [
        (t.reshape(4, -1), x.reshape(4, -1)),
        (t.T, x.T),
        (t.transpose(), x.transpose()),
        (t.transpose((1, 2, 0)), x.transpose((1, 2, 0))),
        (cp.transpose(t, (2, 0, 1)), np.transpose(x, (2, 0, 1))),
        (cp.swapaxes(t, 0, -1), np.swapaxes(x, 0, -1)),
        (t.swapaxes(1, 2), x.swapaxes(1, 2)),
        (cp.moveaxis(t, 0, -1), np.moveaxis(x, 0, -1)),
        (cp.moveaxis(t, [0, 2], [1, 0]), np.moveaxis(x, [0, 2], [1, 0])),
        (cp.pad(t, ((1, 0), (0, 2), (1, 1))), np.pad(x, ((1, 0), (0, 2), (1, 1)))),
        (cp.pad(t, 1), np.pad(x, 1)),
        (cp.reshape(t, (6, 4)).ravel(), x.reshape(6, 4).ravel()),
        (cp.broadcast_to(t.reshape(1, 2, 3, 4), (3, 2, 3, 4)),
         np.broadcast_to(x.reshape(1, 2, 3, 4), (3, 2, 3, 4))),
    ]
    for traced, expected in cases:
        got = cp.run(traced, {"x": x})
        assert got.shape == traced.shape == expected.shape
        assert np.array_equal(got, expected), traced
        assert cp.check(traced), traced


def test_resize_pads_at_the_end_like_the_seed():
    a = np.arange(24).reshape(1, 2, 3, 4)
    got = cp.run(cp.resize(cp.trace((1, 2, 3, 4), "a"), (1, 3, 3, 6)), {"a": a})
    ref = np.zeros((1, 3, 3, 6), dtype=a.dtype)
    ref[:, :2, :, :4] = a
    assert np.array_equal(got, ref)


def test_concatenate_then_more_steps():
    x, y = cp.trace((2, 3), "x"), cp.trace((2, 2), "y")
    e = cp.concatenate([x, y], axis=1)
    flat = cp.to_layout(e.reshape(10))
    assert [p.form for p in flat.pieces] == ["layout", "layout"]
    assert flat.pieces[1].base == 3 and flat.pieces[1](1, 1) == 9
    tr = cp.to_layout(e.reshape(5, 2).T)
    assert all(p.form == "chain" for p in tr.pieces)
    assert any("translated" in b for b in tr.pieces[1].breaks)
    assert cp.check(e.reshape(5, 2).T) and cp.check(e.T)


def test_nested_concatenations_and_translations():
    x, y, z = cp.trace((2, 2), "x"), cp.trace((2, 1), "y"), cp.trace((1, 3), "z")
    inner = cp.concatenate([x, y], axis=1)                      # (2, 3)
    outer = cp.pad(cp.concatenate([z, inner.T.T], axis=0), ((1, 0), (0, 1)))  # (4, 4)
    c = cp.to_layout(outer)
    assert [p.name for p in c.pieces] == ["z", "x", "y"]
    assert [p.base for p in c.pieces] == [4, 8, 10]
    assert all(p.form == "layout" for p in c.pieces)
    assert cp.check(outer) and cp.check(outer.reshape(2, 8).T)


def test_np_pad_before_gives_a_base_offset():
    p = cp.to_layout(cp.pad(cp.trace((2, 2), "x"), ((1, 0), (2, 0))))
    assert p.form == "layout" and p.base == 1 * 4 + 2
    assert p(0, 0) == 6 and p(1, 1) == 11


def test_broadcast_is_a_stride0_view():
    bias = cp.trace((3,), "bias")
    v = cp.broadcast_to(bias.reshape(3, 1), (3, 4))
    prog = cp.resize(v, (4, 4)).T
    c = cp.to_layout(prog)
    piece = c.pieces[0]
    assert piece.view is not None and piece.logical_shape == (3, 4)
    assert piece.view.layout == Layout((3, 4), (1, 0))
    assert piece.view.child.form == "layout" and piece.view.source_shape == (3, 1)
    assert c.layout == Layout((3, 4), (1, 4)) and "stride 0" in c.notes[0]
    assert cp.check(prog)
    assert cp.run(prog, {"bias": np.array([7, 8, 9])})[2].tolist() == [7, 8, 9, 0]


def test_chains_name_the_step_that_breaks_affinity():
    x = cp.trace((3, 5), "x")
    merged = x.reshape(5, 3).T      # a reshape that regroups rows: not one layout
    c = cp.to_layout(merged)
    assert c.form == "chain" and isinstance(c.layout, ChainLayout) and len(c.pieces[0].stages) == 2
    assert c.breaks[0].startswith("`transpose(1, 0)`") and "inadmissible" in c.breaks[0]
    assert "a chain of 2 layouts" in c.explain() and "breaks at `transpose(1, 0)`" in c.explain()
    assert cp.check(merged)
    flat_pad = cp.resize(x.reshape(15), (16,)).reshape(2, 8).T.reshape(4, 4).T
    c = cp.to_layout(flat_pad)      # the pad of a merged dim cannot move before the merge
    assert c.form == "chain" and "shape divisibility" in c.breaks[0]
    assert cp.check(flat_pad)


def test_pads_on_logical_dims_fold_into_the_padded_domain():
    x = cp.trace((3, 5), "x")
    c = cp.to_layout(cp.resize(x.T, (6, 3)).reshape(2, 3, 3).transpose(1, 0, 2))
    assert c.form == "layout" and c.layout == Layout((3, (3, 2)), (1, (6, 3)))
    assert c.pieces[0].compiled.domain == (3, 6)
    assert "padded to (3, 6)" in c.explain()
    d = cp.to_layout(cp.resize(x, (4, 5)).reshape(2, 10).T)
    assert d.layout == Layout(((2, 2), 5), ((10, 1), 2))


# --- check can fail, and says where ---------------------------------------------------------
def _tamper(compiled: cp.CompiledProgram, layout: Layout, base: int = 0) -> cp.CompiledProgram:
    p = compiled.pieces[0]
    C = CompiledLayout(layout, p.compiled.logical_shape, p.compiled.logical_shape,
                       p.compiled.buffer_size)
    return cp.CompiledProgram(compiled.program, (Piece(p.source, C, base, p.path),) + compiled.pieces[1:],
                              compiled.buffer_shape)


def test_check_reports_the_first_mismatch():
    prog = cp.trace((2, 3), "x").T
    good = cp.to_layout(prog)
    assert good.layout == Layout((2, 3), (1, 2))
    wrong = _tamper(good, Layout((2, 3), (3, 1)))   # row-major: not what transpose does
    r = cp.check(wrong)
    assert not r and r.mismatch.index == (0, 1) and r.mismatch.offset == 1
    assert r.mismatch.expected == 2 and r.mismatch.found == 4 and r.mismatch.numpy_offset == 2
    assert "MISMATCH" in str(r) and "numpy put it at 2" in str(r)


def test_check_reports_out_of_buffer_and_stray_values():
    prog = cp.trace((2, 3), "x")
    r = cp.check(_tamper(cp.to_layout(prog), Layout((2, 3), (3, 1)), base=1))
    assert not r and r.mismatch.what.endswith("out of the buffer")
    half = cp.concatenate([cp.trace((1, 3), "x"), cp.trace((1, 3), "y")])
    c = cp.to_layout(half)
    only_x = cp.CompiledProgram(c.program, c.pieces[:1], c.buffer_shape)
    r = cp.check(only_x)
    assert not r and r.mismatch.piece is None and r.mismatch.offset == 3


def test_check_with_user_data_and_wrong_data():
    prog = cp.trace((2, 3), "x").T
    assert cp.check(prog, {"x": np.ones((2, 3))})
    with pytest.raises(CutepyError, match=r"data for input 'x' has shape \(3, 2\)"):
        cp.run(prog, {"x": np.ones((3, 2))})
    with pytest.raises(CutepyError, match="no data for input 'x'"):
        cp.run(prog, {"y": np.ones((2, 3))})


# --- bad input ------------------------------------------------------------------------------
BAD = [
    (lambda a: a.reshape(7, 9), r"reshape\(7, 9\) of a \(2, 5, 2, 3\) array: it has 60 elements, "
                                 r"\(7, 9\) has 63"),
    (lambda a: a.reshape(-1, -1), "only one dim can be -1"),
    (lambda a: a.reshape(7, -1), r"60 elements do not split into \(7, -1\)"),
    (lambda a: a.transpose(0, 1, 2), r"\(0, 1, 2\) has 3 axes, the array has 4"),
    (lambda a: a.transpose(0, 1, 1, 3), r"\(0, 1, 1, 3\) is not a permutation of the axes 0..3"),
    (lambda a: a.transpose(0, 1, 2, 4), "not a permutation"),
    (lambda a: cp.resize(a, (2, 4, 2, 3)), r"resize\(2, 4, 2, 3\).*dim 1 would shrink from 5 to 4 "
                                           r"\(a negative pad\)"),
    (lambda a: cp.resize(a, (2, 5, 2)), r"\(2, 5, 2\) has 3 dims, the array has 4"),
    (lambda a: cp.pad(a, ((0, 0), (0, -1), (0, 0), (0, 0))), r"negative pad \(0, -1\) on dim 1"),
    (lambda a: cp.pad(a, -2), "negative pad"),
    (lambda a: cp.pad(a, ((1, 2), (3, 4))), "pad_width must be"),
    (lambda a: cp.concatenate([a, cp.trace((2, 4, 2, 3), "b")], axis=0),
     r"concatenate\(axis=0\): array 1 has shape \(2, 4, 2, 3\), which differs from \(2, 5, 2, 3\) "
     r"outside axis 0"),
    (lambda a: cp.concatenate([a, cp.trace((2, 5, 6), "b")], axis=1), "array 0 has 4 dims, array 1 has 3"),
    (lambda a: cp.concatenate([a, a], axis=4), "axis 4 is out of bounds for an array with 4 dims"),
    (lambda a: cp.concatenate([], axis=0), "needs at least one array"),
    (lambda a: cp.swapaxes(a, 0, 5), r"swapaxes\(0, 5\).*axis 5 is out of bounds"),
    (lambda a: cp.moveaxis(a, [0, 1], [2]), "2 source axes but 1 destinations"),
    (lambda a: cp.broadcast_to(a, (2, 5, 2, 4)), "dim 3 has extent 3, neither 1 nor 4"),
    (lambda a: cp.broadcast_to(a, (5, 2, 3)), "fewer dims"),
    (lambda a: cp.trace((2, 0)), "extents must be positive"),
    (lambda a: cp.reshape(np.zeros(3), (3,)), "not a traced array"),
    (lambda a: cp.lmem_layout(1, 2, 3, 4, npus=4, eus=0), "eus=0 must be positive"),
    (lambda a: cp.lmem_layout(1, 2, 3, 4, npus=4, eus=4, lane_stride=3),
     "lane_stride=3 is smaller than the 12 elements"),
]


@pytest.mark.parametrize("make, message", BAD)
def test_bad_input_names_the_step_and_values(make, message):
    a = cp.trace((2, 5, 2, 3), "a")
    with pytest.raises(cp.ProgramError, match=message) as info:
        make(a)
    assert isinstance(info.value, CutepyError)


def test_compiled_program_with_pieces_has_no_single_layout():
    m = cp.to_layout(SEED["merged"])
    with pytest.raises(CutepyError, match="2 pieces"):
        _ = m.layout
    assert len(m.breaks) == 0


def test_lanes_svg_draws_every_lane_and_the_padding():
    svg = lanes_svg(cp.to_layout(SEED["merged"]), lanes=4, data=DATA, eus=4, title="merged")
    assert svg.startswith("<svg") and svg.count("NPU ") == 4
    assert ">64<" in svg and "padding" in svg and ">merged<" in svg
    with pytest.raises(CutepyError, match="do not split into 5 lanes"):
        lanes_svg(cp.to_layout(SEED["merged"]), lanes=5)


# --- bad input gets a CutepyError (issue 11) --------------------------------------------------


@pytest.mark.parametrize("shape", [(2.5, 2), (True, 3), (2, False), 2.0, (0, 2), (-1,), "ab", None])
def test_trace_rejects_what_numpy_would(shape) -> None:
    with pytest.raises(CutepyError):
        cp.trace(shape)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cp.trace((2, 3)).reshape(None),
        lambda: cp.trace((2, 3)).reshape(2.0, 3),
        lambda: cp.trace((2, 3)).transpose(1.0, 0),
        lambda: cp.swapaxes(cp.trace((2, 3)), 0.0, 1),
        lambda: cp.moveaxis(cp.trace((2, 3)), None, 0),
        lambda: cp.pad(cp.trace((2, 3)), 1.5),
        lambda: cp.concatenate(None),
        lambda: cp.trace((2,), 5),
        lambda: cp.run(cp.trace((2,), "x"), np.int64(3)),
        lambda: cp.materialize(None),
        lambda: cp.default_data(5),
        lambda: lanes_svg(cp.to_layout(cp.trace((4,))), lanes="x"),
        lambda: lanes_svg(None, lanes=2),
        lambda: cp.lmem_program(1, 3, 2, 2, npus=2, eus=4, lane_stride="x"),
        lambda: cp.lmem_layout(1, 3, 2, 2, eus=True),
    ],
)
def test_bad_arguments_get_a_cutepy_error(call) -> None:
    with pytest.raises(CutepyError):
        call()


@pytest.mark.parametrize(
    "steps",
    [None, 5, [("pad",)], [("crop", (4,))], [("pad", (4.5,))], [("pad", (True,))],
     [("transpose", (0.0,))], [("reshape", (2, 2.0))], ["pad"]],
)
def test_engine_rejects_malformed_steps(steps) -> None:
    with pytest.raises(CutepyError):
        engine_compile((4,), steps)


def test_engine_trims_lifted_padding_where_the_layout_allows() -> None:
    """One padding model: a pad before the first reshape widens the domain; with ``trim``
    the engine itself gives the domain back where the cut is admissible (no program-side
    undo). Here the pad 3 -> 4 then a transpose-free reshape cuts back to 3:1."""
    steps = [("pad", (4,)), ("reshape", (2, 2))]
    wide, cut = engine_compile((3,), steps), engine_compile((3,), steps, trim=True)
    assert wide.domain == (4,) and cut.domain == (3,)
    assert [cut(i) for i in range(3)] == [0, 1, 2]
    # a split the cut cannot pass keeps the padded domain
    kept = engine_compile((3,), [("pad", (4,)), ("reshape", (2, 2)), ("transpose", (1, 0))], trim=True)
    assert kept.domain == (4,) and [kept(i) for i in range(3)] == [0, 2, 1]


def test_program_lanes_svg_is_a_deprecated_alias_of_viz_lanes_svg():
    with pytest.warns(DeprecationWarning, match="cutepy.viz.lanes_svg"):
        alias = cp.lanes_svg
    assert alias is lanes_svg


def test_the_engines_old_path_warns_and_gives_the_new_modules_names():
    """``cutepy.engine`` moved to ``cutepy.program.engine`` (issue 30): the old path works a release."""
    import cutepy.engine as old
    from cutepy.program import engine

    for name in ("compile_program", "ChainLayout", "CompiledLayout", "MAX_TABLE_ELEMENTS", "logical_offsets"):
        with pytest.warns(DeprecationWarning, match=f"cutepy.program.engine: import {name} from there"):
            assert getattr(old, name) is getattr(engine, name)
    with pytest.raises(AttributeError):
        old._not_a_name  # noqa: B018
