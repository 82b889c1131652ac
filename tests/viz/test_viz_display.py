"""Rich display (cutepy/viz/display.py): three forms of every picture, a cell budget, and a
real browser showing the picture of an executed, untrusted notebook."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cutepy
from cutepy.viz.display import CELL_COLS, mimebundle
from tests.paths import ROOT

MIMES = ["image/svg+xml", "text/html", "text/plain"]
IMG = re.compile(r'^<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)" alt="[^"]*" width="\d+" '
                 r'style="width:clamp\(\d+px,100%,\d+px\);max-width:none;height:auto"/>'
                 r'(<script>.*</script>)?$', re.S)


def _drawables() -> list:
    xla = cutepy.xla.parse_shape("bf16[4,8]{1,0:T(2,4)(2,1)}")
    return [
        cutepy.Layout((4, 8), (8, 1)),
        cutepy.parse("Sw<3,0,3> o 0 o (8,8):(8,1)"),
        cutepy.Swizzle(3, 4, 3),
        (cutepy.Layout(3, 4), cutepy.Layout(8, 2)),
        xla,
        cutepy.viz.show(cutepy.Layout(4, 1)),
    ]


@pytest.mark.parametrize("obj", _drawables(), ids=lambda o: type(o).__name__)
def test_every_drawable_has_text_svg_and_an_img_of_the_same_svg(obj) -> None:
    bundle = mimebundle(obj)
    assert sorted(bundle) == MIMES
    assert bundle["image/svg+xml"].startswith("<svg")
    m = IMG.match(bundle["text/html"])
    assert m, bundle["text/html"][:200]
    assert base64.b64decode(m.group(1)).decode() == bundle["image/svg+xml"]
    assert bundle["text/plain"]


def test_text_form_is_the_cpp_table() -> None:
    # C++ print_layout of (2,3):(3,1), as CuTe prints it
    cpp = ("(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  | 0 | 1 | 2 |\n"
           "    +---+---+---+\n 1  | 3 | 4 | 5 |\n    +---+---+---+")
    assert mimebundle(cutepy.Layout((2, 3), (3, 1)))["text/plain"] == cpp


def test_a_swizzle_picture_permutes_chunks() -> None:
    text = mimebundle(cutepy.Swizzle(3, 4, 3))["text/plain"]
    rows = [line for line in text.splitlines() if line.strip()[:1].isdigit() and "|" in line]
    second = [int(v) for v in rows[1].split("|")[1:-1]]
    assert second == [9, 8, 11, 10, 13, 12, 15, 14]  # row 1 XORs chunk numbers with 1


def test_big_layouts_elide_to_the_cell_budget_and_say_so() -> None:
    bundle = mimebundle(cutepy.Layout((4096, 4096), (4096, 1)))
    assert f"showing {CELL_COLS} of 4096 rows and {CELL_COLS} of 4096 columns" in bundle["image/svg+xml"]
    assert "elided: rows 8..4087 of 4096, columns 8..4087 of 4096" in bundle["text/plain"]
    assert len(bundle["text/plain"]) < 8_000 and len(bundle["image/svg+xml"]) < 300_000


def test_huge_layouts_draw_without_allocating_per_element() -> None:
    bundle = mimebundle(cutepy.Layout((100000, 100000), (100000, 1)))
    assert sorted(bundle) == MIMES and "of 100000 rows" in bundle["image/svg+xml"]


def test_undrawable_layouts_fall_back_to_text_and_other_objects_to_nothing() -> None:
    n = cutepy.symbols("n")
    sym = cutepy.Layout((n, 4), (4, 1)) if not isinstance(n, tuple) else cutepy.Layout((n[0], 4), (4, 1))
    assert mimebundle(sym) == {"text/plain": str(sym)}
    assert mimebundle(3.5) == {} and mimebundle((1.5, "x")) == {} and mimebundle("4:1") == {}


def test_ipython_shows_the_bundle() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        cutepy._register_display()
        data, _ = shell.display_formatter.format(cutepy.Layout((2, 2), (1, 2)))
        assert sorted(data) == MIMES and data["text/plain"].startswith("(2,2):(1,2)\n")
    finally:
        InteractiveShell.clear_instance()


# -- a real browser ---------------------------------------------------------------------------


def _chromium() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


CELLS = [
    "import cutepy",
    "cutepy.Layout((4096, 4096), (4096, 1))",  # wider than the cell: must scale down
    "cutepy.parse('Sw<3,0,3> o 0 o (8,8):(8,1)')",
    "cutepy.xla.parse_shape('bf16[4,8]{1,0:T(2,4)(2,1)}')",
]

#: Appended to the exported page: records each output image's state where --dump-dom shows it.
PROBE = """<script>
window.addEventListener('load', () => {
  // an <img>, or the inline SVG a trusted view (scripts run, as in nbconvert's HTML) makes of it
  const pics = [...document.querySelectorAll(
    '.jp-OutputArea-output img, .output_html img, .cutepy-live svg')];
  const seen = pics.map(i => ({complete: i.tagName === 'svg' || i.complete,
                               natural: i.tagName === 'svg' ? parseFloat(i.getAttribute('width'))
                                                            : i.naturalWidth,
                               shown: i.getBoundingClientRect().width,
                               floor: parseFloat((/clamp\\((\\d+)px/.exec(i.getAttribute('style') || '')
                                                  || [0, 0])[1]),
                               cell: i.closest('.jp-OutputArea-output, .output_area').clientWidth}));
  document.body.setAttribute('data-probe', JSON.stringify(seen));
});
</script>"""


def _execute(cells: list[str]):
    import nbclient
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        client.execute()
    return nb


@pytest.fixture(scope="module")
def executed():
    """The notebook of CELLS run once by a real kernel, shared by the browser tests."""
    return _execute(CELLS)


def _probe(chromium: str, page: Path, tmp_path: Path, width: int = 800) -> list[dict]:
    cmd = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},900",
           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=30000", "--dump-dom",
           page.as_uri()]
    dom = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout
    m = re.search(r"data-probe=\"([^\"]*)\"", dom)
    assert m, "the probe did not run"
    return json.loads(m.group(1).replace("&quot;", '"'))


@pytest.mark.skipif(_chromium() is None, reason="headless Chromium is not installed")
def test_untrusted_notebook_exported_to_html_shows_sized_pictures(tmp_path: Path, executed) -> None:
    try:  # the test extra installs it: a missing one is a failure, not a skip
        from nbconvert import HTMLExporter
    except ImportError:
        pytest.fail("nbconvert is not installed: pip install -e '.[test]'", pytrace=False)

    nb = executed
    assert not nb.metadata.get("signature")  # never signed: an untrusted notebook
    # nbconvert's own --sanitize-html keeps only PNG/JPEG (bleach's default tags, no <img>);
    # the default export shows text/html first, as JupyterLab does
    body, _ = HTMLExporter().from_notebook_node(nb)
    page = tmp_path / "nb.html"
    page.write_text(body.replace("</body>", PROBE + "</body>"))
    seen = _probe(_chromium(), page, tmp_path)
    assert len(seen) == 3, seen  # one picture per drawing cell, kept by the sanitizer
    for img in seen:
        assert img["complete"] and img["natural"] > 100, img  # the SVG decoded into an image
        assert 0 < img["shown"] <= img["natural"] + 0.5, img  # never enlarged
        # shrunk to its cell, or only as far as its smallest text stays 9 px high (then it scrolls)
        assert img["shown"] <= img["cell"] + 0.5 or abs(img["shown"] - img["floor"]) <= 0.5, img
    wide = seen[0]
    assert wide["natural"] > wide["cell"] and wide["shown"] < wide["natural"], wide  # scaled down


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(_chromium() is None, reason="headless Chromium is not installed")
def test_untrusted_notebook_in_jupyterlab_shows_the_img(tmp_path: Path, executed) -> None:
    pytest.importorskip("jupyterlab", reason="JupyterLab is not installed (pip install jupyterlab)")
    import time
    import urllib.request

    import nbformat

    folder = tmp_path / "nb"
    folder.mkdir()
    nbformat.write(executed, folder / "nb.ipynb")  # executed here, never signed: untrusted there
    settings = tmp_path / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # every cell rendered into the DOM, not only those in view
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
           "JUPYTER_DATA_DIR": str(tmp_path / "data"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", "--IdentityProvider.token=", "--ServerApp.password=",
         f"--ServerApp.root_dir={folder}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/lab"
        for _ in range(120):
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start in 60 s")
        cmd = [_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1200",
               f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=30000", "--dump-dom",
               f"{url}/tree/nb.ipynb"]
        dom = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Notebook not trusted" in dom  # JupyterLab's status bar
    imgs = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"([^>]*)>', dom)
    assert len(imgs) == 3, "the sanitizer dropped a picture"
    for data, attrs in imgs:
        assert base64.b64decode(data).startswith(b"<svg")
        # the sanitizer keeps the style, or drops it and the picture shows at its natural size
        assert "max-width:100%" not in attrs and ("max-width:none" in attrs or "style=" not in attrs)


@given(st.integers(0, 1000), st.sampled_from([(4, 8), (2, 3), (8,)]))
def test_a_tensor_picture_shows_its_elements_as_cxx_print_tensor(offset, shape):
    # C++'s print_tensor prints tensor(c) = engine[offset + layout(c)], not layout(c)
    L = cutepy.make_layout(shape, cutepy.LayoutRight)
    data = np.arange(offset + L.cosize()) * 3 + 1
    for T in (cutepy.Tensor(None, L, offset), cutepy.Tensor(data, L, offset)):
        svg = mimebundle(T)["image/svg+xml"]
        for i in range(L.size()):
            assert f">{T(i)}<" in svg


def test_a_sliced_coordinate_tensor_shows_its_coordinates():
    S = cutepy.make_identity_tensor((4, 8))(None, 3)
    svg = mimebundle(S)["image/svg+xml"]
    assert all(f"({m},3)" in svg for m in range(4)) and "(0,0)" not in svg
