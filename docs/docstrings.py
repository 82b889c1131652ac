"""A griffe extension for the API pages: docstrings written for pytest and Sphinx read
well as Markdown.

- each run of ``>>>`` example lines (run by pytest's doctests) is fenced as ``pycon``
  code, since Markdown would read ``>>>`` as nested quotes;
- a reStructuredText literal block (a paragraph ending in ``::``, then an indented
  block) loses the extra colon and its indent, and is fenced as code;
- Sphinx roles such as ``:func:`~cutepy.viz.show``` become plain code spans.

Every public name's example lives in its docstring (tests/test_docstrings.py checks it).
"""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wrap each block of ``>>>`` lines (with their outputs) in a code fence.

    >>> fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nAfter.").splitlines()
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'After.']
    """
    out: list[str] = []
    inside = False
    indent = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


def literal_blocks(text: str) -> str:
    """reST ``::`` literal blocks as fenced code (``>>>`` blocks are left to :func:`fence_doctests`).

    >>> literal_blocks("Like this::\\n\\n    a = 1\\n\\nAfter.").splitlines()
    ['Like this:', '', '```text', 'a = 1', '```', '', 'After.']
    >>> literal_blocks("Run ::\\n\\n    >>> 1\\n    1").splitlines()
    ['Run', '', '>>> 1', '1']
    """
    lines = text.split("\n")
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if not line.rstrip().endswith("::"):
            out.append(line)
            continue
        head = line.rstrip()[:-2]
        out.append(head.rstrip() if head.endswith(" ") or not head.strip() else head + ":")
        indent = len(line) - len(line.lstrip())
        while k < len(lines) and not lines[k].strip():
            out.append(lines[k])
            k += 1
        block: list[str] = []
        while k < len(lines) and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > indent):
            block.append(lines[k])
            k += 1
        trailing: list[str] = []
        while block and not block[-1].strip():
            trailing.append(block.pop())
        if not block:
            out += trailing
            continue
        cut = min(len(b) - len(b.lstrip()) for b in block if b.strip())
        body = [b[cut:] for b in block]
        out += body if body[0].startswith(">>>") else ["```text", *body, "```"]
        out += trailing
    return "\n".join(out)


def plain_roles(text: str) -> str:
    """Sphinx cross-reference roles as code spans (``~`` keeps the last name only).

    >>> plain_roles("see :func:`~cutepy.viz.show` and :class:`cutepy.Layout`")
    'see `show` and `cutepy.Layout`'
    """
    return _ROLE.sub(lambda m: "`" + (m.group(1).rsplit(".", 1)[-1] if m.group(0).count("~") else
                                      m.group(1)) + "`", text)


def markdown_docstring(text: str) -> str:
    """All three rewrites; code blocks are fenced first, so roles inside examples are left alone."""
    parts = fence_doctests(literal_blocks(text)).split("```")
    return "```".join(plain_roles(p) if k % 2 == 0 else p for k, p in enumerate(parts))


class MarkdownDocstrings(griffe.Extension):
    """Rewrite every docstring griffe loads (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value or "")
