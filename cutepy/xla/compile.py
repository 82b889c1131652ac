"""XLA array layouts compiled into CuTe layouts, through the shared pad/reshape/transpose engine.

:func:`program` translates an array shape into the engine's steps, which run on the
logical array (numpy C order, logical dim order):

- ``minor_to_major`` is a ``transpose`` to physical order (most major first);
- each tile level, read as :mod:`cutepy.xla.semantics` reads it: a tile longer
  than the shape first ``reshape``\\ s in leading 1s, each ``*`` run is a
  ``reshape`` merging those dims, every tiled dim is ``pad``\\ ded to a multiple of
  its tile size and ``reshape``\\ d into ``(ceil(d/t), t)`` pairs, and one
  ``transpose`` moves all the tile-index dims before all the in-tile dims (order
  kept). A dim that is alone in its group (or merged only with 1s, which changes no
  index) is padded *before* the level's reshape: the engine lifts pads that come
  before any reshape into the domain, so the first level's padding widens it;
- ``L(n)`` flattens the buffer and pads its total size only.

:func:`compile_details` hands the steps to :func:`cutepy.program.engine.compile_program`:
a single nested :class:`~cutepy.Layout` (one mode per logical dim, over the padded
domain) whenever every composition is admissible, else a chain of layouts with the
step that broke affinity recorded in ``breaks``. :func:`to_cute` hands back just that
layout (or chain), as XLA hands back a layout.

Padding comes from :mod:`.padding`, the one model of it; the engine widens the
layout's domain with the pads that come before the first reshape.

>>> to_cute("f32[3,5]{1,0:T(2,2)}")
((2,2),(2,3)):((2,12),(1,4))
>>> c = compile_details("f32[3,5]{1,0:T(2,2)}")
>>> c.form, c.domain, c.buffer_size, c(2, 3)
('layout', (4, 6), 24, 17)
>>> d = compile_details("f32[2,3]{1,0:T(*,4)(3)}")
>>> d.form, d.breaks[0].split(":")[0], d.offsets().tolist()
('chain', 'step 3 (pad to (2, 6))', [[0, 1, 2], [3, 6, 7]])

Limits (a real kernel stays far below them): at most :data:`~.padding.MAX_TILE_LEVELS`
tile levels, and at most :data:`~.padding.MAX_TILED_RANK` dims after any level; past
them the compile raises a :class:`~cutepy.CutepyError` (each level costs time
linear in the rank it builds).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CutepyError, SymbolicError
from ..core.layout import Layout
from ..core.lazy import load
from ..program.engine import MAX_TABLE_ELEMENTS, ChainLayout, CompiledLayout, Step, compile_program, evaluate
from .padding import check_tiling, level_extents, round_up, tile_groups
from .parser import as_array_shape
from .semantics import index_rows, linear_index, linear_indices, linear_indices_at
from .shape import ArrayShape, Shape, Tile

#: substitution (it loads sympy), on first use
_subst = load("cutepy.core.symbolic.subst")

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError

#: Without numpy, :func:`check_compile` checks every element of a shape of at most this many
#: elements one by one (a larger one takes ``sample=``): the numpy-free path's size.
PLAIN_CHECK = 1 << 14


@dataclass(frozen=True, repr=False)
class XlaCompiledLayout(CompiledLayout):
    """A :class:`~cutepy.program.engine.CompiledLayout` that remembers the XLA shape it came from.

    ``source`` is the array shape, ``steps`` the engine program it was translated to.

    >>> c = compile_details("f32[3,5]{1,0:T(2,2)}")
    >>> c.layout, c.logical_shape, c.buffer_size, c(2, 3)
    (((2,2),(2,3)):((2,12),(1,4)), (3, 5), 24, 17)
    """

    source: ArrayShape | None = None
    steps: tuple[Step, ...] = field(default=())

    def offsets_at(self, index: Any) -> np.ndarray:
        """Offsets of the elements at a ``(k, rank)`` array of logical indices, vectorized.

        >>> compile_details("f32[3,5]{1,0:T(2,2)}").offsets_at([[2, 3], [0, 1]]).tolist()
        [17, 1]
        """
        return offsets_at(self, index)

    def offsets(self, limit: int = MAX_TABLE_ELEMENTS) -> np.ndarray:
        """Offsets of every logical element (see :meth:`CompiledLayout.offsets`); a
        symbolic compile raises a :class:`~cutepy.CutepyError`: :meth:`subs` first."""
        _concrete(self, "offsets()")
        return super().offsets(limit)

    def subs(self, values: Any) -> XlaCompiledLayout:
        """The compile with values put in for its symbols (``{M: 16}`` or ``{"M": 16}``).

        Equal to compiling the substituted shape whenever that folds the same way.
        """
        lay = self.layout
        if type(lay) is Layout:
            lay = _subst.substitute(lay, values)
        else:
            lay = ChainLayout(tuple(_subst.substitute(stage, values) for stage in lay.stages))
        return XlaCompiledLayout(
            lay,
            _subst.substitute(self.logical_shape, values),
            _subst.substitute(self.domain, values),
            _subst.substitute(self.buffer_size, values),
            self.breaks,
            source=None if self.source is None else self.source.subs(values),
            steps=tuple((kind, _subst.substitute(arg, values)) for kind, arg in self.steps),
        )


def _concrete(compiled: CompiledLayout, what: str) -> None:
    """Raise unless the compile's logical shape and domain are plain ints."""
    if all(type(d) is int for d in compiled.domain):
        return
    source = getattr(compiled, "source", None)
    if source is not None:
        source.concrete_bounds(what)
    raise CutepyError(f"{what} needs concrete sizes, and {compiled} over {compiled.domain} is "
                      "symbolic: substitute values first (.subs({...}))")


def _prod(xs: Any) -> Any:
    """Product of ints or symbolic sizes (an int for ints)."""
    n = 1
    for x in xs:
        n = n * x
    return n


def _above_one(d: Any) -> bool:
    """``d > 1``; for a symbolic size, unless the facts prove it is 1 (a size that may
    be 1 is treated as a real dim: its group is padded after the merge, which is right
    either way)."""
    if type(d) is int:
        return d > 1
    try:
        return d != 1
    except SymbolicError:  # may be 1 or not: a real dim
        return True


def _changed(new: list[Any], old: list[Any]) -> bool:
    """``new != old``; a symbolic entry counts as changed unless the facts prove it equal
    (so a pad that is a no-op for some values only is kept: it is right for all)."""
    for a, b in zip(new, old, strict=True):
        if type(a) is int and type(b) is int:
            if a != b:
                return True
        elif a is not b:
            diff = a - b
            if type(diff) is int:
                if diff:
                    return True
            else:
                try:
                    if diff != 0:
                        return True
                except SymbolicError:  # equal for some values only: changed
                    return True
    return False


def _level_steps(cur: list[Any], tile: Tile) -> tuple[list[Step], list[Any]]:
    """The engine steps of one tile level on an array of shape ``cur``, and the new shape.

    The extents come from :func:`~.padding.level_extents`; this only says in which order
    the engine applies them."""
    split = tile_groups(len(cur), tile.dims)
    extra, prefix, groups = split
    steps: list[Step] = []
    # pad first the dims that are alone in their group but for 1s (a '*' merge of 1s
    # changes no index): padding before any reshape widens the domain
    pre = list(cur)
    for members, t in groups:
        real = [m - extra for m in members if m >= extra and _above_one(cur[m - extra])]
        if len(members) == 1 and members[0] >= extra:
            real = [members[0] - extra]
        if len(real) == 1:
            pre[real[0]] = round_up(pre[real[0]], t)
    if _changed(pre, cur):
        steps.append(("pad", tuple(pre)))
    lv = level_extents(pre, tile.dims, pad_to=round_up, split=split)
    merged, padded = list(lv.merged), list(lv.padded)
    if extra or len(merged) != len(pre):
        steps.append(("reshape", tuple(merged)))
    if _changed(padded, merged):
        steps.append(("pad", tuple(padded)))
    g = len(groups)
    split = list(padded[:prefix])
    for j in range(g):
        split += [lv.tiled[prefix + j], lv.tiled[prefix + g + j]]
    if split != padded:
        steps.append(("reshape", tuple(split)))
    perm = list(range(prefix)) + [prefix + 2 * j for j in range(g)] + [prefix + 2 * j + 1 for j in range(g)]
    if perm != list(range(len(split))):
        steps.append(("transpose", tuple(perm)))
    return steps, list(lv.tiled)


def program(shape: Shape | str) -> tuple[tuple[int, ...], list[Step]]:
    """The logical shape and the engine steps (pad/reshape/transpose) of an XLA array layout.

    Dims of size 0 are read as 1: an empty array keeps its structure, and
    :func:`to_cute` gives it an empty valid region and a buffer of 0 slots.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: applying the steps to the logical array (C order) gives the physical buffer, so the
          composed steps are ``linear_index``.

    >>> program("f32[3,5]{0,1:T(2,2)}")
    ((3, 5), [('transpose', (1, 0)), ('pad', (6, 4)), ('reshape', (3, 2, 2, 2)), \
('transpose', (0, 2, 1, 3))])
    >>> program("f32[3]{0:T(2,2)L(8)}")[1]
    [('pad', (4,)), ('reshape', (1, 4)), ('pad', (2, 4)), ('reshape', (1, 2, 2, 2)), \
('transpose', (0, 2, 1, 3)), ('reshape', (8,)), ('pad', (8,))]
    """
    arr = as_array_shape(shape)
    lay = arr.effective_layout
    check_tiling(arr)
    logical = tuple(max(d, 1) for d in arr.bounds)
    phys_order = tuple(reversed(lay.minor_to_major))
    steps: list[Step] = []
    if phys_order != tuple(range(arr.rank)):
        steps.append(("transpose", phys_order))
    cur = [logical[d] for d in phys_order]
    for tile in lay.tiles:
        level, cur = _level_steps(cur, tile)
        steps.extend(level)
    align = lay.tail_padding_alignment_in_elements
    if align > 1:
        n = _prod(cur)
        steps.append(("reshape", (n,)))
        steps.append(("pad", (round_up(n, align),)))
    return logical, steps


def compile_details(shape: Shape | str) -> XlaCompiledLayout:
    """Compile an XLA array shape (or its text) into its exact CuTe form, with the details.

    The result is callable on a logical index tuple, evaluates every element with
    ``.offsets()``, and says its ``.form``: ``"layout"`` (``.layout`` is one
    :class:`~cutepy.Layout` with one mode per logical dim over the padded ``.domain``)
    or ``"chain"`` (``.layout`` is a :class:`~cutepy.program.engine.ChainLayout`, layouts
    applied in order; ``.breaks`` says which step could not fold and why).
    ``.logical_shape`` is the valid region, ``.buffer_size`` counts every slot (``L``
    padding included) and ``.steps`` is the engine program. Offsets count elements,
    not bytes.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: ``result(*i) == linear_index(shape, i)`` for every logical index ``i``;
          ``result.buffer_size == buffer_elements(shape)``.

    >>> c = compile_details("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}")
    >>> c.form, str(c.layout)
    ('layout', '(8,1,((2,4),160),(128,128)):(20971520,20971520,((1,256),131072),(2,1024))')
    >>> compile_details("f32[]{:T(256)}").buffer_size
    256
    """
    arr = as_array_shape(shape)
    try:
        logical, steps = program(arr)
        compiled = compile_program(logical, steps)
    except SymbolicError as e:  # a symbolic shape whose facts do not decide a step
        e.args = (f"compiling {arr}: {e.args[0] if e.args else e}",) + e.args[1:]
        raise
    size = compiled.buffer_size
    if 0 in arr.bounds:
        size = 0
    layout = compiled.layout
    if not arr.bounds and type(layout) is Layout and layout.size() == 1 and layout(0) == 0:
        layout = Layout._new((), ())  # a scalar: C++'s rank-0 layout, called with the empty coordinate
    return XlaCompiledLayout(
        layout,
        tuple(arr.bounds),
        compiled.domain,
        size,
        compiled.breaks,
        source=arr,
        steps=tuple(steps),
    )


def to_cute(shape: Shape | str) -> Layout | ChainLayout:
    """The CuTe layout of an XLA array shape (or its text): logical index -> buffer offset.

    Pre: an array shape with bounded dims (a symbolic dim needs facts that decide each
    padding step). Post: ``to_cute(s)(*i) == linear_index(s, i)`` for every logical index
    ``i``; the result is one :class:`~cutepy.Layout` with one mode per logical dim
    (over the padded domain, where a tile pads), or, where no single layout is XLA's
    function, a :class:`~cutepy.program.engine.ChainLayout` of layouts applied in order. The
    domain, the breaks, the buffer size and the engine steps come from
    :func:`compile_details`.

    >>> to_cute("f32[4,8]{1,0:T(2,4)(2,1)}")
    ((2,2),(4,2)):((1,16),(2,8))
    >>> to_cute("f32[3,5]{1,0:T(2,2)}")(2, 3)
    17
    >>> to_cute("f32[2,3]{1,0:T(*,4)(3)}")  # no single layout: a chain, applied right to left
    [(4,2):(1,6)] o [(2,3):(3,1)]
    """
    return compile_details(shape).layout


def offsets_at(compiled: CompiledLayout, index: Any) -> np.ndarray:
    """``compiled(*i)`` for each row ``i`` of a ``(k, rank)`` integer array, vectorized.

    Pre:  ``index`` is a ``(k, rank)`` integer array inside ``compiled``'s logical shape.
    Post: ``result[j] == compiled(*index[j])`` for each row ``j``.

    >>> offsets_at(compile_details("f32[4,8]{1,0:T(2,4)(2,1)}"), np.array([[2, 5], [3, 7]])).tolist()
    [26, 31]
    """
    if not isinstance(compiled, CompiledLayout):
        raise CutepyError(f"offsets_at takes what compile_details returned, got {compiled!r}")
    _concrete(compiled, "offsets_at()")
    rank = len(compiled.logical_shape)
    idx = index_rows(index, rank)
    if idx.size:
        lo, hi = idx.min(axis=0), idx.max(axis=0)
        for j in range(rank):
            if lo[j] < 0 or hi[j] >= compiled.domain[j]:
                raise CutepyError(
                    f"index column {j} runs outside the domain {compiled.domain} of {compiled}"
                )
    return evaluate(compiled.layout, [idx[:, j] for j in range(rank)], (idx.shape[0],))


def check_compile(compiled: CompiledLayout, shape: Shape | str, sample: int | None = None,
                  seed: int = 0) -> int:
    """Check a compiled layout against :func:`~cutepy.xla.linear_indices`; returns the count.

    Every logical element when ``sample`` is ``None``, else ``sample`` random ones
    (compared with the formula evaluated at exactly those indices). Raises
    :class:`~cutepy.CutepyError` on the first mismatch.

    Pre:  ``compiled`` was compiled from ``shape`` (else the first mismatch raises ``CutepyError``).
    Post: ``compiled(*i) == linear_index(shape, i)`` for every checked ``i``; returns how many.

    >>> s = "f32[3,5]{1,0:T(2,2)}"
    >>> check_compile(compile_details(s), s), check_compile(compile_details(s), s, sample=4)
    (15, 4)
    """
    arr = as_array_shape(shape)
    dims = arr.concrete_bounds("check_compile()")
    if not isinstance(compiled, CompiledLayout):
        raise CutepyError(f"check_compile takes what compile_details returned, got {compiled!r}")
    for name, v in (("sample", sample), ("seed", seed)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
            raise CutepyError(f"check_compile: {name}={v!r} is not a non-negative integer")
    if sample is not None and sample > MAX_TABLE_ELEMENTS:
        raise CutepyError(f"check_compile: sample={sample} passes the limit of {MAX_TABLE_ELEMENTS} "
                          "elements (cutepy.program.engine.MAX_TABLE_ELEMENTS)")
    _concrete(compiled, "check_compile()")
    if sample is None and not np:  # the numpy-free path: every index, up to PLAIN_CHECK of them
        if math.prod(dims) > PLAIN_CHECK:
            raise CutepyError(f"check_compile of {arr} without numpy checks at most PLAIN_CHECK = "
                              f"{PLAIN_CHECK} elements: pass sample=")
        for i in itertools.product(*(range(d) for d in dims)):
            if compiled(*i) != linear_index(arr, i):
                raise CutepyError(f"the CuTe form {compiled} of {arr} disagrees with XLA's formula at {i}")
        return math.prod(dims)
    if sample is None:
        got = compiled.offsets()
        bad = np.argwhere(got != linear_indices(arr))
        count = int(got.size)
    elif 0 in dims:
        return 0
    elif not np:  # the numpy-free path: the sampled indices one by one
        rng = random.Random(seed)
        for _ in range(sample):
            i = tuple(rng.randrange(d) for d in dims)
            if compiled(*i) != linear_index(arr, i):
                raise CutepyError(f"the CuTe form {compiled} of {arr} disagrees with XLA's formula at {i}")
        return sample
    else:
        rng = np.random.default_rng(seed)
        idx = np.stack([rng.integers(0, d, sample) for d in dims], axis=1) if dims else \
            np.zeros((sample, 0), dtype=np.int64)
        bad = idx[offsets_at(compiled, idx) != linear_indices_at(arr, idx)]
        count = sample
    if len(bad):
        i = tuple(int(x) for x in bad[0])
        raise CutepyError(f"the CuTe form {compiled} of {arr} disagrees with XLA's formula at {i}")
    return count

