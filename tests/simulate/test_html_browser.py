"""Issue 37 point 5: the HTML report rendered by a real browser (headless Chromium), not only parsed as XML.
The screenshot's pixels must show what the page says: the verdict's box, the throttled heat cells in red,
the served line in green. Skips, saying why, where Chromium is not installed (test_html.py validates the page
as XHTML there)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from partiql.simulate import load, report, simulate
from partiql.simulate.html import COLOURS, page

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium): test_html.py checks the XHTML")
    return path


def _pixels(png: bytes) -> set:
    """The colours of a PNG's pixels (8-bit RGB or RGBA, no interlace: what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, [], None
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        data = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * size
    seen, previous = set(), bytearray(stride)
    for row in range(height):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):  # undo the row's filter (PNG spec §9)
            left = line[i - size] if i >= size else 0
            up, corner = previous[i], previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                best = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + best) & 255
        seen.update(bytes(line[i:i + 3]) for i in range(0, stride, size))
        previous = line
    return seen


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.lstrip("#"))


def test_chromium_renders_the_report_with_its_verdict_heat_and_lines(tmp_path):
    chromium = _chromium()
    found = report(simulate(load(EXAMPLES / "votes.toml"), duration=20))
    html, shot = tmp_path / "votes.html", tmp_path / "votes.png"
    html.write_text(page(found), encoding="utf-8")
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--screenshot={shot}", "--window-size=1000,1600", html.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert shot.exists(), done.stderr[-2000:]
    colours = _pixels(shot.read_bytes())
    assert _rgb(COLOURS["throttled"]) in colours   # the heat's throttled cells and the throttled line
    assert _rgb("#ebf8ff") in colours              # the verdict's box
    assert len(colours) > 50                       # text, lines, shades: a page, not a blank
