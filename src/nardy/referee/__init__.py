"""One table's game as a state machine fed by events; its store, recorded sessions and replay.

What the dashboard and ``nardy serve`` use::

    from nardy.referee import Action, LiveTable, TableSetup
    table = LiveTable.open("table.sqlite", TableSetup(variant="backgammon", stake=1))
    stop = table.subscribe(lambda view: ...)   # a TableView after every event
    table.submit(Action(t_ms, "accept", "dark"))
    table.view().waiting                         # "throw", "move", "board not still", ...

Inputs: ``DiceThrown`` (cup events through ``cuplog.referee_event``), frames through
``session.FrameInput`` (``BoardSeen``/``DiceSeen``, or throws read by the camera), ``Action``.
"""

from nardy.referee.events import (
    ACTION_KINDS,
    Action,
    BoardSeen,
    CameraStatus,
    CupStatus,
    DiceSeen,
    DiceThrown,
    Event,
    EventError,
    Observation,
    SeenDie,
)
from nardy.referee.live import LiveTable
from nardy.referee.setup import SetupError, TableSetup
from nardy.referee.table import Table, TableView, fold

__all__ = [
    "ACTION_KINDS",
    "Action",
    "BoardSeen",
    "CameraStatus",
    "CupStatus",
    "DiceSeen",
    "DiceThrown",
    "Event",
    "EventError",
    "LiveTable",
    "Observation",
    "SeenDie",
    "SetupError",
    "Table",
    "TableSetup",
    "TableView",
    "fold",
]
