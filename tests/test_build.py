"""The optional compiled core (cutepy/compiled.py; the command is cutepy/build.py): which core
runs, the refusal of a compiled module older than its source, cleaning, and (slow) a real Cython
build of a copy of the package on which the algebra's properties and doctests pass, with the same
results as the pure modules."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cutepy import CutepyError, build_info
from cutepy import compiled as b

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _fake_package(tmp_path: Path) -> Path:
    """A package folder with the hot modules' sources (their text is all that is read)."""
    root = tmp_path / "cutepy"
    for m in b.HOT_MODULES:
        src = b._source(m, root)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {m}\n")
    return root


def _fake_build(root: Path, modules: tuple = b.HOT_MODULES, manifest: bool = True) -> None:
    for m in modules:
        b._source(m, root).with_suffix(SUFFIX).write_bytes(b"\x7fELF")
    if manifest:
        (root / b.MANIFEST).write_text(json.dumps({m: b._digest(b._source(m, root)) for m in modules}))


def test_build_info_partitions_the_hot_modules() -> None:
    info = build_info()
    assert sorted(info["compiled"] + info["pure"]) == sorted(b.HOT_MODULES)
    assert info["core"] == {0: "pure", len(b.HOT_MODULES): "compiled"}.get(len(info["compiled"]), "mixed")
    assert info["stale"] == []        # cutepy imported, so nothing compiled is stale


def test_a_fake_compiled_core_is_reported_and_cleaned(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    assert b.build_info(root)["core"] == "pure"
    _fake_build(root, b.HOT_MODULES[:3])
    info = b.build_info(root)
    assert info["core"] == "mixed" and info["compiled"] == list(b.HOT_MODULES[:3]) and info["stale"] == []
    b.check_compiled(root)
    _fake_build(root)
    assert b.build_info(root)["core"] == "compiled"
    removed = b.clean(root)
    assert len(removed) == len(b.HOT_MODULES) + 1 and b.build_info(root)["core"] == "pure"


def test_a_compiled_module_older_than_its_source_is_refused(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    _fake_build(root)
    b._source("cutepy.core.layout", root).write_text("# edited since the build\n")
    assert b.build_info(root)["stale"] == ["cutepy.core.layout"]
    with pytest.raises(ImportError,
                       match=r"compiled cutepy\.core\.layout no longer matches its source \(.*build --clean"):
        b.check_compiled(root)


def test_compiled_modules_without_a_manifest_are_stale(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    _fake_build(root, b.HOT_MODULES[:2], manifest=False)
    assert b.build_info(root)["stale"] == list(b.HOT_MODULES[:2])
    with pytest.raises(ImportError, match="inttuple, cutepy.core.tuples no longer match their sources"):
        b.check_compiled(root)


def test_compile_core_refuses_bad_jobs_and_a_missing_cython(tmp_path: Path, monkeypatch) -> None:
    for jobs in (0, -1, 2.0, True, "2"):
        with pytest.raises(CutepyError, match="jobs must be a positive int"):
            b.compile_core(tmp_path, jobs=jobs)
    monkeypatch.setattr(b, "installed", lambda name: name != "Cython")
    with pytest.raises(CutepyError, match=r"Cython is not installed \(pip install 'cutepy\[fast\]'\)"):
        b.compile_core(tmp_path)


def test_the_command_says_which_core_runs() -> None:
    run = subprocess.run([sys.executable, "-m", "cutepy.build", "--info"], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["core"] == build_info()["core"]


@pytest.mark.slow
def test_a_real_build_runs_the_algebra_as_the_pure_modules_do(tmp_path: Path) -> None:
    """Cython builds a copy of the package; on it, seeded results equal the pure modules' word for
    word, and the algebra's fast-path properties and the core's examples pass."""
    shutil.copytree(ROOT / "cutepy", tmp_path / "cutepy",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", b.MANIFEST))
    shutil.copytree(ROOT / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    info = b.compile_core(tmp_path / "cutepy")
    assert info["core"] == "compiled" and info["stale"] == []
    probe = ("import cutepy, random\n"
             "from cutepy import Layout, logical_divide, blocked_product, composition, right_inverse\n"
             "print(cutepy.build_info()['core'], cutepy.core.layout.__file__.endswith('.py'))\n"
             "r = random.Random(5)\n"
             "for f in (logical_divide, blocked_product, composition):\n"
             "    for _ in range(40):\n"
             "        A = Layout((r.randint(1, 8), r.randint(1, 4)), (1, r.randint(1, 9)))\n"
             "        B = Layout((r.randint(1, 4), r.randint(1, 3)), (r.randint(1, 3), r.randint(0, 5)))\n"
             "        try:\n"
             "            print(f(A, B), right_inverse(A))\n"
             "        except cutepy.CutepyError as e:\n"
             "            print(type(e).__name__, e)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    compiled = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                              cwd=tmp_path)
    pure = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT)
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    c_first, c_rest = compiled.stdout.split("\n", 1)
    p_first, p_rest = pure.stdout.split("\n", 1)
    assert (c_first, p_first) == ("compiled False", "pure True") and c_rest == p_rest
    shutil.copy2(ROOT / "conftest.py", tmp_path / "conftest.py")
    run = ("import sys, doctest, importlib, pytest, cutepy; from cutepy.compiled import HOT_MODULES\n"
           "assert cutepy.build_info()['core'] == 'compiled'\n"
           "for m in HOT_MODULES:\n"
           "    mod = importlib.import_module(m); assert not mod.__file__.endswith('.py'), m\n"
           "    assert doctest.testmod(mod, optionflags=doctest.ELLIPSIS).failed == 0, m\n"
           "sys.exit(pytest.main(['-q', '-x', '-p', 'no:cacheprovider', 'tests/algebra/test_fast_paths.py', "
           "'tests/core/test_core_examples.py', 'tests/core/test_evaluate.py', 'cutepy/algebra']))")
    tests = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert tests.returncode == 0, tests.stdout[-2000:] + tests.stderr[-2000:]
