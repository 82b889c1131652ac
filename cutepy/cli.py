"""The ``cutepy`` command.

``cutepy``                         a short tour on built-in examples
``cutepy show LAYOUT``             the layout, its print_layout table (elided when big), its sizes
``cutepy op NAME ARG...``          apply an algebra operation by name (``cutepy op --help`` lists them)
``cutepy xla SHAPE``               an XLA shape: a table for people, ``--brief`` one line for scripts
``cutepy banks LAYOUT --tv TV --bytes E``   shared-memory bank conflicts of a thread-value access
                                   (``--svg FILE``: its wavefronts; ``--find-swizzle``: a swizzle)

Exit status: 0 done (or "yes"), 1 a "no" answer (``op equivalent`` of layouts that differ,
``op is_admissible`` of an inadmissible pair), 2 bad input, with one line on stderr.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import __version__, xla
from .algebra.casting import downcast, make_layout_like, upcast
from .algebra.coalesce import coalesce, filter
from .algebra.complement import complement
from .algebra.composed import ComposedLayout, composed_parts, is_layout
from .algebra.composition import composition, is_admissible
from .algebra.divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from .algebra.inverse import left_inverse, max_common_layout, max_common_vector, nullspace, right_inverse
from .algebra.products import (
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)
from .banks import analyze_layout, find_swizzle
from .core.errors import CutepyError, ParseError
from .core.layout import Layout, cosize, depth, flatten, rank, size
from .derivation import explain
from .equivalence import equivalent
from .notation import parse
from .viz import bank_view_svg, to_latex, write_svg
from .viz.text import layout_table
from .xla import ArrayShape, BufferShape, TupleShape, sizes, to_cute

_INT = re.compile(r"^\s*-?\d+\s*$")

#: The largest size C++ CuTe's signed 64-bit integers can index.
INT64_MAX = 2**63 - 1

#: Rows (and columns) of the table ``cutepy show`` prints before eliding the middle ones.
SHOW_LIMIT = 16

#: The most cells ``cutepy show --latex`` writes as TikZ nodes (one node per cell).
LATEX_LIMIT = 64 * 64


@dataclass(frozen=True)
class Operation:
    """An operation the CLI runs: the function, its argument kinds and one line of help.

    Kinds: ``LAYOUT`` (CuTe notation, swizzled layouts included), ``TILER`` (a layout, a
    by-mode tiler ``<...>``, or a shape such as ``(4,4)``, which is the tiler ``<4:1,4:1>``),
    ``SHAPE`` (an integer or an integer tuple), ``INT``; a trailing ``?`` is optional.
    """

    fn: Callable[..., Any]
    kinds: tuple[str, ...]
    doc: str


OPERATIONS: dict[str, Operation] = {
    "coalesce": Operation(coalesce, ("LAYOUT",), "the same function with the fewest modes"),
    "filter": Operation(filter, ("LAYOUT",), "coalesce, dropping stride-0 modes"),
    "composition": Operation(composition, ("LAYOUT", "TILER"), "R(c) = A(B(c)); by mode for a tiler"),
    "complement": Operation(complement, ("LAYOUT", "SHAPE?"), "the offsets A leaves out, up to a cotarget"),
    "right_inverse": Operation(right_inverse, ("LAYOUT",), "R with A(R(i)) = i"),
    "left_inverse": Operation(left_inverse, ("LAYOUT",), "C++'s quasi-inverse L: A(L(A(i))) = A(i)"),
    "nullspace": Operation(nullspace, ("LAYOUT",), "the indices A sends to offset 0"),
    "max_common_layout": Operation(max_common_layout, ("LAYOUT", "LAYOUT"),
                                   "the largest layout R with A(R) = B(R) contiguous"),
    "max_common_vector": Operation(max_common_vector, ("LAYOUT", "LAYOUT"),
                                   "how many elements A and B share contiguously"),
    "upcast": Operation(upcast, ("LAYOUT", "INT"), "the layout in units of N elements"),
    "downcast": Operation(downcast, ("LAYOUT", "INT"), "the layout in units of 1/N element"),
    "logical_divide": Operation(logical_divide, ("LAYOUT", "TILER"), "((tile), (rest)) of each mode"),
    "zipped_divide": Operation(zipped_divide, ("LAYOUT", "TILER"), "((tiles), (rests))"),
    "tiled_divide": Operation(tiled_divide, ("LAYOUT", "TILER"), "((tiles), rest0, rest1, ...)"),
    "flat_divide": Operation(flat_divide, ("LAYOUT", "TILER"), "(tile0, tile1, ..., rest0, rest1, ...)"),
    "logical_product": Operation(logical_product, ("LAYOUT", "TILER"), "(block, repeats of the block)"),
    "zipped_product": Operation(zipped_product, ("LAYOUT", "TILER"), "((blocks), (repeats))"),
    "tiled_product": Operation(tiled_product, ("LAYOUT", "TILER"), "((blocks), repeat0, repeat1, ...)"),
    "flat_product": Operation(flat_product, ("LAYOUT", "TILER"), "(block0, ..., repeat0, ...)"),
    "blocked_product": Operation(blocked_product, ("LAYOUT", "LAYOUT"), "B's copies of A, A's modes inner"),
    "raked_product": Operation(raked_product, ("LAYOUT", "LAYOUT"), "B's copies of A interleaved"),
    "tile_to_shape": Operation(tile_to_shape, ("LAYOUT", "SHAPE", "SHAPE?"),
                               "repeat a block to fill a shape (optional order)"),
    "make_layout_like": Operation(make_layout_like, ("LAYOUT",), "a compact layout with A's stride order"),
    "size": Operation(size, ("LAYOUT",), "number of indices"),
    "cosize": Operation(cosize, ("LAYOUT",), "one past the largest offset"),
    "rank": Operation(rank, ("LAYOUT",), "number of top-level modes"),
    "depth": Operation(depth, ("LAYOUT",), "nesting depth"),
    "flatten": Operation(flatten, ("LAYOUT",), "the leaf modes, in order"),
    "is_admissible": Operation(is_admissible, ("LAYOUT", "TILER"),
                               "whether composition(A, B) is defined (exit 1 if not)"),
    "equivalent": Operation(equivalent, ("LAYOUT", "LAYOUT"),
                            "whether A and B are the same function, with a proof (exit 1 if not)"),
    "explain": Operation(explain, ("NAME", "ARG..."), "an operation's result, step by step"),
}


def _ops_help() -> str:
    lines = ["operations (cutepy op NAME ARG...):"]
    for name, op in OPERATIONS.items():
        lines.append(f"  {name} {' '.join(op.kinds)}".ljust(44) + f" {op.doc}")
    lines += [
        "",
        "LAYOUT: CuTe notation, e.g. '(4,8):(8,1)', 'Sw<3,0,3> o (8,8):(8,1)' (offset 0, as",
        "        'Sw<3,0,3> o 0 o (8,8):(8,1)'); Sw<3,0,3> XORs row bits into the column",
        "TILER:  a layout, a by-mode tiler '<4:1, 8:2>', or a shape '(4,4)' (= '<4:1, 4:1>')",
        "SHAPE:  an integer or an integer tuple, e.g. 24 or '(4,6)'",
        "exit status: 0 ok/yes, 1 no (equivalent, is_admissible), 2 bad input",
    ]
    return "\n".join(lines)


def _int(text: str, name: str) -> int:
    if not _INT.match(text):
        raise CutepyError(f"{name} takes an integer here, got {text!r}")
    return int(text)


def _layout(text: str, name: str) -> Layout | ComposedLayout:
    value = parse(text)
    if not is_layout(value):
        raise CutepyError(f"{name} takes a layout here, not the tiler {text!r}")
    return value


def _shape(text: str, name: str) -> Any:
    if ":" in text or "<" in text:
        raise CutepyError(f"{name} takes a shape here, e.g. 24 or (4,6), not {text!r}")
    if _INT.match(text):
        return int(text)
    return parse(text).shape


def _tiler(text: str, name: str) -> Any:
    stripped = text.strip()
    if stripped.startswith("<"):
        return parse(text)
    if ":" not in stripped and "Sw" not in stripped:
        return _shape(text, name)  # (4,4) is the tiler <4:1, 4:1>, as a shape is in C++
    return _layout(text, name)


_READERS = {"LAYOUT": _layout, "TILER": _tiler, "SHAPE": _shape, "INT": _int}


def _values(name: str, op: Operation, raw: list[str]) -> list[Any]:
    if name == "explain":
        if not raw or raw[0] not in OPERATIONS or raw[0] == "explain":
            raise CutepyError("explain takes an operation name first, e.g. explain composition A B")
        inner = OPERATIONS[raw[0]]
        return [raw[0], *_values(raw[0], inner, raw[1:])]
    need = sum(not k.endswith("?") for k in op.kinds)
    if not need <= len(raw) <= len(op.kinds):
        want = " ".join(op.kinds)
        raise CutepyError(f"{name} takes {want}, got {len(raw)} argument(s)")
    return [_READERS[k.rstrip("?")](text, name) for k, text in zip(op.kinds, raw)]


def _table(layout: Any, limit: int | None) -> str:

    try:
        return layout_table(layout, limit)
    except CutepyError as e:
        return f"(no table: {e})\n"


def _check_folder(path: str | None) -> None:
    """Refuse an output file in a missing folder before printing anything."""
    if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise CutepyError(f"cannot write {path}: the folder {os.path.dirname(path) or '.'} does not exist")


def _check_size(obj: Any) -> None:
    """Refuse a layout C++ CuTe cannot index: its size past the 64-bit signed range."""
    n = obj.size()
    if type(n) is int and n > INT64_MAX:
        raise CutepyError(f"{obj} has size {n}, beyond 2^63-1: C++ CuTe's 64-bit integers cannot index it")


def cmd_show(args: argparse.Namespace) -> int:
    _check_folder(getattr(args, "svg", None))
    obj = parse(args.layout)
    if isinstance(obj, tuple):
        raise CutepyError("show takes a layout, not a tiler")
    _check_size(obj)
    colour = _colour(obj, getattr(args, "bytes", None))
    if getattr(args, "latex", False):
        _latex(obj)
        if getattr(args, "svg", None):
            _svg(obj, args.svg, quiet=True, **colour)
        return 0
    table = _table(obj, getattr(args, "limit", SHOW_LIMIT))
    if not table.startswith(str(obj)):
        print(obj)
    sys.stdout.write(table)  # C++ print_layout starts with the layout itself
    if type(obj) is Layout:
        print(f"size {obj.size()}  cosize {obj.cosize()}  rank {obj.rank()}  depth {obj.depth()}")
    else:
        print(f"size {obj.size()}")
    if getattr(args, "svg", None):
        _svg(obj, args.svg, **colour)
    return 0


def _colour(obj: Any, element_bytes: int | None) -> dict[str, Any]:
    """Picture options: a swizzled layout (or one given ``--bytes``) is coloured by bank; every
    cell tells its coordinate, offset and bank on hover."""
    if element_bytes is not None and element_bytes not in (1, 2, 4, 8, 16):
        raise CutepyError(f"--bytes takes 1, 2, 4, 8 or 16 bytes per element, got {element_bytes}")
    if element_bytes is None and composed_parts(obj) is None:
        return {"hover": True}  # a browser shows each cell's coordinate, offset and bank
    e = element_bytes or 2
    return {"color": "bank", "element_bytes": e, "hover": True,
            "caption": (f"colour: shared-memory bank of each {e}-byte element (32 banks of 4 B)",)}


def _latex(obj: Any) -> None:

    n = obj.size()
    if type(n) is int and n > LATEX_LIMIT:
        raise CutepyError(f"--latex writes one TikZ node per cell: {obj} has {n} cells, more than "
                          f"cutepy.cli.LATEX_LIMIT = {LATEX_LIMIT}; slice or divide the layout first")
    sys.stdout.write(to_latex(obj).rstrip("\n") + "\n")


def _svg(obj: Any, path: str, quiet: bool = False, **opts: Any) -> None:

    try:
        write_svg(obj, path, **opts)
    except OSError as e:
        raise CutepyError(f"cannot write {path}: {e.strerror or e}") from None
    if not quiet:
        print(f"wrote {path}")


def cmd_op(args: argparse.Namespace) -> int:
    op = OPERATIONS.get(args.name)
    if op is None:
        raise CutepyError(f"unknown operation {args.name!r}; `cutepy op --help` lists them")
    result = op.fn(*_values(args.name, op, list(args.args)))
    text = getattr(result, "text", None)  # derivations and proofs explain themselves
    print(text() if callable(text) else result)
    if args.name in ("equivalent", "is_admissible"):
        return 0 if bool(result) else 1
    return 0


def cmd_xla(args: argparse.Namespace) -> int:

    _check_folder(getattr(args, "svg", None))
    shape = xla.parse_shape(args.shape)
    if args.brief:
        print(_xla_line(shape))
    else:
        print(xla.report(shape))
    if getattr(args, "svg", None):
        _svg(shape, args.svg, quiet=args.brief)
    return 0


def _xla_line(shape: Any) -> str:
    """One line: shape, CuTe layout, sizes; tab-separated fields for scripts."""

    if isinstance(shape, TupleShape):
        return "\t".join(_xla_line(e) for e in shape.elements)
    if isinstance(shape, BufferShape):
        shape = shape.array
    if not isinstance(shape, ArrayShape) or not shape.type.is_array_type:
        return f"{shape}\tno array data"
    sz = sizes(shape)
    compiled = to_cute(shape)
    cute = str(compiled) if isinstance(compiled, Layout) else f"chain {compiled}"
    return (f"{shape}\tcute={cute}\tdense={sz.dense}\tarray_size={sz.array_size}\t"
            f"nested={sz.nested}\tpadding={sz.padding_overhead:.1f}%")


def cmd_banks(args: argparse.Namespace) -> int:
    _check_folder(args.svg)
    smem = _layout(args.layout, "banks")
    tv = _layout(args.tv, "banks --tv")
    if args.find_swizzle:
        if not isinstance(smem, Layout):
            raise CutepyError(f"--find-swizzle searches a swizzle for an unswizzled layout, got {smem}")
        vector = args.vector if args.vector is not None else 1
        found = find_swizzle(smem, [(tv, args.op, vector)], element_bytes=args.bytes)
        print(str(found) if args.table else found.summary())
        smem = found.layout if found.found else smem
    report = analyze_layout(smem, tv, element_bytes=args.bytes, vector_elems=args.vector, op=args.op,
                            partial=args.partial)
    if not args.find_swizzle:
        print(str(report) if args.table else report.summary())
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(bank_view_svg(report))
        except OSError as e:
            raise CutepyError(f"cannot write {args.svg}: {e.strerror or e}") from None
        print(f"wrote {args.svg}")
    return 0


_TOUR = [
    ("A layout is shape:stride, a function from coordinates to offsets",
     "show", "(2,(2,2)):(4,(2,1))"),
    ("coalesce keeps the function with the fewest modes", "op", "coalesce", "(2,(1,6)):(1,(6,2))"),
    ("composition: R(c) = A(B(c))", "op", "composition", "(6,2):(8,2)", "(4,3):(3,1)"),
    ("by-mode composition with a tiler", "op", "composition", "(12,(4,8)):(59,(13,1))",
     "<3:4, 8:2>"),
    ("complement fills the gaps up to a cotarget", "op", "complement", "4:2", "24"),
    ("logical_divide splits into (tile, rest)", "op", "logical_divide", "(4,2,3):(2,1,8)", "4:2"),
    ("logical_product repeats a block", "op", "logical_product", "(2,2):(4,1)", "6:1"),
    ("a swizzle permutes offsets: Sw<3,0,3> XORs the row into the column",
     "show", "Sw<3,0,3> o 0 o (8,8):(8,1)"),
    ("equivalent proves two layouts are the same function (exit 1 when they are not)",
     "op", "equivalent", "(2,(1,6)):(1,(6,2))", "12:1"),
]


def cmd_tour(_: argparse.Namespace) -> int:
    print("cutepy tour: CuTe layout algebra in Python\n")
    for title, kind, *rest in _TOUR:
        print(f"== {title}")
        if kind == "show":
            print(f"$ cutepy show \"{rest[0]}\"")
            cmd_show(argparse.Namespace(layout=rest[0], svg=None, latex=False, limit=SHOW_LIMIT))
        else:
            quoted = " ".join(f'"{a}"' for a in rest[1:])
            print(f"$ cutepy op {rest[0]} {quoted}")
            cmd_op(argparse.Namespace(name=rest[0], args=rest[1:]))
        print()
    shape = "f32[3,5]{1,0:T(2,2)}"
    print("== an XLA tiled layout and the CuTe layout it compiles to")
    print(f"$ cutepy xla \"{shape}\"")
    cmd_xla(argparse.Namespace(shape=shape, svg=None, brief=False))
    return 0


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage, so that errors stay one line."""

    def error(self, message: str):
        raise _ArgError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cutepy", description="CuTe layout algebra and XLA layouts. "
                "With no command: a short tour.",
                epilog="exit status: 0 ok/yes, 1 a 'no' answer, 2 bad input (one line on stderr)")
    p.add_argument("--version", action="version", version=f"cutepy {__version__}")
    sub = p.add_subparsers(dest="cmd", parser_class=_Parser)
    s = sub.add_parser("show", help="print a layout, its print_layout table and its sizes")
    s.add_argument("layout", help='CuTe notation, e.g. "(2,(2,2)):(4,(2,1))"')
    s.add_argument("--svg", metavar="FILE", help="also write an SVG picture (64 x 64 cells at most)")
    s.add_argument("--latex", action="store_true",
                   help=f"print only the TikZ picture (at most {LATEX_LIMIT} cells)")
    s.add_argument("--bytes", type=int, default=None, metavar="E",
                   help="colour the --svg picture by shared-memory bank of E-byte elements "
                        "(a swizzled layout is coloured by bank, 2 bytes unless given)")
    s.add_argument("--limit", type=int, default=SHOW_LIMIT, metavar="N",
                   help=f"rows and columns of the table before eliding (default {SHOW_LIMIT})")
    s.set_defaults(func=cmd_show)
    o = sub.add_parser("op", help="apply an algebra operation by name",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_ops_help())
    o.add_argument("name", help="the operation (listed below)")
    o.add_argument("args", nargs="*", help="its arguments, in CuTe notation or integers")
    o.set_defaults(func=cmd_op)
    x = sub.add_parser("xla", help="an XLA shape string: a report, or --brief one line")
    x.add_argument("shape", help='e.g. "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"')
    x.add_argument("--brief", action="store_true",
                   help="one tab-separated line: shape, cute=LAYOUT, dense=, array_size=, nested=, padding=")
    x.add_argument("--svg", metavar="FILE", help="also write an SVG picture")
    x.set_defaults(func=cmd_xla)
    b = sub.add_parser("banks", help="shared-memory bank conflicts of a thread-value access (H100 rule)")
    b.add_argument("layout", help='the shared-memory layout, e.g. "Sw<3,4,3> o 0 o (32,32):(32,1)"')
    b.add_argument("--tv", required=True, help='the thread-value layout, e.g. "((4,8),1):((32,1),0)"')
    b.add_argument("--bytes", type=int, required=True, metavar="E", help="bytes per element")
    b.add_argument("--vector", type=int, default=None, metavar="V", help="elements per access (default 1)")
    b.add_argument("--op", choices=("ld", "st", "ldmatrix", "stmatrix"), default="ld")
    b.add_argument("--partial", action="store_true",
                   help="cost a TV layout of several warps that covers only part of the tile")
    b.add_argument("--table", action="store_true", help="every instruction, not one summary line")
    b.add_argument("--svg", metavar="FILE", help="also write a picture of the worst instructions' wavefronts")
    b.add_argument("--find-swizzle", action="store_true",
                   help="search the swizzle with the fewest bits that brings the access to its ideal")
    b.set_defaults(func=cmd_banks)
    return p


def _one_line(e: BaseException) -> str:
    first = str(e).splitlines()[0] if str(e) else type(e).__name__
    if isinstance(e, ParseError) and e.text is not None and e.pos is not None:
        return f"{first} of {e.text!r}"
    return first


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cutepy`` console script: 0 ok, 1 a "no" answer, 2 bad input."""
    try:
        args = _parser().parse_args(argv)
        if args.cmd is None:
            return cmd_tour(args)
        return args.func(args)
    except _ArgError as e:
        print(f"cutepy: error: {e}", file=sys.stderr)
        return 2
    except CutepyError as e:
        print(f"cutepy: error: {_one_line(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `cutepy | head`
        return 0
    except SystemExit as e:  # --help and --version print and stop: a status, not an exit
        return e.code if isinstance(e.code, int) else 0
    except (TypeError, AttributeError, IndexError, KeyError, ValueError, ZeroDivisionError,
            OverflowError, RecursionError) as e:  # a case the library does not name yet
        where = inspect.trace()[-1]
        print(f"cutepy: error: this input is not supported ({type(e).__name__} in "
              f"{where.function}: {_one_line(e)})", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
