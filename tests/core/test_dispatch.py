"""The dispatch tables: every operation's variants, by kind, listed and complete.

Each public operation takes a Layout (or a shape) in its own body and hands any other kind
of value to the variant registered in its table (:mod:`cutepy.core.kinds`). These tests list
every table, fail when an operation lacks a variant for a kind it must accept, and check that
no operation finds its variant by a built name.
"""

from __future__ import annotations

import ast

import numpy as np
import pytest

import cutepy
from cutepy.core import kinds
from cutepy.core.kinds import ComposedKind, SwizzleKind, TensorKind, ThreadsKind, Variants
from tests.paths import PACKAGE

# the kernel modules (tensors, tiled operations) register their variants when they load, on
# the first use of one of their names: load them all, as a program using them does
assert "make_tensor" in cutepy.__all__

#: every table: operation -> (the kinds it must accept, the types registered for it)
TABLES = {
    "make_layout": ({"SwizzleKind"}, {"Swizzle"}),
    "size": ({"ThreadsKind"}, {"TiledMMA", "TiledCopy"}),
    "is_static": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "get": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "take": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "group": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "append": ({"ComposedKind"}, {"ComposedLayout"}),
    "flatten": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "slice_and_offset": ({"ComposedKind"}, {"ComposedLayout"}),
    "map_layout": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "coalesce": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "filter": ({"ComposedKind"}, {"ComposedLayout"}),
    "complement": ({"ComposedKind"}, {"ComposedLayout"}),
    "composition": ({"SwizzleKind", "ComposedKind", "TensorKind"}, {"Swizzle", "ComposedLayout", "Tensor"}),
    "composition (by B)": ({"SwizzleKind", "ComposedKind"}, {"Swizzle", "ComposedLayout"}),
    "logical_divide": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "zipped_divide": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "tiled_divide": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "flat_divide": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "logical_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "logical_product (by tiler)": ({"ComposedKind"}, {"ComposedLayout"}),
    "zipped_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "tiled_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "flat_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "blocked_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "raked_product": ({"ComposedKind"}, {"ComposedLayout"}),
    "tile_to_shape": ({"ComposedKind"}, {"ComposedLayout"}),
    "upcast": ({"SwizzleKind", "ComposedKind"}, {"Swizzle", "ComposedLayout"}),
    "downcast": ({"SwizzleKind", "ComposedKind"}, {"Swizzle", "ComposedLayout"}),
    "max_alignment": ({"SwizzleKind", "ComposedKind"}, {"Swizzle", "ComposedLayout"}),
    "make_layout_like": ({"ComposedKind"}, {"ComposedLayout"}),
    "make_fragment_like": ({"ComposedKind", "TensorKind"}, {"ComposedLayout", "Tensor"}),
    "right_inverse": ({"ComposedKind"}, {"ComposedLayout"}),
    "left_inverse": ({"ComposedKind"}, {"ComposedLayout"}),
    "nullspace": ({"ComposedKind"}, {"ComposedLayout"}),
    "max_common_layout": ({"ComposedKind"}, {"ComposedLayout"}),
    "max_common_layout (by B)": ({"ComposedKind"}, {"ComposedLayout"}),
    "max_common_vector": ({"ComposedKind"}, {"ComposedLayout"}),
    "max_common_vector (by B)": ({"ComposedKind"}, {"ComposedLayout"}),
}


def test_every_table_is_listed_with_its_kinds_and_variants() -> None:
    found = {name: ({k.__name__ for k in t.accepts}, {c.__name__ for c in t.variants()})
             for name, t in kinds.TABLES.items()}
    assert found == TABLES


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_operation_has_a_variant_for_every_kind_it_must_accept(name: str) -> None:
    assert kinds.TABLES[name].missing() == ()


def test_a_table_missing_a_variant_is_caught() -> None:
    """The completeness check is not blind: a kind without a variant is named."""
    table = Variants("demo", ComposedKind, TensorKind, register=False)
    table.register(cutepy.ComposedLayout, lambda C: C)
    assert table.missing() == (TensorKind,)


def test_a_second_variant_for_one_type_is_refused() -> None:
    table = Variants("demo", SwizzleKind, register=False)
    table.register(cutepy.Swizzle, lambda sw: sw)
    with pytest.raises(ValueError, match="has a variant already"):
        table.register(cutepy.Swizzle, lambda sw: sw)


def test_each_dispatched_operation_is_a_public_operation() -> None:
    for name in TABLES:
        op = name.split(" (")[0]
        if op != "map_layout":  # the divides' and products' unpacking, not public
            assert callable(getattr(cutepy, op)), op


def test_the_value_types_derive_from_their_kinds() -> None:
    assert issubclass(cutepy.Layout, kinds.LayoutKind)
    assert issubclass(cutepy.Swizzle, SwizzleKind)
    assert issubclass(cutepy.ComposedLayout, ComposedKind)
    assert issubclass(cutepy.Tensor, TensorKind)
    assert issubclass(cutepy.TiledMMA, ThreadsKind) and issubclass(cutepy.TiledCopy, ThreadsKind)


def test_a_subclass_takes_its_base_types_variant() -> None:
    class Sub(cutepy.ComposedLayout):
        __slots__ = ()

    C = Sub(cutepy.Swizzle(1, 0, 1), 0, cutepy.Layout((4, 2)))
    assert kinds.COALESCE.of(C) is kinds.COALESCE.of(cutepy.ComposedLayout(C.outer, 0, C.inner))
    assert str(cutepy.coalesce(C)) == "Sw<1,0,1> o 0 o 8:1"


def test_a_layout_or_a_shape_has_no_variant() -> None:
    for x in (cutepy.Layout(4), (2, 3), 5):
        assert all(t.of(x) is None for t in kinds.TABLES.values())


def test_variants_give_cxx_overloads() -> None:
    """A composed layout's variant keeps the swizzle; a tensor's keeps the engine."""
    sw, L = cutepy.Swizzle(3, 4, 3), cutepy.Layout((8, 8), (8, 1))
    C = cutepy.composition(sw, L)
    assert cutepy.logical_divide(C, (2, 4)) == cutepy.ComposedLayout(sw, 0, cutepy.logical_divide(L, (2, 4)))
    T = cutepy.make_tensor(np.arange(64), L)
    R = cutepy.coalesce(T)
    assert R.engine is T.engine and R.layout == cutepy.coalesce(L)
    assert cutepy.make_layout(sw) == cutepy.ComposedLayout(sw, 0, cutepy.Layout(10, 1))
    assert cutepy.upcast(sw, 2) == cutepy.Swizzle(3, 3, 3)


def _private_prefix(name: ast.expr) -> bool:
    """Whether a built attribute name starts with ``_`` (``"_" + op``, ``f"_{op}"``)."""
    first = name.left if isinstance(name, ast.BinOp) else name.values[0] if isinstance(name, ast.JoinedStr) \
        else None
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("_")


def _built_name_lookups(src: str) -> list[int]:
    """Lines that call ``getattr(x, "_" + name)`` (or ``f"_{name}"``): a method found by a built name."""
    lines = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) >= 2 and _private_prefix(node.args[1]):
            lines.append(node.lineno)
    return lines


def test_the_source_reader_sees_a_built_name_lookup() -> None:
    src = ('def f(x, op):\n    return getattr(x, "_" + op, None)\n'
           'def g(x, op):\n    return getattr(x, f"_{op}")\n')
    assert _built_name_lookups(src) == [2, 4]
    assert _built_name_lookups('def h(x, side):\n    return getattr(x, f"layout_{side}")\n') == []


def test_no_operation_finds_its_variant_by_a_built_name() -> None:
    found = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
             if (lines := _built_name_lookups(p.read_text()))}
    assert found == {}
