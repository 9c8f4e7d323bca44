"""Club ratings: Glicko-2 for two-player matches, OpenSkill for three to six players and teams.

Above scoring and clubs (it rates the stored results of their players), below tournaments (which
calls its services when results change and reads its selectors to pair by rating); it never
imports tournaments.
"""
