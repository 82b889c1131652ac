"""``composition(A, B)``: the layout ``R`` with ``R(c) == A(B(c))`` for every ``c`` in B's domain.

``B`` may be a Layout, a shape (an int ``n`` means ``n:1``) or a tuple of tilers
applied mode by mode (``None`` keeps a mode). A's modes past the tiler are dropped.

>>> from cutepy import Layout, parse
>>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
((2,2),3):((24,2),8)
>>> A = Layout((12, (4, 8)), (59, (13, 1)))
>>> composition(A, parse("<3:4, 8:2>"))
(3,(2,4)):(236,(26,1))
>>> composition(A, (3, 8))
(3,(4,2)):(59,(13,1))

Compositions that break CuTe's divisibility conditions raise, where C++ would
silently return a wrong layout:

>>> composition(Layout((4, 6), (1, 5)), Layout(8, 3))
Traceback (most recent call last):
...
cutepy.AdmissibilityError: composition (4,6):(1,5) o 8:3 is inadmissible: \
stride divisibility fails at mode 0 of coalesce(A) = (4,6):(1,5): B's remaining stride 3 \
does not divide A's shape 4, and B's remaining shape 8 runs past it
"""

from __future__ import annotations

from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.dynamic import DynamicInt
from ..core.errors import AdmissibilityError, CutepyError
from ..core.events import Event, Mode, NoTiler, paren
from ..core.kinds import COMPOSITION, COMPOSITION_BY_B
from ..core.layout import Layout, as_layout, derived
from ..core.swizzle import Swizzle
from ..core.tracing import recorder
from .coalesce import coalesce_dynamic, coalesce_static

# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class ComposedA(Event):
    """A is a composed layout (or a swizzle): it composes B itself."""

    A: Any

    def words(self, tex: Any) -> str:
        if isinstance(self.A, Swizzle):
            return f"a swizzle composes as {self.A} o 0 o B"
        return f"A = {self.A} is composed: (outer o offset o inner) o B = outer o offset o (inner o B)"


class ReadA(Event):
    """A was given as something else (a shape, text) and is now the layout ``A``."""

    A: Any


class SizeTiler(Event):
    """B is a size ``B``, which stands for the layout ``B:1``."""

    B: Any

    def words(self, tex: Any) -> str:
        return f"the size {self.B} stands for the layout {Layout(self.B)}"


class ComposedB(Event):
    """B is a composed layout: ``A o B`` keeps A outermost."""

    B: Any

    def words(self, tex: Any) -> str:
        return f"B is composed: A o ({self.B}) keeps A outermost"


class DroppedModes(Event):
    """A by-mode composition drops A's modes ``first..``, which have no tiler (as C++)."""

    first: int

    def words(self, tex: Any) -> str:
        return f"A's modes {self.first}.. have no tiler and are dropped (as in C++)"


class LastOne(Event):
    """``coalesce_x(A)``: A's last mode has size 1 and counts as 2, so that its stride survives."""


class CoalesceX(Event):
    """``coalesce_x(A)`` for ``A o B`` is the flat layout ``shape:stride``."""

    A: Any
    B: Any
    shape: tuple
    stride: tuple


class Carry(Event):
    """B's modes together reach ``usage[i]`` in digit ``i`` of ``coalesce_x(A)`` (of ``shape``)."""

    usage: tuple
    shape: tuple


class Leaf(Event):
    """The next leaf of B, ``shape:stride``, goes through A's modes."""

    shape: Any
    stride: Any


class BasisLeaf(Event):
    """The leaf's basis stride picks A's sub-mode ``sub``, whose ``coalesce_x`` is ``shape:stride_x``."""

    stride: Any
    sub: Any
    shape: tuple
    stride_x: tuple

    def words(self, tex: Any) -> str:
        X = Layout._new(self.shape, self.stride_x)
        return f"the basis stride {self.stride} picks A's sub-mode {self.sub}; coalesce_x of it = {X}"


class ZeroLeaf(Event):
    """A stride-0 leaf of B stays ``shape:0``."""

    shape: Any

    def words(self, tex: Any) -> str:
        return f"stride 0: the leaf stays {self.shape}:0"


class Single(Event):
    """A is the single mode ``mode``: the leaf ``rest`` gets stride ``stride``."""

    mode: Mode
    rest: Mode
    stride: Any

    def words(self, tex: Any) -> str:
        (s, d), (_, rd) = self.mode, self.rest
        return f"A is the single mode {s}:{d}: stride {paren(rd)}*{paren(d)} = {self.stride}"


class Skip(Event):
    """Mode ``i`` of A (``mode``) is stepped over by what is left of the leaf (``rest``).

    The leaf goes on with stride ``stride = ceil(rest stride / mode shape)``.
    """

    i: int
    mode: Mode
    rest: Mode
    stride: Any

    def words(self, tex: Any) -> tuple:
        (s, d), (rest_s, rest_d), i = self.mode, self.rest, self.i
        nothing_left = type(rest_s) is int and rest_s == 1
        why = "nothing of B's leaf is left" if nothing_left else f"stride {rest_d} steps over it"
        return (f"mode {i} of A ({s}:{d}): {why}; divide out -> stride ceil({paren(rest_d)}/{paren(s)}) = "
                f"{self.stride} on",
                rf"\text{{mode {i}: }} \lceil {tex(rest_d)} / {tex(s)} \rceil = {tex(self.stride)}")


class Take(Event):
    """Mode ``i`` of A gives the leaf ``rest`` a mode ``new:out``; ``left`` of its shape remains.

    ``shape = ceil(mode shape / rest stride)`` is what A's mode leaves at that stride,
    ``stride = ceil(rest stride / mode shape)`` the leaf's stride on the next mode.
    """

    i: int
    mode: Mode
    rest: Mode
    shape: Any
    stride: Any
    new: Any
    out: Any
    left: Any

    def words(self, tex: Any) -> tuple:
        (s, d), (rest_s, rest_d), i, new = self.mode, self.rest, self.i, self.new
        ps, prd = paren(s), paren(rest_d)
        t_new = tex(new)
        return (f"mode {i} of A ({s}:{d}): divide out stride {rest_d} -> ceil({ps}/{prd}) = {self.shape} "
                f"left, stride ceil({prd}/{ps}) = {self.stride} on; mod out min({self.shape}, {rest_s}) = "
                f"{new} -> {new}:{prd}*{paren(d)} = {new}:{self.out}; {paren(rest_s)}/{paren(new)} = "
                f"{self.left} left",
                rf"\text{{mode {i}: }} \lceil {tex(s)}/{tex(rest_d)} \rceil = {tex(self.shape)},\ "
                rf"\lceil {tex(rest_d)}/{tex(s)} \rceil = {tex(self.stride)},\ "
                rf"\min({tex(self.shape)}, {tex(rest_s)}) = {t_new} \Rightarrow {t_new}:{tex(self.out)}")


class LastMode(Event):
    """A's last mode (``mode``) takes the rest of the leaf: ``rest shape : stride``."""

    mode: Mode
    rest: Mode
    stride: Any

    def words(self, tex: Any) -> str:
        (s, d), (rest_s, rest_d) = self.mode, self.rest
        return (f"last mode of A ({s}:{d}): the rest {rest_s}:{paren(rest_d)}*{paren(d)} = "
                f"{rest_s}:{self.stride}")


def composition(A: Any, B: Any) -> Any:
    """``A o B``; see the module docstring for what ``B`` may be.

    Pre:  ``B`` is a layout, a shape or a by-mode tiler with at most ``rank(A)`` modes (else
          ``CutepyError``); each mode of ``B`` divides the shape of ``A`` it walks over (else
          ``AdmissibilityError`` naming the mode).
    Post: ``compatible(B, result)`` and ``result(c) == A(B(c))`` for every coordinate ``c`` of ``B``.

    >>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    ((2,2),3):((24,2),8)
    """
    rec = recorder()
    if rec and rec.opens(composition):
        return rec.framed(composition, A, B)
    if type(A) is not Layout and (impl := COMPOSITION.of(A)) is not None:
        if rec:
            rec.emit(ComposedA(A))
        return impl(A, B)
    if type(A) is not Layout:
        A = as_layout(A)
        if rec:
            rec.emit(ReadA(A))
    if type(B) is Layout:
        if B._shape == ():
            raise CutepyError(f"composition of {A} with the empty layout ():() is undefined "
                              "(C++ builds no layout for it)")
        return _compose_layouts(A, B)
    if B is None:
        if rec:
            rec.emit(NoTiler())
        return A
    if it.is_integer(B):  # a size n means n:1
        if rec:
            rec.emit(SizeTiler(B))
        n = Layout(B).shape  # checked: a positive 64-bit integer (or a symbolic size)
        return _compose_layouts(A, Layout._new(n, 1))  # C++: composition_impl(A, n, Int<1>)
    if isinstance(B, tuple):
        if B == ():
            raise CutepyError(f"composition of {A} with the empty tiler () is undefined "
                              "(C++ builds no layout for it)")
        return _compose_by_mode(A, B)
    if type(B) is not Layout and (impl := COMPOSITION_BY_B.of(B)) is not None:
        if rec:
            rec.emit(ComposedB(B))
        return impl(B, A)
    raise CutepyError(f"composition: cannot use {B!r} as the right-hand side")


def _compose_by_mode(A: Layout, tiler: tuple) -> Layout:
    shape, stride = A.shape, A.stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    if len(tiler) > len(shape):
        raise CutepyError(f"composition: tiler {it.format_tiler(tiler)} has more modes than {A}")
    ss, dd = [], []
    for i, t in enumerate(tiler):
        m = composition(Layout._new(shape[i], stride[i]), t)
        ss.append(m.shape)
        dd.append(m.stride)
    if len(tiler) < len(shape):
        rec = recorder()
        if rec:
            rec.emit(DroppedModes(len(tiler)))
    return Layout._new(tuple(ss), tuple(dd))


def coalesce_x(A: Layout) -> tuple[tuple, tuple]:
    """Flat coalesce that also keeps A's function *outside* its domain (C++ ``coalesce_x``).

    A trailing size-1 mode is treated as size 2 so that its stride survives: only the
    last mode's stride matters past the domain, and composition reads nothing else there.
    """
    fs, dyn_s = it.flatten_dyn(A._shape)
    fd, dyn_d = it.flatten_dyn(A._stride)
    if not fs:
        return (2,), (0,)
    if fs[-1] == 1 and type(fs[-1]) is not DynamicInt:  # as C++: a static _1 (a run-time 1 stays)
        fs = fs[:-1] + (2,)
        rec = recorder()
        if rec:
            rec.emit(LastOne())
    s, d = coalesce_dynamic(fs, fd) if dyn_s or dyn_d else coalesce_static(fs, fd)
    if type(s) is not tuple:
        return (s,), (d,)
    return s, d


def _compose_layouts(A: Layout, B: Layout) -> Layout:
    ls, ld = derived(A, coalesce_x)
    rec = recorder()
    if rec:
        rec.emit(CoalesceX(A, B, ls, ld))
    return _compose_flat(ls, ld, A, B, rec)


def _compose_flat(ls: tuple, ld: tuple, A: Layout, B: Layout, rec: Any = None) -> Layout:
    if len(ls) == 1 and not rec and type(ld[0]) is int:
        # a single mode of A: each int leaf of B keeps its shape, its stride scaled (Single; a
        # stride 0 stays 0, ZeroLeaf), no carries between modes
        d = _times(B._stride, ld[0])
        if d is not None:
            return Layout._strided(B._shape, d)
    usage = [0] * (len(ls) - 1)
    signs: set = set()
    s, d = _impl(ls, ld, B._shape, B._stride, A, B, usage, signs, rec)
    if usage and len(signs) > 1:
        raise AdmissibilityError(
            f"composition {A} o {B} is inadmissible: B mixes positive and negative strides over "
            f"the modes of coalesce(A) = {Layout._new(ls, ld)}, so A(B(c)) borrows across them "
            "and is not the sum of the modes' results"
        )
    if type(B._shape) is tuple and usage:
        if rec:
            rec.emit(Carry(tuple(usage), ls))
        _check_carry_free(ls, ld, usage, A, B)
    # every shape leaf is at most one of B's (within the 64-bit rule): only strides grew
    return Layout._strided(s, d)


def _times(t: Any, k: int) -> Any:
    """``t`` (an int or nested tuples of them) with every leaf times ``k``; ``None`` if a leaf
    is not a plain ``int`` (a basis element or a run-time integer takes the general path)."""
    if type(t) is int:
        return t * k
    if type(t) is not tuple:
        return None
    out = []
    for x in t:
        if type(x) is not int:
            x = _times(x, k)
            if x is None:
                return None
            out.append(x)
        else:
            out.append(x * k)
    return tuple(out)


def _check_carry_free(ls: tuple, ld: tuple, usage: list, A: Layout, B: Layout) -> None:
    """Right-distributivity needs B's modes to add up in A's digits without carries.

    ``usage[i]`` sums, over B's leaves, the largest value each puts in digit ``i`` of
    ``coalesce_x(A)``. A carry out of digit ``i`` would change A's offset, so C++'s
    mode-by-mode result would be wrong there.
    """
    for i, u in enumerate(usage):
        if u > ls[i] - 1:
            raise AdmissibilityError(
                f"composition {A} o {B} is inadmissible: B's modes overlap in mode {i} of "
                f"coalesce(A) = {Layout._new(ls, ld)}: together they reach {u} there, past its "
                f"shape {ls[i]}, so A(B(c)) carries and is not the sum of the modes' results"
            )


def _compose_basis(A: Layout, rs: Any, rd: ScaledBasis, B: Layout) -> tuple[Any, Any]:
    """A B leaf whose stride is a basis element picks the sub-mode of A it names."""
    sub = A
    for m in rd.mode:
        if type(sub.shape) is not tuple or not 0 <= m < len(sub.shape):
            raise CutepyError(f"composition {A} o {B}: basis stride {rd} names no mode of A")
        sub = sub[m]
    ls, ld = coalesce_x(sub)
    rec = recorder()
    if rec:
        rec.emit(BasisLeaf(rd, sub, ls, ld))
    return _impl(ls, ld, rs, rd.value, A, B, [0] * (len(ls) - 1), None, rec)


def _impl(ls: tuple, ld: tuple, rs: Any, rd: Any, A: Layout, B: Layout,
          usage: list, signs: set | None = None, rec: Any = None) -> tuple[Any, Any]:
    """C++ ``composition_impl`` for a flat ``ls:ld``; adds each leaf's digit use to ``usage``.

    A recorder hears ``Leaf`` for each leaf of B, then ``ZeroLeaf``, ``Single``, or a ``Skip``
    or ``Take`` for each mode of ``ls:ld`` but the last and ``LastMode`` for the last.
    """
    if type(rs) is tuple:
        ss, dd = [], []
        for s, d in zip(rs, rd):
            a, b = _impl(ls, ld, s, d, A, B, usage, signs, rec)
            ss.append(a)
            dd.append(b)
        return tuple(ss), tuple(dd)
    if rec:
        rec.emit(Leaf(rs, rd))
    if type(rd) is not int and isinstance(rd, ScaledBasis):
        return _compose_basis(A, rs, rd, B)
    last = len(ls) - 1
    if rd == 0 and (type(rd) is not DynamicInt or last > 0):  # a run-time 0: C++ divides by it
        if rec:
            rec.emit(ZeroLeaf(rs))
        return rs, rd
    if last == 0:
        if rec:
            rec.emit(Single((ls[0], ld[0]), (rs, rd), rd * ld[0]))
        return rs, rd * ld[0]
    # as C++: work on |stride| and give the results its sign; by A(-x) == -A(x) (C++'s
    # truncating division) an all-negative B composes as the mirror image of a positive one
    sign = -1 if rd < 0 else 1
    if rs != 1 and signs is not None:
        signs.add(sign)
    result_s: list = []
    result_d: list = []
    rest_s, rest_d = rs, sign * rd
    for i in range(last):
        s = ls[i]
        next_shape = -(-s // rest_d)
        next_stride = -(-rest_d // s)
        if next_shape == 1 or rest_s == 1:
            # C++'s static check, a size-1 B included (a negative stride always passes it there)
            if rest_d >= s and rest_d % s != 0 and (rest_s != 1 or sign > 0):
                raise _inadmissible(A, B, "stride", i, ls, ld,
                                    f"B's remaining stride {rest_d} is neither a multiple of "
                                    f"A's shape {s} nor smaller than it")
            if (next_shape == 1 and type(next_shape) is not DynamicInt) or (
                    rest_s == 1 and type(rest_s) is not DynamicInt):  # static 1s (is_constant<1>)
                if rec:
                    rec.emit(Skip(i, (s, ld[i]), (rest_s, rest_d), next_stride))
                rest_d = next_stride
                continue
            # as C++: a run-time 1 is not known to be 1, so it makes a mode of extent 1
            result_s.append(DynamicInt(1))
            result_d.append(sign * rest_d * ld[i])
            rest_s = rest_s // result_s[-1]
            rest_d = next_stride
            continue
        new = next_shape if next_shape < rest_s else rest_s
        if type(next_shape) is not type(rest_s) and type(new) is int and (
                type(next_shape) is DynamicInt or type(rest_s) is DynamicInt):
            new = DynamicInt(new)  # C++'s min(int, Int<N>) is an int
        if rest_s % new != 0:
            raise _inadmissible(A, B, "shape", i, ls, ld,
                                f"B's remaining shape {rest_s} is not a multiple of {new}, "
                                f"the extent that A's shape {s} leaves at stride {rest_d}")
        if rest_s > next_shape and s % rest_d != 0:
            raise _inadmissible(A, B, "stride", i, ls, ld,
                                f"B's remaining stride {rest_d} does not divide A's shape {s}, "
                                f"and B's remaining shape {rest_s} runs past it")
        result_s.append(new)
        result_d.append(sign * rest_d * ld[i])
        usage[i] += (new - 1) * rest_d
        if rec:
            rec.emit(Take(i, (s, ld[i]), (rest_s, rest_d), next_shape, next_stride, new, result_d[-1],
                          rest_s // new))
        rest_s //= new
        rest_d = next_stride
        if rest_s == 1 and rest_d == 1 and type(rest_s) is int and not rec and _steps_only(ls, i + 1, last):
            break  # nothing of the leaf left, stride 1: every later mode is a Skip that changes nothing
    rest_d = sign * rest_d
    if not result_s:
        if rec:
            rec.emit(LastMode((ls[last], ld[last]), (rest_s, rest_d), rest_d * ld[last]))
        return rest_s, rest_d * ld[last]
    if rest_s == 1 and type(rest_s) is not DynamicInt:  # a static 1 (C++'s is_constant<1>)
        if len(result_s) == 1:
            return result_s[0], result_d[0]
        return tuple(result_s), tuple(result_d)
    if rec:
        rec.emit(LastMode((ls[last], ld[last]), (rest_s, rest_d), rest_d * ld[last]))
    result_s.append(rest_s)
    result_d.append(rest_d * ld[last])
    return tuple(result_s), tuple(result_d)


def _steps_only(ls: tuple, start: int, stop: int) -> bool:
    """Whether the modes ``ls[start:stop]`` are concrete integers, for which a leaf of shape 1
    and stride 1 passes every check and stays as it is (a symbolic mode may leave a check
    undecided, so it is walked)."""
    for k in range(start, stop):
        if type(ls[k]) is not int and type(ls[k]) is not DynamicInt:
            return False
    return True


def _inadmissible(A, B, kind: str, i: int, ls: tuple, ld: tuple, why: str) -> AdmissibilityError:
    flat = Layout._new(ls, ld)
    return AdmissibilityError(
        f"composition {A} o {B} is inadmissible: {kind} divisibility fails at mode {i} "
        f"of coalesce(A) = {flat}: {why}"
    )


def is_admissible(A: Layout, B: Any) -> bool:
    """Whether ``composition(A, B)`` meets CuTe's divisibility conditions.

    Pre:  ``A`` is a Layout; ``B`` is a layout, a shape or a by-mode tiler.
    Post: ``True`` iff ``composition(A, B)`` returns rather than raising ``AdmissibilityError``.

    >>> is_admissible(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    True
    >>> is_admissible(Layout((4, 6), (1, 5)), Layout(8, 3))
    False
    """
    try:
        composition(A, B)
    except AdmissibilityError:
        return False
    return True

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "composition", "is_admissible",
]
