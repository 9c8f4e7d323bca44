"""Game and match scoring (transitional: the code sits in :mod:`engine.game.tally`)."""

from engine.game.tally import *  # noqa: F403
from engine.game.tally import __all__  # noqa: F401
