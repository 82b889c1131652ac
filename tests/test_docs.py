"""The MkDocs site builds with --strict, and the examples on its pages run."""

from __future__ import annotations

import base64
import doctest
import importlib.util
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cutepy.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
GUIDES = ["index", "getting-started", "cookbook", "concepts", "algebra", "xla", "programs", "proofs",
          "pictures", "cli"]
IMG = re.compile(r'<figure class="cutepy-picture"><img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"cutepy_docs_{name}", DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with --strict; the build log must hold no warning."""
    _require("mkdocs")
    _require("mkdocstrings")
    _require("mkdocstrings_handlers.python")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "WARNING" not in log, log
    return out


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:  # the test extra installs it: fail, do not skip
        pytest.fail(f"{module} is not installed; pip install -e '.[test]'", pytrace=False)


def test_site_builds_strict_without_warnings(site: Path) -> None:
    viz = (site / "api" / "viz" / "index.html").read_text()
    for name in ["layout_svg", "tv_layout_svg", "swizzle_bank_svg", "xla_svg", "to_latex", "show"]:
        assert f'id="cutepy.viz.{name}"' in viz
    core = (site / "api" / "core" / "index.html").read_text()
    for name in ["Layout", "logical_divide", "coalesce", "complement", "composition"]:
        assert f'id="cutepy.{name}"' in core
    assert ":func:" not in viz and "&gt;&gt;&gt;" in viz  # roles rewritten, examples kept as code
    for page in GUIDES[1:]:
        assert (site / page / "index.html").exists()
    api = {  # names each API page documents (the ones shadowed by a module of the same name included)
        "xla": ["to_cute", "compile_details", "from_cute", "pack", "unpack", "report.report", "sizes.sizes",
                "tpu_tiles", "parse_shape", "linear_indices"],
        "program": ["trace.trace", "run.run", "to_layout", "check", "resize", "concatenate", "lmem_layout",
                    "CompiledProgram", "TracedArray"],
        "equivalence": ["equivalent", "Equivalence", "Counterexample", "normal_form.normal_form"],
        "symbolic": ["symbols", "declare", "subs", "Undecided", "cutepy.core.symbolic.sym.Sym"],
        "derivation": ["explain", "Derivation"],
    }
    for module, names in api.items():
        html = (site / "api" / module / "index.html").read_text()
        for name in names:
            full = name if name.startswith("cutepy.") else f"cutepy.{module}.{name}"
            assert f'id="{full}"' in html, f"api/{module}.md does not document {name}"
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
    _require("griffe")
    mod = _module("docstrings")
    text = "Use :func:`~cutepy.viz.show`.\n\n>>> f(':func:`x`')\n1\n\nEnd :class:`cutepy.Layout`."
    assert mod.markdown_docstring(text).splitlines() == [
        "Use `show`.", "", "```pycon", ">>> f(':func:`x`')", "1", "```", "", "End `cutepy.Layout`.",
    ]
    literal = "As usual::\n\n    >>> g()\n    2\n\nThe table::\n\n    a : b\n"
    assert mod.markdown_docstring(literal).splitlines() == [
        "As usual:", "", "```pycon", ">>> g()", "2", "```", "", "The table:", "", "```text", "a : b", "```",
    ]
    assert doctest.testmod(mod).failed == 0


def _page(site: Path, name: str) -> str:
    return (site / ("" if name == "index" else name) / "index.html").read_text()


@pytest.mark.parametrize("name", GUIDES)
def test_every_guide_shows_pictures_drawn_at_build_time(site: Path, name: str) -> None:
    html = _page(site, name)
    pictures = IMG.findall(html)
    assert pictures, f"{name} has no picture"
    for data in pictures:
        svg = ET.fromstring(base64.b64decode(data))
        assert svg.tag == "{http://www.w3.org/2000/svg}svg" and float(svg.get("width")) > 50
    assert "```picture" not in html


@pytest.mark.parametrize("name", GUIDES)
def test_guides_show_examples_without_doctest_prompts(site: Path, name: str) -> None:
    html = _page(site, name)
    code = " ".join(re.findall(r"<code[^>]*>(.*?)</code>", html, re.S))
    assert "&gt;&gt;&gt;" not in code and "doctest:" not in code and "BLANKLINE" not in code


def test_hooks() -> None:
    hooks = _module("hooks")
    assert doctest.testmod(hooks).failed == 0
    page = "Text.\n\n```picture\nL = cp.Layout(4, 2)\nL\n```\n\n```python\n>>> 1 + 1\n2\n\n```\n"
    out = hooks.on_page_markdown(page)
    assert out.count("<figure") == 1 and "<code>L</code>" in out
    assert "```python\n1 + 1\n# 2\n```" in out
    with pytest.raises(ValueError, match="draws nothing"):
        hooks.draw("1 + 1")


def _console(text: str) -> list[tuple[list[str], list[str]]]:
    """``(argv, expected lines)`` of each ``$ cutepy ...`` line in the ```console blocks."""
    runs: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"^```console\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((shlex.split(line[2:]), []))
            elif runs:
                runs[-1][1].append(line.rstrip())
    return runs


CONSOLE_PAGES = [DOCS / "cli.md", DOCS / "getting-started.md", ROOT / "README.md"]


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=lambda p: p.name)
def test_console_examples_print_what_the_page_says(page: Path, tmp_path: Path, monkeypatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    runs = [(argv, want) for argv, want in _console(page.read_text()) if argv[0] == "cutepy"]
    assert runs or page.name == "getting-started.md"
    for argv, want in runs:
        code = main(argv[1:])
        out, err = capsys.readouterr()
        assert code in (0, 1), (argv, err)
        if want:
            assert [line.rstrip() for line in out.rstrip("\n").splitlines()] == want, argv


API_MODULES = ["cutepy", "cutepy.xla", "cutepy.program", "cutepy.equivalence", "cutepy.symbolic",
               "cutepy.derivation", "cutepy.viz"]


def test_every_public_function_has_an_example_in_the_api_reference(site: Path) -> None:
    _require("griffe")
    inspect_ = importlib.import_module("inspect")
    missing = []
    for module in API_MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not inspect_.isfunction(obj) and name not in ("Layout", "ComposedLayout", "Swizzle"):
                continue
            where = f"{obj.__module__}.{obj.__qualname__}"
            if ">>>" not in (inspect_.getdoc(obj) or ""):
                missing.append(f"{where} ({module}.{name})")
    assert missing == [], f"no example for {missing}: add one to the docstring"
    core = (site / "api" / "core" / "index.html").read_text()
    assert core.count("&gt;&gt;&gt;") >= 30  # the examples reached the built pages
