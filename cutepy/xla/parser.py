"""Parser for XLA shape strings (``f32[3,5]{1,0:T(2,2)}``, tuples, ``b(...)``).

Grammar (SPEC section 2)::

    shape  ::= type '[' dims? ']' layout? | '(' shape (',' shape)* ')' | 'b(' shape ')'
    dim    ::= int | '<=' int | '?' | name | '<=' name
    layout ::= '{' minor_to_major? (':' D? T? L? #? *? E? S? SC? P? M?)? '}'

Whitespace between tokens is ignored, type names may be uppercase, an array with
no layout gets XLA's default one (so it prints back with ``{n-1,...,0}``), and
``D(...)`` is checked and dropped. Like XLA, ``P(...)`` is refused: it is only
allowed on sparse arrays, which need the ``D(...)`` cutepy drops. Every error is a
:class:`~cutepy.ParseError` that quotes the text and points at the column.

A dim may also be the name of a symbol declared with :func:`cutepy.symbols`
(``f32[M,N]{1,0:T(8,128)}``): that dim is then the symbol, which the facts must prove
positive; an undeclared name is an error that says to declare it.

>>> str(parse_shape("F32[3, 5]{1,0: T(2,2)}"))
'f32[3,5]{1,0:T(2,2)}'
>>> str(parse_shape("(f32[2], b(s8[4]{0:S(1)}))"))
'(f32[2]{0}, b(s8[4]{0:S(1)}))'
>>> parse_shape("f32[3]{0:T(8,*)}")
Traceback (most recent call last):
  ...
cutepy.ParseError: '*' cannot be the most minor tile dimension at column 14
  f32[3]{0:T(8,*)}
               ^
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..core.errors import CutepyError, LayoutError, ParseError, SymbolicError
from ..core.lazy import load
from ..core.symbolic.facts import named
from .shape import (
    COMBINE_DIM,
    INT64_MAX,
    UNBOUNDED_DIM,
    ArrayShape,
    BufferShape,
    Shape,
    SplitConfig,
    Tile,
    TupleShape,
    XlaLayout,
)
from .types import ELEMENT_TYPES

#: symbols (they load sympy), on first use
_sym = load("cutepy.core.symbolic.sym")

#: Deepest nesting of tuples, buffers and ``P(...)`` the parser accepts.
MAX_NESTING = 100

#: Layout attributes, in the only order XLA accepts them.
ATTRIBUTE_ORDER = ("D", "T", "L", "#", "*", "E", "S", "SC", "P", "M")

_DIM_LEVEL_TYPES = ("D", "C", "S", "H")

T = TypeVar("T")


class _Parser:
    """Recursive-descent parser over the characters of one shape string."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    # -- scanning -----------------------------------------------------------
    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(message, self.text, self.pos if pos is None else pos)

    def skip_ws(self) -> int:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos].isspace():
            self.pos += 1
        return self.pos

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def eat(self, token: str) -> bool:
        self.skip_ws()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def expect(self, token: str, context: str) -> None:
        if not self.eat(token):
            found = self.peek()
            got = f"found {found!r}" if found else "found the end of the text"
            raise self.error(f"expected {token!r} {context}, {got}")

    def ident(self, what: str) -> str:
        start = self.skip_ws()
        text, n = self.text, len(self.text)
        if start < n and (text[start].isalpha() or text[start] == "_"):
            end = start + 1
            while end < n and (text[end].isalnum() or text[end] == "_"):
                end += 1
            self.pos = end
            return text[start:end]
        raise self.error(f"expected {what}")

    def integer(self, what: str, low: int = 0) -> int:
        start = self.skip_ws()
        text, n = self.text, len(self.text)
        end = start + (1 if start < n and text[start] == "-" else 0)
        digits = end
        while end < n and "0" <= text[end] <= "9":  # ASCII digits only, as XLA reads them
            end += 1
        if end == digits:
            raise self.error(f"expected an integer ({what})")
        if end - digits > 19:  # past int64 whatever the digits: say so without converting
            raise self.error(f"{what} must be an integer >= {low}, got a {end - digits}-digit number "
                             "(XLA's integers are 64-bit)", start)
        value = int(text[start:end])
        if value < low or value > INT64_MAX:
            raise self.error(f"{what} must be an integer >= {low}, got {value}", start)
        self.pos = end
        return value

    def dim(self, what: str) -> Any:
        """A dimension size: an integer, or the name of a declared symbol (a ``Sym``)."""
        start = self.skip_ws()
        if start < len(self.text) and (self.text[start].isalpha() or self.text[start] == "_"):
            return self.symbol(self.ident(what), start)
        return self.integer(what)

    def symbol(self, name: str, pos: int) -> Any:
        """The symbol declared (with :func:`cutepy.symbols`) under ``name``."""
        found = named(name)
        if found is None:
            raise self.error(f"dimension {name!r} is not a declared symbol (declare it first: "
                             f"{name} = cutepy.symbols({name!r}, multiple_of=...))", pos)
        try:  # a size must be positive for every value the facts allow
            dim = _sym.Sym._from_symbol(found)
            if not dim >= 1:
                raise LayoutError(f"dimension {name!r} is never positive")
            return dim
        except (LayoutError, SymbolicError) as e:
            raise self.error(str(e), pos) from None

    def build(self, make: Callable[[], T], pos: int) -> T:
        """Run a constructor, reporting its LayoutError (or SymbolicError, for a symbolic
        dim the facts do not prove positive) as a ParseError at ``pos``."""
        try:
            return make()
        except (LayoutError, SymbolicError) as e:
            raise self.error(str(e), pos) from None

    # -- shapes -------------------------------------------------------------
    def shape(self) -> Shape:
        start = self.skip_ws()
        if self.depth >= MAX_NESTING:
            raise self.error(f"shape nested deeper than {MAX_NESTING} levels")
        self.depth += 1
        try:
            if self.eat("("):
                return self.tuple_rest()
            name = self.ident("a shape (an element type, '(' or 'b(')")
            if name == "b" and self.peek() == "(":
                self.eat("(")
                inner_pos = self.skip_ws()
                inner = self.shape()
                if not isinstance(inner, ArrayShape) or not inner.type.is_array_type:
                    raise self.error("a buffer shape b(...) must hold an array shape", inner_pos)
                self.expect(")", "to close the buffer shape")
                return BufferShape(inner)
            return self.array(name, start)
        finally:
            self.depth -= 1

    def tuple_rest(self) -> TupleShape:
        elements: list[Shape] = []
        if not self.eat(")"):
            elements.append(self.shape())
            while self.eat(","):
                elements.append(self.shape())
            self.expect(")", "to close the tuple")
        return TupleShape(tuple(elements))

    def array(self, name: str, start: int) -> ArrayShape:
        et = ELEMENT_TYPES.get(name.lower())
        if et is None:
            raise self.error(f"unknown element type {name!r}", start)
        self.expect("[", "after the element type")
        dims: list[Any] = []
        dynamic: list[bool] = []
        if self.peek() != "]":
            while True:
                if self.eat("<="):
                    dims.append(self.dim("dimension bound"))
                    dynamic.append(True)
                elif self.eat("?"):
                    dims.append(UNBOUNDED_DIM)
                    dynamic.append(True)
                else:
                    dims.append(self.dim("dimension size"))
                    dynamic.append(False)
                if not self.eat(","):
                    break
        self.expect("]", "to close the dimensions")
        layout = None
        layout_pos = self.skip_ws()
        if self.peek() == "{":
            if not et.is_array_type:
                raise self.error(f"{et.name} takes no layout")
            layout, m2m_pos = self.layout()
            layout_pos = m2m_pos
        elif et.is_array_type:
            layout = XlaLayout.default(len(dims))
        if not et.is_array_type and dims:
            raise self.error(f"{et.name} takes no dimensions", start)
        return self.build(lambda: ArrayShape(et.name, tuple(dims), tuple(dynamic), layout), layout_pos)

    # -- layouts ------------------------------------------------------------
    def layout(self) -> tuple[XlaLayout, int]:
        self.expect("{", "to open the layout")
        m2m_pos = self.skip_ws()
        m2m: list[int] = []
        if self.peek() not in (":", "}"):
            m2m.append(self.integer("minor_to_major entry"))
            while self.eat(","):
                m2m.append(self.integer("minor_to_major entry"))
        if len(set(m2m)) != len(m2m):
            raise self.error(f"minor_to_major {tuple(m2m)} repeats a dimension", m2m_pos)
        fields: dict[str, object] = {}
        if self.eat(":"):
            last = -1
            while self.peek() not in ("}", ""):
                key_pos = self.skip_ws()
                key = self.peek() if self.peek() in "#*" else self.ident("a layout attribute")
                if key in "#*":
                    self.pos += 1
                if key not in ATTRIBUTE_ORDER:
                    raise self.error(f"unknown layout attribute {key!r}", key_pos)
                index = ATTRIBUTE_ORDER.index(key)
                if index <= last:
                    order = " ".join(ATTRIBUTE_ORDER)
                    raise self.error(
                        f"layout attribute {key!r} out of order or repeated (order: {order})",
                        key_pos,
                    )
                last = index
                self.attribute(key, key_pos, fields)
        self.expect("}", "to close the layout")
        lay = self.build(lambda: XlaLayout(tuple(m2m), **fields), m2m_pos)  # type: ignore[arg-type]
        return lay, m2m_pos

    def attribute(self, key: str, key_pos: int, fields: dict[str, object]) -> None:
        if key == "D":
            self.dim_level_types()
        elif key == "T":
            fields["tiles"] = self.tiles()
        elif key in ("#", "*"):
            self.expect("(", f"after {key!r}")
            type_pos = self.skip_ws()
            name = self.ident("an element type")
            et = ELEMENT_TYPES.get(name.lower())
            if et is None or not et.is_integral:
                raise self.error(f"{key}(...) needs an integer element type, got {name!r}", type_pos)
            self.expect(")", f"to close {key}(...)")
            fields["index_primitive_type" if key == "#" else "pointer_primitive_type"] = et.name
        elif key == "SC":
            fields["split_configs"] = self.split_configs()
        elif key == "P":
            self.expect("(", "after 'P'")
            self.shape()
            self.expect(")", "to close P(...)")
            raise self.error(
                "layout has a physical shape P(...), which XLA only allows on sparse arrays (not supported)",
                key_pos,
            )
        else:
            names = {
                "L": ("tail_padding_alignment_in_elements", 1),
                "E": ("element_size_in_bits", 0),
                "S": ("memory_space", 0),
                "M": ("dynamic_shape_metadata_prefix_bytes", 0),
            }
            name, low = names[key]
            self.expect("(", f"after {key!r}")
            fields[name] = self.integer(f"{key}(...) value", low)
            self.expect(")", f"to close {key}(...)")

    def tiles(self) -> tuple[Tile, ...]:
        tiles: list[Tile] = []
        while True:
            self.expect("(", "to open a tile")
            dims: list[int] = []
            if self.peek() == ")":  # XLA parses T() but then rejects it: "layout has invalid tiles"
                raise self.error("a tile needs at least one dimension (XLA: layout has invalid tiles)")
            if True:
                while True:
                    dim_pos = self.skip_ws()
                    if self.eat("*"):
                        dims.append(COMBINE_DIM)
                    else:
                        dims.append(self.integer("tile dimension", 1))
                    if not self.eat(","):
                        break
                if dims[-1] == COMBINE_DIM:
                    raise self.error("'*' cannot be the most minor tile dimension", dim_pos)
            self.expect(")", "to close the tile")
            tiles.append(Tile(tuple(dims)))
            if self.peek() != "(":
                return tuple(tiles)

    def split_configs(self) -> tuple[SplitConfig, ...]:
        configs: list[SplitConfig] = []
        while True:
            self.expect("(", "to open a split config")
            dim = self.integer("split dimension")
            self.expect(":", "after the split dimension")
            indices = [self.integer("split index")]
            while self.eat(","):
                indices.append(self.integer("split index"))
            self.expect(")", "to close the split config")
            configs.append(SplitConfig(dim, tuple(indices)))
            if self.peek() != "(":
                return tuple(configs)

    def dim_level_types(self) -> None:
        self.expect("(", "after 'D'")
        if self.peek() != ")":
            while True:
                pos = self.skip_ws()
                name = self.peek()
                if name not in _DIM_LEVEL_TYPES or self.text[pos + 1 : pos + 2].isalnum():
                    raise self.error("expected a dim level type (D, C, S or H)", pos)
                self.pos += 1
                self.eat("+")
                self.eat("~")
                if not self.eat(","):
                    break
        self.expect(")", "to close D(...)")


def parse_shape(text: str) -> Shape:
    """Parse an XLA shape string into an :class:`ArrayShape`, :class:`TupleShape`
    or :class:`BufferShape`.

    Pre:  ``text`` is XLA's shape syntax (else ``ParseError`` pointing at the column).
    Post: the parsed shape; ``str(result)`` is its canonical text (annotations that do not
          change the layout, such as ``S(0)`` and ``D(...)``, are dropped).

    >>> s = parse_shape("f32[4,<=4]{1,0:D(D,C)}")
    >>> s.dims, s.dynamic, str(s)
    ((4, 4), (False, True), 'f32[4,<=4]{1,0}')
    >>> str(parse_shape("f32[4096]{0:S(0)}"))
    'f32[4096]{0}'
    """
    if not isinstance(text, str):
        raise CutepyError(f"parse_shape expects a string, got {type(text).__name__}")
    p = _Parser(text)
    shape = p.shape()
    if p.skip_ws() != len(text):
        raise p.error("unexpected text after the shape")
    return shape


def as_array_shape(shape: Shape | str) -> ArrayShape:
    """An :class:`ArrayShape` from a shape, a buffer shape or shape text.

    Pre:  ``shape`` is an array shape, a buffer shape ``b(...)`` of one, or its text (else
          ``ParseError``, or ``CutepyError`` for a tuple shape).
    Post: an ``ArrayShape`` with the same element type, dims and layout.

    >>> str(as_array_shape("b(f32[2,3])"))
    'f32[2,3]{1,0}'
    """
    if isinstance(shape, str):
        shape = parse_shape(shape)
    if isinstance(shape, BufferShape):
        shape = shape.array
    if not isinstance(shape, ArrayShape):
        raise CutepyError(f"expected an array shape, got {shape}")
    if not shape.type.is_array_type:
        raise CutepyError(f"{shape} holds no array data")
    return shape
