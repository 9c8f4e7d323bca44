// A hand entered on a weak connection is never lost (docs/live.md). Sending the entry form
// first keeps it in this phone's localStorage with an Idempotency-Key, then posts it; if the
// post does not reach the server (offline, or the answer was lost), it stays kept, the page
// says "saved on this phone, not yet sent", and it is sent again when the connection comes
// back (the "online" event, and every few seconds), with the same key: the server stores it
// once and answers a repeat as it answered the first. A refusal (4xx: a mistake in the entry,
// or another entry kept for the hand) is shown as the server renders it, by posting the form
// the usual way. Without this script (or localStorage) the form posts as it always did.
//
// A link replaced while the page was open (the director reissued it) is not a refusal of the
// entry: the server answers with X-Knock-Credential: gone, and the entry is kept on this phone
// for this match and the seat(s) the page was open as ("parked"), the page saying so. When this
// phone opens the match again as the same seat(s) (the new link), the kept entry is sent, with
// its own key, once; a page of the match open as anyone else leaves it kept and says so.
(function () {
  "use strict";
  var region = document.querySelector("[data-offline-action]");
  var box = document.querySelector("[data-offline]");
  if (!region || !box || !window.fetch || !window.URLSearchParams) { return; }
  var action = region.getAttribute("data-offline-action");
  var back = box.getAttribute("data-offline-back") || window.location.pathname;
  var storeKey = "knock:outbox:" + action;
  var matchId = box.getAttribute("data-offline-match") || "";
  var who = box.getAttribute("data-offline-who") || "";
  var parkKey = "knock:parked:" + matchId;
  var retryMs = 4000;
  var sending = false;
  var store;
  try {
    store = window.localStorage;
    store.setItem("knock:probe", "1");
    store.removeItem("knock:probe");
  } catch (err) {
    return;
  }

  function load() {
    try { return JSON.parse(store.getItem(storeKey) || "[]"); } catch (err) { return []; }
  }
  function save(items) {
    if (items.length) { store.setItem(storeKey, JSON.stringify(items)); } else { store.removeItem(storeKey); }
  }
  function drop(key) { save(load().filter(function (item) { return item.key !== key; })); }

  function loadParked() {
    try { return JSON.parse(store.getItem(parkKey) || "[]"); } catch (err) { return []; }
  }
  function saveParked(items) {
    if (items.length) { store.setItem(parkKey, JSON.stringify(items)); } else { store.removeItem(parkKey); }
  }

  // The link is gone: keep the entry for this match and these seats until they are back.
  function park(item) {
    drop(item.key);
    item.who = who;
    saveParked(loadParked().filter(function (i) { return i.key !== item.key; }).concat([item]));
  }

  // This page is the match again as the seat(s) an entry was kept for: send it (once: it
  // leaves the kept list as it joins the outbox, and the server stores one entry per key).
  function unpark() {
    if (!matchId || !who) { return; }
    var parked = loadParked();
    var mine = parked.filter(function (i) { return i.who === who; });
    if (!mine.length) { return; }
    saveParked(parked.filter(function (i) { return i.who !== who; }));
    save(load().concat(mine));
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) { return input.value; }
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function hands(items) { return items.map(function (i) { return i.hand; }).join(", "); }

  function show() {
    var items = load();
    var parked = matchId ? loadParked() : [];
    box.hidden = items.length === 0 && parked.length === 0;
    box.setAttribute("data-offline-state", items.length ? "saved" : (parked.length ? "gone" : ""));
    var text = box.querySelector("[data-offline-text]");
    if (!text) { return; }
    if (items.length) {
      var template = box.getAttribute("data-offline-saved") || "";
      text.textContent = template.replace("%(n)s", hands(items));
    } else if (parked.length) {
      text.textContent = (box.getAttribute("data-offline-gone") || "").replace("%(n)s", hands(parked));
    } else {
      text.textContent = "";
    }
  }

  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      if (pair[0] !== "csrfmiddlewaretoken") { body.append(pair[0], pair[1]); }
    });
    body.append("csrfmiddlewaretoken", csrf());
    return fetch(item.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "Idempotency-Key": item.key, "X-CSRFToken": csrf() }
    });
  }

  // The server refused it: post it the usual way so the page shows why, as the server says.
  function showRefusal(item) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.action;
    form.hidden = true;
    item.fields.forEach(function (pair) {
      if (pair[0] === "csrfmiddlewaretoken") { return; }
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    [["csrfmiddlewaretoken", csrf()], ["idempotency_key", item.key]].forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  function stored() {
    // Stored (or stored before, and replayed): show the match page with the entry waiting.
    if (window.location.pathname === back) {
      window.history.replaceState(null, "", back + "#pending");
      window.location.reload();
    } else {
      window.location.assign(back + "#pending");
    }
  }

  function flush() {
    var items = load();
    if (sending || !items.length) { show(); return; }
    sending = true;
    var item = items[0];
    post(item)
      .then(function (response) {
        if (response.type === "opaqueredirect" || (response.status >= 200 && response.status < 400)) {
          drop(item.key);
          sending = false;
          stored();
          return;
        }
        if ((response.status === 404 || response.status === 403) && who &&
            response.headers.get("X-Knock-Credential") === "gone") {
          park(item);
          sending = false;
          show();
          // The player tapped at the foot of the form: bring what happened into view.
          box.setAttribute("tabindex", "-1");
          box.scrollIntoView({ block: "start" });
          box.focus({ preventScroll: true });
          return;
        }
        if (response.status >= 400 && response.status < 500) {
          drop(item.key);
          sending = false;
          showRefusal(item);
          return;
        }
        throw new Error("server " + response.status);
      })
      .catch(function () {
        sending = false;
        show();
        setTimeout(flush, retryMs);
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var current = form && form.closest && form.closest("[data-offline-action]");
    if (!current || form.getAttribute("action") === null) { return; }
    var url = new URL(form.action, window.location.href);
    if (url.pathname !== action) { return; }
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    if (event.submitter && event.submitter.name) {
      fields.push([event.submitter.name, event.submitter.value]);
    }
    var hand = "";
    fields.forEach(function (pair) { if (pair[0] === "hand_number") { hand = pair[1]; } });
    var items = load();
    items.push({ key: newKey(), action: url.pathname + url.search, fields: fields, hand: hand, at: Date.now() });
    save(items);
    if (window.knockLive) { window.knockLive.release(current); }
    form.querySelectorAll("button[type=submit]").forEach(function (button) { button.disabled = true; });
    if (!navigator.onLine) { show(); }
    flush();
  });

  window.addEventListener("online", flush);
  unpark();
  show();
  if (load().length) { flush(); }
})();
