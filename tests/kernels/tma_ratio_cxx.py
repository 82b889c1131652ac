# ruff: noqa: E501 - the C++ statements stay one per line
"""TMA tensors whose stride is a static ratio (C++'s ``R<a,b>``: ``make_tma_copy<TmaInternalType>``
with an internal type wider than the element gives ``_1/_2@0``), evaluated at coordinates that
are static (``Int<N>``) or run-time (``int``), as C++ prints them: a static coordinate gives a
static ratio (``_3/_2``; a whole one the integer ``_2``), a run-time one C++'s integer arithmetic
``k * a / b`` (``1``). Each case prints the TMA tensor of a run-time and of a static gmem shape and
the value at every coordinate of :data:`POINTS`.

Stored in tests/data/tma_ratio_cxx.txt. Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        PYTHONPATH=$PWD python -m tests.kernels.tma_ratio_cxx
"""

from __future__ import annotations

import sys

from tests.paths import DATA

FILE = DATA / "tma_ratio_cxx.txt"

#: (element type, internal type, K- or MN-major gmem, gmem rows, gmem columns)
CASES = (("half_t", "uint32_t", "K", 256, 64), ("half_t", "uint64_t", "MN", 64, 256),
         ("uint8_t", "uint32_t", "K", 128, 128), ("float", "double", "MN", 64, 64))
#: coordinates: (kind, values), kind a letter per value: 's' static Int<N>, 'd' run-time int;
#: one value is a 1-D index
POINTS = (("dd", (5, 3)), ("dd", (5, 4)), ("ss", (5, 3)), ("ss", (5, 4)), ("ds", (5, 3)),
          ("sd", (5, 3)), ("dd", (7, 1)), ("ss", (7, 1)), ("ss", (6, 2)), ("d", (3 * 64 + 5,)),
          ("s", (3 * 64 + 5,)), ("dd", (63, 63)), ("ss", (63, 63)))


def _cxx_point(kind: str, vals: tuple) -> str:
    return ", ".join(f"Int<{v}>{{}}" if k == "s" else f"int({v})" for k, v in zip(kind, vals))


def source(case: tuple) -> str:
    """The host C++ of one case."""
    dtype, internal, major, rows, cols = case
    stride = f"make_stride({cols}, Int<1>{{}})" if major == "K" else f"make_stride(Int<1>{{}}, {rows})"
    sstride = (f"make_stride(Int<{cols}>{{}}, Int<1>{{}})" if major == "K"
               else f"make_stride(Int<1>{{}}, Int<{rows}>{{}})")
    lines = [
        f"Tensor g = make_tensor(make_gmem_ptr(({dtype}*)0x10000ull), make_layout(make_shape({rows}, {cols}), {stride}));",
        f"Tensor gs = make_tensor(make_gmem_ptr(({dtype}*)0x10000ull), make_layout(make_shape(Int<{rows}>{{}}, Int<{cols}>{{}}), {sstride}));",
        f"auto sl = make_layout(make_shape(Int<{rows}>{{}}, Int<{cols}>{{}}), {sstride});",
        f"auto tiler = make_shape(Int<{rows}>{{}}, Int<{cols}>{{}});",
        f"auto tma = make_tma_copy<{internal}>(SM90_TMA_LOAD{{}}, g, sl, tiler, Int<1>{{}});",
        f"auto tmas = make_tma_copy<{internal}>(SM90_TMA_LOAD{{}}, gs, sl, tiler, Int<1>{{}});",
        f"Tensor m = tma.get_tma_tensor(make_shape({rows}, {cols}));",
        f"Tensor ms = tmas.get_tma_tensor(make_shape(Int<{rows}>{{}}, Int<{cols}>{{}}));",
        'printf("@m\\n"); print(m); printf("\\n@ms\\n"); print(ms); printf("\\n");',
    ]
    for kind, vals in POINTS:
        name = kind + " " + ",".join(map(str, vals))
        lines.append(f'printf("@{name}\\n"); print(m({_cxx_point(kind, vals)})); printf("\\n");')
        lines.append(f'printf("@{name} static shape\\n"); print(ms({_cxx_point(kind, vals)})); printf("\\n");')
    return "\n".join(lines) + "\n"


def _sections(text: str) -> dict[str, str]:
    out: dict[str, list[str]] = {}
    section = None
    for line in text.splitlines():
        if line.startswith("@"):
            section = line[1:].strip()
            out[section] = []
        elif section is not None and line.strip() and not line.startswith("DESC "):
            out[section].append(line.rstrip())
    return {k: "\n".join(v) for k, v in out.items()}


def run_cxx() -> dict[str, dict[str, str]]:
    """Compile and run every case: case name -> section -> C++'s print."""
    from tests.cxx import cxx_harness
    from tests.kernels import tma_cxx

    res = cxx_harness.run_cases([source(c) for c in CASES], tma_cxx.INCLUDES, preamble=tma_cxx.STUB,
                                defines=tma_cxx.DEFINES)
    out = {}
    for c, r in zip(CASES, res):
        if not r.ok:
            raise SystemExit(f"C++ failed on {c}:\n{r.error[:3000]}")
        out[" ".join(map(str, c))] = _sections(r.output)
    return out


def read() -> dict[str, dict[str, str]]:
    """The stored prints: case name -> section -> text."""
    out: dict[str, dict[str, str]] = {}
    for chunk in FILE.read_text().split("\n== ")[1:]:
        name, body = chunk.split("\n", 1)
        out[name.strip()] = _sections(body)
    return out


def generate() -> str:
    head = [f"# {line}" if line else "#" for line in (__doc__ or "").strip().splitlines()]
    body = []
    for name, sections in run_cxx().items():
        body.append(f"== {name}")
        for k, v in sections.items():
            body += [f"@{k}", v]
    return "\n".join(head + body) + "\n"


if __name__ == "__main__":
    FILE.write_text(generate())
    print(f"wrote {FILE}", file=sys.stderr)
