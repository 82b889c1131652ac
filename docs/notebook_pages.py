"""MkDocs hook: the executed notebooks of ``notebooks/`` as pages of the site.

Each ``notebooks/NN_name.ipynb`` becomes the page ``notebooks/NN_name.md``, written from
the notebook as stored (``notebooks/execute.py`` executes and stores them): Markdown cells
as they are, code cells highlighted, outputs as the notebook holds them (pictures as their
``<img>``, text unwrapped in a scrolling block). Nothing is executed at build time, so the
pages show exactly what a repository viewer shows. The Notebooks section of the nav lists
the pages found, so a new notebook needs no edit here.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "notebooks"
SECTION = "Notebooks"

_NB_LINK = re.compile(r"\]\((?:\./)?(\d\d_[A-Za-z0-9_]+)\.ipynb(#[^)]*)?\)")
_REPO_LINK = re.compile(r"\]\(\.\./([^)]+)\)")


def notebooks() -> list[Path]:
    """The stored notebooks, in order."""
    return sorted(FOLDER.glob("[0-9][0-9]_*.ipynb"))


def title(path: Path) -> str:
    """A notebook's title: its first heading without the ``#``, or its file name."""
    cells = json.loads(path.read_text())["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _output(out: dict[str, Any]) -> str:
    kind = out.get("output_type")
    if kind == "stream":
        return _pre(_text(out.get("text", "")), "cutepy-output" + (" cutepy-stderr" if out.get("name") ==
                                                                     "stderr" else ""))
    if kind == "error":
        return _pre("\n".join(re.sub(r"\x1b\[[0-9;]*m", "", t) for t in out.get("traceback", [])),
                    "cutepy-output cutepy-stderr")
    data = out.get("data", {})
    if "text/html" in data:
        return f'<div class="cutepy-output-html">{_text(data["text/html"])}</div>'
    if "image/svg+xml" in data:
        return f'<div class="cutepy-output-html">{_text(data["image/svg+xml"])}</div>'
    if "image/png" in data:
        png = _text(data["image/png"])
        return f'<div class="cutepy-output-html"><img src="data:image/png;base64,{png}"></div>'
    if "text/markdown" in data:
        return _text(data["text/markdown"])
    if "text/plain" in data:
        return _pre(_text(data["text/plain"]), "cutepy-output")
    return ""


def _pre(text: str, cls: str) -> str:
    return f'<pre class="{cls}"><code>{html.escape(text.rstrip(chr(10)))}</code></pre>'


def markdown(path: Path) -> str:
    """The page of one notebook."""
    nb = json.loads(path.read_text())
    source_link = (f"*This page is the notebook `notebooks/{path.name}` as stored, outputs included; "
                   "run it yourself in Jupyter.*")
    parts: list[str] = []
    first = True
    for cell in nb["cells"]:
        src = _text(cell.get("source", ""))
        if cell["cell_type"] == "markdown":
            src = _NB_LINK.sub(lambda m: f"]({m.group(1)}.md{m.group(2) or ''})", src)
            src = _REPO_LINK.sub(r"](https://github.com/cutepy/cutepy/blob/main/\1)", src)
            parts.append(src)
            if first:
                parts.append(source_link)
                first = False
        elif cell["cell_type"] == "code":
            if src.strip():
                parts.append(f"```python\n{src.rstrip()}\n```")
            for out in cell.get("outputs", []):
                rendered = _output(out)
                if rendered:
                    parts.append(rendered)
    return "\n\n".join(parts) + "\n"


def on_config(config: Any) -> Any:
    """MkDocs hook: the nav's Notebooks section lists every stored notebook."""
    pages = [{title(p): f"notebooks/{p.stem}.md"} for p in notebooks()]
    for k, item in enumerate(config["nav"] or []):
        if isinstance(item, dict) and SECTION in item:
            config["nav"][k] = {SECTION: pages}
    return config


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: one generated page per notebook."""
    from mkdocs.structure.files import File  # mkdocs runs this hook

    for p in notebooks():
        files.append(File.generated(config, f"notebooks/{p.stem}.md", content=markdown(p)))
    return files
