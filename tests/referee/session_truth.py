"""What a fixture session's truth.json states, and how a replay's record is held against it.

Used by ``test_sessions.py`` and by ``benchmarks/replay.py`` (which says whether each replay
gave the true record).
"""

from __future__ import annotations

from typing import Any


def project(record: dict[str, Any]) -> dict[str, Any]:
    """The parts of a replay's record (``nardy replay --json``) that truth.json states."""
    games = []
    for g in record["games"]:
        entries: list[dict[str, Any]] = []
        cubes = list(g["cube_actions"])
        for t in g["turns"]:
            while cubes and cubes[0]["before_turn"] <= t["number"]:
                entries.append(_cube(cubes.pop(0)))
            entries.append(
                {
                    "turn": t["player"],
                    "dice": t["dice"],
                    "play": t["play"],
                    "after": t["position"],
                    "flags": [[f["kind"], f["resolution"]] for f in t["flags"]],
                    "void": [v["why"] for v in t.get("void_throws", [])],
                }
            )
        entries += [_cube(c) for c in cubes]
        if g.get("resignation"):
            entries.append({"resign": g["resignation"][0], "points": g["resignation"][1]})
        games.append(
            {
                "crawford": g["crawford"],
                "opening": g["opening_rolls"],
                "entries": entries,
                "result": g["result"],
            }
        )
    out: dict[str, Any] = {"games": games}
    if "match" in record:
        out["score"] = [record["match"]["light"], record["match"]["dark"]]
    else:
        out["balance_light"] = record["ledger"]["balance"]["light"]
    return out


def _cube(c: dict[str, Any]) -> dict[str, Any]:
    kind = "double" if c["kind"] == "offer" else c["kind"]
    return {"cube": kind, "by": c["by"], "value": c["value"]}


def compare(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Entry by entry, so a failure names the first one that differs.

    A throw's two dice are compared as a pair, not in order: nothing in the rules depends on
    which die is named first, and a camera reading dice off the board has no first die (the
    script that played the game kept the order it drew them in)."""
    assert len(got["games"]) == len(want["games"]), "number of games"
    for n, (g, w) in enumerate(zip(got["games"], want["games"], strict=True), 1):
        for i, (a, b) in enumerate(zip(g["entries"], w["entries"], strict=False), 1):
            if b.get("play", "") is None:  # an illegal play: named from the positions
                a = {**a, "play": None}
            if "dice" in a and "dice" in b:
                a, b = {**a, "dice": sorted(a["dice"])}, {**b, "dice": sorted(b["dice"])}
            assert a == b, f"game {n}, entry {i}"
        assert len(g["entries"]) == len(w["entries"]), f"game {n}: number of entries"
        for key in ("crawford", "opening", "result"):
            assert g[key] == w[key], f"game {n}: {key}"
    for key in ("score", "balance_light"):
        assert got.get(key) == want.get(key), key
