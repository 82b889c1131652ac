"""The one error family of cutepy.

Every error cutepy raises on purpose derives from :class:`CutepyError`, itself a
:class:`ValueError`, so ``except ValueError`` keeps working for callers that do not
know cutepy.

>>> issubclass(ParseError, CutepyError) and issubclass(CutepyError, ValueError)
True
"""

from __future__ import annotations


class CutepyError(ValueError):
    """Base class of every error cutepy raises (a ``ValueError``).

    >>> from cutepy.notation import parse
    >>> try:
    ...     parse("(2,3")
    ... except CutepyError as e:
    ...     print(type(e).__name__, isinstance(e, ValueError))
    ParseError True
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.CutepyError


class ParseError(CutepyError):
    """Text that does not follow a grammar; the message quotes it and points at the column.

    >>> from cutepy.notation import parse
    >>> try:
    ...     parse("(2,3")
    ... except ParseError as e:
    ...     print(e.text, e.pos)
    (2,3 4
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.ParseError

    def __init__(self, message: str, text: str | None = None, pos: int | None = None):
        self.text = text
        self.pos = pos
        if text is not None and pos is not None:
            message = f"{message} at column {pos + 1}\n  {text}\n  {' ' * pos}^"
        elif text is not None:
            message = f"{message}: {text!r}"
        super().__init__(message)


class LayoutError(CutepyError):
    """A layout that cannot exist: non-congruent shape and stride, a size below 1, ...

    >>> from cutepy.core.layout import Layout
    >>> Layout((2, 3), (1,))
    Traceback (most recent call last):
    ...
    cutepy.LayoutError: shape (2,3) and stride (1) are not congruent (they must nest the same way)
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.LayoutError


class AdmissibilityError(CutepyError):
    """An algebra operation whose inputs break one of its divisibility conditions.

    >>> from cutepy.algebra.complement import complement
    >>> from cutepy.core.layout import Layout
    >>> try:
    ...     complement(Layout((2, 2), (1, 1)))
    ... except AdmissibilityError as e:
    ...     print(str(e).split(":")[0])
    complement of (2,2)
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.AdmissibilityError


class SymbolicError(CutepyError):
    """A symbolic computation that needs a fact that does not follow from the declared ones.

    >>> from cutepy.symbolic import symbols
    >>> N = symbols("N")
    >>> try:
    ...     bool(N > 4)
    ... except SymbolicError as e:
    ...     print(type(e).__name__, e.fact)
    Undecided N > 4 (or its negation)
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.SymbolicError


class Undecided(SymbolicError):
    """A comparison whose answer depends on the values of the symbols.

    ``fact`` names a fact that would decide it (``"N % 128 == 0"``); ``expr`` and
    ``rel`` are the sympy expression and the relation to 0 that was asked;
    ``holds_at``/``fails_at`` are assignments that make it true / false, when found.

    >>> from cutepy.symbolic import symbols
    >>> N = symbols("N")
    >>> try:
    ...     bool(N > 4)
    ... except Undecided as e:
    ...     print(e.fact, e.holds_at, e.fails_at)
    N > 4 (or its negation) {N: 5} {N: 1}
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.Undecided

    def __init__(self, message: str, fact: str = "", expr: object = None, rel: str = "",
                 holds_at: dict | None = None, fails_at: dict | None = None,
                 sides: tuple | None = None):
        super().__init__(message)
        self.fact = fact
        self.expr = expr
        self.rel = rel
        self.holds_at = holds_at
        self.fails_at = fails_at
        self.sides = sides  # (lhs, rhs) of the comparison, when it was one


class ProgramError(CutepyError):
    """A step of an array program that numpy would refuse (or that cutepy cannot model).

    >>> from cutepy.program import reshape, trace
    >>> reshape(trace((2, 3)), (4, 2))
    Traceback (most recent call last):
    ...
    cutepy.ProgramError: reshape(4, 2) of x (2, 3) array: it has 6 elements, (4, 2) has 8
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.ProgramError


class SimulationError(CutepyError):
    """A kernel design run on data (``cutepy.copy``, ``cutepy.gemm``) that went wrong: a thread
    reads or writes outside its tensor, two values land on one element, or a simulated tile
    differs from its reference. The message names the thread and the value.

    >>> issubclass(SimulationError, CutepyError)
    True
    """

    __module__ = "cutepy"  # tracebacks name the public path, cutepy.SimulationError


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "AdmissibilityError", "CutepyError", "LayoutError", "ParseError", "ProgramError", "SimulationError",
    "SymbolicError", "Undecided",
]
