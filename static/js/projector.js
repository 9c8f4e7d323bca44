// The projector view: shows one slide at a time (pairings, standings, bracket) and turns to the
// next every few seconds; fetches the slides again every few seconds so results appear live.
// Without this script every slide is shown, one under another.
(function () {
  "use strict";
  var body = document.body;
  var box = document.getElementById("pj-slides");
  if (!box || !body.dataset.slidesUrl) { return; }
  document.documentElement.classList.add("js");
  var turn = Math.max(4, parseInt(body.dataset.turnSeconds, 10) || 12) * 1000;
  var refresh = Math.max(2, parseInt(body.dataset.refreshSeconds, 10) || 5) * 1000;
  var current = "";
  var clock = document.getElementById("pj-clock");

  function slides() { return Array.prototype.slice.call(box.querySelectorAll(".pj-slide")); }

  function show(name) {
    var all = slides();
    if (!all.length) { return; }
    var target = all.filter(function (s) { return s.dataset.slide === name; })[0] || all[0];
    all.forEach(function (s) { s.classList.toggle("pj-on", s === target); });
    current = target.dataset.slide;
    body.dataset.showing = current;
  }

  function next() {
    var all = slides();
    var names = all.map(function (s) { return s.dataset.slide; });
    var i = names.indexOf(current);
    show(names[(i + 1) % names.length]);
  }

  function reload() {
    fetch(body.dataset.slidesUrl, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.text(); })
      .then(function (html) {
        box.innerHTML = html;
        show(current);
        var stamp = box.querySelector("[data-updated]");
        if (clock && stamp) { clock.textContent = stamp.dataset.updated; }
        body.dataset.refreshed = String(Date.now());
      })
      .catch(function () { /* keep the last slides; try again at the next tick */ });
  }

  show("");
  setInterval(next, turn);
  setInterval(reload, refresh);
})();
