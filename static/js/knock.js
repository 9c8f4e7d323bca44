// The hand entry tabs switch without a page load (the entry form's picker is in picker.js).
// The page works without it: each tab is a link (?tab=...) that the server renders selected.
// The tabs follow the ARIA tabs pattern: one tab in the Tab order, arrow keys, Home and End move
// between them and select the one they reach.
(function () {
  "use strict";
  function setup(root) {
    root.querySelectorAll("[data-tabs]").forEach(function (tabs) {
      var links = Array.prototype.slice.call(tabs.querySelectorAll("a[data-tab]"));
      function select(link, focus) {
        links.forEach(function (other) {
          var panel = document.getElementById(other.getAttribute("aria-controls"));
          var on = other === link;
          other.setAttribute("aria-selected", on ? "true" : "false");
          other.setAttribute("tabindex", on ? "0" : "-1");
          if (panel) { panel.hidden = !on; }
        });
        if (focus) { link.focus(); }
      }
      links.forEach(function (link, index) {
        link.addEventListener("click", function (event) {
          event.preventDefault();
          select(link, false);
        });
        link.addEventListener("keydown", function (event) {
          var to = null;
          if (event.key === "ArrowRight" || event.key === "ArrowDown") { to = (index + 1) % links.length; }
          else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { to = (index - 1 + links.length) % links.length; }
          else if (event.key === "Home") { to = 0; }
          else if (event.key === "End") { to = links.length - 1; }
          else if (event.key === " ") { event.preventDefault(); select(link, false); return; }
          if (to === null) { return; }
          event.preventDefault();
          select(links[to], true);
        });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  // live.js swapped regions in (the entry form appears once the other side confirmed): bind them.
  document.addEventListener("knock:live", function (event) {
    (event.detail.regions || []).forEach(function (name) {
      var region = document.querySelector('[data-live-region="' + name + '"]');
      if (region) { setup(region); }
    });
  });
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
    // Only the settings that apply to the chosen kind of event are shown (the server renders
    // the same choice for the kind it was given, and ignores the others when saving).
    var kind = document.getElementById("id_kind");
    if (kind) {
      var showKind = function () {
        document.querySelectorAll("[data-kinds]").forEach(function (el) {
          el.hidden = el.getAttribute("data-kinds").split(" ").indexOf(kind.value) < 0;
        });
      };
      kind.addEventListener("change", showKind);
      showKind();
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

// The paper score sheet: "Add 5 more rows" copies the last row in the page instead of asking the
// server (without this script the button posts the sheet and the server draws the rows).
(function () {
  "use strict";
  function renumber(row, index) {
    row.dataset.row = String(index);
    row.id = "hand-row-" + (index + 1);
    row.classList.remove("has-row-error");
    var num = row.querySelector(".sheet-num");
    if (num) { num.textContent = String(index + 1); }
    var legend = row.querySelector("legend");
    if (legend) { legend.textContent = legend.textContent.replace(/\d+/, String(index + 1)); }
    row.querySelectorAll("[id]").forEach(function (el) { el.id = el.id.replace(/^h\d+-/, "h" + index + "-"); });
    row.querySelectorAll("label[for]").forEach(function (el) {
      el.htmlFor = el.htmlFor.replace(/^h\d+-/, "h" + index + "-");
    });
    row.querySelectorAll("[name]").forEach(function (el) {
      el.name = el.name.replace(/^h\d+_/, "h" + index + "_");
      if (el.tagName === "SELECT") { el.selectedIndex = 0; } else { el.value = ""; }
    });
    row.querySelectorAll(".row-error, .error").forEach(function (el) { el.remove(); });
    row.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    row.querySelectorAll("[aria-invalid]").forEach(function (el) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    });
  }
  function setup() {
    document.querySelectorAll("form[data-sheet]").forEach(function (form) {
      var button = form.querySelector("[data-sheet-add]");
      var list = form.querySelector("[data-sheet-rows]");
      var count = form.querySelector("[data-sheet-count]");
      if (!button || !list || !count) { return; }
      button.addEventListener("click", function (event) {
        event.preventDefault();
        var more = parseInt(button.getAttribute("data-sheet-add"), 10) || 5;
        var max = parseInt(button.getAttribute("data-sheet-max"), 10) || 60;
        var rows = list.querySelectorAll(".sheet-row");
        var last = rows[rows.length - 1];
        var n = rows.length;
        for (var i = 0; i < more && n < max; i += 1, n += 1) {
          var copy = last.cloneNode(true);
          renumber(copy, n);
          list.appendChild(copy);
        }
        count.value = String(n);
        if (n >= max) { button.hidden = true; }
        var first = list.querySelectorAll(".sheet-row")[rows.length];
        if (first) { var input = first.querySelector("select, input"); if (input) { input.focus(); } }
      });
    });
  }
  document.addEventListener("DOMContentLoaded", setup);
})();

// Checklists (the event page's "Register players"): "Select all" ticks or clears every box of its
// list, and follows the boxes ticked one by one. Without this script it stays hidden and each
// player is ticked by hand.
(function () {
  "use strict";
  function setup() {
    document.querySelectorAll("input[data-check-all]").forEach(function (all) {
      var form = all.form;
      var name = all.getAttribute("data-check-all");
      if (!form || !name) { return; }
      function boxes() {
        return Array.prototype.filter.call(form.elements, function (el) {
          return el.type === "checkbox" && el.name === name;
        });
      }
      var wrap = all.closest("[data-js-show]");
      if (wrap) { wrap.hidden = false; }
      all.addEventListener("change", function () {
        boxes().forEach(function (box) { box.checked = all.checked; });
        all.indeterminate = false;
      });
      form.addEventListener("change", function (event) {
        if (event.target === all || event.target.name !== name) { return; }
        var list = boxes();
        var ticked = list.filter(function (box) { return box.checked; }).length;
        all.checked = list.length > 0 && ticked === list.length;
        all.indeterminate = ticked > 0 && ticked < list.length;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", setup);
})();
