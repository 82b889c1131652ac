"""MkDocs hook: the API reference, generated at build time from each module's ``__all__``.

Every name a module exports gets an entry (``:::`` for mkdocstrings: the typed signature,
the constructor signature of a class, the docstring with its example), a row in the
module's summary table, a link to its source and "see also" links to the names defined
beside it. A new export appears in the reference without editing a page; guides link
their code spans that name an export (`` `idx2crd` ``) to its entry.

Used from ``mkdocs.yml`` (``hooks:``); ``tests/test_docs.py`` checks that every public
name has an entry.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = "https://github.com/cutepy/cutepy/blob/main"


@dataclass(frozen=True)
class Module:
    """One reference page: the module, the page's path and its first paragraph."""

    name: str
    page: str
    intro: str
    extra: tuple[str, ...] = ()  # objects documented beside the exports (full paths)


MODULES = [
    Module("cutepy", "api/core.md", "The layout algebra: layouts, notation, every operation, swizzles, "
           "integer tuples, tensors, MMA and copy atoms."),
    Module("cutepy.xla", "api/xla.md", "XLA shapes and tiled layouts: parse, print, index, size, compile to "
           "CuTe and back, pack real data.", ("cutepy.xla.reference.reference_buffer",
                                              "cutepy.xla.reference.reference_offsets")),
    Module("cutepy.program", "api/program.md", "numpy array programs traced, compiled into CuTe layouts and "
           "checked against numpy."),
    Module("cutepy.banks", "api/banks.md", "Shared-memory bank conflicts as an H100 counts them: wavefronts "
           "of a thread-value access, and the search for a swizzle that removes them."),
    Module("cutepy.viz", "api/viz.md", "Pictures: C++ CuTe's text table, SVG written by cutepy itself, "
           "LaTeX/TikZ, and the rich display of notebooks.", ("cutepy.viz.display.mimebundle",
                                                               "cutepy.viz.grid.check_cells",
                                                               "cutepy.viz.tma.tma_box_svg",
                                                               "cutepy.viz.tma.tmem_svg")),
    Module("cutepy.emit", "api/emit.md", "The C++ CuTe and CuTe DSL code that builds a cutepy value.",
           ("cutepy.emit.tma.cpp_make_tma_copy",)),
    Module("cutepy.equivalence", "api/equivalence.md", "Whether two layouts are the same function: a proof "
           "by normal forms, a counterexample, or (with symbols) the exact condition."),
    Module("cutepy.symbolic", "api/symbolic.md", "Symbols with declared facts, for shapes and strides that "
           "are integer expressions.", ("cutepy.core.symbolic.sym.Sym",)),
    Module("cutepy.builders", "api/builders.md", "CUTLASS's GEMM CollectiveBuilders: the mainloop and "
           "epilogue "
           "CUTLASS builds for a problem, its selectors, each choice explained, and design sweeps."),
    Module("cutepy.derivation", "api/derivation.md", "Step-by-step derivations of the algebra's operations."),
    Module("cutepy.linear", "api/linear.md", "Triton's linear layouts over F2: Gluon layouts, CuTe and "
           "Triton "
           "checking each other, swizzles solved."),
]

#: mkdocstrings options of every entry (typed signatures on their own line, constructors merged).
OPTIONS = """\
    options:
      heading_level: 3
      show_root_heading: true
      show_root_full_path: false
      show_signature_annotations: true
      separate_signature: true
      merge_init_into_class: true
      show_source: false
      show_symbol_type_heading: true
      show_symbol_type_toc: true
      members_order: source
"""


def _first_line(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    line = re.sub(r":(?:func|class|mod|meth|data|attr|exc|obj):`~?([^`]+)`", r"`\1`", line)
    return line.replace("|", "\\|")


def _kind(obj: Any) -> str:
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return "function"
    return "constant"


def _canonical(module: str, name: str, obj: Any) -> str:
    """The path mkdocstrings documents ``module.name`` by: the public name where griffe (reading
    the source) finds it there, else where the object is defined (a name shadowed by a submodule
    of the same name, ``cutepy.xla.report``, or one loaded on first use, ``cutepy.symbolic.Sym``)."""
    if _griffe_kind(f"{module}.{name}") is not None:
        return f"{module}.{name}"
    return f"{obj.__module__}.{obj.__qualname__}"


def _griffe_kind(path: str) -> str | None:
    """What griffe reads at ``path`` (``function``, ``class``, ``attribute``), None where it
    finds nothing or a module."""
    try:
        found = _package()[path.split(".", 1)[1]]
        if found.is_module:
            return None
        return str(found.final_target.kind.value)
    except Exception:  # griffe's KeyError / AliasResolutionError / CyclicAliasError
        return None


@functools.cache
def _package() -> Any:
    """cutepy as griffe reads it (once per build)."""
    import griffe  # mkdocstrings' own dependency

    return griffe.load("cutepy", search_paths=[str(ROOT)], resolve_aliases=False)


def _source(obj: Any) -> str | None:
    try:
        path = Path(inspect.getsourcefile(obj) or "").resolve()
        lines, first = inspect.getsourcelines(obj)
    except (TypeError, OSError):
        return None
    try:
        rel = path.relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return f"{SOURCE}/{rel}#L{first}-L{first + len(lines) - 1}"


def entries(module: str) -> list[tuple[str, str, Any]]:
    """``(name, identifier, object)`` of every name in ``module.__all__``, in table order."""
    mod = importlib.import_module(module)
    out = []
    for name in sorted(mod.__all__, key=lambda n: (n[0].islower(), n.lower())):
        obj = getattr(mod, name)
        ident = _canonical(module, name, obj) if _kind(obj) != "constant" else f"{module}.{name}"
        out.append((name, ident, obj))
    return out


def identifiers() -> dict[str, str]:
    """Every public name (``cutepy.xla.to_cute``) and the identifier of its reference entry."""
    out: dict[str, str] = {}
    for m in MODULES:
        for name, ident, _ in entries(m.name):
            out[f"{m.name}.{name}"] = ident
        for path in m.extra:
            out[path] = path
    return out


def page(m: Module) -> str:
    """The Markdown of one reference page."""
    rows = entries(m.name)
    groups: dict[str, list[str]] = {}
    for name, _, obj in rows:
        groups.setdefault(getattr(obj, "__module__", "") or "", []).append(name)
    ident_of = {name: ident for name, ident, _ in rows}
    # Material's search ranks a page by its whole text, which on a reference page is long: the
    # boost brings an entry whose title is the query (`Swizzle`) into the first screen of results,
    # cutepy's own page (the layout algebra, most of the names) before the subpackages'
    boost = 24 if m.name == "cutepy" else 8
    out = ["---", "search:", f"  boost: {boost}", "---", "", f"# {m.name}", "", m.intro, "",
           f"`import {m.name}` exports {len(rows)} names "
           "(its `__all__`), each listed here with its typed signature and an example.", "",
           "| name | kind | summary |", "|---|---|---|"]
    for name, ident, obj in rows:
        out.append(f"| [`{name}`](#{ident}) | {_kind(obj)} | {_first_line(obj)} |")
    for path in m.extra:
        out.append(f"| [`{path.rsplit('.', 1)[1]}`](#{path}) | {_kind(_resolve(path))} | "
                   f"{_first_line(_resolve(path))} |")
    out.append("")
    for name, ident, obj in rows:
        out += [f"::: {ident}", OPTIONS] if static(ident, obj) else [by_hand(name, ident, obj)]
        links = []
        src = _source(obj) if _kind(obj) != "constant" else None
        if src:
            links.append(f"[source]({src})")
        home = getattr(obj, "__module__", "") or ""
        near = [n for n in groups.get(home, []) if n != name] if _kind(obj) != "constant" else []
        if near:
            links.append("see also: " + ", ".join(f"[`{n}`](#{ident_of[n]})" for n in near[:8]))
        if links:
            out += ['<p class="cutepy-links">' + " · ".join(_md_links(x) for x in links) + "</p>", ""]
    for path in m.extra:
        out += [f"::: {path}", OPTIONS]
    return "\n".join(out) + "\n"


def static(ident: str, obj: Any) -> bool:
    """Whether griffe (which reads the source, not the running module) sees ``obj`` at ``ident``
    as what it is; a function made by another function (``idx2crd = _checked(...)``) is
    documented by hand, from its runtime signature and docstring."""
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return True
    return _griffe_kind(ident) in ("function", "class")


def by_hand(name: str, ident: str, obj: Any) -> str:
    """The entry of a name griffe cannot see: heading, typed signature, docstring."""
    spec = importlib.util.spec_from_file_location("cutepy_docs_docstrings", Path(__file__).with_name(
        "docstrings.py"))
    assert spec is not None and spec.loader is not None
    docstrings = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(docstrings)
    try:
        sig = inspect.signature(obj)
        params = [p.replace(annotation=_Raw.of(p.annotation)) for p in sig.parameters.values()]
        sig = sig.replace(parameters=params, return_annotation=_Raw.of(sig.return_annotation))
        text = str(sig)
    except (TypeError, ValueError):
        text = "(...)"
    doc = docstrings.markdown_docstring(inspect.getdoc(obj) or "")
    kind = "class" if inspect.isclass(obj) else "function"
    badge = f'<code class="doc-symbol doc-symbol-heading doc-symbol-{kind}"></code>'
    return (f"### {badge} {name} {{#{ident} .doc-heading}}\n\n```python\n{name}{text}\n```\n\n{doc}\n")


class _Raw(str):
    """An annotation written as a string (``from __future__ import annotations``), shown unquoted."""

    def __repr__(self) -> str:
        return str(self)

    @classmethod
    def of(cls, annotation: Any) -> Any:
        return cls(annotation) if isinstance(annotation, str) else annotation


def _md_links(text: str) -> str:
    """Markdown links and code spans inside a raw HTML paragraph, as HTML."""
    text = re.sub(r"\[`([^`]+)`\]\(([^)]+)\)", r'<a href="\2"><code>\1</code></a>', text)
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', text)


def _resolve(path: str) -> Any:
    mod, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(mod), name)


_CODE_SPAN = re.compile(r"(?<![`\[])`([A-Za-z_][A-Za-z0-9_.]*)(\([^`\n]*\))?`(?![`\]])")
_FENCED = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def link_names(markdown: str, names: dict[str, str]) -> str:
    """Guide text: a code span naming an export (`` `idx2crd` ``, `` `cutepy.xla.to_cute` ``,
    `` `tiled_mma_svg(mma)` ``) links to its reference entry; fenced code is left alone.

    >>> link_names("Use `idx2crd`, not ```x```.", {"idx2crd": "cutepy.idx2crd"})
    'Use [`idx2crd`][cutepy.idx2crd], not ```x```.'
    """
    def span(mt: re.Match[str]) -> str:
        ident = names.get(mt.group(1))
        return f"[{mt.group(0)}][{ident}]" if ident else mt.group(0)

    parts, last = [], 0
    for fence in _FENCED.finditer(markdown):
        parts += [_CODE_SPAN.sub(span, markdown[last:fence.start()]), fence.group(0)]
        last = fence.end()
    parts.append(_CODE_SPAN.sub(span, markdown[last:]))
    return "".join(parts)


def short_names() -> dict[str, str]:
    """Names a guide's code span may use: full paths, and the bare names of ``cutepy`` and of
    the submodules where unambiguous (``to_cute``, ``tiled_mma_svg``)."""
    full = identifiers()
    out = dict(full)
    bare: dict[str, set[str]] = {}
    for path, ident in full.items():
        bare.setdefault(path.rsplit(".", 1)[1], set()).add(ident)
        if path.startswith("cutepy.") and path.count(".") == 1:
            out[path.split(".", 1)[1]] = ident  # cutepy's own names win: `size` is cutepy.size
        out["cp." + path.split(".", 1)[1]] = ident
    for name, idents in bare.items():
        if len(idents) == 1 and len(name) > 3:
            out.setdefault(name, next(iter(idents)))
    return out


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: add the generated reference pages."""
    from mkdocs.structure.files import File  # mkdocs runs this hook; the suite imports it too

    for m in MODULES:
        old = files.get_file_from_path(m.page)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, m.page, content=page(m)))
    return files


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs hook: guides link the names they mention to the reference."""
    if page.file.src_uri.startswith("api/"):
        return markdown
    return link_names(markdown, short_names())
