"""The package's structure: one-way layers, no import cycles, no hidden imports.

The layers (ARCHITECTURE.md draws them) are listed in :data:`LAYERS`; a module may import
modules of its own layer or of lower ones, never a higher one, and the import graph has no
cycle (a package's ``__init__`` counts as a module: importing a package runs it). Imports
inside functions are allowed only as lazy loads of a heavy optional dependency (numpy,
sympy, hypothesis, IPython), each with a comment on its line or the line above saying so.
The graph is read from the source with :mod:`ast`; nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cutepy"

#: module-name prefix -> layer; the longest matching prefix wins
LAYERS: dict[str, int] = {
    # 0 values (cutepy/core/): integer tuples, bases, errors, event records, symbolic integers
    "cutepy.core": 0, "cutepy.core.errors": 0, "cutepy.core.inttuple": 0, "cutepy.core.basis": 0,
    "cutepy.core.tracing": 0, "cutepy.core.tuples": 0, "cutepy.core.events": 0, "cutepy.core.limits": 0,
    "cutepy.core.dynamic": 0, "cutepy.core.kinds": 0,
    "cutepy.core.symbolic": 0,
    # 1 the layout and its evaluation (cutepy/core/)
    "cutepy.core.layout": 1, "cutepy.core.swizzle": 1, "cutepy.core.evaluate": 1,
    # 2 the algebra, one module per family (cutepy/algebra/)
    "cutepy.algebra": 2,
    # 3 engines: whole formalisms compiled into layouts
    "cutepy.engine": 3,  # the engine's old path (cutepy.program.engine now), deprecated
    "cutepy.xla": 3, "cutepy.program": 3, "cutepy.linear": 3,
    # 4 analyses: questions asked of layouts (symbolic front, proofs, explain, banks, strategies)
    # and kernel-design values (cutepy/kernels/: tensors, atoms, tiled MMA and copy)
    "cutepy.symbolic": 4, "cutepy.equivalence": 4, "cutepy.derivation": 4, "cutepy.banks": 4,
    "cutepy.strategies": 4, "cutepy.kernels": 4,
    "cutepy.builders": 4,  # CUTLASS's GEMM builders (issue 32)
    # 5 the edge: text in and out, pictures, emitted code
    "cutepy.notation": 5, "cutepy.viz": 5, "cutepy.emit": 5,
    # 6 the package itself re-exports everything, and checks a compiled core (build.py)
    "cutepy": 6, "cutepy.compiled": 6, "cutepy.build": 7,
    # 7 the command line: a client of the public API, like any user's script
    "cutepy.cli": 7, "cutepy.__main__": 7,
}

#: optional heavy dependencies that may be imported inside a function, lazily
#: (cairosvg: PNG/PDF, the viz extra; islpy and z3: the proofs extra)
LAZY_OK = ("numpy", "sympy", "hypothesis", "IPython", "pandas", "cairosvg", "islpy", "z3")

#: marks an edge made by the lazy loader (its target loads on first use, not at import)
LAZY_MARK = "lazy: "


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _layer(mod: str) -> int:
    best, layer = -1, None
    for prefix, n in LAYERS.items():
        if (mod == prefix or mod.startswith(prefix + ".")) and len(prefix) > best:
            best, layer = len(prefix), n
    assert layer is not None, f"{mod} has no layer in LAYERS: add it (and to ARCHITECTURE.md)"
    return layer


def _resolve(name: str) -> str | None:
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


#: the lazy loader's calls (:mod:`cutepy.core.lazy`): their string arguments are import edges
LOADER_CALLS = ("load", "attach")


def _loader_targets(node: ast.Call, mod: str) -> list[str]:
    """The modules a ``load("x")`` or ``attach(__name__, submodules=[...], names={...})`` call
    names (absolute; ``attach``'s are relative to the calling package)."""
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    if name == "load" and node.args and isinstance(node.args[0], ast.Constant):
        return [node.args[0].value]
    if name == "attach":
        out = []
        for kw in node.keywords:
            values = kw.value
            if isinstance(values, ast.Name):  # a module-level tuple/dict of names
                values = _constant_named(mod, values.id)
            if kw.arg == "submodules":
                out += [f"{mod}.{s}" for s in ast.literal_eval(values)]
            elif kw.arg == "names":
                out += [f"{mod}.{s}" for s in ast.literal_eval(values).values()]
        return out
    return []


def _constant_named(mod: str, name: str) -> ast.expr:
    for node in ast.parse(MODULES[mod].read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    raise AssertionError(f"{mod}: {name} is not a module-level constant")


def _imports(mod: str, path: Path) -> list[tuple[str, int, bool, str]]:
    """(target module or external name, line, inside a function, source line) of each import,
    and of each module the lazy loader is told to load (``load``/``attach``: not nested)."""
    src = path.read_text()
    lines = src.splitlines()
    tree = ast.parse(src)
    base = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    nested: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nested.update(id(n) for n in ast.walk(fn) if n is not fn)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) \
                in LOADER_CALLS and id(node) not in nested:
            for name in _loader_targets(node, mod):
                target = _resolve(name) if name.startswith("cutepy") else name
                assert target is not None, f"{mod}:{node.lineno}: the loader names {name}, no module"
                out.append((target, node.lineno, False, LAZY_MARK + lines[node.lineno - 1]))
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")[: len(base.split(".")) - (node.level - 1)]
                stem = ".".join(parts + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            names = [f"{stem}.{a.name}" for a in node.names] if stem.startswith("cutepy") else [stem]
        else:
            continue
        for name in names:
            target = _resolve(name) if name.startswith("cutepy") else name
            if target is not None and target != mod:
                out.append((target, node.lineno, id(node) in nested, lines[node.lineno - 1]))
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}

#: our modules that import a heavy dependency at their top: loading one lazily is loading it
HEAVY = {m for m, imps in GRAPH.items()
         if any(not nested and t.split(".")[0] in LAZY_OK
                and not text.startswith(LAZY_MARK) for t, _, nested, text in imps)}
while True:  # and the modules that load one of those as they are imported (cutepy.xla's package)
    more = {m for m, imps in GRAPH.items() if m not in HEAVY
            and any(not nested and t in HEAVY and not text.startswith(LAZY_MARK)
                    for t, _, nested, text in imps)}
    if not more:
        break
    HEAVY |= more


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    edges = {m: sorted({t for t, *_ in imps if t in MODULES}) for m, imps in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            if i < len(edges[v]):
                work.append((v, i + 1))
                w = edges[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def test_no_import_cycles():
    assert _cycles() == []


def test_cycle_finder_finds_a_planted_cycle():
    saved = dict(GRAPH)
    try:
        upward = ("cutepy.algebra.composition", 0, False, "")
        GRAPH["cutepy.core.layout"] = saved["cutepy.core.layout"] + [upward]
        assert any({"cutepy.core.layout", "cutepy.algebra.composition"} <= set(c) for c in _cycles())
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_imports_go_downward(mod):
    here = _layer(mod)
    upward = [(t, line) for t, line, _, _ in GRAPH[mod] if t in MODULES and _layer(t) > here]
    assert upward == [], f"{mod} (layer {here}) imports higher layers: {upward}"


def test_no_module_imports_the_top_level_package():
    """Only the command line (layer 7, a client of the public API) may."""
    offenders = [(m, line) for m, imps in GRAPH.items() if _layer(m) < LAYERS["cutepy"]
                 for t, line, _, _ in imps if t == "cutepy"]
    assert offenders == []


def test_function_level_imports_are_lazy_heavy_dependencies_with_a_comment():
    bad = []
    for mod, imps in GRAPH.items():
        src = MODULES[mod].read_text().splitlines()
        for target, line, nested, text in imps:
            if not nested:
                continue
            above = src[line - 2] if line >= 2 else ""
            commented = "#" in text or above.strip().startswith("#")
            heavy = target.split(".")[0] in LAZY_OK or target in HEAVY
            # the top-level package may load its own subpackages on first use (import time)
            own_subpackage = mod == "cutepy" and target.startswith("cutepy.")
            if not ((heavy or own_subpackage) and commented):
                bad.append(f"{mod}:{line}: {text.strip()}")
    assert bad == []


#: what a subpackage's ``__init__`` may assign: its exports, and the lazy loader's hooks
REEXPORT_NAMES = ("__all__", "__getattr__", "__dir__")


def test_subpackage_inits_only_re_export():
    """A subpackage's ``__init__`` holds imports, ``__all__`` and a docstring, no code
    (a module ``__getattr__`` that re-exports lazily, PEP 562, is a re-export)."""
    bad = []
    for mod, path in MODULES.items():
        if path.name != "__init__.py" or mod == "cutepy":
            continue
        for node in ast.parse(path.read_text()).body:
            ok = isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            ) or (isinstance(node, ast.Assign) and all(
                isinstance(t, ast.Name) and t.id in REEXPORT_NAMES for t in node.targets)
            ) or (isinstance(node, ast.FunctionDef) and node.name == "__getattr__")
            if not ok:
                bad.append(f"{mod}:{node.lineno}")
    assert bad == []


#: in-function imports of cutepy's own modules still to go (none: the lazy loader is the way,
#: ``_m = load("cutepy.x.m")`` at the top, ``_m.f`` in the function)
PENDING_OWN: set[tuple[str, str]] = set()

#: modules that still import numpy in more than one function (none)
PENDING_NUMPY: set[str] = set()


def test_no_module_imports_its_own_package_inside_a_function():
    """A function that needs one of cutepy's modules reads a name the module bound at its top
    (through the lazy loader when the load must wait): every edge is visible at the top."""
    found = {(m, t) for m, imps in GRAPH.items() for t, _, nested, _ in imps if nested and t in MODULES}
    assert found <= PENDING_OWN, found - PENDING_OWN  # the list only shrinks


def test_numpy_is_bound_once_per_module():
    """``np = load("numpy")`` (or ``import numpy as np``) at the module's top, not in each function."""
    many = {m for m, imps in GRAPH.items()
            if sum(t == "numpy" and (nested or text.startswith(LAZY_MARK))
                   for t, _, nested, text in imps) > 1}
    assert many <= PENDING_NUMPY, many - PENDING_NUMPY  # the list only shrinks


def test_the_loaders_edges_are_seen():
    """``load``/``attach`` calls are edges: the top package's lazy subpackages, viz's numpy."""
    top = {t for t, *_ in GRAPH["cutepy"]}
    assert {"cutepy.xla", "cutepy.viz", "cutepy.derivation", "cutepy.viz.display"} <= top
    assert any(t == "numpy" and text.startswith(LAZY_MARK) for t, _, _, text in GRAPH["cutepy.viz.layouts"])
    assert "cutepy.viz.program" not in {t for t, *_ in GRAPH["cutepy.program"]}


def test_architecture_page_names_every_package_and_module():
    """ARCHITECTURE.md's picture names each package and each module (by its file's stem), so a
    reader finds every room from it (issue 30). A new module: add its name to the picture."""
    import re

    page = (ROOT.parent / "ARCHITECTURE.md").read_text()
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", page))
    unnamed = sorted(m for m, path in MODULES.items()
                     if m != "cutepy" and (path.parent.name if path.name == "__init__.py" else path.stem)
                     not in words)
    assert unnamed == [], f"ARCHITECTURE.md does not name {unnamed}"
