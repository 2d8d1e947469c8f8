"""The C allocator's one setting the desktop app changes (Linux, glibc): large blocks always mapped on their own.

glibc serves a request of 128 KiB or more with its own ``mmap`` and gives it back on ``free`` — until such a
block is freed: then it raises that threshold to the block's size (up to 32 MiB), and later blocks of up to that
size come from the heap, where a freed one stays in the process unless it lies at the heap's top. numpy's
arrays of a few hundred KiB to a few MiB, made and dropped while a library opens (verse search's per-verse arrays
over the whole text), so stayed resident: fixing the threshold at its default keeps them mapped on their own and
given back, ~ 6 MB less of the app's start-up memory (docs/PERFORMANCE.md, "Verse search's vectors out of
memory"). Setting it turns the adjustment off; elsewhere (macOS, Windows, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3  # glibc's <malloc.h>
THRESHOLD = 128 * 1024  # glibc's default, now fixed


def fix_mmap_threshold() -> bool:
    """Fix glibc's mmap threshold at its default (``True`` when it was set)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
