"""The array API's fft extension over vktensor's one-axis transforms."""
from . import _vktensor as _vt
from . import array_api as _xp


def _check_norm(norm):
    if norm != "backward":
        raise ValueError(f"[fft] only norm='backward' (NumPy's default) is offered, got {norm!r}")


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    _check_norm(norm)
    return _vt.fft(x, n=n, axis=axis)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    _check_norm(norm)
    return _vt.ifft(x, n=n, axis=axis)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    _check_norm(norm)
    return _vt.rfft(x, n=n, axis=axis)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    _check_norm(norm)
    return _vt.irfft(x, n=n, axis=axis)


def _each_axis(transform, x, s, axes):
    axes = list(range(x.ndim)) if axes is None else list(axes)
    lengths = [None] * len(axes) if s is None else list(s)
    for a, n in reversed(list(zip(axes, lengths))):
        x = transform(x, n=n, axis=a)
    return x


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    _check_norm(norm)
    return _each_axis(_vt.fft, x, s, axes)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    _check_norm(norm)
    return _each_axis(_vt.ifft, x, s, axes)


def fftfreq(n, /, *, d=1.0, device=None):
    k = _vt.iota((n,), dtype=_vt.int64, device=device)
    k = _vt.select(_vt.less(k, (n + 1) // 2), k, k - n)
    return k.astype(_vt.float32) / (n * d)


def rfftfreq(n, /, *, d=1.0, device=None):
    return _vt.iota((n // 2 + 1,), dtype=_vt.float32, device=device) / (n * d)


def fftshift(x, /, *, axes=None):
    axes = list(range(x.ndim)) if axes is None else ([axes] if isinstance(axes, int) else axes)
    return _xp.roll(x, [x.shape[a] // 2 for a in axes], axis=axes)


def ifftshift(x, /, *, axes=None):
    axes = list(range(x.ndim)) if axes is None else ([axes] if isinstance(axes, int) else axes)
    return _xp.roll(x, [-(x.shape[a] // 2) for a in axes], axis=axes)
