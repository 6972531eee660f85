"""Does a record hold together? Scores follow from results, positions from the steps played,
the cube from its actions. Run on every record read from a file; the referee may run it too.

It checks the record, not the rules: a condoned foul is a legal entry in a record (it stands), so
steps are applied as played. Legality is the rules engine's business.
"""

from __future__ import annotations

from nardy.record.model import (
    BAR,
    OFF,
    CubeAction,
    CubeKind,
    Ending,
    Game,
    PlayedTurn,
    Record,
    RecordError,
    Resignation,
    WinKind,
    apply_steps,
    numbering_of,
    score_after,
)
from nardy.rules.errors import RulesError
from nardy.rules.position import Position, Side


def check(record: Record) -> None:
    """Raise :class:`RecordError` naming the first thing that does not hold together."""
    h = record.header
    if not h.variant:
        raise RecordError("header.variant: empty")
    if h.match_to is not None and h.stake is not None:
        raise RecordError(
            "header: a record is a match (match_to) or a money session (stake), not both"
        )
    expected = (0, 0)
    crawford_seen = False
    for i, game in enumerate(record.games):
        path = f"games[{i}]"
        if game.number != i + 1:
            raise RecordError(f"{path}.number: {game.number}, expected {i + 1}")
        if tuple(game.score) != tuple(expected):
            raise RecordError(
                f"{path}.score: {list(game.score)}, but the games before make {list(expected)}"
            )
        if i and record.games[i - 1].result is None:
            raise RecordError(f"games[{i - 1}]: only the last game may be unfinished")
        if h.match_to is not None:
            n = h.match_to
            if max(expected) >= n:
                raise RecordError(f"{path}: the match was over before this game")
            should = h.crawford and n > 1 and max(expected) == n - 1 and not crawford_seen
            crawford_seen = crawford_seen or should
            if game.crawford != should:
                raise RecordError(
                    f"{path}.crawford: {str(game.crawford).lower()} at score {list(expected)} "
                    f"in a match to {n}" + ("" if h.crawford else " without the Crawford rule")
                )
        elif game.crawford:
            raise RecordError(f"{path}.crawford: a money session has no Crawford game")
        _check_game(record, game, path)
        expected = score_after(game)


def _check_game(record: Record, game: Game, path: str) -> None:
    h = record.header
    numbering = numbering_of(h.variant)
    before = game.start
    total = (before.checkers(Side.LIGHT), before.checkers(Side.DARK))
    cube, pending, ended = 1, None, None  # pending: the value of a double not yet answered
    for j, e in enumerate(game.entries):
        p = f"{path}.entries[{j}]"
        if ended is not None:
            raise RecordError(f"{p}: the game ended at entries[{ended}]")
        if isinstance(e, PlayedTurn):
            if pending is not None:
                raise RecordError(f"{p}: a turn played while a double waits for an answer")
            if not e.foul_stands:
                _check_steps(e, p)
            if not e.corrected:
                try:
                    played = apply_steps(before, e.side, e.steps, numbering)
                except (RecordError, RulesError) as err:
                    raise RecordError(f"{p}: {err}") from None
                if played != e.after:
                    raise RecordError(
                        f"{p}.after: not the position the steps {e.notation!r} lead to "
                        "(a position a person corrected needs a flag resolved as corrected)"
                    )
            counts = (e.after.checkers(Side.LIGHT), e.after.checkers(Side.DARK))
            if counts != total:
                raise RecordError(f"{p}.after: {counts} checkers, the game started with {total}")
            before = e.after
        elif isinstance(e, CubeAction):
            if not h.cube or game.crawford:
                why = "the Crawford game" if game.crawford else "a game without the cube"
                raise RecordError(f"{p}: a cube action in {why}")
            if e.kind is CubeKind.DOUBLE:
                if pending is not None:
                    raise RecordError(f"{p}: a double while another waits for an answer")
                if e.value <= cube:
                    raise RecordError(f"{p}.value: a double to {e.value} with the cube on {cube}")
                if h.cube_limit is not None and e.value > h.cube_limit:
                    raise RecordError(
                        f"{p}.value: {e.value} is above the cube limit {h.cube_limit}"
                    )
                pending = e.value
            elif pending is None:
                raise RecordError(f"{p}: {e.kind.value} with no double to answer")
            elif e.kind is CubeKind.BEAVER:
                if e.value <= pending:
                    raise RecordError(f"{p}.value: a beaver to {e.value} on a double to {pending}")
                cube, pending = e.value, None
            elif e.kind is CubeKind.TAKE:
                if e.value != pending:
                    raise RecordError(f"{p}.value: a take at {e.value} of a double to {pending}")
                cube, pending = e.value, None
            else:
                if e.value != cube:
                    raise RecordError(f"{p}.value: a drop leaves the cube at {cube}, not {e.value}")
                ended = j
        elif isinstance(e, Resignation) and e.accepted:
            ended = j
    _check_result(game, path, before, total, cube, ended)


def _check_steps(t: PlayedTurn, p: str) -> None:
    d1, d2 = t.dice
    if len(t.steps) > (4 if d1 == d2 else 2):
        raise RecordError(f"{p}.steps: {len(t.steps)} steps for a throw of {d1}-{d2}")
    left = [d1] * 4 if d1 == d2 else [d1, d2]
    for k, s in enumerate(t.steps):
        if s.die not in left:
            raise RecordError(f"{p}.steps[{k}]: die {s.die} is not left of the throw {d1}-{d2}")
        left.remove(s.die)
        if s.start == OFF or s.end == BAR:
            raise RecordError(
                f"{p}.steps[{k}]: a step runs from a point or the bar to a point or off"
            )
        distance = s.start - s.end
        if (s.end == OFF and distance <= s.die) or (s.end != OFF and distance == s.die):
            continue
        raise RecordError(f"{p}.steps[{k}]: {s.start} to {s.end} is not a move of {s.die}")


def _check_result(
    game: Game, path: str, final: Position, total: tuple[int, int], cube: int, ended: int | None
) -> None:
    r = game.result
    p = f"{path}.result"
    if r is None:
        if ended is not None:
            raise RecordError(f"{p}: missing, but the game ended at entries[{ended}]")
        return
    if r.kind is WinKind.DRAW:
        if r.winner is not None:
            raise RecordError(f"{p}: a draw has no winner")
        return
    if r.winner is None:
        raise RecordError(f"{p}.winner: missing")
    if r.cube != cube:
        raise RecordError(f"{p}.cube: {r.cube}, but the cube stands on {cube}")
    if r.points <= 0:
        raise RecordError(f"{p}.points: a win scores more than nothing")
    last = game.entries[ended] if ended is not None else None
    if r.ending is Ending.BORNE_OFF:
        if final.off[r.winner] != total[r.winner]:
            raise RecordError(f"{p}: {r.winner} wins by bearing off but has checkers left")
    elif r.ending is Ending.DROPPED:
        if not (isinstance(last, CubeAction) and last.side is r.winner.other):
            raise RecordError(f"{p}: a win by a drop needs the loser's drop as the last entry")
    elif not (isinstance(last, Resignation) and last.side is r.winner.other):
        raise RecordError(f"{p}: a win by resignation needs the loser's accepted resignation last")
