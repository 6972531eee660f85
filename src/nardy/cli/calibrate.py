"""``nardy calibrate IMAGE --out profile.json``: make a board profile from a photo."""

from __future__ import annotations

import argparse

from nardy.cli.common import UsageError

HELP = "make a board profile from a photo (corners given, ArUco markers, or found by itself)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="a photo of the board from the camera")
    parser.add_argument("--out", required=True, metavar="FILE", help="where to write the profile")
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--corners",
        metavar="x1,y1,...,x4,y4",
        help="inner corners of the frame: top-left, top-right, bottom-right, bottom-left",
    )
    how.add_argument(
        "--markers",
        action="store_true",
        help="four ArUco markers (DICT_4X4_50, ids 0-3 at TL, TR, BR, BL) on the frame, each "
        "diagonally outside its corner of the playing surface, the paper's inner corner on the "
        "frame top's inner corner",
    )
    how.add_argument("--auto", action="store_true", help="find the board with no help (default)")
    parser.add_argument(
        "--marker-size", type=float, default=30.0, metavar="MM", help="a marker's black square"
    )
    parser.add_argument(
        "--frame-step",
        type=float,
        default=0.0,
        metavar="MM",
        help="how far the frame's top stands above the playing surface (markers)",
    )
    parser.add_argument(
        "--frame-inset",
        type=float,
        default=0.0,
        metavar="MM",
        help="how far inside the frame top's inner corner the surface's corner lies (a bevel)",
    )
    parser.add_argument(
        "--variant",
        default="backgammon",
        help="when the board is in this variant's starting position, also record which corner "
        "is whose home (backgammon, nackgammon, long-nardy)",
    )
    parser.add_argument(
        "--lens",
        nargs="+",
        metavar="PHOTO",
        help="photos of a printed pattern, to measure and correct the lens",
    )
    parser.add_argument(
        "--pattern",
        default="9x6",
        help="the lens photos' pattern: a chessboard's inner corners (9x6), or a ChArUco "
        "board's squares as OpenCV prints it (charuco:7x5, markers DICT_6X6_250 filling 75%% "
        "of a square; charuco:7x5:DICT_4X4_50 names another dictionary)",
    )


def run(args: argparse.Namespace) -> int:
    from nardy.calibration import (
        BoardProfile,
        LensError,
        OrientationError,
        ProfileError,
        calibrate_lens,
        orientation_from_start,
        parse_corners,
        parse_pattern,
    )
    from nardy.calibration.markers import MarkerLayout, corners_from_markers
    from nardy.calibration.measure import measure_geometry
    from nardy.vision.board import BoardReader
    from nardy.vision.images import ImageError, load_image

    try:
        image = load_image(args.image)
    except ImageError as e:
        raise UsageError(str(e)) from e
    size = (image.shape[1], image.shape[0])
    lens = None
    if args.lens:
        try:
            pattern = parse_pattern(args.pattern)
            photos = [load_image(p) for p in args.lens]
            lens = calibrate_lens(photos, pattern)
        except (ImageError, LensError) as e:
            raise UsageError(f"lens: {e}") from e
    try:
        if args.corners:
            corners, source = parse_corners(args.corners), "corners"
        elif args.markers:
            layout = MarkerLayout(args.marker_size, args.frame_step, args.frame_inset)
            corners, source = corners_from_markers(image, layout, lens), "markers"
        else:
            from nardy.calibration.auto import find_corners

            corners, source = find_corners(image), "auto"
        geometry = measure_geometry(image, corners)
        profile = BoardProfile.from_corners(corners, size, geometry, lens, source=source)
    except ProfileError as e:
        raise UsageError(str(e)) from e
    reading = BoardReader(profile).read(image)
    try:
        profile = profile.with_orientation(orientation_from_start(reading.points, args.variant))
        note = f"light's ace point is image point {profile.orientation.light_ace}"
    except OrientationError:
        note = "board not in the starting position: orientation not recorded"
    try:
        profile.save(args.out)
    except OSError as e:
        raise UsageError(f"cannot write {args.out}: {e.strerror or e}") from e
    corners_text = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in profile.corners)
    print(f"{args.out}: {source}, corners {corners_text}; {note}")
    return 0
