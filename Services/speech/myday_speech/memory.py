"""Memory the process no longer uses, given back to the system."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

_libc = None
if sys.platform.startswith("linux"):
    try:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        _libc = None


def release_freed_memory() -> bool:
    """Asks glibc to return freed heap pages; answers whether it could be asked.

    Each window's decoding frees large buffers of many sizes; glibc keeps such memory for reuse, so without this the
    resident size creeps up window after window, and a long recording ends far above a short one.
    """
    if _libc is None:
        return False
    _libc.malloc_trim(0)
    return True
