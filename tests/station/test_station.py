"""A station turns the dashboard's buttons into the referee's actions, and says when one is
refused."""

from __future__ import annotations

import pytest

from nardy.referee.events import ActionRefused, CameraStatus, DiceThrown
from nardy.referee.live import LiveTable
from nardy.referee.setup import TableSetup
from nardy.referee.store import EventStore
from nardy.station.station import TableStation


@pytest.fixture
def station(tmp_path) -> TableStation:
    setup = TableSetup(variant="backgammon", stake=1, dice_source="cup", move_source="entered")
    return TableStation(LiveTable(EventStore(tmp_path / "t.sqlite"), setup), name="T")


def test_a_play_entered_on_the_dashboard_is_recorded(station):
    station.submit(DiceThrown(100, "cup", (5, 2), True))  # the opening: light 5, dark 2
    station.act("enter_turn", "light", {"play": "8/3 6/4"})
    turns = station.snapshot()["turns"]
    assert [(t["side"], t["dice"], t["play"]) for t in turns] == [("light", [5, 2], "8/3 6/4")]


def test_an_action_the_rules_refuse_raises_with_the_referees_words(station):
    with pytest.raises(ActionRefused, match="refused"):
        station.act("take", "dark", {})


def test_a_malformed_position_is_a_value_error(station):
    with pytest.raises(ValueError):
        station.act("correct", "director", {"position": {"points": [1, 2]}})
    with pytest.raises(ValueError):
        station.act("resign", "light", {"level": "lots"})


def test_a_feed_ending_as_the_station_stops_leaves_the_closed_table_alone(station):
    path = station.live.store.path

    def frames():  # the station is told to stop while the frames are being read
        station.stopping.set()
        yield from ()

    station.feed_frames(frames(), reader=None)
    station.stop()
    with EventStore(path) as store:
        said = [e.state for e in store.events() if isinstance(e, CameraStatus)]
    assert said == ["connected"]  # not "lost": the frames ended because the station stopped
    # anything still arriving from a feed is refused in words, not raised in its thread
    station.submit(DiceThrown(100, "cup", (5, 2), True))
    assert "closed" in station.errors[-1]
