"""examples/python/example.py runs and prints what the C++ example prints."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_example_runs():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "example.py")],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    assert out.splitlines()[0] == "66 84"
    assert "uploads 0, downloads 0" in out
