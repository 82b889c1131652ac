"""The explainer for composition: how the events of ``cutepy/algebra/composition.py`` make steps.

The events and their words are declared beside the algorithm; this module groups the events
of each leaf of B into one nested derivation and words the three whose words depend on the
derivation around them (``ReadA``, ``CoalesceX``, ``Carry``).

``A o B`` coalesces A (``coalesce_x``), then sends each leaf of B through its modes:
at each mode the leaf's stride is divided out and what is left of its shape is
modded out. The events of one leaf become one nested derivation.

>>> from cutepy.core.layout import Layout
>>> from cutepy.derivation import explain
>>> print(explain("composition", Layout((2, 2, 2), (1, 3, 13)), Layout(6, 1)).text())  # doctest: +ELLIPSIS
composition((2,2,2):(1,3,13), 6:1)
  1. coalesce_x(A) = (2,2,2):(1,3,13) (flatten (2,2,2):(1,3,13); nothing merges)
  2. B's leaf 6:1 (B)
     1. mode 0 of A (2:1): divide out stride 1 -> ceil(2/1) = 2 left, ... 6/2 = 3 left
     fails: composition (2,2,2):(1,3,13) o 6:1 is inadmissible: shape divisibility fails at mode 1 ...
  fails: composition (2,2,2):(1,3,13) o 6:1 is inadmissible: shape divisibility fails at mode 1 ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..algebra.coalesce import modes_layout
from ..algebra.composition import (
    BasisLeaf,
    Carry,
    CoalesceX,
    ComposedA,
    ComposedB,
    DroppedModes,
    LastMode,
    LastOne,
    Leaf,
    ReadA,
    Single,
    SizeTiler,
    Skip,
    Take,
    ZeroLeaf,
)
from ..core.events import NoTiler
from ..core.inttuple import flatten_tuple as flatten
from ..core.layout import Layout
from .record import Run
from .steps import Derivation, fmt, lx
from .words import explainable, flat_layout, said, word


def _leaf_paths(shape: Any, path: tuple = ()) -> list:
    """The path of every leaf of ``shape``, in order (``[()]`` for a scalar)."""
    if type(shape) is not tuple:
        return [path]
    return [p for k, s in enumerate(shape) for p in _leaf_paths(s, path + (k,))]


#: the events of one leaf of B, each worded by its own words
LEAF = said(ZeroLeaf, Single, Skip, Take, LastMode, BasisLeaf)


def _mode_out(n: Any) -> tuple | None:
    """The mode that a leaf's event adds to the leaf's result, if any."""
    match n:
        case ZeroLeaf(shape):
            return shape, 0
        case Take():
            return n.new, n.out
        case Single() | LastMode():
            return n.rest[0], n.stride
    return None


@dataclass(frozen=True)
class _LeafSteps:
    """The events of one leaf of B, worded as one nested derivation ``sub``."""

    label: str
    sub: Derivation


def _leaf(events: list, path: tuple, error: Exception | None) -> _LeafSteps:
    """One leaf of B: its derivation (the modes it adds make its result)."""
    first = events[0]
    L = Derivation(f"leaf {first.shape}:{first.stride}", (), error=error)
    word(L, events[1:], LEAF)
    if error is None:
        modes = [_mode_out(n) for n in events]
        L.result = modes_layout([m for m in modes if m is not None])
    where = f"B's mode {','.join(map(str, path))}" if path else "B"
    return _LeafSteps(f"B's leaf {first.shape}:{first.stride} ({where})", L)


def _group_leaves(D: Derivation, items: list) -> list:
    """``items`` with the events of each leaf of B (its ``Leaf`` and what follows) as one item."""
    first = next((i for i, x in enumerate(items) if type(x) is Leaf), len(items))
    out, rest = items[:first], items[first:]
    carry = [rest.pop()] if rest and type(rest[-1]) is Carry else []
    leaves: list = []
    for x in rest:  # a basis leaf's Leaf comes again for the sub-mode it picks: the same leaf
        if type(x) is Leaf and not (leaves and type(leaves[-1][-1]) is BasisLeaf):
            leaves.append([x])
        else:
            leaves[-1].append(x)
    if leaves:
        B = next(x.B for x in out if type(x) is CoalesceX)
        for k, (notes, path) in enumerate(zip(leaves, _leaf_paths(B.shape))):
            failed = D.error is not None and not carry and k == len(leaves) - 1
            out.append(_leaf(notes, path, D.error if failed else None))
    return out + carry


def _coalesce_x(n: CoalesceX, run: Run | None, last_one: bool) -> tuple:
    A = n.A
    X = Layout._new(n.shape, n.stride)
    note = "the last mode has size 1: it counts as 2 so its stride survives; " if last_one else ""
    how = run.how() if run is not None else "nothing merges"
    flat = flat_layout(flatten(A.shape), flatten(A.stride))
    return (f"coalesce_x(A) = {X} ({note}flatten {flat}; {how})",
            rf"\mathrm{{coalesce_x}}(A) = {lx(X)}", X)


def _carry(n: Carry, ok: bool) -> str:
    if ok:
        reach = ", ".join(f"digit {i}: {u} < {s}" for i, (u, s) in enumerate(zip(n.usage, n.shape)))
        return f"carry check on coalesce_x(A), B's modes together reach {reach}: no carry"
    reach = ", ".join(f"digit {i}: {u} (of 0..{s - 1})" for i, (u, s) in enumerate(zip(n.usage, n.shape)))
    return f"carry check on coalesce_x(A), B's modes together reach {reach}"


@explainable("composition")
def composition_steps(D: Derivation, items: list) -> None:
    kinds = {type(x) for x in items}
    # the coalesce that coalesce_x(A) ran: the Run just before the CoalesceX event
    run = next((a for a, b in zip(items, items[1:]) if type(b) is CoalesceX and isinstance(a, Run)), None)
    read_A = "read A = " if isinstance(D.args[0], str) else "A as a layout: "

    def nested(sub: Derivation, k: int) -> str:
        if ComposedA in kinds:
            return f"compose the inner layout {sub.args[0]} with B"
        return f"mode {k}: {sub.args[0]} o {fmt(sub.args[1])}"

    word(D, _group_leaves(D, items), {
        **said(ComposedA, ComposedB, NoTiler, SizeTiler, DroppedModes),
        ReadA: lambda n: f"{read_A}{n.A}",
        CoalesceX: lambda n: _coalesce_x(n, run, LastOne in kinds),
        _LeafSteps: lambda n: (n.label, "", None, n.sub),
        Carry: lambda n: _carry(n, D.error is None),
    }, {"composition": nested})
