"""The camera over a board, recovered from the homography its photo gives of the board's plane:
its focal length and pose (``camera_pose``), where it stands (``camera_centre``) and the point of
the board under it (``camera_foot``). The board-plane dice reader (``dice_tilt``) turns its
patches by the foot; the trays' reader (``bar_trays``) sees the trays at their checkers' height
through the pose.
"""

from __future__ import annotations

import numpy as np


def camera_pose(
    to_board: np.ndarray, image_size: tuple[int, int], focal: tuple[float, float] = (0.25, 4.0)
) -> tuple[float, np.ndarray]:
    """The focal length (pixels) and pose ``[r1 r2 t]`` (3 × 3, in the board plane's units, the
    board in front of the camera) of the camera whose photo ``to_board`` maps to the board's
    plane, for an image of ``image_size`` (width, height) whose principal point is its centre
    and whose pixels are square. The focal length, between ``focal`` times the image's width,
    is the one whose pose maps the plane's axes to two square-on directions of one length.
    (Seen from straight above any focal length fits; then a middling one is taken.)"""
    w, h = image_size
    to_image = np.linalg.inv(np.asarray(to_board, np.float64))
    best, pose, focal_length = np.inf, to_image, 0.6 * w
    for f in w * np.geomspace(focal[0], focal[1], 64):
        k_inv = np.array([[1 / f, 0, -w / (2 * f)], [0, 1 / f, -h / (2 * f)], [0, 0, 1.0]])
        m = k_inv @ to_image  # plane (x, y, 1) → the camera's rays
        a, b = np.linalg.norm(m[:, 0]), np.linalg.norm(m[:, 1])
        # square-on and of one length; ties (a view from straight above) to a middling lens
        miss = (m[:, 0] @ m[:, 1] / (a * b)) ** 2 + np.log(a / b) ** 2
        miss += 1e-3 * np.log(f / (0.6 * w)) ** 2
        if miss < best:
            best, pose, focal_length = miss, m * (2.0 / (a + b)), f
    if pose[2, 2] < 0:  # the board in front of the camera
        pose = -pose
    return float(focal_length), pose


def camera_foot(
    to_board: np.ndarray, image_size: tuple[int, int], focal: tuple[float, float] = (0.25, 4.0)
) -> np.ndarray:
    """The point of the board's plane under the camera (in the plane's units): the centre of
    ``camera_pose``'s camera (same arguments). (Seen from straight above the foot is under the
    image's centre whichever focal length is taken.)"""
    return camera_eye(to_board, image_size, focal)[:2]


def camera_eye(
    to_board: np.ndarray, image_size: tuple[int, int], focal: tuple[float, float] = (0.25, 4.0)
) -> np.ndarray:
    """Where ``camera_pose``'s camera (same arguments) stands, in the board plane's units: x, y
    on the plane (``camera_foot``) and its height over it."""
    return camera_centre(camera_pose(to_board, image_size, focal)[1])


def camera_centre(pose: np.ndarray) -> np.ndarray:
    """Where the camera of ``pose`` (``[r1 r2 t]``, as ``camera_pose`` gives it) stands, in the
    board plane's units: x, y on the plane, and its height over it."""
    r = np.stack([pose[:, 0], pose[:, 1], np.cross(pose[:, 0], pose[:, 1])], axis=1)
    return -r.T @ pose[:, 2]
