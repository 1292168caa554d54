"""``--html FILE`` (issue #16 point 3): a self-contained page -- well-formed XHTML with inline SVG charts,
nothing fetched from anywhere, every text escaped."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from partiql.simulate import compare, comparison, load, parse, report, simulate
from partiql.simulate.html import page

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
XHTML, SVG = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"
TRICKY = """
duration = 3
tables = ["CREATE TABLE Things PRIMARY KEY (pk STRING HASH, n NUMBER RANGE) BILLING MODE PROVISIONED (5 RCU, 5 WCU)"]

[[pattern]]
name = "<b>reads</b> & more"
statement = "SELECT * FROM Things WHERE pk = ? AND n < 5"
params = ["<script>alert(1)</script>"]
rate = 20
"""


def checked(text: str) -> ET.Element:
    """The page parsed as XML, after checking it references nothing outside itself."""
    root = ET.fromstring(text.split("\n", 1)[1])  # after <!DOCTYPE html>
    assert root.tag == XHTML + "html"
    for element in root.iter():
        assert element.tag not in (XHTML + "script", XHTML + "link", XHTML + "img", XHTML + "iframe")
        for name, value in element.attrib.items():
            assert name not in ("src", "href") and "url(" not in value, (element.tag, name, value)
    assert "@import" not in text and "url(" not in text
    return root


def test_a_comparison_page_has_a_table_and_the_charts_of_each_design():
    workload = load(EXAMPLES / "timeseries.toml")
    root = checked(page(comparison(compare(workload, workload.designs, duration=5))))
    cells = [td.text for td in root.iter(XHTML + "td")]
    assert "date as key" in cells and "date + shard" in cells
    charts = list(root.iter(SVG + "svg"))
    # per design the table's chart and its heat; the pattern's chart where it throttles (date as key), a sentence
    # where nothing moves (date + shard: a steady rate, all served)
    assert len(charts) == 2 * 2 + 1
    steady = [p.text for p in root.iter(XHTML + "p") if (p.text or "").startswith("a steady ")]
    assert steady == ["a steady 1,500 requests a second for 5 s, all served (no chart: nothing moves)"]
    assert any(rect.get("fill") == "#c53030" for rect in root.iter(SVG + "rect"))  # throttles marked red


def test_every_text_is_escaped():
    text = page(report(simulate(parse(TRICKY, "tricky.toml"))))
    root = checked(text)
    assert "<script>" not in text and "&lt;b&gt;reads&lt;/b&gt; &amp; more" in text
    headings = [h.text for h in root.iter(XHTML + "h2")]
    assert any(h.startswith("<b>reads</b> & more") for h in headings)


def test_the_cli_writes_the_page(tmp_path):
    target = tmp_path / "votes.html"
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "3", "--html", str(target)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"report written to {target}" in done.stderr
    checked(target.read_text(encoding="utf-8"))
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "1", "--html", str(tmp_path / "no" / "such.html")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "cannot write" in done.stderr
