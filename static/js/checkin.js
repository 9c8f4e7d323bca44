// Opening a check-in link (/checkin/#<token>): the token is in the address's fragment, which the
// browser never sends to the server (so it is in no access log). Take it out of the address bar
// and history at once, then hand it to the server in a POST, which answers with the player's
// check-in page.
(function () {
  "use strict";
  var token = window.location.hash.replace(/^#/, "");
  if (!token) { return; }
  window.history.replaceState(null, "", window.location.pathname);
  var form = document.getElementById("checkin-open");
  if (!form) { return; }
  form.querySelector("input[name=token]").value = token;
  form.submit();
})();
