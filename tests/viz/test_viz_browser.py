"""Render a picture in headless Chromium and check the screenshot shows something."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import cutepy
from cutepy.viz import layout_svg


def _chromium() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode_png(data: bytes) -> tuple[int, int, int, list[bytearray]]:
    """(width, height, channels, rows) of an 8-bit RGB/RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * ch
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[f]) & 0xFF
        rows.append(line)
        prev = line
    return width, height, ch, rows


@pytest.mark.skipif(_chromium() is None, reason="headless Chromium is not installed")
def test_svg_renders_in_chromium(tmp_path: Path) -> None:
    svg_path = tmp_path / "layout.svg"
    svg_path.write_text(layout_svg(cutepy.parse("((2,2),(2,4)):((1,16),(2,4))"), tile="auto"))
    png_path = tmp_path / "shot.png"
    cmd = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png_path}",
        "--window-size=500,300", svg_path.as_uri(),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=90)
    width, height, ch, rows = decode_png(png_path.read_bytes())
    assert (width, height) == (500, 300)
    colours = set()
    dark = 0
    for line in rows:
        for x in range(0, width * ch, ch):
            px = bytes(line[x:x + 3])
            colours.add(px)
            dark += max(px) < 80
    assert len(colours) > 20, "the screenshot is (nearly) blank"
    assert dark > 200, "no text or border pixels in the screenshot"
