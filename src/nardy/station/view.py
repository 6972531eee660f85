"""The referee's table view as the dashboard's snapshot (see ``nardy.webui.present``)."""

from __future__ import annotations

from typing import Any

#: What the referee waits for, in the dashboard's words.
WAITING = {
    "opening": "opening throw",
    "throw": "throw",
    "move": "move",
    "flag": "the opponent's answer to the flag",
    "question": "which play it was",
    "cube": "take or drop",
    "game_over": "new game",
}


def snapshot(
    view: dict[str, Any],
    *,
    name: str,
    variant: str,
    family: str,
    players: dict[str, str],
    money: dict[str, Any] | None,
    move_source: str = "camera",
) -> dict[str, Any]:
    """``view`` is ``TableView.to_json()``; ``money`` is ``{"stake", "currency"}`` or None."""
    on_turn = view.get("on_turn")
    dice = view.get("dice") or []
    cube = view.get("cube") or {}
    flag = view.get("flag")
    score = view.get("score") or {}
    out: dict[str, Any] = {
        "name": name,
        "variant": variant,
        "family": family,
        "players": players,
        "move_source": move_source,
        "position": view["position"],
        "on_roll": on_turn,
        "dice": {"values": dice, "used": [], "by": on_turn} if dice else None,
        "cube": {"value": cube.get("value", 1), "owner": cube.get("owner")},
        "waiting_for": view.get("waiting") or WAITING.get(view.get("phase", ""), ""),
        "turns": [
            {
                "side": t["player"],
                "dice": t["dice"],
                "play": t["play"],
                "flags": [f["reason"] for f in t.get("flags", [])],
            }
            for t in view.get("turns", [])
        ],
        "flag": None,
        "question": None,
        "notices": view.get("notices", []),
        "devices": {"cup": view.get("cup", ""), "camera": view.get("camera", "")},
    }
    if flag is not None:
        offender = flag.get("by") or on_turn
        answer_by = None if offender is None else ("dark" if offender == "light" else "light")
        body = {
            "reason": flag["reason"],
            "offender": offender,
            "answer_by": answer_by,
            "nearest": list(flag.get("nearest", ())),
        }
        if flag.get("kind") == "misread":
            out["question"] = {"text": flag["reason"], "choices": body["nearest"]}
        else:
            out["flag"] = body
    if money is not None:
        out["ledger"] = {
            "stake": money["stake"],
            "currency": money.get("currency") or "",
            "light": score.get("light", 0),
            "dark": score.get("dark", 0),
        }
    else:
        out["score"] = {
            "match_to": score.get("match_to"),
            "light": score.get("light", 0),
            "dark": score.get("dark", 0),
            "crawford": bool(view.get("crawford")),
        }
    return out
