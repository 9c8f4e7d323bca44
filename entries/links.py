"""An entry's private link: the pass its entrant will hold, from the moment they enter.

The link is the pass's (``/p/#<secret>``, :mod:`passes.links`), made with :mod:`scoring.links`'
derivation in the pass's domain: the secret is ``secret_of("pass:" + nonce)`` and the entry keeps
only the nonce and the secret's digest. When the entry becomes a registration, its pass is issued
with the same nonce (``passes.services``), so the one link an entrant was given at entry (on the
confirmation page, in their mail) opens their pass; until then it shows where the entry stands
(awaiting approval, number 2 on the waiting list) and lets the entrant withdraw it.
"""

from __future__ import annotations

from entries.models import Entry
from scoring.links import digest_of, new_nonce, secret_of

LINK_DOMAIN = "pass:"
"""The domain of a pass's secret (:mod:`passes.links` takes it from here): an entry's link and
its pass share it, and no seat key can share their secret."""


def entry_secret(entry: Entry) -> str:
    """The secret of ``entry``'s link (derived: never stored); "" for an entry without one (made
    before links were given, or by a director)."""
    return secret_of(LINK_DOMAIN + entry.nonce) if entry.nonce else ""


def entry_link_issue(entry: Entry) -> None:
    """Give ``entry`` (not saved yet) its link: a new nonce and the secret's digest."""
    entry.nonce = new_nonce()
    entry.digest = digest_of(entry_secret(entry))
