"""The calibration wizard: four corners clicked on a live frame (or found from ArUco markers or
by the board's own lines), the rectified board and the reading it gives, then the profile saved.

A table with a camera offers ``camera_frame() -> np.ndarray | None`` (the latest raw frame) and
``save_profile(profile) -> str`` (where it was stored).
"""

from __future__ import annotations

import base64
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from nardy.calibration import BoardProfile, ProfileError
from nardy.webui import security
from nardy.webui.hub import Seat, hub_of

bp = Blueprint("calibrate", __name__, url_prefix="/calibrate")

#: Width of the rectified board shown in the wizard, in pixels.
RECTIFIED_WIDTH = 640


def _seat(table_id: str) -> Seat:
    seat = hub_of(current_app).get(table_id)
    if seat is None:
        abort(404, description=f"no table {table_id!r} here")
    return seat


def _frame(seat: Seat) -> np.ndarray:
    grab = getattr(seat.table, "camera_frame", None)
    frame = grab() if grab else None
    if frame is None:
        abort(404, description="this table has no camera frame to calibrate on")
    return frame


def _error(status: int, message: str) -> tuple[Response, int]:
    return jsonify(error=message), status


def _corners(body: dict[str, Any], frame: np.ndarray) -> list[tuple[float, float]]:
    """Four [x, y] pairs inside the frame, or a 400 with the reason."""
    raw = body.get("corners")
    h, w = frame.shape[:2]
    try:
        corners = [(float(x), float(y)) for x, y in raw]
    except (TypeError, ValueError):
        abort(
            400,
            description="corners are four [x, y] pairs: top-left, top-right, "
            "bottom-right, bottom-left",
        )
    if len(corners) != 4:
        abort(400, description=f"four corners are needed, not {len(corners)}")
    if not all(0 <= x <= w and 0 <= y <= h for x, y in corners):
        abort(400, description=f"a corner lies outside the {w}×{h} frame")
    return corners


def _json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="the body must be a JSON object")
    return data


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def rectified(frame: np.ndarray, profile: BoardProfile, width: int = RECTIFIED_WIDTH) -> np.ndarray:
    """The playing surface seen square-on, at the board's real aspect."""
    height = round(width * profile.geometry.aspect)
    scale = np.diag([width, height, 1.0])
    if profile.lens is not None:
        frame = cv2.undistort(frame, profile.lens.k, profile.lens.d)
    return cv2.warpPerspective(frame, scale @ profile.h, (width, height))


@bp.get("/<table_id>")
def page(table_id: str) -> ResponseReturnValue:
    seat = _seat(table_id)
    h, w = _frame(seat).shape[:2]
    return render_template(
        "calibrate.html", seat=seat, width=w, height=h, unlocked=security.is_unlocked(table_id)
    )


@bp.get("/<table_id>/frame.jpg")
def frame(table_id: str) -> ResponseReturnValue:
    return Response(
        _jpeg(_frame(_seat(table_id))), mimetype="image/jpeg", headers={"Cache-Control": "no-store"}
    )


def _marker_layout(body: dict[str, Any]):
    """The markers' layout on this board as the person measured it (millimetres), or a 400.
    Fields left out keep ``MarkerLayout``'s defaults."""
    from nardy.calibration.markers import MarkerLayout

    raw = body.get("layout") or {}
    if not isinstance(raw, dict) or not set(raw) <= {"side_mm", "step_mm", "inset_mm"}:
        abort(400, description="layout has side_mm, step_mm and inset_mm (millimetres)")
    try:
        return MarkerLayout(**{k: float(v) for k, v in raw.items() if v not in (None, "")})
    except (TypeError, ValueError) as e:  # MarkerError is a ValueError
        abort(400, description=f"bad marker layout: {e}")


@bp.post("/<table_id>/find")
def find(table_id: str) -> ResponseReturnValue:
    """Corners found for the person: ``{"method": "markers" | "auto"}``, with the markers'
    ``"layout"`` (``side_mm``, ``step_mm``, ``inset_mm``) for ``markers``."""
    image = _frame(_seat(table_id))
    body = _json_body()
    method = body.get("method")
    try:
        if method == "markers":
            from nardy.calibration.markers import corners_from_markers

            corners = corners_from_markers(image, _marker_layout(body))
        elif method == "auto":
            from nardy.calibration.auto import find_corners

            corners = find_corners(image)
        else:
            return _error(400, 'method is "markers" or "auto"')
    except ProfileError as e:
        return _error(422, str(e))
    return jsonify(corners=[[round(float(x), 1), round(float(y), 1)] for x, y in corners])


@bp.post("/<table_id>/preview")
def preview(table_id: str) -> ResponseReturnValue:
    """The rectified board and what vision reads on it with these corners."""
    from nardy.vision.detect import detect_image, profile_from_corners

    image = _frame(_seat(table_id))
    corners = _corners(_json_body(), image)
    try:
        profile = profile_from_corners(image, corners)
    except (ProfileError, ValueError) as e:
        return _error(400, str(e))
    result = detect_image(image, profile)
    picture = base64.b64encode(_jpeg(rectified(image, profile))).decode()
    return jsonify(rectified=f"data:image/jpeg;base64,{picture}", reading=result.to_json())


@bp.post("/<table_id>/save")
def save(table_id: str) -> ResponseReturnValue:
    from nardy.vision.detect import profile_from_corners

    seat = _seat(table_id)
    if not security.is_unlocked(table_id):
        return _error(403, "enter the table's PIN to change its calibration")
    image = _frame(seat)
    corners = _corners(_json_body(), image)
    store = getattr(seat.table, "save_profile", None)
    if store is None:
        return _error(409, "this table cannot store a profile")
    try:
        profile = profile_from_corners(image, corners)
    except (ProfileError, ValueError) as e:
        return _error(400, str(e))
    return jsonify(saved=store(profile))
