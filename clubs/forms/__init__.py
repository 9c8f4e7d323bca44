"""Page forms of clubs and accounts: they only read and type the input; services decide."""

from clubs.forms.clubs import (
    ClubForm,
    GemDeckMapForm,
    PlayerAddForm,
    PlayerEditForm,
    PlayerListForm,
    RoleGrantForm,
    SignUpForm,
)

__all__ = [
    "ClubForm",
    "GemDeckMapForm",
    "PlayerAddForm",
    "PlayerEditForm",
    "PlayerListForm",
    "RoleGrantForm",
    "SignUpForm",
]
