"""A player's pass: one private link for the whole event (``/p/#<secret>``).

Between printing and tournaments in the layers: it reads events, registrations, rounds and
matches, and printing prints the pass on the check-in card. Tournaments tells it about new
registrations and paired rounds through ``tournaments.signals`` (it imports nothing of this app).
"""
