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
  }

  // The offer goes once the sound is on, but only after the click that turned it on has landed:
  // hiding it at the touch would move the page up under the finger, and the click that follows
  // the touch would hit whatever moved there (a first tap on "check me in" went nowhere).
  function settle() {
    unlock();
    window.setTimeout(function () {
      var offer = document.querySelector("[data-pass-alert]");
      if (offer && audio) { offer.hidden = true; }
    }, 0);
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
  document.addEventListener("click", settle, { once: true });
  document.addEventListener("touchstart", unlock, { once: true, passive: true });

  document.addEventListener("knock:live", function () {
    var now = current();
    if (now && now !== shown) {
      if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); }
      beep();
    }
    shown = now;
  });
})();
