"""One table's game as a state machine fed by input events. Pure: no I/O, no clock.

``Table(setup).feed(event)`` for each event, in order; the same events always give the same
state and record (:func:`fold`). The turn cycle follows issue 5 and ``RULES.md``:

- opening roll (one die each, ties again; short nardy: the starter plays those dice);
- a throw (void when cocked, split, off the board, or made while the opponent is still moving);
- once the board is still, the seen position is judged against the position before the turn:
  legal → recorded (open until the opponent throws); partial → wait; illegal → a flag the
  opponent answers (accept: it stands, condoned; replay: the checkers go back, then the new play;
  throwing without answering condones it); impossible or a low-confidence reading → a question,
  answered by a correction that rewrites the main line;
- cup and camera disagreeing on a throw, or a second valid throw for a decided turn: a flag,
  never a silent replacement;
- the cube, resignations, the end of a game, the match score or money ledger, the next game.

An action the rules do not allow now (a take with no offer) is refused: it changes nothing and
leaves a notice, so a log holding it still folds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nardy.referee.events import (
    WHY_INVALID,
    Action,
    BoardSeen,
    CameraStatus,
    CupStatus,
    DiceSeen,
    DiceThrown,
    Event,
)
from nardy.referee.notation import NotationError, Steps, apply_play, diff_play, parse_play
from nardy.referee.outcome import CubeAction, Flag, GameRecord, TurnRecord, VoidThrow
from nardy.referee.rules_port import Judge, VariantLike, load_rules, option
from nardy.referee.scorer import Scorer
from nardy.referee.setup import TableSetup
from nardy.rules.position import Position, Side
from nardy.rules.result import GameResult as RulesResult

#: Below this reading confidence an illegal-looking board is asked about, not flagged.
MIN_CONFIDENCE = 0.6
CUBE_MAX = 64

BLOCKING = ("illegal", "misread")


def _side(name: str | None) -> Side | None:
    if name is None:
        return None
    key = name.strip().lower()
    if key in ("light", "l", "w", "white"):
        return Side.LIGHT
    if key in ("dark", "d", "b", "black"):
        return Side.DARK
    return None


def _dice_text(values: Sequence[int]) -> str:
    return "-".join(str(v) if v else "?" for v in values)


@dataclass(frozen=True)
class TableView:
    """What the dashboard shows: a snapshot of the table after the last event."""

    phase: str
    waiting: str
    game: int
    on_turn: str | None
    dice: tuple[int, ...]
    position: Position
    cube: int
    cube_owner: str | None
    cube_offered_by: str | None
    crawford: bool
    flag: Flag | None
    nearest: tuple[str, ...]
    turns: tuple[TurnRecord, ...]
    score: dict[str, Any]
    cup: str
    camera: str
    board_still: bool
    notices: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "waiting": self.waiting,
            "game": self.game,
            "on_turn": self.on_turn,
            "dice": list(self.dice),
            "position": self.position.to_json(),
            "cube": {
                "value": self.cube,
                "owner": self.cube_owner,
                "offered_by": self.cube_offered_by,
            },
            "crawford": self.crawford,
            "flag": None if self.flag is None else self.flag.to_json(),
            "turns": [t.to_json() for t in self.turns],
            "score": self.score,
            "cup": self.cup,
            "camera": self.camera,
            "board_still": self.board_still,
            "notices": list(self.notices),
        }


class Table:
    """The referee of one table. Feed it events; read :meth:`view` and :meth:`record`."""

    def __init__(self, setup: TableSetup, rules: tuple[VariantLike, Judge] | None = None) -> None:
        self.setup = setup
        self.variant, self._judge = rules or load_rules(setup.variant, setup.options)
        self.events: list[Event] = []
        self._reset()

    # -- feeding ------------------------------------------------------------------------------

    def feed(self, event: Event) -> None:
        self.events.append(event)
        if isinstance(event, Action) and event.kind == "undo":
            self._rebuild()
        else:
            self._apply(event)

    def feed_all(self, events: Iterable[Event]) -> Table:
        for e in events:
            self.feed(e)
        return self

    def _rebuild(self) -> None:
        """Undo: fold the log again without the last action not yet undone."""
        kept: list[int] = []
        undone: set[int] = set()
        for i, e in enumerate(self.events):
            if isinstance(e, Action):
                if e.kind == "undo":
                    if kept:
                        undone.add(kept.pop())
                    undone.add(i)
                else:
                    kept.append(i)
        self._reset()
        for i, e in enumerate(self.events):
            if i not in undone:
                self._apply(e)

    def _apply(self, e: Event) -> None:
        if isinstance(e, DiceThrown):
            self._on_throw(e)
        elif isinstance(e, BoardSeen):
            self._on_board(e)
        elif isinstance(e, DiceSeen):
            self._on_dice_seen(e)
        elif isinstance(e, Action):
            self._on_action(e)
        elif isinstance(e, CupStatus):
            if e.state in ("connected", "lost"):
                self.cup = e.state
        elif isinstance(e, CameraStatus) and e.state in ("connected", "lost", "moved"):
            self.camera = e.state

    # -- state ----------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.games: list[GameRecord] = []
        self.scorer = Scorer(self.variant, self.setup)
        self.cup = "unknown" if self.setup.dice_source != "camera" else "unused"
        self.camera = "unknown" if self.setup.move_source == "camera" else "unused"
        self.board_still = True
        self.notices: list[str] = []
        self.seen_throws: set[str] = set()
        self.game_number = 0
        self.last_winner: Side | None = None
        self.turn_t = 0
        self._new_game(None)

    def _new_game(self, starter: Side | None) -> None:
        self.game_number += 1
        self.position = self.variant.start()
        self.before = self.position
        self.turns: list[TurnRecord] = []
        self.cube_actions: list[CubeAction] = []
        self.opening_dice: dict[Side, int] = {}
        self.opening: tuple[int, ...] = ()
        self.opening_rolls: list[tuple[int, int]] = []
        self.resignation: tuple[str, int] | None = None
        self.starter = starter
        self.on_turn: Side | None = starter
        self.phase = "throw" if starter is not None else "opening"
        self.dice: tuple[int, ...] = ()
        self.voids: list[VoidThrow] = []
        self.voids_next: list[VoidThrow] = []  # the opponent's throws made during this turn
        self.turn_flags: list[Flag] = []  # flags of the turn in progress that do not block it
        self.flag: Flag | None = None  # the blocking flag (illegal, misread)
        self.flag_seen: Position | None = None
        self.flag_play = ""
        self.flag_steps: Steps = ()
        self.replaying: Flag | None = None
        self.open_turn = False
        self.played_first = {Side.LIGHT: False, Side.DARK: False}
        self.dice_compared = False
        self.extra_due: Side | None = None  # owed the long-nardy draw turn
        self.result: dict[str, Any] | None = None

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        del self.notices[:-20]

    # -- throws ---------------------------------------------------------------------------------

    def _throw_source(self) -> str:
        return "vision" if self.setup.dice_source == "camera" else "cup"

    def _on_throw(self, e: DiceThrown) -> None:
        if e.throw_id is not None:
            if e.throw_id in self.seen_throws:
                return
            self.seen_throws.add(e.throw_id)
        if e.source != self._throw_source():
            return
        thrower = _side(e.player)
        if self.phase == "opening":
            self._opening_throw(e, thrower)
            return
        if self.phase in ("game_over", "match_over"):
            self._notice(f"throw {_dice_text(e.values)} after the game ended: ignored")
            return
        if self.phase == "offer":
            self._notice("the cube is offered: take or drop before throwing")
            return
        if not e.valid:
            why = WHY_INVALID.get(e.why or "", e.why or "not valid")
            if self.phase == "throw":
                self.voids.append(VoidThrow(e.values, e.why or "invalid", e.t_ms))
                self._notice(f"{_dice_text(e.values)}: {why}: throw again")
            else:
                self._notice(f"{_dice_text(e.values)}: {why}")
            return
        if self.phase == "throw":
            assert self.on_turn is not None
            if thrower is not None and thrower is not self.on_turn:
                if self.open_turn and self.turns and self.turns[-1].player == str(thrower):
                    self._dispute_last(e)
                else:
                    self._notice(f"{thrower} threw out of turn: {self.on_turn} is on turn")
                return
            self._finalize_open_turn()
            self._start_turn(self.on_turn, e.values, e.t_ms)
            return
        if self.phase == "question":
            self._notice("answer the question on the dashboard before throwing")
            return
        mover = self.on_turn
        assert mover is not None
        if thrower is mover:
            self._dispute_current(e)
            return
        if self.phase == "flag":
            # The opponent threw without answering: the turn stands, condoned (RULES.md).
            self._accept_flag(str(mover.other), "condoned")
            self._finalize_open_turn()
            self._start_turn(mover.other, e.values, e.t_ms)
            return
        # phase move or replay: the mover has not finished.
        self.voids_next.append(VoidThrow(e.values, "opponent_moving", e.t_ms))
        self._notice(f"{_dice_text(e.values)} thrown while {mover} was still moving: throw again")

    def _opening_throw(self, e: DiceThrown, thrower: Side | None) -> None:
        if not e.valid and e.why != "split":
            self._notice(f"opening throw {_dice_text(e.values)}: {e.why}: throw again")
            return
        if len(e.values) == 1 and thrower is not None:
            self.opening_dice[thrower] = e.values[0]
        elif len(e.values) == 2:
            self.opening_dice = {Side.LIGHT: e.values[0], Side.DARK: e.values[1]}
        else:
            self._notice("an opening throw is one die each")
            return
        if len(self.opening_dice) < 2:
            return
        light, dark = self.opening_dice[Side.LIGHT], self.opening_dice[Side.DARK]
        self.opening_dice = {}
        if 0 in (light, dark):
            self._notice("an opening die could not be read: throw again")
            return
        self.opening_rolls.append((light, dark))
        if light == dark:
            self._notice(f"opening {light}-{dark}: a tie, throw again")
            return
        starter = Side.LIGHT if light > dark else Side.DARK
        self.starter = starter
        self.opening = (light, dark)
        if self.variant.family == "short" or option(self.variant, "opening_uses_both_dice", False):
            self._start_turn(starter, (max(light, dark), min(light, dark)), e.t_ms)
        else:
            self.on_turn = starter
            self.phase = "throw"

    def _start_turn(self, side: Side, dice: tuple[int, ...], t_ms: int) -> None:
        self.on_turn = side
        self.dice = tuple(dice)
        self.before = self.position
        self.phase = "move"
        self.turn_flags = []
        self.voids.extend(self.voids_next)
        self.voids_next.clear()
        self.dice_compared = False
        self.flag = None
        self.replaying = None
        self.turn_t = t_ms
        legal = self.variant.legal_turns(
            self.before, side, self.dice, first_turn=not self.played_first[side]
        )
        if all(len(t.steps) == 0 for t in legal):
            self._record("", self.before)

    def _finalize_open_turn(self) -> None:
        """The opponent threw: the last turn is final; its open side flags are settled."""
        if not self.open_turn:
            return
        self.open_turn = False
        last = self.turns[-1]
        if any(f.resolution is None for f in last.flags):
            flags = tuple(
                replace(f, resolution=_settled(f.kind)) if f.resolution is None else f
                for f in last.flags
            )
            self.turns[-1] = replace(last, flags=flags)

    def _dispute_current(self, e: DiceThrown) -> None:
        self.turn_flags.append(
            Flag(
                "dispute",
                f"a second throw {_dice_text(e.values)} for a turn already thrown "
                f"{_dice_text(self.dice)}: the first throw stands unless replayed",
            )
        )

    def _dispute_last(self, e: DiceThrown) -> None:
        last = self.turns[-1]
        flag = Flag(
            "dispute",
            f"a second throw {_dice_text(e.values)} for a turn already decided "
            f"({_dice_text(last.dice)}, {last.play or 'no play'})",
        )
        self.turns[-1] = replace(last, flags=(*last.flags, flag))

    # -- the board --------------------------------------------------------------------------

    def _on_board(self, e: BoardSeen) -> None:
        obs = e.observation
        if not obs.usable:
            self.board_still = False
            return
        self.board_still = e.still
        if not e.still or self.setup.move_source != "camera":
            return
        seen = obs.position(self.variant.checkers)
        self._seen(seen, obs.confidence)

    def _seen(self, seen: Position, confidence: float = 1.0) -> None:
        """A settled board (seen or entered): judge it where a turn is being played."""
        if self.phase == "game_over":
            if seen == self.variant.start():
                self._next_game()
            return
        if self.phase == "throw" and self.open_turn and seen != self.position:
            self._reopen_last_turn()
        if self.phase not in ("move", "flag", "question", "replay"):
            return
        if self.phase == "replay" and seen == self.before:
            self.phase = "move"
            return
        if seen == self.before:
            if self.phase in ("flag", "question"):
                self.flag = None
                self.phase = "move"
            return
        if self.phase in ("flag", "question") and seen == self.flag_seen:
            return
        self._judge_seen(seen, confidence)

    def _judge_seen(self, seen: Position, confidence: float) -> None:
        assert self.on_turn is not None
        side = self.on_turn
        try:
            j = self._judge(
                self.variant,
                self.before,
                side,
                self.dice,
                seen,
                first_turn=not self.played_first[side],
            )
        except ValueError as err:  # a board no variant allows (two colours on a point...)
            j = _Impossible(str(err))
        verdict = j.verdict
        if verdict == "illegal" and confidence < MIN_CONFIDENCE:
            verdict = "impossible"
        nearest = tuple(t.notation for t in j.nearest)
        reason = "; ".join(j.reasons)
        if verdict == "legal":
            assert j.turn is not None
            flags: list[Flag] = []
            if self.replaying is not None:
                flags.append(replace(self.replaying, resolution="replayed"))
            self.flag = None
            self._record(j.turn.notation, seen, extra=flags, steps=_steps(j.turn.steps))
        elif verdict == "partial":
            if self.phase in ("flag", "question"):
                self.flag = None
                self.phase = "replay" if self.replaying else "move"
        elif verdict == "illegal":
            self.phase = "flag"
            self.flag = Flag("illegal", reason or "no legal turn leads there", nearest)
            self.flag_seen = seen
            if j.turn is not None:
                self.flag_play, self.flag_steps = j.turn.notation, _steps(j.turn.steps)
            else:
                self.flag_play, self.flag_steps = diff_play(
                    self.before, seen, side, self.variant.numbering
                )
        else:
            self.phase = "question"
            why = reason or "the board cannot be reached from the last position"
            if confidence < MIN_CONFIDENCE:
                why = f"low confidence reading ({confidence:.2f}): {why}"
            self.flag = Flag("misread", why, nearest)
            self.flag_seen = seen

    def _reopen_last_turn(self) -> None:
        """The mover changed the board after a recorded turn, before the opponent threw."""
        last = self.turns.pop()
        self.position = self.before
        self.on_turn = _side(last.player)
        self.phase = "move"
        self.open_turn = False
        self.turn_flags = [f for f in last.flags if f.kind not in BLOCKING]
        self.voids = list(last.void_throws)
        self.played_first[self.on_turn] = bool(  # type: ignore[index]
            any(t.player == last.player for t in self.turns)
        )

    def _record(
        self, play: str, after: Position, extra: Sequence[Flag] = (), steps: Steps = ()
    ) -> None:
        side = self.on_turn
        assert side is not None
        self.turns.append(
            TurnRecord(
                number=len(self.turns) + 1,
                player=str(side),
                dice=self.dice,
                play=play,
                position=after,
                flags=(*self.turn_flags, *extra),
                void_throws=tuple(self.voids),
                t_ms=self.turn_t,
                steps=steps,
            )
        )
        self.position = after
        self.voids = []
        self.turn_flags = []
        self.flag = None
        self.flag_seen = None
        self.replaying = None
        self.open_turn = True
        self.played_first[side] = True
        self.on_turn = side.other
        self.phase = "throw"
        result, self.extra_due = self.scorer.board_result(
            after, self.starter, extra_turn_played=self.extra_due is side
        )
        if result is not None:
            self._end_game(result)

    def _on_dice_seen(self, e: DiceSeen) -> None:
        if self.setup.dice_source != "both" or self.phase != "move" or self.dice_compared:
            return
        if not e.still or not e.dice or any(not d.flat for d in e.dice):
            return
        seen = tuple(d.value for d in e.dice)
        if len(seen) != len(set(self.dice)) and len(seen) != 2:
            return
        self.dice_compared = True
        if sorted(seen) != sorted(self.dice[:2]):
            self.turn_flags.append(
                Flag(
                    "dice_mismatch",
                    f"the cup says {_dice_text(self.dice)}, the camera sees {_dice_text(seen)}",
                )
            )

    # -- actions ------------------------------------------------------------------------------

    def _on_action(self, a: Action) -> None:
        handler = getattr(self, f"_act_{a.kind}")
        refusal = handler(a)
        if refusal:
            self._notice(f"{a.kind} by {a.by} refused: {refusal}")

    def _act_undo(self, a: Action) -> str | None:  # handled by feed(); here for completeness
        return None

    def _acting_side(self, a: Action) -> Side | None:
        return _side(a.by)

    def _act_accept(self, a: Action) -> str | None:
        if self.phase == "flag":
            assert self.on_turn is not None
            if _side(a.by) is self.on_turn:
                return "the opponent (or the director) answers a flag"
            self._accept_flag(a.by, "condoned")
            return None
        flags = self._open_side_flags()
        if flags is None:
            return "nothing to accept"
        owner, i = flags
        f = owner[i]
        owner[i] = replace(f, resolution=_settled(f.kind), by=a.by)
        self._store_side_flags(owner)
        return None

    def _open_side_flags(self) -> tuple[list[Flag], int] | None:
        for i in range(len(self.turn_flags) - 1, -1, -1):
            if self.turn_flags[i].resolution is None:
                return self.turn_flags, i
        if self.open_turn and self.turns:
            flags = list(self.turns[-1].flags)
            for i in range(len(flags) - 1, -1, -1):
                if flags[i].resolution is None and flags[i].kind not in BLOCKING:
                    return flags, i
        return None

    def _store_side_flags(self, flags: list[Flag]) -> None:
        if flags is not self.turn_flags:
            self.turns[-1] = replace(self.turns[-1], flags=tuple(flags))

    def _accept_flag(self, by: str, resolution: str) -> None:
        assert self.flag is not None and self.flag_seen is not None
        flag = replace(self.flag, resolution=resolution, by=by)
        self._record(self.flag_play, self.flag_seen, extra=[flag], steps=self.flag_steps)

    def _act_replay(self, a: Action) -> str | None:
        if self.phase == "flag":
            if _side(a.by) is self.on_turn:
                return "the opponent (or the director) demands a replay"
            assert self.flag is not None
            self.replaying = replace(self.flag, by=a.by)
            self.flag = None
            self.phase = "replay"
            return None
        flags = self._open_side_flags()
        if flags is not None and flags[0] is self.turn_flags and self.position == self.before:
            owner, i = flags
            owner[i] = replace(owner[i], resolution="replayed", by=a.by)  # thrown again
            self.voids.append(VoidThrow(self.dice, owner[i].kind, 0))
            self.phase = "throw"
            self.dice = ()
            return None
        return "nothing to replay"

    def _act_correct(self, a: Action) -> str | None:
        if a.dice is not None:
            if self.phase not in ("move", "flag", "question") or len(a.dice) != 2:
                return "dice are corrected while their turn is played"
            self.dice = tuple(a.dice)
            for i, f in enumerate(self.turn_flags):
                if f.kind == "dice_mismatch" and f.resolution is None:
                    self.turn_flags[i] = replace(f, resolution="corrected", by=a.by)
            if self.flag_seen is not None and self.phase in ("flag", "question"):
                self.phase = "move"
                self._judge_seen(self.flag_seen, 1.0)
            return None
        if self.phase == "throw" and self.open_turn:
            self._reopen_last_turn()
        if self.phase not in ("move", "flag", "question", "replay"):
            if a.position is not None:
                return self._act_set_position(a)
            return "no turn to correct"
        target = self._played(a)
        if isinstance(target, str):
            return target
        question = self.flag if self.phase == "question" else None
        self._judge_seen(target, 1.0)
        if question is not None and self.phase == "throw" and self.turns:
            last = self.turns[-1]
            done = replace(question, resolution="corrected", by=a.by)
            self.turns[-1] = replace(last, flags=(*last.flags, done))
        return None

    def _played(self, a: Action) -> Position | str:
        """The position an entered or corrected play leads to (or why there is none)."""
        if a.position is not None:
            return a.position
        if a.play is None:
            return "say the play or the position"
        assert self.on_turn is not None
        try:
            return apply_play(self.before, self.on_turn, self.variant.numbering, parse_play(a.play))
        except NotationError as err:
            return str(err)
        except ValueError as err:
            return f"that play leaves no valid board: {err}"

    def _act_enter_turn(self, a: Action) -> str | None:
        if self.phase == "throw" and self.open_turn and _side(a.by) is not self.on_turn:
            self._reopen_last_turn()
        if self.phase not in ("move", "flag", "question", "replay"):
            return "no turn is being played"
        target = self._played(a)
        if isinstance(target, str):
            return target
        self._seen(target, 1.0)
        return None

    def _act_set_position(self, a: Action) -> str | None:
        if a.position is None:
            return "no position given"
        if self.phase in ("game_over", "match_over"):
            return "the game is over"
        self.position = a.position
        self.before = a.position
        self.open_turn = False
        return None

    def _act_offer(self, a: Action) -> str | None:
        side = _side(a.by)
        if self.phase != "throw" or side is not self.on_turn or side is None:
            return "a player offers the cube on their turn, before throwing"
        why = self.scorer.offer(side)
        if why:
            return why
        self._finalize_open_turn()
        self.phase = "offer"
        self._cube_action("offer", a.by, self.scorer.offered_value)
        return None

    def _cube_action(self, kind: str, by: str, value: int) -> None:
        self.cube_actions.append(CubeAction(kind, by, value, len(self.turns) + 1))

    def _answer(self, a: Action) -> str | None:
        side = _side(a.by)
        if self.phase != "offer" or side is None:
            return "no cube offered"
        answer = self.scorer.answer(side, a.kind)
        if isinstance(answer, str):
            return answer
        if answer is not None:  # dropped: the game is over
            self._cube_action("drop", a.by, self.scorer.cube.value)
            self._end_game(answer)
            return None
        self._cube_action(a.kind, a.by, self.scorer.cube.value)
        self.phase = "throw"
        return None

    _act_take = _act_beaver = _act_drop = _answer

    def _act_resign(self, a: Action) -> str | None:
        side = _side(a.by)
        if side is None or self.phase in ("game_over", "match_over", "opening"):
            return "a player resigns during a game"
        result = self.scorer.resign(side, a.level or 1)
        if isinstance(result, str):
            return result
        self.resignation = (a.by, a.level or 1)
        self._end_game(result)
        return None

    def _act_new_game(self, a: Action) -> str | None:
        if self.phase != "game_over":
            return "the game is not over"
        self._next_game()
        return None

    # -- the end of a game --------------------------------------------------------------------

    def _end_game(self, result: RulesResult) -> None:
        crawford = self.scorer.cube.crawford
        self.result = self.scorer.finish(result)
        self.games.append(
            GameRecord(
                number=self.game_number,
                starter=None if self.starter is None else str(self.starter),
                opening=self.opening,
                turns=tuple(self.turns),
                cube_actions=tuple(self.cube_actions),
                result=self.result,
                crawford=crawford,
                score_after=self.scorer.score(),
                opening_rolls=tuple(self.opening_rolls),
                resignation=self.resignation,
            )
        )
        self.open_turn = False
        self.flag = None
        self.phase = "match_over" if self.scorer.over else "game_over"
        self.last_winner = result.winner

    def _next_game(self) -> None:
        starter = None
        if option(self.variant, "winner_starts_next", False):
            starter = self.last_winner
        self._new_game(starter)

    # -- reading the state --------------------------------------------------------------------

    @property
    def waiting(self) -> str:
        if self.phase == "match_over":
            return "match over"
        if self.phase == "game_over":
            return "new game"
        if self.phase == "offer":
            return "take or drop"
        if self.phase in ("flag", "question"):
            return "answer the flag"
        if self.phase in ("opening", "throw"):
            if self.cup == "lost" and self.setup.dice_source != "camera":
                return "dice cup not answering"
            return "throw"
        if self.setup.move_source == "camera":
            if self.camera == "lost":
                return "camera not answering"
            if not self.board_still:
                return "board not still"
        if self.phase == "replay":
            return "follow the checkers back"
        return "move"

    def view(self) -> TableView:
        turns = tuple(self.turns)
        if self.phase in ("game_over", "match_over") and self.games:
            turns = self.games[-1].turns
        cube = self.scorer.cube
        return TableView(
            phase=self.phase,
            waiting=self.waiting,
            game=self.game_number,
            on_turn=None if self.on_turn is None else str(self.on_turn),
            dice=self.dice,
            position=self.position,
            cube=cube.value,
            cube_owner=None if cube.owner is None else str(cube.owner),
            cube_offered_by=None if cube.offered_by is None else str(cube.offered_by),
            crawford=cube.crawford,
            flag=self.flag,
            nearest=() if self.flag is None else self.flag.nearest,
            turns=turns,
            score=self.score(),
            cup=self.cup,
            camera=self.camera,
            board_still=self.board_still,
            notices=tuple(self.notices[-5:]),
        )

    def score(self) -> dict[str, Any]:
        return self.scorer.score()

    def current_game(self) -> GameRecord | None:
        """The game in play as a record so far (None between games)."""
        if self.phase in ("game_over", "match_over"):
            return None
        if not (self.turns or self.cube_actions or self.opening_rolls):
            return None
        return GameRecord(
            self.game_number,
            None if self.starter is None else str(self.starter),
            self.opening,
            tuple(self.turns),
            tuple(self.cube_actions),
            None,
            self.scorer.cube.crawford,
            opening_rolls=tuple(self.opening_rolls),
        )

    def record(self) -> dict[str, Any]:
        """The whole record so far: setup, finished games, the game in play, score or ledger."""
        games = [g.to_json() for g in self.games]
        current = self.current_game()
        if current is not None:
            games.append(current.to_json())
        out: dict[str, Any] = {"setup": self.setup.to_json(), "games": games}
        out["match" if self.setup.match_to is not None else "ledger"] = self.score()
        return out


def _steps(steps: Sequence[Any]) -> Steps:
    """The rules engine's steps as plain ``(start, end, die, hit)``."""
    out = []
    for s in steps:
        if isinstance(s, tuple):  # a bare (start, end) move
            a, b = s[0], s[1]
            out.append((a, b, a - b, False))
        else:
            out.append((s.start, s.end, s.die, bool(s.hit)))
    return tuple(out)


def _settled(kind: str) -> str:
    """How an open side flag ends when play goes on without an answer."""
    return {"dispute": "first_throw_stands", "dice_mismatch": "cup_stands"}.get(kind, "condoned")


@dataclass(frozen=True)
class _Impossible:
    reason: str
    verdict: str = "impossible"
    turn: Any = None
    nearest: tuple[Any, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        return (self.reason,)


def fold(setup: TableSetup, events: Iterable[Event], rules: Any = None) -> Table:
    """The table after these events: the referee as a pure function of its input."""
    return Table(setup, rules).feed_all(events)
