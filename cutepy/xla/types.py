"""XLA element types (``PrimitiveType``) and their storage widths.

Names are XLA's lowercase spellings; :func:`element_type` also accepts the
uppercase forms the docs write (``F32``). ``bits`` is the width XLA stores one
element in when the layout does not say otherwise (``E(0)``): ``pred`` takes a
whole byte, a sub-byte type such as ``s4`` has ``bits == 4`` but, unpacked, still
occupies ``byte_width == 1`` byte.

>>> element_type("F32")
ElementType(name='f32', bits=32, kind='float')
>>> element_type("pred").byte_width, element_type("s4").bits, element_type("s4").byte_width
(1, 4, 1)
>>> element_type("f33")
Traceback (most recent call last):
  ...
cutepy.CutepyError: unknown XLA element type 'f33'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import CutepyError


@dataclass(frozen=True)
class ElementType:
    """One XLA primitive type: its lowercase name, storage bits, and kind.

    ``kind`` is one of ``pred``, ``signed``, ``unsigned``, ``float``, ``complex``,
    ``token``, ``opaque``.

    >>> element_type("bf16")
    ElementType(name='bf16', bits=16, kind='float')
    """

    name: str
    bits: int
    kind: str

    @property
    def byte_width(self) -> int:
        """Bytes one unpacked element takes (XLA ``ByteSizeOfPrimitiveType``).

        >>> element_type("c128").byte_width, element_type("u2").byte_width
        (16, 1)
        """
        return -(-self.bits // 8)

    @property
    def is_array_type(self) -> bool:
        """False for ``token`` and ``opaque``, which hold no array data."""
        return self.kind not in ("token", "opaque")

    @property
    def is_integral(self) -> bool:
        """True for the signed and unsigned integer types."""
        return self.kind in ("signed", "unsigned")

    def __str__(self) -> str:
        return self.name


def _table() -> dict[str, ElementType]:
    rows: list[tuple[str, int, str]] = [("pred", 8, "pred")]
    for b in (1, 2, 4, 8, 16, 32, 64):
        rows.append((f"s{b}", b, "signed"))
        rows.append((f"u{b}", b, "unsigned"))
    rows += [
        ("f16", 16, "float"),
        ("bf16", 16, "float"),
        ("f32", 32, "float"),
        ("f64", 64, "float"),
        ("f8e5m2", 8, "float"),
        ("f8e4m3", 8, "float"),
        ("f8e4m3fn", 8, "float"),
        ("f8e4m3b11fnuz", 8, "float"),
        ("f8e5m2fnuz", 8, "float"),
        ("f8e4m3fnuz", 8, "float"),
        ("f8e3m4", 8, "float"),
        ("f8e8m0fnu", 8, "float"),
        ("f4e2m1fn", 4, "float"),
        ("c64", 64, "complex"),
        ("c128", 128, "complex"),
        ("token", 0, "token"),
        ("opaque", 0, "opaque"),
    ]
    return {name: ElementType(name, bits, kind) for name, bits, kind in rows}


#: Every element type cutepy knows, by lowercase name.
ELEMENT_TYPES: dict[str, ElementType] = _table()


def element_type(name: str | ElementType) -> ElementType:
    """Look up an element type by name, case-insensitively.

    Pre:  ``name`` is an XLA primitive type name or an ``ElementType`` (else ``CutepyError``).
    Post: the ``ElementType`` whose ``name`` is ``name.lower()``.

    >>> element_type("BF16").bits
    16
    """
    if isinstance(name, ElementType):
        return name
    et = ELEMENT_TYPES.get(name.lower()) if isinstance(name, str) else None
    if et is None:
        raise CutepyError(f"unknown XLA element type {name!r}")
    return et
