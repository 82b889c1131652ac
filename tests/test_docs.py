"""The MkDocs site builds with --strict, and the examples on its pages run."""

from __future__ import annotations

import base64
import doctest
import html as htmllib
import importlib
import importlib.util
import inspect
import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cutepy.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
GUIDES = ["index", "getting-started", "cookbook", "concepts", "algebra", "xla", "programs", "proofs",
          "pictures", "cli", "banks", "analyses", "kernels", "limits"]
IMG = re.compile(r'<figure class="cutepy-picture"><img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"cutepy_docs_{name}", DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def site(docs_site: Path) -> Path:
    """The site, built once per session with --strict (tests/conftest.py)."""
    return docs_site


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:  # the test extra installs it: fail, do not skip
        pytest.fail(f"{module} is not installed; pip install -e '.[test]'", pytrace=False)


def test_site_builds_strict_without_warnings(site: Path) -> None:
    core = (site / "api" / "core" / "index.html").read_text()
    assert ":func:" not in core and "&gt;&gt;&gt;" in core  # roles rewritten, examples kept as code
    assert 'class="highlight"' in core and '"content.code.copy"' in core  # Pygments, copy buttons
    for page in GUIDES[1:]:
        assert (site / page / "index.html").exists()
    for asset in ["assets/javascripts", "assets/stylesheets", "css/cutepy.css", "js/pictures.js"]:
        assert (site / asset).exists(), f"{asset} is not bundled: the site must work offline"
    for html in site.rglob("*.html"):  # nothing is loaded from a CDN
        text = html.read_text()
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="https?://', text), html


def _signature(html: str, ident: str) -> str:
    """The text of the first code block after the entry ``ident``: its signature."""
    start = html.index(f'id="{ident}"')
    after = html[start:start + 20000]
    block = re.search(r"<pre[^>]*>(?:<span></span>)?<code>(.*?)</code></pre>", after, re.S)
    assert block is not None, f"{ident}: no signature"
    return htmllib.unescape(re.sub(r"<[^>]+>", "", block.group(1)))


def test_every_public_name_has_a_typed_reference_entry_the_search_finds(site: Path) -> None:
    """Each name of each module's ``__all__``: an entry on its page, a typed signature (a
    class's is its constructor's), a row of the summary table, and a search hit."""
    reference = _module("reference")
    index = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    found = {d["location"].split("#", 1)[1] for d in index if "#" in d["location"]}
    missing, untyped = [], []
    for m in reference.MODULES:
        html = (site / m.page.replace(".md", "") / "index.html").read_text()
        module = importlib.import_module(m.name)
        entries = reference.entries(m.name)
        assert sorted(n for n, _, _ in entries) == sorted(module.__all__)
        for name, ident, obj in entries:
            if f'id="{ident}"' not in html or ident not in found or f'href="#{ident}"' not in html:
                missing.append(f"{m.name}.{name}")
                continue
            builtin_init = inspect.isclass(obj) and not any("__init__" in vars(c) for c in obj.__mro__
                                                            if c.__module__.startswith("cutepy"))
            if inspect.isfunction(obj) or (inspect.isclass(obj) and not builtin_init):
                sig = _signature(html, ident)
                if f"{name}(" not in sig or ("->" not in sig and ": " not in sig):
                    untyped.append(f"{m.name}.{name}: {sig[:60]!r}")
        for path in m.extra:  # names documented beside the exports (guides' code uses them)
            name = path.rsplit(".", 1)[1]
            if f'id="{path}"' not in html or path not in found:
                missing.append(path)
            elif inspect.isfunction(obj := reference._resolve(path)):
                sig = _signature(html, path)
                if f"{name}(" not in sig or ("->" not in sig and ": " not in sig):
                    untyped.append(f"{path}: {sig[:60]!r}")
    assert missing == [], f"no reference entry (or no search hit) for {missing}"
    assert untyped == [], f"signatures without types: {untyped}"
    extras = {p for m in reference.MODULES for p in m.extra}
    assert {"cutepy.emit.tma.cpp_make_tma_copy", "cutepy.viz.grid.check_cells", "cutepy.viz.tma.tma_box_svg",
            "cutepy.viz.tma.tmem_svg", "cutepy.xla.reference.reference_buffer",
            "cutepy.xla.reference.reference_offsets"} <= extras  # the names the issue found without one


def test_guides_link_the_names_they_mention_to_the_reference(site: Path) -> None:
    html = (site / "banks" / "index.html").read_text()
    assert re.search(r'<a class="autorefs[^"]*"[^>]*href="\.\./api/banks/#cutepy\.banks\.find_swizzle"', html)
    reference = _module("reference")
    assert doctest.testmod(reference).failed == 0


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
    assert not re.search(r"(?:^|\n|>)&gt;&gt;&gt; ", code)  # a prompt, not C++ ">>>{}"
    assert "doctest:" not in code and "BLANKLINE" not in code


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
               "cutepy.derivation", "cutepy.viz", "cutepy.banks", "cutepy.emit"]


def test_every_public_function_has_an_example_in_the_api_reference(site: Path) -> None:
    _require("griffe")
    inspect_ = inspect
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


def test_the_docs_extra_builds_the_site_and_the_test_extra_holds_it() -> None:
    """``pip install -e ".[docs]" && mkdocs build --strict`` needs nothing else (no CUDA wheels);
    the test extra carries the same packages, since the suite builds the site."""
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(extras["docs"]) <= set(extras["test"])
    assert not [d for d in extras["docs"] if d.startswith(("nvidia", "pytest"))]
    assert {"mkdocs-material>=9.5", "mkdocstrings[python]>=0.26"} <= set(extras["docs"])
