"""Every threshold the board reader uses, in one place (chesscog keeps its constants this way).

Distances are in checker diameters or fractions of the playing surface, never in pixels, so
the same values hold at any camera resolution.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionConfig:
    # the checker network was trained on tiles of this size: change both together
    strip_pixels: int = 16  # pixels across a point (the bar, a tray) in the checker reader's tiles
    strip_length: int = 96  # pixels along a tile: a point's base to the middle of the board
    # the bar's halves and the trays, read apart from the points (``bar_trays``): their tiles'
    # pixels (along, across), trained with their networks: change them together. A tray is
    # sampled along at about the photo's resolution (a checker on edge is 6-7 px), the bar's
    # halves ``bar_context`` of the bar's width wider each side (a die or the cube on the bar
    # seen whole), a tray ``tray_margin`` of its length and width beyond its measured ends.
    # Each tray is read twice, at its floor and ``tray_lift`` checker diameters above it (the
    # tops of the checkers standing in it), each view by its own network
    tray_tile: tuple[int, int] = (192, 32)
    tray_margin: float = 0.04
    tray_lift: float = 1.0
    bar_tile: tuple[int, int] = (128, 32)
    bar_context: float = 0.25
    # the bar's own network reads the halves only when the checker networks are less sure than
    # this that both are empty. Held out (320 training renders, group 0): at 0.99 it runs on
    # 118 of them (bar-heavy scenes; few in a game), bars misread 6 as when it always runs
    # (checker networks alone 9); told 15 a side 4 (always: 2, checker networks alone 10).
    # Session 14, with the bar's network retrained and bar_shared_weight 0.5 (held out: p12h,
    # p14h and p14barf, fixture-like, 302 usable boards each; at 0.99 it runs on 65 and 51 of
    # p12h and p14h, at 0.999 on 126 and 129): 0.995-0.9999 read one bar of p14h more right
    # than 0.99 (a checker beside the cube that the checker networks call empty at 0.99 and
    # more), p12h and p14barf the same
    bar_quiet: float = 0.999
    # the power the checker networks' probabilities of the bar's halves are raised to before
    # they are multiplied with the bar's network's (``read_bar``): below 1 the bar's network,
    # trained on bars with a checker beside the cube and dark on dark, outvotes their
    # certainty. Held out (session 14, bar_quiet 0.999): 0.5-1.0 the same on p12h, p14h and
    # p14barf (0.2-0.3: p14barf one board fewer); 160 held-out bar scenes (train_bar_trays
    # --bar-scenes) 155 bars right against 154 at 1.0 (with the network of seed 4, p14barf
    # 292 boards exact against 291 at 1.0)
    bar_shared_weight: float = 0.5
    fine_from: int = 4  # tiles the fast network calls this tall go through the fine network
    # and the points it reads less surely than this (a lone checker beside a die, read as
    # none at 0.95-0.99). Both chosen on the training caches' held-out tiles (group 0, 666
    # board reads, never the fixtures): 0.95 → 0.99 sends 0.8 more tiles a board to the fine
    # network and gets 164 points wrong instead of 170 (0.995 the same 164, sending 1.3 more)
    fine_sure: float = 0.99
    # but a point the fast network reads fine_from high or more, under tall_from, at least
    # this sure (count and colour) keeps its reading: on the held-out tiles above, the 1,523
    # points it reads 4-7 high, at 0.995 it keeps 72 % of them, 2 counts and 2 colours wrong
    # where the fine network gets 3 and 3 (0.99: 76 %, 4 and 3 against 5 and 4; 0.999: 63 %,
    # 2 and 2 against 0 and 3)
    fine_skip: float = 0.995
    # when the fine network reads some tile anyway, the points the fast one reads less surely
    # than this go along (a lone checker the colour of its point, beside a die, the fast
    # network reads as none at 0.99-0.9998): a frame with no tile for the fine network costs
    # no more. Chosen on 580 held-out renders (group 0 of the training folders and all 220
    # of points8x-among, never the fixtures): points wrong 72 without (fine reads a board
    # 3.73), 69 at 0.998 (5.15), 68 at 0.999 (6.30; boards all right 521 → 526), 67 at
    # 0.9995 (7.94). Reading those points in their mirror image instead (the fast network
    # once more, the two agreed) also made 68, but cost every frame 10 % more
    fine_along: float = 0.999
    # a tile the fine network reads less surely than this is read again, in its mirror image
    # and by the second fine network, the three agreed. Held out as above, on the tiles the
    # fast network sends on (3,809): 157 points wrong with no second reading, 133 from 0.9 up
    # to every tile (0.8: 135); the same tiles in other colours (each recoloured as the
    # second network's training does): 276, and 189 at 0.99 (200 at 0.9, 188 every tile).
    # At 0.99 a quarter of those tiles is read again
    fine_doubt: float = 0.99
    # points read this tall or more, and those read fine_from or more less surely than
    # tall_doubt, are sampled again at tall_scale times the tile's size each way (near the
    # photo's own resolution) and counted there by the tall network, its reading agreed with
    # the fine one's. Chosen on the tall network's held-out training tiles (2,651 points read
    # or truly 4 high or more, never the fixtures): 121 counts wrong without it; from 8 with
    # 0.99 (1,557 of them looked at) 106, the same as from 4 (2,616), 109 from 8 alone, 115
    # from 10; 96 with the mirror image read too where the two agreed are less sure than
    # tall_mirror (194 of the 1,557; the same 96 with every one mirrored, 106 with none)
    tall_from: int = 8
    tall_doubt: float = 0.99
    # and any point read less surely than this, whatever its count: a head dark on dark the
    # fast and fine networks take for an empty point, a die taken for a checker. The tall
    # network is trained on such points too (``train_tall_model.py collect --doubt 0.99``).
    # Chosen on 580 held-out renders (group 0 of the training folders and all 220 of
    # points8x-among, never the fixtures), with the network retrained and the weight below
    # at 0.25: points wrong 68 as shipped before, 63 never, 55 at 0.8, 48 at 0.99 (1.92
    # points a board looked at closely, 1.67 never), 47 at 0.995 (2.21)
    tall_unsure: float = 0.99
    # but a point read as empty only when read less surely than this: on the same renders 47
    # points wrong at 0.9 and 0.95, 48 at 0.8, 51 never; on boards and checkers no network
    # was trained on (the unseen looks) the tall network took two empty points read at 0.9
    # or more for one checker each
    tall_unsure_empty: float = 0.9
    tall_mirror: float = 0.9
    # the fine reading counts this many times to each of the tall network's readings when
    # they are agreed: on the same held-out tiles, with the tall network trained on further
    # (points8), 90 counts wrong at 1 (as before), 79-82 from 0.3 to 0.6, 87 at 0 (the tall
    # network alone); the close look sees the layers the fine tile blurs. With the network
    # retrained on unsure points too (points10), on the 580 renders above with tall_unsure
    # 0.99: 52 points wrong at 0, 51 at 0.1, 48 at 0.25, 54 at 0.5, 57 at 1
    tall_read_weight: float = 0.25
    tall_scale: int = 2
    # a die found (``detect.with_objects``) whose centre lies within this many half widths of
    # a point's middle line, between its base and the middle of the board, has the point
    # counted again closely, whatever its reading (a die beyond a short stack read as one
    # more checker, a lone checker beside a die read as none). Chosen on the 580 held-out
    # renders above with their true dice: points wrong 48 without, 46 at 0.8 and 1.0, 45 at
    # 1.3 (of 24 points a board, 0.8 more looked at closely at 1.0, 1.3 at 1.3)
    die_point_reach: float = 1.3
    # but not a point so marked that the fast and fine networks read as empty at least this
    # surely: the tall network takes a die in a look it never saw for a checker there. Held
    # out (400 renders, 80 of them dice of held-out looks lying on the points; never the
    # fixtures), true dice: points wrong 27 without, 26 from 0.8 to 0.99 (the one mended an
    # empty point beside a grey die read as one checker; none made wrong)
    tall_die_empty: float = 0.9
    # checkers each side has (15 in backgammon and nardy, 3 in hypergammon), when the caller
    # knows: with the trays in view, the counts are read as the most probable that add up to
    # it on both sides. None reads every tile on its own (vision knows no game)
    checkers_per_side: int | None = None
    # log-probability (nats) a side may give up to add up to it: a fit costing more forces
    # checkers the camera does not see onto tiles (a tray out of view taken for one in view).
    # Chosen on 164 held-out renders (training seeds' group 0, never the fixtures): the fits
    # that mended a board gave up at most 6.4, those that broke one 9.9 and 17-38
    fit_doubt: float = 12.0
    # not told, no set has more than this many checkers (no game has more than fifteen a
    # side): a set read with more has a tray read again as the likeliest count within it,
    # giving up at most fit_doubt (``bar_trays.cap_trays``; None: no cap). Held out (174
    # training renders of real games, group 0, never the fixtures): trays misread 2 with it,
    # 5 without (whole boards 13 and 17 not exact; the trays' network before the rhythm:
    # 5 and 6, 16 and 18)
    most_a_side: int | None = 15
    # not told, a usable frame with the trays in view sees every checker of both sides, and
    # every game the companion plays has side_totals of them a side (15; hypergammon 3): each
    # side's counts are read as the most probable under a prior favouring those totals by
    # total_lean nats over any other (``checkers.lean_to_totals``; 0: none), never forcing
    # them. Chosen on 440 held-out renders of real games (make_fixtures --prefix tr11h and
    # tr11i, never the fixtures; 401 with the trays in view, every side 15) and 60 off the
    # rules (train_bar_trays --render, prefix tr11b: most sides not 15). The fits that mended
    # a side gave up 0.00-2.37 nats (one 3.37), a side truly 14 would give up 2.68: at 2.5
    # trays right 378 -> 392 of 401 (told 15: 393), boards exact 405 -> 422 of 440 (told 15:
    # 428), none made wrong, none of the 60 changed; at 3 one of the 60 made wrong (2: 10
    # trays fewer mended)
    side_totals: tuple[int, ...] = (15, 3)
    total_lean: float = 2.5
    sets_apart: float = 15.0  # Lab (8-bit) distance under which the two sets are not told apart
    # where the network sees one set, two colour groups are two sets only when their nearest
    # checkers are this far apart in Lab (a set in uneven light spreads without a gap)
    sets_gap: float = 25.0
    colour_rounds: int = 10  # rounds of the two-group split (it settles in two or three)
    # usability
    dark_mean: float = 12.0  # mean grey level of the board below which it is too dark to read
    glare_level: int = 235  # grey level of the camera's frame taken as blown out
    glare_share: float = 0.02  # share of a quarter of the board under a blown-out patch
    glare_patch: float = 1.4  # a blown-out patch this many points wide is no checker
    frame_band: tuple[float, float] = (0.035, 0.055)  # the frame strip checked for intruders
    intruder_segments: int = 40  # pieces each side of the frame is cut into
    intruder_share: float = 0.125  # a run over this share of a side is an arm across it
    intruder_distance: float = 10.0  # Lab (lightness weighed as below) from the side's own look
    # the lightness counts a quarter: a lamp's highlight or shade along the frame changes it
    # most, an arm its colour too (chosen on 1,368 clear and 212 hand renders, none a fixture,
    # the band beyond the trays: lightness halved and 12 flag 62 clear boards and catch 157
    # hands, a quarter and 10: 45 and 160; the band before, 76 and 154)
    intruder_lightness: float = 0.25
    # an off run counts only where the band changes this much (as above, per row across) from
    # one segment to the next in it or at its ends: lamplight fades along the frame, an arm's
    # edge does not (chosen on the same renders: 45 clear flagged and 161 hands caught by the
    # band before; 3: 28 and 161, the lowest hand's change 4.2)
    intruder_edge: float = 3.0
    # and that change must be this share of the run's farthest distance from the side's look:
    # a warm lamp low beside the frame shifts its colour over a few segments, each step over
    # ``intruder_edge`` but small beside the whole shift; an arm's edge is most of it at once.
    # Session 13, on 339 held-out renders (p12h; no usability check learnt from them): 0.25 to
    # 0.35 call 298 of 302 usable frames usable against 296 without it, the same 36 of 37
    # unusable caught; 0.4 lets a hand through. 100 more hand renders (p12t, p13t): 98 caught
    # with it and without
    intruder_edge_share: float = 0.3
    edge_drift: float = 0.4  # how much weaker the surface's edge may be where the profile puts
    # it than the strongest step near it (averaged along a side), on two sides or more
    edge_reach: float = 0.06  # how far either side of each edge is looked at (of the surface)
    edge_samples: int = 25  # samples across each edge over that reach
    edge_near: int = 3  # samples either side of the profile's edge that count as on it
    # bright lines narrower than this (samples across) are no edge (``usable.edge_drift``).
    # Chosen on 604 clear training renders, each also moved by 5 % and 2.5 % of its width (as
    # the fixtures' test moves them): none: 5 calibrated boards called moved, 546 and 436 moves
    # caught; 3: 2, 543 and 443
    edge_line: int = 3
    view_alone: float = 0.15  # the network's probability of a clear board below which, alone,
    # it calls a hand or glare
    band_overruled: float = 0.9  # so sure the board is clear, the network overrules the band
    # (both checked on 250 held-out training renders, not the fixtures: with the band they let
    # 7 of 98 hands through and keep 136 of 138 clear boards; 0.3 or 0.5 alone lose more clear
    # boards than hands they catch)
    # a hand seen close (``hand_tiles``), asked (as the band is) only when the whole-board
    # network is not sure the board is clear: this many tiles (points, the bar) at least this
    # sure of a hand. Chosen on 414 training renders the networks never learnt from (each read
    # twice): 2 at 0.99 catch 57 % of the readings with a hand over a tile and call 1 of 477
    # clear ones a hand's (the fine network on every tile, one tile at 0.99: 73 % and 18)
    hand_tile: float = 0.99
    hand_tiles: int = 2
    # tiles the fast hand network gives this or more are read again by the fine one (2.5 of a
    # clear board's 26, as many as 7 under a hand; from 0: 0.4 % more boards with a hand caught)
    hand_fine_from: float = 0.2
    blur_sigma: float = 1.3  # the further smoothing of the halved surface the blur check makes
    blur_ratio: float = 1.54  # gradient energy before it against after, in the worst direction
    # the same measure on the points' strips (``usable.strips_sharpness``, a third of the
    # camera's resolution) at or above which the board is sharp without measuring the
    # surface. Chosen on the 1,355 training renders (never the fixtures): of the frames the
    # surface's measure calls blurred, or sharp by less than 0.1 over blur_ratio, the
    # sharpest strips read 2.07; at 2.2 the strips alone settle 57 % of the renders
    # (fixtures 57 %, unseen looks 78 %; never a blurred one)
    blur_sure: float = 2.2
    # stillness (per frame, on the rectified board at low resolution)
    motion_pixel: float = 14.0  # grey-level change that counts a pixel as moved
    # motion is the share moved in the busiest cell of this grid; finer grids take a checker
    # moved or a die thrown for motion and delay the still board the referee waits for (the
    # hand paused at the picture's edge is caught by the border ring below instead)
    motion_cells: tuple[int, int] = (1, 1)
    motion_high: float = 0.004  # share of pixels moved that ends stillness at once
    motion_low: float = 0.0015  # share below which a frame counts toward stillness
    # quiet frames in a row before the board is declared still (2 at the clips' 5 frames/s;
    # a live camera at 30 frames/s wants about 12)
    still_frames: int = 2
    border_ring: int = 2  # pixels of the motion image's edge (160 × 96) watched for an arm
    # share of a side of that ring changed since the last still board; chosen on the clips
    # (a hand paused with only its fingers in view changes 0.016 of the picture's bottom side)
    border_max: float = 0.01
    settle_frames: int = 10  # quiet this long, a changed view is accepted all the same
