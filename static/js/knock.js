// Knock's only script (besides htmx): switches the hand entry tabs without a page load.
// The page works without it: each tab is a link (?tab=...) that the server renders selected.
(function () {
  "use strict";
  function setup(root) {
    root.querySelectorAll("[data-tabs]").forEach(function (tabs) {
      var links = tabs.querySelectorAll("a[data-tab]");
      links.forEach(function (link) {
        link.addEventListener("click", function (event) {
          event.preventDefault();
          links.forEach(function (other) {
            var panel = document.getElementById(other.getAttribute("aria-controls"));
            var on = other === link;
            other.setAttribute("aria-selected", on ? "true" : "false");
            if (panel) { panel.hidden = !on; }
          });
        });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { setup(document); });
})();
