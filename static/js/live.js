// Live pages (docs/live.md): the match and event pages follow the table without a reload.
//
// Every poll_ms (2 s by default, sent by the server) the page asks for its live regions
// (/matches/<id>/live/ or /events/<id>/live/) with If-None-Match naming the version it shows: a
// 304 of a few bytes while nothing changed; when the version moved, the regions themselves, in
// the same answer. The page swaps each [data-live-region] in, except a region whose
// data-live-key did not change (the entry form keeps what is being typed, the picker keeps its
// cards) or that holds a form being filled in.
// Polling stops while the tab is hidden and starts again, at once, when it is shown. Each wait
// is the interval give or take a tenth, at random, so a room of phones opened together does not
// poll in step; after a failure (offline, or the server answering 429 or 5xx) the wait doubles,
// up to MAX_BACKOFF_MS, or is what the server's Retry-After asks, until a poll succeeds again.
// Other scripts re-bind to swapped regions on the "knock:live" event (detail.regions). A poll
// answered "X-Knock-Credential: gone" (the page's private link was replaced) stops polling and
// says so in #live-status (its data-live-gone text), leaving the page, and any form, as it is.
// Pushed (behind deploy/nginx/knock.conf, KNOCK_LIVE_PUBLISH_URL set): a page carrying
// data-live-subscribe-url does not poll. It subscribes to its versions (an EventSource on nchan);
// each message is a version, and when it is not the one shown the page fetches the regions of
// that version at the URL keyed by it (fragment URL + "?v=<version>"), which the shared cache
// answers for every spectator after the first: one fetch at a time, at most one a second, of the
// newest version told. When the subscription fails (no EventSource, the
// stream refused or broken) the page polls as above, and subscribes again after a minute.
// Without this script the pages still work: they show what was current when loaded.
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var fragmentUrl = root.getAttribute("data-live-fragment-url");
  var version = root.getAttribute("data-live-version") || "";
  var change = root.getAttribute("data-live-change") || "0";
  var interval = parseInt(root.getAttribute("data-live-poll"), 10) || 2000;
  var timer = null;
  var busy = false;
  var stopped = false;
  var MAX_BACKOFF_MS = 30000;
  var failures = 0;
  var retryAfter = 0;
  var status = document.getElementById("live-status");
  var subscribeUrl = root.getAttribute("data-live-subscribe-url") || "";
  var source = null;
  var RESUBSCRIBE_MS = 60000;

  // A form inside a region that the visitor has typed into is theirs until they send it.
  document.addEventListener("input", function (event) {
    var region = event.target.closest && event.target.closest("[data-live-region]");
    if (region) { region.setAttribute("data-live-dirty", "1"); }
  });

  function held(region) {
    if (region.getAttribute("data-live-dirty") === "1") { return true; }
    var active = document.activeElement;
    return !!(active && active !== document.body && region.contains(active) &&
      active.matches("input, textarea, select"));
  }

  function announce(template) {
    if (!status || !template) { return; }
    var id = template.getAttribute("data-live-notice") || "0";
    if (id === change) { return; }
    change = id;
    var content = template.content ? template.content.cloneNode(true) : null;
    if (!content || !content.childNodes.length) { return; }
    status.textContent = "";
    status.appendChild(content);
  }

  function swap(doc) {
    var swapped = [];
    doc.querySelectorAll("[data-live-region]").forEach(function (fresh) {
      var name = fresh.getAttribute("data-live-region");
      var current = document.querySelector('[data-live-region="' + name + '"]');
      if (!current) { return; }
      var key = fresh.getAttribute("data-live-key");
      if (key !== null && key === current.getAttribute("data-live-key")) { return; }
      if (held(current)) {
        current.setAttribute("data-live-stale", "1");
        return;
      }
      var node = document.importNode(fresh, true);
      current.replaceWith(node);
      if (window.htmx) { window.htmx.process(node); }
      swapped.push(name);
    });
    announce(doc.querySelector("template[data-live-notice]"));
    if (swapped.length) {
      document.dispatchEvent(new CustomEvent("knock:live", { detail: { regions: swapped } }));
    }
  }

  function show(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fragment = doc.querySelector("[data-live-fragment]");
    if (!fragment) { return; }
    swap(doc);
    version = fragment.getAttribute("data-live-version") || version;
    root.setAttribute("data-live-version", version);
  }

  // The regions as they are now, whatever the page shows (after a form sent by script).
  function refresh() {
    return fetch(fragmentUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error("live fragment " + response.status); }
        return response.text();
      })
      .then(show);
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (source || document.hidden || stopped) { return; }
    timer = setTimeout(poll, ms);
  }

  // A version told by the push: fetch its regions unless the page shows it already. One fetch
  // at a time, at most one every PUSH_FETCH_MS, of the newest version told: an event's version
  // moves with every table's entries (several times a second at a large open), and a phone
  // fetching each would fetch all the time (docs/live.md). A failed fetch is asked again by the
  // next message, or by polling if the subscription breaks.
  var PUSH_FETCH_MS = 1000;
  var told = "";
  var fetching = false;
  var lastFetch = 0;
  var fetchTimer = null;
  function pushed(newest) {
    if (!/^[0-9]+$/.test(newest) || stopped) { return; }
    told = newest;
    fetchTold();
  }
  // due: the wait for this fetch's turn is over (its timer ran).
  function fetchTold(due) {
    if (fetching || fetchTimer || told === version || told === "" || stopped) { return; }
    var wait = lastFetch + PUSH_FETCH_MS - Date.now();
    if (!due && wait > 0) {
      fetchTimer = setTimeout(function () { fetchTimer = null; fetchTold(true); }, wait);
      return;
    }
    var asked = told;
    fetching = true;
    lastFetch = Date.now();
    var sep = fragmentUrl.indexOf("?") < 0 ? "?" : "&";
    fetch(fragmentUrl + sep + "v=" + asked, { credentials: "same-origin" })
      .then(function (response) {
        if (response.headers.get("X-Knock-Credential") === "gone") {
          gone();
          return null;
        }
        return response.ok ? response.text() : null;
      })
      .then(function (html) { if (html) { show(html); } })
      .catch(function () { /* the next message, or polling, brings it */ })
      .then(function () {
        fetching = false;
        if (told === asked) { told = ""; }
        fetchTold();
      });
  }

  // Subscribe to the page's versions; on failure poll, and try again later.
  function subscribe() {
    if (!subscribeUrl || !window.EventSource || stopped || source) { return false; }
    source = new EventSource(subscribeUrl);
    source.onmessage = function (event) { pushed(String(event.data).trim()); };
    source.onerror = function () {
      if (source) { source.close(); }
      source = null;
      schedule(0);
      setTimeout(subscribe, RESUBSCRIBE_MS);
    };
    clearTimeout(timer);
    return true;
  }

  // The next wait: the interval with a tenth of jitter, doubled for each failure in a row.
  function nextWait() {
    var wait = interval * (0.9 + Math.random() * 0.2);
    if (failures > 0) {
      wait = Math.min(MAX_BACKOFF_MS, wait * Math.pow(2, failures));
      wait = Math.max(wait, retryAfter);
    }
    return wait;
  }

  function failed(response) {
    var seconds = response ? parseInt(response.headers.get("Retry-After"), 10) : NaN;
    retryAfter = isNaN(seconds) ? 0 : Math.min(MAX_BACKOFF_MS, seconds * 1000);
    failures = Math.min(failures + 1, 8);
  }

  // The private link this page was opened with was replaced (a director reissued it): the
  // regions are no longer this visitor's to follow. Say so once and stop asking; the entry form
  // stays as it is, and a hand sent from it is kept on the phone (offline.js) until the new link
  // is opened.
  function gone() {
    stopped = true;
    clearTimeout(timer);
    if (source) { source.close(); source = null; }
    var text = status && status.getAttribute("data-live-gone");
    if (!text) { return; }
    var notice = document.createElement("p");
    notice.className = "notice warn live-notice";
    notice.setAttribute("data-live-gone-notice", "");
    notice.textContent = text;
    status.textContent = "";
    status.appendChild(notice);
  }

  function poll() {
    if (busy || stopped || document.hidden) { return; }
    busy = true;
    fetch(fragmentUrl, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "If-None-Match": '"' + version + '"' }
    })
      .then(function (response) {
        if (response.headers.get("X-Knock-Credential") === "gone") {
          gone();
          return null;
        }
        if (response.status === 429 || response.status >= 500) {
          failed(response);
          return null;
        }
        failures = 0;
        var ms = parseInt(response.headers.get("X-Live-Poll-Ms"), 10);
        if (ms > 0) { interval = Math.max(500, ms); }
        if (response.status === 304 || !response.ok) { return null; }
        return response.text();
      })
      .then(function (html) { if (html) { show(html); } })
      .catch(function () { failed(null); /* offline or a blip: ask again, later */ })
      .then(function () {
        busy = false;
        schedule(nextWait());
      });
  }

  // Forms sent by script (offline.js) release their region and ask for the news at once.
  window.knockLive = {
    release: function (region) { if (region) { region.removeAttribute("data-live-dirty"); } },
    refresh: function () { return refresh(); },
    poll: function () { schedule(0); }
  };
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); } else { schedule(0); }
  });
  if (!subscribe()) { schedule(nextWait()); }
})();
