# ruff: noqa: E501 - C++ text
"""C++ ``print_tensor`` of a few host tensors (CUTLASS 4.7), the reference of cutepy's
``print_tensor``. Each case fills a tensor with ``i`` (or ``i / 4`` for floats, ``i % 3 == 0``
for bools) at 1-D index ``i``, then prints it. Regenerate tests/data/print_tensor_cxx47.txt with::

    SP=$(python -c "import site;print(site.getsitepackages()[0])")
    CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\
        python -m tests.viz.print_tensor_cxx
"""

from __future__ import annotations

from tests.cxx import cxx_harness
from tests.kernels.atoms.atoms_cxx import INCLUDES
from tests.paths import DATA

FILE = DATA / "print_tensor_cxx47.txt"

#: (C++ element type, numpy dtype, shape, stride, value of index i as C++ and Python text)
CASES = [
    ("int", "int32", (3, 4), (4, 1), "i"),
    ("float", "float32", (2, 3, 2), (1, 2, 6), "i / 4.0f"),
    ("double", "float64", (2, 2, 2, 2), (1, 2, 4, 8), "i / 4.0"),
    ("half_t", "float16", (5,), (1,), "i / 4.0f"),
    ("bool", "bool", (2, 3), (3, 1), "i % 3 == 0"),
]


def _tuple(t: tuple) -> str:
    return "make_shape(" + ",".join(f"Int<{x}>{{}}" for x in t) + ")"


def cxx(case: tuple) -> str:
    ctype, _, shape, stride, val = case
    n = 1
    for s in shape:
        n *= s
    return (f"static {ctype} buf[{n * 2}];\n"
            f"auto t = make_tensor(&buf[0], make_layout({_tuple(shape)}, {_tuple(stride).replace('make_shape', 'make_stride')}));\n"
            f"for (int i = 0; i < int(size(t)); ++i) t(i) = {ctype}({val});\n"
            "print_tensor(t, false);\n")


def generate() -> str:
    res = cxx_harness.run_cases([cxx(c) for c in CASES], INCLUDES)
    bad = [r.error for r in res if not r.ok]
    if bad:
        raise SystemExit(bad[0][:3000])
    head = [f"# {line}" for line in (__doc__ or "").strip().splitlines()]
    out = []
    for c, r in zip(CASES, res):
        out.append(f"== {c[0]} {c[2]}")
        out += r.output.rstrip("\n").split("\n")
    return "\n".join(head + out) + "\n"


def read() -> list[list[str]]:
    blocks: list[list[str]] = []
    for line in FILE.read_text().split("\n"):
        if line.startswith("# "):
            continue
        if line.startswith("== "):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    return [b[:-1] if b and b[-1] == "" else b for b in blocks]


if __name__ == "__main__":
    FILE.write_text(generate())
    print(f"wrote {FILE}")
