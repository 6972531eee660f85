"""``render(scene, seed)``: a photo-like picture of the scene and the truth about it."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from nardy.synth import textures as tx
from nardy.synth.board import Board
from nardy.synth.camera import Lens, View, pose, tame
from nardy.synth.draw import Canvas, Light
from nardy.synth.hand import draw_hand
from nardy.synth.photo import develop
from nardy.synth.scene import Scene, SceneError
from nardy.synth.styles import (
    CUBE_STYLES,
    TABLES,
    WALLS,
    board_style,
    checker_set,
    dice_style,
)

#: Edge of the doubling cube (mm).
CUBE_MM = 23.0
#: Opposite faces of the doubling cube.
CUBE_OPPOSITE = {2: 64, 64: 2, 4: 32, 32: 4, 8: 16, 16: 8}
LAMP_MM = 1400.0


def die_size(style: str, checker_mm: float) -> float:
    """Edge of a die (mm): dice come with checkers of their size."""
    return dice_style(style).size_mm * (0.75 + 0.25 * checker_mm / 36.0)


def lamp_position(scene: Scene) -> np.ndarray:
    li = scene.lighting
    az, el = np.radians(li.azimuth), np.radians(li.elevation)
    return LAMP_MM * np.array([np.cos(el) * np.sin(az), -np.cos(el) * np.cos(az), np.sin(el)])


def glare_spot(scene: Scene, eye: np.ndarray) -> np.ndarray:
    """Where the lamp's reflection in the board's varnish is (board mm, on the surface)."""
    lamp = lamp_position(scene)
    mirror = np.array([lamp[0], lamp[1], -lamp[2]])
    s = eye[2] / (eye[2] - mirror[2])
    return eye + s * (mirror - eye)


#: Lamp reflections this strong wash a part of the board out: the frame is not usable.
GLARE_UNUSABLE = 1.0
#: Motion blur this long (pixels) smears checkers into each other.
MOTION_UNUSABLE = 6.0


def image_view(scene: Scene) -> tuple[View, Lens, Board]:
    """The camera on the image (undistorted pixels), its lens, and the board it sees."""
    board = Board.of(scene)
    x0, y0, x1, y1 = board.outline()
    fh = board.frame_h
    outline = np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (fh, -board.base)])
    w, h = board.inner_w / 2 + board.frame_w * 0.3, board.inner_h / 2 + board.frame_w * 0.3
    fields = np.array([[x, y, fh] for x in (-w, w) for y in (-h, h)])
    view = pose(scene.camera, outline, fields, scene.size)
    k1, k2 = scene.camera.k1, scene.camera.k2
    r2 = (scene.size[0] ** 2 + scene.size[1] ** 2) / 4 / view.f**2
    k1, k2 = tame(k1, k2, r2)
    lens = Lens(view.f, view.cx, view.cy, k1, k2)
    return view, lens, board


def to_image(view: View, lens: Lens, pts: np.ndarray) -> np.ndarray:
    """Board points → image pixels, through the lens."""
    return lens.distort(view.project(np.atleast_2d(pts)))


#: The table is drawn out to this depth from the camera (mm); the room's far wall stands beyond.
TABLE_FAR_MM = 3000.0


def table_outline(
    view: View, w: int, h: int, z: float, far: float = TABLE_FAR_MM
) -> tuple[np.ndarray | None, bool]:
    """The quad on the table's plane (height ``z``) that covers what a ``w`` × ``h`` canvas sees
    of the table, and whether it is the whole canvas.

    The quad is the canvas's corners on the table when they all meet it nearer than ``far``
    (camera depth). Otherwise the table ends at depth ``far``, a line in the picture parallel to
    the horizon: the quad is the rectangle, in the picture, from that line over the canvas's
    corners on the near side, on the table (its first two corners on the line). ``None`` when
    the canvas sees no table nearer than ``far``. Rays that look above the horizon never meet
    the plane, so no corner of the quad is taken from one."""
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    drop = (z - view.eye[2]) / far  # a ray at least this steep (per unit depth) meets it by `far`
    if (_rays(view, corners)[:, 2] <= drop).all():
        return _on_plane(view, corners, z), True
    # the ray through pixel p falls grad · p + rise per unit of depth: the far line is where
    # that is `drop`, and the table lies on the side where it falls faster
    grad = view.rot[:2, 2] / view.f
    rise = view.rot[2, 2] - grad @ (view.cx, view.cy)
    norm = float(np.hypot(*grad))
    if norm < 1e-12:
        return None, False
    near = -grad / norm
    on_line = near * (rise - drop) / norm
    along = np.array([near[1], -near[0]])
    s, q = (corners - on_line) @ along, (corners - on_line) @ near
    if q.max() <= 0:
        return None, False
    ends = [on_line + along * s.min(), on_line + along * s.max()]
    rect = np.array([*ends, ends[1] + near * q.max(), ends[0] + near * q.max()])
    return _on_plane(view, rect, z), False


def _rays(view: View, px: np.ndarray) -> np.ndarray:
    """Rays through canvas pixels, in board axes, scaled to one unit of camera depth."""
    x, y = (px[:, 0] - view.cx) / view.f, (px[:, 1] - view.cy) / view.f
    return np.stack([x, y, np.ones(len(px))], 1) @ view.rot


def _on_plane(view: View, px: np.ndarray, z: float) -> np.ndarray:
    """Where the rays through canvas pixels (all looking down at it) meet the plane at ``z``."""
    ray = _rays(view, px)
    return view.eye + ray * ((z - view.eye[2]) / ray[:, 2])[:, None]


def render(scene: Scene, seed: int = 0, ss: int = 2, frame: int = 0) -> tuple[np.ndarray, dict]:
    """The picture (BGR uint8, ``scene.size``) and its truth (the fixture's JSON form).

    ``ss`` is the supersampling factor of the drawing (2 gives clean edges). ``frame`` draws
    fresh sensor noise for each frame of a clip; everything else depends on the seed only.
    """
    try:
        board_style(scene.board), checker_set(scene.checkers)
    except KeyError:
        raise SceneError(f"unknown board {scene.board!r} or checkers {scene.checkers!r}") from None
    rng = np.random.default_rng(seed)
    view0, lens, board = image_view(scene)
    w, h = scene.size
    mapx, mapy = lens.maps((w, h))
    x0, y0 = int(np.floor(mapx.min())) - 3, int(np.floor(mapy.min())) - 3
    x1, y1 = int(np.ceil(mapx.max())) + 4, int(np.ceil(mapy.max())) + 4
    cw, ch = x1 - x0, y1 - y0
    view = View(
        view0.rot,
        view0.eye,
        view0.f * ss,
        (view0.cx - x0) * ss + (ss - 1) / 2,
        (view0.cy - y0) * ss + (ss - 1) / 2,
    )
    lamp = lamp_position(scene)
    canvas = Canvas(view, cw * ss, ch * ss, Light(lamp, scene.lighting.ambient))
    ppm = view.f / float(np.linalg.norm(view.eye))  # canvas pixels per mm on the board
    painter = _Painter(scene, board, canvas, rng, ppm, seed)
    # a clip redraws the same board many times: keep the last one drawn
    key = (seed, ss, _static(scene))
    if _BOARD_CACHE.get("key") == key:
        canvas.img[:] = _BOARD_CACHE["img"]
        rng.bit_generator.state = _BOARD_CACHE["rng"]
    else:
        painter.table()
        painter.board()
        _BOARD_CACHE.update(key=key, img=canvas.img.copy(), rng=rng.bit_generator.state)
    placed = painter.objects()
    if scene.lighting.glare >= GLARE_UNUSABLE:
        painter._glare()  # blinding: over the checkers too, the sensor saturates
    cover = None
    if scene.hand is not None:
        chk = checker_set(scene.checkers)
        shade = scene.lighting.shadow
        cover = draw_hand(canvas, scene.hand, board, rng, shade, (chk.light, chk.dark))
    placed["seen"] = [
        top_seen(pts, view0, lens, scene.size, cover, view, placed["cube"])
        for pts in placed["dice"]
    ]
    small = cv2.resize(canvas.img, (cw, ch), interpolation=cv2.INTER_AREA)
    img = cv2.remap(small, mapx - x0, mapy - y0, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    img = develop(img, scene.lighting, np.random.default_rng([seed, frame, 7]))
    return img, truth(scene, seed, view0, lens, board, placed)


_BOARD_CACHE: dict = {}


def drawless_truth(scene: Scene, seed: int = 0) -> dict:
    """``render``'s truth of a scene without a hand, found without drawing the picture: all of
    it is the scene's geometry then (a hand's cover of the dice only drawing it tells)."""
    if scene.hand is not None:
        raise ValueError("drawless_truth: a hand's cover of the dice is known only by drawing it")
    checker_set(scene.checkers)
    view, lens, board = image_view(scene)
    dice = [_solid_corners(d.at, *_die_pose(d, board))[1] for d in scene.dice]
    cube = None
    if scene.cube is not None:
        cube = _solid_corners(scene.cube.at, *_cube_pose(scene.cube, board))[1]
    seen = [top_seen(pts, view, lens, scene.size, cube=cube) for pts in dice]
    return truth(scene, seed, view, lens, board, {"dice": dice, "cube": cube, "seen": seen})


def _static(scene: Scene) -> Scene:
    """The scene without what moves: the board as it is drawn before any checker."""
    return dataclasses.replace(
        scene, points=(0,) * 24, bar=(0, 0), off=(0, 0), dice=(), cube=None, hand=None
    )


class _Painter:
    def __init__(self, scene: Scene, board: Board, canvas: Canvas, rng, ppm: float, seed: int):
        self.s, self.b, self.c, self.rng = scene, board, canvas, rng
        self.seed = seed
        # no two boards are dyed, stained or lit alike: vary the style's colours a little
        self.jitter = np.random.default_rng([seed, 5])
        st = board_style(scene.board)
        self.style = dataclasses.replace(
            st,
            field_colours=self._vary(st.field_colours),
            point_colours=self._vary(st.point_colours),
            frame_colours=self._vary(st.frame_colours),
        )
        self.ppm = ppm
        self.tex_ppm = float(np.clip(ppm * 0.6, 1.0, 3.0))

    def _vary(self, colours, amount: float = 0.06):
        k = 1 + self.jitter.normal(0, amount, 3)
        return tuple(
            tuple(float(np.clip(v * f, 0, 1)) for v, f in zip(c, k, strict=True)) for c in colours
        )

    # -- the table and the board ------------------------------------------------------------------

    def table(self) -> None:
        c, b = self.c, self.b
        z = -b.base
        quad, whole = table_outline(c.view, c.w, c.h, z)
        if not whole:
            self._room(quad)
        if quad is None:
            return
        kind, light, dark = TABLES[self.s.table % len(TABLES)]
        scale = 1.2
        span = np.ptp(quad[:, :2], axis=0)
        tw, th = int(min(span[0], 2500) * scale) + 2, int(min(span[1], 2500) * scale) + 2
        tex = tx.surface(kind, self.rng, th, tw, light, dark, scale)
        c.quad(quad, tex, shade=c.light.shade(np.zeros(3), np.array([0, 0, 1.0])))
        ox0, oy0, ox1, oy1 = b.outline()
        box = np.array([[x, y, b.frame_h] for x in (ox0, ox1) for y in (oy0, oy1)])
        c.cast(box, z)
        c.apply_shadow(0.55 * self.s.lighting.shadow + 0.2, 10 * self.ppm)

    def _room(self, quad: np.ndarray | None) -> None:
        """The room beyond the table's far edge: a dim wall, out of focus, darker at its foot.

        Drawn from its own generator, so the table, board and checkers draw the same numbers
        whether or not the picture reaches past the table."""
        c = self.c
        rng = np.random.default_rng([self.seed, 13])
        colour = np.float32(WALLS[int(rng.integers(len(WALLS)))])
        level = self.s.lighting.ambient * rng.uniform(0.7, 1.1)
        blotch = tx.smooth_noise(rng, c.h, c.w, 3, 5)
        rows = np.arange(c.h, dtype=np.float32)[:, None]
        cols = np.arange(c.w, dtype=np.float32)[None, :]
        light = level * (0.8 + 0.25 * blotch) * (1 - 0.15 * rows / c.h)
        if quad is not None:  # the wall's foot, along the table's far edge, lies in shadow
            (ax, ay), (bx, by) = c.view.project(quad[:2])
            cross = (bx - ax) * (rows - ay) - (by - ay) * (cols - ax)
            off_edge = np.abs(cross) / np.hypot(bx - ax, by - ay)
            light *= 1 - 0.4 * np.exp(-off_edge / (0.03 * c.h))
        c.img[:] = colour * light[..., None]

    def _wood(self, h_mm: float, w_mm: float, colours, along_x: bool = True, planks: int = 1):
        k = self.tex_ppm
        hh, ww = max(2, int(h_mm * k)), max(2, int(w_mm * k))
        if along_x:
            return tx.wood(self.rng, hh, ww, colours[0], colours[1], k, planks)
        return np.ascontiguousarray(
            tx.wood(self.rng, ww, hh, colours[0], colours[1], k, planks).transpose(1, 0, 2)
        )

    def board(self) -> None:
        b, c, st = self.b, self.c, self.style
        x0, y0, x1, y1 = b.outline()
        fh, base = b.frame_h, b.base
        k = self.tex_ppm
        # outer walls
        for (ax, ay), (bx, by), n in (
            ((x0, y0), (x1, y0), (0, -1)),
            ((x1, y1), (x0, y1), (0, 1)),
            ((x0, y1), (x0, y0), (-1, 0)),
            ((x1, y0), (x1, y1), (1, 0)),
        ):
            normal = np.array([n[0], n[1], 0.0])
            quad = np.array([[ax, ay, fh], [bx, by, fh], [bx, by, -base], [ax, ay, -base]])
            if c.view.facing(quad.mean(0), normal):
                length = float(np.hypot(bx - ax, by - ay))
                tex = self._wood(fh + base, length, st.frame_colours)
                c.quad(quad, tex, shade=c.light.shade(quad.mean(0), normal) * 0.9)
        # the playing surface under both fields, and the trays' floors
        self._field()
        for t in b.trays():
            tex = (
                tx.surface(
                    st.field,
                    self.rng,
                    int((t[3] - t[1]) * k),
                    int((t[2] - t[0]) * k),
                    st.field_colours[0],
                    st.field_colours[1],
                    k,
                )
                * 0.75
            )
            c.quad(_rect(t, 0.0), tex, shade=c.light.shade(np.zeros(3), np.array([0, 0, 1.0])))
        # walls and bevels around each opening, then the frame's top
        bevel = b.bevel
        holes = [*b.fields(), *b.trays()]
        for hole in holes:
            self._opening(hole, fh, bevel)
        self._frame_top(holes, bevel)
        if self.s.lighting.glare < GLARE_UNUSABLE:
            self._glare()
        if self.s.markers:
            self._markers()

    def _field(self) -> None:
        b, c, st, k = self.b, self.c, self.style, self.tex_ppm
        w, h = b.inner_w, b.inner_h
        th, tw = int(h * k), int(w * k)
        if st.field == "wood":
            along = bool(self.rng.random() < 0.6)
            tex = self._wood(h, w, st.field_colours, along, int(self.rng.integers(1, 4)))
        else:
            tex = tx.surface(st.field, self.rng, th, tw, *st.field_colours, k)
        lum = tex.mean(2)
        rel = (lum / max(float(lum.mean()), 1e-3))[..., None]
        for p in range(1, 25):
            colour = st.point_colours[(p - 1) % 2]
            tri = b.point_triangle(p)
            px = np.stack([(tri[:, 0] + w / 2) * k, (h / 2 - tri[:, 1]) * k], 1)
            mask = np.zeros((th, tw), np.uint8)
            cv2.fillConvexPoly(mask, np.round(px * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
            x_lo, x_hi = int(px[:, 0].min()) - 1, int(px[:, 0].max()) + 2
            y_lo, y_hi = max(int(px[:, 1].min()) - 1, 0), min(int(px[:, 1].max()) + 2, th)
            x_lo, x_hi = max(x_lo, 0), min(x_hi, tw)
            m = mask[y_lo:y_hi, x_lo:x_hi, None].astype(np.float32) / 255
            if st.point_finish == "felt":
                paint = tx.felt(
                    self.rng, y_hi - y_lo, x_hi - x_lo, colour, tuple(v * 0.82 for v in colour), k
                )
            elif st.point_finish == "inlay":
                paint = np.ascontiguousarray(
                    tx.wood(
                        self.rng,
                        x_hi - x_lo,
                        y_hi - y_lo,
                        colour,
                        tuple(v * 0.8 for v in colour),
                        k,
                    ).transpose(1, 0, 2)
                )
            else:
                paint = np.float32(colour) * (0.75 + 0.25 * rel[y_lo:y_hi, x_lo:x_hi])
            roi = tex[y_lo:y_hi, x_lo:x_hi]
            roi[:] = roi * (1 - m) + paint * m
            if st.point_edge is not None:
                cv2.polylines(
                    tex,
                    [np.round(px * 16).astype(np.int32)],
                    True,
                    st.point_edge,
                    max(1, int(0.6 * k)),
                    cv2.LINE_AA,
                    4,
                )
        rect = (-w / 2, -h / 2, w / 2, h / 2)
        c.quad(_rect(rect, 0.0), tex, shade=c.light.shade(np.zeros(3), np.array([0, 0, 1.0])))

    def _opening(self, hole, fh: float, bevel: float) -> None:
        c, st = self.c, self.style
        x0, y0, x1, y1 = hole
        z1 = fh - bevel
        walls = (  # each wall: its two ends on the floor, and the normal into the opening
            ((x0, y1), (x1, y1), (0, -1)),
            ((x1, y0), (x0, y0), (0, 1)),
            ((x0, y0), (x0, y1), (1, 0)),
            ((x1, y1), (x1, y0), (-1, 0)),
        )
        for (ax, ay), (bx, by), (nx, ny) in walls:
            n = np.array([nx, ny, 0.0])
            quad = np.array([[ax, ay, z1], [bx, by, z1], [bx, by, 0], [ax, ay, 0]])
            if c.view.facing(quad.mean(0), n):
                tex = self._wood(max(z1, 1), float(np.hypot(bx - ax, by - ay)), st.frame_colours)
                c.quad(quad, tex, shade=c.light.shade(quad.mean(0), n) * 0.85)
            # the bevel: from the wall's top out to the frame's top
            nb = np.array([nx, ny, 1.0]) / np.sqrt(2)
            ox, oy = -nx * bevel, -ny * bevel
            bq = np.array(
                [[ax + ox, ay + oy, fh], [bx + ox, by + oy, fh], [bx, by, z1], [ax, ay, z1]]
            )
            # widen along the wall so neighbouring bevels meet at the corners
            along = np.array([bx - ax, by - ay, 0.0])
            along /= np.linalg.norm(along)
            bq[0] -= along * bevel
            bq[1] += along * bevel
            if c.view.facing(bq.mean(0), nb):
                colour = np.float32(st.frame_colours[0]) * 1.1
                sh = c.light.shade(bq.mean(0), nb)
                c.poly(
                    bq, colour * sh + 0.15 * st.gloss * c.light.spec(bq.mean(0), nb, c.view.eye, 20)
                )

    def _frame_top(self, holes, bevel: float) -> None:
        b, c, st, k = self.b, self.c, self.style, self.tex_ppm
        x0, y0, x1, y1 = b.outline()
        w, h = x1 - x0, y1 - y0
        th, tw = int(h * k), int(w * k)
        across = self._wood(h, w, st.frame_colours, True)
        down = self._wood(h, w, st.frame_colours, False)
        yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32) / k
        bx = xx + x0
        dx = np.minimum(xx, w - xx)
        dy = np.minimum(yy, h - yy)
        vertical = (dx < dy) | (np.abs(bx) < b.bar_w / 2 + 0.5)
        tex = np.where(vertical[..., None], down, across)
        alpha = np.ones((th, tw), np.float32)
        for hx0, hy0, hx1, hy1 in holes:
            p0 = ((hx0 - bevel - x0) * k, (y1 - hy1 - bevel) * k)
            p1 = ((hx1 + bevel - x0) * k, (y1 - hy0 + bevel) * k)
            cv2.rectangle(
                alpha,
                (int(p0[0] * 16), int(p0[1] * 16)),
                (int(p1[0] * 16), int(p1[1] * 16)),
                0.0,
                -1,
                cv2.LINE_AA,
                4,
            )
        c.quad(
            _rect((x0, y0, x1, y1), b.frame_h),
            tex,
            alpha,
            shade=c.light.shade(np.zeros(3), np.array([0, 0, 1.0])),
        )

    def _glare(self) -> None:
        """The lamp's reflection in the varnish."""
        li, c = self.s.lighting, self.c
        amount = li.glare * (0.3 + self.style.gloss)
        if li.glare >= GLARE_UNUSABLE:
            amount = li.glare * 1.2
        if amount <= 0.01:
            return
        spot = glare_spot(self.s, c.view.eye)
        uv = c.view.project(spot[None])[0]
        sigma = (70 + 40 * max(0.0, li.glare - GLARE_UNUSABLE)) * self.ppm
        x0, x1 = int(max(uv[0] - 3 * sigma, 0)), int(min(uv[0] + 3 * sigma, c.w))
        y0, y1 = int(max(uv[1] - 3 * sigma, 0)), int(min(uv[1] + 3 * sigma, c.h))
        if x1 <= x0 or y1 <= y0:
            return
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        g = np.exp(-((xx - uv[0]) ** 2 + ((yy - uv[1]) * 1.3) ** 2) / (2 * sigma**2))
        c.img[y0:y1, x0:x1] += (amount * 0.8 * g)[..., None]

    def _markers(self) -> None:
        b, c = self.b, self.c
        for i, paper in enumerate(b.marker_papers()):
            size = int(np.clip((paper[2] - paper[0]) * self.tex_ppm, 32, 160)) // 8 * 8
            c.quad(
                _rect(paper, b.frame_h + 0.1),
                tx.marker(i, size),
                shade=c.light.shade(np.zeros(3), np.array([0, 0, 1.0])),
            )

    # -- checkers, dice, cube ------------------------------------------------------------------

    def objects(self) -> dict:
        s, b, c, rng = self.s, self.b, self.c, self.rng
        chk = checker_set(s.checkers)
        light_c, dark_c = self._vary((chk.light, chk.dark), 0.04)
        chk = dataclasses.replace(chk, light=light_c, dark=dark_c)
        size = int(np.clip(b.checker * self.ppm, 48, 192))
        design = int(rng.integers(4))
        faces = [
            tx.checker_face(rng, size, col, design, chk.grain) for col in (chk.light, chk.dark)
        ]
        sides = [np.float32(chk.light) * 0.9, np.float32(chk.dark) * 0.9]
        items: list[tuple[float, object]] = []
        r, t = b.checker / 2, b.thickness
        up = np.array([0.0, 0.0, 1.0])

        def checker(base, axis, who: int):
            face = faces[who]
            if axis[2] > 0.5 and chk.gloss > 0.3:
                face = face + self._highlight(base + axis * t, r, size, chk.gloss)

            def draw():
                c.cylinder(base, axis, r, t, sides[who], face, chk.gloss)

            centre = base + axis * t / 2
            c.cast(_cyl_pts(base, axis, r, t), base[2] if axis[2] > 0.5 else 0.0)
            items.append((float(c.view.depth(centre[None])[0]), draw))

        for p, n in enumerate(s.points, start=1):
            who = 0 if n > 0 else 1
            for x, y, z in b.stack(p, abs(n), s.row, self.seed, s.sloppy):
                checker(np.array([x, y, z]), up, who)
        spot = np.random.default_rng([self.seed, 99])  # apart, so moves elsewhere leave these
        for who in (0, 1):
            sign = -1 if who == 0 else 1
            for i in range(s.bar[who]):
                layer, k = divmod(i, 3)
                y = sign * (CUBE_MM / 2 + 4 + r + k * b.checker * 1.02 + layer * r)
                j = spot.normal(0, s.sloppy * 0.5, 2)
                checker(np.array([j[0], y + j[1], b.frame_h + layer * t]), up, who)
        trays = b.trays()
        for who in (0, 1):
            x0, ty0, x1, ty1 = trays[who]
            for i in range(s.off[who]):
                yy = ty0 + 1 + i * t * 1.04 if who == 0 else ty1 - 1 - (i + 1) * t * 1.04
                base = np.array([(x0 + x1) / 2 + spot.normal(0, 0.4), yy, r])
                checker(base, np.array([0.0, 1.0, 0.0]), who)
        dice_boxes = []
        for die in s.dice:
            dice_boxes.append(self._die(die, items))
        cube_box = self._cube(items) if s.cube is not None else None
        c.apply_shadow(s.lighting.shadow, 1.2 * self.ppm)
        for _, draw in sorted(items, key=lambda it: -it[0]):
            draw()
        return {"dice": dice_boxes, "cube": cube_box}

    def _highlight(self, top: np.ndarray, r: float, size: int, gloss: float) -> np.ndarray:
        """The lamp mirrored in a checker's gently domed top: a soft spot where the dome's
        normal halves the angle between lamp and camera."""
        c = self.c
        to_lamp = c.light.lamp - top
        to_eye = c.view.eye - top
        h = to_lamp / np.linalg.norm(to_lamp) + to_eye / np.linalg.norm(to_eye)
        h /= np.linalg.norm(h)
        off = 3.0 * r * h[:2]  # a dome of radius 3r
        dist = float(np.hypot(*off))
        if dist > 0.85 * r:
            return np.zeros((1, 1, 1), np.float32)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        # texture x runs along board +y, texture y along board +x (see Canvas.cylinder)
        cx = (0.5 + off[1] / (2 * r)) * size
        cy = (0.5 + off[0] / (2 * r)) * size
        sig = 0.16 * size
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig * sig))
        return (0.55 * gloss * (1 - dist / r) * blob)[..., None]

    def _die(self, die, items) -> np.ndarray:
        st = dice_style(die.style)
        z0, size, rot = _die_pose(die, self.b)
        values = _die_faces(die.value, self.rng)
        return self._solid(die.at, z0, size, rot, values, st.body, st.pips, items, tx.die_face, 0.9)

    def _cube(self, items) -> np.ndarray:
        cube = self.s.cube
        body, ink = CUBE_STYLES[cube.style]
        z, size, rot = _cube_pose(cube, self.b)
        top = cube.value
        rest = [v for v in CUBE_OPPOSITE if v not in (top, CUBE_OPPOSITE[top])]
        a = rest[0]
        b_ = next(v for v in rest if v not in (a, CUBE_OPPOSITE[a]))
        values = [a, CUBE_OPPOSITE[a], b_, CUBE_OPPOSITE[b_], top, CUBE_OPPOSITE[top]]
        return self._solid(cube.at, z, size, rot, values, body, ink, items, tx.cube_face, 0.6)

    def _solid(self, at, z0, size, rot, values, body, ink, items, face_fn, gloss):
        c = self.c
        n = int(np.clip(size * self.ppm * 1.3, 32, 160))
        faces = [face_fn(n, v, body, ink) for v in values]
        alpha = tx.rounded_square_alpha(n, n * 0.12)
        centre, pts = _solid_corners(at, z0, size, rot)
        c.cast(pts, z0)
        body_ = np.float32(body)

        def draw():
            c.box(centre, rot, size, faces, body_, alpha, gloss)

        items.append((float(c.view.depth(centre[None])[0]), draw))
        return pts


def _die_pose(die, board: Board) -> tuple[float, float, np.ndarray]:
    """The height a die stands on, its edge (mm) and its axes (columns, board axes)."""
    rot = _die_rotation(die.turn, die.lean if not die.flat else 0.0, die.lean_toward)
    return board.surface_z(*die.at), die_size(die.style, board.checker), rot


def _cube_pose(cube, board: Board) -> tuple[float, float, np.ndarray]:
    """The height the doubling cube stands on, its edge (mm) and its axes."""
    return board.surface_z(*cube.at), CUBE_MM, _die_rotation(cube.turn, 0.0, 0.0)


def _solid_corners(at, z0: float, size: float, rot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The centre and the eight corners (board mm) of a cube of edge ``size`` turned by ``rot``
    standing at ``at`` on the height ``z0`` (its lowest corner on it)."""
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    local = corners * size / 2 @ rot.T
    lift = -local[:, 2].min()
    centre = np.array([at[0], at[1], z0 + lift])
    return centre, centre + local


def _rect(r, z: float) -> np.ndarray:
    """A rectangle (x0, y0, x1, y1) at height z as a quad: TL, TR, BR, BL seen from above."""
    x0, y0, x1, y1 = r
    return np.array([[x0, y1, z], [x1, y1, z], [x1, y0, z], [x0, y0, z]], float)


def _cyl_pts(base, axis, r, t) -> np.ndarray:
    u = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(axis, u)
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = base + r * (np.cos(ang)[:, None] * u + np.sin(ang)[:, None] * v)
    return np.vstack([ring, ring + axis * t])


def _die_rotation(turn: float, lean: float, toward: float) -> np.ndarray:
    """Columns are the die's axes in board coordinates: turned about z, then leaned."""
    a = np.radians(turn)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    if lean == 0:
        return rz
    d = np.radians(toward)
    axis = np.array([-np.sin(d), np.cos(d), 0.0])  # horizontal, across the lean direction
    rv, _ = cv2.Rodrigues(axis * np.radians(lean))
    return rv @ rz


def _die_faces(top: int, rng: np.random.Generator) -> list[int]:
    """Values on +x, −x, +y, −y, +z, −z for a die showing ``top`` (opposite faces sum to 7)."""
    others = [v for v in range(1, 7) if v not in (top, 7 - top)]
    a = int(rng.choice(others))
    b = int(rng.choice([v for v in others if v not in (a, 7 - a)]))
    return [a, 7 - a, b, 7 - b, top, 7 - top]


#: A die is hidden when less than this share of its top face is in the picture, out from under
#: the hand: what little shows of it (a strip along an edge, a corner) is no die's face to find,
#: nor a value to read.
HIDDEN_BELOW = 0.25
#: Samples across the top face (a side) for ``top_seen``.
_TOP_SAMPLES = 20


def top_seen(
    corners: np.ndarray,
    view: View,
    lens: Lens,
    size: tuple[int, int],
    cover: np.ndarray | None = None,
    canvas_view: View | None = None,
    cube: np.ndarray | None = None,
) -> float:
    """The share of a die's top face that the picture shows: inside the image (``view`` and
    ``lens`` map onto it, ``size``), not drawn over by the hand (``cover``, pixels of the
    canvas ``canvas_view`` maps onto; None without a hand) and not behind or inside the
    doubling cube (``cube``, its eight corners as ``_solid_corners`` gives them; the scene may
    stand it on a die). ``corners`` are the die's eight corners (board mm); its top face is the
    four highest. A checker before the die is not counted."""
    top = corners[np.argsort(corners[:, 2])[-4:]]
    # a square face: the two corners nearest the first are its edges' other ends
    near = np.argsort(np.linalg.norm(top - top[0], axis=1))[1:3]
    along, across = top[near[0]] - top[0], top[near[1]] - top[0]
    t = (np.arange(_TOP_SAMPLES) + 0.5) / _TOP_SAMPLES
    s, r = np.meshgrid(t, t)
    pts = top[0] + s.reshape(-1, 1) * along + r.reshape(-1, 1) * across
    uv = to_image(view, lens, pts)
    w, h = size
    seen = (uv[:, 0] >= 0) & (uv[:, 0] < w) & (uv[:, 1] >= 0) & (uv[:, 1] < h)
    if cube is not None:
        seen &= ~_behind_solid(pts, view.eye, cube)
    if cover is not None and canvas_view is not None:
        px = np.round(canvas_view.project(pts)).astype(int)
        ch, cw = cover.shape
        on = (px[:, 0] >= 0) & (px[:, 0] < cw) & (px[:, 1] >= 0) & (px[:, 1] < ch)
        under = np.zeros(len(pts), bool)
        under[on] = cover[px[on, 1], px[on, 0]]
        seen &= ~under
    return float(seen.mean())


def _behind_solid(pts: np.ndarray, eye: np.ndarray, solid: np.ndarray) -> np.ndarray:
    """Whether the segment from each point to the camera's ``eye`` meets the box whose eight
    corners ``_solid_corners`` gives (``solid``): a slab test along the box's three axes."""
    centre = solid.mean(axis=0)
    near = np.zeros(len(pts))
    far = np.ones(len(pts))
    ray = np.asarray(eye, float) - pts
    for edge in (solid[4] - solid[0], solid[2] - solid[0], solid[1] - solid[0]):
        half = np.linalg.norm(edge) / 2
        axis = edge / (2 * half)
        at, step = (pts - centre) @ axis, ray @ axis
        with np.errstate(divide="ignore", invalid="ignore"):
            t0, t1 = (-half - at) / step, (half - at) / step
        parallel = np.abs(step) < 1e-12  # the ray runs along the slab: inside it or never
        t0 = np.where(parallel, np.where(np.abs(at) <= half, -np.inf, np.inf), t0)
        t1 = np.where(parallel, np.where(np.abs(at) <= half, np.inf, -np.inf), t1)
        near = np.maximum(near, np.minimum(t0, t1))
        far = np.minimum(far, np.maximum(t0, t1))
    return near <= far


def truth(scene: Scene, seed: int, view: View, lens: Lens, board: Board, placed) -> dict:
    """The fixture's JSON form (see ``nardy.synth``'s docstring)."""
    chk = checker_set(scene.checkers)
    usable, why = True, None
    if scene.hand is not None:
        usable, why = False, "hand"
    elif scene.lighting.motion >= MOTION_UNUSABLE:
        usable, why = False, "motion"
    elif scene.lighting.glare >= GLARE_UNUSABLE:
        usable, why = False, "glare"
    trays_seen = _trays_in_view(scene, view, lens, board)
    dice = []
    for die, pts, seen in zip(scene.dice, placed["dice"], placed["seen"], strict=True):
        seen = round(seen, 2)
        uv = to_image(view, lens, pts)
        top = pts[np.argsort(pts[:, 2])[-4:]].mean(0)
        cx, cy = to_image(view, lens, top)[0]
        x0, y0 = uv.min(0)
        x1, y1 = uv.max(0)
        dice.append(
            {
                "value": die.value,
                "flat": die.flat,
                "where": die.where,
                "center": [round(float(cx), 1), round(float(cy), 1)],
                "box": [
                    round(float(x0), 1),
                    round(float(y0), 1),
                    round(float(x1 - x0), 1),
                    round(float(y1 - y0), 1),
                ],
                "visible": seen,
            }
        )
        if seen < HIDDEN_BELOW:
            dice[-1]["hidden"] = True
    cube = None
    if scene.cube is not None:
        uv = to_image(view, lens, placed["cube"])
        centre = uv.mean(0)
        cube = {
            "value": scene.cube.value,
            "where": scene.cube.where,
            "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
        }
    corners = to_image(view, lens, board.corners())
    out: dict = {"image": "", "usable": usable}
    if why:
        out["why"] = why
    out.update(
        {
            "points": list(scene.points),
            "bar": list(scene.bar),
            "off": list(scene.off) if trays_seen else None,
            "dice": dice,
            "cube": cube,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
            "light": chk.light_name,
            "lens": {
                "f": round(lens.f, 2),
                "cx": lens.cx,
                "cy": lens.cy,
                "k1": round(lens.k1, 5),
                "k2": round(lens.k2, 5),
            },
            "style": {
                "board": scene.board,
                "checkers": scene.checkers,
                "seed": seed,
                "scene": scene.to_json(),
            },
        }
    )
    if scene.markers:
        out["markers"] = [
            {"id": i, "corners": _rounded(to_image(view, lens, _rect(black, board.frame_h)))}
            for i, black in enumerate(_black_squares(board))
        ]
        side = board.marker_papers()[0][2] - board.marker_papers()[0][0]
        out["marker_layout"] = {
            "side_mm": round(side * 6 / 8, 3),
            "step_mm": round(board.frame_h, 3),
            "inset_mm": round(board.bevel, 3),
        }
    return out


def _black_squares(board: Board) -> list[tuple[float, float, float, float]]:
    """The markers' black squares: their paper less a one-cell margin (a cell is 1/8 of it)."""
    out = []
    for x0, y0, x1, y1 in board.marker_papers():
        m = (x1 - x0) / 8
        out.append((x0 + m, y0 + m, x1 - m, y1 - m))
    return out


def _rounded(pts: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in pts]


def _trays_in_view(scene: Scene, view: View, lens: Lens, board: Board) -> bool:
    w, h = scene.size
    for t in board.trays():
        uv = to_image(view, lens, _rect(t, board.frame_h))
        if (
            (uv[:, 0] < 0).any()
            or (uv[:, 0] > w - 1).any()
            or (uv[:, 1] < 0).any()
            or (uv[:, 1] > h - 1).any()
        ):
            return False
    return True
