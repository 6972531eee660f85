"""Profiles that ship: each made by ``nardy calibrate --corners`` from the fixture of the same
name in ``tests/fixtures/boards`` (a classic, a dark and a felt board in the starting position,
so each records its orientation)."""

from __future__ import annotations

from importlib import resources

from nardy.calibration.profile import BoardProfile, ProfileError


def names() -> list[str]:
    return sorted(
        p.name.removesuffix(".json")
        for p in resources.files(__name__).iterdir()
        if p.name.endswith(".json")
    )


def shipped(name: str) -> BoardProfile:
    """The shipped profile called ``name``."""
    if name not in names():
        raise ProfileError(f"no shipped profile {name!r}; there are {', '.join(names())}")
    return BoardProfile.from_json(
        __import__("json").loads(resources.files(__name__).joinpath(f"{name}.json").read_text())
    )
