"""Writes of online entry: the entrant's submission, the director's decisions, the waiting list
moving up (``entries``), and the mails: the entrant's link, the promotion
(``mail``). Import from here."""

from entries.services.entries import (
    ENTRY_FULL,
    entries_promote,
    entry_accept,
    entry_approve,
    entry_attempt_note,
    entry_cache_key,
    entry_language,
    entry_limit,
    entry_merge,
    entry_refuse,
    entry_registration_dropped,
    entry_submit,
    entry_waitlist,
    entry_window,
    entry_withdraw,
    entry_withdraw_own,
    event_entries_configure,
)
from entries.services.mail import entry_promoted_mail, entry_received_mail

__all__ = [
    "ENTRY_FULL",
    "entries_promote",
    "entry_accept",
    "entry_approve",
    "entry_attempt_note",
    "entry_cache_key",
    "entry_language",
    "entry_limit",
    "entry_merge",
    "entry_promoted_mail",
    "entry_received_mail",
    "entry_refuse",
    "entry_registration_dropped",
    "entry_submit",
    "entry_waitlist",
    "entry_window",
    "entry_withdraw",
    "entry_withdraw_own",
    "event_entries_configure",
]
