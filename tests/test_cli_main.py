import subprocess
import sys

from nardy.cli import main


def test_every_command_module_has_the_command_contract():
    for name, module in main._commands().items():
        assert isinstance(module.HELP, str) and module.HELP, name
        assert callable(module.add_arguments) and callable(module.run), name


def test_unknown_command_is_a_usage_error_not_a_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "nardy", "no-such-command"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "invalid choice" in proc.stderr
