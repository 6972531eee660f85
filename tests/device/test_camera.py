"""Frame sources read recorded frames with their times, and refuse what they cannot read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy.device.camera import (
    FrameSourceError,
    ImageFolder,
    VideoFile,
    open_source,
    read_frame_times,
)


def _image(shade: int) -> np.ndarray:
    return np.full((48, 64, 3), shade, np.uint8)


def test_image_folder_yields_frames_in_time_order(tmp_path):
    for ms, shade in ((2500, 30), (40, 10), (1200, 20)):
        cv2.imwrite(str(tmp_path / f"{ms:09d}.png"), _image(shade))
    (tmp_path / "notes.txt").write_text("not a frame")
    frames = list(open_source(tmp_path).frames())
    assert [f.t_ms for f in frames] == [40, 1200, 2500]
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]


def test_an_undecodable_frame_is_skipped_and_reported(tmp_path):
    cv2.imwrite(str(tmp_path / "000000100.png"), _image(10))
    (tmp_path / "000000200.jpg").write_bytes(b"not a jpeg")
    source = ImageFolder(tmp_path)
    assert [f.t_ms for f in source.frames()] == [100]
    assert [t for t, _ in source.unreadable] == [200]


def test_a_folder_without_timed_frames_is_refused(tmp_path):
    cv2.imwrite(str(tmp_path / "board.png"), _image(10))
    with pytest.raises(FrameSourceError, match="named by their time"):
        ImageFolder(tmp_path)


def _write_video(path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for k in range(count):
        writer.write(_image(20 * k + 10))
    writer.release()


def test_video_times_come_from_frames_csv(tmp_path):
    _write_video(tmp_path / "clip.avi", 4)
    (tmp_path / "frames.csv").write_text("index,ms\n0,0\n1,90\n2,230\n3,400\n")
    frames = list(VideoFile(tmp_path / "clip.avi").frames())
    assert [f.t_ms for f in frames] == [0, 90, 230, 400]


def test_video_times_follow_the_frame_rate_without_frames_csv(tmp_path):
    _write_video(tmp_path / "clip.avi", 3)
    assert [f.t_ms for f in VideoFile(tmp_path / "clip.avi").frames()] == [0, 100, 200]


@pytest.mark.parametrize(
    ("text", "message"),
    [("ms,index\n0,0\n", "first line"), ("index,ms\n0,zero\n", "two integers")],
)
def test_malformed_frames_csv_is_refused_with_the_line(tmp_path, text, message):
    (tmp_path / "frames.csv").write_text(text)
    with pytest.raises(FrameSourceError, match=message):
        read_frame_times(tmp_path / "frames.csv")


def test_unknown_source_is_refused(tmp_path):
    with pytest.raises(FrameSourceError, match="not a camera index"):
        open_source(tmp_path / "missing")
    (tmp_path / "clip.mp4").write_bytes(b"garbage")
    with pytest.raises(FrameSourceError, match="cannot read"):
        open_source(tmp_path / "clip.mp4")


def test_a_recorded_session_reads_its_frames_folder_or_its_video(tmp_path):
    from nardy.device.camera import open_recorded

    assert open_recorded(tmp_path) is None  # a table with no camera
    _write_video(tmp_path / "table.avi", 2)
    with pytest.raises(FrameSourceError, match=r"frames\.csv"):
        open_recorded(tmp_path)
    (tmp_path / "frames.csv").write_text("index,ms\n0,500\n1,900\n")
    assert [f.t_ms for f in open_recorded(tmp_path).frames()] == [500, 900]
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "000000042.png"), _image(5))
    assert [f.t_ms for f in open_recorded(tmp_path).frames()] == [42]
