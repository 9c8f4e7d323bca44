// Opening a private link (/l/#<secret>): the secret is in the address's fragment, which the
// browser never sends to the server (so it is in no access log). Take it out of the address
// bar and history at once, then hand it to the server in a POST, which answers with the match.
(function () {
  "use strict";
  var secret = window.location.hash.replace(/^#/, "");
  if (!secret) { return; }
  window.history.replaceState(null, "", window.location.pathname);
  var form = document.getElementById("link-open");
  if (!form) { return; }
  form.querySelector("input[name=secret]").value = secret;
  form.submit();
})();
