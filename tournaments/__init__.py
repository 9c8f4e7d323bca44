"""Clubs, players, events, rounds, pairings, brackets and standings.

Ratings are the ``ratings`` app's (below this one: tournaments calls its services and reads its
selectors); printing and exports the ``printing`` app's (above this one).
"""
