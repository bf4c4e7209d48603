"""``python -m tapete.cli`` is the same command line as ``tapete``."""

from __future__ import annotations

import subprocess
import sys

from tapete import __version__


def test_python_m_tapete_cli_runs_the_command_line() -> None:
    out = subprocess.run([sys.executable, "-m", "tapete.cli", "--version"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert __version__ in out.stdout
