// A round's clock (templates/_clock.html): counts each [data-clock] down once a second from the
// deadline the server gave (data-clock-deadline, epoch ms) without asking the server again; a
// paused or unstarted clock shows its data-clock-remaining as it is. At zero, a started clock
// shows its "time" notice. A region swapped in by live.js (a pause, a resume, extra time) is
// counted at the next tick: the elements are looked up each second. The server's clock and the
// phone's may differ: the difference is measured once, from the page's data-clock-now.
(function () {
  "use strict";
  if (window.knockClock) { return; }
  window.knockClock = true;
  var offset = 0;
  var stamp = document.querySelector("[data-clock-now]");
  if (stamp) {
    var serverNow = parseInt(stamp.getAttribute("data-clock-now"), 10);
    if (!isNaN(serverNow)) { offset = serverNow - Date.now(); }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var x = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(x) : m + ":" + pad(x);
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var deadline = parseInt(el.getAttribute("data-clock-deadline"), 10);
      var left = isNaN(deadline)
        ? parseFloat(el.getAttribute("data-clock-remaining")) || 0
        : (deadline - now) / 1000;
      var shown = el.querySelector("[data-clock-left]");
      var text = format(left);
      if (shown && shown.textContent !== text) { shown.textContent = text; }
      var up = el.getAttribute("data-clock-started") === "1" && left <= 0;
      el.classList.toggle("at-time", up);
      var notice = el.querySelector("[data-clock-time]");
      if (notice && notice.hidden === up) { notice.hidden = !up; }
    });
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("knock:live", tick);
})();
