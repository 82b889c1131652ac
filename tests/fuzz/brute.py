"""An independent brute-force model of CuTe layouts and XLA tiled layouts.

Nothing here calls cutepy's evaluation: a layout is read as data (its ``shape`` and
``stride`` tuples, a swizzle's ``B, M, S``) and evaluated from first principles:

- the flat coordinate of index ``i`` is colexicographic, ``c_k = (i // (s_0...s_{k-1})) % s_k``,
  except that the last mode is unbounded (``c_last = i // (s_0...s_{last-1})``), as in
  CuTe's ``crd2idx`` for an index past the size;
- the offset is the inner product of the flat coordinate with the flat strides;
- ``Sw<B,M,S>(x) = x ^ ((x & (2^B-1) << (M+max(S,0))) >> S)`` (``<< -S`` for a negative ``S``);
- an XLA element's offset is the row-major index in the tiled shape of XLA's docs:
  ``linear_index_with_tile(e, d, t) = linear_index((e//t, e%t), (ceil(d/t), t))``.

The laws in :func:`check_*` state what each operation's result must satisfy (C++ CuTe's
post-conditions), so a wrong answer shows up as a :class:`WrongAnswer` with the input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class WrongAnswer(AssertionError):
    """A result that breaks a law of the operation that produced it."""


class TooBig(Exception):
    """The model would take too long on this input: the law is not checked."""


#: The largest domain the model enumerates.
MAX_TABLE = 1 << 16


def leaves(t: Any) -> list:
    """The leaves of a nested tuple, left to right (a non-tuple is one leaf)."""
    if isinstance(t, tuple):
        out: list = []
        for x in t:
            out.extend(leaves(x))
        return out
    return [t]


def nsize(shape: Any) -> int:
    n = 1
    for s in leaves(shape):
        n *= s
    return n


def is_basis(d: Any) -> bool:
    return hasattr(d, "mode") and hasattr(d, "value")


def colex(i: int, shapes: Sequence[int]) -> list[int]:
    """Flat coordinate of index ``i``; the last mode takes what is left."""
    out = []
    for k, s in enumerate(shapes):
        if k == len(shapes) - 1:
            out.append(i)
        else:
            out.append(i % s)
            i //= s
    return out


def value(shape: Any, stride: Any, i: int) -> Any:
    """``shape:stride`` at index ``i``: an int, or a dict path -> int for basis strides."""
    fs, fd = leaves(shape), leaves(stride)
    assert len(fs) == len(fd)
    if not fs:
        return 0
    c = colex(i, fs)
    if any(is_basis(d) for d in fd):
        acc: dict = {}
        for ck, d in zip(c, fd):
            if is_basis(d):
                acc[d.mode] = acc.get(d.mode, 0) + ck * d.value
            else:
                acc[()] = acc.get((), 0) + ck * d
        return {k: v for k, v in acc.items() if v}
    return sum(ck * dk for ck, dk in zip(c, fd))


def swizzle(x: int, B: int, M: int, S: int) -> int:
    msk = (1 << B) - 1
    yyy = msk << (M + max(0, S))
    y = x & yyy
    return x ^ (y >> S) if S >= 0 else x ^ (y << -S)


def evaluate(L: Any, i: int) -> Any:
    """Layout or composed layout ``L`` at index ``i``, from its data alone."""
    if hasattr(L, "outer"):
        x = evaluate(L.inner, i) + L.offset
        o = L.outer
        if hasattr(o, "bits"):
            return swizzle(x, o.bits, o.base, o.shift)
        return evaluate(o, x)
    return value(L.shape, L.stride, i)


def table(L: Any, n: int | None = None) -> list:
    """``[L(i) for i in range(n or size(L))]``."""
    n = nsize(L.shape) if n is None else n
    if n > MAX_TABLE:
        raise TooBig(f"{n} elements")
    return [evaluate(L, i) for i in range(n)]


def size(L: Any) -> int:
    return nsize(L.shape)


def bounded(n: int) -> range:
    """``range(n)`` for a domain the model can enumerate, else :class:`TooBig`."""
    if n > MAX_TABLE:
        raise TooBig(f"{n} elements")
    return range(n)


def cosize(L: Any) -> int:
    return 1 + sum((s - 1) * abs(d) for s, d in zip(leaves(L.shape), leaves(L.stride)))


def mode(L: Any, k: int) -> tuple[Any, Any]:
    """Top-level mode ``k`` of ``L`` as (shape, stride) data."""
    if isinstance(L.shape, tuple):
        return L.shape[k], L.stride[k]
    assert k == 0
    return L.shape, L.stride


def rank(L: Any) -> int:
    return len(L.shape) if isinstance(L.shape, tuple) else 1


def require(cond: bool, what: str) -> None:
    if not cond:
        raise WrongAnswer(what)


# -- laws of the algebra ------------------------------------------------------------------


def check_same_function(R: Any, L: Any, what: str) -> None:
    require(size(R) == size(L), f"{what}: size {size(R)} != {size(L)}")
    require(table(R) == table(L), f"{what}: {R} and {L} differ as functions")


def check_composition(R: Any, A: Any, B: Any) -> None:
    """``R(i) == A(B(i))`` for every ``i < size(B)``; ``size(R) == size(B)``."""
    require(size(R) == size(B), f"composition({A}, {B}) = {R}: size {size(R)} != size(B) {size(B)}")
    for i in bounded(size(B)):
        require(evaluate(R, i) == evaluate(A, evaluate(B, i)), f"composition({A}, {B}) = {R} at {i}")


def check_complement(R: Any, A: Any, cotarget: int) -> None:
    """CuTe's post-conditions of ``complement(A, cotarget)`` for an injective ``A``.

    ``R`` is strictly increasing from 0, meets ``A`` only at 0, ``(A, R)`` is injective,
    and ``(A, R)`` covers at least ``cotarget`` (its cosize reaches it).
    """
    r = table(R)
    require(r[0] == 0, f"complement({A}, {cotarget}) = {R} does not start at 0")
    require(all(x < y for x, y in zip(r, r[1:])), f"complement({A}, {cotarget}) = {R} is not increasing")
    a = set(table(A))
    require(not (a & set(r[1:])), f"complement({A}, {cotarget}) = {R} meets the layout")
    both = {x + y for x in table(A) for y in r}
    require(len(both) == size(A) * size(R), f"complement({A}, {cotarget}) = {R}: (A, R) not injective")
    require(max(both) + 1 >= cotarget, f"complement({A}, {cotarget}) = {R} falls short of the cotarget")


def check_right_inverse(R: Any, A: Any) -> None:
    """``A(R(i)) == i`` for every ``i < size(R)``."""
    for i in bounded(size(R)):
        require(evaluate(A, evaluate(R, i)) == i, f"right_inverse({A}) = {R} at {i}")


def check_left_inverse(R: Any, A: Any) -> None:
    """``R(A(i)) == i`` for every ``i < size(A)`` (``A`` injective)."""
    for i in bounded(size(A)):
        require(evaluate(R, evaluate(A, i)) == i, f"left_inverse({A}) = {R} at {i}")


def check_nullspace(R: Any, A: Any) -> None:
    """``A(R(i)) == 0`` for every ``i`` and ``R`` injective."""
    r = table(R)
    require(len(set(r)) == len(r), f"nullspace({A}) = {R} is not injective")
    for x in r:
        require(evaluate(A, x) == 0, f"nullspace({A}) = {R}: A({x}) != 0")


def check_max_common(R: Any, A: Any, B: Any) -> None:
    """``A(R(i)) == B(R(i)) == i`` for every ``i < size(R)``."""
    for i in bounded(size(R)):
        x = evaluate(R, i)
        require(evaluate(A, x) == i and evaluate(B, x) == i, f"max_common_layout({A}, {B}) = {R} at {i}")


def check_max_common_vector(n: int, A: Any, B: Any) -> None:
    """C++: the stride-1 prefix of ``coalesce(A o right_inverse(B))``: for ``j < n``, an index
    ``i`` with ``B(i) == j`` and ``A(i) == j`` exists (C++'s ``max_common_layout`` post-condition;
    where B is not one-to-one, any of the indices it sends to ``j`` may be the one)."""
    both: set = set()
    for i, x in enumerate(table(B)):
        if x == evaluate(A, i):
            both.add(x)
    for j in bounded(n):
        require(j in both, f"max_common_vector({A}, {B}) = {n} at {j}")


def check_coalesce(R: Any, A: Any) -> None:
    check_same_function(R, A, f"coalesce({A}) = {R}")
    require(all(not isinstance(s, tuple) for s in (R.shape if isinstance(R.shape, tuple) else (R.shape,))),
            f"coalesce({A}) = {R} is not flat")


def check_filter(R: Any, A: Any) -> None:
    """Same image; size is the product of the modes with nonzero stride."""
    keep = 1
    for s, d in zip(leaves(A.shape), leaves(A.stride)):
        if d != 0:
            keep *= s
    require(size(R) == keep, f"filter({A}) = {R}: size {size(R)} != {keep}")
    require(sorted(set(table(R))) == sorted(set(table(A))), f"filter({A}) = {R}: image differs")


def check_logical_divide(R: Any, A: Any, B: Any) -> None:
    """Mode 0 of ``R`` is ``A o B``; ``R`` has ``A``'s image (B divides A's size)."""
    s0, d0 = mode(R, 0)
    require(nsize(s0) == size(B), f"logical_divide({A}, {B}) = {R}: tile size {nsize(s0)} != {size(B)}")
    for i in bounded(size(B)):
        require(value(s0, d0, i) == evaluate(A, evaluate(B, i)), f"logical_divide({A}, {B}) = {R} at {i}")
    require(sorted(table(R)) == sorted(table(A)), f"logical_divide({A}, {B}) = {R}: image differs from A")


def check_logical_product(R: Any, A: Any, B: Any) -> None:
    """Mode 0 of ``R`` is ``A``; ``size(R) == size(A)*size(B)``; injective if A and B are."""
    s0, d0 = mode(R, 0)
    require(nsize(s0) == size(A), f"logical_product({A}, {B}) = {R}: first mode size")
    for i in bounded(size(A)):
        require(value(s0, d0, i) == evaluate(A, i), f"logical_product({A}, {B}) = {R} at {i}")
    require(size(R) == size(A) * size(B), f"logical_product({A}, {B}) = {R}: size")
    ta, tb = table(A), table(B)
    if len(set(ta)) == len(ta) and len(set(tb)) == len(tb):
        tr = table(R)
        require(len(set(tr)) == len(tr), f"logical_product({A}, {B}) = {R} is not injective")


def check_same_image(R: Any, L: Any, what: str) -> None:
    require(size(R) == size(L), f"{what}: size {size(R)} != {size(L)}")
    require(sorted(table(R)) == sorted(table(L)), f"{what}: image differs")


def check_downcast(R: Any, A: Any, n: int) -> None:
    """Offsets scale by ``n`` and a unit-stride mode grows ``n``-fold."""
    unit = [d for d in leaves(A.stride) if d == 1]
    if len(unit) > 1:
        raise TooBig("more than one unit-stride mode: the law below does not cover it")
    base = set(table(A))
    want = {n * x + r for x in base for r in range(n)} if len(unit) == 1 else {n * x for x in base}
    require(set(table(R)) == want, f"downcast({A}, {n}) = {R}: image differs")


def check_upcast(R: Any, A: Any, n: int) -> None:
    """The offsets of ``R`` are those of ``A`` divided by ``n`` (when everything divides)."""
    require(set(table(R)) == {x // n for x in table(A)}, f"upcast({A}, {n}) = {R}: image differs")


# -- integer tuples ------------------------------------------------------------------------


def prefix_product(t: Any, init: int = 1) -> Any:
    if isinstance(t, tuple):
        out = []
        for x in t:
            out.append(prefix_product(x, init))
            init *= nsize(x)
        return tuple(out)
    return init


def crd2idx(crd: Any, shape: Any, stride: Any) -> int:
    if isinstance(crd, tuple):
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    return value(shape, stride, crd)


# -- XLA ------------------------------------------------------------------------------------


def xla_linear_index(dims: Sequence[int], minor_to_major: Sequence[int],
                     tiles: Sequence[Sequence[int]], index: Sequence[int]) -> int:
    """XLA docs: physical dims major to minor, then each tile applied to the minor suffix."""
    order = list(reversed(minor_to_major))
    bounds = [dims[d] for d in order]
    coords = [index[d] for d in order]
    for t in tiles:
        k = len(t)
        if k > len(bounds):
            coords = [0] * (k - len(bounds)) + coords
            bounds = [1] * (k - len(bounds)) + bounds
        p = len(bounds) - k
        outer_c = [coords[p + j] // t[j] for j in range(k)]
        inner_c = [coords[p + j] % t[j] for j in range(k)]
        outer_b = [-(-bounds[p + j] // t[j]) for j in range(k)]
        coords = coords[:p] + outer_c + inner_c
        bounds = bounds[:p] + outer_b + list(t)
    off = 0
    for c, b in zip(coords, bounds):
        off = off * b + c
    return off


def xla_buffer_elements(dims: Sequence[int], minor_to_major: Sequence[int],
                        tiles: Sequence[Sequence[int]]) -> int:
    order = list(reversed(minor_to_major))
    bounds = [dims[d] for d in order]
    for t in tiles:
        k = len(t)
        if k > len(bounds):
            bounds = [1] * (k - len(bounds)) + bounds
        p = len(bounds) - k
        bounds = bounds[:p] + [-(-bounds[p + j] // t[j]) for j in range(k)] + list(t)
    return nsize(tuple(bounds))
