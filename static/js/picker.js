// The hand entry form's helpers: the card picker of the "by cards" tab and one-tap counts on the
// "by counts" tab. Both only fill in the form's own fields, which stay visible and are sent as
// typed: without this script the page works the same, by typing.
//
// The picker: one tap per card puts it in the hand chosen above the deck (the knocker's, then,
// once it holds a full hand, the defender's); a card in the other hand cannot be tapped. The
// knocker's melds are grouped by tapping their cards under the deck, then "Meld". After each
// change the rules engine is asked what it makes of the hand so far
// (POST /api/matches/{id}/hands/preview/, nothing stored) and its answer is shown under the deck.
(function () {
  "use strict";

  var RANKS = "A23456789TJQK";
  // Every spelling of a suit the engine reads, the longest first (engine/cards.py).
  var SUIT_WORDS = [
    ["다이아몬드", "D"], ["스페이드", "S"], ["클로버", "C"], ["다이아", "D"], ["하트", "H"],
    ["클럽", "C"], ["♠", "S"], ["♤", "S"], ["♥", "H"], ["♡", "H"], ["♦", "D"], ["♢", "D"],
    ["♣", "C"], ["♧", "C"], ["S", "S"], ["H", "H"], ["D", "D"], ["C", "C"]
  ];

  function clean(token) { return token.trim().replace(/[\ufe0e\ufe0f]/g, "").toUpperCase(); }

  function rankOf(text) {
    text = text.trim();
    if (text === "10") { return "T"; }
    return text.length === 1 && RANKS.indexOf(text) >= 0 ? text : null;
  }

  function readCard(token) {
    var text = clean(token);
    for (var i = 0; i < SUIT_WORDS.length; i += 1) {
      var word = SUIT_WORDS[i][0];
      var rest = null;
      if (text.slice(-word.length) === word) { rest = text.slice(0, -word.length); }
      else if (text.slice(0, word.length) === word) { rest = text.slice(word.length); }
      if (rest === null) { continue; }
      var rank = rankOf(rest);
      if (rank) { return rank + SUIT_WORDS[i][1]; }
    }
    return null;
  }

  function bare(token) {
    var text = clean(token);
    if (rankOf(text)) { return "rank"; }
    for (var i = 0; i < SUIT_WORDS.length; i += 1) { if (SUIT_WORDS[i][0] === text) { return "suit"; } }
    return null;
  }

  // The cards a typed field holds (what the picker can show; the server reads the field itself).
  function readCards(text) {
    var tokens = (text || "").split(/[\s,]+/).filter(Boolean);
    var out = [];
    for (var i = 0; i < tokens.length; i += 1) {
      var token = tokens[i];
      if (i + 1 < tokens.length) {
        var kinds = [bare(token), bare(tokens[i + 1])].sort().join();
        if (kinds === "rank,suit") { token += tokens[i + 1]; i += 1; }
      }
      var card = readCard(token);
      if (card && out.indexOf(card) < 0) { out.push(card); }
    }
    return out;
  }

  function readMelds(text) {
    return (text || "").split("|").map(readCards).filter(function (m) { return m.length; });
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }

  // A formula message ({template, params}, params nested) in the reader's words: each template
  // as the page gave it translated, English when it has none.
  function wordMessage(message, words) {
    if (message === null || message === undefined) { return ""; }
    if (typeof message !== "object") { return String(message); }
    var template = words[message.template] || message.template;
    var params = message.params || {};
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in params ? wordMessage(params[key], words) : all;
    });
  }

  function setupPicker(picker) {
    var form = picker.closest("form");
    var fields = {
      knocker: form.querySelector("[data-pick=knocker]"),
      defender: form.querySelector("[data-pick=defender]"),
      melds: form.querySelector("[data-pick=melds]")
    };
    if (!fields.knocker || !fields.defender) { return; }
    var texts = JSON.parse(picker.querySelector("#picker-texts").textContent);
    var handSize = parseInt(picker.getAttribute("data-hand-size"), 10) || 10;
    var url = picker.getAttribute("data-preview-url");
    var output = picker.querySelector("[data-preview]");
    var chipsBox = picker.querySelector("[data-chips]");
    var meldList = picker.querySelector("[data-melds]");
    var meldButton = picker.querySelector("[data-make-meld]");
    var cards = picker.querySelectorAll("button[data-card]");
    var targets = picker.querySelectorAll("button[data-hand]");
    var state = {
      knocker: readCards(fields.knocker.value),
      defender: readCards(fields.defender.value),
      melds: fields.melds ? readMelds(fields.melds.value) : [],
      target: "knocker",
      chosen: []
    };
    var timer = null;
    var asked = 0;

    function other(hand) { return hand === "knocker" ? "defender" : "knocker"; }

    function melded(card) {
      return state.melds.some(function (meld) { return meld.indexOf(card) >= 0; });
    }

    function writeFields() {
      fields.knocker.value = state.knocker.join(" ");
      fields.defender.value = state.defender.join(" ");
      if (fields.melds) {
        fields.melds.value = state.melds.map(function (m) { return m.join(" "); }).join(" | ");
      }
    }

    function draw() {
      cards.forEach(function (button) {
        var card = button.getAttribute("data-card");
        var where = state.knocker.indexOf(card) >= 0 ? "knocker"
          : (state.defender.indexOf(card) >= 0 ? "defender" : "");
        button.setAttribute("data-in", where);
        button.setAttribute("aria-pressed", where === state.target ? "true" : "false");
        button.disabled = where !== "" && where !== state.target;
      });
      targets.forEach(function (button) {
        var hand = button.getAttribute("data-hand");
        button.setAttribute("aria-pressed", hand === state.target ? "true" : "false");
        picker.querySelector("[data-count=" + hand + "]").textContent =
          state[hand].length + "/" + handSize;
      });
      chipsBox.textContent = "";
      state.knocker.forEach(function (card) {
        if (melded(card)) { return; }
        var chip = el("button", "chip", card);
        chip.type = "button";
        chip.setAttribute("aria-pressed", state.chosen.indexOf(card) >= 0 ? "true" : "false");
        chip.addEventListener("click", function () {
          var at = state.chosen.indexOf(card);
          if (at >= 0) { state.chosen.splice(at, 1); } else { state.chosen.push(card); }
          draw();
        });
        chipsBox.appendChild(chip);
      });
      meldButton.disabled = state.chosen.length < 3;
      meldList.textContent = "";
      state.melds.forEach(function (meld, index) {
        var item = el("li", "", meld.join(" ") + " ");
        var undo = el("button", "chip undo", "×");
        undo.type = "button";
        undo.setAttribute("aria-label", meldList.getAttribute("data-break-label") + ": " + meld.join(" "));
        undo.addEventListener("click", function () { state.melds.splice(index, 1); changed(); });
        item.appendChild(undo);
        meldList.appendChild(item);
      });
    }

    function changed() {
      state.chosen = state.chosen.filter(function (c) { return state.knocker.indexOf(c) >= 0 && !melded(c); });
      writeFields();
      // Tell live.js the form is being filled in (as typing does), so that a live update leaves
      // the picked cards alone until they are sent. Sent to the form, not to the fields, whose
      // own "input" listeners would read back what was just written.
      form.dispatchEvent(new Event("input", { bubbles: true }));
      draw();
      ask();
    }

    function tap(card) {
      var hand = state[state.target];
      var at = hand.indexOf(card);
      if (at >= 0) {
        hand.splice(at, 1);
        state.melds = state.melds.filter(function (meld) { return meld.indexOf(card) < 0; });
      } else if (state[other(state.target)].indexOf(card) < 0) {
        hand.push(card);
        // A full knocker's hand: the next cards are the defender's (tap above to go back).
        if (state.target === "knocker" && hand.length === handSize && state.defender.length < handSize) {
          state.target = "defender";
        }
      }
      changed();
    }

    function body() {
      var data = {};
      var knocker = form.querySelector("input[name=knocker]:checked");
      if (knocker) { data.knocker = parseInt(knocker.value, 10); }
      var as = form.querySelector("input[name=as_position]:checked");
      if (as) { data.as_position = parseInt(as.value, 10); }
      data.knocker_cards = fields.knocker.value;
      data.defender_cards = fields.defender.value;
      ["knocker_melds", "upcard", "taken_from_discard"].forEach(function (name) {
        var input = form.querySelector("[name=" + name + "]");
        if (input && input.value.trim()) { data[name] = input.value.trim(); }
      });
      ["knock_limit", "diamond_number"].forEach(function (name) {
        var input = form.querySelector("[name=" + name + "]");
        if (input && /^\d+$/.test(input.value.trim())) { data[name] = parseInt(input.value, 10); }
      });
      return data;
    }

    function arrangementLine(label, a) {
      var melds = a.melds.length ? a.melds.join(" | ") : texts.none;
      var dead = a.deadwood_cards ? a.deadwood_cards + " (" + a.deadwood + ")" : "0";
      return label + " (" + a.cards + "): " + texts.melds + " " + melds + " · " + texts.deadwood + " " + dead;
    }

    function show(answer, status) {
      output.textContent = "";
      output.classList.toggle("refused", status !== 200);
      if (status !== 200) {
        output.appendChild(el("p", "error", answer.detail || texts.offline));
        return;
      }
      var v = answer.verdict;
      if (v) {
        var head = el("p", "verdict-line");
        var outcome = texts.outcomes[v.outcome] || v.outcome;
        head.appendChild(el("strong", "", outcome.charAt(0).toUpperCase() + outcome.slice(1)));
        if (v.winner !== null && v.winner !== undefined) {
          var name = texts.names[String(v.winner)] || "";
          head.appendChild(document.createTextNode(" · " + format(texts.scores, { name: name, points: v.points })));
        }
        output.appendChild(head);
        if (v.knocker_deadwood !== null && v.knocker_deadwood !== undefined) {
          output.appendChild(el("p", "small", format(texts.both_deadwood, { k: v.knocker_deadwood, d: v.defender_deadwood })));
        }
      }
      if (answer.knocker) { output.appendChild(el("p", "small mono", arrangementLine(texts.knocker, answer.knocker))); }
      if (answer.defender) { output.appendChild(el("p", "small mono", arrangementLine(texts.defender, answer.defender))); }
      if (v && v.layoffs && v.layoffs.length) {
        output.appendChild(el("p", "small mono layoffs", texts.layoffs + ": " + v.layoffs.map(function (lo) {
          return lo.card + " " + texts.on + " " + lo.onto;
        }).join(", ")));
      }
      if (v && (v.formula_message || v.formula)) {
        var formula = v.formula_message ? wordMessage(v.formula_message, texts.formulas || {}) : v.formula;
        output.appendChild(el("p", "small muted formula", formula));
      }
      if (answer.problem) { output.appendChild(el("p", "small problem", answer.problem.detail)); }
    }

    function ask() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var mine = ++asked;
        picker.setAttribute("aria-busy", "true");
        fetch(url, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify(body())
        }).then(function (response) {
          return response.json().then(function (answer) { return [answer, response.status]; });
        }).then(function (result) {
          if (mine === asked) { show(result[0], result[1]); }
        }).catch(function () {
          if (mine === asked) { show({}, 0); }
        }).then(function () {
          if (mine === asked) { picker.removeAttribute("aria-busy"); }
        });
      }, 250);
    }

    cards.forEach(function (button) {
      button.addEventListener("click", function () { tap(button.getAttribute("data-card")); });
    });
    targets.forEach(function (button) {
      button.addEventListener("click", function () { state.target = button.getAttribute("data-hand"); draw(); });
    });
    meldButton.addEventListener("click", function () {
      if (state.chosen.length < 3) { return; }
      state.melds.push(state.chosen.slice());
      state.chosen = [];
      changed();
    });
    ["knocker", "defender"].forEach(function (hand) {
      fields[hand].addEventListener("input", function () {
        state[hand] = readCards(fields[hand].value);
        draw();
        ask();
      });
    });
    if (fields.melds) {
      fields.melds.addEventListener("input", function () {
        state.melds = readMelds(fields.melds.value);
        draw();
        ask();
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target.matches("input[type=radio], [name=upcard], [name=taken_from_discard], [name=knock_limit], [name=diamond_number]")) {
        ask();
      }
    });
    picker.hidden = false;
    draw();
    if (state.knocker.length || state.defender.length) { ask(); }
  }

  // One tap per count: the knocker's deadwood 0-10, the defender's as tens and ones.
  function setupQuick(input) {
    var kind = input.getAttribute("data-quick");
    var box = el("div", "quick");
    box.setAttribute("data-quick-for", input.id);

    function row(values, shown, pick, label) {
      var group = el("div", "quick-row");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", label || "");
      values.forEach(function (value, index) {
        var button = el("button", "quick-n", shown[index]);
        button.type = "button";
        button.setAttribute("data-value", String(value));
        button.addEventListener("click", function () { pick(value); sync(); });
        group.appendChild(button);
      });
      box.appendChild(group);
      return group;
    }

    function current() { return /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : null; }

    function set(value) {
      input.value = String(value);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    var rows = [];
    if (kind === "knock") {
      var upto = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      rows.push([row(upto, upto.map(String), set, input.getAttribute("data-quick-label")),
        function (v) { return v; }]);
    } else {
      var tens = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90];
      var ones = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
      rows.push([row(tens, tens.map(String), function (t) { set(t + ((current() || 0) % 10)); },
        input.getAttribute("data-quick-tens")), function (v) { return v - (v % 10); }]);
      rows.push([row(ones, ones.map(function (n) { return "+" + n; }), function (o) {
        var now = current() || 0;
        set(now - (now % 10) + o);
      }, input.getAttribute("data-quick-ones")), function (v) { return v % 10; }]);
    }

    function sync() {
      var value = current();
      rows.forEach(function (pair) {
        pair[0].querySelectorAll("button").forEach(function (button) {
          var on = value !== null && pair[1](value) === parseInt(button.getAttribute("data-value"), 10);
          button.setAttribute("aria-pressed", on ? "true" : "false");
        });
      });
    }

    input.addEventListener("input", sync);
    input.insertAdjacentElement("afterend", box);
    sync();
  }

  function setupAll(root) {
    root.querySelectorAll("[data-picker]").forEach(setupPicker);
    root.querySelectorAll("input[data-quick]").forEach(setupQuick);
  }
  document.addEventListener("DOMContentLoaded", function () { setupAll(document); });
  // live.js swapped regions in (a new hand's entry form): give their pickers life too.
  document.addEventListener("knock:live", function (event) {
    (event.detail.regions || []).forEach(function (name) {
      var region = document.querySelector('[data-live-region="' + name + '"]');
      if (region) { setupAll(region); }
    });
  });
})();
