"""Moving pads towards the front of a step list, so the engine can fold more.

:func:`cutepy.program.engine.compile_program` lifts the pads that come before the first
reshape into the layout's domain: the padded logical box then splits evenly. A pad
that comes *after* a reshape cannot be lifted, and a split of an unpadded extent by a
factor that does not divide it breaks the composition into a chain. Often such a pad
only touches dims that the reshape leaves alone (TPU-MLIR's ``reshape(n, c, h*w)``
followed by ``resize`` of ``c`` to a multiple of the lane count): it then commutes
with the reshape, and with any transpose, and moves to the front.

>>> steps = [("reshape", (2, 5, 6)), ("pad", (2, 8, 8)), ("reshape", (2, 2, 4, 2, 4))]
>>> hoist_pads((2, 5, 2, 3), steps)
[('pad', (2, 8, 2, 3)), ('reshape', (2, 8, 6)), ('pad', (2, 8, 8)), ('reshape', (2, 2, 4, 2, 4))]

The rewrite keeps the program's function on every element (it only reorders zero
fills); :func:`cutepy.program.to_layout` compiles both forms and keeps the one with
fewer stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def reshape_groups(old: Sequence[int], new: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Split a reshape ``old -> new`` into the smallest blocks of dims with equal products.

    >>> reshape_groups((2, 5, 2, 3), (2, 5, 6))
    [([0], [0]), ([1], [1]), ([2, 3], [2])]
    >>> reshape_groups((4, 1), (2, 2))
    [([0], [0, 1]), ([1], [])]
    """
    groups: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(old) or j < len(new):
        gi: list[int] = []
        gj: list[int] = []
        pi = pj = 1
        if i < len(old):
            gi.append(i)
            pi *= old[i]
            i += 1
        if j < len(new):
            gj.append(j)
            pj *= new[j]
            j += 1
        while pi != pj:
            if pi < pj:
                gi.append(i)
                pi *= old[i]
                i += 1
            else:
                gj.append(j)
                pj *= new[j]
                j += 1
        groups.append((gi, gj))
    return groups


def _one_to_one(old: Sequence[int], new: Sequence[int]) -> dict[int, int]:
    """New dims that are an old dim unchanged by the reshape: ``{new_dim: old_dim}``."""
    out: dict[int, int] = {}
    for gi, gj in reshape_groups(old, new):
        bi = [k for k in gi if old[k] != 1]
        bj = [k for k in gj if new[k] != 1]
        if len(bi) == 1 and len(bj) == 1:
            out[bj[0]] = bi[0]
    return out


def hoist_pads(shape: Sequence[int], steps: Sequence[tuple], labels: list[Any] | None = None
               ) -> list[tuple]:
    """Move each pad of ``steps`` (engine steps over an array of ``shape``) as early as it goes.

    A pad moves before a transpose (permuted), merges with a pad just before it, and moves
    before a reshape on the dims that the reshape keeps whole. ``labels``, parallel to
    ``steps``, is rewritten in place alongside (a moved pad keeps its label).

    >>> hoist_pads((6,), [("reshape", (2, 3)), ("transpose", (1, 0)), ("pad", (4, 2))])
    [('reshape', (2, 3)), ('pad', (2, 4)), ('transpose', (1, 0))]
    """
    out = [tuple(s) for s in steps]
    lab = list(labels) if labels is not None else [None] * len(out)
    changed = True
    while changed:
        changed = False
        shapes = _shapes_before(shape, out)
        for k in range(1, len(out)):
            if out[k][0] != "pad":
                continue
            prev, target = out[k - 1], tuple(out[k][1])
            if prev[0] == "pad":
                out[k - 1 : k + 1] = [("pad", target)]
                lab[k - 1 : k + 1] = [lab[k]]
            elif prev[0] == "transpose":
                perm = prev[1]
                before = [0] * len(perm)
                for q, p in enumerate(perm):
                    before[p] = target[q]
                out[k - 1 : k + 1] = [("pad", tuple(before)), prev]
                lab[k - 1 : k + 1] = [lab[k], lab[k - 1]]
            elif prev[0] == "reshape":
                old, new = shapes[k - 1], tuple(prev[1])
                keep = {nd: od for nd, od in _one_to_one(old, new).items() if target[nd] != new[nd]}
                if not keep:
                    continue
                pre, mid = list(old), list(new)
                for nd, od in keep.items():
                    pre[od] = target[nd]
                    mid[nd] = target[nd]
                rep: list[tuple] = [("pad", tuple(pre)), ("reshape", tuple(mid))]
                rl = [lab[k], lab[k - 1]]
                if tuple(mid) != target:
                    rep.append(("pad", target))
                    rl.append(lab[k])
                out[k - 1 : k + 1] = rep
                lab[k - 1 : k + 1] = rl
            else:
                continue
            changed = True
            break
    if labels is not None:
        labels[:] = lab
    return out


def _shapes_before(shape: Sequence[int], steps: Sequence[tuple]) -> list[tuple[int, ...]]:
    cur = tuple(shape)
    out = []
    for kind, arg in steps:
        out.append(cur)
        if kind == "transpose":
            cur = tuple(cur[p] for p in arg)
        else:
            cur = tuple(arg)
    return out
