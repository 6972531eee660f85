import json
import subprocess
import sys

ENV_CMD = [sys.executable, "-m", "nardy", "cup"]


def test_emulate_prints_a_path_the_monitor_reads_json_events_from(tmp_path):
    emu = subprocess.Popen(
        [*ENV_CMD, "--emulate", "--every", "0.2", "0.4", "--seconds", "30", "--seed", "5"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        path = emu.stdout.readline().strip()
        assert path.startswith("/dev/pts/")
        log = tmp_path / "cup.log"
        proc = subprocess.run(
            [*ENV_CMD, path, "--json", "--count", "2", "--arm", "W:4", "--log", str(log)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        emu.terminate()
        emu.wait(10)
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert events[0]["event"] == "cup_connected" and events[0]["port"] == path
    throws = [e for e in events if e["event"] in ("thrown", "no_throw")]
    assert len(throws) == 2
    assert all(1 <= v <= 6 for e in throws if e["valid"] for v in e["values"])
    assert "\tout\t$HELLO? " in log.read_text()


def test_a_port_that_does_not_exist_is_one_line_and_status_2():
    proc = subprocess.run([*ENV_CMD, "/dev/no-such-cup"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "nardy cup: /dev/no-such-cup: no such port"


def test_a_bad_arm_is_a_usage_error():
    proc = subprocess.run([*ENV_CMD, "loop://", "--arm", "W"], capture_output=True, text=True)
    assert proc.returncode == 2 and "PLAYER:TURN" in proc.stderr and "Traceback" not in proc.stderr


def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path):
    bad = tmp_path / "no-such-dir" / "cup.log"
    proc = subprocess.run([*ENV_CMD, "loop://", "--log", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2 and "--log" in proc.stderr and "Traceback" not in proc.stderr
