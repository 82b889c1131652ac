"""A picture's ``text/html`` in a browser: where scripts run (a trusted notebook) it becomes an
inline SVG whose cells answer hovering, and hovering a thread's cell highlights that thread
across A, B and C of a TiledMMA; where they do not (an untrusted notebook) the ``<img>`` stays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cutepy.kernels.atoms import mma_atom
from cutepy.viz.display import mimebundle
from tests.chromium import Browser, find_chromium, serve

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="headless Chromium is not installed")


def _page(folder: Path) -> Path:
    html = mimebundle(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))["text/html"]
    page = f"<!doctype html><html><body><div class='out'>{html}</div></body></html>"
    (folder / "index.html").write_text(page)
    return folder


def test_trusted_pictures_answer_hovering_and_highlight_a_thread(tmp_path: Path) -> None:
    with serve(_page(tmp_path)) as url, Browser(tmp_path / "profile") as b:
        b.goto(url + "/")
        assert b.eval("document.querySelectorAll('.out img').length") == 0
        titles = b.eval("[...document.querySelectorAll('.cutepy-live .cutepy-hover rect')]"
                        ".map(r => r.textContent)")
        assert len(titles) == 16 * 16 + 16 * 8 + 8 * 16  # A (16x16), B (16x8), C (16x8): every cell
        lit = b.eval("""(() => {
          const cells = [...document.querySelectorAll('.cutepy-live .cutepy-hover rect')];
          const r = cells.find(c => / thread 5 /.test(c.textContent + ' '));
          r.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
          return cells.filter(c => c.getAttribute('fill-opacity') !== '0').map(c => c.textContent);
        })()""")
        want = [t for t in titles if re.search(r"thread 5(?!\d)", t)]
        assert sorted(lit) == sorted(want) and len(want) == 8 + 4 + 4  # its A, B and C values


def test_untrusted_pictures_keep_the_img(tmp_path: Path) -> None:
    with serve(_page(tmp_path)) as url, Browser(tmp_path / "profile") as b:
        b.send("Emulation.setScriptExecutionDisabled", {"value": True})
        b.goto(url + "/")
        assert b.eval("document.querySelectorAll('.out img').length") == 1
        assert b.eval("document.querySelector('.out img').naturalWidth") > 100
