"""Site-wide pieces that belong to no game app: home page, health, errors, API tokens, the work
outbox and the background-work machinery (broker transport, beat scheduler, worker steps)."""
