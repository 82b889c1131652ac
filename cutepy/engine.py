"""The pad/reshape/transpose engine: array programs compiled into CuTe layouts.

An array program starts from a logical array (numpy C order) and rearranges its
buffer with ``pad`` (zero-fill at the end of each dim), ``reshape`` and ``transpose``.
The final buffer is the last array flattened in C order. XLA's tiled layouts are such
programs, and so are TPU-MLIR's local-memory layouts; both compile here.

Each step is itself a CuTe layout on the current array's linear index: ``reshape``
keeps the index, ``transpose`` permutes it, ``pad`` injects it into a larger box. The
program's layout is their composition, computed with :func:`cutepy.composition`. When a
composition is admissible the steps fold into one layout with one mode per logical
dim; when it is not (a padded sub-tile, a split that does not divide) the engine
keeps a *chain* of layouts, applied in order, and says which step broke affinity.

>>> p = compile_program((3, 5), [("pad", (4, 6)), ("reshape", (2, 2, 3, 2)),
...                               ("transpose", (0, 2, 1, 3))])
>>> p.form, str(p.layout)
('layout', '((2,2),(2,3)):((2,12),(1,4))')
>>> p(2, 3)
17
>>> q = compile_program((3,), [("pad", (4,)), ("reshape", (2, 2)), ("transpose", (1, 0)),
...                            ("reshape", (4,)), ("pad", (6,)), ("reshape", (3, 2))])
>>> q.form
'layout'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from . import inttuple as it
from .composition import composition
from .errors import AdmissibilityError, CutepyError, SymbolicError
from .layout import Layout

Step = tuple  # ("pad", shape) | ("reshape", shape) | ("transpose", perm)


def c_strides(shape: Sequence[int]) -> list[int]:
    """C-order (row-major) strides of ``shape``: ``(2,3,4) -> [12,4,1]``."""
    out = [1] * len(shape)
    acc = 1
    for k in range(len(shape) - 1, -1, -1):
        out[k] = acc
        acc *= shape[k]
    return out


def linear_layout(shape: Sequence[int], strides: Sequence[int]) -> Layout:
    """The layout, indexed by the C-order linear index of an array of ``shape``, that sends
    each element to ``sum(c_k * strides[k])``. Its modes run minor dim first."""
    if not shape:
        return Layout._new(1, 0)
    s = tuple(reversed(tuple(shape)))
    d = tuple(reversed(tuple(strides)))
    return Layout._new(s, d)


def transpose_layout(shape: Sequence[int], perm: Sequence[int]) -> Layout:
    """Linear index of an array of ``shape`` -> linear index of ``transpose(perm)`` of it."""
    new_shape = [shape[p] for p in perm]
    new_strides = c_strides(new_shape)
    strides = [0] * len(shape)
    for q, p in enumerate(perm):
        strides[p] = new_strides[q]
    return linear_layout(shape, strides)


def pad_layout(shape: Sequence[int], new_shape: Sequence[int]) -> Layout:
    """Linear index of an array of ``shape`` -> its linear index once padded to ``new_shape``."""
    return linear_layout(shape, c_strides(new_shape))


@dataclass(frozen=True)
class ChainLayout:
    """Layouts applied in order: ``stages[-1] o ... o stages[0]``.

    ``stages[0]`` takes the logical coordinate; every later stage takes the previous
    one's offset as a 1-D index.
    """

    stages: tuple[Layout, ...]

    @property
    def shape(self) -> Any:
        return self.stages[0].shape

    def size(self) -> Any:
        return self.stages[0].size()

    def rank(self) -> int:
        return self.stages[0].rank()

    def __call__(self, *crd: Any) -> Any:
        x = self.stages[0](*crd)
        for L in self.stages[1:]:
            x = L(x)
        return x

    def offsets(self, indices: Any = None) -> np.ndarray:
        x = self.stages[0].offsets(indices)
        for L in self.stages[1:]:
            x = L.offsets(x)
        return x

    def __str__(self) -> str:
        return " o ".join(f"[{L}]" for L in reversed(self.stages))

    __repr__ = __str__


@dataclass(frozen=True)
class CompiledLayout:
    """An array program (or XLA layout) compiled to CuTe: one layout, or a chain of them.

    ``layout`` is the single :class:`Layout` (``form == "layout"``) or a
    :class:`ChainLayout` (``form == "chain"``); either way its first stage has one mode
    per logical dim, over the padded domain ``domain``. ``logical_shape`` is the valid
    region; ``breaks`` says, for a chain, which steps could not fold and why.
    """

    layout: Any
    logical_shape: tuple[int, ...]
    domain: tuple[int, ...]
    buffer_size: int
    breaks: tuple[str, ...] = field(default=())

    @property
    def form(self) -> str:
        return "layout" if type(self.layout) is Layout else "chain"

    @property
    def stages(self) -> tuple[Layout, ...]:
        return (self.layout,) if type(self.layout) is Layout else self.layout.stages

    def __call__(self, *index: Any) -> Any:
        """Offset of the element at a logical index (one int per logical dim)."""
        if len(index) == 1 and isinstance(index[0], tuple):
            index = index[0]
        if len(index) != len(self.logical_shape):
            raise CutepyError(
                f"index {index} has {len(index)} entries; the array has {len(self.logical_shape)} dims"
            )
        if not index:
            return self.layout(0)
        return self.layout(*index) if len(index) > 1 else self.layout(index[0])

    def offsets(self) -> np.ndarray:
        """Offsets of every logical element, as an int64 array of the logical shape."""
        return logical_offsets(self.layout, self.logical_shape)

    def __str__(self) -> str:
        return str(self.layout)

    __repr__ = __str__


def logical_offsets(layout: Any, logical_shape: Sequence[int]) -> np.ndarray:
    """``layout(e)`` for every ``e`` of the box ``logical_shape`` (C order), vectorized.

    A single layout is evaluated mode by mode and summed with broadcasting straight into
    the output (no full-size temporaries); a chain runs its later stages on the result.
    """
    n = len(logical_shape)
    first = layout if type(layout) is Layout else layout.stages[0]
    out = np.empty(tuple(logical_shape), dtype=np.int64)
    if out.size == 0:
        return out
    if n == 0:
        out[()] = first(0)
    else:
        parts = []
        for j in range(n):
            mode = first[j] if n > 1 or type(first.shape) is tuple else first
            v = mode.offsets(np.arange(logical_shape[j], dtype=np.int64))
            parts.append(v.reshape((1,) * j + (-1,) + (1,) * (n - j - 1)))
        if n == 1:
            out[...] = parts[0]
        else:
            acc = parts[0]
            for p in parts[1:-1]:
                acc = acc + p  # grows only over the leading dims
            np.add(acc, parts[-1], out=out)
    if type(layout) is Layout:
        return out
    flat = out.reshape(-1)
    for L in layout.stages[1:]:
        flat = L.offsets(flat)
    return flat.reshape(out.shape)


def _check_shape(shape: Any, what: str) -> tuple[int, ...]:
    try:
        t = tuple(x if type(x) is int else _extent(x) for x in shape)
    except SymbolicError:  # a symbolic extent the facts do not make an integer: say which fact
        raise
    except (TypeError, ValueError):
        raise CutepyError(f"{what}: {shape!r} is not a tuple of integers") from None
    for x in t:
        if x < 1:  # a symbolic extent: decided from the facts, or Undecided naming the fact
            raise CutepyError(f"{what}: extents must be positive, got {t}")
    return t


def _extent(x: Any) -> Any:
    """``int(x)``, or a symbolic extent (an ``Integral`` without ``__index__``) as it is."""
    if isinstance(x, Integral) and type(x) is not bool and not hasattr(type(x), "__index__"):
        return x
    return int(x)


def compile_program(logical_shape: Sequence[int], steps: Sequence[Step],
                    lift_leading_pads: bool = True) -> CompiledLayout:
    """Compile pad/reshape/transpose steps over a logical array of ``logical_shape``.

    With ``lift_leading_pads``, pads that come before any reshape (so they pad logical
    dims, possibly permuted) widen the layout's domain instead of being composed: the
    result is then defined on the padded logical box, as XLA's tiling formula is.
    """
    logical = _check_shape(logical_shape, "logical shape")
    n = len(logical)
    domain = list(logical)
    cur = list(logical)
    dims_of = list(range(n))  # which logical dim each current dim is, before any reshape
    steps = list(steps)
    k0 = 0
    if lift_leading_pads:
        # pads (and transposes) before the first reshape widen the domain
        while k0 < len(steps) and steps[k0][0] in ("pad", "transpose"):
            kind, arg = steps[k0][0], steps[k0][1]
            if kind == "transpose":
                perm = _check_perm(arg, len(cur), k0)
                cur = [cur[p] for p in perm]
                dims_of = [dims_of[p] for p in perm]
            else:
                new = _check_pad(arg, cur, k0)
                for q, e in enumerate(new):
                    domain[dims_of[q]] = e
                cur = list(new)
            k0 += 1
        cur = list(domain)
        # re-apply the leading transposes on the widened domain
        head = Layout._new(tuple(domain), tuple(c_strides(domain))) if n else Layout._new(1, 0)
        pre_perm = _compose_perms(steps[:k0], n)
        if pre_perm != list(range(n)):
            head = composition(transpose_layout(cur, pre_perm), head)
            cur = [cur[p] for p in pre_perm]
    else:
        head = Layout._new(tuple(domain), tuple(c_strides(domain))) if n else Layout._new(1, 0)
    done: list[Layout] = []
    breaks: list[str] = []
    for k in range(k0, len(steps)):
        kind = steps[k][0]
        arg = steps[k][1] if len(steps[k]) > 1 else None
        if kind == "reshape":
            new = _check_shape(arg, f"step {k} (reshape)")
            if it.product(new) != it.product(tuple(cur)):
                raise CutepyError(
                    f"step {k} (reshape): cannot reshape {tuple(cur)} ({it.product(tuple(cur))} "
                    f"elements) to {new} ({it.product(new)} elements)"
                )
            cur = list(new)
            continue
        if kind == "transpose":
            perm = _check_perm(arg, len(cur), k)
            step_layout = transpose_layout(cur, perm)
            cur = [cur[p] for p in perm]
        elif kind == "pad":
            new = _check_pad(arg, cur, k)
            step_layout = pad_layout(cur, new)
            cur = list(new)
        else:
            raise CutepyError(f"step {k}: unknown operation {kind!r} (pad, reshape, transpose)")
        try:
            head = composition(step_layout, head)
        except AdmissibilityError as e:
            breaks.append(f"step {k} ({kind} to {tuple(cur)}): {e}")
            done.append(head)
            head = step_layout
    if done:
        layout: Any = ChainLayout(tuple(done) + (head,))
    else:
        layout = head
    return CompiledLayout(layout, logical, tuple(domain), it.product(tuple(cur)), tuple(breaks))


def _compose_perms(steps: Sequence[Step], n: int) -> list[int]:
    perm = list(range(n))
    for s in steps:
        if s[0] == "transpose":
            perm = [perm[p] for p in s[1]]
    return perm


def _check_perm(perm: Any, rank: int, k: int) -> tuple[int, ...]:
    try:
        p = tuple(int(x) for x in perm)
    except (TypeError, ValueError):
        raise CutepyError(f"step {k} (transpose): {perm!r} is not a permutation") from None
    if sorted(p) != list(range(rank)):
        raise CutepyError(
            f"step {k} (transpose): {p} is not a permutation of the {rank} axes 0..{rank - 1}"
        )
    return p


def _check_pad(new: Any, cur: Sequence[int], k: int) -> tuple[int, ...]:
    t = _check_shape(new, f"step {k} (pad)")
    if len(t) != len(cur):
        raise CutepyError(f"step {k} (pad): {t} has {len(t)} dims, the array has {len(cur)}")
    for a, b in zip(cur, t):
        if b < a:
            raise CutepyError(f"step {k} (pad): cannot pad {tuple(cur)} down to {t} (negative pad)")
    return t
