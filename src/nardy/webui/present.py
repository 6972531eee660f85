"""From a table's snapshot to what the page shows.

A snapshot is plain JSON values (what :meth:`nardy.webui.hub.Table.snapshot` returns)::

    {"name", "variant", "players": {"light", "dark"},
     "position": {"points", "bar", "off"},           # the project's JSON position form
     "family": "short" | "long",
     "on_roll": "light" | "dark" | null,
     "dice": {"values": [a, b], "used": [bool, ...], "by": side} | null,
     "cube": {"value": n, "owner": side | null} | null,
     "waiting_for": "throw" | "move" | "board not still" | "dice cup not answering" | ...,
     "turns": [{"side", "dice", "play", "flags": [text, ...]}],
     "flag": {"reason", "offender", "answer_by", "nearest": [play, ...]} | null,
     "question": {"text", "choices": [play, ...]} | null,
     "score": {"match_to", "light", "dark", "crawford": bool} | null,
     "ledger": {"stake", "currency", "light", "dark"} | null,
     "devices": {"cup": text, "camera": text}}

Any key may be missing; the page shows what there is.
"""

from __future__ import annotations

from typing import Any

from nardy.rules.position import Numbering, Position, Side
from nardy.webui.board_svg import Cube, Dice, board_svg, pip_count
from nardy.webui.hub import Seat


def present(seat: Seat) -> dict[str, Any]:
    snap = dict(seat.table.snapshot())
    numbering = Numbering.SAME_WAY if snap.get("family") == "long" else Numbering.OPPOSED
    position = Position.from_json(snap["position"]) if snap.get("position") else None
    if position is not None:
        snap["svg"] = board_svg(
            position,
            numbering=numbering,
            dice=_dice(snap.get("dice")),
            cube=_cube(snap.get("cube")),
        )
        snap["pips"] = {str(s): pip_count(position, s, numbering) for s in Side}
    snap["has_camera"] = callable(getattr(seat.table, "camera_jpeg", None))
    snap["table_id"] = seat.table_id
    snap["version"] = seat.version
    return snap


def _dice(d: dict[str, Any] | None) -> Dice | None:
    if not d or not d.get("values"):
        return None
    by = Side.parse(d["by"]) if d.get("by") else Side.LIGHT
    return Dice(tuple(d["values"]), tuple(d.get("used") or ()), by)


def _cube(c: dict[str, Any] | None) -> Cube | None:
    if not c:
        return None
    owner = Side.parse(c["owner"]) if c.get("owner") else None
    return Cube(int(c.get("value", 1)), owner)
