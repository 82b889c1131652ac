"""Traced arrays: numpy array programs recorded step by step.

:func:`trace` starts a program from a logical array of a given shape; each numpy-like
method or function returns a new :class:`TracedArray` that remembers the step and its
operand. Nothing is computed: the record is what :func:`cutepy.program.to_layout`
turns into layouts and what :func:`cutepy.program.run` executes with numpy.

>>> a = trace((2, 5, 2, 3), "a")
>>> b = resize(a.reshape(2, 5, 6), (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4)
>>> b.shape
(4, 2, 2, 2, 4)
>>> b
TracedArray(resize(a.reshape(2, 5, 6), (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4))
>>> swapaxes(a, 0, 3).shape, moveaxis(a, 1, -1).shape, a.T.shape
((3, 5, 2, 2), (2, 2, 3, 5), (3, 2, 5, 2))

Steps are checked as numpy checks them, and a bad one raises a
:class:`ProgramError` (a :class:`cutepy.CutepyError`) naming the step and the values:

>>> a.reshape(7, 9)
Traceback (most recent call last):
...
cutepy.ProgramError: reshape(7, 9) of a (2, 5, 2, 3) array: it has 60 elements, (7, 9) has 63
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ..core.errors import CutepyError, ProgramError  # noqa: F401 (ProgramError re-exported)
from ..core.layout import MAX_LEAF
from ..core.lazy import load

np = load("numpy")  # numpy loads on first use (the module's import needs none)


def _fmt_args(args: Sequence[Any]) -> str:
    return ", ".join(str(x) for x in args)


def _index(x: Any) -> int:
    """``x`` as an int, as numpy takes a size or an axis: no floats, no bools."""
    if isinstance(x, bool):
        raise TypeError("a bool is not a size")
    return operator.index(x)


def _as_shape(shape: Any, what: str) -> tuple[int, ...]:
    if hasattr(shape, "__index__"):
        shape = (shape,)
    try:
        t = tuple(_index(x) for x in shape)
    except (TypeError, ValueError):
        raise ProgramError(f"{what}: {shape!r} is not a shape (a tuple of integers)") from None
    return t


def _unpack(args: tuple) -> tuple:
    """``f(2, 3)`` and ``f((2, 3))`` both mean ``(2, 3)``, as in numpy."""
    if len(args) == 1 and not hasattr(args[0], "__index__"):
        try:
            return tuple(args[0])
        except TypeError:
            raise ProgramError(f"{args[0]!r} is not a tuple of integers") from None
    return args


def _norm_axis(axis: Any, ndim: int, what: str) -> int:
    try:
        ax = _index(axis)
    except (TypeError, ValueError):
        raise ProgramError(f"{what}: axis {axis!r} is not an integer") from None
    if not -ndim <= ax < ndim:
        raise ProgramError(f"{what}: axis {ax} is out of bounds for an array with {ndim} dims")
    return ax % ndim


class TracedArray:
    """One array of a traced program: its shape and the step that made it.

    ``op`` is ``"input"``, ``"reshape"``, ``"transpose"``, ``"pad"``, ``"concatenate"``
    or ``"broadcast"``; ``parents`` are the operands; ``args`` the step's normalized
    arguments (``pad``: ``(new_shape, low)``, zero-filled at ``low`` before and the rest
    after; ``concatenate``: ``(axis,)``); ``text`` is how the step reads in numpy.

    There is no ``.resize`` method: numpy's ``ndarray.resize`` reshapes the flat buffer
    in place, which is not TPU-MLIR's ``resize``; use the function :func:`resize`.

    >>> a = trace((2, 3), "x")
    >>> a, a.op, a.T.shape, a.T.text
    (TracedArray(x), 'input', (3, 2), 'transpose(1, 0)')
    """

    __slots__ = ("shape", "op", "parents", "args", "text", "name")

    def __init__(self, shape: tuple[int, ...], op: str, parents: tuple[TracedArray, ...],
                 args: tuple, text: str, name: str | None = None):
        self.shape = shape
        self.op = op
        self.parents = parents
        self.args = args
        self.text = text
        self.name = name

    # --- numpy-like queries -------------------------------------------------------------
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for e in self.shape:
            n *= e
        return n

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d traced array")
        return self.shape[0]

    def describe(self) -> str:
        """The program that made this array, as numpy-like text.

        >>> concatenate([trace((2, 3), "x"), trace((2, 1), "y")], axis=1).T.describe()
        'concatenate([x, y], axis=1).transpose(1, 0)'
        """
        if self.op == "input":
            return self.name or "x"
        if self.op == "concatenate":
            inner = ", ".join(p.describe() for p in self.parents)
            return f"concatenate([{inner}], axis={self.args[0]})"
        if self.op == "broadcast":
            return f"broadcast_to({self.parents[0].describe()}, {self.shape})"
        if self.op == "pad" and self.text.startswith("pad("):
            return f"pad({self.parents[0].describe()}, {self.text[4:]}"
        if self.op == "pad":
            return f"resize({self.parents[0].describe()}, {self.shape})"
        return f"{self.parents[0].describe()}.{self.text}"

    def __repr__(self) -> str:
        return f"TracedArray({self.describe()})"

    def inputs(self) -> list[TracedArray]:
        """The program's input arrays (each once, in first-use order)."""
        seen: dict[int, TracedArray] = {}

        def walk(x: TracedArray) -> None:
            if x.op == "input":
                seen.setdefault(id(x), x)
            for p in x.parents:
                walk(p)

        walk(self)
        return list(seen.values())

    def _where(self) -> str:
        return f"of {self.name or 'an'} {self.shape} array" if self.op == "input" else \
            f"of a {self.shape} array"

    # --- steps --------------------------------------------------------------------------
    def reshape(self, *shape: Any) -> TracedArray:
        """numpy's ``reshape`` (C order; one ``-1`` is inferred)."""
        shape = _unpack(shape)
        text = f"reshape({_fmt_args(shape)})"
        new = list(_as_shape(shape, text))
        where = f"{text} {self._where()}"
        if new.count(-1) > 1:
            raise ProgramError(f"{where}: only one dim can be -1")
        known = 1
        for e in new:
            if e != -1:
                if e < 1:
                    raise ProgramError(f"{where}: extents must be positive (or one -1), got {tuple(new)}")
                known *= e
        if -1 in new:
            if self.size % known:
                raise ProgramError(f"{where}: {self.size} elements do not split into {tuple(new)}")
            new[new.index(-1)] = self.size // known
        t = tuple(new)
        if known_size(t) != self.size:
            raise ProgramError(f"{where}: it has {self.size} elements, {t} has {known_size(t)}")
        return TracedArray(t, "reshape", (self,), (t,), text)

    def transpose(self, *axes: Any) -> TracedArray:
        """numpy's ``transpose``: no argument reverses the axes."""
        axes = _unpack(axes)
        text = f"transpose({_fmt_args(axes)})"
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
            text = f"transpose({_fmt_args(axes)})"
        where = f"{text} {self._where()}"
        try:
            perm = tuple(_index(x) for x in axes)
        except (TypeError, ValueError):
            raise ProgramError(f"{where}: {axes!r} is not a permutation of axes") from None
        if len(perm) != self.ndim:
            raise ProgramError(f"{where}: {perm} has {len(perm)} axes, the array has {self.ndim}")
        norm = tuple(p % self.ndim if -self.ndim <= p < self.ndim else p for p in perm)
        if sorted(norm) != list(range(self.ndim)):
            raise ProgramError(
                f"{where}: {perm} is not a permutation of the axes 0..{self.ndim - 1}")
        return TracedArray(tuple(self.shape[p] for p in norm), "transpose", (self,), (norm,),
                           f"transpose({_fmt_args(norm)})")

    @property
    def T(self) -> TracedArray:
        """All axes reversed."""
        return self.transpose()

    def swapaxes(self, axis1: int, axis2: int) -> TracedArray:
        """numpy's ``swapaxes``."""
        return swapaxes(self, axis1, axis2)

    def ravel(self) -> TracedArray:
        """numpy's ``ravel`` (a reshape to 1-D)."""
        return self.reshape(self.size)

    flatten = ravel


def known_size(shape: Sequence[int]) -> int:
    """Number of elements of ``shape``."""
    n = 1
    for e in shape:
        n *= e
    return n


def trace(shape: Any, name: str = "x") -> TracedArray:
    """The input of a program: a logical array of ``shape`` (numpy C order).

    Pre:  ``shape`` is a tuple of positive integers (else ``ProgramError``).
    Post: an input TracedArray with ``op == "input"``, ``shape`` and ``name``.

    >>> trace((3, 4), "w").size
    12
    >>> trace((2.5, 2))
    Traceback (most recent call last):
    ...
    cutepy.ProgramError: trace((2.5, 2)): (2.5, 2) is not a shape (a tuple of integers)
    """
    t = _as_shape(shape, f"trace({shape!r})")
    if not isinstance(name, str):
        raise ProgramError(f"trace({t}, {name!r}): the name must be a string")
    if any(e < 1 for e in t):
        raise ProgramError(f"trace({t}): extents must be positive (layouts have no empty modes)")
    if any(e > MAX_LEAF for e in t):
        raise ProgramError(f"trace of {len(t)} extents: each must fit in 64 bits (at most {MAX_LEAF})")
    return TracedArray(t, "input", (), (), name, name)


def reshape(a: TracedArray, shape: Any) -> TracedArray:
    """``np.reshape(a, shape)``.

    Pre:  ``a`` is a TracedArray; ``shape`` has ``a.size`` elements, at most one ``-1``
          (else ``ProgramError``).
    Post: ``run(result) == run(a).reshape(shape)`` (C order).

    >>> from cutepy.program import to_layout
    >>> to_layout(reshape(trace((2, 6)), (2, 2, 3)).transpose(1, 0, 2)).layout
    (2,(3,2)):(3,(1,6))
    """
    return _traced(a, "reshape").reshape(shape)


def transpose(a: TracedArray, axes: Any = None) -> TracedArray:
    """``np.transpose(a, axes)``.

    Pre:  ``a`` is a TracedArray; ``axes`` (default: reversed) is a permutation of its axes
          (else ``ProgramError``).
    Post: ``run(result) == np.transpose(run(a), axes)``.

    >>> from cutepy.program import to_layout
    >>> to_layout(transpose(trace((2, 3)), (1, 0))).layout
    (2,3):(1,2)
    """
    return _traced(a, "transpose").transpose(*(() if axes is None else (tuple(axes),)))


def swapaxes(a: TracedArray, axis1: int, axis2: int) -> TracedArray:
    """``np.swapaxes``: a transpose exchanging two axes.

    Pre:  ``a`` is a TracedArray; both axes are valid (else ``ProgramError``).
    Post: ``run(result) == np.swapaxes(run(a), axis1, axis2)``.

    >>> swapaxes(trace((2, 3, 4)), 0, -1).shape
    (4, 3, 2)
    """
    a = _traced(a, "swapaxes")
    what = f"swapaxes({axis1}, {axis2}) {a._where()}"
    i, j = _norm_axis(axis1, a.ndim, what), _norm_axis(axis2, a.ndim, what)
    perm = list(range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return a.transpose(*perm)


def moveaxis(a: TracedArray, source: Any, destination: Any) -> TracedArray:
    """``np.moveaxis``: move axes to new positions, the others keep their order.

    Pre:  ``a`` is a TracedArray; ``source`` and ``destination`` are distinct
          valid axes of equal count (else ``ProgramError``).
    Post: ``run(result) == np.moveaxis(run(a), source, destination)``.

    >>> moveaxis(trace((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    >>> moveaxis(trace((2, 3, 4)), [0, 1], [-1, -2]).shape
    (4, 3, 2)
    """
    a = _traced(a, "moveaxis")
    try:
        src = [source] if hasattr(source, "__index__") else list(source)
        dst = [destination] if hasattr(destination, "__index__") else list(destination)
    except TypeError:
        raise ProgramError(f"moveaxis({source!r}, {destination!r}) {a._where()}: axes must be "
                           "integers or sequences of them") from None
    what = f"moveaxis({source}, {destination}) {a._where()}"
    if len(src) != len(dst):
        raise ProgramError(f"{what}: {len(src)} source axes but {len(dst)} destinations")
    s = [_norm_axis(x, a.ndim, what) for x in src]
    d = [_norm_axis(x, a.ndim, what) for x in dst]
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        raise ProgramError(f"{what}: repeated axis")
    order = [k for k in range(a.ndim) if k not in s]
    for dest, srcax in sorted(zip(d, s)):
        order.insert(dest, srcax)
    return a.transpose(*order)


def resize(a: TracedArray, shape: Any) -> TracedArray:
    """TPU-MLIR's ``resize``: zero-fill each dim at its end up to ``shape``.

    The TPU-MLIR article's reference implementation also crops a dim that shrinks; cutepy refuses
    (a crop drops elements, so no layout of the whole array exists).

    Pre:  ``a`` is a TracedArray; ``shape`` has its rank and no dim smaller
          (else ``ProgramError``).
    Post: ``run(result)[tuple(slice(d) for d in a.shape)] == run(a)``; zeros elsewhere.

    >>> resize(trace((2, 3)), (4, 3)).shape
    (4, 3)
    >>> resize(trace((2, 3)), (4, 2))
    Traceback (most recent call last):
    ...
    cutepy.ProgramError: resize(4, 2) of x (2, 3) array: dim 1 would shrink from 3 to 2 \
(a negative pad)
    """
    a = _traced(a, "resize")
    t0 = _as_shape(shape, f"resize({shape!r})")
    text = f"resize({_fmt_args(t0)})"
    where = f"{text} {a._where()}"
    if len(t0) != a.ndim:
        raise ProgramError(f"{where}: {t0} has {len(t0)} dims, the array has {a.ndim}")
    for k, (old, new) in enumerate(zip(a.shape, t0)):
        if new < old:
            raise ProgramError(f"{where}: dim {k} would shrink from {old} to {new} (a negative pad)")
    return TracedArray(t0, "pad", (a,), (t0, (0,) * a.ndim), text)


def pad(a: TracedArray, pad_width: Any) -> TracedArray:
    """``np.pad(a, pad_width)`` with zeros: ``pad_width`` is an int, a ``(before, after)``
    pair, or one pair per dim.

    Pre:  ``a`` is a TracedArray; ``pad_width`` entries are non-negative (else
          ``ProgramError``).
    Post: ``run(result) == np.pad(run(a), pad_width)`` (zeros).

    >>> pad(trace((2, 3)), ((1, 0), (0, 2))).shape
    (3, 5)
    >>> pad(trace((2, 3)), 1).shape
    (4, 5)
    """
    a = _traced(a, "pad")
    text = f"pad({pad_width!r})"
    where = f"{text} {a._where()}"
    try:
        pw = np.broadcast_to(np.asarray(pad_width, dtype=object), (a.ndim, 2))
        pairs = [(_index(b), _index(e)) for b, e in pw]
    except (TypeError, ValueError):
        raise ProgramError(f"{where}: pad_width must be an int, a (before, after) pair or one "
                           f"pair per dim") from None
    for k, (b, e) in enumerate(pairs):
        if b < 0 or e < 0:
            raise ProgramError(f"{where}: negative pad ({b}, {e}) on dim {k}")
    new = tuple(s + b + e for s, (b, e) in zip(a.shape, pairs))
    low = tuple(b for b, _ in pairs)
    return TracedArray(new, "pad", (a,), (new, low), text)


def concatenate(arrays: Sequence[TracedArray], axis: int = 0) -> TracedArray:
    """``np.concatenate(arrays, axis)``.

    Pre:  ``arrays`` are TracedArrays of one rank whose shapes agree outside ``axis``
          (else ``ProgramError``).
    Post: ``run(result) == np.concatenate([run(a) for a in arrays], axis)``.

    >>> concatenate([trace((4, 1, 4)), trace((4, 12, 4))], axis=1).shape
    (4, 13, 4)
    >>> concatenate([trace((4, 1)), trace((3, 2))], axis=1)
    Traceback (most recent call last):
    ...
    cutepy.ProgramError: concatenate(axis=1): array 1 has shape (3, 2), which differs \
from (4, 1) outside axis 1
    """
    try:
        arrays = [_traced(x, "concatenate") for x in arrays]
    except TypeError:
        raise ProgramError(f"concatenate: {arrays!r} is not a sequence of traced arrays") from None
    what = f"concatenate(axis={axis})"
    if not arrays:
        raise ProgramError(f"{what}: needs at least one array")
    nd = arrays[0].ndim
    if nd == 0:
        raise ProgramError(f"{what}: zero-dimensional arrays cannot be concatenated")
    ax = _norm_axis(axis, nd, what)
    ref = arrays[0].shape
    for i, x in enumerate(arrays[1:], 1):
        if x.ndim != nd:
            raise ProgramError(f"{what}: array 0 has {nd} dims, array {i} has {x.ndim}")
        if any(x.shape[k] != ref[k] for k in range(nd) if k != ax):
            raise ProgramError(
                f"{what}: array {i} has shape {x.shape}, which differs from {ref} outside axis {ax}")
    new = list(ref)
    new[ax] = sum(x.shape[ax] for x in arrays)
    return TracedArray(tuple(new), "concatenate", tuple(arrays), (ax,), f"concatenate(axis={ax})")


def broadcast_to(a: TracedArray, shape: Any) -> TracedArray:
    """``np.broadcast_to(a, shape)``: a view that repeats size-1 and new leading dims.

    As in numpy it copies nothing: it reads the same element again (stride 0). When
    compiled, the view is an input of the program that consumes it, indexed by the
    broadcast coordinates; ``piece.view.layout`` is its stride-0 layout into ``a``'s
    buffer (see :mod:`cutepy.program.compiler`).

    Pre:  ``a`` is a TracedArray; ``shape`` broadcasts ``a.shape`` as numpy does
          (else ``ProgramError``).
    Post: ``result.shape == shape``; ``run(result) == np.broadcast_to(run(a), shape)``.

    >>> broadcast_to(trace((5, 1)), (2, 5, 3)).shape
    (2, 5, 3)
    """
    a = _traced(a, "broadcast_to")
    t = _as_shape(shape, f"broadcast_to({shape!r})")
    where = f"broadcast_to({_fmt_args(t)}) {a._where()}"
    if len(t) < a.ndim:
        raise ProgramError(f"{where}: the target has fewer dims than the array")
    if any(e < 1 for e in t):
        raise ProgramError(f"{where}: extents must be positive")
    lead = len(t) - a.ndim
    for k, e in enumerate(a.shape):
        if e != 1 and e != t[lead + k]:
            raise ProgramError(f"{where}: dim {k} has extent {e}, neither 1 nor {t[lead + k]}")
    return TracedArray(t, "broadcast", (a,), (t,), f"broadcast_to({_fmt_args(t)})")


def _traced(a: Any, what: str) -> TracedArray:
    if not isinstance(a, TracedArray):
        raise ProgramError(f"{what}: {type(a).__name__} is not a traced array (start with trace(shape))")
    return a
