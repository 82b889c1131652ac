"""Explained derivations recompute exactly what the real operations compute."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cutepy
from cutepy import Layout, explain
from cutepy.core.errors import AdmissibilityError, CutepyError
from cutepy.derivation import run
from cutepy.strategies import (
    complementable_pairs,
    composable_pairs,
    divisible_pairs,
    injective_layouts,
    layouts,
    tiling_layouts,
)


def _agrees(name: str, *args) -> cutepy.Derivation:
    """The derivation (without explain's own cross-check) against the real operation."""
    d = run(name, *args)
    try:
        real = getattr(cutepy, name)(*args)
    except CutepyError as e:
        assert d.error is not None and type(d.error) is type(e), (name, args, d.error, e)
        assert "fails:" in d.text()
        return d
    assert d.error is None, (name, args, d.error)
    assert d.result == real, (name, args, d.result, real)
    assert d.check()
    return d


@settings(max_examples=150)
@given(composable_pairs())
def test_composition(pair):
    d = _agrees("composition", *pair)
    assert d.text().startswith("composition(") and d.latex().startswith("\\begin{array}")


@settings(max_examples=150)
@given(layouts(), layouts(3))
def test_composition_any_pair_including_failures(A, B):
    _agrees("composition", A, B)


@settings(max_examples=80)
@given(layouts(), st.lists(st.one_of(st.none(), st.integers(1, 6), tiling_layouts(2, 1)),
                           min_size=1, max_size=2))
def test_composition_by_mode(A, tiler):
    _agrees("composition", A, tuple(tiler))


@settings(max_examples=150)
@given(complementable_pairs())
def test_complement(pair):
    _agrees("complement", *pair)
    _agrees("complement", pair[0])


@settings(max_examples=100)
@given(layouts(negative=True), st.integers(1, 64))
def test_complement_failures_too(A, M):
    _agrees("complement", A, M)


@settings(max_examples=100)
@given(divisible_pairs(), st.sampled_from(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]))
def test_divides(pair, name):
    A, T = pair
    _agrees(name, A, T)


@settings(max_examples=60)
@given(layouts(4, 1), tiling_layouts(1, 0), tiling_layouts(1, 0),
       st.sampled_from(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]))
def test_divides_by_mode(A, T0, T1, name):
    if A.rank() < 2:
        A = Layout((A.shape, 2), (A.stride, 64))
    _agrees(name, A, (T0, T1))


@settings(max_examples=100)
@given(injective_layouts(3), tiling_layouts(2),
       st.sampled_from(["logical_product", "zipped_product", "tiled_product", "flat_product",
                        "blocked_product", "raked_product"]))
def test_products(A, B, name):
    _agrees(name, A, B)


@settings(max_examples=60)
@given(layouts(), st.one_of(st.none(), st.tuples(st.just(1)), st.tuples(st.just(1), st.just(1))))
def test_coalesce_and_filter(A, profile):
    _agrees("coalesce", A, profile) if profile is not None else _agrees("coalesce", A)
    _agrees("filter", A)
    if profile is not None:
        _agrees("filter", A, profile)


@settings(max_examples=100)
@given(layouts())
def test_inverses(A):
    _agrees("right_inverse", A)
    _agrees("left_inverse", A)


def test_tile_to_shape_and_fallback():
    _agrees("tile_to_shape", Layout((2, 2)), (4, 6))
    _agrees("tile_to_shape", Layout((2, 2)), (4, 6), (1, 0))
    d = explain("max_common_vector", Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
    assert d.result == 4 and "computed directly" in d.text()


def test_seed_examples_step_by_step():
    d = explain(cutepy.composition, Layout((12, (4, 8)), (59, (13, 1))), cutepy.parse("<3:4, 8:2>"))
    assert str(d.result) == "(3,(2,4)):(236,(26,1))"
    assert "mode 0: 12:59 o 3:4" in d.text()
    d = explain("logical_product", Layout((2, 2), (4, 1)), Layout(6, 1))
    assert str(d.result) == "((2,2),(2,3)):((4,1),(2,8))"
    assert "complement(A, 24) = (2,3):(2,8)" in d.text()
    d = explain("coalesce", Layout((2, (1, 6)), (1, (6, 2))), (1, 1))
    assert str(d.result) == "(2,6):(1,2)"


def test_failures_are_explained():
    d = run("composition", Layout((4, 6), (1, 5)), Layout(8, 3))
    assert isinstance(d.error, AdmissibilityError)
    assert "stride divisibility fails at mode 0" in d.text()
    d = explain("composition", Layout((4, 6), (1, 5)), Layout(8, 3))  # explain does not raise
    assert d.result is None and d.check()
    with pytest.raises(CutepyError, match="no operation"):
        explain("no_such_op", Layout(4))


def test_swizzled_and_symbolic_derivations():
    sw = cutepy.Swizzle(3, 4, 3)
    d = explain("composition", cutepy.composition(sw, Layout((8, 128), (128, 1))), (8, 64))
    assert str(d.result).startswith("Sw<3,4,3> o 0 o")
    M, N = cutepy.symbols("Md Nd", multiple_of=(8, 128), min=(16, 256))
    d = explain("zipped_divide", Layout((M, N), (N, 1)), (8, 128))
    assert str(d.result) == "((8,128),(Md/8,Nd/128)):((Nd,1),(8*Nd,128))"
    assert "complement(T, size(A)) = complement(8:1, Md)" in d.text()
    assert "\\frac{Md}{8}" in d.latex()


def test_pictures_and_html():
    d = explain("logical_divide", Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))
    pics = d.pictures()
    assert pics and all(hasattr(L, "shape") for _, L in pics)
    assert str(pics[-1][1]) == "((2,2),(2,3)):((4,1),(2,8))"
    html = d._repr_html_()
    assert "<ol>" in html and "logical_divide" in html and "<img" not in html  # draws nothing itself
    from cutepy.viz.display import mimebundle

    shown = mimebundle(d)["text/html"]
    assert 'alt="((2,2),(2,3)):((4,1),(2,8))"' in shown  # Jupyter shows the result's picture as an <img>


def test_explain_knows_the_public_operations_by_their_names():
    from cutepy.derivation.operations import OPERATIONS

    for name in ("composition", "complement", "coalesce", "filter", "logical_divide", "zipped_divide",
                 "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product",
                 "flat_product", "blocked_product", "raked_product", "tile_to_shape", "right_inverse",
                 "left_inverse", "max_common_vector", "upcast", "downcast", "size", "cosize"):
        assert OPERATIONS[name].__name__ == name and name in cutepy.__all__, name
    for name, fn in OPERATIONS.items():  # one home: what explain runs is what cutepy exports
        assert getattr(cutepy, name) is fn, name
    d = explain(cutepy.tiled_divide, Layout((8, 6)), (4, 3))
    assert d.steps[-1].text == "unpack the rest modes next to the tile" and d.check()
