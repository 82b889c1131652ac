"""Seeded samples of CUTLASS 4.7 CollectiveBuilder configurations, the C++ host code that builds
each one, and the stored C++ answers (tests/data/builders_sm90_mainloop_cxx47.txt).

Each case instantiates ``cutlass::gemm::collective::CollectiveBuilder<...>::CollectiveOp`` on the
host with g++ (no GPU) through ``tests/cxx/cxx_harness.py`` and prints the collective's members
(``builder_host.hpp``: host stand-ins for the CUDA built-ins, the toolkit version macros set to
CUDA 12.9 around the builder headers). A configuration CUTLASS rejects (a ``static_assert``, or no
specialization) is stored with the compiler's error lines.

Regenerate (CUTLASS 4.7 headers at /work/cutlass47/include; about 10 minutes on 2 cores)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=2 python -m tests.builders.builder_cxx
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from tests.paths import DATA

HOST = Path(__file__).resolve().parent / "builder_host.hpp"
HOST_EPILOGUE = Path(__file__).resolve().parent / "epilogue_host.hpp"
FILE_EPILOGUE = DATA / "builders_sm90_epilogue_cxx47.txt"
FILE_SM100 = DATA / "builders_sm100_mainloop_cxx47.txt"
FILE_SM120 = DATA / "builders_sm120_mainloop_cxx47.txt"
SEED_SM120 = 3204
COUNT_SM120 = 200
SEED_SM100 = 3203
COUNT_SM100 = 240
SEED_EPILOGUE = 3202
COUNT_EPILOGUE = 240
FILE_MAINLOOP = DATA / "builders_sm90_mainloop_cxx47.txt"
SEED_MAINLOOP = 3201
COUNT_MAINLOOP = 400

#: (A, B, accumulator) element triples the sample draws from (GMMA's SS/RS selector rows, and
#: a few it does not have)
TYPES = (
    ("half_t", "half_t", "float"),
    ("half_t", "half_t", "half_t"),
    ("bfloat16_t", "bfloat16_t", "float"),
    ("float", "float", "float"),
    ("tfloat32_t", "tfloat32_t", "float"),
    ("float_e4m3_t", "float_e4m3_t", "float"),
    ("float_e4m3_t", "float_e5m2_t", "float"),
    ("float_e5m2_t", "float_e4m3_t", "half_t"),
    ("int8_t", "int8_t", "int32_t"),
    ("uint8_t", "int8_t", "int32_t"),
)
#: a pair GMMA does not have (bf16 inputs, f16 accumulator), drawn now and then
NO_GMMA = ("bfloat16_t", "bfloat16_t", "half_t")
SCHEDULES = (
    "KernelScheduleAuto",
    "KernelScheduleAuto",
    "KernelTmaWarpSpecialized",
    "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpong",
    "KernelTma",
    "KernelCpAsyncWarpSpecialized",
    "KernelCpAsyncWarpSpecializedCooperative",
    "KernelCpAsyncWarpSpecializedPingpong",
    "KernelTmaWarpSpecializedFP8FastAccum",
    "KernelTmaWarpSpecializedCooperativeFP8FastAccum",
    "KernelTmaWarpSpecializedPingpongFP8FastAccum",
    "KernelMultistage",
)
CLUSTERS = ((1, 1, 1), (1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1), (1, 4, 1))


def _bits(t: str) -> int:
    return {"half_t": 16, "bfloat16_t": 16, "float": 32, "tfloat32_t": 32, "int32_t": 32}.get(t, 8)


def mainloop_configs(seed: int = SEED_MAINLOOP, count: int = COUNT_MAINLOOP) -> list[dict[str, Any]]:
    """``count`` seeded SM90 mainloop configurations: keyword arguments of ``collective_builder``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        schedule = rng.choice(SCHEDULES)
        ea, eb, acc = rng.choice(TYPES) if rng.random() < 0.97 else NO_GMMA
        if "FP8" in schedule and rng.random() < 0.85:
            ea, eb, acc = rng.choice(TYPES[5:8])
        la, lb = rng.choice(("RowMajor", "ColumnMajor")), rng.choice(("RowMajor", "ColumnMajor"))
        if rng.random() < (0.85 if "FP8" in schedule else 0.3):  # TN: every type pair takes the SS path
            la, lb = "RowMajor", "ColumnMajor"
        full_a, full_b = 128 // _bits(ea), 128 // _bits(eb)
        al_a = full_a if rng.random() < 0.88 else rng.choice((full_a // 2, full_a // 4, 2 * full_a))
        al_b = full_b if rng.random() < 0.9 else rng.choice((full_b // 2, 2 * full_b))
        m = rng.choice((64, 64, 128, 128, 128, 192, 256)) if rng.random() < 0.96 else 96
        n = rng.choice((8, 16, 24, 32, 48, 64, 64, 96, 112, 128, 128, 128, 160, 192, 200, 256))
        k_unit = 256 // max(_bits(ea), _bits(eb)) if max(_bits(ea), _bits(eb)) <= 16 else 8
        k = rng.choice((1, 2, 4, 4, 4, 8)) * k_unit * (2 if rng.random() < 0.5 else 1)
        if rng.random() < 0.05:
            k = k_unit // 2
        cluster = rng.choice(CLUSTERS)
        r = rng.random()
        stages: Any = (
            "auto"
            if r < 0.55
            else ("auto", rng.choice((0, 1024, 8192, 32768, 50000)))
            if r < 0.8
            else rng.choice((1, 2, 3, 4, 5))
        )
        out.append(
            dict(
                arch="Sm90",
                op_class="OpClassTensorOp",
                element_a=ea,
                layout_a=la,
                alignment_a=max(al_a, 1),
                element_b=eb,
                layout_b=lb,
                alignment_b=max(al_b, 1),
                element_accumulator=acc,
                tile_shape=(m, n, k),
                cluster_shape=cluster,
                stage_count=stages,
                schedule=schedule,
            )
        )
    return out


def _shape(t: tuple) -> str:
    return "Shape<" + ",".join(f"_{x}" for x in t) + ">"


def _elem(t: str) -> str:
    return t if t in ("float", "int8_t", "uint8_t", "int32_t") else f"cutlass::{t}"


def _stage(s: Any) -> str:
    if s == "auto":
        return "cutlass::gemm::collective::StageCountAuto"
    if isinstance(s, (tuple, list)):
        return f"cutlass::gemm::collective::StageCountAutoCarveout<{s[1]}>"
    return f"cutlass::gemm::collective::StageCount<{s}>"


def _schedule(s: str) -> str:
    return f"cutlass::gemm::collective::{s}" if s == "KernelScheduleAuto" else f"cutlass::gemm::{s}"


HEADER_SM100 = (
    "# C++ CUTLASS 4.7: cutlass::gemm::collective::CollectiveBuilder<Sm100, OpClassTensorOp, ...>\n"
    "# ::CollectiveOp (dense, static cluster) for {count} seeded configurations (seed {seed}), with the\n"
    "# builder's AccumulatorPipelineStageCount and KernelSmemCarveout; compiled on the host with g++.\n"
    "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include python -m tests.builders.builder_cxx sm100"
)


def mainloop_case(c: dict[str, Any]) -> str:
    """The C++ statements that build configuration ``c`` and print its collective."""
    args = [
        f"cutlass::arch::{c['arch']}",
        f"cutlass::arch::{c['op_class']}",
        _elem(c["element_a"]),
        f"cutlass::layout::{c['layout_a']}",
        str(c["alignment_a"]),
        _elem(c["element_b"]),
        f"cutlass::layout::{c['layout_b']}",
        str(c["alignment_b"]),
        _elem(c["element_accumulator"]),
        _shape(c["tile_shape"]),
        _shape(c["cluster_shape"]),
        _stage(c["stage_count"]),
        _schedule(c["schedule"]),
    ]
    return (
        "using CB = cutlass::gemm::collective::CollectiveBuilder<\n    " + ",\n    ".join(args) + ">;\n"
        "cutepy_print_mainloop<typename CB::CollectiveOp>();"
    )


def _preamble(*headers: Path) -> str:
    # the host headers' hashes key the harness's cache (the unit includes them by path)
    return "\n".join(
        f"// {h.name} sha256 {hashlib.sha256(h.read_bytes()).hexdigest()}" for h in headers or (HOST,)
    )


EPILOGUE_SCHEDULES = (
    "TmaWarpSpecialized",
    "TmaWarpSpecializedCooperative",
    "TmaWarpSpecialized",
    "TmaWarpSpecializedCooperative",
    "EpilogueScheduleAuto",
    "NoSmemWarpSpecialized",
)
OUTPUTS = ("half_t", "half_t", "bfloat16_t", "float", "float_e4m3_t", "int8_t")


def epilogue_configs(seed: int = SEED_EPILOGUE, count: int = COUNT_EPILOGUE) -> list[dict[str, Any]]:
    """``count`` seeded SM90 epilogue configurations: keyword arguments of ``epilogue_builder``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        schedule = rng.choice(EPILOGUE_SCHEDULES)
        d = rng.choice(OUTPUTS)
        c = d if rng.random() < 0.6 else rng.choice(("void", "half_t", "float", "bfloat16_t"))
        acc = "int32_t" if d == "int8_t" and rng.random() < 0.5 else "float"
        lc, ld = rng.choice(("RowMajor", "ColumnMajor")), rng.choice(("RowMajor", "ColumnMajor"))
        al_c = 128 // _bits(c) if c != "void" else 8
        al_d = 128 // _bits(d)
        if rng.random() < 0.08:
            al_d = max(1, al_d // 2)
        m = (
            rng.choice((64, 128, 128, 256))
            if "Cooperative" not in schedule
            else rng.choice((128, 128, 256, 64))
        )
        n = rng.choice((16, 24, 32, 64, 96, 128, 128, 192, 256))
        r = rng.random()
        if r < 0.75:
            epi: Any = "EpilogueTileAuto"
        else:
            epi = (rng.choice((64, 128)), rng.choice((16, 32, 64, 24)))
        out.append(
            dict(
                arch="Sm90",
                op_class="OpClassTensorOp",
                tile_shape=(m, n, 64),
                cluster_shape=rng.choice(CLUSTERS),
                epilogue_tile=epi,
                element_accumulator=acc,
                element_compute="float",
                element_c=c,
                layout_c=lc,
                alignment_c=al_c,
                element_d=d,
                layout_d=ld,
                alignment_d=al_d,
                schedule=schedule,
            )
        )
    return out


def epilogue_case(c: dict[str, Any]) -> str:
    """The C++ statements that build epilogue configuration ``c`` and print its collective."""
    epi = (
        "cutlass::epilogue::collective::EpilogueTileAuto"
        if c["epilogue_tile"] == "EpilogueTileAuto"
        else _shape(tuple(c["epilogue_tile"]))
    )
    sched = c["schedule"]
    sched = (
        f"cutlass::epilogue::collective::{sched}"
        if sched == "EpilogueScheduleAuto"
        else f"cutlass::epilogue::{sched}"
    )
    elem_c = "void" if c["element_c"] == "void" else _elem(c["element_c"])
    args = [
        f"cutlass::arch::{c['arch']}",
        f"cutlass::arch::{c['op_class']}",
        _shape(tuple(c["tile_shape"])),
        _shape(tuple(c["cluster_shape"])),
        epi,
        _elem(c["element_accumulator"]),
        _elem(c["element_compute"]),
        elem_c,
        f"cutlass::layout::{c['layout_c']}",
        str(c["alignment_c"]),
        _elem(c["element_d"]),
        f"cutlass::layout::{c['layout_d']}",
        str(c["alignment_d"]),
        sched,
    ]
    return (
        "using CE = cutlass::epilogue::collective::CollectiveBuilder<\n    " + ",\n    ".join(args) + ">;\n"
        "cutepy_print_epilogue<typename CE::CollectiveOp>();"
    )


_ASSERT = re.compile(r"static assertion failed(?::\s*(.*))?")


def errors_of(text: str) -> list[str]:
    """The rules a failed compile names: its static_assert messages, else its first error line."""
    found = []
    for line in text.splitlines():
        m = _ASSERT.search(line)
        if m:
            msg = (m.group(1) or "").strip().replace("\\n", "").strip()
            if msg and msg not in found:
                found.append(msg)
    if not found:
        first = next((x for x in text.splitlines() if " error: " in x), text.strip()[:300])
        found.append("error: " + first.split(" error: ", 1)[-1].strip())
    return found


def run(
    configs: list[dict[str, Any]], case: Any, keys: list | None = None, host: Path = HOST, extra: str = ""
) -> list[tuple[dict, str]]:
    """Compile and run every configuration; (configuration, printed members or @error lines)."""
    from tests.cxx import cxx_harness

    headers = (HOST,) if host == HOST else (HOST, host)
    results = cxx_harness.run_cases(
        [case(c) for c in configs], includes=(str(host),), preamble=_preamble(*headers) + extra, keys=keys
    )
    out = []
    for c, r in zip(configs, results):
        if r.ok:
            out.append((c, r.output.strip()))
        else:
            out.append((c, "@error\n" + "\n".join(errors_of(r.error))))
    return out


def cxx_text(x: object) -> str:
    """A builder's member as C++'s printers print it (``void`` for None, numbers as themselves,
    tuples as CuTe shapes with static ``_N``)."""
    from cutepy.core.inttuple import format_tuple

    if x is None:
        return "void"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return str(x)
    if isinstance(x, tuple):
        return format_tuple(x, cxx=True)
    return format(x, "cxx").rstrip("\n")


def arguments(c: dict) -> dict:
    """A stored configuration as keyword arguments (JSON lists back to tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in c.items()}


def check_record(config: dict, sections: dict[str, str]) -> None:
    """One stored configuration against cutepy's ``collective_builder``: where C++ rejected it,
    cutepy refuses it, stating one of the rules C++'s static_asserts state (when C++ named one);
    else every member C++ printed equals cutepy's, print for print, and no more."""
    import pytest

    from cutepy.builders import collective_builder
    from cutepy.core.errors import CutepyError

    if "error" in sections:
        rules = [r for r in sections["error"].splitlines() if r and not r.startswith("error:")]
        with pytest.raises(CutepyError) as info:
            collective_builder(**arguments(config))
        if rules:
            assert any(r.rstrip(".") in str(info.value) for r in rules), (str(info.value), rules)
        return
    got = collective_builder(**arguments(config)).members()
    assert set(got) == set(sections), (sorted(got), sorted(sections))
    wrong = {k: (cxx_text(got[k]), sections[k]) for k in sections
             if cxx_text(got[k]) != sections[k].rstrip("\n")}
    assert not wrong, wrong


def write(path: Path, header: str, records: list[tuple[dict, str]]) -> None:
    lines = [header.rstrip()]
    for i, (c, text) in enumerate(records):
        lines.append(f"@@case {i} {json.dumps(c)}")
        lines.append(text)
    path.write_text("\n".join(lines) + "\n")


def read(path: Path) -> list[tuple[dict, dict[str, str]]]:
    """Stored cases: (configuration, section -> text); a rejected one has the section ``error``."""
    out: list[tuple[dict, dict[str, str]]] = []
    body = [x for x in path.read_text().splitlines() if not x.startswith("#")]
    cur: dict[str, list[str]] | None = None
    name = None
    for line in body:
        if line.startswith("@@case "):
            _, _, js = line.split(" ", 2)
            cur = {}
            out.append((json.loads(js), cur))  # type: ignore[arg-type]
            name = None
        elif line.startswith("@") and cur is not None and re.fullmatch(r"@\w+", line):
            name = line[1:]
            cur[name] = []
        elif cur is not None and name is not None:
            cur[name].append(line)
    return [(c, {k: "\n".join(v) for k, v in s.items()}) for c, s in out]  # type: ignore[union-attr]


HEADER_MAINLOOP = (
    "# C++ CUTLASS 4.7: cutlass::gemm::collective::CollectiveBuilder<Sm90, OpClassTensorOp, ...>\n"
    "# ::CollectiveOp\n"
    "# for {count} seeded configurations (seed {seed}), compiled on the host with g++\n"
    "# (tests/builders/builder_host.hpp).\n"
    "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include python -m tests.builders.builder_cxx"
)


HEADER_EPILOGUE = (
    "# C++ CUTLASS 4.7: cutlass::epilogue::collective::CollectiveBuilder<Sm90, OpClassTensorOp, ...>\n"
    "# ::CollectiveOp (default fusion LinearCombination) for {count} seeded configurations (seed {seed}),\n"
    "# compiled on the host with g++ (tests/builders/epilogue_host.hpp).\n"
    "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include python -m tests.builders.builder_cxx epilogue"
)


#: the SM100 collective's printer: its members (TMA ops by the compiler's name) and the builder's own
#: accumulator stages and kernel carveout
PRINT_SM100 = r"""
template <class CB> void cutepy_print_sm100() {
  using namespace cute;
  using C = typename CB::CollectiveOp;
  std::printf("@dispatch_policy\n"); cutepy_type_name<typename C::DispatchPolicy>();
  std::printf("\n@stages\n%d", int(C::DispatchPolicy::Stages));
  std::printf("\n@tiled_mma\n"); print(typename C::TiledMma{});
  std::printf("@smem_layout_atom_a\n"); print(typename C::SmemLayoutAtomA{});
  std::printf("\n@smem_layout_atom_b\n"); print(typename C::SmemLayoutAtomB{});
  std::printf("\n@smem_layout_a\n"); print(typename C::SmemLayoutA{});
  std::printf("\n@smem_layout_b\n"); print(typename C::SmemLayoutB{});
  std::printf("\n@gmem_tiled_copy_a\n"); cutepy_type_name<typename C::GmemTiledCopyA>();
  std::printf("\n@gmem_tiled_copy_b\n"); cutepy_type_name<typename C::GmemTiledCopyB>();
  std::printf("\n@smem_copy_atom_a\nvoid\n@smem_copy_atom_b\nvoid");
  std::printf("\n@shared_storage_bytes\n%d", int(sizeof(typename C::SharedStorage)));
  std::printf("\n@tma_transaction_bytes\n%d", int(C::TmaTransactionBytes));
  std::printf("\n@accumulator_pipeline_stages\n%d", int(CB::AccumulatorPipelineStageCount));
  std::printf("\n@kernel_smem_carveout\n%d\n", int(CB::KernelSmemCarveout));
}
"""

SM100_TYPES = (
    ("half_t", "half_t", "float"),
    ("half_t", "half_t", "half_t"),
    ("bfloat16_t", "bfloat16_t", "float"),
    ("float", "float", "float"),
    ("tfloat32_t", "tfloat32_t", "float"),
    ("int8_t", "int8_t", "int32_t"),
    ("float_e4m3_t", "float_e4m3_t", "float"),
    ("float_e4m3_t", "float_e5m2_t", "half_t"),
)
SM100_SCHEDULES = (
    "KernelScheduleAuto",
    "KernelScheduleAuto",
    "KernelTmaWarpSpecialized1SmSm100",
    "KernelTmaWarpSpecialized2SmSm100",
)


def sm100_configs(seed: int = SEED_SM100, count: int = COUNT_SM100) -> list[dict[str, Any]]:
    """``count`` seeded SM100 dense mainloop configurations: keyword arguments of ``collective_builder``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        ea, eb, acc = rng.choice(SM100_TYPES)
        schedule = rng.choice(SM100_SCHEDULES)
        la, lb = rng.choice(("RowMajor", "ColumnMajor")), rng.choice(("RowMajor", "ColumnMajor"))
        if _bits(ea) == 32 and rng.random() < 0.9:  # MN-major tf32 takes an atom cutepy does not model
            la, lb = "RowMajor", "ColumnMajor"
        al_a = 128 // _bits(ea) if rng.random() < 0.93 else 64 // _bits(ea)
        al_b = 128 // _bits(eb)
        two = schedule.endswith("2SmSm100") or (schedule == "KernelScheduleAuto" and rng.random() < 0.5)
        m = rng.choice((128, 256, 256)) if two else rng.choice((64, 128, 128))
        if rng.random() < 0.05:
            m = rng.choice((64, 192))
        n = rng.choice((16, 32, 64, 96, 128, 128, 192, 256, 256, 24, 40))
        k = rng.choice((1, 2, 4, 4)) * (256 // min(16, max(8, _bits(ea))) if _bits(ea) <= 16 else 8) * 2
        cluster = rng.choice(((2, 1, 1), (2, 2, 1), (4, 1, 1), (4, 2, 1))) if two else rng.choice(CLUSTERS)
        r = rng.random()
        stages: Any = (
            "auto"
            if r < 0.6
            else ("auto", rng.choice((0, 16384, 65536)))
            if r < 0.85
            else rng.choice((1, 2, 3, 6))
        )
        out.append(
            dict(
                arch="Sm100",
                op_class="OpClassTensorOp",
                element_a=ea,
                layout_a=la,
                alignment_a=max(1, al_a),
                element_b=eb,
                layout_b=lb,
                alignment_b=al_b,
                element_accumulator=acc,
                tile_shape=(m, n, k),
                cluster_shape=cluster,
                stage_count=stages,
                schedule=schedule,
            )
        )
    return out


def sm100_case(c: dict[str, Any]) -> str:
    """The C++ statements that build SM100 configuration ``c`` and print its collective."""
    return mainloop_case(c).replace(
        "cutepy_print_mainloop<typename CB::CollectiveOp>();", "cutepy_print_sm100<CB>();"
    )


SM120_SCHEDULES = (
    "KernelScheduleAuto",
    "KernelTmaWarpSpecializedCooperative",
    "KernelTmaWarpSpecializedPingpong",
    "KernelScheduleF8f6f4Sm120",
)


def sm120_configs(seed: int = SEED_SM120, count: int = COUNT_SM120) -> list[dict[str, Any]]:
    """``count`` seeded SM120 dense mainloop configurations: keyword arguments of ``collective_builder``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        ea = rng.choice(("float_e4m3_t", "float_e5m2_t")) if rng.random() < 0.95 else "half_t"
        eb = rng.choice(("float_e4m3_t", "float_e5m2_t"))
        tn = rng.random() < 0.9
        la, lb = ("RowMajor", "ColumnMajor") if tn else (rng.choice(("RowMajor", "ColumnMajor")), "RowMajor")
        al_a = 128 // _bits(ea) if rng.random() < 0.95 else 64 // _bits(ea)
        m = rng.choice((64, 128, 128, 256))
        n = rng.choice((32, 64, 64, 128, 128, 256, 16, 96))
        k = rng.choice((64, 128, 128, 256, 32))
        cluster = (1, 1, 1) if rng.random() < 0.93 else (2, 1, 1)
        r = rng.random()
        stages: Any = (
            "auto"
            if r < 0.65
            else ("auto", rng.choice((0, 8192, 32768)))
            if r < 0.85
            else rng.choice((1, 2, 3, 5))
        )
        out.append(
            dict(
                arch="Sm120",
                op_class="OpClassTensorOp",
                element_a=ea,
                layout_a=la,
                alignment_a=max(1, al_a),
                element_b=eb,
                layout_b=lb,
                alignment_b=16,
                element_accumulator="float",
                tile_shape=(m, n, k),
                cluster_shape=cluster,
                stage_count=stages,
                schedule=rng.choice(SM120_SCHEDULES),
            )
        )
    return out


HEADER_SM120 = (
    "# C++ CUTLASS 4.7: cutlass::gemm::collective::CollectiveBuilder<Sm120, OpClassTensorOp, ...>\n"
    "# ::CollectiveOp (dense F8F6F4) for {count} seeded configurations (seed {seed}); compiled on the host\n"
    "# with g++ (tests/builders/builder_host.hpp).\n"
    "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include python -m tests.builders.builder_cxx sm120"
)


HOST_TMA = Path(__file__).resolve().parent / "builder_tma_host.hpp"
FILE_TMA = DATA / "builders_sm90_tma_cxx47.txt"
SEED_TMA = 3205
COUNT_TMA = 60

#: prints each TMA collective's ``Params::TMA_A`` / ``TMA_B`` (default-constructed: the type-level parts)
#: and their gmem bases; the run-time builds that the stub's descriptor lines come from
PRINT_TMA = r"""
template <class C> void cutepy_print_tma() {
  using namespace cute;
  using TA = typename C::Params::TMA_A;
  using TB = typename C::Params::TMA_B;
  std::printf("@tma_load_a\n"); print(TA{});
  std::printf("@tma_load_a_gbasis\n"); print(typename TA::AuxParams::TmaGmemBasis{});
  std::printf("\n@tma_load_b\n"); print(TB{});
  std::printf("@tma_load_b_gbasis\n"); print(typename TB::AuxParams::TmaGmemBasis{});
  std::printf("\n");
}

// make_tma_copy_A_sm90 / _B_sm90 at run time on a null gmem tensor of element E (extents and
// strides as the caller gives them); checks it is the collective's TMA_A / TMA_B type
template <class C, class E, class GShape, class GStride>
void cutepy_print_tma_desc_a(GShape s, GStride d) {
  using namespace cute;
  auto t = make_tma_copy_A_sm90(typename C::GmemTiledCopyA{},
      make_tensor(static_cast<E const*>(nullptr), s, d), typename C::SmemLayoutA{}(_,_,Int<0>{}),
      typename C::TileShape{}, typename C::DispatchPolicy::ClusterShape{});
  static_assert(std::is_same_v<decltype(t), typename C::Params::TMA_A>, "not TMA_A");
  std::fflush(stdout);
}
template <class C, class E, class GShape, class GStride>
void cutepy_print_tma_desc_b(GShape s, GStride d) {
  using namespace cute;
  auto t = make_tma_copy_B_sm90(typename C::GmemTiledCopyB{},
      make_tensor(static_cast<E const*>(nullptr), s, d), typename C::SmemLayoutB{}(_,_,Int<0>{}),
      typename C::TileShape{}, typename C::DispatchPolicy::ClusterShape{});
  static_assert(std::is_same_v<decltype(t), typename C::Params::TMA_B>, "not TMA_B");
  std::fflush(stdout);
}
"""

HEADER_TMA = (
    "# C++ CUTLASS 4.7: CollectiveBuilder<Sm90, OpClassTensorOp, ...>::CollectiveOp::Params::TMA_A / TMA_B\n"
    "# (make_tma_copy_A_sm90 / _B_sm90, or make_tma_copy for KernelTma) for {count} of the stored valid TMA\n"
    "# configurations of builders_sm90_mainloop_cxx47.txt (seed {seed}): each printed default-constructed\n"
    "# (TiledCopy and Copy_Atom layouts, value type) with AuxParams::TmaGmemBasis, then built at run time\n"
    "# for a problem of one CTA tile (L = 1, null pointer; static_assert: the type is TMA_A / TMA_B), the\n"
    "# DESC line being what the recording stub of cuTensorMapEncodeTiled received (tests/kernels/tma_cxx.py\n"
    "# STUB); compiled on the host with g++ (tests/builders/builder_tma_host.hpp).\n"
    "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=2 \\\n"
    "#   python -m tests.builders.builder_cxx tma"
)


def tma_configs(seed: int = SEED_TMA, count: int = COUNT_TMA) -> list[dict[str, Any]]:
    """A seeded sample of the stored SM90 mainloop configurations C++ built with TMA loads."""
    valid = [
        c
        for c, s in read(FILE_MAINLOOP)
        if "error" not in s and s.get("gmem_tiled_copy_a", "").startswith("cute::SM90_TMA_LOAD")
    ]
    return random.Random(seed).sample(valid, min(count, len(valid)))


def tma_case(c: dict[str, Any]) -> str:
    """The C++ statements that build configuration ``c``, print its TMA copies' types, and encode
    each at run time for a problem of one CTA tile (L = 1; the stub prints the descriptor)."""
    from cutepy.builders import collective_builder
    from cutepy.builders.sm90 import _tma_internal_element

    col = collective_builder(**arguments(c))
    m, n, k = c["tile_shape"]
    ea, eb = (c["element_b"], c["element_a"]) if col.swap_ab else (c["element_a"], c["element_b"])
    ka = c["layout_a"] == "RowMajor"
    kb = c["layout_b"] == "ColumnMajor"
    if col.swap_ab:
        ka, kb = kb, ka
    lines = [mainloop_case(c).replace("cutepy_print_mainloop<", "cutepy_print_tma<")]
    lines.append("using C = typename CB::CollectiveOp;")
    for name, e, kmaj, mn in (("a", ea, ka, m), ("b", eb, kb, n)):
        stride = (
            f"make_stride(int64_t({k}), Int<1>{{}}, int64_t({mn * k}))"
            if kmaj
            else f"make_stride(Int<1>{{}}, int64_t({mn}), int64_t({mn * k}))"
        )
        t = _elem(_tma_internal_element(col, e)).replace("cutlass::uint", "uint")
        lines.append(f'std::printf("@tma_load_{name}_descriptor\\n"); std::fflush(stdout);')
        shape = f"make_shape(int32_t({mn}), int32_t({k}), int32_t(1))"
        lines.append(f"cutepy_print_tma_desc_{name}<C, {t}>({shape}, {stride});")
    return "\n".join(lines)


def _keys(configs: list[dict[str, Any]], build_name: str) -> list | None:
    """Cases cutepy expects CUTLASS to reject compile in units of their own (fewer splits)."""
    try:
        import cutepy.builders as builders
        from cutepy.core.errors import CutepyError
    except ImportError:
        return None
    build = getattr(builders, build_name)
    keys = []
    for c in configs:
        try:
            build(**{k: tuple(v) if isinstance(v, list) else v for k, v in c.items()})
            keys.append(0)
        except CutepyError:
            keys.append(1)
    return keys


def main(which: str = "mainloop") -> None:
    if which == "tma":
        configs = tma_configs()
        from tests.kernels.tma_cxx import STUB

        records = run(configs, tma_case, None, HOST_TMA, STUB + PRINT_TMA)
        path, header = FILE_TMA, HEADER_TMA.format(count=len(configs), seed=SEED_TMA)
    elif which == "sm120":
        configs = sm120_configs()
        records = run(configs, mainloop_case, _keys(configs, "collective_builder"))
        path, header = FILE_SM120, HEADER_SM120.format(count=len(configs), seed=SEED_SM120)
    elif which == "sm100":
        configs = sm100_configs()
        records = run(configs, sm100_case, _keys(configs, "collective_builder"), HOST, PRINT_SM100)
        path, header = FILE_SM100, HEADER_SM100.format(count=len(configs), seed=SEED_SM100)
    elif which == "epilogue":
        configs = epilogue_configs()
        records = run(configs, epilogue_case, _keys(configs, "epilogue_builder"), HOST_EPILOGUE)
        path, header = FILE_EPILOGUE, HEADER_EPILOGUE.format(count=len(configs), seed=SEED_EPILOGUE)
    else:
        configs = mainloop_configs()
        records = run(configs, mainloop_case, _keys(configs, "collective_builder"))
        path, header = FILE_MAINLOOP, HEADER_MAINLOOP.format(count=len(configs), seed=SEED_MAINLOOP)
    write(path, header, records)
    bad = sum(1 for _, t in records if t.startswith("@error"))
    print(f"{len(records)} cases, {bad} rejected -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:2])
