"""nardy-companion: a referee, scorer and recorder for backgammon and nardy on a real board."""

__version__ = "0.1.0"
