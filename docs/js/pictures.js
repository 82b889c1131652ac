// A click on a picture opens it in a scrolling overlay, at full size and, for a drawing whose
// smallest text is under LEGIBLE_PX, scaled up until that text is LEGIBLE_PX tall (an SVG scales
// without loss); a click or Escape closes it.
(function () {
  var LEGIBLE_PX = 12;

  function close() {
    var z = document.querySelector(".cutepy-zoom");
    if (z) z.remove();
  }

  // The smallest font-size an SVG data URI draws with (its attributes), or null.
  function smallestFont(src) {
    var m = /^data:image\/svg\+xml;base64,(.*)$/.exec(src || "");
    if (!m) return null;
    var text;
    try { text = atob(m[1]); } catch (e) { return null; }
    var sizes = [], re = /font-size="([\d.]+)"/g, f;
    while ((f = re.exec(text)) !== null) sizes.push(parseFloat(f[1]));
    return sizes.length ? Math.min.apply(null, sizes) : null;
  }

  document.addEventListener("click", function (ev) {
    var img = ev.target.closest && ev.target.closest(".cutepy-picture img, .cutepy-output-html img");
    if (!img) { if (ev.target.closest && ev.target.closest(".cutepy-zoom")) close(); return; }
    var z = document.createElement("div");
    z.className = "cutepy-zoom";
    z.title = "click or press Escape to close";
    var big = document.createElement("img");
    big.src = img.src;
    big.alt = img.alt;
    var font = smallestFont(img.getAttribute("src"));
    if (font && font < LEGIBLE_PX && img.naturalWidth) {
      big.style.setProperty("width", Math.ceil(img.naturalWidth * LEGIBLE_PX / font) + "px", "important");
    }
    z.appendChild(big);
    document.body.appendChild(z);
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") close(); });
})();
