"""GNU Backgammon as the oracle: its legal moves for a case of ``scripts/make_positions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import gnubg_nn

from nardy.rules.notation import format_turn
from nardy.rules.turn import Step
from nardy.rules.variant import Variant

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import make_positions as MP

Board = tuple[tuple[int, ...], tuple[int, ...]]


def gnubg_turns(own, theirs, dice) -> dict[Board, str]:
    """GNU Backgammon's legal moves: the board each reaches, with its notation."""
    found = gnubg_nn.moves(MP.to_gnubg(own, theirs), dice[0], dice[1], 1)
    if not found:
        return {tuple(map(tuple, MP.to_gnubg(own, theirs))): ""}
    blots = {p for p in range(1, 25) if theirs[p]}
    out = {}
    for key, steps in found:
        board = tuple(map(tuple, gnubg_nn.board_from_position_key(key)))
        moves = [Step(a, max(b, 0), 0, b > 0 and b in blots) for a, b in steps]
        out[board] = format_turn(moves)
    return out


def our_turns(variant: Variant, own, theirs, dice) -> dict[Board, str]:
    out = {}
    for own2, mask, steps in variant.generate(own, theirs, dice, False):
        th = list(theirs)
        for p in range(1, 25):
            if mask >> p & 1:
                th[p] -= 1
                th[25] += 1
        board = tuple(map(tuple, MP.to_gnubg(own2, th)))
        out[board] = format_turn(Step(*s) for s in steps)
    return out


def disagreements(variant: Variant, cases) -> list[str]:
    """Cases where the two differ, described; empty when they agree on every case."""
    bad = []
    for own, theirs, dice in cases:
        ours = our_turns(variant, own, theirs, dice)
        theirs_ = gnubg_turns(own, theirs, dice)
        if ours != theirs_:
            only_ours = sorted(ours[k] for k in set(ours) - set(theirs_))
            only_gnubg = sorted(theirs_[k] for k in set(theirs_) - set(ours))
            renamed = sorted(
                f"{ours[k]} vs {theirs_[k]}"
                for k in set(ours) & set(theirs_)
                if ours[k] != theirs_[k]
            )
            bad.append(
                f"own={own} theirs={theirs} dice={dice}: only ours {only_ours}, "
                f"only gnubg {only_gnubg}, notation {renamed}"
            )
    return bad
