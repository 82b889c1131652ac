"""One home per operation: each public operation is defined once and dispatched on its value.

A Layout takes the algorithm written beside the operation; a swizzled (composed) layout and a
tensor register their variants in the operation's table (:mod:`cutepy.core.kinds`). So no
module but the value types' own asks whether a layout is composed, and no exported name is
defined twice. Both are read from the source with :mod:`ast`.
"""

from __future__ import annotations

import ast
import inspect

import cutepy
from tests.paths import PACKAGE

#: the modules of the value types: only they may tell a composed layout apart
VALUE_TYPES = {"core/layout.py", "core/swizzle.py", "algebra/composed.py", "kernels/tensor.py"}

#: attributes only a composed layout (or a swizzle) has: asking for them is asking its kind
COMPOSED_ATTRIBUTES = {"outer", "inner", "compose", "compose_left", "layout_a", "layout_b"}

SOURCES = {str(p.relative_to(PACKAGE)): p.read_text() for p in sorted(PACKAGE.rglob("*.py"))}


def _top_level_functions() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rel, src in SOURCES.items():
        for node in ast.parse(src).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.setdefault(node.name, []).append(rel)
    return out


def _exported_functions() -> dict[str, object]:
    names = [*cutepy.__all__, "slice", "max", "min"]
    return {n: getattr(cutepy, n) for n in names if inspect.isfunction(getattr(cutepy, n))}


def _mentions_composed(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "ComposedLayout" or
               isinstance(n, ast.Attribute) and n.attr == "ComposedLayout" for n in ast.walk(node))


def _composed_tests(src: str) -> list[int]:
    """Lines that test for a composed layout: ``isinstance(x, ..ComposedLayout..)``,
    ``type(x) is ComposedLayout``, ``hasattr(x, "outer")`` and the like."""
    lines = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "isinstance" and len(node.args) == 2 and _mentions_composed(node.args[1]):
                lines.append(node.lineno)
            if node.func.id == "hasattr" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant) \
                    and node.args[1].value in COMPOSED_ATTRIBUTES:
                lines.append(node.lineno)
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
                                                 for op in node.ops):
            if any(_mentions_composed(c) for c in node.comparators) or _mentions_composed(node.left):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_source_reader_sees_a_composed_test() -> None:
    """The checks below would catch each kind of test (the reader is not blind)."""
    src = ("def f(x):\n    return isinstance(x, (Layout, ComposedLayout))\n"
           "def g(x):\n    return type(x) is ComposedLayout\n"
           "def h(x):\n    return hasattr(x, 'outer')\n")
    assert _composed_tests(src) == [2, 4, 6]


def test_every_exported_operation_has_exactly_one_definition() -> None:
    defs = _top_level_functions()
    exported = _exported_functions()
    assert len(exported) > 100  # the public operations are found
    twins = {name: defs[name] for name in exported if len(defs.get(name, [])) > 1}
    assert twins == {}, f"defined in more than one module: {twins}"


def test_no_module_but_the_value_types_tests_for_a_composed_layout() -> None:
    found = {rel: lines for rel, src in SOURCES.items()
             if rel not in VALUE_TYPES and (lines := _composed_tests(src))}
    assert found == {}, f"composed-layout tests outside the value types (dispatch instead): {found}"


def test_the_cli_runs_the_exported_operations() -> None:
    """The CLI's table adds argument kinds and help to names; the functions are cutepy's own."""
    from cutepy.cli import OPERATIONS

    for name, op in OPERATIONS.items():
        assert name in cutepy.__all__ and op.fn is getattr(cutepy, name), name


def _init_lists() -> tuple[dict[str, set[str]], list[str]]:
    """From ``cutepy/__init__.py``: the names it imports explicitly (``X as X``) from each of
    its modules (the kernel modules' under ``if TYPE_CHECKING:``, as they load on first use),
    and the modules whose ``__all__`` make ``cutepy.__all__`` (the ``_m`` aliases spliced into
    ``_EAGER_ALL``, then the modules ``_KERNELS`` loads)."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    body = list(tree.body)
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            body.extend(node.body)
    explicit: dict[str, set[str]] = {}
    alias_of: dict[str, str] = {}
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            for a in node.names:
                if a.asname == a.name:
                    explicit.setdefault(node.module or "", set()).add(a.name)
                elif a.asname and a.asname.startswith("_"):
                    alias_of[a.asname] = f"{node.module}.{a.name}" if node.module else a.name
    eager, kernels = [], []
    for node in tree.body:
        targets = [getattr(t, "id", "") for t in node.targets] if isinstance(node, ast.Assign) else []
        if "_EAGER_ALL" in targets:
            for el in node.value.elts:
                if isinstance(el, ast.Starred) and isinstance(el.value, ast.Attribute):
                    eager.append(alias_of[el.value.value.id])
        if "_KERNELS" in targets:  # load("cutepy.kernels.x") calls
            kernels.extend(el.args[0].value.removeprefix("cutepy.") for el in node.value.elts)
    return explicit, eager + kernels


def test_import_leaves_the_kernels_for_first_use() -> None:
    """``import cutepy`` loads no kernel module (they load, all together, on the first use of one
    of their names or of ``__all__``), and ``__all__`` is the modules' lists in order."""
    import subprocess
    import sys

    code = ("import sys, cutepy; assert not [m for m in sys.modules if m.startswith('cutepy.kernels.')], "
            "sorted(m for m in sys.modules if m.startswith('cutepy.kernels.')); "
            "t = cutepy.make_tensor; assert 'cutepy.kernels.tma' in sys.modules; "
            "assert cutepy.lazy.transform is cutepy.lazy_transform")
    subprocess.run([sys.executable, "-c", code], check=True)
    import importlib

    _, spliced = _init_lists()
    want = [n for mod in spliced for n in importlib.import_module(f"cutepy.{mod}").__all__]
    assert cutepy.__all__[:len(want)] == want


def test_cutepy_imports_each_modules_exports_by_name() -> None:
    """``cutepy/__init__.py`` lists every name it re-exports (JAX's ``X as X``), one list per
    module, and each list is exactly that module's ``__all__``: a new export is added to both."""
    import importlib

    # cutepy.max/min/format: not in __all__ (builtins kept)
    outside_all = {"core.tuples": {"max", "min", "format"}}
    explicit, spliced = _init_lists()
    assert len(spliced) > 20
    for mod in spliced:
        names = set(importlib.import_module(f"cutepy.{mod}").__all__) | outside_all.get(mod, set())
        assert explicit.get(mod, set()) == names, (mod, names ^ explicit.get(mod, set()))
    stars = [a.name for node in ast.parse((PACKAGE / "__init__.py").read_text()).body
             if isinstance(node, ast.ImportFrom) for a in node.names if a.name == "*"]
    assert stars == []
