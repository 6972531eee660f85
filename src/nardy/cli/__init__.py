"""The ``nardy`` command line. Each subcommand is a module of this package (see :mod:`.main`)."""
