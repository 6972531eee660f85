"""The board's measurements and where each checker stands on it (millimetres, board coordinates).

The inner rectangle — both playing fields and the bar between them — is centred on the origin.
Its corners, on the playing surface, are the ``corners`` of the truth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy.synth.scene import Scene


@dataclass(frozen=True)
class Board:
    checker: float  # diameter
    thickness: float  # of a checker
    point_w: float
    point_l: float
    bar_w: float
    frame_w: float
    frame_h: float  # frame top above the playing surface
    base: float  # playing surface above the table
    tray_w: float
    tray_side: int  # +1 right, -1 left
    inner_w: float
    inner_h: float

    @classmethod
    def of(cls, scene: Scene) -> Board:
        d = scene.checker_mm
        k = scene.shape
        point_w = d * (1.06 + 0.08 * k)
        point_l = d * (5.1 + 0.5 * k)
        bar_w = d * (1.25 + 0.4 * (1 - k))
        gap = d * (1.9 + 0.5 * k)
        return cls(
            checker=d,
            thickness=d * (0.2 + 0.06 * k),
            point_w=point_w,
            point_l=point_l,
            bar_w=bar_w,
            frame_w=d * (0.85 + 0.35 * (1 - k)),
            frame_h=d * (0.22 + 0.15 * k),
            base=d * 0.35,
            tray_w=d * 1.25,
            tray_side=1 if scene.trays == "right" else -1,
            inner_w=12 * point_w + bar_w,
            inner_h=2 * point_l + gap,
        )

    # -- outlines ---------------------------------------------------------------------------------

    def fields(self) -> list[tuple[float, float, float, float]]:
        """The two playing fields as (x0, y0, x1, y1)."""
        w, h, b = self.inner_w / 2, self.inner_h / 2, self.bar_w / 2
        return [(-w, -h, -b, h), (b, -h, w, h)]

    def trays(self) -> list[tuple[float, float, float, float]]:
        """The bear-off trays: (bottom, top), each (x0, y0, x1, y1)."""
        s = self.tray_side
        x_in = s * (self.inner_w / 2 + self.frame_w * 0.7)
        x_out = x_in + s * self.tray_w
        x0, x1 = min(x_in, x_out), max(x_in, x_out)
        h, div = self.inner_h / 2, self.frame_w * 0.35
        return [(x0, -h, x1, -div), (x0, div, x1, h)]

    def outline(self) -> tuple[float, float, float, float]:
        """The board's outer edge (x0, y0, x1, y1)."""
        w, h, f = self.inner_w / 2, self.inner_h / 2, self.frame_w
        extra = self.frame_w * 0.7 + self.tray_w
        x0, x1 = -w - f, w + f
        if self.tray_side > 0:
            x1 += extra
        else:
            x0 -= extra
        return (x0, -h - f, x1, h + f)

    @property
    def bevel(self) -> float:
        """How far the frame top's inner edge stands back from the wall below it."""
        return min(2.5, self.frame_h * 0.3)

    def marker_papers(self) -> list[tuple[float, float, float, float]]:
        """The four ArUco markers' paper squares (ids 0–3: TL, TR, BR, BL), stuck on the frame's
        top as ``nardy.calibration.markers`` asks: diagonally outside each corner of the
        playing surface, the paper's inner corner on the frame top's inner corner."""
        w, h = self.inner_w / 2 + self.bevel, self.inner_h / 2 + self.bevel
        side = min(0.8 * self.frame_w, self.frame_w - self.bevel - 0.5)
        return [
            (-w - side, h, -w, h + side),
            (w, h, w + side, h + side),
            (w, -h - side, w + side, -h),
            (-w - side, -h - side, -w, -h),
        ]

    def surface_z(self, x: float, y: float) -> float:
        """Height of what a thing put down at (x, y) rests on: field or tray floor (0), the
        frame or bar (``frame_h``), or the table beside the board (``−base``)."""
        for x0, y0, x1, y1 in [*self.fields(), *self.trays()]:
            if x0 <= x <= x1 and y0 <= y <= y1:
                return 0.0
        x0, y0, x1, y1 = self.outline()
        if x0 <= x <= x1 and y0 <= y <= y1:
            return self.frame_h
        return -self.base

    def corners(self) -> np.ndarray:
        """Inner corners of the frame on the playing surface: TL, TR, BR, BL (3-D)."""
        w, h = self.inner_w / 2, self.inner_h / 2
        return np.array([[-w, h, 0], [w, h, 0], [w, -h, 0], [-w, -h, 0]], float)

    # -- points -----------------------------------------------------------------------------------

    def point_x(self, p: int) -> float:
        """x of the middle of point ``p`` (1..24)."""
        w, b, pw = self.inner_w / 2, self.bar_w / 2, self.point_w
        if p <= 6:
            return w - (p - 0.5) * pw
        if p <= 12:
            return -b - (p - 6.5) * pw
        if p <= 18:
            return -w + (p - 12.5) * pw
        return b + (p - 18.5) * pw

    def point_triangle(self, p: int) -> np.ndarray:
        """The point's triangle (3 × 2): base on the frame, tip toward the middle."""
        x, pw = self.point_x(p), self.point_w
        h = self.inner_h / 2
        if p <= 12:
            return np.array([[x - pw / 2, -h], [x + pw / 2, -h], [x, -h + self.point_l]])
        return np.array([[x - pw / 2, h], [x + pw / 2, h], [x, h - self.point_l]])

    def stack(self, p: int, n: int, row: int, seed: int, sloppy: float):
        """Centres (x, y, z of the checker's bottom) of ``n`` checkers on point ``p``.

        The first ``row`` go in a line from the frame (longer when three layers would not hold
        them); a row may not reach past the middle of the board. What does not fit starts a
        second layer over the gaps of the first, then a third.
        Each checker's carelessness depends on the seed, the point and its place in the stack
        only, so taking one checker away leaves the others where they were.
        """
        d, t = self.checker, self.thickness
        most = max(1, int((self.inner_h / 2 + 2) // (d * 1.005)))
        # players lengthen the row rather than build more than three layers
        row = max(1, min(max(row, -(-(n + 3) // 3)), most))
        x = self.point_x(p)
        sign = 1 if p <= 12 else -1  # from the bottom frame up, or the top frame down
        y0 = -sign * self.inner_h / 2
        jitter = np.random.default_rng([seed, p]).normal(0, sloppy, (15, 2))
        jitter = jitter.clip(-3 * sloppy, 3 * sloppy)
        out: list[tuple[float, float, float]] = []
        layer, left, start = 0, n, 0.0
        while left > 0:
            k = min(left, max(1, row - layer))
            for i in range(k):
                j = jitter[len(out) % 15]
                along = d / 2 + (start + i) * d * 1.005 + abs(j[1]) * 0.5
                out.append((x + j[0] * 0.6, y0 + sign * along, layer * t))
            left -= k
            layer += 1
            start += 0.5
        return out
