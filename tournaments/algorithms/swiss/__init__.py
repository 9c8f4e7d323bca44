"""Swiss pairing (transitional: the code sits in :mod:`.solver`)."""

from .solver import *  # noqa: F403
from .solver import __all__  # noqa: F401
