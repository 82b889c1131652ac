// The playground page (docs/playground.md): cutepy running in Pyodide, both served by the site.
// docs/playground.py vendors Pyodide's npm package into playground/pyodide/ and the wheels
// (cutepy, sympy, mpmath) into playground/wheels/ at build time; nothing is fetched from
// elsewhere. Other pages load this file too and it does nothing there.
(function () {
  "use strict";

  // Python run once cutepy is unpacked: render(kind, text, tile, bytes) -> JSON text
  const APP = `
import json

import cutepy as cp
from cutepy.emit import cpp
from cutepy.viz import layout_svg, layout_table, show, tv_layout_svg
from cutepy.viz.layouts import swizzle_layout


def _table(obj):
    try:
        return layout_table(obj)
    except cp.CutepyError as e:  # rank 3 and more, basis strides: CuTe prints the layout only
        return f"{obj}\\n(no print_layout table: {e})"


def _code(obj):
    try:
        return cpp(obj)
    except cp.CutepyError as e:
        return f"(no C++ for this value: {e})"


def _draw(kind, text, tile, nbytes):
    e = int(nbytes)
    if e not in (1, 2, 4, 8, 16):
        raise cp.CutepyError(f"element bytes must be 1, 2, 4, 8 or 16, got {e}")
    if kind == "xla":  # integer arithmetic: cutepy.xla's numpy-free path (Pyodide's npm has no numpy)
        shape = cp.xla.parse_shape(text)
        return {"svg": cp.viz.xla_svg(shape), "print": cp.xla.report(shape), "code": str(cp.xla.to_cute(shape))}
    obj = cp.parse(text)
    if kind == "swizzle" or isinstance(obj, cp.Swizzle):
        if not isinstance(obj, cp.Swizzle):
            raise cp.CutepyError(f"a swizzle is written Sw<B,M,S>, e.g. Sw<3,4,3>; got {text!r}")
        grid = swizzle_layout(obj)
        svg = layout_svg(grid, hover=True, element_bytes=e,
                         title=f"{obj}: where each chunk of 2^{obj.base} offsets goes")
        return {"svg": svg, "print": f"{obj}\\n" + _table(grid), "code": _code(obj)}
    if isinstance(obj, tuple):
        return {"svg": show(obj).svg, "print": str(obj), "code": ""}
    if kind == "tv":
        t = cp.parse(tile)
        if isinstance(t, tuple) or not isinstance(t, cp.Layout):
            raise cp.CutepyError(f"the tile is a shape (M,N), e.g. (16,4); got {tile!r}")
        return {"svg": tv_layout_svg(obj, t.shape, hover=True), "print": _table(obj), "code": _code(obj)}
    colour = "bank" if isinstance(obj, cp.ComposedLayout) else "offset"
    svg = layout_svg(obj, hover=True, element_bytes=e, color=colour)
    return {"svg": svg, "print": _table(obj), "code": _code(obj)}


def render(kind, text, tile, nbytes):
    try:
        out = _draw(kind, text, tile, nbytes)
    except (cp.CutepyError, ValueError, TypeError) as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    return json.dumps(out)
`;

  function $(id) { return document.getElementById(id); }

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("cannot load " + src)); };
      document.head.appendChild(s);
    });
  }

  async function start() {
    const status = $("pg-status");
    const base = new URL("./", window.location.href);
    let py;
    try {
      const manifest = await (await fetch(new URL("wheels.json", base))).json();
      await loadScript(new URL("pyodide/pyodide.js", base).href);
      py = await window.loadPyodide({ indexURL: new URL("pyodide/", base).href });
      for (const wheel of manifest.wheels) {
        status.textContent = "Unpacking " + wheel + "…";
        const data = await (await fetch(new URL("wheels/" + wheel, base))).arrayBuffer();
        py.unpackArchive(data, "wheel");
      }
      py.runPython(APP);
    } catch (err) {
      status.textContent = "The playground's Python runtime is not part of this build (" + err.message +
        "). Build the docs with npm available: pip install -e \".[docs]\" && mkdocs build";
      status.className = "pg-error";
      return;
    }
    const render = py.globals.get("render");
    const draw = function () {
      const out = JSON.parse(render($("pg-kind").value, $("pg-text").value, $("pg-tile").value,
                                    $("pg-bytes").value));
      const pic = $("pg-picture");
      if (out.error) {
        status.textContent = out.error;
        status.className = "pg-error";
        return;
      }
      status.textContent = out.note || "Ready: cutepy " + py.runPython("cp.__version__") + " in Pyodide " +
        py.version + ".";
      status.className = out.note ? "pg-error" : "";
      pic.innerHTML = out.svg;
      $("pg-print").textContent = out.print;
      $("pg-cpp").textContent = out.code;
      $("pg-hover").innerHTML = "&nbsp;";
    };
    $("pg-draw").disabled = false;
    $("pg-draw").addEventListener("click", draw);
    $("pg-text").addEventListener("keydown", function (ev) { if (ev.key === "Enter") draw(); });
    $("pg-kind").addEventListener("change", draw);
    for (const a of document.querySelectorAll(".pg-examples a")) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        $("pg-kind").value = a.dataset.kind;
        $("pg-text").value = a.dataset.text;
        if (a.dataset.tile) $("pg-tile").value = a.dataset.tile;
        draw();
      });
    }
    // hovering a cell names it; hovering a thread's cell highlights all of that thread's cells
    $("pg-picture").addEventListener("mouseover", function (ev) {
      const rect = ev.target.closest && ev.target.closest(".cutepy-hover rect");
      if (!rect) return;
      $("pg-hover").textContent = rect.textContent;
      const m = /thread (\d+)/.exec(rect.textContent);
      const same = m ? new RegExp("thread " + m[1] + "(?!\\d)") : null;
      for (const c of $("pg-picture").querySelectorAll(".cutepy-hover rect")) {
        const on = same ? same.test(c.textContent) : c === rect;
        c.setAttribute("fill", on ? "#1a237e" : "#ffffff");
        c.setAttribute("fill-opacity", on ? "0.25" : "0");
      }
    });
    draw();
    document.body.dataset.playground = "ready";
  }

  document.addEventListener("DOMContentLoaded", function () {
    if ($("pg-text")) start();
  });
})();
