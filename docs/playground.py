"""MkDocs hook: the playground's runtime, vendored into the built site.

After the build it copies into ``site/playground/``:

- ``pyodide/``: Pyodide's core from the npm registry (``npm pack pyodide@VERSION``, cached
  in ``~/.cache/cutepy-docs``), so the page runs Python with no network;
- ``wheels/``: a pure-Python wheel of this checkout's cutepy (built now, so the playground
  runs the cutepy being documented) and the sympy and mpmath wheels (``pip download``,
  cached), with ``wheels.json`` listing them.

Nothing of this is committed. Where npm or pip cannot fetch (no network, no npm), the site
still builds: the log says so and the page tells its reader how to build it. The page
(``docs/playground.md``, ``docs/js/playground.js``) unpacks the wheels into Pyodide and
draws with ``cutepy.viz``, whose layout pictures need no numpy (Pyodide's core has none).
``tests/test_docs_browser.py`` checks it in headless Chromium against a plain file server.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = "314.0.7"  # its Python (3.14) runs cutepy's pure-Python wheel
#: Files of the npm package the page loads (the rest are sources maps, types, demos).
RUNTIME = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
           "pyodide-lock.json", "package.json")
WHEELS = ("sympy", "mpmath")
CACHE = Path(os.environ.get("CUTEPY_DOCS_CACHE", Path.home() / ".cache" / "cutepy-docs"))

log = logging.getLogger("mkdocs.plugins.cutepy.playground")


def pyodide_runtime(cache: Path = CACHE) -> Path:
    """The unpacked npm package ``pyodide@PYODIDE`` (fetched once with ``npm pack``)."""
    folder = cache / f"pyodide-{PYODIDE}"
    if all((folder / f).exists() for f in RUNTIME):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", tmp, "--silent"],
                       check=True, capture_output=True, timeout=600)
        (tgz,) = Path(tmp).glob("pyodide-*.tgz")
        with tarfile.open(tgz) as tar:
            part = folder.with_suffix(".part")
            shutil.rmtree(part, ignore_errors=True)
            part.mkdir(parents=True)
            for member in tar.getmembers():
                name = member.name.removeprefix("package/")
                if member.isfile() and name in RUNTIME:
                    src = tar.extractfile(member)
                    assert src is not None
                    (part / name).write_bytes(src.read())
        shutil.rmtree(folder, ignore_errors=True)
        part.rename(folder)
    return folder


def dependency_wheels(cache: Path = CACHE) -> list[Path]:
    """sympy's and mpmath's pure-Python wheels (``pip download``, cached)."""
    folder = cache / "wheels"
    found = [next(iter(sorted(folder.glob(f"{name}-*-py3-none-any.whl"))), None) for name in WHEELS]
    if all(found):
        return [p for p in found if p is not None]
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--dest", str(folder), *WHEELS], check=True, capture_output=True, timeout=600)
    return [sorted(folder.glob(f"{name}-*-py3-none-any.whl"))[-1] for name in WHEELS]


def cutepy_wheel(dest: Path) -> Path:
    """A pure-Python wheel of this checkout's cutepy (its ``cutepy/`` sources and ``py.typed``),
    written into ``dest`` with its metadata and RECORD, as ``pip wheel`` would build it."""
    text = (ROOT / "cutepy" / "__init__.py").read_text()
    found = re.search(r"^__version__\s*=\s*[\"']([^\"']+)[\"']", text, re.M)
    version = found.group(1) if found else "0"
    info = f"cutepy-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted((ROOT / "cutepy").rglob("*")):
        source = path.suffix == ".py" or path.name == "py.typed"
        if path.is_file() and source and "__pycache__" not in path.parts:
            files[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    files[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: cutepy\nVersion: {version}\n"
                                 "Requires-Python: >=3.10\nRequires-Dist: numpy>=1.24\n"
                                 "Requires-Dist: sympy>=1.12\n").encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: cutepy-docs\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    wheel = dest / f"cutepy-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def vendor(site: Path) -> list[str]:
    """Copy the runtime and the wheels under ``site/playground``; the wheel names."""
    target = site / "playground"
    runtime = pyodide_runtime()
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in RUNTIME:
        shutil.copy2(runtime / name, target / "pyodide" / name)
    wheels = target / "wheels"
    wheels.mkdir(exist_ok=True)
    names = [cutepy_wheel(wheels).name]
    for wheel in dependency_wheels():
        names.append(Path(shutil.copy2(wheel, wheels / wheel.name)).name)
    (target / "wheels.json").write_text(json.dumps({"pyodide": PYODIDE, "wheels": names}, indent=1))
    return names


def on_post_build(config: Any, **_: Any) -> None:
    """MkDocs hook: vendor the playground's runtime into the built site."""
    try:
        names = vendor(Path(config["site_dir"]))
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        detail = getattr(e, "stderr", b"") or b""
        log.info("playground: Pyodide not vendored (%s %s); the page will say so",
                 e, detail.decode(errors="replace")[:200])
        return
    log.info("playground: Pyodide %s and %s vendored", PYODIDE, ", ".join(names))
