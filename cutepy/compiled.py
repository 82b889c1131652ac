"""The compiled core: the hot modules of the layout and the algebra built with Cython, optionally
(the command is :mod:`cutepy.build`; this module holds what it does and what ``import cutepy`` asks).

cutepy is pure Python, and that is the reference implementation the test suite runs on a fresh
checkout. ``python -m cutepy.build`` compiles the modules in :data:`HOT_MODULES` with Cython
(``pip install 'cutepy[fast]'``; a C compiler) into extension modules beside their sources, which
Python then imports in their place: the same code, compiled as it is, so every result and every
error is the pure modules'. Two ``.pxd`` files beside the sources declare the layout value (and
its kind) a C-level class for the compiler (``cutepy/core/layout.pxd``, ``kinds.pxd``); pure
Python never reads them. ``python -m cutepy.build --clean`` removes them again.

A compiled module that no longer matches its source would silently run old code, so the build
writes the SHA-256 of each source it compiled (``_compiled_sources.json``), and ``import cutepy``
refuses to load a compiled core whose sources have changed since (an ``ImportError`` that says
which and how to rebuild). :func:`build_info` says which core is in use.

Layer 6 (with the package itself): it imports nothing of cutepy but the errors and the lazy
loader, so that ``cutepy/__init__.py`` can check the compiled modules before it imports any of them.

>>> info = build_info()
>>> sorted(info) == ["compiled", "core", "pure", "stale"]
True
>>> info["core"] in ("pure", "compiled", "mixed")
True
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import sys
from pathlib import Path
from typing import Any

from .core.errors import CutepyError
from .core.lazy import installed, load

# loaded on first use: ``import cutepy`` only lists files here
hashlib = load("hashlib")
json = load("json")
shutil = load("shutil")
subprocess = load("subprocess")
tempfile = load("tempfile")

__all__ = ["build_info"]

#: the modules the compiled core holds: the layout value, its integer tuples and the algebra's
#: families (where a design sweep and the algebra spend their time)
HOT_MODULES = (
    "cutepy.core.inttuple", "cutepy.core.tuples", "cutepy.core.dynamic", "cutepy.core.kinds",
    "cutepy.core.layout", "cutepy.algebra.coalesce", "cutepy.algebra.composition",
    "cutepy.algebra.complement", "cutepy.algebra.divides", "cutepy.algebra.products",
    "cutepy.algebra.inverse",
)
PACKAGE = Path(__file__).resolve().parent
MANIFEST = "_compiled_sources.json"


def _source(module: str, root: Path) -> Path:
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def _extensions(module: str, root: Path) -> list[Path]:
    """The extension modules built for ``module`` (any suffix Python would import)."""
    src = _source(module, root)
    return [src.with_suffix(s) for s in importlib.machinery.EXTENSION_SUFFIXES
            if src.with_suffix(s).exists()]


def _digest(path: Path) -> str:
    """The module's source and, where it has one, its ``.pxd`` (the compiled core's C-level
    declarations: the layout value as a ``cdef class``)."""
    pxd = path.with_suffix(".pxd")
    return hashlib.sha256(path.read_bytes() + (pxd.read_bytes() if pxd.exists() else b"")).hexdigest()


def build_info(root: Path | None = None) -> dict[str, Any]:
    """Which core is in use: ``core`` is ``"pure"`` (no module compiled), ``"compiled"`` (every
    module of :data:`HOT_MODULES`) or ``"mixed"``; ``compiled`` / ``pure`` list the modules each
    way; ``stale`` the compiled ones whose source changed since they were built.

    Pre:  ``root`` the package folder (default: this cutepy's). Post: ``compiled`` and ``pure``
          partition :data:`HOT_MODULES`.

    >>> info = build_info()
    >>> len(info["compiled"]) + len(info["pure"]) == len(HOT_MODULES), info["stale"]
    (True, [])
    """
    root = PACKAGE if root is None else Path(root)
    compiled = [m for m in HOT_MODULES if _extensions(m, root)]
    pure = [m for m in HOT_MODULES if m not in compiled]
    stale = _stale(root, compiled)
    core = "pure" if not compiled else "compiled" if not pure else "mixed"
    return {"core": core, "compiled": compiled, "pure": pure, "stale": stale}


def _stale(root: Path, compiled: list[str]) -> list[str]:
    if not compiled:
        return []
    try:
        built = json.loads((root / MANIFEST).read_text())
    except (OSError, ValueError):
        return list(compiled)  # built by hand, or the manifest lost: nothing vouches for them
    return [m for m in compiled if built.get(m) != _digest(_source(m, root))]


def _running_the_build() -> bool:
    """``python -m cutepy.build ...`` itself (it must run to rebuild or clean a stale core)."""
    return list(getattr(sys, "orig_argv", [])[1:3]) == ["-m", "cutepy.build"]


def check_compiled(root: Path | None = None) -> None:
    """Refuse a compiled core that no longer matches its sources: importing this module (the
    first thing ``import cutepy`` does) calls it before any compiled module loads; a pure core
    costs a few file lookups. ``python -m cutepy.build`` itself is let through."""
    root = PACKAGE if root is None else Path(root)
    compiled = [m for m in HOT_MODULES if _extensions(m, root)]
    stale = _stale(root, compiled)
    if stale:
        which = (f"{stale[0]} no longer matches its source" if len(stale) == 1
                 else f"{', '.join(stale)} no longer match their sources")
        raise ImportError(f"cutepy: the compiled {which} "
                          f"(edited since `python -m cutepy.build`); rebuild with `python -m cutepy.build`, "
                          f"or remove the compiled core with `python -m cutepy.build --clean`")


def clean(root: Path | None = None) -> list[Path]:
    """Remove the compiled core (extension modules and manifest); returns what it removed."""
    root = PACKAGE if root is None else Path(root)
    gone = [p for m in HOT_MODULES for p in _extensions(m, root)]
    if (root / MANIFEST).exists():
        gone.append(root / MANIFEST)
    for p in gone:
        p.unlink()
    return gone


def compile_core(root: Path | None = None, *, jobs: int = 2) -> dict[str, Any]:
    """Compile :data:`HOT_MODULES` with Cython beside their sources; returns :func:`build_info`.

    Pre:  Cython 3 and setuptools installed (the ``fast`` extra) and a C compiler; ``jobs`` a
          positive int. Post: every hot module compiled, none stale; on failure nothing of the
          old core is left half replaced (the build runs in a scratch folder, then copies).
    """
    root = PACKAGE if root is None else Path(root)
    if type(jobs) is not int or jobs < 1:
        raise CutepyError(f"compile_core: jobs must be a positive int, got {jobs!r}")
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from Cython.Build import cythonize\n"
        "mods = sys.argv[2:]\n"
        "setup(script_args=['build_ext', '--inplace', '-j', sys.argv[1]],\n"
        "      ext_modules=cythonize(mods, quiet=True,\n"
        "                            compiler_directives={'language_level': 3, 'binding': True,\n"
        "                                                 'annotation_typing': False}))\n"
    )
    if not installed("Cython"):
        raise CutepyError("compile_core: Cython is not installed (pip install 'cutepy[fast]')")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "cutepy"
        shutil.copytree(root, work, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", MANIFEST))
        sources = [str(_source(m, work).relative_to(tmp)) for m in HOT_MODULES]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        run = subprocess.run([sys.executable, "-c", script, str(jobs), *sources], cwd=tmp,
                             capture_output=True, text=True, env=env)
        if run.returncode:
            lines = (run.stderr + run.stdout).strip().splitlines()
            # Cython names the source line (path:line:column: message); else the last lines
            said = [ln for ln in lines if re.search(r"\.py:\d+:\d+: ", ln)][:5] or lines[-5:]
            raise CutepyError("compile_core: Cython's build failed:\n" + "\n".join(said))
        clean(root)
        manifest = {}
        for m in HOT_MODULES:
            for ext in _extensions(m, work):
                shutil.copy2(ext, _source(m, root).with_name(ext.name))
            manifest[m] = _digest(_source(m, root))
        (root / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return build_info(root)


if not _running_the_build():
    check_compiled()
