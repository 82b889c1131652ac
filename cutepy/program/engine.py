"""The pad/reshape/transpose engine: array programs compiled into CuTe layouts.

An array program starts from a logical array (numpy C order) and rearranges its
buffer with ``pad`` (zero-fill at the end of each dim), ``reshape`` and ``transpose``.
The final buffer is the last array flattened in C order. XLA's tiled layouts are such
programs, and so are TPU-MLIR's local-memory layouts; both compile here.

Each step is itself a CuTe layout on the current array's linear index: ``reshape``
keeps the index, ``transpose`` permutes it, ``pad`` injects it into a larger box. The
program's layout is their composition, computed with :func:`cutepy.algebra.composition`. When a
composition is admissible the steps fold into one layout with one mode per logical
dim; when it is not (a padded sub-tile, a split that does not divide) the engine
keeps a *chain* of layouts, applied in order, and says which step broke affinity.

Padding, the engine's one model of it: pads (and transposes) that come before the first
reshape pad logical dims, so they widen the layout's *domain* (the padded logical box,
on which XLA's tiling formula is defined) instead of being composed; every later pad is
a step layout like the others. With ``trim=True`` the engine then gives each widened
dim back its logical extent wherever the layout allows that cut (a composition with
``e:1`` on that mode), which is what a traced program wants; nothing downstream undoes
padding.

Evaluation, the one per-dimension evaluator: :func:`evaluate` sums the dims' mode
offsets with broadcasting (over a whole box or over rows of indices) and runs a chain's
later stages on the result. Offsets that may pass ``2**63 - 1`` (see
:func:`offset_bound`) are computed with Python ints (an ``object`` array) instead of
wrapping around in int64.

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

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..algebra.composition import composition
from ..core import inttuple as it
from ..core.errors import AdmissibilityError, CutepyError, SymbolicError
from ..core.layout import Layout
from ..core.lazy import load

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError

Step = tuple  # ("pad", shape) | ("reshape", shape) | ("transpose", perm)

#: The largest offset an int64 holds; :func:`evaluate` switches to Python ints past it.
INT64_MAX = 2**63 - 1

#: The most dims a numpy array has (numpy 2); whole-box tables of higher rank are refused.
MAX_ARRAY_DIMS = 64

#: The most elements a whole-box offset table may have before it is allocated (16 GiB of
#: int64); pass ``limit=`` to :meth:`CompiledLayout.offsets` / :func:`logical_offsets` to
#: raise it.
MAX_TABLE_ELEMENTS = 1 << 31


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
    return Layout._grown(s, d)


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
        return _later_stages(self.stages[1:], x, offset_bound(self) > INT64_MAX)

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

    def offsets(self, limit: int = MAX_TABLE_ELEMENTS) -> np.ndarray:
        """Offsets of every logical element, as an array of the logical shape (int64, or
        Python ints where offsets pass int64: see :func:`evaluate`); refuses more than
        ``limit`` elements (see :func:`logical_offsets`)."""
        return logical_offsets(self.layout, self.logical_shape, limit)

    def __str__(self) -> str:
        return str(self.layout)

    __repr__ = __str__


def dim_layout(layout: Layout, j: int, rank: int) -> Layout:
    """The mode of ``layout`` (one mode per dim of a rank-``rank`` array) that dim ``j`` indexes.

    >>> str(dim_layout(Layout((2, 3), (3, 1)), 1, 2)), str(dim_layout(Layout(4, 2), 0, 1))
    ('3:1', '4:2')
    """
    return layout[j] if rank > 1 or type(layout.shape) is tuple else layout


def offset_bound(layout: Any) -> int:
    """An upper bound on ``|offset|`` over the domain of a layout or chain (0 if symbolic).

    For one layout, ``sum((s - 1) * |d|)`` over its leaves; for a chain, the largest of
    its stages' bounds (each later stage only sees offsets inside its own domain).

    >>> offset_bound(Layout((2, 3), (3, -1)))
    5
    """
    if type(layout) is ChainLayout:
        return max(offset_bound(L) for L in layout.stages)
    if type(layout) is not Layout:  # a composed stage R o b o N: R sees what b + N gives
        outer = getattr(layout, "outer", None)
        return offset_bound(outer) if type(outer) is Layout else 0
    n = 0
    for s, d in zip(it.flatten_tuple(layout.shape), it.flatten_tuple(layout.stride)):
        if type(s) is int and type(d) is int:
            n += (s - 1) * abs(d)
    return n


def dim_offsets(layout: Layout, j: int, rank: int, values: np.ndarray, wide: bool = False) -> np.ndarray:
    """Offsets of dim ``j``'s mode at the int64 index array ``values``; with ``wide``, as
    Python ints in an ``object`` array (no int64 wrap-around).

    >>> dim_offsets(Layout((2, 3), (3, 1)), 0, 2, np.arange(2)).tolist()
    [0, 3]
    """
    mode = dim_layout(layout, j, rank)
    if not wide:
        return mode.offsets(values)
    flat = [mode(int(v)) for v in np.asarray(values).reshape(-1)]
    return np.array(flat + [None], dtype=object)[:-1].reshape(np.shape(values))


def _later_stages(stages: Sequence[Layout], x: np.ndarray, wide: bool) -> np.ndarray:
    for L in stages:
        x = np.frompyfunc(L, 1, 1)(x) if wide else L.offsets(x)
    return x


def evaluate(layout: Any, columns: Sequence[np.ndarray], shape: Sequence[int]) -> np.ndarray:
    """The one per-dimension evaluator of the engines: ``layout(c_0, ..., c_{n-1})`` for the
    index arrays ``columns`` (one per dim, broadcastable to ``shape``), as an array of
    ``shape``.

    Each dim's mode is evaluated once per index value and the parts are summed with
    broadcasting straight into the output (no full-size temporaries); a chain runs its
    later stages on the result. int64 when :func:`offset_bound` fits, else Python ints
    (``dtype=object``). Pre: the indices lie in the layout's domain.

    >>> evaluate(Layout((2, 3), (3, 1)), [np.arange(2)[:, None], np.arange(3)[None, :]], (2, 3)).tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    first = layout if type(layout) is Layout else layout.stages[0]
    n = len(columns)
    wide = offset_bound(layout) > INT64_MAX
    out = np.empty(tuple(shape), dtype=object if wide else np.int64)
    if out.size == 0:
        return out
    if n == 0:
        out[...] = first(0)
    else:
        parts = [dim_offsets(first, j, n, c, wide) for j, c in enumerate(columns)]
        if n == 1:
            out[...] = parts[0]
        else:
            acc = parts[0]
            for p in parts[1:-1]:
                acc = acc + p  # grows only over the leading dims of a box
            np.add(acc, parts[-1], out=out)
    if type(layout) is Layout:
        return out
    return _later_stages(layout.stages[1:], out.reshape(-1), wide).reshape(out.shape)


def box_columns(shape: Sequence[int]) -> list[np.ndarray]:
    """Index columns of the box ``shape`` for :func:`evaluate` (``arange`` along each dim)."""
    n = len(shape)
    return [np.arange(e, dtype=np.int64).reshape((1,) * j + (-1,) + (1,) * (n - j - 1))
            for j, e in enumerate(shape)]


def logical_offsets(layout: Any, logical_shape: Sequence[int], limit: int = MAX_TABLE_ELEMENTS
                    ) -> np.ndarray:
    """``layout(e)`` for every ``e`` of the box ``logical_shape`` (C order): :func:`evaluate`
    over the box. A box of more than ``limit`` elements (default
    :data:`MAX_TABLE_ELEMENTS`) or more than :data:`MAX_ARRAY_DIMS` dims raises a
    :class:`~cutepy.CutepyError` before anything is allocated.

    >>> logical_offsets(Layout((2, 2), (1, 2)), (2, 2)).tolist()
    [[0, 2], [1, 3]]
    """
    if len(logical_shape) > MAX_ARRAY_DIMS:
        raise CutepyError(f"a table over the {len(logical_shape)}-dim box {tuple(logical_shape)} needs "
                          f"more than numpy's {MAX_ARRAY_DIMS} dims; evaluate rows of indices instead")
    n = it.product(tuple(logical_shape)) if logical_shape else 1
    if n > limit:
        raise CutepyError(f"a table of the {n} offsets of the box {tuple(logical_shape)} passes the limit of "
                          f"{limit} elements (cutepy.program.engine.MAX_TABLE_ELEMENTS; "
                          "pass limit= to raise it)")
    return evaluate(layout, box_columns(logical_shape), logical_shape)


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
    """``x`` as an int (no bools, no floats), or a symbolic extent (an ``Integral`` without
    ``__index__``) as it is."""
    if it.is_symbolic_leaf(x):
        return x
    if isinstance(x, bool):
        raise TypeError("a bool is not an extent")
    return operator.index(x)


def _check_steps(steps: Any) -> list[tuple[str, Any]]:
    """The steps as ``(kind, arg)`` pairs; anything else raises a CutepyError naming the step."""
    try:
        steps = list(steps)
    except TypeError:
        raise CutepyError(f"steps: {steps!r} is not a sequence of (operation, argument) pairs") from None
    out = []
    for k, s in enumerate(steps):
        if not isinstance(s, (tuple, list)) or len(s) != 2 or not isinstance(s[0], str):
            raise CutepyError(f"step {k}: {s!r} is not an (operation, argument) pair such as "
                              "('pad', (4, 6))")
        if s[0] not in ("pad", "reshape", "transpose"):
            raise CutepyError(f"step {k}: unknown operation {s[0]!r} (pad, reshape, transpose)")
        out.append((s[0], s[1]))
    return out


def compile_program(logical_shape: Sequence[int], steps: Sequence[Step], trim: bool = False
                    ) -> CompiledLayout:
    """Compile pad/reshape/transpose steps over a logical array of ``logical_shape``.

    Pre: extents are positive ints (or symbolic sizes); each step is ``("pad", shape)``,
    ``("reshape", shape)`` or ``("transpose", perm)`` and is valid on the array before
    it (else a :class:`~cutepy.CutepyError` naming the step).
    Post: ``result(i) ==`` the final C-order offset of logical element ``i`` for every
    ``i`` in the logical box. Pads before the first reshape widen ``result.domain`` (the
    module docstring's padding model); with ``trim``, each widened dim is cut back to
    its logical extent where the layout allows it.

    >>> str(compile_program((3,), [("pad", (4,)), ("reshape", (2, 2)), ("transpose", (1, 0))]))
    '((2,2)):((2,1))'
    >>> compile_program((3,), [("pad", (4,)), ("transpose", (0,))], trim=True).domain
    (3,)
    """
    logical = _check_shape(logical_shape, "logical shape")
    n = len(logical)
    domain = list(logical)
    cur = list(logical)
    dims_of = list(range(n))  # which logical dim each current dim is, before any reshape
    steps = _check_steps(steps)
    # pads (and transposes) before the first reshape widen the domain
    k0 = 0
    while k0 < len(steps) and steps[k0][0] in ("pad", "transpose"):
        kind, arg = steps[k0]
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
    head = Layout._grown(tuple(domain), tuple(c_strides(domain))) if n else Layout._grown(1, 0)
    pre_perm = _compose_perms(steps[:k0], n)
    if pre_perm != list(range(n)):
        head = composition(transpose_layout(cur, pre_perm), head)
        cur = [cur[p] for p in pre_perm]
    done: list[Layout] = []
    breaks: list[str] = []
    for k in range(k0, len(steps)):
        kind, arg = steps[k]
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
        else:
            new = _check_pad(arg, cur, k)
            step_layout = pad_layout(cur, new)
            cur = list(new)
        try:
            head = composition(step_layout, head)
        except AdmissibilityError as e:
            breaks.append(f"step {k} ({kind} to {tuple(cur)}): {e}")
            done.append(head)
            head = step_layout
    layout: Any = ChainLayout(tuple(done) + (head,)) if done else head
    compiled = CompiledLayout(layout, logical, tuple(domain), it.product(tuple(cur)), tuple(breaks))
    return _trimmed(compiled) if trim else compiled


def _trimmed(C: CompiledLayout) -> CompiledLayout:
    """``C`` with each widened dim cut back to its logical extent, mode by mode (a
    composition with ``e:1``), on the modes where that is admissible."""
    if C.domain == C.logical_shape or not C.logical_shape:
        return C
    first = C.stages[0]
    n = len(C.logical_shape)
    tiler: list[Any] = []
    domain = list(C.domain)
    for d, (e, full) in enumerate(zip(C.logical_shape, C.domain)):
        if e == full:
            tiler.append(None)
            continue
        try:
            composition(dim_layout(first, d, n), e)
        except AdmissibilityError:
            tiler.append(None)
            continue
        tiler.append(e)
        domain[d] = e
    if all(t is None for t in tiler):
        return C
    cut = composition(first, tuple(tiler))
    layout = cut if type(C.layout) is Layout else ChainLayout((cut,) + C.stages[1:])
    return CompiledLayout(layout, C.logical_shape, tuple(domain), C.buffer_size, C.breaks)


def _compose_perms(steps: Sequence[Step], n: int) -> list[int]:
    perm = list(range(n))
    for s in steps:
        if s[0] == "transpose":
            perm = [perm[p] for p in s[1]]
    return perm


def _check_perm(perm: Any, rank: int, k: int) -> tuple[int, ...]:
    try:
        p = tuple(operator.index(x) for x in perm)
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
