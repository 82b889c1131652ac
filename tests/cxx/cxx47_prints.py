"""CUTLASS 4.7.0's prints for the differential's seeded cases, kept in ``tests/data/cxx47_prints.tsv``.

The randomized differential (tests/cxx/test_differential.py) compares cutepy with C++ CuTe.
PyPI's ``nvidia-cutlass`` stops at 4.2, the reference is 4.7.0: its prints for the seeded
samples below are stored, so the suite compares against 4.7 without a compiler, and a live
run against whatever headers are installed takes 4.7's print where the two differ.

Each row: ``key<TAB>operation<TAB>OK<TAB>print`` or ``key<TAB>operation<TAB>REJECT<TAB>first error
line``, ``key`` the first 16 hex digits of the sha256 of the case's C++ statement (the
statement itself is rebuilt from the seed by ``tests/cxx/cxx_cases.py``). Tabs, newlines and
backslashes in a print are escaped as ``\\t``, ``\\n``, ``\\\\``.

Regenerate (g++, CUTLASS 4.7.0's include directory in place of the nvidia-cutlass wheel's;
the CUDA headers come from the wheels of the ``[test]`` extra)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD python -m tests.cxx.cxx47_prints

It refuses to run unless the headers' ``cutlass/version.h`` says 4.7.0; rows already stored
are kept (only new statements are compiled), rows no sample draws any more are dropped.
"""

from __future__ import annotations

import hashlib
import subprocess
from functools import lru_cache

import cutepy as cp
from tests.cxx import cxx_cases, cxx_harness
from tests.paths import DATA

STORE = DATA / "cxx47_prints.tsv"
VERSION = "4.7.0"
CI_SEED = 20261124
#: (generator, cases, seed): the CI sample and the two slow samples whose 4.7 prints are stored
SAMPLES = (("generate", 120, CI_SEED), ("generate_all", 3000, CI_SEED + 1),
           ("generate_all", 3000, 20261201))

#: left_inverse inputs where cutepy raised before issue 20 although C++ answers correctly, and
#: inverses of layouts with equal strides (C++ sorts them with an exchange sort, not a stable one)
PINNED = (
    *(("left_inverse", t) for t in ("(8,4):(1,4)", "(5,4):(1,3)", "(3,4):(1,2)", "(2,4):(0,1)", "4:0",
                                    "(2,2,2):(2,2,1)", "4:-1", "(63,2):(1,1)", "(2,2):(1,1)")),
    *(("right_inverse", t) for t in ("(2,2,2):(2,2,1)", "(2,4,2):(4,4,1)", "(3,2,2):(1,3,3)")),
)


def pinned_case(op: str, text: str) -> cxx_cases.Case:
    """The differential's case for ``op(parse(text))`` (its C++ statement is the stored key)."""
    A = cp.parse(text)
    fn = getattr(cp, op)
    return cxx_cases.Case(op, (A,), lambda: fn(A), f"print({op}({cxx_cases.cx(A)}));")


def key(statement: str) -> str:
    return hashlib.sha256(statement.encode()).hexdigest()[:16]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


@lru_cache(maxsize=1)
def stored() -> dict[str, cxx_harness.CaseResult]:
    """key -> 4.7's result (``ok`` and print, or ``ok=False`` and the error line)."""
    out = {}
    if not STORE.is_file():
        return out
    for line in STORE.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        k, _op, status, text = line.split("\t", 3)
        text = _unescape(text)
        out[k] = (cxx_harness.CaseResult("", True, output=text) if status == "OK"
                  else cxx_harness.CaseResult("", False, error=text))
    return out


def lookup(cases: list) -> list:
    """4.7's stored result for each case (None where the statement is not stored)."""
    table = stored()
    return [table.get(key(c.cxx)) for c in cases]


def sample(generator: str, n: int, seed: int) -> list:
    return getattr(cxx_cases, generator)(n, seed)


def main() -> None:
    version = cxx_harness.cutlass_version()
    if version != VERSION:
        raise SystemExit(f"the headers on the include path are CUTLASS {version}, not {VERSION}: "
                         "set CUTEPY_CXX_CUTLASS as this module's docstring says")
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    old = stored()
    rows: dict[str, tuple[str, cxx_harness.CaseResult]] = {}
    todo = []
    pinned = [pinned_case(op, t) for op, t in PINNED]
    for cases in [sample(g, n, seed) for g, n, seed in SAMPLES] + [pinned]:
        for case in cases:
            k = key(case.cxx)
            if k in rows:
                continue
            if k in old:
                rows[k] = (case.op, old[k])
            else:
                rows[k] = (case.op, None)
                todo.append(case)
    for case, res in zip(todo, cxx_cases.compile_cases(todo)):
        rows[key(case.cxx)] = (case.op, res)
    compiler = subprocess.run([cxx_harness._compiler(), "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    head = [
        f"# C++ CuTe prints from CUTLASS {version} (cutlass/version.h), compiled with {compiler},",
        f"# flags {' '.join(cxx_harness.FLAGS)}, static-integer underscores kept (as printed).",
        "# Samples (tests/cxx/cxx_cases.py): " + ", ".join(f"{g}({n}, {s})" for g, n, s in SAMPLES)
        + "; the inverses in PINNED",
        "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD "
        "python -m tests.cxx.cxx47_prints",
        "# Columns: sha256(C++ statement)[:16], operation, OK|REJECT, print or first error line.",
    ]
    body = []
    for k, (op, res) in sorted(rows.items(), key=lambda kv: kv[0]):
        if res.ok:
            body.append(f"{k}\t{op}\tOK\t{_escape(res.output)}")
        else:
            first = res.error.strip().splitlines()[0] if res.error.strip() else "C++ rejects"
            body.append(f"{k}\t{op}\tREJECT\t{_escape(first[:300])}")
    STORE.write_text("\n".join(head + body) + "\n")
    print(f"{len(body)} rows ({len(todo)} compiled) -> {STORE}")


if __name__ == "__main__":
    main()
