"""The referee's record (``Table.record()``, what ``nardy replay --json`` prints) as a
:class:`nardy.record.Record`: the one model the exports, the dashboard's downloads and the
project's JSON record share.

The referee keeps each turn's steps; they are checked against the dice and the positions before
and after the turn (a move run over two dice is split, a hit is where a blot was), and read from
the notation when a record has none. A step no die of the throw makes (a foul let stand) gets
die 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nardy.record import (
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
    check,
    score_after,
)
from nardy.record.model import numbering_of
from nardy.record.steps import steps_of
from nardy.referee.notation import NotationError, parse_play
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.variant import get_variant

_CUBE = {"offer": CubeKind.DOUBLE, "double": CubeKind.DOUBLE, "take": CubeKind.TAKE,
         "drop": CubeKind.DROP, "beaver": CubeKind.BEAVER}  # fmt: skip


def record_of(table: Any) -> Record:
    """The record of a live or replayed :class:`~nardy.referee.table.Table` (or ``LiveTable``)."""
    inner = getattr(table, "table", table)
    return to_record(inner.record(), inner.variant.start())


def record_of_store(store: Any) -> Record:
    """The record a table's store (an ``EventStore``) keeps beside its log — saved at every
    game's end and when the table closes — or, when it has none yet, its log folded as the
    table would on restart. Raises ``StoreError`` for a store that holds no table."""
    from nardy.referee.live import LiveTable

    saved = store.record()
    return to_record(saved) if saved is not None else LiveTable(store).game_record()


def to_record(data: Mapping[str, Any], start: Position | None = None) -> Record:
    """Convert the referee's record dict; ``start`` defaults to the variant's starting position.

    Raises :class:`~nardy.record.RecordError` when the dict does not make a consistent record.
    """
    try:
        setup = data["setup"]
        variant = str(setup["variant"])
        options = dict(setup.get("options") or {})
        players = setup["players"]
        header = Header(
            variant=variant,
            players=(str(players["light"]), str(players["dark"])),
            match_to=setup.get("match_to"),
            stake=setup.get("stake"),
            currency=setup.get("currency"),
            options=options,
            crawford=bool(options.get("crawford", False)),
            jacoby=bool(options.get("jacoby", False)),
            beaver=bool(options.get("beavers", False)),
            cube_limit=options.get("cube_limit"),
        )
        if start is None:
            start = get_variant(variant, **options).start()
        games: list[Game] = []
        score: tuple[float, float] = (0, 0)
        for g in data["games"]:
            game = _game(g, header, start, score)
            games.append(game)
            score = score_after(game)
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"not a referee record: {type(e).__name__} {e}") from None
    record = Record(header, tuple(games))
    check(record)
    return record


def _game(g: Mapping[str, Any], header: Header, start: Position, score) -> Game:
    numbering = numbering_of(header.variant)
    before = start
    cube_actions = sorted(g.get("cube_actions", []), key=lambda c: c["before_turn"])
    entries: list[Entry] = []
    cube, pending = 1, None

    def cube_entries(upto: int | None) -> None:
        nonlocal cube, pending
        while cube_actions and (upto is None or cube_actions[0]["before_turn"] <= upto):
            c = cube_actions.pop(0)
            kind, side = _CUBE[c["kind"]], Side.parse(c["by"])
            # Values are recomputed from the sequence: the record says what each action leaves.
            if kind is CubeKind.DOUBLE:
                pending = int(c["value"])
                entries.append(CubeAction(side, kind, pending))
            elif kind is CubeKind.TAKE:
                cube, pending = pending or cube, None
                entries.append(CubeAction(side, kind, cube))
            elif kind is CubeKind.BEAVER:
                cube, pending = int(c["value"]), None
                entries.append(CubeAction(side, kind, cube))
            else:
                entries.append(CubeAction(side, kind, cube))

    for t in g["turns"]:
        cube_entries(int(t["number"]))
        side = Side.parse(t["player"])
        after = Position.from_json(t["position"])
        dice = tuple(int(d) for d in t["dice"])
        flags = tuple(_flag(f) for f in t.get("flags", []))
        if t.get("steps"):
            # Taken as moves, checked against the dice and the position after (a rules stand-in
            # or a foul may give one step for two dice).
            moves = [(int(x[0]), int(x[1])) for x in t["steps"]]
            steps = steps_of(before, side, numbering, moves, dice, after)
        else:  # an older record: the steps are read back from the notation
            steps = _steps(before, side, numbering, str(t["play"]), dice, after)
        voids = tuple(
            VoidThrow(tuple(int(v) for v in x["values"]), str(x["why"]))
            for x in t.get("void_throws", [])
        )
        entries.append(
            PlayedTurn(side, (dice[0], dice[-1]), steps, str(t["play"]), after, flags, voids)
        )
        before = after
    cube_entries(None)
    result = None
    r = g.get("result")
    if r is not None:
        winner = None if r.get("winner") is None else Side.parse(r["winner"])
        ending = Ending(r["ending"])
        if ending is Ending.RESIGNED and winner is not None:
            entries.append(Resignation(winner.other, int(r["multiplier"]), True))
        result = Result(
            winner, WinKind(r["kind"]), ending, int(r["cube"]), r["points"], int(r["multiplier"])
        )
    rolls = tuple((int(a), int(b)) for a, b in g.get("opening_rolls") or ())
    opening = tuple(g.get("opening") or ())
    if not rolls and len(opening) == 2:
        rolls = ((int(opening[0]), int(opening[1])),)
    return Game(
        number=int(g["number"]),
        score=score,
        start=start,
        entries=tuple(entries),
        result=result,
        crawford=bool(g.get("crawford", False)),
        opening=Opening(rolls) if rolls else None,
    )


def _flag(f: Mapping[str, Any]) -> Flag:
    return Flag(
        reason=str(f["reason"]),
        resolution=Resolution(f.get("resolution") or "pending"),
        kind=str(f.get("kind", "illegal")),
        nearest=tuple(str(n) for n in f.get("nearest", ())),
        by=None if f.get("by") in (None, "director") else Side.parse(f["by"]),
    )


def _steps(
    before: Position,
    side: Side,
    numbering: Numbering,
    play: str,
    dice: Sequence[int],
    after: Position,
) -> tuple[Step, ...]:
    try:
        moves = parse_play(play)
    except NotationError as e:
        raise RecordError(f"play {play!r}: {e}") from None
    return steps_of(before, side, numbering, moves, dice, after)
