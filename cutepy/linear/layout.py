"""Triton's linear layouts: F2-linear maps from named input dimensions to named outputs.

A :class:`LinearLayout` holds, for each input dimension (``register``, ``lane``, ``warp``,
``block`` or ``offset``, ``block``...), the list of its bases: basis ``i`` is the output for
input ``2**i``, and any other input maps to the XOR of the bases of its set bits. The
outputs are an ordered list of ``(name, size)`` pairs, sizes powers of two. Everything
here is Triton's ``LinearLayout`` (``lib/Tools/LinearLayout.cpp``) with the same answers:
flags, ``invert``, ``pseudo_invert`` (Triton's minimal-norm least-squares choice) and
``compose``.

Matrix view: an input's bits are numbered in input-dimension order (the first dimension's
bits lowest), an output's likewise in output order; a layout is the F2 matrix whose
column ``k`` is the flattened output of input bit ``k``.

>>> L = LinearLayout({"register": [[0, 1], [1, 0]], "lane": [[2, 0]]}, [("dim0", 4), ("dim1", 2)])
>>> L(register=3, lane=1)
(3, 1)
>>> L.is_invertible(), L.invert().compose(L) == LinearLayout.identity(L.out_dims)
(True, True)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.errors import CutepyError
from ..core.inttuple import short_repr
from . import f2

#: bits an input or output of a linear layout may have in all (Triton's own limit is 64)
MAX_BITS = 64


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def as_int(x: Any) -> int | None:
    """``x`` as an ``int`` if it is an integer (``operator.index`` accepts it: numpy integers too),
    not a bool; else ``None``."""
    if isinstance(x, bool):
        return None
    try:
        return int(operator.index(x))
    except TypeError:
        return None


def _log2(x: int) -> int:
    return x.bit_length() - 1


class LinearLayout:
    """Triton's LinearLayout over F2: ``bases[in_dim][i]`` is the output for ``in_dim = 2**i``.

    Pre: ``bases`` maps input-dimension names (in order) to lists of bases, each a list of
    ``len(out_dims)`` ints with ``0 <= basis[j] < size_j``; ``out_dims`` is an ordered list of
    ``(name, size)`` pairs (or a mapping), sizes powers of two.
    Post: ``.bases``, ``.in_dims`` (name -> ``2**len(bases)``) and ``.out_dims`` (name -> size),
    ordered as given; calling with keyword inputs returns the outputs in ``out_dims`` order.

    >>> L = LinearLayout({"offset": [[0, 1], [1, 1]]}, [("dim0", 2), ("dim1", 2)])
    >>> [L(offset=i) for i in range(4)]
    [(0, 0), (0, 1), (1, 1), (1, 0)]
    >>> L.in_dims, L.out_dims
    ({'offset': 4}, {'dim0': 2, 'dim1': 2})
    """

    __slots__ = ("_bases", "_out")

    def __init__(
        self,
        bases: Mapping[str, Sequence[Sequence[int]]],
        out_dims: Sequence[tuple[str, int]] | Mapping[str, int],
    ) -> None:
        if isinstance(out_dims, Mapping):
            out_dims = list(out_dims.items())
        if not isinstance(bases, Mapping):
            raise CutepyError(f"LinearLayout: bases must be a dict {{in_dim: [basis, ...]}}, got "
                              f"{short_repr(bases)}")
        if not isinstance(out_dims, (list, tuple)):
            raise CutepyError(f"LinearLayout: out_dims must be a dict {{name: size}} or a list of "
                              f"(name, size) pairs, got {short_repr(out_dims)}")
        outs: list[tuple[str, int]] = []
        for item in out_dims:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise CutepyError(f"LinearLayout: out_dims entries are (name, size) pairs, got "
                                  f"{short_repr(item)}")
            name, size = item[0], as_int(item[1])
            if not isinstance(name, str) or size is None or not _pow2(size):
                raise CutepyError(
                    f"LinearLayout: out-dim {name!r} has size {short_repr(size)}; sizes are powers of two"
                )
            if any(name == n for n, _ in outs):
                raise CutepyError(f"LinearLayout: out-dim {name!r} is named twice")
            outs.append((name, size))
        if sum(_log2(s) for _, s in outs) > MAX_BITS:
            raise CutepyError(f"LinearLayout: the outputs have more than {MAX_BITS} bits in all")
        checked: dict[str, tuple[tuple[int, ...], ...]] = {}
        nbits = 0
        for in_dim, bs in bases.items():
            if not isinstance(in_dim, str):
                raise CutepyError(f"LinearLayout: input dimension names are strings, got {in_dim!r}")
            if not isinstance(bs, (list, tuple)):
                raise CutepyError(f"LinearLayout: in-dim {in_dim!r} needs a list of bases, "
                                  f"got {short_repr(bs)}")
            row = []
            for i, b in enumerate(bs):
                if not isinstance(b, (list, tuple)):
                    raise CutepyError(f"LinearLayout: basis {i} of in-dim {in_dim!r} is {short_repr(b)}; "
                                      f"a basis is a list of {len(outs)} ints, one per out-dim")
                b = tuple(b)
                if len(b) != len(outs):
                    raise CutepyError(
                        f"LinearLayout: basis {i} of in-dim {in_dim!r} is {short_repr(list(b))}: it needs "
                        f"{len(outs)} values, one per out-dim {[n for n, _ in outs]}"
                    )
                for (name, size), raw in zip(outs, b):
                    v = as_int(raw)
                    if v is None:
                        raise CutepyError(
                            f"LinearLayout: basis {i} of in-dim {in_dim!r} has {short_repr(raw)}, not an int"
                        )
                    if not 0 <= v < size:
                        raise CutepyError(
                            f"LinearLayout: basis {i} of in-dim {in_dim!r} is "
                            f"{short_repr(list(b))}: {short_repr(v)} is "
                            f"outside out-dim {name!r} of size {size}"
                        )
                row.append(tuple(as_int(v) for v in b))
            nbits += len(row)
            checked[in_dim] = tuple(row)
        if nbits > MAX_BITS:
            raise CutepyError(f"LinearLayout: the inputs have more than {MAX_BITS} bits in all")
        self._bases = checked
        self._out = tuple(outs)

    @classmethod
    def _new(
        cls, bases: dict[str, tuple[tuple[int, ...], ...]], outs: tuple[tuple[str, int], ...]
    ) -> LinearLayout:
        obj = cls.__new__(cls)
        obj._bases = bases
        obj._out = outs
        return obj

    @classmethod
    def identity(cls, dims: Mapping[str, int] | Sequence[tuple[str, int]]) -> LinearLayout:
        """The identity on ``dims`` (each input named as its output).

        Pre: sizes are powers of two. Post: ``L(**x) == tuple(x.values())``.

        >>> LinearLayout.identity({"dim0": 4}).bases
        {'dim0': [[1], [2]]}
        """
        dims = list(dims.items()) if isinstance(dims, Mapping) else list(dims)
        n = len(dims)
        bases = {}
        for j, (name, size) in enumerate(dims):
            bases[name] = [[1 << k if i == j else 0 for i in range(n)] for k in range(_log2(size))]
        return cls(bases, dims)

    # ---- views ------------------------------------------------------------------------------

    @property
    def bases(self) -> dict[str, list[list[int]]]:
        """``{in_dim: [[o_0, ..., o_{k-1}], ...]}`` (a fresh copy)."""
        return {k: [list(b) for b in v] for k, v in self._bases.items()}

    @property
    def in_dims(self) -> dict[str, int]:
        """Input dimension name -> size (``2**len(bases)``), in order."""
        return {k: 1 << len(v) for k, v in self._bases.items()}

    @property
    def out_dims(self) -> dict[str, int]:
        """Output dimension name -> size, in order."""
        return dict(self._out)

    def __call__(self, **inputs: int) -> tuple[int, ...]:
        """The outputs (in ``out_dims`` order) for the named inputs; a missing input is 0."""
        for name, v in inputs.items():
            if name not in self._bases:
                raise CutepyError(f"LinearLayout: no input dimension {name!r}; it has {list(self._bases)}")
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1 << len(self._bases[name]):
                raise CutepyError(
                    f"LinearLayout: input {name}={short_repr(v)} is outside [0, "
                    f"{1 << len(self._bases[name])})"
                )
        out = [0] * len(self._out)
        for name, v in inputs.items():
            for i, b in enumerate(self._bases[name]):
                if v >> i & 1:
                    for j, x in enumerate(b):
                        out[j] ^= x
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return list(self._bases.items()) == list(other._bases.items()) and self._out == other._out

    def __hash__(self) -> int:
        return hash((tuple(self._bases.items()), self._out))

    def __repr__(self) -> str:
        return f"LinearLayout({self.bases!r}, {list(self._out)!r})"

    def __str__(self) -> str:
        lines = []
        for name, bs in self._bases.items():
            lines.append(f"{name}: " + (", ".join(str(list(b)) for b in bs) if bs else "(size 1)"))
        lines.append("out: " + ", ".join(f"{n}({s})" for n, s in self._out))
        return "\n".join(lines)

    # ---- the matrix view --------------------------------------------------------------------

    def _out_shifts(self) -> list[int]:
        shifts, s = [], 0
        for _, size in self._out:
            shifts.append(s)
            s += _log2(size)
        return shifts

    def _flat(self, basis: Sequence[int]) -> int:
        v = 0
        for shift, x in zip(self._out_shifts(), basis):
            v |= x << shift
        return v

    def _unflat(self, v: int) -> tuple[int, ...]:
        return tuple(v >> shift & (size - 1) for shift, (_, size) in zip(self._out_shifts(), self._out))

    def columns(self) -> list[int]:
        """The matrix's columns: the flattened output of each input bit, in input order.

        Pre: none. Post: ``len == sum(log2 in_dims)``; outputs flattened first-dim-lowest.

        >>> LinearLayout({"lane": [[1, 1], [0, 1]]}, [("a", 2), ("b", 2)]).columns()
        [3, 2]
        """
        return [self._flat(b) for bs in self._bases.values() for b in bs]

    def in_bits(self) -> int:
        return sum(len(v) for v in self._bases.values())

    def out_bits(self) -> int:
        return sum(_log2(s) for _, s in self._out)

    # ---- flags ------------------------------------------------------------------------------

    def is_injective(self) -> bool:
        """Distinct inputs give distinct outputs (Triton's ``isInjective``).

        Pre: none. Post: ``rank == total input bits``.

        >>> LinearLayout({"lane": [[1], [0]]}, [("dim0", 2)]).is_injective()
        False
        """
        return f2.f2_rank(self.columns()) == self.in_bits()

    def is_surjective(self) -> bool:
        """Every output is reached (Triton's ``isSurjective``).

        Pre: none. Post: ``rank == total output bits``.

        >>> LinearLayout({"lane": [[1], [0]]}, [("dim0", 2)]).is_surjective()
        True
        """
        return f2.f2_rank(self.columns()) == self.out_bits()

    def is_invertible(self) -> bool:
        """Injective and surjective: a bijection (Triton's ``isInvertible``).

        Pre: none. Post: ``is_injective() and is_surjective()``.

        >>> LinearLayout({"lane": [[1], [0]]}, [("dim0", 2)]).is_invertible()
        False
        """
        return self.in_bits() == self.out_bits() and self.is_surjective()

    # ---- operations -------------------------------------------------------------------------

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer o self``: run this layout, then ``outer`` (Triton's ``compose(outer)``).

        Pre: ``outer``'s input dims are this layout's output dims (same names, same order),
        each at least as large. Post: inputs as this layout's, outputs as ``outer``'s.

        >>> L = LinearLayout({"lane": [[1], [2]]}, [("dim0", 4)])
        >>> M = LinearLayout({"dim0": [[2], [1]]}, [("x", 4)])
        >>> L.compose(M)(lane=1)
        (2,)
        """
        if not isinstance(outer, LinearLayout):
            raise CutepyError(f"compose: expected a LinearLayout, got {type(outer).__name__}")
        names = [n for n, _ in self._out]
        if list(outer._bases) != names:
            raise CutepyError(
                f"compose: the outer layout's input dims {list(outer._bases)} must be this "
                f"layout's output dims {names}"
            )
        for name, size in self._out:
            if outer.in_dims[name] < size:
                raise CutepyError(
                    f"compose: out-dim {name!r} has size {size} but the outer layout takes only "
                    f"{outer.in_dims[name]}"
                )
        bases = {}
        for in_dim, bs in self._bases.items():
            bases[in_dim] = tuple(outer(**dict(zip(names, b))) for b in bs)
        return LinearLayout._new(bases, outer._out)

    def invert(self) -> LinearLayout:
        """The inverse map, outputs back to inputs (Triton's ``invert``).

        Pre: ``is_invertible()``. Post: input dims = this layout's outputs, output dims = its
        inputs with their sizes; ``L.compose(L.invert())`` is the identity on L's inputs.

        >>> LinearLayout({"offset": [[0, 1], [1, 1]]}, [("dim0", 2), ("dim1", 2)]).invert().bases
        {'dim0': [[3]], 'dim1': [[1]]}
        """
        if not self.is_invertible():
            raise CutepyError(
                f"invert: the layout is not invertible (injective {self.is_injective()}, "
                f"surjective {self.is_surjective()}, {self.in_bits()} input bits, "
                f"{self.out_bits()} output bits)"
            )
        return self.pseudo_invert()

    def pseudo_invert(self) -> LinearLayout:
        """A right inverse ``P`` with ``L(P(y)) == y`` (Triton's ``pseudoinvert``: its
        least-squares solution with the free input bits 0).

        Pre: ``is_surjective()``. Post: equals ``invert()`` when invertible.

        >>> L = LinearLayout({"lane": [[1], [0]]}, [("dim0", 2)])
        >>> P = L.pseudo_invert(); P.bases, L(lane=P(dim0=1)[0])
        ({'dim0': [[1]]}, (1,))
        """
        if not self.is_surjective():
            raise CutepyError(
                f"pseudo_invert: the layout is not surjective (rank {f2.f2_rank(self.columns())} "
                f"of {self.out_bits()} output bits)"
            )
        identity = LinearLayout.identity(self._out)
        return _invert_and_compose(identity, self)

    def invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        """Triton's ``invertAndCompose``: the layout ``C`` from this layout's inputs to ``outer``'s
        inputs with ``outer(C(x)) == self(x)`` (how a value moves from one layout to another:
        ``src.invert_and_compose(dst)`` says which ``dst`` input holds what ``src``'s input held).

        Pre: ``outer`` a LinearLayout over the same outputs, surjective onto them (else
        ``CutepyError``). Post: Triton's answer (its least-squares choice where ``outer`` is
        not injective).

        >>> reg = LinearLayout({"register": [[1], [2]]}, [("dim0", 4)])
        >>> lane = LinearLayout({"lane": [[2], [1]]}, [("dim0", 4)])
        >>> reg.invert_and_compose(lane).bases
        {'register': [[2], [1]]}
        """
        if not isinstance(outer, LinearLayout):
            raise CutepyError(f"invert_and_compose: outer must be a LinearLayout, got {outer!r}")
        if sorted(outer.out_dims.items()) != sorted(self.out_dims.items()):
            raise CutepyError(f"invert_and_compose: outer's outputs {outer.out_dims} differ from this "
                              f"layout's {self.out_dims}")
        if not outer.is_surjective():
            raise CutepyError("invert_and_compose: outer is not surjective onto its outputs, so some "
                              "of this layout's values have no preimage")
        return _invert_and_compose(self, outer)

    def sublayout(self, in_dims: Iterable[str], out_dims: Iterable[str]) -> LinearLayout:
        """The layout restricted to some inputs and outputs (Triton's ``sublayout``).

        Pre: names exist. Post: bases keep only the chosen outputs, in this layout's order.

        >>> LinearLayout({"a": [[1, 1]], "b": [[0, 1]]}, [("x", 2), ("y", 2)]).sublayout(["b"], ["y"]).bases
        {'b': [[1]]}
        """
        ins, outs = set(in_dims), set(out_dims)
        keep = [j for j, (n, _) in enumerate(self._out) if n in outs]
        bases = {k: tuple(tuple(b[j] for j in keep) for b in v) for k, v in self._bases.items() if k in ins}
        return LinearLayout._new(bases, tuple(self._out[j] for j in keep))


def _lstsq(A: LinearLayout, B: LinearLayout) -> LinearLayout:
    """Triton's ``lstsq``: X with ``A(X(b)) == B(b)``, from the reduced row echelon form of [A | B]."""
    na, nb = A.in_bits(), B.in_bits()
    rows = [0] * A.out_bits()
    for c, col in enumerate(A.columns() + B.columns()):
        for r in range(len(rows)):
            if col >> r & 1:
                rows[r] |= 1 << c
    reduced = f2.rref(rows)
    ret = [0] * na
    for row in reduced:
        c = _log2(row & -row)
        if c >= na:
            raise CutepyError("pseudo_invert: the image of the right side is not in the image of the layout")
        ret[c] = row >> na
    a_dims = list(A.in_dims.items())
    flat_bases = []
    for c in range(nb):
        v = 0
        for r in range(na):
            v |= (ret[r] >> c & 1) << r
        flat_bases.append(v)
    # unflatten: B's input bits by B's dims, values by A's dims
    out_dims = tuple(a_dims)
    bases: dict[str, tuple[tuple[int, ...], ...]] = {}
    k = 0
    for name, size in B.in_dims.items():
        row = []
        for _ in range(_log2(size)):
            v, parts = flat_bases[k], []
            k += 1
            for _, s in a_dims:
                parts.append(v & (s - 1))
                v >>= _log2(s)
            row.append(tuple(parts))
        bases[name] = tuple(row)
    return LinearLayout._new(bases, out_dims)


def _invert_and_compose(this: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """Triton's ``this.invertAndCompose(outer)``: C with ``outer(C(x)) == this(x)``."""
    out_names = list(this.out_dims)
    A = transpose_outs(outer, out_names)
    B = this
    identity_dims = [
        d for d in A.in_dims if d in B.in_dims and A.sublayout([d], out_names) == B.sublayout([d], out_names)
    ]
    a_red = A.sublayout([d for d in A.in_dims if d not in identity_dims], out_names)
    b_red = B.sublayout([d for d in B.in_dims if d not in identity_dims], out_names)
    try:
        ret = _lstsq(a_red, b_red) if a_red._bases or b_red._bases else LinearLayout._new({}, ())
    except CutepyError:
        # the dims both share do not carry the rest: solve the whole system, as Triton's answer
        # does (tests/data/triton_linear_layouts_kinds.json, the second seed of the slow test)
        return transpose_outs(transpose_ins(_lstsq(A, B), list(B.in_dims)), list(A.in_dims))
    for d in identity_dims:
        ret = times(ret, identity1d(A.in_dims[d], d, d))
    return transpose_outs(transpose_ins(ret, list(B.in_dims)), list(A.in_dims))


# ---- Triton's constructors (used by the conversions of Gluon layouts) -------------------------


def identity1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    """Triton's ``identity1D``: ``in_dim = x -> out_dim = x`` for ``x < size``."""
    return LinearLayout._new({in_dim: tuple((1 << k,) for k in range(_log2(size)))}, ((out_dim, size),))


def zeros1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    """Triton's ``zeros1D``: every ``in_dim`` value maps to 0 (a broadcast)."""
    return LinearLayout._new({in_dim: tuple((0,) for _ in range(_log2(size)))}, ((out_dim, 1),))


def empty() -> LinearLayout:
    return LinearLayout._new({}, ())


def _supremum(x: list[str], y: list[str]) -> list[str]:
    """The merge of two orders keeping both (Triton's ``supremum``, biased to ``x``)."""
    out: list[str] = []
    j = 0
    for e in x:
        if e in y:
            k = y.index(e)
            if k < j:
                raise CutepyError(f"linear layout product: dims {x} and {y} are in different orders")
            for f in y[j:k]:
                if f not in out and f not in x:
                    out.append(f)
            j = k + 1
        out.append(e)
    for f in y[j:]:
        if f not in out:
            out.append(f)
    return out


def times(inner: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """Triton's ``inner * outer``: inputs and outputs side by side, ``outer`` more major."""
    ins = _supremum(list(inner._bases), list(outer._bases))
    outs = _supremum([n for n, _ in inner._out], [n for n, _ in outer._out])
    isz, osz = dict(inner._out), dict(outer._out)
    bases = {}
    for d in ins:
        row = []
        for b in inner._bases.get(d, ()):
            m = dict(zip(isz, b))
            row.append(tuple(m.get(o, 0) for o in outs))
        for b in outer._bases.get(d, ()):
            m = dict(zip(osz, b))
            row.append(tuple(m.get(o, 0) * isz.get(o, 1) for o in outs))
        bases[d] = tuple(row)
    return LinearLayout._new(bases, tuple((o, isz.get(o, 1) * osz.get(o, 1)) for o in outs))


def transpose_outs(L: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same layout with its outputs reordered as ``names`` (all of them)."""
    pos = {n: j for j, (n, _) in enumerate(L._out)}
    if sorted(pos) != sorted(names):
        raise CutepyError(f"transpose_outs: {list(names)} is not a reordering of {list(pos)}")
    perm = [pos[n] for n in names]
    bases = {k: tuple(tuple(b[j] for j in perm) for b in v) for k, v in L._bases.items()}
    return LinearLayout._new(bases, tuple(L._out[j] for j in perm))


def transpose_ins(L: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same layout with its inputs reordered as ``names`` (all of them)."""
    if sorted(L._bases) != sorted(names):
        raise CutepyError(f"transpose_ins: {list(names)} is not a reordering of {list(L._bases)}")
    return LinearLayout._new({n: L._bases[n] for n in names}, L._out)


def inferred(bases: Mapping[str, Sequence[Sequence[int]]], out_names: Sequence[str]) -> LinearLayout:
    """Triton's ``LinearLayout(bases, outDimNames)``: each out size the next power of two
    above its largest basis value (at least 1)."""
    sizes = [1] * len(out_names)
    for bs in bases.values():
        for b in bs:
            for j, v in enumerate(b):
                sizes[j] = max(sizes[j], 1 << v.bit_length())
    return LinearLayout(bases, list(zip(out_names, sizes)))


def with_in_dims(L: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """``L`` with exactly the input dims ``names`` in that order (missing ones of size 1)."""
    extra = [d for d in L._bases if d not in names and L._bases[d]]
    if extra:
        raise CutepyError(f"linear layout has input dims {extra} outside {list(names)}")
    return LinearLayout._new({n: L._bases.get(n, ()) for n in names}, L._out)
