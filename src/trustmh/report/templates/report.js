// Draw every [data-figure] from the embedded JSON; plots resize with their container.
(function () {
  "use strict";
  var figures = JSON.parse(document.getElementById("figures").textContent);
  var config = { responsive: true, displaylogo: false };
  document.querySelectorAll("[data-figure]").forEach(function (el) {
    var fig = figures[el.getAttribute("data-figure")];
    if (fig) { Plotly.newPlot(el, fig.data, fig.layout, config); }
  });
  // A link to a sample table opens its (collapsed) <details>.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
