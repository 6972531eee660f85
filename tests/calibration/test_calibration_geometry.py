import pytest

from nardy.calibration import BoardGeometry, GeometryError, Orientation, orientation_from_start
from nardy.calibration.orientation import START_LAYOUTS


def test_points_run_right_to_left_along_the_bottom_and_left_to_right_along_the_top():
    g = BoardGeometry()
    bottom = [g.point(n) for n in range(1, 13)]
    top = [g.point(n) for n in range(13, 25)]
    assert all(p.base[1] == 1.0 and p.down == -1 for p in bottom)
    assert all(p.base[1] == 0.0 and p.down == 1 for p in top)
    assert [p.base[0] for p in bottom] == sorted((p.base[0] for p in bottom), reverse=True)
    assert [p.base[0] for p in top] == sorted(p.base[0] for p in top)
    # point n and point 25 - n face each other across the board
    for n in range(1, 13):
        assert g.point(n).base[0] == pytest.approx(g.point(25 - n).base[0])


def test_points_tile_each_field_and_leave_the_bar_free():
    g = BoardGeometry(bar=(0.45, 0.55))
    xs = []
    for p in g.points():
        left, right, _ = p.triangle()
        xs.append((left[0], right[0]))
    for x0, x1 in xs:
        assert not (x0 < 0.55 and x1 > 0.45), "a point overlaps the bar"
        assert 0.0 <= x0 < x1 <= 1.0
    covered = sum(x1 - x0 for x0, x1 in xs) / 2  # top and bottom rows cover the same width
    assert covered == pytest.approx(1.0 - 0.1)


@pytest.mark.parametrize(
    "kwargs", [{"bar": (0.6, 0.4)}, {"bar": (0.0, 0.5)}, {"point_length": 0.7}, {"aspect": 5.0}]
)
def test_impossible_geometry_is_refused(kwargs):
    with pytest.raises(GeometryError):
        BoardGeometry(**kwargs)


def test_geometry_survives_json():
    g = BoardGeometry(bar=(0.44, 0.56), point_length=0.38, aspect=0.75)
    assert BoardGeometry.from_json(g.to_json()) == g


def _image_reading(layout, ace):
    o = Orientation(ace)
    points = [0] * 24
    for light_point, count in layout.items():
        points[o.image_point(light_point) - 1] = count
    return points


@pytest.mark.parametrize("variant", sorted(START_LAYOUTS))
@pytest.mark.parametrize("ace", [1, 12, 13, 24])
def test_orientation_is_found_from_the_starting_position(variant, ace):
    reading = _image_reading(START_LAYOUTS[variant], ace)
    assert orientation_from_start(reading, variant) == Orientation(ace)
    light = Orientation(ace).to_light(reading)
    assert {p: c for p, c in enumerate(light, 1) if c} == START_LAYOUTS[variant]


def test_a_position_that_is_not_a_start_has_no_orientation():
    reading = _image_reading(START_LAYOUTS["backgammon"], 1)
    reading[5] -= 1
    with pytest.raises(ValueError):
        orientation_from_start(reading, "backgammon")


@pytest.mark.parametrize(
    ("ace", "row", "half"),
    [(1, "bottom", "right"), (12, "bottom", "left"), (13, "top", "left"), (24, "top", "right")],
)
def test_lights_home_lies_where_its_ace_point_is(ace, row, half):
    o = Orientation(ace)
    assert (o.light_row, o.home_half) == (row, half)
    home = {o.image_point(p) for p in range(1, 7)}  # light's home board in image numbering
    bottom = all(p <= 12 for p in home)  # image points 1-12 run along the bottom edge
    right = all(p <= 6 or p >= 19 for p in home)  # 1-6 bottom right, 19-24 top right
    assert (row == "bottom") == bottom and (half == "right") == right
