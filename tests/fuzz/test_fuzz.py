"""A short seeded fuzz run over every public surface (the long run: benchmarks/fuzz.py).

The run happens once, in a subprocess under a 4 GiB address-space limit (an allocation
bomb becomes a MemoryError there, not a machine out of memory); each surface then
asserts that it saw no crash, hang or wrong answer. ``CUTEPY_FUZZ_N`` scales the run.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.harness import SURFACES

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
N = int(os.environ.get("CUTEPY_FUZZ_N", "1000"))
SEED = int(os.environ.get("CUTEPY_FUZZ_SEED", "11"))



def _limit() -> None:
    b = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (b, b))


@pytest.fixture(scope="module")
def report() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run(
        [sys.executable, str(HERE / "harness.py"), "--n", str(N), "--seed", str(SEED), "--timeout", "5",
         "--json"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, preexec_fn=_limit,
    )
    assert r.stdout.strip(), f"the fuzz run died (exit {r.returncode}): {r.stderr[-2000:]}"
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("surface", SURFACES)
def test_surface_has_no_crash_hang_or_wrong_answer(report: dict, surface: str) -> None:
    c = report["counts"][surface]
    assert c["calls"] > 0, f"the run never reached {surface}"
    found = [f for f in report["findings"] if f["surface"] == surface]
    lines = "\n".join(f"[{f['kind']} x{f['count']}] {f['repro'][:200]} -> {f['detail'][:200]}" for f in found)
    assert c["crash"] + c["hang"] + c["wrong"] == 0, f"{surface}: {c}\n{lines}"
