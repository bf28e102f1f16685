"""Shared fixtures: the default Vulkan device when there is one (lavapipe without a GPU)."""
import pytest

import vktensor as vt


def _vulkan_or_none():
    try:
        return vt.vulkan()
    except vt.Error:
        return None


VULKAN = _vulkan_or_none()


@pytest.fixture(params=["cpu", "vulkan"])
def device(request):
    """Each test that takes it runs on the cpu and on the default Vulkan device."""
    if request.param == "cpu":
        return vt.cpu()
    if VULKAN is None:
        pytest.skip("no Vulkan device")
    return VULKAN
