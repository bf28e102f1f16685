"""Two Vulkan devices in one process: lavapipe's driver listed twice (VK_DRIVER_FILES), which
the loader offers as two devices, in a child process (a process reads its device list once)."""
import glob
import os
import shutil
import subprocess
import sys

import pytest

LAVAPIPE = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"))

_CHILD = """
import numpy as np
import vktensor as vt

first, second = vt.vulkan(0), vt.vulkan(1)
assert first != second and str(first) != str(second), (first, second)
x = vt.asarray(np.arange(6, dtype=np.float32), device=first)
y = vt.asarray(np.ones(6, dtype=np.float32), device=second)
try:
    x + y
    raise SystemExit("x + y over two devices ran")
except vt.IncompatibleBackends as error:
    assert str(first) in str(error) and str(second) in str(error), error
with vt.ledger() as led:
    z = x.to_device(second) + y
assert (led.downloads, led.uploads) == (1, 1), led
# The move itself, by its path: staged through the host (24 bytes of float32).
assert (led.cross_device_host_staged, led.cross_device_host_staged_bytes) == (1, 24), led
with vt.ledger() as led:
    back = z.to_device(vt.cpu()).to_device(first)  # a download and an upload: no device move
    same = back.to_device(first)
assert (led.cross_device_host_staged, led.uploads, led.downloads) == (0, 1, 1), led
assert z.device == second
np.testing.assert_array_equal(np.asarray(z.to_device(vt.cpu())), np.arange(6) + 1)
print("ok")
"""


@pytest.mark.skipif(not LAVAPIPE, reason="no lavapipe driver file to list twice")
def test_two_devices_in_one_process(tmp_path):
    files = []
    for name in ("lavapipe_a.json", "lavapipe_b.json"):
        shutil.copy(LAVAPIPE[0], tmp_path / name)
        files.append(str(tmp_path / name))
    env = dict(os.environ, VK_DRIVER_FILES=":".join(files))
    env.pop("VKT_DEVICE", None)
    child = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                           text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "ok"
