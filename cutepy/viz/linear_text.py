"""Triton's two text views of a linear layout: which thread (or offset) holds each element, and
which element each thread (or offset) holds.

The same text Triton 3.9 prints (``LinearLayout.get_distributed_view`` / ``get_shared_view``,
what Gluon's ``format_tensor_view`` / ``format_hardware_view`` show), character for character
(``tests/data/triton_linear_layouts_kinds.json`` holds Triton's own output: distributed layouts
of rank 1 and 2, shared ones of rank 1 to 3, with and without blocks).

- tensor view of a distributed layout: the tensor as rows of its last dim, each element the
  ``T<thread>:<register>`` that hold it, joined by ``|`` (thread = lane + lanes * warp);
- hardware view: per warp, one line per register, the element each lane holds;
- a shared layout: the offsets as rows of the tensor's last dim, each the element it holds
  (``(i:j)``), or ``Offset: k -> (i,j)`` line by line.

>>> from cutepy.linear import LinearLayout
>>> L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0]], "warp": [], "block": []},
...                  [("dim0", 2), ("dim1", 2)])
>>> print(get_distributed_view(L), end="")
[[T0:0, T0:1]
[ T1:0, T1:1]]
>>> print(get_distributed_view(L, True), end="")
Warp0:
(0,0), (1,0)
(0,1), (1,1)
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CutepyError
from ..linear import LinearLayout

#: elements (or offsets) a view prints at most (the text grows with them)
MAX_VIEW_ELEMENTS = 1 << 16


def _check(L: Any, dims: tuple[str, ...], fn: str) -> LinearLayout:
    if not isinstance(L, LinearLayout):
        raise CutepyError(f"{fn}: expected a cutepy.linear.LinearLayout, got {L!r}")
    if tuple(L.in_dims) != dims:
        raise CutepyError(f"{fn}: the layout's inputs are {list(L.in_dims)}; this view needs {list(dims)}")
    n = 1
    for s in L.in_dims.values():
        n *= s
    if n > MAX_VIEW_ELEMENTS:
        raise CutepyError(f"{fn}: {n} inputs, above the {MAX_VIEW_ELEMENTS} a text view prints")
    return L


def _coord(c: tuple[int, ...], widths: list[int], sep: str) -> str:
    return "(" + sep.join(str(x).rjust(w) for x, w in zip(c, widths)) + ")"


def _rows(cells: list[str], shape: list[int], sep: str) -> str:
    """The first ``prod(shape)`` cells nested as the tensor (numpy's way: a row per last-dim run,
    a bracket per dim); a row opens with its new brackets, then spaces up to the rank."""
    rank = len(shape)
    row = shape[-1]
    lead = shape[:-1]
    nrows = _prod(lead)
    lines = []
    for r in range(nrows):
        digits = _unflatten(r, lead) if lead else ()
        opening = 1 + _run(digits, lambda d, i: d == 0)
        closing = 1 + _run(digits, lambda d, i: d == lead[i] - 1)
        body = sep.join(cells[r * row:(r + 1) * row])
        lines.append("[" * opening + " " * (rank - opening) + body + "]" * closing)
    return "\n".join(lines) + "\n"


def _run(digits: tuple[int, ...], ok: Any) -> int:
    """How many of the trailing ``digits`` (innermost first) satisfy ``ok(digit, position)``."""
    n = 0
    for i in range(len(digits) - 1, -1, -1):
        if not ok(digits[i], i):
            break
        n += 1
    return n


def get_distributed_view(L: LinearLayout, hardware: bool = False) -> str:
    """Triton's text of a distributed layout (inputs ``register, lane, warp, block``).

    ``hardware=False``: the tensor's elements in rows of its last dim, each listing the
    ``T<thread>:<register>`` that hold it; ``hardware=True``: warp by warp, one line per
    register, the element every lane holds.

    Pre:  ``L`` a LinearLayout with inputs exactly ``register, lane, warp, block`` and at most
          :data:`MAX_VIEW_ELEMENTS` inputs in all. Post: Triton's own text.

    >>> from cutepy.linear import from_gluon
    >>> L = from_gluon("BlockedLayout(size_per_thread=[1], threads_per_warp=[32], "
    ...                "warps_per_cta=[1], order=[0])", [4])
    >>> get_distributed_view(L).splitlines()[0][:30]
    '[ T0:0| T4:0| T8:0|T12:0|T16:0'
    """
    L = _check(L, ("register", "lane", "warp", "block"), "get_distributed_view")
    sizes = L.in_dims
    shape = list(L.out_dims.values())
    widths = [len(str(s - 1)) for s in shape]
    R, Ln, W, B = sizes["register"], sizes["lane"], sizes["warp"], sizes["block"]
    if hardware:
        out = []
        for b in range(B):
            if B > 1:
                out.append(f"Block{b}:")
            for w in range(W):
                out.append(f"Warp{w}:")
                for r in range(R):
                    out.append(", ".join(_coord(L(register=r, lane=ln, warp=w, block=b), widths, ",")
                                         for ln in range(Ln)))
        return "\n".join(out) + "\n"
    holders: dict[tuple[int, ...], list[str]] = {}
    for b in range(B):
        for w in range(W):
            for ln in range(Ln):
                t = ln + Ln * w
                for r in range(R):
                    tag = f"T{t}:{r}" if B == 1 else f"B{b}:T{t}:{r}"
                    holders.setdefault(L(register=r, lane=ln, warp=w, block=b), []).append(tag)
    width = max(len(x) for xs in holders.values() for x in xs)
    cells = []
    for idx in range(_prod(shape)):
        c = _unflatten(idx, shape)
        cells.append("|".join(x.rjust(width) for x in holders.get(c, [])))
    return _rows(cells, shape, ", ")


def get_shared_view(L: LinearLayout, hardware: bool = False) -> str:
    """Triton's text of a shared layout (inputs ``offset, block``).

    ``hardware=False``: the offsets in rows of the tensor's last dim, each showing the element
    it holds as ``(i:j)``; ``hardware=True``: ``Offset: k -> (i,j)`` line by line, block by block
    (each block's first ``size / blocks`` offsets, as Triton prints them).

    Pre:  ``L`` a LinearLayout with inputs exactly ``offset, block``. Post: Triton's own text.

    >>> from cutepy.linear import LinearLayout
    >>> L = LinearLayout({"offset": [[0, 1], [1, 1]], "block": []}, [("dim0", 2), ("dim1", 2)])
    >>> print(get_shared_view(L), end="")
    [[(0:0),(0:1)]
    [ (1:1),(1:0)]]
    """
    L = _check(L, ("offset", "block"), "get_shared_view")
    shape = list(L.out_dims.values())
    widths = [len(str(s - 1)) for s in shape]
    B = L.in_dims["block"]
    # Triton shows each block's share of the tensor: prod(shape) / blocks offsets (a layout with
    # broadcast offsets has more; they repeat elements already shown)
    O = min(L.in_dims["offset"], max(1, _prod(shape) // B))
    if hardware:
        out = []
        for b in range(B):
            out.append(f"Block: {b}:")
            for o in range(O):
                out.append(f"Offset: {o} -> " + _coord(L(offset=o, block=b), widths, ","))
        return "\n".join(out) + "\n"
    cells = [_coord(L(offset=o, block=b), widths, ":") for b in range(B) for o in range(O)]
    return _rows(cells, shape, ",")


def _prod(xs: list[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def _unflatten(i: int, shape: list[int]) -> tuple[int, ...]:
    out = [0] * len(shape)
    for d in range(len(shape) - 1, -1, -1):
        out[d] = i % shape[d]
        i //= shape[d]
    return tuple(out)


__all__ = ["get_distributed_view", "get_shared_view"]
