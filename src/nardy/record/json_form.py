"""The project's JSON record: what ``nardy replay --json`` prints and ``nardy export`` reads.

Written to be read by a person as much as by a program::

    {"format": "nardy-record", "version": 1,
     "header": {"variant": "backgammon", "players": {"light": "Ann", "dark": "Bob"},
                "match_to": 3, "crawford": true, ...},
     "games": [{"number": 1, "score": [0, 0], "crawford": false,
                "opening": [[3, 1]], "start": {position},
                "entries": [
                  {"turn": "light", "dice": [3, 1], "play": "8/5 6/5",
                   "steps": [[8, 5, 3, false], [6, 5, 1, false]],
                   "after": {position}, "flags": [{"reason": ..., "resolution": "condoned"}]},
                  {"cube": "double", "by": "dark", "value": 2},
                  {"resign": "light", "points": 1, "accepted": true}],
                "result": {"winner": "dark", "kind": "oin", "ending": "resigned",
                           "multiplier": 1, "cube": 2, "points": 2}}],
     "score": [0, 2]}                      (a match) or "ledger": [...] (a money session)

A step is ``[from, to, die, hit]`` in the mover's numbering (25 the bar, 0 off). Positions are
the JSON position form of ``nardy moves``. ``score`` and ``ledger`` are derived; on reading they
are checked against the games.
"""

from __future__ import annotations

import json
from typing import Any

from nardy.record.model import (
    CubeAction,
    CubeKind,
    Ending,
    Entry,
    Flag,
    Game,
    Header,
    Opening,
    PlayedTurn,
    Record,
    RecordError,
    Resignation,
    Resolution,
    Result,
    Step,
    VoidThrow,
    WinKind,
)
from nardy.rules.errors import RulesError
from nardy.rules.position import Position, Side

FORMAT = "nardy-record"
VERSION = 1

# -- writing --------------------------------------------------------------------------------------


def record_to_json(record: Record) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "header": _header_to_json(record.header),
        "games": [_game_to_json(g) for g in record.games],
    }
    if record.header.money:
        data["ledger"] = [
            {
                "game": line.game,
                "winner": None if line.winner is None else str(line.winner),
                "points": line.points,
                "amount": line.amount,
                "balance": line.balance,
            }
            for line in record.ledger()
        ]
    else:
        data["score"] = list(record.score())
        winner = record.match_winner()
        data["match_winner"] = None if winner is None else str(winner)
    return data


def dumps(record: Record) -> str:
    """The record as JSON text laid out for reading: one line per entry field, short lists and
    positions on one line each."""
    return _layout(record_to_json(record), "")


def _flat(v: Any) -> bool:
    """Small enough to read on one line: a scalar, a list of scalars (or of such lists), or an
    object of those (a position, a flag, a cube action)."""
    if isinstance(v, list):
        return all(not isinstance(x, dict | list) or (isinstance(x, list) and _flat(x)) for x in v)
    if isinstance(v, dict):
        return all(not isinstance(x, dict) and _flat(x) for x in v.values())
    return True


def _layout(v: Any, pad: str) -> str:
    if _flat(v) and (not isinstance(v, dict) or len(v) <= 5):
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    inner = pad + "  "
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[\n" + ",\n".join(inner + _layout(x, inner) for x in v) + "\n" + pad + "]"
    items = (
        f"{inner}{json.dumps(k, ensure_ascii=False)}: {_layout(x, inner)}" for k, x in v.items()
    )
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def _header_to_json(h: Header) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": h.variant,
        "players": {"light": h.players[0], "dark": h.players[1]},
    }
    if h.options:
        data["options"] = dict(h.options)
    if h.money:
        data["stake"] = h.stake
        data["currency"] = h.currency
    else:
        data["match_to"] = h.match_to
    data.update(cube=h.cube, crawford=h.crawford, jacoby=h.jacoby, beaver=h.beaver)
    data["cube_limit"] = h.cube_limit
    for key in ("date", "time", "event", "place"):
        if getattr(h, key) is not None:
            data[key] = getattr(h, key)
    return data


def _game_to_json(g: Game) -> dict[str, Any]:
    data: dict[str, Any] = {"number": g.number, "score": list(g.score), "crawford": g.crawford}
    if g.opening is not None:
        data["opening"] = [list(r) for r in g.opening.rolls]
    data["start"] = g.start.to_json()
    data["entries"] = [_entry_to_json(e) for e in g.entries]
    r = g.result
    data["result"] = None
    if r is not None:
        data["result"] = {
            "winner": None if r.winner is None else str(r.winner),
            "kind": r.kind.value,
            "ending": r.ending.value,
            "multiplier": r.multiplier,
            "cube": r.cube,
            "points": r.points,
        }
    return data


def _flag_to_json(f: Flag) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": f.kind, "reason": f.reason, "resolution": f.resolution.value}
    if f.nearest:
        data["nearest"] = list(f.nearest)
    if f.by is not None:
        data["by"] = str(f.by)
    if f.note:
        data["note"] = f.note
    return data


def _entry_to_json(e: Entry) -> dict[str, Any]:
    if isinstance(e, PlayedTurn):
        data: dict[str, Any] = {
            "turn": str(e.side),
            "dice": list(e.dice),
            "play": e.notation,
            "steps": [[s.start, s.end, s.die, s.hit] for s in e.steps],
            "after": e.after.to_json(),
        }
        if e.flags:
            data["flags"] = [_flag_to_json(f) for f in e.flags]
        if e.void_throws:
            data["void_throws"] = [{"values": list(v.values), "why": v.why} for v in e.void_throws]
        return data
    if isinstance(e, CubeAction):
        return {"cube": e.kind.value, "by": str(e.side), "value": e.value}
    return {"resign": str(e.side), "points": e.points, "accepted": e.accepted}


# -- reading --------------------------------------------------------------------------------------


def loads(text: str) -> Record:
    """Read a JSON record; :class:`RecordError` says what is wrong and where."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    return record_from_json(data)


def record_from_json(data: Any) -> Record:
    """Build a record from its JSON form, check that it holds together, and return it."""
    from nardy.record.check import check

    r = _Reader()
    obj = r.obj(data, "record")
    if obj.get("format") != FORMAT:
        raise RecordError(f'record: "format" must be "{FORMAT}"')
    if obj.get("version") != VERSION:
        raise RecordError(f"record: version {obj.get('version')!r} is not {VERSION}")
    header = r.header(r.get(obj, "header", "record"))
    games = tuple(
        r.game(g, f"games[{i}]")
        for i, g in enumerate(r.array(r.get(obj, "games", "record"), "games"))
    )
    record = Record(header, games)
    check(record)
    if "score" in obj and not header.money and list(record.score()) != obj["score"]:
        raise RecordError(
            f"score: {obj['score']} does not follow from the games ({list(record.score())})"
        )
    if "ledger" in obj and header.money:
        balance = record.ledger()[-1].balance if record.ledger() else 0
        given = obj["ledger"][-1]["balance"] if obj["ledger"] else 0
        if given != balance:
            raise RecordError(f"ledger: balance {given} does not follow from the games ({balance})")
    return record


class _Reader:
    """Typed access to the parsed JSON, each failure naming the path of the bad value."""

    def obj(self, v: Any, path: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise RecordError(f"{path}: expected an object")
        return v

    def array(self, v: Any, path: str) -> list[Any]:
        if not isinstance(v, list):
            raise RecordError(f"{path}: expected a list")
        return v

    def get(self, obj: dict[str, Any], key: str, path: str) -> Any:
        if key not in obj:
            raise RecordError(f'{path}: "{key}" is missing')
        return obj[key]

    def int(self, v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise RecordError(f"{path}: expected a whole number, not {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise RecordError(f"{path}: {v} is out of range")
        return v

    def num(self, v: Any, path: str) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
            raise RecordError(f"{path}: expected a number ≥ 0, not {v!r}")
        return v

    def bool(self, v: Any, path: str) -> bool:
        if not isinstance(v, bool):
            raise RecordError(f"{path}: expected true or false, not {v!r}")
        return v

    def str(self, v: Any, path: str, optional: bool = False) -> Any:
        if v is None and optional:
            return None
        if not isinstance(v, str):
            raise RecordError(f"{path}: expected text, not {v!r}")
        return v

    def side(self, v: Any, path: str, optional: bool = False) -> Any:
        if v is None and optional:
            return None
        try:
            return Side.parse(self.str(v, path))
        except ValueError:
            raise RecordError(f'{path}: {v!r} is not "light" or "dark"') from None

    def enum(self, cls: Any, v: Any, path: str) -> Any:
        try:
            return cls(v)
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise RecordError(f"{path}: {v!r} is not one of {names}") from None

    def position(self, v: Any, path: str) -> Position:
        try:
            return Position.from_json(self.obj(v, path))
        except RulesError as e:
            raise RecordError(f"{path}: {e}") from None

    def pair(self, v: Any, path: str) -> tuple[float, float]:
        a = self.array(v, path)
        if len(a) != 2:
            raise RecordError(f"{path}: expected [light, dark]")
        return (self.num(a[0], f"{path}[0]"), self.num(a[1], f"{path}[1]"))

    def header(self, v: Any) -> Header:
        h = self.obj(v, "header")
        players = self.obj(self.get(h, "players", "header"), "header.players")
        match_to = h.get("match_to")
        if match_to is not None:
            match_to = self.int(match_to, "header.match_to", 1)
        stake = h.get("stake")
        if stake is not None:
            stake = self.num(stake, "header.stake")
        limit = h.get("cube_limit")
        if limit is not None:
            limit = self.int(limit, "header.cube_limit", 1)
        options = self.obj(h.get("options", {}), "header.options")
        return Header(
            variant=self.str(self.get(h, "variant", "header"), "header.variant"),
            players=(
                self.str(self.get(players, "light", "header.players"), "header.players.light"),
                self.str(self.get(players, "dark", "header.players"), "header.players.dark"),
            ),
            match_to=match_to,
            stake=stake,
            currency=self.str(h.get("currency"), "header.currency", optional=True),
            options=options,
            cube=self.bool(h.get("cube", True), "header.cube"),
            crawford=self.bool(h.get("crawford", False), "header.crawford"),
            jacoby=self.bool(h.get("jacoby", False), "header.jacoby"),
            beaver=self.bool(h.get("beaver", False), "header.beaver"),
            cube_limit=limit,
            date=self.str(h.get("date"), "header.date", optional=True),
            time=self.str(h.get("time"), "header.time", optional=True),
            event=self.str(h.get("event"), "header.event", optional=True),
            place=self.str(h.get("place"), "header.place", optional=True),
        )

    def game(self, v: Any, path: str) -> Game:
        g = self.obj(v, path)
        opening = None
        if g.get("opening") is not None:
            rolls = []
            for i, roll in enumerate(self.array(g["opening"], f"{path}.opening")):
                a = self.array(roll, f"{path}.opening[{i}]")
                if len(a) != 2:
                    raise RecordError(f"{path}.opening[{i}]: expected [light's die, dark's die]")
                rolls.append(tuple(self.int(d, f"{path}.opening[{i}]", 1, 6) for d in a))
            opening = Opening(tuple(rolls))  # type: ignore[arg-type]
        entries = tuple(
            self.entry(e, f"{path}.entries[{i}]")
            for i, e in enumerate(self.array(self.get(g, "entries", path), f"{path}.entries"))
        )
        return Game(
            number=self.int(self.get(g, "number", path), f"{path}.number", 1),
            score=self.pair(self.get(g, "score", path), f"{path}.score"),
            start=self.position(self.get(g, "start", path), f"{path}.start"),
            entries=entries,
            result=self.result(g.get("result"), f"{path}.result"),
            crawford=self.bool(g.get("crawford", False), f"{path}.crawford"),
            opening=opening,
        )

    def entry(self, v: Any, path: str) -> Entry:
        e = self.obj(v, path)
        if "turn" in e:
            dice = self.array(self.get(e, "dice", path), f"{path}.dice")
            if len(dice) != 2:
                raise RecordError(f"{path}.dice: expected two dice")
            steps = []
            for i, s in enumerate(self.array(e.get("steps", []), f"{path}.steps")):
                a = self.array(s, f"{path}.steps[{i}]")
                if len(a) != 4:
                    raise RecordError(f"{path}.steps[{i}]: expected [from, to, die, hit]")
                p = f"{path}.steps[{i}]"
                steps.append(
                    Step(
                        self.int(a[0], p, 1, 25),
                        self.int(a[1], p, 0, 24),
                        self.int(a[2], p, 0, 6),
                        self.bool(a[3], p),
                    )
                )
            flags = []
            for i, f in enumerate(self.array(e.get("flags", []), f"{path}.flags")):
                fo, p = self.obj(f, f"{path}.flags[{i}]"), f"{path}.flags[{i}]"
                nearest = self.array(fo.get("nearest", []), f"{p}.nearest")
                flags.append(
                    Flag(
                        reason=self.str(self.get(fo, "reason", p), f"{p}.reason"),
                        resolution=self.enum(
                            Resolution, fo.get("resolution", "pending"), f"{p}.resolution"
                        ),
                        kind=self.str(fo.get("kind", "illegal"), f"{p}.kind"),
                        nearest=tuple(self.str(n, f"{p}.nearest") for n in nearest),
                        by=self.side(fo.get("by"), f"{p}.by", optional=True),
                        note=self.str(fo.get("note"), f"{p}.note", optional=True),
                    )
                )
            voids = []
            for i, v in enumerate(self.array(e.get("void_throws", []), f"{path}.void_throws")):
                vo, p = self.obj(v, f"{path}.void_throws[{i}]"), f"{path}.void_throws[{i}]"
                values = self.array(self.get(vo, "values", p), f"{p}.values")
                voids.append(
                    VoidThrow(
                        tuple(self.int(x, f"{p}.values", 0, 6) for x in values),
                        self.str(self.get(vo, "why", p), f"{p}.why"),
                    )
                )
            return PlayedTurn(
                side=self.side(e["turn"], f"{path}.turn"),
                dice=(
                    self.int(dice[0], f"{path}.dice", 1, 6),
                    self.int(dice[1], f"{path}.dice", 1, 6),
                ),
                steps=tuple(steps),
                notation=self.str(e.get("play", ""), f"{path}.play"),
                after=self.position(self.get(e, "after", path), f"{path}.after"),
                flags=tuple(flags),
                void_throws=tuple(voids),
            )
        if "cube" in e:
            return CubeAction(
                side=self.side(self.get(e, "by", path), f"{path}.by"),
                kind=self.enum(CubeKind, e["cube"], f"{path}.cube"),
                value=self.int(self.get(e, "value", path), f"{path}.value", 1),
            )
        if "resign" in e:
            return Resignation(
                side=self.side(e["resign"], f"{path}.resign"),
                points=self.int(self.get(e, "points", path), f"{path}.points", 1, 3),
                accepted=self.bool(self.get(e, "accepted", path), f"{path}.accepted"),
            )
        raise RecordError(f'{path}: an entry is a "turn", a "cube" action or a "resign"')

    def result(self, v: Any, path: str) -> Result | None:
        if v is None:
            return None
        r = self.obj(v, path)
        return Result(
            winner=self.side(r.get("winner"), f"{path}.winner", optional=True),
            kind=self.enum(WinKind, self.get(r, "kind", path), f"{path}.kind"),
            ending=self.enum(Ending, self.get(r, "ending", path), f"{path}.ending"),
            cube=self.int(self.get(r, "cube", path), f"{path}.cube", 1),
            points=self.num(self.get(r, "points", path), f"{path}.points"),
            multiplier=self.int(r.get("multiplier", 1), f"{path}.multiplier", 1, 3),
        )
