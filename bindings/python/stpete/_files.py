"""Output files of :mod:`stpete.experiment` and its plots that a planted symbolic link cannot redirect (issue 31).

A run may write into a shared directory (``/tmp``, a group's folder) where someone else can create names: a link
there, at the output's name or at a temporary name the program would use, must not make the run write somewhere
else. So:

- an output is opened with ``O_NOFOLLOW`` (a link at its name is refused, never followed: :class:`LinkError`);
- a file rewritten (or written whole) goes first into a private temporary file beside it, made by
  :func:`tempfile.mkstemp` (a fresh random name, created exclusively: no link is followed), then renamed over the
  name with :func:`os.replace` (atomic; a link at the name is replaced, not followed).

Standard library only; no state.
"""
import os
import stat
import tempfile
from typing import IO, Callable, Optional

__all__ = ["LinkError", "open_output", "write_replacing"]


class LinkError(OSError):
    """The output's name is a symbolic link (``filename``: the name): refused, its target untouched."""


def _default_mode():
    """0o666 less this process's umask (read from /proc/self/status on Linux: :func:`os.umask` can only be read by
    changing it, which other threads would see); 0o644 where it cannot be read."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o644


def open_output(path: str, mode: str) -> IO:
    """Open the output ``path`` as text (UTF-8, no newline translation) without following a link at its name.
    ``mode``: ``"r"`` (read), ``"rb"`` (read bytes), ``"a"`` (append to the existing file), ``"c"`` (append,
    creating the file if it is missing), ``"w"`` (create or truncate). Raises :class:`LinkError` when ``path`` is a
    symbolic link, :class:`OSError` for the rest (missing, not writable)."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = {"r": os.O_RDONLY, "rb": os.O_RDONLY, "a": os.O_WRONLY | os.O_APPEND,
             "c": os.O_WRONLY | os.O_APPEND | os.O_CREAT,
             "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC}[mode] | nofollow | getattr(os, "O_CLOEXEC", 0)
    if not nofollow and os.path.islink(path):  # Windows: no O_NOFOLLOW, a check instead
        raise LinkError(0, "is a symbolic link", path)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if os.path.islink(path):  # O_NOFOLLOW: ELOOP on Linux, EMLINK or EFTYPE elsewhere
            raise LinkError(e.errno, "is a symbolic link", path) from None
        raise
    if mode == "rb":
        return open(fd, "rb")
    return open(fd, "a" if mode == "c" else mode, encoding="utf-8", errors="replace" if mode == "r" else "strict",
                newline="")


def write_replacing(path: str, write: Callable[[IO], None], binary: bool = False,
                    mode: Optional[int] = None) -> None:
    """Write the whole new content of ``path``: ``write(f)`` fills a private temporary file in the same directory
    (:func:`tempfile.mkstemp`), which then replaces ``path`` atomically (:func:`os.replace`). A reader sees the old
    file or the new one, never a part; a link at ``path`` is replaced, not followed. The new file has the
    permission bits ``mode``, by default those of the regular file it replaces, else 0o666 less the umask. On any
    error the temporary file is removed and ``path`` is unchanged."""
    directory, name = os.path.split(os.path.abspath(path))
    bits: int
    if mode is not None:
        bits = mode
    else:
        try:
            st = os.lstat(path)
            bits = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else _default_mode()
        except FileNotFoundError:
            bits = _default_mode()
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        f: IO
        if binary:
            f = open(fd, "wb")
        else:
            f = open(fd, "w", encoding="utf-8", newline="")
        with f:
            write(f)
            f.flush()
            if hasattr(os, "fchmod"):  # (not on Windows, where the mode is only a read-only flag)
                os.fchmod(f.fileno(), bits)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
