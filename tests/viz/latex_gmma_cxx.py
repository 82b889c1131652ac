"""C++ CuTe's ``print_latex`` of GMMA TiledMMAs (64xNx16, one warpgroup), too large to store whole
(up to 21504 TikZ nodes): each is stored as its line count, byte count and sha1, with its first
lines (tests/data/gmma_latex_cxx47.txt). ``to_latex`` of the same TiledMMA must hash the same.

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        PYTHONPATH=$PWD python -m tests.viz.latex_gmma_cxx
"""

from __future__ import annotations

import hashlib
import sys

from tests.paths import DATA

FILE = DATA / "gmma_latex_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm90_gmma.hpp")
#: the GMMA atoms drawn: the wgmma_sm90 tutorial's, K-major bf16 at N = 128 and the largest N = 256,
#: and a register-A (RS) atom
ATOMS = ("SM90_64x64x16_F16F16F16_SS<MN,MN>", "SM90_64x128x16_F32BF16BF16_SS",
         "SM90_64x256x16_F32BF16BF16_SS", "SM90_64x64x16_F32F16F16_RS")
HEAD_LINES = 3


def digest(text: str) -> str:
    """``lines=<n> bytes=<n> sha1=<40 hex digits>`` of a document."""
    return (f"lines={text.count(chr(10))} bytes={len(text.encode())} "
            f"sha1={hashlib.sha1(text.encode()).hexdigest()}")


def read() -> dict[str, tuple[str, list[str]]]:
    """atom -> (digest, first lines) of C++'s print_latex."""
    out: dict[str, tuple[str, list[str]]] = {}
    name = None
    for line in FILE.read_text().splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("== "):
            name, d = line[3:].split(" | ")
            out[name] = (d, [])
        elif name is not None:
            out[name][1].append(line)
    return out


def run_cxx() -> dict[str, str]:
    """atom -> C++'s print_latex of make_tiled_mma(atom), compiled now."""
    from cutepy import make_tiled_mma, mma_atom
    from cutepy.emit import cpp
    from tests.cxx import cxx_harness

    blocks = [f"print_latex({cpp(make_tiled_mma(mma_atom(a)))});" for a in ATOMS]
    res = cxx_harness.run_cases(blocks, INCLUDES)
    bad = [(a, r.error) for a, r in zip(ATOMS, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ failed on {bad[0][0]}:\n{bad[0][1][:2000]}")
    return {a: r.output for a, r in zip(ATOMS, res)}


def generate() -> str:
    head = [f"# {line}".rstrip() for line in (__doc__ or "").strip().splitlines()]
    body = []
    for a, text in run_cxx().items():
        body.append(f"== {a} | {digest(text)}")
        body += text.splitlines()[:HEAD_LINES]
    return "\n".join(head + body) + "\n"


if __name__ == "__main__":
    FILE.write_text(generate())
    print(f"wrote {FILE}", file=sys.stderr)
