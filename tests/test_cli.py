"""The ``cutepy`` command, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cutepy.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_tour_runs_and_shows_the_algebra():
    r = run()
    assert r.returncode == 0, r.stderr
    assert "((2,2),3):((24,2),8)" in r.stdout
    assert "(2,3):(1,8)" in r.stdout
    assert "Sw<3,4,3> o 0 o (8,8):(8,1)" in r.stdout


def test_show():
    r = run("show", "(2,(2,2)):(4,(2,1))")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "(2,(2,2)):(4,(2,1))"
    assert lines[1] == "      0   1   2   3 "
    assert lines[3] == " 0  | 0 | 2 | 1 | 3 |"
    assert "size 8" in lines[-1] and "cosize 8" in lines[-1]


def test_show_writes_pictures(tmp_path):
    out = tmp_path / "l.svg"
    r = run("show", "(4,8):(8,1)", "--svg", str(out), "--latex")
    assert r.returncode == 0, r.stderr
    assert out.read_text().lstrip().startswith("<svg") or "<svg" in out.read_text()[:200]
    assert "tikzpicture" in r.stdout


@pytest.mark.parametrize(
    "args, expected",
    [
        (("composition", "(6,2):(8,2)", "(4,3):(3,1)"), "((2,2),3):((24,2),8)"),
        (("complement", "4:2", "24"), "(2,3):(1,8)"),
        (("logical_divide", "(4,2,3):(2,1,8)", "4:2"), "((2,2),(2,3)):((4,1),(2,8))"),
        (("composition", "(12,(4,8)):(59,(13,1))", "<3, 8>"), "(3,(4,2)):(59,(13,1))"),
        (("upcast", "(4,8):(1,4)", "2"), "(2,8):(1,2)"),
        (("max_common_vector", "(4,8):(1,4)", "(4,8):(1,8)"), "4"),
    ],
)
def test_op(args, expected):
    r = run("op", *args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == expected


@pytest.mark.parametrize(
    "args, words",
    [
        (("show", "(2,3"), "column 5"),
        (("op", "composition", "(4,6):(1,5)", "8:3"), "inadmissible"),
        (("op", "frobnicate", "4:1"), "unknown operation"),
        (("op", "complement"), "takes other arguments"),
        (("nonsense",), "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    r = run(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert words in r.stderr


def test_op_explain_and_equivalent():
    r = run("op", "explain", "composition", "(6,2):(8,2)", "(4,3):(3,1)")
    assert r.returncode == 0, r.stderr
    assert "((2,2),3):((24,2),8)" in r.stdout and "mode 0" in r.stdout
    r = run("op", "equivalent", "(2,(1,6)):(1,(6,2))", "12:1")
    assert r.returncode == 0, r.stderr
    assert "12:1" in r.stdout and "equivalent" in r.stdout.lower()
