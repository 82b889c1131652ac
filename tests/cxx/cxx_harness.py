"""Run C++ CuTe snippets with g++ and collect what each one prints: the reference for cutepy.

Each case is a C++ statement block that prints through ``cute::print`` / ``printf``. The
harness puts every case in its own function, wraps its output in markers, batches up to
``CUTEPY_CXX_BATCH`` (default 200) cases into one translation unit and compiles the units
two at a time (``CUTEPY_CXX_JOBS``) with ``g++ -std=c++17 -O0``. The include directories
come from the installed wheels (nvidia-cutlass, nvidia-cuda-cccl-cu12,
nvidia-cuda-runtime-cu12, nvidia-cuda-nvcc-cu12), located through ``importlib.metadata``;
``CUTEPY_CXX_CUTLASS`` names another CUTLASS include directory in place of the
nvidia-cutlass wheel's (``/work/cutlass47/include`` for CUTLASS 4.7.0: PyPI stops at 4.2),
``CUTEPY_CXX_INCLUDE`` (os.pathsep-separated) replaces them all, ``CXX`` names the compiler.

A unit's result (compiler and program output) is cached under ``$CUTEPY_CXX_CACHE``
(default ``~/.cache/cutepy-cxx``) by the sha256 of its source, the compiler's version and
CUTLASS's version, so a seeded run compiles only once per machine.

A unit that does not compile is split: the cases the diagnostics point at (by line or by
function name) get ``ok=False`` and the error text, the rest are compiled again; when the
diagnostics name no case, the unit is bisected. A case that C++ rejects at compile time
(a ``static_assert``) is a result, not a crash. A case that crashes at run time gets
``ok=False`` too and the cases after it run again in a unit of their own.

Usage (tests import it from the tests package: ``from tests.cxx import cxx_harness``)::

    from tests.cxx import cxx_harness
    reason = cxx_harness.compiler_reason()      # None when C++ is usable
    [r] = cxx_harness.run_cases(["print(make_layout(Int<4>{}));"])
    r.ok, r.output                              # True, '_4:_1'
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DEFAULT_INCLUDES = ("cute/layout.hpp", "cute/layout_composed.hpp", "cute/swizzle_layout.hpp")
FLAGS = ("-std=c++17", "-O0", "-w")
COMPILE_TIMEOUT_S = 900
RUN_TIMEOUT_S = 120

# (distribution, directory inside it) holding the headers `#include <cute/layout.hpp>` needs
_HEADER_WHEELS = (
    ("nvidia-cutlass", "cutlass_library/source/include"),
    ("nvidia-cuda-cccl-cu12", "nvidia/cuda_cccl/include"),
    ("nvidia-cuda-runtime-cu12", "nvidia/cuda_runtime/include"),
    ("nvidia-cuda-nvcc-cu12", "nvidia/cuda_nvcc/include"),
)

_BEGIN = "@@cutepy<{}@@"
_END = "@@cutepy>{}@@"
_MARK = re.compile(r"@@cutepy([<>])(\d+)@@")


@dataclass(frozen=True)
class CaseResult:
    """What one case did: ``ok`` and its printed ``output``, or ``ok=False`` and ``error``."""

    source: str
    ok: bool
    output: str = ""
    error: str = ""


def _compiler() -> str:
    return os.environ.get("CXX", "g++")


def include_dirs() -> tuple[list[Path], list[str]]:
    """The include directories found, and a note for each one that is missing."""
    override = os.environ.get("CUTEPY_CXX_INCLUDE")
    if override:
        dirs = [Path(p) for p in override.split(os.pathsep) if p]
        return dirs, [f"{d} (from CUTEPY_CXX_INCLUDE) does not exist" for d in dirs if not d.is_dir()]
    found, missing = [], []
    cutlass = os.environ.get("CUTEPY_CXX_CUTLASS")
    for dist, rel in _HEADER_WHEELS:
        if cutlass and dist == "nvidia-cutlass":
            found.append(Path(cutlass))
            if not Path(cutlass).is_dir():
                missing.append(f"{cutlass} (from CUTEPY_CXX_CUTLASS) does not exist")
            continue
        try:
            path = Path(str(importlib.metadata.distribution(dist).locate_file(rel)))
        except importlib.metadata.PackageNotFoundError:
            missing.append(f"wheel {dist} is not installed")
            continue
        if path.is_dir():
            found.append(path)
        else:
            missing.append(f"{path} (from {dist}) does not exist")
    return found, missing


@lru_cache(maxsize=1)
def _versions() -> str:
    """Compiler and CUTLASS versions: part of every cache key."""
    try:
        cxx = subprocess.run([_compiler(), "--version"], capture_output=True, text=True,
                             timeout=60).stdout.splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        cxx = "unknown"
    try:  # the headers' own hash below tells other CUTLASS versions apart
        cutlass = importlib.metadata.version("nvidia-cutlass")
    except importlib.metadata.PackageNotFoundError:
        cutlass = "unknown"
    dirs, _ = include_dirs()
    layout_hpp = [d / "cute" / "layout.hpp" for d in dirs if (d / "cute" / "layout.hpp").is_file()]
    header_hash = hashlib.sha256(layout_hpp[0].read_bytes()).hexdigest() if layout_hpp else "none"
    return f"{cxx}\0{cutlass}\0{header_hash}\0{' '.join(FLAGS)}"


_VERSION_FIELD = re.compile(r"#define\s+CUTLASS_(MAJOR|MINOR|PATCH)\s+(\d+)")


def cutlass_version() -> str | None:
    """The version of the CUTLASS headers in use (``"4.7.0"``), read from the first
    ``cutlass/version.h`` on the include path, or None when there is none."""
    dirs, _ = include_dirs()
    for d in dirs:
        header = d / "cutlass" / "version.h"
        if header.is_file():
            fields = dict(_VERSION_FIELD.findall(header.read_text(errors="replace")))
            if len(fields) == 3:
                return f"{fields['MAJOR']}.{fields['MINOR']}.{fields['PATCH']}"
    return None


def cache_dir() -> Path:
    return Path(os.environ.get("CUTEPY_CXX_CACHE") or Path.home() / ".cache" / "cutepy-cxx")


@lru_cache(maxsize=1)
def compiler_reason() -> str | None:
    """Why C++ CuTe cannot be used here (no compiler, no headers, a broken toolchain), or None."""
    if shutil.which(_compiler()) is None:
        return f"no C++ compiler: {_compiler()!r} is not on PATH (set CXX or install g++)"
    dirs, missing = include_dirs()
    if missing:
        return "C++ CuTe headers not found (pip install cutepy[test]): " + "; ".join(missing)
    if not any((d / "cute" / "layout.hpp").is_file() for d in dirs):
        return "C++ CuTe headers not found: no cute/layout.hpp in " + ", ".join(map(str, dirs))
    [probe] = run_cases(['print(make_layout(make_shape(Int<2>{}, Int<3>{})));'])
    if not probe.ok or probe.output != "(_2,_3):(_1,_2)":
        return f"C++ CuTe does not compile here: {(probe.error or probe.output)[:500]}"
    return None


def _source(cases: list[tuple[int, str]], includes: tuple[str, ...], preamble: str,
            defines: tuple[str, ...] = ()) -> tuple[str, dict[int, tuple[int, int]]]:
    """The unit's text and, per case, the range of lines its body occupies."""
    lines = [f"#define {d}" for d in defines] + [f"#include <{h}>" for h in includes]
    lines += ["#include <cstdio>", "using namespace cute;"]
    lines += preamble.splitlines()
    spans = {}
    for ident, body in cases:
        lines.append(f"static void cutepy_case_{ident}() {{")
        first = len(lines) + 1
        lines += body.splitlines() or [""]
        spans[ident] = (first - 1, len(lines) + 1)
        lines.append("}")
    lines.append("int main() {")
    for ident, _ in cases:
        lines.append(f'  std::printf("{_BEGIN.format(ident)}"); cutepy_case_{ident}(); '
                     f'std::printf("{_END.format(ident)}"); std::fflush(stdout);')
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines), spans


def _build_and_run(source: str) -> dict:
    """Compile and run one unit, through the cache."""
    key = hashlib.sha256(f"{source}\0{_versions()}".encode()).hexdigest()
    path = cache_dir() / f"{key}.json"
    if path.is_file():
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            pass
    dirs, _ = include_dirs()
    with tempfile.TemporaryDirectory(prefix="cutepy-cxx-") as tmp:
        cpp, exe = Path(tmp) / "case.cpp", Path(tmp) / "case"
        cpp.write_text(source)
        cmd = [_compiler(), *FLAGS, *(f"-I{d}" for d in dirs), str(cpp), "-o", str(exe)]
        env = dict(os.environ, LC_ALL="C", LANG="C")
        try:
            comp = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S, env=env)
            record = {"compiled": comp.returncode == 0, "diagnostics": comp.stderr.replace(tmp + "/", "")}
        except subprocess.TimeoutExpired:
            record = {"compiled": False, "diagnostics": f"compiler timed out after {COMPILE_TIMEOUT_S} s"}
        if record["compiled"]:
            try:
                run = subprocess.run([str(exe)], capture_output=True, timeout=RUN_TIMEOUT_S)
                record |= {"returncode": run.returncode,
                           "stdout": run.stdout.decode(errors="replace"),
                           "stderr": run.stderr.decode(errors="replace")[-4000:]}
            except subprocess.TimeoutExpired as exc:
                out = exc.stdout.decode(errors="replace") if exc.stdout else ""
                record |= {"returncode": -9, "stdout": out, "stderr": f"timed out after {RUN_TIMEOUT_S} s"}
    if "timed out" not in record.get("diagnostics", "") + record.get("stderr", ""):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp_path = path.with_suffix(f".{os.getpid()}.tmp")
        tmp_path.write_text(json.dumps(record))
        os.replace(tmp_path, path)
    return record


_LOCATION = re.compile(r"case\.cpp:(\d+):")
_FUNCTION = re.compile(r"cutepy_case_(\d+)\b")


def _blame(diagnostics: str, spans: dict[int, tuple[int, int]]) -> dict[int, list[str]]:
    """Which cases the compiler's diagnostics point at, with the error lines for each.

    The diagnostics are cut into groups, each ending with its ``error:`` line and the notes
    after it; a group belongs to every case whose lines or function name it mentions.
    """
    groups: list[list[str]] = []
    current: list[str] = []
    for line in diagnostics.splitlines():
        starts_new = current and " error: " in "\n".join(current) and not (
            line.startswith(" ") or " note: " in line)
        if starts_new:
            groups.append(current)
            current = []
        current.append(line)
    if current:
        groups.append(current)
    blamed: dict[int, list[str]] = {}
    function = None
    for group in groups:
        idents = set()
        for line in group:
            m = _FUNCTION.search(line)
            if m and "In function" in line:
                function = int(m.group(1))
            for m in _LOCATION.finditer(line):
                n = int(m.group(1))
                idents |= {i for i, (a, b) in spans.items() if a <= n <= b}
            idents |= {int(m.group(1)) for m in _FUNCTION.finditer(line) if int(m.group(1)) in spans}
        if not idents and function is not None and any(" error: " in line for line in group):
            idents = {function}
        errors = [re.sub(r"^.*?/include/", "", line.strip()) for line in group if " error: " in line]
        for ident in idents:
            blamed.setdefault(ident, []).extend(errors or [group[-1].strip()])
    return blamed


def _run_unit(cases: list[tuple[int, str]], includes: tuple[str, ...], preamble: str,
              defines: tuple[str, ...] = ()) -> dict[int, CaseResult]:
    if not cases:
        return {}
    source, spans = _source(cases, includes, preamble, defines)
    record = _build_and_run(source)
    bodies = dict(cases)
    results: dict[int, CaseResult] = {}
    if not record["compiled"]:
        diagnostics = record["diagnostics"]
        if len(cases) == 1:
            ident = cases[0][0]
            blamed = _blame(diagnostics, spans).get(ident)
            text = "\n".join(blamed) if blamed else diagnostics[-4000:]
            return {ident: CaseResult(bodies[ident], False, error=text)}
        blamed = _blame(diagnostics, spans)
        if blamed:
            for ident, errors in blamed.items():
                results[ident] = CaseResult(bodies[ident], False, error="\n".join(errors))
            rest = [(i, b) for i, b in cases if i not in blamed]
            return results | _run_unit(rest, includes, preamble, defines)
        half = len(cases) // 2
        return (_run_unit(cases[:half], includes, preamble, defines)
                | _run_unit(cases[half:], includes, preamble, defines))
    out = record["stdout"]
    pos, started = 0, None
    for m in _MARK.finditer(out):
        ident = int(m.group(2))
        if m.group(1) == "<":
            started, pos = ident, m.end()
        elif started == ident:
            results[ident] = CaseResult(bodies[ident], True, output=out[pos:m.start()])
            started = None
    if len(results) < len(cases):
        # the program stopped early: blame the case that began and did not end, rerun the rest
        order = [i for i, _ in cases]
        crashed = started if started is not None else next(i for i in order if i not in results)
        why = f"the program stopped (exit {record['returncode']}): {record['stderr'][-2000:]}"
        results[crashed] = CaseResult(bodies[crashed], False, output=out[pos:] if started is not None else "",
                                      error=why)
        rest = [(i, b) for i, b in cases if i not in results]
        results |= _run_unit(rest, includes, preamble, defines)
    return results


def run_cases(cases: list[str], includes: tuple[str, ...] = DEFAULT_INCLUDES,
              preamble: str = "", keys: list | None = None, defines: tuple[str, ...] = ()
              ) -> list[CaseResult]:
    """Compile and run every case; one CaseResult per case, in order.

    ``includes`` are the headers each unit includes (``using namespace cute;`` follows them),
    ``preamble`` is C++ text placed after them (helpers the cases share); ``defines`` are
    macros (``NAME`` or ``NAME value``) defined before the includes. Cases with different
    ``keys`` never share a unit: put the cases expected to fail to compile under their own key
    so that the others compile in one go. Units hold at most ``CUTEPY_CXX_BATCH`` cases and
    are spread over the ``CUTEPY_CXX_JOBS`` parallel compiles.
    """
    batch = max(1, int(os.environ.get("CUTEPY_CXX_BATCH", "200")))
    jobs = max(1, int(os.environ.get("CUTEPY_CXX_JOBS", "2")))
    keys = [0] * len(cases) if keys is None else list(keys)
    if len(keys) != len(cases):
        raise ValueError("run_cases: one key per case")
    groups: dict = {}
    for i, (k, c) in enumerate(zip(keys, cases)):
        groups.setdefault(k, []).append((i, c))
    units = []
    for members in groups.values():
        size = min(batch, -(-len(members) // jobs))
        units += [members[k:k + size] for k in range(0, len(members), size)]
    results: dict[int, CaseResult] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        run = lambda unit: _run_unit(unit, tuple(includes), preamble, tuple(defines))  # noqa: E731
        for part in pool.map(run, units):
            results |= part
    return [results[i] for i in range(len(cases))]


def normalise(text: str) -> str:
    """C++'s print with the static-integer markers dropped: ``(_4,_2):(_1,_4)`` -> ``(4,2):(1,4)``."""
    return re.sub(r"(?<![A-Za-z0-9])_(?=-?\d)", "", text.strip())
