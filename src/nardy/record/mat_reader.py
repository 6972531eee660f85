"""Reading a Jellyfish ``.mat`` (as we, XG or gnubg write it) back into a :class:`Record`.

The file holds the throws, the moves, the cube and the points of each game; the rest of a
record is rebuilt: the positions by playing the moves from the variant's start, the hits and the
die of each step from the positions, the kind of each win from the final position (a game that
stops before the end was resigned, or dropped). What a ``.mat`` never held stays empty: flags,
rejected resignations, the opening throws, stakes.
"""

from __future__ import annotations

import itertools
import re

from nardy.record.check import check
from nardy.record.model import (
    BAR,
    OFF,
    CubeAction,
    CubeKind,
    Ending,
    Entry,
    Game,
    Header,
    PlayedTurn,
    Record,
    RecordError,
    Resignation,
    Result,
    WinKind,
    apply_steps,
    score_after,
    step_notation,
)
from nardy.record.steps import steps_of
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.result import kind_of_win, scoring_table
from nardy.rules.variant import get_variant

_KEY = re.compile(r'^;\s*\[([A-Za-z][\w ]*?)\s+"(.*)"\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
#: gnubg writes the end of a game on a line of its own, in the winner's column.
_WINS = re.compile(r"^(\s*)(Wins\s+\d+\s+points?)\s*$", re.I)
_START = re.compile(r"\d\d:|Doubles|Beavers|Takes|Drops|Wins", re.I)
#: An action whose text starts this far into its line is in the right-hand (dark's) column.
_RIGHT_COLUMN = 14

#: The .mat ``Variation`` values we and XG/gnubg write, to our variant names.
_VARIATIONS = {"backgammon": "backgammon", "nackgammon": "nackgammon", "hypergammon": "hypergammon"}


def read_mat(text: str) -> Record:
    """The record a ``.mat`` holds; :class:`RecordError` names the line that cannot be read."""
    keys: dict[str, str] = {}
    length: int | None = None
    games: list[tuple[int, tuple[str, int, str, int] | None, list[tuple[int, Side, str]]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if m := _KEY.match(line):
            keys[m.group(1).strip().lower()] = m.group(2)
        elif line.lstrip().startswith(";") or not line.strip():
            continue
        elif m := _LENGTH.match(line):
            length = int(m.group(1))
        elif m := _GAME.match(line):
            games.append((int(m.group(1)), None, []))
        elif (m := _WINS.match(line)) and games:
            side = Side.DARK if len(m.group(1)) >= 5 + _RIGHT_COLUMN else Side.LIGHT
            games[-1][2].append((n, side, m.group(2)))
        elif (m := _NUMBERED.match(line)) and games:
            games[-1][2].extend((n, side, act) for side, act in _actions(m.group(2)))
        elif (m := _SCORE.match(line)) and games and games[-1][1] is None:
            a, sa, b, sb = m.groups()
            games[-1] = (games[-1][0], (a, int(sa), b, int(sb)), games[-1][2])
        else:
            raise RecordError(f"line {n}: cannot read {line.strip()!r}")
    if length is None:
        raise RecordError('no "N point match" line: not a .mat file')
    header = _header(keys, length, games)
    start = _start(header.variant)
    played: list[Game] = []
    score: tuple[float, float] = (0, 0)
    seen_crawford = False
    for number, _names, actions in games:
        n = header.match_to
        crawford = bool(
            n and header.crawford and n > 1 and max(score) == n - 1 and not seen_crawford
        )
        seen_crawford = seen_crawford or crawford
        game = _game(header, number, score, start, actions, crawford)
        played.append(game)
        score = score_after(game)
    record = Record(header, tuple(played))
    check(record)
    return record


def _actions(rest: str) -> list[tuple[Side, str]]:
    starts = [m.start() for m in _START.finditer(rest)]
    parts = [rest[a:b].strip() for a, b in zip(starts, [*starts[1:], len(rest)], strict=True)]
    if len(parts) == 1 and starts[0] >= _RIGHT_COLUMN:
        return [(Side.DARK, parts[0])]
    return list(zip((Side.LIGHT, Side.DARK), parts, strict=False))


def _header(keys: dict[str, str], length: int, games: list) -> Header:
    variation = keys.get("variation", "Backgammon").split("(")[0].strip().lower()
    if variation not in _VARIATIONS:
        raise RecordError(f"variation {keys['variation']!r} is not one we know")
    variant = _VARIATIONS[variation]
    note = keys.get("note", "")
    if m := re.match(r"nardy variant (\w+):", note):
        variant = m.group(1)
    names = games[0][1] if games and games[0][1] else ("Light", 0, "Dark", 0)
    date = keys.get("eventdate")
    limit = keys.get("cubelimit")
    return Header(
        variant=variant,
        players=(keys.get("player 1", names[0]), keys.get("player 2", names[2])),
        match_to=length or None,
        crawford=keys.get("crawford", "On" if length else "Off").lower() == "on",
        jacoby=keys.get("jacoby", "Off").lower() == "on",
        beaver=keys.get("beaver", "Off").lower() == "on",
        cube_limit=int(limit) if limit and limit.isdigit() and int(limit) < 1024 else None,
        date=date.replace(".", "-") if date else None,
        time=keys.get("eventtime"),
        event=keys.get("event"),
        place=keys.get("site") or None,
    )


def _start(variant: str) -> Position:
    return get_variant(variant).start()


def _game(
    header: Header,
    number: int,
    score: tuple[float, float],
    start: Position,
    actions: list[tuple[int, Side, str]],
    crawford: bool,
) -> Game:
    pos, cube, pending = start, 1, None
    total = start.checkers(Side.LIGHT)
    entries: list[Entry] = []
    result = None
    dropped = False
    for line, side, text in actions:
        word = text.split()[0].lower()
        if m := re.match(r"(\d)(\d):(.*)$", text):
            dice = (int(m.group(1)), int(m.group(2)))
            moves = _moves(m.group(3), line)
            steps = steps_of(pos, side, Numbering.OPPOSED, moves, dice)
            try:
                after = apply_steps(pos, side, steps, Numbering.OPPOSED)
            except RecordError as e:
                raise RecordError(f"line {line}: {e}") from None
            entries.append(PlayedTurn(side, dice, steps, step_notation(steps), after))
            pos = after
        elif word in ("doubles", "beavers"):
            value = int(re.findall(r"\d+", text)[-1])
            kind = CubeKind.DOUBLE if word == "doubles" else CubeKind.BEAVER
            entries.append(CubeAction(side, kind, value))
            if kind is CubeKind.DOUBLE:
                pending = value
            else:
                cube, pending = value, None
        elif word == "takes":
            if pending is not None:  # a take written after a beaver is the beaver's own
                entries.append(CubeAction(side, CubeKind.TAKE, pending))
                cube, pending = pending, None
        elif word == "drops":
            entries.append(CubeAction(side, CubeKind.DROP, cube))
            dropped = True
        elif word == "wins":
            points = int(re.findall(r"\d+", text)[0])
            result = _result(header, side, points, pos, total, cube, dropped, entries)
        else:
            raise RecordError(f"line {line}: cannot read {text!r}")
    return Game(number, score, start, tuple(entries), result, crawford)


def _result(
    header: Header,
    winner: Side,
    points: int,
    pos: Position,
    total: int,
    cube: int,
    dropped: bool,
    entries: list[Entry],
) -> Result:
    if dropped:
        return Result(winner, WinKind.OIN, Ending.DROPPED, cube, points, 1)
    if pos.off[winner] == total:
        variant = get_variant(header.variant)
        kind = kind_of_win(variant, pos, winner)
        return Result(winner, kind, Ending.BORNE_OFF, cube, points, scoring_table(variant)[kind])
    # The game stopped short: the loser resigned, offering points / cube (1 to 3).
    level = min(max(round(points / cube), 1), 3)
    entries.append(Resignation(winner.other, level, True))
    kind = (WinKind.OIN, WinKind.MARS, WinKind.BACKGAMMON)[level - 1]
    return Result(winner, kind, Ending.RESIGNED, cube, points, level)


def _moves(text: str, line: int) -> list[tuple[int, int]]:
    moves: list[tuple[int, int]] = []
    for token in text.replace(",", " ").split():
        repeat = 1
        if m := re.match(r"^(.*)\((\d)\)$", token):
            token, repeat = m.group(1), int(m.group(2))
        try:
            points = [_point(p) for p in token.split("/")]
        except ValueError:
            raise RecordError(f"line {line}: cannot read the move {token!r}") from None
        if len(points) < 2:
            raise RecordError(f"line {line}: cannot read the move {token!r}")
        moves += list(itertools.pairwise(points)) * repeat
    return moves


def _point(text: str) -> int:
    text = text.rstrip("*").lower()
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    n = int(text)
    if not 0 <= n <= 25:
        raise ValueError(text)
    return n
