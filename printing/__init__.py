"""What is printed or downloaded for the room: a round's table list and slips, check-in cards, and
an event's standings and results as CSV or PDF.

Above tournaments (it prints events, rounds and registrations through tournaments' selectors and
scoring's seat links); nothing below imports it.
"""
