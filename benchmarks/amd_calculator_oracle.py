"""AMD's own register layouts of every dense MFMA/WMMA instruction: the oracle of cutepy's AMD atoms.

AMD publishes the "AMD Matrix Instruction Calculator" (github.com/ROCm/amd_matrix_instruction_calculator,
``matrix_calculator.py`` 1.3.2, MIT), which prints, for every matrix instruction of CDNA1/2/3 and
RDNA3/4, which matrix element each (lane, register bits) of A, B and D holds. This script asks it
for every dense instruction (``v_mfma_*``, ``v_wmma_*``; the sparse ``v_smfmac``/``v_swmmac`` are
left out) and stores its answers losslessly in ``tests/data/amd_matrix_calculator.txt``::

    python -m venv /work/venvs/amdcalc && /work/venvs/amdcalc/bin/pip install tabulate
    git clone https://github.com/ROCm/amd_matrix_instruction_calculator /tmp/amdcalc  # 2ef9189
    /work/venvs/amdcalc/bin/python benchmarks/amd_calculator_oracle.py \
        --calculator /tmp/amdcalc/matrix_calculator.py --out tests/data/amd_matrix_calculator.txt

One line per (architecture, instruction, matrix): ``arch  inst  M,N,K,blocks  types  matrix
columns  table``. ``types`` are the calculator's Src0/Src1/Src2/Vdst type names; ``columns`` its
column headers (registers and bit ranges, in order: the value order); ``table`` one ';'-separated
row per lane of the calculator's entries, each entry re-encoded as the flat index
``row + R*col + R*C*block`` of its ``R x C`` matrix (A: ``A[i][k]`` -> ``i + M*k``; B: ``B[k][j]``
-> ``j + N*k``; D: ``D[i][j]`` -> ``i + M*j``). RDNA instructions are asked in wave32.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

ARCHS = ("cdna1", "cdna2", "cdna3", "rdna3", "rdna4")


def _run(calc: str, *args: str) -> str:
    return subprocess.run([sys.executable, calc, *args], check=True, capture_output=True, text=True).stdout


def instructions(calc: str, arch: str) -> list[str]:
    out = _run(calc, "-a", arch, "-L").splitlines()[1:]
    return [s.strip() for s in out if s.strip().startswith(("v_mfma", "v_wmma"))]


def detail(calc: str, arch: str, inst: str) -> tuple[list[int], list[str]]:
    text = _run(calc, "-a", arch, "-i", inst, "-d")
    mnk = [int(re.search(rf"^\s+{d}: (\d+)$", text, re.M).group(1)) for d in "MNK"]
    blocks = re.search(r"^\s+blocks: (\d+)$", text, re.M)
    types = [re.search(rf"^\s+{f}: (\S+)", text, re.M).group(1) for f in ("Src0", "Src1", "Src2", "Vdst")]
    return mnk + [int(blocks.group(1)) if blocks else 1], types


_ENTRY = re.compile(r"([ABD])\[(\d+)\]\[(\d+)\](?:\.B(\d+))?")


def table(calc: str, arch: str, inst: str, matrix: str, dims: list[int]) -> tuple[str, str]:
    args = ["-a", arch, "-i", inst, "-M", f"-{matrix}", "--csv"]
    if arch.startswith("rdna"):
        args += ["-w", "32"]
    lines = _run(calc, *args).splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("lane,"))
    cols = lines[start].split(",")[1:]
    m, n, k, _ = dims
    rows_, cols_ = {"A": (m, k), "B": (n, k), "D": (m, n)}[matrix]
    rows = []
    for lane, line in enumerate(lines[start + 1:]):
        cells = line.split(",")
        assert int(cells[0]) == lane, line
        flat = []
        for cell in cells[1:]:
            e = _ENTRY.fullmatch(cell)
            assert e is not None and e.group(1) == matrix, cell
            a, b, blk = int(e.group(2)), int(e.group(3)), int(e.group(4) or 0)
            r, c = (b, a) if matrix == "B" else (a, b)  # the calculator writes B[k][j]
            flat.append(r + rows_ * c + rows_ * cols_ * blk)
        rows.append(" ".join(map(str, flat)))
    return " ".join(cols), ";".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calculator", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    version = _run(args.calculator, "-v").strip()
    out = [
        f"# AMD Matrix Instruction Calculator ({version}) answers, re-encoded as flat indices.\n",
        "# Regenerate: /work/venvs/amdcalc/bin/python benchmarks/amd_calculator_oracle.py "
        "--calculator /tmp/amdcalc/matrix_calculator.py --out tests/data/amd_matrix_calculator.txt\n",
    ]
    for arch in ARCHS:
        for inst in instructions(args.calculator, arch):
            dims, types = detail(args.calculator, arch, inst)
            for matrix in "ABD":
                cols, rows = table(args.calculator, arch, inst, matrix, dims)
                fields = [arch, inst, ",".join(map(str, dims)), ",".join(types), matrix, cols, rows]
                out.append("\t".join(fields) + "\n")
            print(arch, inst, dims, file=sys.stderr)
    with open(args.out, "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
