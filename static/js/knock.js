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

// Director pages: the event settings form. Without this script the form still works: the
// "Load preset values" button reloads the preset on the server, and tie-breaks are numbered by hand.
(function () {
  "use strict";
  function setup() {
    // With htmx, changing the preset swaps its values in at once: the button is not needed.
    if (window.htmx) {
      document.querySelectorAll("[data-js-hide]").forEach(function (el) { el.hidden = true; });
    }
    // Ticking a tie-break gives it the next order number; unticking clears it.
    document.querySelectorAll(".tb-list").forEach(function (list) {
      list.addEventListener("change", function (event) {
        var box = event.target;
        if (!box.matches || !box.matches("input[type=checkbox]")) { return; }
        var order = box.closest(".tb-row").querySelector("input.order");
        if (!order) { return; }
        if (box.checked && !order.value) {
          var highest = 0;
          list.querySelectorAll("input.order").forEach(function (other) {
            var n = parseInt(other.value, 10);
            if (n > highest) { highest = n; }
          });
          order.value = String(highest + 1);
        } else if (!box.checked) {
          order.value = "";
        }
      });
    });
  }
  document.addEventListener("DOMContentLoaded", setup);
})();
