"""Matches, games, hands, submissions, confirmation and score sheets."""
