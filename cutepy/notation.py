"""Reading CuTe notation: layouts, by-mode tilers and composed layouts.

>>> parse("((2,2),3):((24,2),8)")
((2,2),3):((24,2),8)
>>> parse("(_2, _4):(_1, _2)")
(2,4):(1,2)
>>> parse("<3:4, 8:2>")
(3:4, 8:2)
>>> parse("Sw<3,4,3> o 0 o (8,8):(8,1)")
Sw<3,4,3> o 0 o (8,8):(8,1)
>>> parse("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
>>> parse("(4,8):(1@0,1@1)")(5)
(1,1)
>>> parse("(2,3")
Traceback (most recent call last):
...
cutepy.ParseError: expected ',' or ')' at column 5
  (2,3
      ^
"""

from __future__ import annotations

import re
from typing import Any

from .algebra.composed import ComposedLayout
from .core.basis import ScaledBasis
from .core.dynamic import DynamicInt
from .core.errors import CutepyError, ParseError
from .core.inttuple import MAX_DEPTH
from .core.layout import Layout, is_static  # noqa: F401  (is_static: the doctest)
from .core.swizzle import SmemPtrFlag, Swizzle

# ASCII digits only: "\d" would also take Arabic-Indic and other unicode digits
_TOKEN = re.compile(
    r"\s*(?:(?P<flag>smem_ptr\[[0-9]{1,4}b\]\(unset\))|(?P<int>_?-?_?[0-9]+(?:@[0-9]+)*)|(?P<sw>Sw<)|(?P<o>o)(?![A-Za-z0-9_])|(?P<p>[(),:<>]))"
)
#: The longest integer literal (in digits) the parser reads: Python's own default bound.
MAX_DIGITS = 4300


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    toks = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character {text[pos]!r}", text, pos)
        kind = m.lastgroup
        start = m.start(kind)
        toks.append((kind, m.group(kind), start))
        pos = m.end()
    toks.append(("end", "", n))
    return toks


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        # C++'s exact print (some integers written _N): the bare ones are C++'s run-time ints
        self.mixed = any(k == "int" and v.startswith("_") for k, v, _ in self.toks)

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def next(self) -> tuple[str, str, int]:
        t = self.toks[self.i]
        self.i += 1
        return t

    def error(self, msg: str, tok: tuple[str, str, int] | None = None) -> ParseError:
        tok = tok or self.peek()
        return ParseError(msg, self.text, tok[2])

    def expect(self, value: str) -> None:
        t = self.next()
        if t[1] != value:
            raise self.error(f"expected {value!r}", t)

    def integer(self, text: str, col: int) -> int:
        digits = text.lstrip("-")
        if len(digits) > MAX_DIGITS:
            msg = f"an integer of {len(digits)} digits (the limit is {MAX_DIGITS})"
            raise ParseError(msg, self.text, col)
        return int(text)

    def kind(self, tok: tuple[str, str, int], v: int) -> Any:
        """``v`` static, or dynamic where the text is C++'s print and ``tok`` has no ``_``."""
        return DynamicInt(v) if self.mixed and not tok[1].startswith("_") else v

    def int_leaf(self, tok: tuple[str, str, int]) -> Any:
        parts = tok[1].replace("_", "").split("@")
        v = self.kind(tok, self.integer(parts[0], tok[2]))
        if len(parts) == 1:
            return v
        col = tok[2] + len(tok[1]) - len(tok[1].split("@", 1)[1]) - 1
        modes = tuple(self.integer(p, col) for p in reversed(parts[1:]))
        try:  # ScaledBasis bounds the mode indices and the path length
            return ScaledBasis(v, modes)
        except CutepyError as e:
            raise ParseError(str(e), self.text, col) from None

    def plain_int(self, tok: tuple[str, str, int], what: str) -> int:
        if tok[0] != "int" or "@" in tok[1]:
            raise self.error(f"expected an integer {what}", tok)
        return self.integer(tok[1].replace("_", ""), tok[2])

    def tuple_expr(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.error(f"nesting deeper than {MAX_DEPTH} levels")
        t = self.next()
        if t[0] == "int":
            return self.int_leaf(t)
        if t[1] != "(":
            raise self.error("expected an integer or '('", t)
        items: list = []
        if self.peek()[1] == ")":
            self.next()
            return ()
        while True:
            items.append(self.tuple_expr(depth + 1))
            t = self.next()
            if t[1] == ")":
                return tuple(items)
            if t[1] != ",":
                raise self.error("expected ',' or ')'", t)

    def layout(self) -> Layout:
        start = self.peek()
        shape = self.tuple_expr(0)
        stride = None
        if self.peek()[1] == ":":
            self.next()
            stride = self.tuple_expr(0)
        try:
            return Layout(shape, stride)
        except CutepyError as e:
            raise ParseError(str(e), self.text, start[2]) from None

    def tiler(self, depth: int) -> tuple:
        if depth > MAX_DEPTH:
            raise self.error(f"nesting deeper than {MAX_DEPTH} levels")
        self.expect("<")
        items: list = []
        while True:
            if self.peek()[1] == "<":
                items.append(self.tiler(depth + 1))
            else:
                items.append(self.layout())
            t = self.next()
            if t[1] == ">":
                return tuple(items)
            if t[1] != ",":
                raise self.error("expected ',' or '>'", t)

    def swizzle(self) -> Any:
        t = self.next()
        vals = []
        for k in range(3):
            vals.append(self.plain_int(self.next(), "in Sw<B,M,S>"))
            if k < 2:
                self.expect(",")
        self.expect(">")
        try:
            return Swizzle(*vals)
        except CutepyError as e:
            raise ParseError(str(e), self.text, t[2]) from None

    def term(self) -> Any:
        t = self.peek()
        if t[0] == "sw":
            return self.swizzle()
        if t[1] == "<":
            return self.tiler(0)
        return self.layout()

    def top(self) -> Any:
        result = self.chain()
        if self.peek()[0] != "end":
            raise self.error("unexpected text after the expression")
        return result

    def chain(self) -> Any:
        """``term (o [offset o] term)*``, grouped to the right as C++ prints nested composed
        layouts; ``outer o inner`` (no offset) means offset 0."""
        toks, terms, offsets = [self.peek()], [self.term()], []
        while self.peek()[0] == "o":
            if len(offsets) >= MAX_DEPTH:
                raise self.error(f"composed layouts nest deeper than {MAX_DEPTH}")
            self.next()
            if self.peek()[0] == "flag":  # C++'s smem_ptr_flag_bits<b>: the swizzle acts on byte addresses
                off = self.next()
                try:
                    offsets.append((SmemPtrFlag(int(off[1][len("smem_ptr["):off[1].index("b]")])), off[2]))
                except CutepyError as e:
                    raise ParseError(str(e), self.text, off[2]) from None
                o = self.next()
                if o[0] != "o":
                    raise self.error("expected 'o' and the inner layout", o)
            elif self.peek()[0] == "int" and self.toks[self.i + 1][0] == "o":
                col = self.peek()[2]
                where = "in the middle of 'outer o offset o inner'"
                off = self.next()
                offsets.append((self.kind(off, self.plain_int(off, where)), col))
                self.next()
            else:
                offsets.append((0, self.peek()[2]))
            toks.append(self.peek())
            terms.append(self.term())
        for tok, term in zip(toks, terms):
            if len(terms) > 1 and isinstance(term, tuple):
                raise self.error("a tiler cannot be part of a composed layout", tok)
        result = terms[-1]
        for outer, (offset, col) in zip(reversed(terms[:-1]), reversed(offsets)):
            try:
                result = ComposedLayout(outer, offset, result)
            except CutepyError as e:  # an offset beyond 64 bits, as a stride would be
                raise ParseError(str(e), self.text, col) from None
        return result


def parse(text: str) -> Any:
    """Read a layout, a by-mode tiler ``<...>`` (a tuple of layouts) or a composed layout.

    Pre:  ``text`` is a ``str`` (else ``CutepyError``) in CuTe's print notation
          (``shape:stride``, ``<L0, L1>``, ``Sw<B,M,S> o offset o L``, or ``Sw<B,M,S> o L``
          for offset 0, the offset possibly C++'s pointer flag ``smem_ptr[16b](unset)``); else
          ``ParseError`` naming the column.
    Post: ``str(parse(text))`` is ``text`` in canonical spacing (the offset written out),
          and ``parse(str(x)) == x``; for C++'s print, ``format(parse(text), "cxx")`` is ``text``.

    >>> parse("(2,(2,2)):(4,(2,1))"), parse("<3:4, 8:2>")
    ((2,(2,2)):(4,(2,1)), (3:4, 8:2))
    >>> parse("Sw<3,4,3> o 0 o (8,8):(8,1)")
    Sw<3,4,3> o 0 o (8,8):(8,1)
    >>> parse("Sw<3,0,3> o (8,8):(8,1)") == parse("Sw<3,0,3> o 0 o (8,8):(8,1)")
    True

    C++'s exact print, where some integers are written ``_N``: the bare ones are run-time
    integers (:func:`cutepy.dynamic`), so ``format(parse(t), "cxx") == t``.

    >>> L = parse("((_2,_2),_4):((5120,_8),_32)")
    >>> format(L, "cxx"), is_static(L)
    ('((_2,_2),_4):((5120,_8),_32)', False)
    """
    if not isinstance(text, str):
        raise CutepyError(f"parse expects text, got {type(text).__name__}")
    return _Parser(text).top()


def parse_layout(text: str) -> Layout:
    """Read exactly one layout."""
    result = parse(text)
    if type(result) is not Layout:
        raise ParseError("expected a single layout", text, 0)
    return result

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "parse",
]
