"""Issue 11: one regression test per class of bad input that crashed, hung or lied.

Each test names the class. Expected answers come from the brute-force model
(tests/fuzz/brute.py) or from the definition, never from cutepy's own output.
"""

from __future__ import annotations

import contextlib
import io
import signal
import threading
import time

import numpy as np
import pytest

import cutepy
from cutepy import CutepyError, E, Layout, ParseError, Swizzle, make_composed_layout
from cutepy.core.evaluate import offsets
from tests.fuzz import brute


@contextlib.contextmanager
def within(seconds: float):
    """Fail (rather than hang the suite) if the block runs longer than ``seconds``."""

    def on_alarm(*_):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def rejects_or(check, fn, *args):
    """``fn(*args)`` raises a CutepyError, or its result passes ``check``."""
    try:
        result = fn(*args)
    except CutepyError:
        return
    check(result)


def is_valid_layout(R) -> bool:
    return type(R) is Layout and all(type(s) is int and s >= 1 for s in brute.leaves(R.shape)) and all(
        type(d) is int for d in brute.leaves(R.stride))


def run_cli(argv):
    from cutepy.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


# -- wrong answers -------------------------------------------------------------------------


def test_offsets_never_wrap_around_int64():
    L = Layout((4, 3), (1, 2**62))  # the last offset is 3 + 2*2^62 = 2^63 + 3
    with pytest.raises(CutepyError, match="int64"):
        offsets(L)
    with pytest.raises(CutepyError, match="int64"):
        offsets(L, [11])


@pytest.mark.parametrize("inner", [Layout(4, 2**62), Layout((2, 2), (2**62, 2**62))])
def test_offsets_near_the_int64_edges_are_exact(inner):
    """Found by benchmarks/fuzz.py (seed 2611): the offsets of a few modes taken together passed
    int64 on their own (0, 2^62, 2^63, ...) though, past the offset -(2^63 - 1), every offset of
    the layout lies inside it."""
    C = make_composed_layout(Swizzle(1, 3, 3), -(2**63 - 1), inner)
    assert offsets(C).tolist() == [C(i) for i in range(4)]


def test_xla_linear_index_never_wraps_around_int64():
    dims, idx = [2**40, 2**40], (2**40 - 1, 2**40 - 1)
    want = brute.xla_linear_index(dims, [1, 0], [], idx)  # 2^80 - 1, beyond int64
    text = f"f32[{dims[0]},{dims[1]}]{{1,0}}"
    rejects_or(lambda r: brute.require(int(r) == want, f"{r} != {want}"), cutepy.xla.linear_index, text, idx)
    rejects_or(lambda r: brute.require(int(r[0]) == want, f"{r} != {want}"),
               cutepy.xla.linear_indices_at, text, np.array([idx]))


@pytest.mark.parametrize("op", ["tiled_divide", "flat_divide", "tiled_product", "flat_product"])
def test_none_tiler_keeps_every_mode(op):
    A = Layout((8, 6), (1, 8))

    def keeps(R):
        brute.require(brute.nsize(R.shape) == 48 or op.endswith("product"), f"{op} lost elements: {R}")
        brute.require(sorted(brute.table(R))[:48] == list(range(48)), f"{op}({A}, None) = {R}")
        # the whole layout is the tile: the first mode holds all of it
        brute.require(brute.nsize(brute.mode(R, 0)[0]) == 48, f"{op}({A}, None) = {R} dropped a mode")

    rejects_or(keeps, getattr(cutepy, op), A, None)


@pytest.mark.parametrize("op, n", [
    ("complement", 0), ("complement", 2.5), ("complement", 24.0), ("downcast", 0), ("downcast", -1),
    ("downcast", 2.5), ("upcast", -2), ("upcast", 0),
])
def test_bad_counts_are_rejected_not_turned_into_invalid_layouts(op, n):
    L = Layout((4, 2), (1, 8))
    if type(n) is not int:  # a count is an integer: 2.5 or 24.0 is a caller's mistake
        with pytest.raises(CutepyError):
            getattr(cutepy, op)(L, n)
        return
    rejects_or(lambda R: brute.require(is_valid_layout(R), f"{op}({L}, {n!r}) = {R}"),
               getattr(cutepy, op), L, n)


@pytest.mark.parametrize("shape", [(2.5, 3), (True, 3), ("4", 2), (4.0, 2)])
def test_program_trace_rejects_non_integer_sizes(shape):
    import cutepy.program as cp

    with pytest.raises(CutepyError):
        cp.trace(shape)


@pytest.mark.parametrize("value", [
    *(pytest.param(v)
      for v in (16.5, "16", True, 12)),
    0, -8,
])
def test_subs_rejects_values_that_are_not_allowed(value):
    M = cutepy.symbols(f"Mreg{abs(hash(repr(value))) % 10**6}", multiple_of=8)
    with pytest.raises(CutepyError):
        cutepy.subs(Layout((M, 4), (4, 1)), {M: value})


# -- crashes ------------------------------------------------------------------------------------


def test_whole_domain_offsets_refuse_beyond_the_limit_before_allocating():
    with within(5):
        with pytest.raises(CutepyError, match="limit"):
            Layout(2**40).offsets()
        with pytest.raises(CutepyError, match="limit"):
            Layout((100000, 100000)).offsets()


@pytest.mark.parametrize("L", [Layout(2**40), Layout((100000, 100000)), Layout((1000, 1000))])
def test_pictures_of_big_layouts_elide(L):
    from cutepy import viz

    with within(20):
        for draw in (viz.layout_table, viz.to_latex):
            rejects_or(lambda text: brute.require(len(text) < 1_000_000, f"{len(text)} characters"), draw, L)
        buf = io.StringIO()
        rejects_or(lambda _: brute.require(len(buf.getvalue()) < 1_000_000, "print_layout"), viz.print_layout,
                   L, buf)


@pytest.mark.parametrize("text", ["(100000,100000):(100000,1)", "(1000,1000)", "1099511627776:1"])
def test_cli_show_of_big_layouts_is_bounded(text):
    with within(20):
        rc, out, err = run_cli(["show", text])
    assert rc in (0, 2) and len(out) < 1_000_000


@pytest.mark.parametrize("text, col", [
    ("1" * 4301 + ":1", 1), ("4:" + "9" * 5000, 3), ("(2," + "7" * 4400 + ")", 4),
])
def test_integer_text_beyond_4300_digits_is_a_parse_error_with_its_column(text, col):
    with pytest.raises(ParseError, match=f"at column {col}"):
        cutepy.parse(text)


@pytest.mark.parametrize("text", [
    "\u0663:1", "(\uff14,2)", "4:\u0661", "(4,8):(1@\u0661,1@0)", "Sw<\u0663,4,3> o 0 o 4:1",
])
def test_unicode_digits_are_rejected(text):
    with pytest.raises(ParseError, match="column"):
        cutepy.parse(text)


def test_huge_basis_indices_do_not_allocate():
    with within(2):
        with pytest.raises(ParseError, match="column 13"):
            cutepy.parse("(4,8):(1@0,1@1000000000)")
        with pytest.raises(CutepyError):
            E(10**9)
        with pytest.raises(CutepyError):
            cutepy.ScaledBasis(1, (0,) * 1000)


@pytest.mark.parametrize("i", range(6))
def test_mixed_int_and_basis_strides_never_raise_type_error(i):
    L = Layout((2, 3), (1, E(0)))
    want = brute.evaluate(L, i)  # a dict: path -> value; () is the integer part
    try:
        got = L(i)
    except CutepyError:
        assert () in want  # an integer and a basis coordinate really met
        return
    assert () not in want and {(m,): v for m, v in enumerate(got) if v} == want


@pytest.mark.parametrize("args", [(100000, 0, 100000), (2**70, 0, 2**70), (3, 10**30, 3)])
def test_swizzle_parameters_are_bounded(args):
    with pytest.raises(CutepyError):
        Swizzle(*args)


@pytest.mark.parametrize("idx", [[2**70], 2**64, [2**63], np.array([2**64 - 1], dtype=np.uint64)])
def test_offsets_at_huge_indices_is_a_cutepy_error(idx):
    with pytest.raises(CutepyError):
        Layout((4, 3), (3, 1)).offsets(idx)


@pytest.mark.parametrize("fn", [
    *(pytest.param(f)
      for f in ("report", "linear_indices")),
    "to_cute", "sizes",
])
def test_xla_beyond_64_dims_is_a_cutepy_error(fn):
    text = "f32[" + ",".join(["1"] * 70) + "]"
    try:
        getattr(cutepy.xla, fn)(text)
    except CutepyError:
        pass


@pytest.mark.parametrize("call", [
    lambda: cutepy.shape_div(4, 0), lambda: cutepy.ceil_div(4, 0), lambda: cutepy.idx2crd(3, (0, 2)),
    lambda: cutepy.upcast(Layout(4), 0), lambda: cutepy.crd2idx(1, (2,), ("a",)),
    lambda: cutepy.coalesce(2.5), lambda: cutepy.flatten("4:1"),
])
def test_unvalidated_arguments_are_cutepy_errors(call):
    try:
        call()
    except CutepyError:
        pass


@pytest.mark.parametrize("argv", [
    ["op", "flatten", "5"], ["op", "cosize", "<4:1, 2:1>"],
    ["show", "4:1", "--svg", "/nonexistent/dir/x.svg"],
])
def test_cli_bad_input_is_one_line_and_status_2(argv):
    """No traceback: an answer (``5`` is the layout ``5:1``), or one line and status 2."""
    rc, out, err = run_cli(argv)
    if rc == 0:
        assert out.strip() and not err.strip()
    else:
        assert rc == 2 and len(err.strip().splitlines()) == 1 and err.startswith("cutepy: error:")


# -- hangs --------------------------------------------------------------------------------------


def test_long_xla_tile_chains_compile_quickly_or_are_refused():
    # quadratic today: 2000 tiles take ~2.5 s, 4000 ~15 s, 8000 about a minute
    text = "f32[64,64]{1,0:T(2,2)" + "(2,1)" * 8000 + "}"
    with within(10):
        rejects_or(lambda c: None, cutepy.xla.to_cute, text)


def test_pictures_of_large_swizzled_layouts_stop():
    from cutepy import viz

    C = cutepy.ComposedLayout(Swizzle(3, 4, 3), 0, Layout((4096, 4096), (4096, 1)))
    with within(10):
        rejects_or(lambda t: brute.require(len(t) < 1_000_000, "not elided"), viz.layout_table, C)
        rejects_or(lambda t: brute.require(len(t) < 1_000_000, "not elided"), viz.to_latex, C)


def test_composition_of_high_rank_layouts_is_fast_or_refused():
    n = 61  # strides up to 2**60: leaves are 64-bit
    perm = [(7 * k) % n for k in range(n)]  # no two neighbours coalesce
    A = Layout((2,) * n, tuple(2**p for p in perm))
    B = Layout((2,) * n, tuple(2**p for p in reversed(perm)))
    with within(10):
        rejects_or(lambda R: brute.require(brute.nsize(R.shape) == 2**n, "size"), cutepy.composition, A, B)


# -- threads --------------------------------------------------------------------------------------


def test_explain_in_one_thread_does_not_disturb_operations_in_another():
    A = Layout((8, 3), (3, 1))
    ref_op = cutepy.right_inverse(A)
    ref_text = cutepy.explain("complement", Layout((2, 2), (1, 4)), 12).text()
    errors = []
    stop = time.monotonic() + 1.0

    def plain():
        while time.monotonic() < stop:
            if cutepy.right_inverse(A) != ref_op:
                errors.append("right_inverse")

    def explaining():
        while time.monotonic() < stop:
            if cutepy.explain("complement", Layout((2, 2), (1, 4)), 12).text() != ref_text:
                errors.append("explain")

    ts = [threading.Thread(target=f) for f in (plain, explaining, plain, explaining)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[:5]


def test_max_common_vector_of_a_b_that_is_not_one_to_one_is_cxx_answer():
    # found by the 10^5 fuzz run (seed 90211): B = (4,5):(2,1) is not one-to-one and C++
    # answers 5. A(B.get_1d_coord(2)) != 2 (get_1d_coord picks index 1 of the two B sends to
    # 2), but index 8 is sent to 2 by both: 5 holds C++'s max_common_layout post-condition
    # A(V(k)) == k == B(V(k)) (issue 25 decided by it; tests/algebra/test_edge_max_common_vector.py)
    A, B = Layout(((4, 6), 1), ((8, 1), 8)), Layout((4, 5), (2, 1))
    assert cutepy.max_common_vector(A, B) == 5
    V = cutepy.max_common_layout(A, B)
    assert [(A(V(k)), B(V(k))) for k in range(5)] == [(k, k) for k in range(5)]
    assert cutepy.max_common_vector(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8))) == 4


@pytest.mark.parametrize("text", ["1:_0", "(_2,4):(4,_1)", "((3,_2)):((_1,3))"])
def test_a_cxx_print_with_run_time_integers_parses_to_a_valid_layout(text):
    """The fuzzer's validity check knew only static leaves (seed 4242 found '1:_0'); a C++
    print's bare integers are run-time values, valid leaves that print back as they came."""
    from tests.fuzz.harness import is_valid_layout

    L = cutepy.parse(text)
    assert is_valid_layout(L)
    assert format(L, "cxx") == text
    assert [L(i) for i in range(brute.size(L))] == [brute.evaluate(L, i) for i in range(brute.size(L))]
