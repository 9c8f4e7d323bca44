"""Printing: PDF documents for the room (round slips, check-in cards, standings, results) and
the CSV exports. Pure drawing and formatting, no Django: see :mod:`tournaments.printing.pdf`."""
