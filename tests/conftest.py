"""Shared test settings: a CI profile with a bounded example count per property."""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.cxx import cxx_harness

settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,  # a seeded sample: the same examples every run (profile "dev" varies them)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("CUTEPY_HYPOTHESIS_PROFILE", "ci"))

# tests/ has no __init__.py: make its helper modules (cxx_harness) importable from every test
# directory, tests/cxx/ and tests/peers/ included


@pytest.fixture(autouse=True)
def _certified_proofs():
    """Every symbolic "equivalent" the suite gets is certified by isl or z3 where installed
    (cutepy.equivalence.certificate); a refuted certificate fails the test that asked."""
    from cutepy.equivalence.certificate import certifying, procedures

    if not procedures():
        yield
        return
    with certifying():
        yield


@pytest.fixture(scope="session")
def cxx():
    """The C++ CuTe harness (tests/cxx/cxx_harness.py); skips, with the reason, where C++ is unusable."""
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        pytest.skip(f"C++ CuTe reference unavailable: {reason}")
    return cxx_harness


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory: pytest.TempPathFactory):
    """The docs site, built once with ``mkdocs build --strict``; the build log holds no warning.
    (The playground's runtime is vendored when npm can fetch Pyodide; see docs/playground.py.)"""
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path

    import cutepy

    if cutepy.build_info()["core"] != "pure":  # CI and a fresh checkout build it from the pure core
        pytest.skip("mkdocstrings documents the pure sources; with the compiled core in place "
                    "(python -m cutepy.build) build the site after python -m cutepy.build --clean")
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module) is None:  # the docs extra installs it: fail, do not skip
            pytest.fail(f"{module} is not installed; pip install -e '.[docs]'", pytrace=False)
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "WARNING" not in log, log
    return out


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.slow`` tests run only when asked: ``-m slow`` or ``CUTEPY_SLOW=1``."""
    if config.option.markexpr or os.environ.get("CUTEPY_SLOW"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
