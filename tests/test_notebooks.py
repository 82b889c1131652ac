"""Every notebook in notebooks/ is stored executed, runs top to bottom in < 20 s, and checks itself.

Each notebook found by the glob gets the common checks (nbformat v4 stored with its
outputs, so that GitHub and the docs show its pictures; a ``# NN · title`` first cell; no
error outputs; pictures drawn); ``EXPECT`` adds what a given notebook must print.
``python notebooks/execute.py`` executes and stores them.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

try:  # the test extra installs these: a missing one is a failure, not a skip
    import nbclient
    import nbformat
except ImportError as e:  # pragma: no cover
    pytest.fail(f"notebook tests need nbclient, nbformat and ipykernel (pip install -e '.[test]'): {e}",
                pytrace=False)

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
SECONDS = 20


@dataclass(frozen=True)
class Expect:
    """What one notebook's run must show: at least ``pictures`` SVG outputs, every string of
    ``prints`` in its printed text and none of ``never``, each ``counts`` string exactly
    that many times and each ``at_least`` string at least that many times."""

    pictures: int = 3
    prints: tuple[str, ...] = ()
    never: tuple[str, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    at_least: tuple[tuple[str, int], ...] = ()


EXPECT = {
    "01_layouts": Expect(),
    "02_algebra": Expect(),
    "03_xla_tiling": Expect(
        prints=("layout ((2,2),(2,3)):((2,12),(1,4))",  # figure 1
                "layout ((2,2),(4,2)):((1,16),(2,8))",  # figure 2
                "bytes equal the model's: True"),
        never=("False",),
        counts=(("agree on all", 8),),  # every cross-checked shape
    ),
    "04_kernel_tiling": Expect(),
    "05_proofs": Expect(
        prints=("not equivalent for any assignment",  # the false claim
                "equal exactly when M == 8",  # the condition
                "(checked: True)",  # the parametric XLA tiling proof
                "divide out stride",  # a derivation
                "case Kb == 1: differ",  # the K = 1 case split of a bounded symbol
                "equal exactly when (Kd == 2) or (Kd == 4)",  # a residue fact
                "equal exactly when M == 8",  # a symbolic swizzle
                "certified: True"),  # the certificate (isl, z3)
    ),
    "06_tpu_mlir_lmem": Expect(
        pictures=5,
        prints=("(2,(4,2),2,3):(16,(32,8),3,1)",),  # the LMEM layout
        never=("MISMATCH",),
        at_least=(("ok: ", 5),),  # cp.check reports
    ),
    "07_sm80_gemm_tile": Expect(pictures=4, at_least=(("ok: ", 7),),
                                prints=("FAILS: thread 0: source values 0..7 are not contiguous",
                                        "elements equal to numpy's A @ B.T: 16384",
                                        "differ from the reference", "held by thread",
                                        "both write offset",
                                        "A fragment: array[float16] o ((2,2,2),4,2):((1,2,4),8,32)")),
    "08_bank_conflicts": Expect(pictures=3),
    "09_cute_and_triton_layouts": Expect(
        pictures=3,
        prints=("agree at all 256 (thread, value) pairs: True",
                "CuTe(Triton(offset)) == offset everywhere: True",
                "Sw<3,3,3> o 0 o (8,64):(64,1)", "found: False", "after: 0"),
        never=("Error",),
        counts=(("same function: True", 3),),
    ),
    "10_hopper_pipeline": Expect(pictures=5, prints=("swizzle        128B", "box of B per CTA: (64, 64)",
                                                     # C++'s print (tests/data/tutorial_wgmma_sm90.txt)
                                                     "thread 37 writes smem_ptr[16b](0x570) o "
                                                     "((8,1),1,8,(1,3)):((1,0),0,1024,(0,8192))",
                                                     "16384 of 16384 elements of C equal numpy's A @ B.T",
                                                     "majorness of smem does not match",
                                                     "16-byte aligned", "swizzle span",
                                                     "GMMA::Layout_K_SW128_Atom<T>")),
    "11_blackwell_pipeline": Expect(pictures=2, prints=("ThrID:        2:1", "B box: (64, 256) 128B",
                                                        "32768 of 32768 elements of C equal numpy's A @ B.T",
                                                        "row 37, column 5 at 0x250005")),
    # issue 32: the builder's pick prints as CUTLASS 4.7 does (tests/data/builders_sm90_mainloop_cxx47.txt)
    "12_designing_a_hopper_gemm": Expect(pictures=4, prints=(
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_7)):((_64,_512),(_1,_0),(_0,_8192))",
        "KernelTmaWarpSpecializedCooperative", "Should meet TMA alignment requirement", "legal designs in",
        "using CollectiveMainloopExplicit")),
    "13_beyond_nvidia": Expect(pictures=4, never=("FAILS: thread 0: source values 0..7 are not contiguous "
                                                  "(offsets 0, 1",),
                               prints=("elements equal to numpy's A @ B.T: 4096",
                                       "DPAS tile: elements equal to numpy's A @ B.T: 1024",
                                       "MMA_Atom<XE_DPAS_TT<8,float,half_t,half_t,float>>{}",
                                       "has no C++ CuTe type to emit", "name the architecture",
                                       "lane 33, value 2 of A is A[m, k] with (m, k) = (1, 6)"),
                               at_least=(("ok: ", 5),)),
}


def _id(path: Path) -> str:
    return path.stem


def test_every_notebook_is_found() -> None:
    assert [p.stem for p in NOTEBOOKS] == sorted(EXPECT), "add the notebook to EXPECT (or drop it there)"


def test_readme_lists_every_notebook() -> None:
    readme = (FOLDER / "README.md").read_text()
    for path in NOTEBOOKS:
        assert f"| `{path.name}` |" in readme, f"notebooks/README.md has no row for {path.name}"


#: Notebooks not stored executed (none: ``python notebooks/execute.py NAME.ipynb`` stores one)
NOT_YET_EXECUTED: set[str] = set()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_is_v4_with_a_title(path: Path) -> None:
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    assert nb.nbformat == 4
    nbformat.validate(nb)
    number = path.stem.split("_")[0]
    first = nb.cells[0]
    assert first.cell_type == "markdown" and re.match(rf"# {number}\b", first.source), \
        f"the first cell is the title, '# {number} · ...'"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem not in NOT_YET_EXECUTED], ids=_id)
def test_notebook_is_stored_executed_with_its_pictures(path: Path) -> None:
    """A repository viewer shows the stored outputs: every code cell ran, in order, without
    an error, and the pictures are there as SVG and as an ``<img>`` an untrusted viewer keeps."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), \
        f"{path.name} is not stored executed top to bottom: python notebooks/execute.py {path.name}"
    outputs = _outputs(nb)
    assert not [o for o in outputs if o.output_type == "error"], f"{path.name} stores an error"
    html = [o.get("data", {}).get("text/html", "") for o in outputs]
    imgs = [h for h in html if h.startswith('<img src="data:image/svg')]
    assert len(imgs) >= EXPECT.get(path.stem, Expect()).pictures, f"{path.name} stores too few pictures"


@pytest.fixture(scope="module")
def executed() -> dict[Path, tuple[nbformat.NotebookNode, float]]:
    """Each notebook run once (on first use) and shared by the tests below."""
    return {}


def _run(path: Path, cache: dict) -> tuple[nbformat.NotebookNode, float]:
    if path not in cache:
        nb = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                                         resources={"metadata": {"path": str(FOLDER)}})
        with pytest.MonkeyPatch.context() as mp:
            # the kernel imports this checkout of cutepy even when it is not installed
            mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
            start = time.perf_counter()
            client.execute()
            cache[path] = (nb, time.perf_counter() - start)
    return cache[path]


def _outputs(nb: nbformat.NotebookNode) -> list:
    return [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_runs_quickly_without_errors(path: Path, executed: dict) -> None:
    nb, seconds = _run(path, executed)
    errors = [f"{o.ename}: {o.evalue}" for o in _outputs(nb) if o.output_type == "error"]
    assert errors == []
    assert seconds < SECONDS, f"{path.name} took {seconds:.1f} s"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_draws_and_prints_what_it_should(path: Path, executed: dict) -> None:
    nb, _ = _run(path, executed)
    expect = EXPECT.get(path.stem, Expect())
    outputs = _outputs(nb)
    pictures = sum("image/svg+xml" in o.get("data", {}) for o in outputs)
    assert pictures >= expect.pictures, f"{path.name} draws {pictures} pictures"
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    for s in expect.prints:
        assert s in text, f"{path.name} does not print {s!r}"
    for s in expect.never:
        assert s not in text, f"{path.name} prints {s!r}"
    for s, n in expect.counts:
        assert text.count(s) == n, f"{path.name} prints {s!r} {text.count(s)} times, not {n}"
    for s, n in expect.at_least:
        assert text.count(s) >= n, f"{path.name} prints {s!r} {text.count(s)} times, fewer than {n}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_every_picture_has_an_img_and_a_text_form(path: Path, executed: dict) -> None:
    # untrusted JupyterLab drops image/svg+xml but shows an <img> data URI; terminals the text
    nb, _ = _run(path, executed)
    for out in _outputs(nb):
        data = out.get("data", {})
        if "image/svg+xml" in data:
            assert data.get("text/html", "").startswith('<img src="data:image/svg+xml;base64,'), \
                f"{path.name}: a picture without an <img> form"
            assert data.get("text/plain"), f"{path.name}: a picture without a text form"
