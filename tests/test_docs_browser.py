"""The built docs site as a reader sees it, in headless Chromium at a 1280 px wide window,
served by a plain file server on 127.0.0.1 with every other host unreachable (offline):
every guide shows a picture, no picture's text is drawn below 9 px, the search box finds
reference entries, code is highlighted with copy buttons, and the playground turns a typed
layout into its picture and its C++ print. Screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chromium import Browser, find_chromium, serve

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="headless Chromium is not installed (apt-get install chromium)")

GUIDES = ["index", "getting-started", "cookbook", "concepts", "algebra", "xla", "programs", "proofs",
          "pictures", "cli", "banks", "kernels", "limits"]
MIN_PX = 9.0

#: Every picture on the page: its data URI (or inline SVG text), natural and drawn width.
_PICTURES = """(() => {
  const out = [];
  for (const img of document.querySelectorAll('.md-content img')) {
    out.push({src: img.getAttribute('src') || '', natural: img.naturalWidth, complete: img.complete,
              shown: img.getBoundingClientRect().width});
  }
  for (const svg of document.querySelectorAll('.md-content svg[viewBox]')) {
    if (svg.closest('.md-icon, .md-clipboard, a, button, label')) continue;
    out.push({svg: svg.outerHTML, natural: parseFloat(svg.getAttribute('width')),
              complete: true, shown: svg.getBoundingClientRect().width});
  }
  return out;
})()"""


@pytest.fixture(scope="module")
def browser(docs_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, str]]:
    with serve(docs_site) as url, Browser(tmp_path_factory.mktemp("chromium")) as b:
        yield b, url


def _smallest_font(svg: str) -> float:
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    return min(sizes, default=MIN_PX)


def _pictures(b: Browser) -> list[dict]:
    pictures = []
    for p in b.eval(_PICTURES):
        if p.get("src", "").startswith("data:image/svg+xml;base64,"):
            p["svg"] = base64.b64decode(p["src"].split(",", 1)[1]).decode()
        if "svg" in p:
            pictures.append(p)
    return pictures


def _page(name: str) -> str:
    return "/" if name == "index" else f"/{name}/"


@pytest.mark.parametrize("name", GUIDES)
def test_every_guide_shows_legible_pictures(browser: tuple[Browser, str], name: str, tmp_path: Path) -> None:
    b, url = browser
    b.goto(url + _page(name))
    b.screenshot(tmp_path / f"{name}.png")
    pictures = _pictures(b)
    assert pictures, f"{name}: no picture"
    for p in pictures:
        assert p["complete"] and p["natural"] > 0 and p["shown"] > 0, (name, {k: p[k] for k in ("natural",
                                                                                               "shown")})
        drawn = _smallest_font(p["svg"]) * p["shown"] / p["natural"]
        assert drawn >= MIN_PX - 0.05, f"{name}: text at {drawn:.1f} px ({p['shown']} of {p['natural']} px)"


def test_notebook_pages_show_their_stored_pictures_legibly(browser: tuple[Browser, str],
                                                           docs_site: Path) -> None:
    b, url = browser
    pages = sorted(p.parent.name for p in (docs_site / "notebooks").glob("*/index.html"))
    assert len(pages) >= 8
    shown = 0
    for name in pages:
        b.goto(f"{url}/notebooks/{name}/")
        for p in _pictures(b):
            shown += 1
            drawn = _smallest_font(p["svg"]) * p["shown"] / p["natural"]
            assert drawn >= MIN_PX - 0.05, f"notebook {name}: text drawn at {drawn:.1f} px"
        # text outputs keep their lines: no wrapping inside a printed table
        assert b.eval("[...document.querySelectorAll('pre.cutepy-output code')].every("
                      "c => getComputedStyle(c).whiteSpace === 'pre')")
    assert shown >= 20


def _zoomed_text_px(b: Browser) -> float:
    """The smallest text of the picture the zoom overlay shows, in screen pixels."""
    z = b.eval("(() => { const i = document.querySelector('.cutepy-zoom img');"
               " return {src: i.getAttribute('src'), shown: i.getBoundingClientRect().width,"
               " natural: i.naturalWidth}; })()")
    svg = base64.b64decode(z["src"].split(",", 1)[1]).decode()
    return _smallest_font(svg) * z["shown"] / z["natural"]


def test_every_small_notebook_picture_opens_legibly(browser: tuple[Browser, str], docs_site: Path) -> None:
    """A picture whose smallest text is drawn under 11 px opens, on a click, scaled up so that
    text is at least 11 px (the issue saw 9 px in notebooks 01 and 02 with no larger view)."""
    b, url = browser
    small = 0
    for name in ("01_layouts", "02_algebra"):
        b.goto(f"{url}/notebooks/{name}/")
        imgs = "document.querySelectorAll('.md-content .cutepy-output-html img')"
        for i in range(b.eval(f"{imgs}.length")):
            src = b.eval(f"{imgs}[{i}].src")
            if not src.startswith("data:image/svg+xml;base64,"):
                continue
            p = b.eval(f"(() => {{ const i = {imgs}[{i}];"
                       " return {shown: i.getBoundingClientRect().width, natural: i.naturalWidth}; })()")
            svg = base64.b64decode(src.split(",", 1)[1]).decode()
            if _smallest_font(svg) * p["shown"] / p["natural"] >= 11:
                continue
            small += 1
            b.eval(f"{imgs}[{i}].click(); 1")
            assert _zoomed_text_px(b) >= 11 - 0.05, (name, i)
            b.eval("document.querySelector('.cutepy-zoom').click(); 1")
    assert small >= 3  # the pictures the issue named are among them


@pytest.mark.parametrize("query", ["Swizzle", "cutepy.Swizzle"])
def test_the_search_box_finds_the_swizzle(browser: tuple[Browser, str], query: str) -> None:
    """A name with many mentions: the reference entry is on the first screen of results."""
    b, url = browser
    b.goto(url + "/")
    b.eval(f"""(() => {{
      const input = document.querySelector('input.md-search__input');
      input.focus(); input.value = {query!r};
      input.dispatchEvent(new Event('input', {{bubbles: true}}));
      input.dispatchEvent(new KeyboardEvent('keyup', {{bubbles: true, key: 'x'}}));
      return 1;
    }})()""")
    b.wait("document.querySelectorAll('a.md-search-result__link').length > 0", 30)
    b.wait("[...document.querySelectorAll('a.md-search-result__link')]"
           ".some(a => a.href.endsWith('#cutepy.Swizzle'))", 10)
    # in the first group of results (cutepy's page); for the bare name, not folded away
    first = b.eval("(() => { const li = document.querySelector('li.md-search-result__item');"
                   " const a = [...li.querySelectorAll('a')].find(x => x.href.endsWith('#cutepy.Swizzle'));"
                   " return a ? (a.closest('details') ? 'folded' : 'shown') : 'absent'; })()")
    assert first == "shown" if query == "Swizzle" else first != "absent", first


@pytest.mark.parametrize("query, anchor", [("idx2crd", "#cutepy.idx2crd"),
                                           ("tiled_mma_svg", "#cutepy.viz.tiled_mma_svg"),
                                           ("find_swizzle", "#cutepy.banks.find_swizzle")])
def test_the_search_box_finds_reference_entries(browser: tuple[Browser, str], query: str,
                                                anchor: str) -> None:
    b, url = browser
    b.goto(url + "/")
    b.eval(f"""(() => {{
      const input = document.querySelector('input.md-search__input');
      input.focus(); input.value = {query!r};
      input.dispatchEvent(new Event('input', {{bubbles: true}}));
      input.dispatchEvent(new KeyboardEvent('keyup', {{bubbles: true, key: 'x'}}));
      return 1;
    }})()""")
    b.wait("document.querySelectorAll('.md-search-result__item a, a.md-search-result__link').length > 0", 30)
    links = b.eval("[...document.querySelectorAll('a.md-search-result__link')].map(a => a.href)")
    assert any(link.endswith(anchor) for link in links), links[:10]


def test_no_page_asks_another_host(browser: tuple[Browser, str]) -> None:
    """Every guide, a notebook page, a reference page and the playground load only from the
    site's own server (Material's repository facts would ask api.github.com)."""
    b, url = browser
    b.send("Network.enable")
    b.events.clear()
    for page in [*(_page(n) for n in GUIDES), "/notebooks/01_layouts/", "/api/core/", "/playground/"]:
        b.goto(url + page, settle=1.0)
    asked = b.requested()
    assert len(asked) > len(GUIDES)  # the pages themselves are seen
    others = sorted({u for u in asked if not u.startswith((url, "data:", "blob:", "about:"))})
    assert others == [], others
    b.send("Network.disable")


def test_code_is_highlighted_with_copy_buttons(browser: tuple[Browser, str]) -> None:
    b, url = browser
    b.goto(url + "/algebra/")
    assert b.eval("document.querySelectorAll('.highlight code span.n, .highlight code span.mi').length") > 20
    assert b.eval("document.querySelectorAll('button[data-md-type=copy], button.md-clipboard').length") > 3


def test_a_wide_picture_opens_full_size_on_click(browser: tuple[Browser, str]) -> None:
    b, url = browser
    b.goto(url + "/kernels/")
    b.eval("document.querySelector('figure.cutepy-picture img').click(); 1")
    assert b.eval("document.querySelectorAll('.cutepy-zoom img').length") == 1
    assert b.eval("(() => { const i = document.querySelector('.cutepy-zoom img');"
                  " return i.getBoundingClientRect().width >= i.naturalWidth - 1; })()")


def test_the_playground_draws_a_typed_layout_offline(browser: tuple[Browser, str], docs_site: Path,
                                                     tmp_path: Path) -> None:
    if not (docs_site / "playground" / "wheels.json").exists():
        pytest.skip("the playground's runtime was not vendored (npm could not fetch Pyodide)")
    b, url = browser
    b.goto(url + "/playground/")
    b.wait("document.body.dataset.playground === 'ready' || "
           "document.getElementById('pg-status').className === 'pg-error'", 180)
    assert b.eval("document.body.dataset.playground") == "ready", b.eval(
        "document.getElementById('pg-status').textContent")
    b.eval("(() => { document.getElementById('pg-kind').value = 'layout';"
           " document.getElementById('pg-text').value = '(4,(2,2)):(2,(1,8))';"
           " document.getElementById('pg-draw').click(); return 1; })()")
    b.wait("document.getElementById('pg-print').textContent.startsWith('(4,(2,2)):(2,(1,8))')")
    import cutepy

    layout = cutepy.parse("(4,(2,2)):(2,(1,8))")
    assert b.eval("document.getElementById('pg-print').textContent") == cutepy.viz.layout_table(layout)
    assert b.eval("document.getElementById('pg-cpp').textContent") == cutepy.emit.cpp(layout)
    svg = b.eval("document.querySelector('#pg-picture svg').outerHTML")
    assert svg.count("<title>cell ") == 16 and ">14<" in svg
    tip = b.eval("(() => { const r = document.querySelectorAll('#pg-picture .cutepy-hover rect')[9];"
                 " r.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
                 " return document.getElementById('pg-hover').textContent; })()")
    assert tip.startswith("cell (2,1)") and f"offset {layout(2, 1)}" in tip
    b.screenshot(tmp_path / "playground.png")
    # a thread-value layout over its tile: thread and value on hover
    b.eval("(() => { document.getElementById('pg-kind').value = 'tv';"
           " document.getElementById('pg-text').value = '((4,8),2):((16,1),8)';"
           " document.getElementById('pg-tile').value = '(16,4)';"
           " document.getElementById('pg-draw').click(); return 1; })()")
    b.wait("document.querySelectorAll('#pg-picture .cutepy-hover rect').length === 64")
    assert "thread 31" in b.eval("document.querySelector('#pg-picture svg').outerHTML")
    lit = b.eval("""(() => {
      const cells = [...document.querySelectorAll('#pg-picture .cutepy-hover rect')];
      const five = cells.find(c => /thread 5 /.test(c.textContent + ' '));
      five.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
      return cells.filter(c => c.getAttribute('fill-opacity') !== '0').map(c => c.textContent);
    })()""")
    assert len(lit) == 2 and all(re.search(r"thread 5(?!\d)", t) for t in lit)  # its two values
    for p in _pictures(b):
        assert _smallest_font(p["svg"]) * p["shown"] / p["natural"] >= MIN_PX - 0.05
    # an XLA shape, without numpy (Pyodide has none): its picture, its report and its CuTe layout
    shape = "bf16[8,1,1280,16384]{3,2,1,0:T(8,128)(2,1)}"
    b.eval(f"(() => {{ document.getElementById('pg-kind').value = 'xla';"
           f" document.getElementById('pg-text').value = {shape!r};"
           " document.getElementById('pg-draw').click(); return 1; })()")
    b.wait("document.getElementById('pg-cpp').textContent.startsWith('(8,1,')", 120)
    assert b.eval("document.getElementById('pg-cpp').textContent") == str(cutepy.xla.to_cute(shape))
    assert b.eval("document.getElementById('pg-status').className") != "pg-error"
    assert "167,772,160 elements agrees" in b.eval("document.getElementById('pg-print').textContent")
    svg = b.eval("document.querySelector('#pg-picture svg').outerHTML")
    assert shape in svg and svg.count("<rect") > 32 * 32
    b.screenshot(tmp_path / "playground_xla.png")
