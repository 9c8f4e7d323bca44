"""Clubs, players, events, rounds, pairings, brackets, standings and ratings."""
