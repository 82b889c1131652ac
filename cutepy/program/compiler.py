"""Compiling a traced program: from each input's coordinates to offsets in the final buffer.

The final buffer is the program's result flattened in C order. Every input of the
program (and every :func:`~cutepy.program.broadcast_to` view, see below) is a
*piece*: a map from its logical coordinates to offsets in that buffer. A piece is
``base + layout``, where ``layout`` is one CuTe :class:`~cutepy.Layout` when the
steps fold (form ``"layout"``) or a :class:`~cutepy.program.engine.ChainLayout` of stages
applied in order when a step breaks affinity (form ``"chain"``); ``breaks`` says
which step and why. A program without ``concatenate`` has one piece.

How the steps become layouts: ``pad``, ``reshape`` and ``transpose`` go to the shared
engine :func:`cutepy.program.engine.compile_program` (after :func:`~.rewrite.hoist_pads`,
when that folds more). A ``concatenate`` places each operand in the result at an
offset along the axis: a pad plus a translation ``low`` of its coordinates (the same
as ``np.pad`` with a *before* width). Translations commute with transposes and pads;
at a reshape they become a constant only when the rest of the program, as one
layout, is additive over the translated box, which is checked mode by mode. If it is
not, the piece's chain gets a stage ``R o b o N:1`` (a composed layout that adds the
offset ``b`` before ``R``).

>>> from cutepy.program import broadcast_to, concatenate, resize, trace
>>> a = trace((2, 5, 2, 3), "a")
>>> b = resize(a.reshape(2, 5, 6), (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4)
>>> p = to_layout(b)
>>> p.form, str(p.layout), p(1, 4, 1, 2)
('layout', '(2,(4,2),2,3):(16,(32,8),3,1)', 29)
>>> e = concatenate([trace((4, 1, 4), "bias"), trace((4, 12, 4), "weight")], axis=1)
>>> [str(q) for q in to_layout(e).pieces]
['(4,1,4):(52,4,1)', '4 + (4,12,4):(52,4,1)']

A broadcast is a numpy view: ``broadcast_to`` adds stride-0 dims to the array it
reads. Its result is an input of the program that consumes it (a piece indexed by the
broadcast coordinates), and the piece's ``view`` holds the stride-0 layout from
those coordinates to the element of the viewed array's buffer that they read:

>>> v = to_layout(resize(broadcast_to(trace((3,), "bias"), (2, 3)), (2, 4))).pieces[0]
>>> str(v), str(v.view.layout)
('(2,3):(4,1)', '(2,3):(0,1)')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..algebra.composed import ComposedLayout
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.lazy import load
from ..core.limits import max_elements
from .engine import ChainLayout, CompiledLayout, c_strides, dim_offsets
from .engine import compile_program as _engine_compile
from .rewrite import hoist_pads
from .trace import ProgramError, TracedArray, known_size

np = load("numpy")  # numpy loads on first use (the module's import needs none)


class Op(NamedTuple):
    """One step on a piece's path: ``kind`` is ``reshape``/``transpose``/``pad``; for a pad,
    ``low`` is the translation (zeros for ``resize``); ``label`` names it in messages."""

    kind: str
    arg: tuple
    low: tuple[int, ...] | None
    label: str


def _lin(coord: Sequence[int], shape: Sequence[int]) -> int:
    return sum(c * s for c, s in zip(coord, c_strides(shape)))


@dataclass(frozen=True)
class BroadcastView:
    """A ``broadcast_to`` view: ``layout`` sends each coordinate of the broadcast array
    (shape ``shape``) to the offset it reads in the viewed array's C-order buffer (shape
    ``source_shape``), with stride 0 on the broadcast dims; ``child`` is the compiled
    program that made the viewed array.

    >>> from cutepy.program import broadcast_to, to_layout, trace
    >>> to_layout(broadcast_to(trace((5, 1)), (2, 5, 3))).pieces[0].view.layout
    (2,5,3):(0,1,0)
    """

    shape: tuple[int, ...]
    source_shape: tuple[int, ...]
    layout: Layout
    child: CompiledProgram


@dataclass(frozen=True)
class Piece:
    """One input's map into the final buffer: ``offset(x) = base + compiled(x)``.

    >>> from cutepy.program import trace
    >>> p = to_layout(trace((2, 3), "x").T).pieces[0]
    >>> p.base, p.compiled.layout
    (0, (2,3):(1,2))
    """

    source: TracedArray
    compiled: CompiledLayout
    base: int
    path: tuple[Op, ...]
    view: BroadcastView | None = None

    @property
    def name(self) -> str:
        s = self.source
        return s.name if s.op == "input" else s.describe()

    @property
    def logical_shape(self) -> tuple[int, ...]:
        return self.compiled.logical_shape

    @property
    def layout(self) -> Any:
        """The :class:`Layout` or :class:`ChainLayout` (offsets relative to ``base``)."""
        return self.compiled.layout

    @property
    def form(self) -> str:
        return self.compiled.form

    @property
    def breaks(self) -> tuple[str, ...]:
        return self.compiled.breaks

    @property
    def stages(self) -> tuple[Any, ...]:
        return self.compiled.stages

    def __call__(self, *index: Any) -> int:
        """Offset in the final buffer of the element at a logical index."""
        return self.base + int(self.compiled(*index))

    def offsets(self) -> np.ndarray:
        """Offsets of every element, as an int64 array of the logical shape."""
        return self.compiled.offsets() + self.base

    def __str__(self) -> str:
        return f"{self.base} + {self.layout}" if self.base else str(self.layout)

    __repr__ = __str__


@dataclass(frozen=True)
class CompiledProgram:
    """A traced program compiled to pieces (one per input occurrence), in program order.

    ``form`` is ``"layout"`` (one piece, one layout, maybe with a base offset),
    ``"chain"`` (one piece, a chain of layouts) or ``"pieces"`` (a concatenation).

    >>> from cutepy.program import trace
    >>> c = to_layout(trace((2, 3), "x").T)
    >>> c.form, c.layout
    ('layout', (2,3):(1,2))
    """

    program: TracedArray
    pieces: tuple[Piece, ...]
    buffer_shape: tuple[int, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def buffer_size(self) -> int:
        return known_size(self.buffer_shape)

    @property
    def form(self) -> str:
        return self.pieces[0].form if len(self.pieces) == 1 else "pieces"

    def _single(self) -> Piece:
        if len(self.pieces) != 1:
            raise CutepyError(f"the program has {len(self.pieces)} pieces (a concatenation); "
                              "use .pieces")
        return self.pieces[0]

    @property
    def layout(self) -> Any:
        """The one piece's layout (or chain); for a concatenation, use ``pieces``."""
        return self._single().layout

    @property
    def base(self) -> int:
        return self._single().base

    @property
    def breaks(self) -> tuple[str, ...]:
        if len(self.pieces) == 1:
            return self.pieces[0].breaks
        return tuple(f"piece {k} ({p.name}): {b}" for k, p in enumerate(self.pieces) for b in p.breaks)

    def __call__(self, *index: Any) -> int:
        return self._single()(*index)

    def offsets(self) -> np.ndarray:
        return self._single().offsets()

    def explain(self) -> str:
        """Which form the program compiled to, piece by piece, and why.

        >>> from cutepy.program import trace
        >>> print(to_layout(trace((6,), "x").reshape(2, 3).T).explain())
        x.reshape(2, 3).transpose(1, 0) -> buffer (3, 2): one layout
          x (6,): ((3,2)):((2,1))
        """
        head = f"{self.program.describe()} -> buffer {self.buffer_shape}: "
        if self.form == "pieces":
            head += f"{len(self.pieces)} pieces (concatenate)"
        elif self.form == "layout":
            head += "one layout"
        else:
            head += f"a chain of {len(self.pieces[0].stages)} layouts"
        lines = [head]
        for p in self.pieces:
            kind = "" if len(self.pieces) == 1 else f" [{p.form}]"
            dom = "" if p.compiled.domain == p.logical_shape else f" (padded to {p.compiled.domain})"
            lines.append(f"  {p.name} {p.logical_shape}{dom}{kind}: {p}")
            for b in p.breaks:
                lines.append(f"    breaks at {b}")
            if p.view is not None:
                lines.append(f"    reads {p.source.parents[0].describe()} {p.view.source_shape} "
                             f"through the stride-0 view {p.view.layout}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()

    __repr__ = __str__


# --- paths --------------------------------------------------------------------------------
def piece_paths(x: TracedArray) -> list[tuple[TracedArray, list[Op]]]:
    """For each input occurrence of ``x``'s program (inputs and broadcast views, in order),
    the steps from it to ``x``; a concatenation becomes a pad with a translation."""
    if x.op in ("input", "broadcast"):
        return [(x, [])]
    if x.op == "concatenate":
        ax = x.args[0]
        out = []
        off = 0
        for i, p in enumerate(x.parents):
            low = [0] * x.ndim
            low[ax] = off
            off += p.shape[ax]
            op = Op("pad", x.shape, tuple(low), f"concatenate(axis={ax}) operand {i}")
            out += [(leaf, ops + [op]) for leaf, ops in piece_paths(p)]
        return out
    if x.op == "pad":
        op = Op("pad", x.args[0], x.args[1], x.text)
    elif x.op in ("reshape", "transpose"):
        op = Op(x.op, x.args[0], None, x.text)
    else:  # pragma: no cover - every TracedArray op is listed above
        raise ProgramError(f"unknown step {x.op!r}")
    return [(leaf, ops + [op]) for leaf, ops in piece_paths(x.parents[0])]


_STEP = re.compile(r"^step (\d+) ")


def compile_steps(shape: Sequence[int], ops: Sequence[Op]) -> CompiledLayout:
    """The engine's compilation of ``ops`` (translations ignored), with pads hoisted when
    that gives fewer stages, and break messages naming the program's steps. The engine
    trims the domain back to the logical extents where it can (``trim=True``): a piece is
    indexed by its input's coordinates."""
    steps = [(o.kind, tuple(o.arg)) for o in ops]
    labels = [o.label for o in ops]
    best = _engine_compile(tuple(shape), steps, trim=True)
    best_labels = labels
    if best.form != "layout":
        hl = list(labels)
        hoisted = hoist_pads(shape, steps, hl)
        if hoisted != steps:
            alt = _engine_compile(tuple(shape), hoisted, trim=True)
            if len(alt.stages) < len(best.stages):
                best, best_labels = alt, hl
    breaks = tuple(_STEP.sub(lambda m: f"`{best_labels[int(m.group(1))]}` ", b) for b in best.breaks)
    return CompiledLayout(best.layout, best.logical_shape, best.domain, best.buffer_size, breaks)


def _additive(R: CompiledLayout, low: Sequence[int], ext: Sequence[int]) -> str:
    """Empty when ``R(low + y) == R(low) + R(y)`` for every ``y`` of the box ``ext``;
    otherwise why not."""
    if R.form != "layout":
        return f"the rest of the program is a chain ({R.breaks[0]})"
    n = len(low)
    for d in range(n):
        if not low[d]:
            continue
        if low[d] + ext[d] > max_elements():  # one offset per index along the dim
            raise ProgramError(f"checking that a placed block moves as a whole needs {low[d] + ext[d]} "
                               f"offsets along dim {d}, above the element limit of {max_elements()} "
                               "(raise it with cutepy.limits(max_elements=...))")
        v = dim_offsets(R.layout, d, n, np.arange(low[d] + ext[d], dtype=np.int64))
        bad = np.nonzero(v[low[d]:] != v[low[d]] + v[: ext[d]])[0]
        if bad.size:
            j = int(bad[0])
            return (f"along dim {d} the rest maps {low[d]}+{j} to {v[low[d] + j]}, not "
                    f"{v[low[d]]}+{v[j]}: the placed block does not move as a whole")
    return ""


def _fold(shape: Sequence[int], low: Sequence[int], ext: Sequence[int],
          ops: Sequence[Op]) -> tuple[int | None, str]:
    """The constant ``b`` with ``true(z) = b + M(z - low)`` for every ``z`` of the box
    ``low + [0, ext)`` of an array of ``shape``, where ``M`` compiles ``ops`` with their
    translations dropped; or ``(None, why)``."""
    shape, low, ext = list(shape), list(low), list(ext)
    for k, op in enumerate(ops):
        if op.kind == "pad":
            low = [a + b for a, b in zip(low, op.low or (0,) * len(low))]
            shape = list(op.arg)
        elif op.kind == "transpose":
            shape, low, ext = ([v[p] for p in op.arg] for v in (shape, low, ext))
        elif any(low):
            rest, why = _fold(shape, [0] * len(shape), shape, ops[k:])
            if rest is None:
                return None, why
            R = compile_steps(shape, ops[k:])
            why = _additive(R, low, ext)
            if why:
                return None, f"`{op.label}` reshapes a translated block: {why}"
            return rest + int(R(tuple(low))), ""
        else:
            shape = list(op.arg)
            ext, low = list(shape), [0] * len(shape)
    return _lin(low, shape), ""


def compile_path(shape: Sequence[int], ops: Sequence[Op]) -> tuple[CompiledLayout, int]:
    """Compile one piece: its layout (or chain) and base offset."""
    shape = tuple(shape)
    segs: list[tuple[tuple[int, ...], list[Op], int]] = []
    seg_leaf, seg_ops, shift = shape, [], 0
    cur, low, ext = list(shape), [0] * len(shape), list(shape)
    breaks: list[str] = []
    base = None
    for k, op in enumerate(ops):
        if op.kind == "reshape" and any(low):
            b, why = _fold(cur, low, ext, ops[k:])
            if b is not None:
                seg_ops += ops[k:]
                base = b
                break
            breaks.append(why)
            segs.append((seg_leaf, seg_ops, shift))
            seg_leaf, seg_ops, shift = (known_size(cur),), [], _lin(low, cur)
            low = [0] * len(cur)
        if op.kind == "pad":
            low = [a + b for a, b in zip(low, op.low or (0,) * len(low))]
            cur = list(op.arg)
        elif op.kind == "transpose":
            cur, low, ext = ([v[p] for p in op.arg] for v in (cur, low, ext))
        else:
            cur = list(op.arg)
            ext, low = list(cur), [0] * len(cur)
        seg_ops.append(op)
    if base is None:
        base = _lin(low, cur)
    segs.append((seg_leaf, seg_ops, shift))
    stages: list[Any] = []
    first = None
    size = known_size(shape)
    for i, (leaf, sops, sh) in enumerate(segs):
        C = compile_steps(leaf, sops)
        if first is None:
            first = C
        st = list(C.stages)
        if i:
            st[0] = ComposedLayout(st[0], sh, Layout(known_size(leaf), 1))
        stages += st
        breaks += list(C.breaks)
        size = C.buffer_size
    assert first is not None
    layout = stages[0] if len(stages) == 1 else ChainLayout(tuple(stages))
    return CompiledLayout(layout, shape, first.domain, size, tuple(breaks)), base


def _view(b: TracedArray) -> BroadcastView:
    src = b.parents[0]
    lead = b.ndim - src.ndim
    cs = c_strides(src.shape)
    strides = [0] * lead + [0 if e == 1 and b.shape[lead + k] != 1 else cs[k]
                            for k, e in enumerate(src.shape)]
    layout = Layout(b.shape, tuple(strides)) if b.ndim else Layout(1, 0)
    return BroadcastView(b.shape, src.shape, layout, to_layout(src))


def to_layout(program: TracedArray) -> CompiledProgram:
    """Compile a traced program into pieces (see the module docstring).

    Pre:  ``program`` is a TracedArray (else ``ProgramError``).
    Post: ``check(result)`` passes: every element lands at ``piece.base + piece.compiled(x)``,
          where numpy's C-order buffer of ``run(program)`` has it.

    >>> from cutepy.program import trace, resize
    >>> w = trace((2, 5, 6), "w")
    >>> to_layout(resize(w, (4, 8, 6)).reshape(1, 4, 2, 4, 6).transpose(1, 0, 2, 4, 3)).layout
    (2,(4,2),6):(48,(1,24),4)
    """
    if not isinstance(program, TracedArray):
        raise ProgramError(f"to_layout: {type(program).__name__} is not a traced array")
    pieces = []
    notes = []
    for leaf, ops in piece_paths(program):
        C, base = compile_path(leaf.shape, ops)
        view = _view(leaf) if leaf.op == "broadcast" else None
        pieces.append(Piece(leaf, C, base, tuple(ops), view))
    if any(p.view is not None for p in pieces):
        notes.append("broadcast views are pieces indexed by the broadcast coordinates; "
                     "piece.view.layout reads the viewed array with stride 0")
    return CompiledProgram(program, tuple(pieces), program.shape, tuple(notes))
