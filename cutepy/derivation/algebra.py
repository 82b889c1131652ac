"""Explainers for coalesce, filter, composition, complement and the inverses.

Each mirrors the real operation's algorithm line for line (see the module it names)
and records a step where that algorithm makes a choice.

>>> from cutepy import Layout
>>> from cutepy.derivation import explain
>>> print(explain("complement", Layout(4, 2), 24).text())
complement(4:2, 24)
  1. filter(A) = 4:2 (drop stride-0 and size-1 modes, coalesce)
  2. sorted by stride: 4:2
  3. gap below stride 2: 2/1 = 2 at stride 1; 4:2 then covers up to 8
  4. rest up to the cotarget: ceil(24/8) = 3 at stride 8
  5. coalesce (2,3):(1,8): nothing merges
  = (2,3):(1,8)
"""

from __future__ import annotations

from typing import Any

from .. import inttuple as it
from ..basis import ScaledBasis
from ..coalesce import coalesce_flat, filter_flat, filter_zeros
from ..composition import _check_carry_free, _inadmissible, coalesce_x
from ..errors import AdmissibilityError, CutepyError
from ..layout import Layout, _is_symbolic, as_layout
from . import Derivation, explainable, fmt, lx, run

# -- coalesce / filter -----------------------------------------------------------------


def _p(x: Any) -> str:
    """A leaf as an operand: parenthesised when it is a sum, product or quotient."""
    s = str(x)
    return f"({s})" if any(c in s for c in "+-*/%") and not s.lstrip("-").isdigit() else s


def _flat(shapes: Any, strides: Any) -> Layout:
    if type(shapes) is tuple:
        return Layout._new(shapes, strides)
    return Layout._new((shapes,), (strides,))


def _summary(L: Layout) -> tuple[Layout, str]:
    """The normal form of ``L`` and a one-line account of its steps."""
    from ..equivalence.normal_form import normal_form

    nf = normal_form(L)
    acts = [s.text() for s in nf.steps[1:] if s.rule in ("drop", "merge")]
    return nf.layout(), "; ".join(acts) if acts else "nothing merges"


def _coalesce_steps(D: Derivation, L: Layout) -> Layout:
    from ..equivalence.normal_form import normal_form

    nf = normal_form(L)
    for s in nf.steps:
        D.add(s.text(), s.latex())
    return nf.layout()


@explainable("coalesce")
def coalesce(D: Derivation, L: Any, profile: Any = None) -> Layout:
    if type(profile) is not tuple:
        return _coalesce_steps(D, L)
    shape, stride = L.shape, L.stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    if len(profile) > len(shape):
        raise CutepyError(f"coalesce: profile {profile} has more modes than the layout {L}")
    ss, dd = [], []
    for i, p in enumerate(profile):
        m = Layout._new(shape[i], stride[i])
        sub = run("coalesce", m, p) if type(p) is tuple else run("coalesce", m)
        r = D.add(f"mode {i}: coalesce {m}" + (f" by the profile {p}" if type(p) is tuple else ""), sub=sub)
        if r is None:
            raise sub.error
        ss.append(r.shape)
        dd.append(r.stride)
    if len(profile) < len(shape):
        D.add(f"modes {len(profile)}.. stay as they are")
    return Layout._new(tuple(ss) + shape[len(profile):], tuple(dd) + stride[len(profile):])


@explainable("filter")
def filter_(D: Derivation, L: Layout, profile: Any = None) -> Layout:
    if profile is None or type(profile) is not tuple:
        fs, fd = it.flatten(L.shape), it.flatten(L.stride)
        keep = [(s, d) for s, d in zip(fs, fd) if isinstance(d, ScaledBasis) or d != 0]
        gone = len(fs) - len(keep)
        K = Layout._new(tuple(s for s, _ in keep), tuple(d for _, d in keep))
        D.add(f"drop the {gone} stride-0 mode(s): {K}" if gone else "no stride-0 modes", layout=None)
        return _coalesce_steps(D, K)
    Z = filter_zeros(L)
    D.add(f"stride-0 modes get size 1: {Z}")
    return D.add(f"coalesce by the profile {profile}", sub=run("coalesce", Z, profile))


# -- composition -----------------------------------------------------------------------


@explainable("composition")
def composition(D: Derivation, A: Any, B: Any) -> Any:
    if type(A) is not Layout:
        if isinstance(A, str):
            A = as_layout(A)
            D.add(f"read A = {A}")
        elif hasattr(A, "compose"):
            return _compose_composed(D, A, B)
        else:
            A = as_layout(A)
            D.add(f"A as a layout: {A}")
    if type(B) is Layout:
        return _layouts(D, A, B)
    if B is None:
        D.add("no tiler: A is kept")
        return A
    if type(B) is int or _is_symbolic(B):
        Bl = Layout(B)
        D.add(f"the size {B} stands for the layout {Bl}")
        return _layouts(D, A, Bl)
    if isinstance(B, tuple):
        return _by_mode(D, A, B)
    if isinstance(B, str):
        from ..notation import parse

        Bp = parse(B)
        D.add(f"read B = {fmt(Bp)}")
        return D.add("compose with it", sub=_must(run("composition", A, Bp)))
    if hasattr(B, "compose_left"):
        D.add(f"B is composed: A o ({B}) keeps A outermost")
        return B.compose_left(A)
    raise CutepyError(f"composition: cannot use {B!r} as the right-hand side")


def _must(sub: Derivation) -> Derivation:
    if sub.error is not None:
        raise sub.error
    return sub


def _compose_composed(D: Derivation, A: Any, B: Any) -> Any:
    from ..swizzle import ComposedLayout, Swizzle

    if isinstance(A, Swizzle):
        D.add(f"a swizzle composes as {A} o 0 o B")
        return A.compose(B)
    D.add(f"A = {A} is composed: (outer o offset o inner) o B = outer o offset o (inner o B)")
    inner = D.add(f"compose the inner layout {A.inner} with B", sub=_must(run("composition", A.inner, B)))
    return ComposedLayout(A.outer, A.offset, inner)


def _by_mode(D: Derivation, A: Layout, tiler: tuple) -> Layout:
    shape, stride = A.shape, A.stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    if len(tiler) > len(shape):
        from ..composition import _fmt_tiler

        raise CutepyError(f"composition: tiler {_fmt_tiler(tiler)} has more modes than {A}")
    ss, dd = [], []
    for i, t in enumerate(tiler):
        m = Layout._new(shape[i], stride[i])
        r = D.add(f"mode {i}: {m} o {fmt(t)}", sub=_must(run("composition", m, t)))
        ss.append(r.shape)
        dd.append(r.stride)
    if len(tiler) < len(shape):
        D.add(f"A's modes {len(tiler)}.. have no tiler and are dropped (as in C++)")
    return Layout._new(tuple(ss), tuple(dd))


def _layouts(D: Derivation, A: Layout, B: Layout) -> Layout:
    ls, ld = coalesce_x(A)
    fs = it.flatten(A.shape)
    note = ""
    if fs and fs[-1] == 1:
        note = "the last mode has size 1: it counts as 2 so its stride survives; "
    X = Layout._new(ls, ld)
    _, how = _summary(_flat(it.flatten(A.shape), it.flatten(A.stride)))
    D.add(f"coalesce_x(A) = {X} ({note}flatten {_flat(fs, it.flatten(A.stride))}; {how})",
          rf"\mathrm{{coalesce_x}}(A) = {lx(X)}", layout=X)
    usage = [0] * (len(ls) - 1)
    s, d = _impl(D, ls, ld, B.shape, B.stride, A, B, usage, ())
    if type(B.shape) is tuple and usage:
        _check_carry_free(ls, ld, usage, A, B)
        reach = ", ".join(f"digit {i}: {u} < {ls[i]}" for i, u in enumerate(usage))
        D.add(f"carry check on coalesce_x(A), B's modes together reach {reach}: no carry")
    return Layout._new(s, d)


def _impl(D: Derivation, ls: tuple, ld: tuple, rs: Any, rd: Any, A: Layout, B: Layout,
          usage: list, path: tuple) -> tuple[Any, Any]:
    if type(rs) is tuple:
        ss, dd = [], []
        for k, (s, d) in enumerate(zip(rs, rd)):
            a, b = _impl(D, ls, ld, s, d, A, B, usage, path + (k,))
            ss.append(a)
            dd.append(b)
        return tuple(ss), tuple(dd)
    where = f"B's mode {','.join(map(str, path))}" if path else "B"
    L = Derivation(f"leaf {rs}:{rd}", ())
    if type(rd) is not int and isinstance(rd, ScaledBasis):
        sub = A
        for m in rd.mode:
            if type(sub.shape) is not tuple or not 0 <= m < len(sub.shape):
                raise CutepyError(f"composition {A} o {B}: basis stride {rd} names no mode of A")
            sub = sub[m]
        bls, bld = coalesce_x(sub)
        L.add(f"the basis stride {rd} picks A's sub-mode {sub}; coalesce_x of it = {Layout._new(bls, bld)}")
        res = _fold(L, bls, bld, rs, rd.value, A, B, [0] * (len(bls) - 1))
    else:
        res = _fold(L, ls, ld, rs, rd, A, B, usage)
    L.result = Layout._new(*res)
    D.add(f"B's leaf {rs}:{rd} ({where})", sub=L)
    return res


def _fold(L: Derivation, ls: tuple, ld: tuple, rs: Any, rd: Any, A: Layout, B: Layout,
          usage: list) -> tuple[Any, Any]:
    """C++ ``composition_impl`` for one leaf of B, one step per mode of ``coalesce_x(A)``."""
    if rd == 0:
        L.add(f"stride 0: the leaf stays {rs}:0")
        return rs, rd
    last = len(ls) - 1
    if last == 0:
        L.add(f"A is the single mode {ls[0]}:{ld[0]}: stride {_p(rd)}*{_p(ld[0])} = {rd * ld[0]}")
        return rs, rd * ld[0]
    if rd < 0 and rs > 1:
        raise AdmissibilityError(
            f"composition {A} o {B} is inadmissible: B's negative stride {rd} would index A below 0")
    out_s: list = []
    out_d: list = []
    rest_s, rest_d = rs, rd
    for i in range(last):
        s = ls[i]
        nshape = -(-s // rest_d)
        nstride = -(-rest_d // s)
        head = f"mode {i} of A ({s}:{ld[i]}): "
        ps, prd = _p(s), _p(rest_d)
        if nshape == 1 or rest_s == 1:
            if rest_s != 1 and rest_d % s != 0:
                raise _inadmissible(A, B, "stride", i, ls, ld,
                                    f"B's remaining stride {rest_d} is neither a multiple of "
                                    f"A's shape {s} nor smaller than it")
            why = "nothing of B's leaf is left" if rest_s == 1 else f"stride {rest_d} steps over it"
            L.add(head + f"{why}; divide out -> stride ceil({prd}/{ps}) = {nstride} on",
                  rf"\text{{mode {i}: }} \lceil {lx(rest_d)} / {lx(s)} \rceil = {lx(nstride)}")
            rest_d = nstride
            continue
        new = nshape if nshape < rest_s else rest_s
        if rest_s % new != 0:
            raise _inadmissible(A, B, "shape", i, ls, ld,
                                f"B's remaining shape {rest_s} is not a multiple of {new}, "
                                f"the extent that A's shape {s} leaves at stride {rest_d}")
        if rest_s > nshape and s % rest_d != 0:
            raise _inadmissible(A, B, "stride", i, ls, ld,
                                f"B's remaining stride {rest_d} does not divide A's shape {s}, "
                                f"and B's remaining shape {rest_s} runs past it")
        out_s.append(new)
        out_d.append(rest_d * ld[i])
        usage[i] += (new - 1) * rest_d
        left = rest_s // new
        L.add(head + f"divide out stride {rest_d} -> ceil({ps}/{prd}) = {nshape} left, stride "
              f"ceil({prd}/{ps}) = {nstride} on; mod out min({nshape}, {rest_s}) = {new} -> "
              f"{new}:{prd}*{_p(ld[i])} = {new}:{rest_d * ld[i]}; {_p(rest_s)}/{_p(new)} = {left} left",
              rf"\text{{mode {i}: }} \lceil {lx(s)}/{lx(rest_d)} \rceil = {lx(nshape)},\ "
              rf"\lceil {lx(rest_d)}/{lx(s)} \rceil = {lx(nstride)},\ "
              rf"\min({lx(nshape)}, {lx(rest_s)}) = {lx(new)} \Rightarrow {lx(new)}:{lx(rest_d * ld[i])}")
        rest_s = left
        rest_d = nstride
    if not out_s:
        L.add(f"last mode of A ({ls[last]}:{ld[last]}): the rest {rest_s}:{_p(rest_d)}*{_p(ld[last])} = "
              f"{rest_s}:{rest_d * ld[last]}")
        return rest_s, rest_d * ld[last]
    if rest_s == 1:
        if len(out_s) == 1:
            return out_s[0], out_d[0]
        return tuple(out_s), tuple(out_d)
    L.add(f"last mode of A ({ls[last]}:{ld[last]}): the rest {rest_s}:{_p(rest_d)}*{_p(ld[last])} = "
          f"{rest_s}:{rest_d * ld[last]}")
    out_s.append(rest_s)
    out_d.append(rest_d * ld[last])
    return tuple(out_s), tuple(out_d)


# -- complement ------------------------------------------------------------------------


@explainable("complement")
def complement(D: Derivation, A: Layout, cotarget: Any = None) -> Layout:
    fs, fd = filter_flat(A)
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    F = Layout._new(fs, fd) if len(fs) > 1 else Layout._new(fs[0], fd[0])
    D.add(f"filter(A) = {F} (drop stride-0 and size-1 modes, coalesce)", layout=F)
    if cotarget is None:
        cotarget = 1
        for s, d in zip(fs, fd):
            cotarget = cotarget + (s - 1) * abs(d)
        D.add(f"cotarget = cosize(filter(A)) = {cotarget}")
    for d in fd:
        if isinstance(d, ScaledBasis):
            raise CutepyError(f"complement of {A}: stride {d} is not an integer")
        if d < 0:
            raise AdmissibilityError(f"complement of {A} is undefined: stride {d} is negative")
    if fd == (0,):
        n = it.product(cotarget)
        D.add(f"A reaches only offset 0: the complement is all of [0, {n})")
        return Layout._new(n, 1) if n != 1 else Layout._new(1, 0)
    order = sorted(range(len(fs)), key=fd.__getitem__) if len(fs) > 1 else (0,)
    D.add("sorted by stride: " + ", ".join(f"{fs[k]}:{fd[k]}" for k in order))
    shapes: list = []
    strides: list = []
    cur = 1
    for k in order:
        s, d = fs[k], fd[k]
        if d < cur:
            raise AdmissibilityError(
                f"complement of {A} is undefined: mode {s}:{d} starts inside the extent {cur} "
                "of the modes of smaller stride (modes interleave or overlap; C++ rejects this "
                "as non-injective)")
        shapes.append(d // cur)
        strides.append(cur)
        D.add(f"gap below stride {d}: {_p(d)}/{_p(cur)} = {d // cur} at stride {cur}; {s}:{d} then covers "
              f"up to {d * s}",
              rf"\text{{gap: }} {lx(d)}/{lx(cur)} = {lx(d // cur)} \text{{ at stride }} {lx(cur)}")
        cur = d * s
    rest = it.product(it.ceil_div(cotarget, cur))
    D.add(f"rest up to the cotarget: ceil({_p(fmt(cotarget))}/{_p(cur)}) = {rest} at stride {cur}",
          rf"\lceil {lx(cotarget)} / {lx(cur)} \rceil = {lx(rest)}")
    shapes.append(rest)
    strides.append(cur)
    s, d = coalesce_flat(shapes, strides)
    G = Layout._new(tuple(shapes), tuple(strides))
    R, how = _summary(G)
    D.add(f"coalesce {G}: {how}", layout=None)
    return Layout._new(s, d)


# -- inverses --------------------------------------------------------------------------


def _coalesced_modes(D: Derivation, A: Layout) -> tuple[tuple, tuple, list]:
    from ..inverse import _coalesced, _int_strides, _prefix

    fs, fd = _coalesced(A)
    _int_strides(A, fd)
    pre = _prefix(fs)
    D.add(f"coalesce(A) = {_flat(fs, fd) if len(fs) > 1 else Layout._new(fs[0], fd[0])}; "
          f"column-major positions of its modes: {', '.join(map(str, pre))}")
    return fs, fd, pre


@explainable("right_inverse")
def right_inverse(D: Derivation, A: Layout) -> Layout:
    fs, fd, pre = _coalesced_modes(D, A)
    shapes, strides = [], []
    curr = 1
    for k in sorted(range(len(fs)), key=fd.__getitem__):
        if fd[k] == curr:
            shapes.append(fs[k])
            strides.append(pre[k])
            D.add(f"mode {fs[k]}:{fd[k]} continues the chain at stride {curr}: take {fs[k]}:{pre[k]}")
            curr = fs[k] * fd[k]
        else:
            D.add(f"mode {fs[k]}:{fd[k]} is off the chain (it would need stride {curr})")
    s, d = coalesce_flat(shapes, strides)
    D.add(f"coalesce the chain: {Layout._new(s, d)}")
    return Layout._new(s, d)


@explainable("left_inverse")
def left_inverse(D: Derivation, A: Layout) -> Layout:
    fs, fd, pre = _coalesced_modes(D, A)
    order = sorted(range(len(fs)), key=fd.__getitem__)
    shapes: list = []
    strides: list = [0]
    total = 1
    for k in order:
        d = fd[k]
        if d == 0:
            D.add(f"mode {fs[k]}:0 reaches no new offset: skipped")
            continue
        if d < 0 or d % total != 0:
            raise AdmissibilityError(
                f"left_inverse of {A}: stride {d} is not a multiple of {total}, the extent "
                "of the modes of smaller stride (left inverse divisibility condition)")
        shapes.append(d // total)
        strides.append(pre[k])
        D.add(f"stride {d}: {d}/{total} = {d // total} offsets per step of the modes below, "
              f"mapped to position {pre[k]}")
        total *= d // total
    shapes.append(fs[order[-1]])
    D.add(f"the largest-stride mode's size {fs[order[-1]]} closes the inverse")
    s, d = coalesce_flat(shapes, strides)
    D.add(f"coalesce: {Layout._new(s, d)}")
    return Layout._new(s, d)
