// The player's pass (/events/<id>/pass/): when the live regions bring a new table (the round is
// paired), the phone vibrates (navigator.vibrate, where the phone allows) and beeps (WebAudio,
// only after the player touched the page once: browsers allow sound after a gesture only).
(function () {
  "use strict";
  var audio = null;
  var shown = current();

  function current() {
    var region = document.querySelector('[data-live-region="pass-now"]');
    return region ? region.getAttribute("data-pass-table") || "" : "";
  }

  function unlock() {
    if (audio || !(window.AudioContext || window.webkitAudioContext)) { return; }
    try {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    } catch (e) { audio = null; }
    var offer = document.querySelector("[data-pass-alert]");
    if (offer) { offer.hidden = true; }
  }

  function beep() {
    if (!audio) { return; }
    try {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.2;
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound: the vibration and the page say it */ }
  }

  var offer = document.querySelector("[data-pass-alert]");
  if (offer && (window.AudioContext || window.webkitAudioContext)) { offer.hidden = false; }
  document.addEventListener("click", unlock, { once: true });
  document.addEventListener("touchstart", unlock, { once: true });

  document.addEventListener("knock:live", function () {
    var now = current();
    if (now && now !== shown) {
      if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); }
      beep();
    }
    shown = now;
  });
})();
