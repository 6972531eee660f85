"""What the subcommands share: the error that becomes a one-line message and exit status 2."""

from __future__ import annotations


class UsageError(Exception):
    """A user's mistake (bad file, bad value): printed as one line, exit status 2, no traceback.

    Commands raise it, or let a ``ValueError`` subclass of the rules engine be turned into it.
    """
