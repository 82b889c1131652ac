"""cutepy.xla's numpy-free path (what the docs playground runs in Pyodide, which has no numpy):
with numpy unimportable, a shape parses, compiles to CuTe, reports and draws; the picture and
the CuTe layout are the same as with numpy, the report checks XLA's formula one index at a
time; whole-array tables say that they need numpy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cutepy as cp

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ["bf16[8,1,1280,16384]{3,2,1,0:T(8,128)(2,1)}", "f32[3,5]{1,0:T(2,2)}", "bf16[4,8]{1,0:T(2,4)(2,1)}",
          "f32[3,5]{0,1:T(2,2)}", "f32[7]{0:T(4)}", "f32[]", "s8[5,33,3]{2,0,1:T(8,128)(4,1)}",
          "f32[2,3]{1,0:L(8)}", "pred[9,7]{0,1:T(2,2)(2,1)}", "f32[3,5]{1,0:T(*,2)}",
          "f32[300,70]{0,1:T(8,128)}"]

#: run with numpy unimportable: every shape's picture, report and CuTe layout, and what fails how
SCRIPT = r"""
import importlib.abc, json, sys
class NoNumpy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("numpy is blocked")
sys.meta_path.insert(0, NoNumpy())
import cutepy as cp
out = {"shapes": {s: [cp.viz.xla_svg(s), cp.xla.report(s), str(cp.xla.to_cute(s))]
                  for s in json.loads(sys.argv[1])}}
try:
    cp.xla.check_compile(cp.xla.compile_details("f32[3,5]{1,0:T(2,2)}"), "f32[3,5]{0,1:T(2,2)}")
    out["wrong"] = "accepted"
except cp.CutepyError as e:
    out["wrong"] = str(e)
try:
    cp.xla.linear_indices("f32[3,5]")
    out["table"] = "built"
except cp.CutepyError as e:
    out["table"] = str(e)
out["numpy"] = "numpy" in sys.modules
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def without_numpy() -> dict:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(SHAPES)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_the_run_had_no_numpy(without_numpy: dict) -> None:
    assert without_numpy["numpy"] is False


@pytest.mark.parametrize("shape", SHAPES)
def test_picture_and_cute_layout_are_those_with_numpy(without_numpy: dict, shape: str) -> None:
    svg, report, cute = without_numpy["shapes"][shape]
    assert svg == cp.viz.xla_svg(shape)
    assert cute == str(cp.xla.to_cute(shape))
    with_numpy = cp.xla.report(shape).splitlines()
    lines = report.splitlines()
    def rest(xs: list[str]) -> list[str]:
        return [x for x in xs if not x.startswith("verified")]

    assert rest(lines) == rest(with_numpy)
    [verified] = [x for x in lines if x.startswith("verified")]
    assert "agree" in verified and "no numpy" in verified


def test_the_playground_shape_is_checked_on_a_sample(without_numpy: dict) -> None:
    report = without_numpy["shapes"][SHAPES[0]][1]
    assert "a random sample of 4,096 of the 167,772,160 elements agrees" in report
    assert "(8,1,((2,4),160),(128,128)):(20971520,20971520,((1,256),131072),(2,1024))" in report


def test_the_one_by_one_check_finds_a_wrong_layout(without_numpy: dict) -> None:
    assert "disagrees with XLA's formula" in without_numpy["wrong"]


def test_a_whole_table_says_it_needs_numpy(without_numpy: dict) -> None:
    assert "numpy is not installed" in without_numpy["table"]
