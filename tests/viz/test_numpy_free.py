"""The notation, the algebra and the pictures of layouts (and of TV layouts) run without numpy (as the docs
playground runs them in Pyodide, whose npm package has no numpy)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.paths import ROOT

_SCRIPT = r"""
import importlib.abc, json, sys

class NoNumpy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("numpy is not installed here")

sys.meta_path.insert(0, NoNumpy())
import cutepy as cp
from cutepy.viz import layout_svg, layout_table, show, tv_layout_svg
from cutepy.viz.display import mimebundle

out = {}
for text in ["(4,8):(8,1)", "Sw<3,3,3> o (8,64):(64,1)", "((2,2),(2,4)):((1,8),(2,16))", "(100,100):(1,100)"]:
    L = cp.parse(text)
    out[text] = [layout_svg(L), layout_table(L), mimebundle(L)["text/html"]]
out["swizzle"] = show(cp.Swizzle(3, 3, 3)).svg
out["tiler"] = show(cp.parse("<2:1,4:1>")).svg
out["tv"] = tv_layout_svg(cp.parse("((4,8),2):((16,1),8)"), (16, 4), hover=True)
out["algebra"] = str(cp.logical_divide(cp.parse("(8,8):(8,1)"), cp.parse("<2:1,4:1>")))
out["numpy"] = "numpy" in sys.modules
print(json.dumps(out))
"""


def test_layout_pictures_and_tables_need_no_numpy() -> None:
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got.pop("numpy") is False
    import cutepy as cp  # the same pictures and tables with numpy loaded here: identical
    from cutepy.viz import layout_svg, layout_table, show, tv_layout_svg
    from cutepy.viz.display import mimebundle

    assert got.pop("algebra") == str(cp.logical_divide(cp.parse("(8,8):(8,1)"), cp.parse("<2:1,4:1>")))
    assert got.pop("swizzle") == show(cp.Swizzle(3, 3, 3)).svg
    assert got.pop("tiler") == show(cp.parse("<2:1,4:1>")).svg
    assert got.pop("tv") == tv_layout_svg(cp.parse("((4,8),2):((16,1),8)"), (16, 4), hover=True)
    for text, (svg, table, html) in got.items():
        L = cp.parse(text)
        assert svg == layout_svg(L) and table == layout_table(L) and html == mimebundle(L)["text/html"]
