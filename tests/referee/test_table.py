"""The table's state machine, against a scripted rules stand-in (referee_stand_in.py)."""

from __future__ import annotations

from referee_events import act, board, dice_seen, hand, throw
from referee_stand_in import START, after, options, rules

from nardy.referee.setup import TableSetup
from nardy.referee.table import Table, fold
from nardy.rules.position import Side

L, D = Side.LIGHT, Side.DARK
LEGAL = {
    (L, (3, 1)): ["8/5 6/5", "24/21 24/23"],
    (D, (6, 4)): ["24/14", "24/18 13/9"],
    (L, (5, 2)): ["13/8 13/11"],
    (D, (2, 1)): ["13/11 6/5"],
}
P1 = after(START, L, "8/5 6/5")


def table(**setup) -> Table:
    return Table(TableSetup(**setup), rules(LEGAL))


def opened(t: Table) -> Table:
    """Opening 3-1 for light, played 8/5 6/5 and seen on a still board."""
    t.feed(throw(100, 2, 2))
    t.feed(throw(200, 3, 1))
    t.feed(hand(300))
    t.feed(board(400, after(START, L, "8/5")))
    t.feed(board(500, P1))
    return t


def test_opening_tie_then_the_starter_plays_the_opening_dice():
    t = table()
    t.feed(throw(100, 4, 4))
    assert t.phase == "opening" and any("tie" in n for n in t.notices)
    t.feed(throw(200, 3, 1))
    v = t.view()
    assert (v.phase, v.on_turn, v.dice, v.waiting) == ("move", "light", (3, 1), "move")
    assert t.opening == (3, 1)


def test_legal_turn_is_recorded_after_a_partial_and_a_hand_over_the_board():
    t = table()
    t.feed(throw(100, 3, 1))
    t.feed(hand(150))
    assert t.view().waiting == "board not still"
    t.feed(board(200, after(START, L, "8/5")))
    assert t.phase == "move" and not t.turns
    t.feed(board(300, P1))
    v = t.view()
    assert [(r.player, r.dice, r.play) for r in v.turns] == [("light", (3, 1), "8/5 6/5")]
    assert v.turns[0].position == P1 and v.position == P1
    assert (v.on_turn, v.waiting) == ("dark", "throw")


def test_illegal_turn_flagged_then_accepted_stands_as_condoned():
    t = opened(table())
    t.feed(throw(600, 6, 4))
    wrong = after(P1, D, "13/9 13/7")
    t.feed(board(700, wrong))
    v = t.view()
    assert v.flag is not None and v.flag.kind == "illegal"
    assert set(v.nearest) == {"24/14", "24/18 13/9"} and v.waiting == "answer the flag"
    t.feed(act(800, "accept", "dark"))  # the mover cannot answer their own flag
    assert t.phase == "flag"
    t.feed(act(900, "accept", "light"))
    last = t.turns[-1]
    assert last.position == wrong and last.play == "13/9 13/7"
    assert [(f.kind, f.resolution, f.by) for f in last.flags] == [("illegal", "condoned", "light")]
    assert t.view().on_turn == "light"


def test_illegal_turn_replayed_follows_the_checkers_back_then_the_new_play():
    t = opened(table())
    t.feed(throw(600, 6, 4))
    t.feed(board(700, after(P1, D, "13/9 13/7")))
    t.feed(act(800, "replay", "light"))
    assert t.view().waiting == "follow the checkers back"
    t.feed(board(900, P1))
    assert t.phase == "move"
    t.feed(board(1000, after(P1, D, "24/14")))
    last = t.turns[-1]
    assert last.play == "24/14"
    assert [(f.kind, f.resolution) for f in last.flags] == [("illegal", "replayed")]


def test_opponent_throwing_over_a_flag_condones_it():
    t = opened(table())
    t.feed(throw(600, 6, 4))
    t.feed(board(700, after(P1, D, "13/9 13/7")))
    t.feed(throw(800, 5, 2))
    assert t.turns[-1].flags[0].resolution == "condoned"
    assert (t.view().on_turn, t.view().dice) == ("light", (5, 2))


def test_a_misread_is_a_question_not_a_foul_and_a_correction_rewrites_the_line():
    t = opened(table())
    t.feed(throw(600, 6, 4))
    extra = list(after(P1, D, "24/14").points)
    extra[0] += 1  # a light checker "appeared" on light's point 1: a misread
    from nardy.rules.position import Position

    t.feed(board(700, Position(tuple(extra))))
    v = t.view()
    assert v.flag.kind == "misread" and v.phase == "question"
    t.feed(act(800, "correct", "director", play="24/14"))
    assert len(t.turns) == 2
    last = t.turns[-1]
    assert last.play == "24/14" and last.position == after(P1, D, "24/14")
    assert [(f.kind, f.resolution) for f in last.flags] == [("misread", "corrected")]


def test_low_confidence_reading_of_an_illegal_board_is_asked_not_flagged():
    t = opened(table())
    t.feed(throw(600, 6, 4))
    t.feed(board(700, after(P1, D, "13/9 13/7"), confidence=0.3))
    assert t.view().flag.kind == "misread"


def test_cocked_die_is_thrown_again_and_kept_in_the_turn():
    t = opened(table())
    t.feed(throw(600, 6, 0, why="cocked"))
    assert t.phase == "throw" and "cocked" in t.notices[-1]
    t.feed(throw(700, 6, 4))
    t.feed(board(800, after(P1, D, "24/14")))
    assert [v.why for v in t.turns[-1].void_throws] == ["cocked"]


def test_throw_while_the_opponent_is_still_moving_is_void():
    t = table()
    t.feed(throw(100, 3, 1))
    t.feed(board(200, after(START, L, "8/5")))
    t.feed(throw(300, 6, 4, player="dark"))
    assert t.phase == "move" and t.on_turn is L and "still moving" in t.notices[-1]
    t.feed(board(400, P1))
    t.feed(throw(500, 6, 4, player="dark"))
    t.feed(board(600, after(P1, D, "24/14")))
    assert [v.why for v in t.turns[-1].void_throws] == ["opponent_moving"]


def test_a_second_throw_for_a_decided_turn_is_a_dispute_never_a_replacement():
    t = table()
    t.feed(throw(100, 3, 1))
    t.feed(throw(150, 5, 5, player="light"))
    assert t.dice == (3, 1)
    t.feed(board(200, P1))
    t.feed(throw(300, 6, 6, player="light"))  # light again, after its turn was recorded
    flags = t.turns[-1].flags
    assert [f.kind for f in flags] == ["dispute", "dispute"]
    assert t.turns[-1].dice == (3, 1)
    t.feed(throw(400, 6, 4, player="dark"))
    assert [f.resolution for f in t.turns[-1].flags] == ["first_throw_stands"] * 2


def test_cup_and_camera_disagreeing_is_flagged():
    t = table(dice_source="both")
    t.feed(throw(100, 3, 1))
    t.feed(dice_seen(120, 3, 2))
    t.feed(board(200, P1))
    assert [(f.kind, f.reason) for f in t.turns[-1].flags] == [
        ("dice_mismatch", "the cup says 3-1, the camera sees 3-2")
    ]


def test_the_turn_stays_open_until_the_opponent_throws():
    t = opened(table())
    moved_on = after(P1, L, "24/23")  # light fiddles after its turn was recorded
    t.feed(board(600, moved_on))
    assert t.turns == [] or t.phase == "flag"
    assert t.view().flag.kind == "illegal"


def test_cube_offer_take_and_drop_end_a_money_game_with_the_ledger():
    t = opened(table(stake=2.5, currency="EUR"))
    t.feed(act(600, "offer", "dark"))
    assert t.view().waiting == "take or drop"
    t.feed(act(700, "take", "light"))
    assert (t.view().cube, t.view().cube_owner) == (2, "light")
    t.feed(act(750, "offer", "dark"))  # dark no longer holds the cube
    assert "refused" in t.notices[-1]
    t.feed(throw(800, 6, 4))
    t.feed(board(900, after(P1, D, "24/14")))
    t.feed(act(1000, "offer", "light"))
    t.feed(act(1100, "drop", "dark"))
    r = t.record()
    game = r["games"][0]
    assert game["result"] == {
        "winner": "light",
        "kind": "oin",
        "ending": "dropped",
        "multiplier": 1,
        "cube": 2,
        "points": 2,
    }
    assert [c["kind"] for c in game["cube_actions"]] == ["offer", "take", "offer", "drop"]
    assert r["ledger"]["balance"] == {"light": 5.0, "dark": -5.0}
    assert t.view().waiting == "new game"


def test_match_with_crawford_game_has_no_cube():
    t = Table(
        TableSetup(match_to=3, options={"crawford": True}),
        rules(LEGAL, options=options(crawford=True)),
    )
    opened(t)
    t.feed(act(600, "resign", "dark", level=2))
    assert t.record()["match"]["light"] == 2 and t.scorer.match.crawford_game
    t.feed(act(700, "new_game", "director"))
    assert t.view().crawford
    t.feed(throw(800, 3, 1))
    t.feed(board(900, P1))
    t.feed(act(1000, "offer", "dark"))
    assert "Crawford" in t.notices[-1]
    t.feed(act(1100, "resign", "light"))
    assert t.record()["match"]["dark"] == 1 and t.scorer.match.crawford_done
    t.feed(act(1200, "new_game", "director"))
    assert not t.view().crawford
    t.feed(throw(1300, 3, 1))
    t.feed(act(1400, "resign", "dark"))
    assert t.view().waiting == "match over" and t.record()["match"]["winner"] == "light"


def test_undo_takes_back_the_last_action():
    t = opened(table(stake=1.0))
    t.feed(act(600, "offer", "dark"))
    t.feed(act(700, "take", "light"))
    t.feed(act(800, "undo", "director"))
    assert (t.phase, t.view().cube) == ("offer", 1)
    t.feed(act(900, "drop", "light"))
    assert t.record()["games"][0]["result"]["winner"] == "dark"


def test_entered_moves_are_judged_like_a_seen_board():
    t = table(move_source="entered")
    t.feed(throw(100, 3, 1))
    t.feed(board(150, after(START, L, "24/23")))  # no camera: frames are not moves
    t.feed(act(200, "enter_turn", "light", play="8/5 6/5"))
    assert t.turns[-1].play == "8/5 6/5"
    t.feed(throw(300, 6, 4))
    t.feed(act(400, "enter_turn", "dark", play="13/9 13/7"))
    assert t.view().flag.kind == "illegal"
    t.feed(act(500, "enter_turn", "dark", play="zz"))
    assert "refused" in t.notices[-1]


def test_the_same_events_give_the_same_record():
    events = list(opened(table(stake=1.0)).events)
    a = fold(TableSetup(stake=1.0), events, rules(LEGAL)).record()
    b = fold(TableSetup(stake=1.0), events, rules(LEGAL)).record()
    assert a == b and a["games"][0]["turns"][0]["play"] == "8/5 6/5"


def test_a_beaver_redoubles_at_once_and_the_taker_keeps_the_cube():
    t = Table(TableSetup(stake=1.0), rules(LEGAL, options=options(beavers=True)))
    opened(t)
    t.feed(act(600, "offer", "dark"))
    t.feed(act(700, "beaver", "light"))
    v = t.view()
    assert (v.cube, v.cube_owner, v.phase) == (4, "light", "throw")
    assert [c.kind for c in t.cube_actions] == ["offer", "beaver"]


def test_no_beaver_unless_beavers_are_played():
    t = opened(table(stake=1.0))
    t.feed(act(600, "offer", "dark"))
    t.feed(act(700, "beaver", "light"))
    assert t.phase == "offer" and "refused" in t.notices[-1]


def test_the_next_game_begins_when_the_start_is_seen_and_the_winner_may_start_it():
    t = Table(TableSetup(stake=1.0), rules(LEGAL, options=options(winner_starts_next=True)))
    opened(t)
    t.feed(act(600, "resign", "dark"))
    assert t.view().waiting == "new game"
    t.feed(board(700, START))
    v = t.view()
    assert (v.game, v.phase, v.on_turn) == (2, "throw", "light")
