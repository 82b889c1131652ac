"""Linear algebra over F2 on bit vectors held in Python ints.

A vector of ``n`` bits is an ``int`` below ``2**n`` (bit ``k`` is coordinate ``k``). A
matrix is a list of its rows (ints). Row reduction puts each pivot at the lowest set bit
of its row, rows in increasing pivot order, every pivot column clear in the other rows:
the reduced row echelon form, which is unique, so any two correct reductions agree.

>>> rref([0b110, 0b011, 0b101])
[5, 6]
>>> f2_rank([0b110, 0b011, 0b101])
2
>>> solve([1, 2, 3], 0b11)         # x with 1*x0 ^ 2*x1 ^ 3*x2 == 3: one solution, free x2 = 0
3
"""

from __future__ import annotations

from collections.abc import Sequence


def rref(rows: Sequence[int]) -> list[int]:
    """The nonzero rows of the reduced row echelon form of ``rows`` (pivot = lowest set bit).

    Pre: ``rows`` are non-negative ints.
    Post: the rows span the same space, pivots strictly increase, each pivot bit is set in
    its row only.

    >>> rref([0b10, 0b11])
    [1, 2]
    """
    basis: list[int] = []
    for r in rows:
        for b in basis:
            if r & (b & -b):
                r ^= b
        if r:
            low = r & -r
            basis = [b ^ r if b & low else b for b in basis]
            basis.append(r)
    basis.sort(key=lambda b: b & -b)
    return basis


def f2_rank(vectors: Sequence[int]) -> int:
    """The dimension of the space ``vectors`` span.

    Pre: non-negative ints. Post: ``0 <= rank <= len(vectors)``.

    >>> f2_rank([1, 2, 3])
    2
    """
    return len(rref(vectors))


def solve(columns: Sequence[int], target: int) -> int | None:
    """``x`` (bit ``k`` selects ``columns[k]``) with ``XOR(columns[k] for set bits k) == target``.

    Pre: non-negative ints. Post: ``None`` when ``target`` is outside the span; otherwise the
    solution whose free variables (columns spanned by earlier ones) are 0.

    >>> solve([1, 1, 2], 3), solve([1, 2], 4) is None
    (5, True)
    """
    n = len(columns)
    # augment each column with its own index bit above the value bits so that the
    # reduction records which columns combine into each basis vector
    width = max([c.bit_length() for c in columns] + [target.bit_length(), 0])
    pivots: dict[int, int] = {}  # value pivot bit -> augmented row
    for k, c in enumerate(columns):
        r = c | (1 << (width + k))
        for bit, row in pivots.items():
            if r >> bit & 1:
                r ^= row
        value = r & ((1 << width) - 1)
        if value:
            low = (value & -value).bit_length() - 1
            for bit in list(pivots):
                if pivots[bit] >> low & 1:
                    pivots[bit] ^= r
            pivots[low] = r
    x = 0
    rest = target
    for bit, row in pivots.items():
        if rest >> bit & 1:
            rest ^= row & ((1 << width) - 1)
            x ^= row >> width
    if rest:
        return None
    return x & ((1 << n) - 1)


def inverse_columns(columns: Sequence[int], nbits: int) -> list[int] | None:
    """For an invertible map with ``columns`` (``nbits`` of them, ``nbits``-bit values), the
    inverse's columns; ``None`` when the map is not invertible.

    Pre: ``len(columns) == nbits``. Post: ``solve``-consistent: ``f(inv(e_k)) == e_k``.

    >>> inverse_columns([1, 3], 2)
    [1, 3]
    """
    out = []
    for k in range(nbits):
        x = solve(columns, 1 << k)
        if x is None:
            return None
        out.append(x)
    return out if f2_rank(columns) == nbits else None
