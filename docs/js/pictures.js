// A click on a picture opens it at full size in a scrolling overlay; a click or Escape closes it.
(function () {
  function close() {
    var z = document.querySelector(".cutepy-zoom");
    if (z) z.remove();
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
    z.appendChild(big);
    document.body.appendChild(z);
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") close(); });
})();
