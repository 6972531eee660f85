"""Fixtures shared by every area's tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Property tests count examples, not time: a loaded 2-core CI machine must not fail them on
# hypothesis's per-example deadline.
settings.register_profile("nardy", deadline=None)
settings.load_profile("nardy")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT
