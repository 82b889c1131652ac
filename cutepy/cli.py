"""The ``cutepy`` command.

``cutepy``                         a short tour on built-in examples
``cutepy show LAYOUT``             the layout, its size/cosize and a print_layout table
``cutepy op NAME ARG...``          apply an algebra operation by name
``cutepy xla SHAPE``               an XLA shape: canonical form, sizes, CuTe compile, check

Bad input prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CutepyError

_INT = re.compile(r"^\s*-?\d+\s*$")


def _ops() -> dict[str, Callable[..., Any]]:
    import cutepy

    names = [
        "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
        "nullspace", "max_common_layout", "max_common_vector", "upcast", "downcast",
        "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
        "logical_product", "zipped_product", "tiled_product", "flat_product",
        "blocked_product", "raked_product", "tile_to_shape", "make_layout_like",
        "size", "cosize", "rank", "depth", "flatten",
    ]
    ops = {n: getattr(cutepy, n) for n in names}
    for extra in ("equivalent", "explain"):
        if hasattr(cutepy, extra):
            ops[extra] = getattr(cutepy, extra)
    return ops


def _arg(text: str) -> Any:
    """An integer literal is an int, anything else is CuTe notation."""
    from .notation import parse

    if _INT.match(text):
        return int(text)
    return parse(text)


def _table(layout: Any) -> str:
    try:
        from .viz import print_layout
    except ImportError:  # pictures not installed in this build
        return ""
    import contextlib
    import io

    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            print_layout(layout)
    except CutepyError as e:
        return f"(no table: {e})\n"
    return buf.getvalue()


def cmd_show(args: argparse.Namespace) -> int:
    from .layout import Layout
    from .notation import parse

    obj = parse(args.layout)
    if isinstance(obj, tuple):
        raise CutepyError("show takes a layout, not a tiler")
    table = _table(obj)
    if table.startswith(str(obj)):
        sys.stdout.write(table)  # C++ print_layout starts with the layout itself
    else:
        print(obj)
        sys.stdout.write(table)
    if type(obj) is Layout:
        print(f"size {obj.size()}  cosize {obj.cosize()}  rank {obj.rank()}  depth {obj.depth()}")
    else:
        print(f"size {obj.size()}")
    _pictures(obj, args)
    return 0


def _pictures(obj: Any, args: argparse.Namespace) -> None:
    if getattr(args, "svg", None):
        from .viz import write_svg

        write_svg(obj, args.svg)
        print(f"wrote {args.svg}")
    if getattr(args, "latex", False):
        from .viz import to_latex

        print(to_latex(obj))


def cmd_op(args: argparse.Namespace) -> int:
    ops = _ops()
    fn = ops.get(args.name)
    if fn is None:
        raise CutepyError(f"unknown operation {args.name!r}; try one of: {', '.join(sorted(ops))}")
    raw = list(args.args)
    lead = []
    if args.name == "explain" and raw:  # explain NAME ARGS...: the first argument is an operation
        lead = [raw.pop(0)]
    values = lead + [_arg(a) for a in raw]
    try:
        result = fn(*values)
    except TypeError as e:
        raise CutepyError(f"{args.name} takes other arguments: {e}") from None
    text = getattr(result, "text", None)  # derivations and proofs explain themselves
    print(text() if callable(text) else result)
    return 0


def cmd_xla(args: argparse.Namespace) -> int:
    from . import xla

    report = getattr(xla, "report", None)
    if report is None:
        print(xla.parse_shape(args.shape))
    else:
        print(report(args.shape))
    if getattr(args, "svg", None):
        from .viz import write_svg

        write_svg(xla.parse_shape(args.shape), args.svg)
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
    ("a swizzled shared-memory layout", "show", "Sw<3,4,3> o 0 o (8,8):(8,1)"),
]


def cmd_tour(_: argparse.Namespace) -> int:
    print("cutepy tour: CuTe layout algebra in Python\n")
    for title, kind, *rest in _TOUR:
        print(f"== {title}")
        if kind == "show":
            print(f"$ cutepy show \"{rest[0]}\"")
            cmd_show(argparse.Namespace(layout=rest[0], svg=None, latex=False))
        else:
            quoted = " ".join(f'"{a}"' for a in rest[1:])
            print(f"$ cutepy op {rest[0]} {quoted}")
            cmd_op(argparse.Namespace(name=rest[0], args=rest[1:]))
        print()
    try:
        from . import xla
    except ImportError:
        return 0
    shape = "f32[3,5]{1,0:T(2,2)}"
    print("== an XLA tiled layout and the CuTe layout it compiles to")
    print(f"$ cutepy xla \"{shape}\"")
    cmd_xla(argparse.Namespace(shape=shape, svg=None))
    del xla
    return 0


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage, so that errors stay one line."""

    def error(self, message: str):
        raise _ArgError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cutepy", description="CuTe layout algebra and XLA layouts.")
    sub = p.add_subparsers(dest="cmd", parser_class=_Parser)
    s = sub.add_parser("show", help="print a layout, its sizes and its table")
    s.add_argument("layout", help='CuTe notation, e.g. "(2,(2,2)):(4,(2,1))"')
    s.add_argument("--svg", metavar="FILE", help="also write an SVG picture")
    s.add_argument("--latex", action="store_true", help="also print TikZ code")
    s.set_defaults(func=cmd_show)
    o = sub.add_parser("op", help="apply an algebra operation by name")
    o.add_argument("name", help="e.g. composition, complement, logical_divide")
    o.add_argument("args", nargs="*", help="layouts in CuTe notation, tilers <...>, or integers")
    o.set_defaults(func=cmd_op)
    x = sub.add_parser("xla", help="an XLA shape string: canonical form, sizes, CuTe compile")
    x.add_argument("shape", help='e.g. "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"')
    x.add_argument("--svg", metavar="FILE", help="also write an SVG picture")
    x.set_defaults(func=cmd_xla)
    return p


def _one_line(e: CutepyError) -> str:
    from .errors import ParseError

    first = str(e).splitlines()[0] if str(e) else type(e).__name__
    if isinstance(e, ParseError) and e.text is not None and e.pos is not None:
        return f"{first} of {e.text!r}"
    return first


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cutepy`` console script."""
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
