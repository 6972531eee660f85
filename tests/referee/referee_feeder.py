"""A live table in its own process, for the kill-and-restart test: ``python referee_feeder.py DB``.

Feeds the events of :func:`session` that the store does not hold yet, one by one, printing how
many the log holds after each; ``--stall N`` stops for a minute once the log holds N events, so
the test can kill it there, midway.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from referee_events import act, board, throw
from referee_stand_in import START, after, rules

from nardy.referee.live import LiveTable
from nardy.referee.setup import TableSetup
from nardy.rules.position import Side

L, D = Side.LIGHT, Side.DARK
LEGAL = {(L, (3, 1)): ["8/5 6/5"], (D, (6, 4)): ["24/14"], (L, (5, 2)): ["13/8 13/11"]}
SETUP = TableSetup(stake=1.0, currency="EUR")


def session() -> list:
    p1 = after(START, L, "8/5 6/5")
    p2 = after(p1, D, "24/14")
    p3 = after(p2, L, "13/8 13/11")
    events = [throw(100, 3, 1), board(200, after(START, L, "8/5")), board(300, p1)]
    events += [act(400, "offer", "dark"), act(500, "take", "light")]
    events += [throw(600, 6, 4), board(700, after(p1, D, "13/9 13/7"))]
    events += [act(800, "replay", "light"), board(900, p1), board(1000, p2)]
    events += [throw(1100, 5, 2), board(1200, p3), throw(1250, 6, 4)]
    events += [board(1300, after(p3, D, "24/14")), act(1400, "offer", "light")]
    events += [act(1500, "drop", "dark")]
    return events


def main() -> None:
    stall = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--stall" else None
    table = LiveTable.open(sys.argv[1], SETUP, rules=rules(LEGAL))
    events = session()
    for event in events[len(table.store) :]:
        table.submit(event)
        print(len(table.store), flush=True)
        if len(table.store) == stall:
            time.sleep(60)
    print("done", flush=True)


if __name__ == "__main__":
    main()
