"""Explainers for the divides and products: the complement and composition they use.

The algorithms are the real ones (``cutepy/algebra/divides.py``, ``products.py``), which
declare their events and words beside their code; the operations they call show as nested
derivations. ``Zipped``, ``Unzipped`` and ``PairMode`` are worded here: their words name the
operation (divide or product, blocked or raked) that the explainer knows.

>>> from cutepy.core.layout import Layout
>>> from cutepy.derivation import explain
>>> d = explain("logical_divide", Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))
>>> [s.text for s in d.steps]  # doctest: +NORMALIZE_WHITESPACE
['complement(T, size(A)) = complement(4:2, 24) = (2,3):(1,8)', \
'the divisor (T, complement) = (4,(2,3)):(2,(1,8))', \
'A o (T, complement) = ((2,2),(2,3)):((4,1),(2,8))']
>>> print(explain("tiled_product", Layout(2), Layout(3)).text())
tiled_product(2:1, 3:1)
  1. zipped_product(A, B) = (2,3):(1,2)
     1. logical_product(A, B) = (2,3):(1,2)
        1. room for the copies: size(A) * cosize(B) = 2 * 3 = 6
        2. complement(A, 6) = 3:2
           ...
        3. complement o B = 3:2
           ...
        4. A then its copies: (2:1, 3:2)
        = (2,3):(1,2)
     2. a single-layout tiler: the logical product is already (block, copies)
     = (2,3):(1,2)
  2. unpack the copy modes next to the block
  = (2,3):(1,2)
"""

from __future__ import annotations

from collections.abc import Callable

from ..algebra.divides import Divisor, Unzipped, Zipped
from ..algebra.products import Copies, Padded, PairMode, Room
from ..core.events import KeptModes, NoTiler
from .steps import Derivation, fmt
from .words import eq, explainable, said, word

NO_TILER = said(NoTiler, KeptModes)


def _by_mode(op: str) -> Callable:
    """The label of the k-th nested ``op`` of a tuple tiler: ``mode k: op(A_k, T_k)``."""
    return lambda sub, k: eq(f"mode {k}: {op}({sub.args[0]}, {fmt(sub.args[1])})", sub)


@explainable("logical_divide")
def logical_divide_steps(D: Derivation, items: list) -> None:
    word(D, items, {**NO_TILER, **said(Divisor)}, {
        "logical_divide": _by_mode("logical_divide"),
        "complement": lambda sub, k: eq(f"complement(T, size(A)) = complement({sub.args[0]}, "
                                        f"{sub.args[1]})", sub),
        "composition": lambda sub, k: eq("A o (T, complement)", sub),
    })


@explainable("logical_product")
def logical_product_steps(D: Derivation, items: list) -> None:
    room = next((x for x in items if type(x) is Room), None)

    def copies(sub: Derivation, k: int) -> list:
        label = eq("complement o B", sub)
        return [label] if sub.error else [label, f"A then its copies: ({room.A}, {sub.result})"]

    word(D, items, {**NO_TILER, **said(Room)}, {
        "logical_product": _by_mode("logical_product"),
        "complement": lambda sub, k: (eq(f"complement(A, {sub.args[1]})", sub), True),
        "composition": copies,
    })


def _zipped(logical: str, operand: str, pair: str, parts: str) -> Callable:
    """The explainer of a zipped divide or product, which regroups ``logical(A, operand)``."""
    def explain(D: Derivation, items: list) -> None:
        word(D, items, {
            Zipped: lambda n: f"a single-layout tiler: the {logical.replace('_', ' ')} is already {pair}",
            Unzipped: lambda n: f"gather every mode's {parts}: tiles {n.tiles}, rest {n.rest}",
        }, {logical: lambda sub, k: (eq(f"{logical}(A, {operand})", sub), logical == "logical_divide")})
    return explain


def _unpacked(zipped: str, operand: str, text: str) -> Callable:
    """The explainer of a tiled or flat divide or product: ``zipped(A, operand)``, unpacked.

    The unpacking takes no decision (the operation says which), so it reports nothing:
    its step follows the zipped one when that succeeded.
    """
    def explain(D: Derivation, items: list) -> None:
        word(D, items, {}, {zipped: lambda sub, k: eq(f"{zipped}(A, {operand})", sub)})
        if D.error is None:
            D.add(text)
    return explain


explainable("zipped_divide")(_zipped("logical_divide", "T", "(tile, rest)",
                                     "tile part, then every rest part"))
explainable("zipped_product")(_zipped("logical_product", "B", "(block, copies)",
                                      "block part, then every copy part"))
for _name, _zipped_op, _operand, _text in (
    ("tiled_divide", "zipped_divide", "T", "unpack the rest modes next to the tile"),
    ("flat_divide", "zipped_divide", "T", "unpack the tile modes and the rest modes"),
    ("tiled_product", "zipped_product", "B", "unpack the copy modes next to the block"),
    ("flat_product", "zipped_product", "B", "unpack the block modes and the copy modes"),
):
    explainable(_name)(_unpacked(_zipped_op, _operand, _text))


def _interleaved(order: str) -> Callable:
    """The explainer of blocked_product or raked_product, whose modes are ``order``."""
    def explain(D: Derivation, items: list) -> None:
        pad = next((x for x in items if type(x) is Padded), None)
        word(D, items, {
            **said(Padded),
            PairMode: lambda n: f"mode {n.i}: {order} = {n.pair}, coalesced to {n.result}",
        }, {
            "complement": lambda sub, k: eq(f"complement(A, size(A)*cosize(B)) = complement({pad.A}, "
                                            f"{pad.size})", sub),
            "composition": lambda sub, k: (eq("complement o B", sub), True),
        })
    return explain


explainable("blocked_product")(_interleaved("(A_i, copies_i)"))
explainable("raked_product")(_interleaved("(copies_i, A_i)"))


@explainable("tile_to_shape")
def tile_to_shape_steps(D: Derivation, items: list) -> None:
    word(D, items, said(Copies), {
        "blocked_product": lambda sub, k: eq("blocked_product(block, copies)", sub),
        "coalesce": lambda sub, k: eq(f"coalesce by the profile {sub.args[1]}", sub),
    })
