"""The MkDocs site builds with --strict, and the examples on its pages run."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:  # the test extra installs it: fail, do not skip
        pytest.fail(f"{module} is not installed; pip install -e '.[test]'", pytrace=False)


def test_site_builds_strict_without_warnings(tmp_path: Path) -> None:
    _require("mkdocs")
    _require("mkdocstrings")
    _require("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "WARNING" not in log, log
    viz = (site / "api" / "viz" / "index.html").read_text()
    for name in ["layout_svg", "tv_layout_svg", "swizzle_bank_svg", "xla_svg", "to_latex", "show"]:
        assert f'id="cutepy.viz.{name}"' in viz
    core = (site / "api" / "core" / "index.html").read_text()
    shadowed = ["coalesce.coalesce", "complement.complement", "composition.composition"]
    for name in ["Layout", "logical_divide", *shadowed]:
        assert f'id="cutepy.{name}"' in core
    assert ":func:" not in viz and "&gt;&gt;&gt;" in viz  # roles rewritten, examples kept as code
    for page in ["getting-started", "concepts", "algebra", "xla", "programs", "proofs", "pictures", "cli"]:
        assert (site / page / "index.html").exists()
    api = {  # names each API page documents (the ones shadowed by a module of the same name included)
        "xla": ["to_cute", "from_cute", "pack", "unpack", "report.report", "sizes.sizes", "tpu_tiles",
                "parse_shape", "linear_indices"],
        "program": ["trace.trace", "run.run", "compile", "check", "resize", "concatenate", "lmem_layout",
                    "CompiledProgram", "TracedArray"],
        "equivalence": ["equivalent", "Equivalence", "Counterexample", "normal_form.normal_form"],
        "symbolic": ["symbols", "declare", "subs", "Undecided", "sym.Sym"],
        "derivation": ["explain", "Derivation"],
    }
    for module, names in api.items():
        html = (site / "api" / module / "index.html").read_text()
        for name in names:
            assert f'id="cutepy.{module}.{name}"' in html, f"api/{module}.md does not document {name}"
        assert "```" not in html, f"a code fence in api/{module}.md was not rendered"


def test_getting_started_gives_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    page = (DOCS / "getting-started.md").read_text()
    commands = ["python -m pip install . && cutepy", 'python -m pip install -e ".[test]" && python -m pytest']
    for command in commands:
        assert command in readme and f"$ {command}" in page, command


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES:
        assert page.relative_to(DOCS).as_posix() in nav, f"{page} is not in mkdocs.yml's nav"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS,
                              raise_on_error=False, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.name}"


def test_docstring_extension() -> None:
    spec = importlib.util.spec_from_file_location("cutepy_docs_docstrings", DOCS / "docstrings.py")
    assert spec is not None and spec.loader is not None
    _require("griffe")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = "Use :func:`~cutepy.viz.show`.\n\n>>> f(':func:`x`')\n1\n\nEnd :class:`cutepy.Layout`."
    assert mod.markdown_docstring(text).splitlines() == [
        "Use `show`.", "", "```pycon", ">>> f(':func:`x`')", "1", "```", "", "End `cutepy.Layout`.",
    ]
    literal = "As usual::\n\n    >>> g()\n    2\n\nThe table::\n\n    a : b\n"
    assert mod.markdown_docstring(literal).splitlines() == [
        "As usual:", "", "```pycon", ">>> g()", "2", "```", "", "The table:", "", "```text", "a : b", "```",
    ]
    assert doctest.testmod(mod).failed == 0
