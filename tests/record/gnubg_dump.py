"""Run by GNU Backgammon's embedded Python (``gnubg -t -q -r -p gnubg_dump.py``): import every
file listed in $NARDY_GNUBG_JOBS and write what gnubg made of it to $NARDY_GNUBG_OUT.

It only reads gnubg's state; the comparison with the records is the test's business. Boards are
gnubg's ``(player not on roll, player on roll)`` pairs of 25 counts, index 24 the bar.
"""

import json
import os

import gnubg

with open(os.environ["NARDY_GNUBG_JOBS"]) as f:
    jobs = json.load(f)
out = []
for job in jobs:
    command = "import mat" if job["path"].endswith(".mat") else "load match"
    gnubg.command(f"{command} {job['path']}")
    if job.get("export_mat"):
        gnubg.command(f"export match mat {job['export_mat']}")
    m = gnubg.match()
    games = []
    for g in m["games"] if m else []:
        actions = []
        for a in g["game"]:
            item = {"action": a["action"], "player": a.get("player")}
            if "dice" in a:
                item["dice"] = list(a["dice"])
            if "move" in a:
                item["move"] = [list(s) for s in a["move"]]
            if "board" in a:
                item["board"] = [list(b) for b in gnubg.positionfromid(a["board"])]
            actions.append(item)
        games.append({"info": g["info"], "actions": actions})
    info = m["match-info"] if m else {}
    out.append(
        {
            "path": job["path"],
            "players": [info.get("X", {}).get("name"), info.get("O", {}).get("name")],
            "match_length": info.get("match-length"),
            "variation": info.get("variation"),
            "rules": list(info.get("rules", ())),
            "games": games,
            "end": [list(b) for b in gnubg.board()],
        }
    )
with open(os.environ["NARDY_GNUBG_OUT"], "w") as f:
    json.dump(out, f)
