"""Atomic writes: a file appears whole, with permissions 0644, or not at all.

Notes
-----
The temporary file of a write is named ``.NAME.pigtheory-HOST-PID-XXXXXXXX.tmpSUFFIX`` next to
the target (HOST a short hash of the machine's name, PID the writer's process). A write that
is killed (``SIGKILL``, a power cut) cannot remove it; the next write into the same folder
does: it removes every such temporary of this machine whose process is gone
(:func:`sweep_temporaries`). A live writer's temporaries, and other machines' (a shared
folder), are left alone.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import socket
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..validation import NAME_MAX, check_int, check_path

__all__ = [
    "atomic_write",
    "atomic_write_buffers",
    "check_writable",
    "check_readable_file",
    "sweep_temporaries",
    "os_error_message",
    "NAME_MAX",
]

_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]
_TEMP = re.compile(r"^\..*\.pigtheory-([0-9a-f]{6})-(\d+)-[^/]*\.tmp")
_SWEPT: set[str] = set()  # folders swept by this process


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or a pid this system cannot look up: keep
    return True


def sweep_temporaries(folder: str | os.PathLike) -> list[Path]:
    """Remove the temporary files that killed writes of this machine left in ``folder``.

    Returns
    -------
    list of pathlib.Path
        The files removed (a temporary of a live process, or of another machine, is kept).
    """
    removed: list[Path] = []
    folder = check_path("folder", folder)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None or m.group(1) != _HOST or _alive(int(m.group(2))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass  # another process removed it first, or the folder is read-only
    return removed


def check_readable_file(path: Path, expected: str = "a file") -> Path:
    """Raise ``ValueError`` unless ``path`` is a regular file (or a link to one), saying what
    it is instead: missing, a folder, a named pipe (FIFO), a socket, a device, a link to
    nowhere. ``expected`` names what was wanted ("a pigtheory .npz file")."""
    import stat

    path = check_path("path", path)
    if not isinstance(expected, str):
        raise ValueError(f"expected must be a description (str), got {type(expected).__name__}")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.lexists(path):
            raise ValueError(f"{path}: a symbolic link that leads nowhere (expected {expected})") from None
        raise ValueError(f"{path}: no such file (expected {expected})") from None
    except OSError as exc:
        raise ValueError(f"{path}: {os_error_message(exc)}") from None
    if stat.S_ISREG(mode):
        return path
    what = (
        "a folder"
        if stat.S_ISDIR(mode)
        else "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "not a regular file"
    )
    raise ValueError(f"{path}: is {what}, expected {expected}")


def os_error_message(exc: OSError) -> str:
    """One line for an error of the file system: the file, and what is wrong in plain words
    (not ``[Errno 28] No space left on device``)."""
    if not isinstance(exc, OSError):
        raise ValueError(f"exc must be an OSError, got {type(exc).__name__}")
    name = exc.filename if exc.filename is not None else exc.filename2
    where = f"{str(name)!r:.160}" if name is not None else "a file"
    words = {
        errno.ENOSPC: f"cannot write {where}: the disk is full (no space left on device); free some space "
        "or write elsewhere",
        errno.EDQUOT: f"cannot write {where}: the disk quota is used up; free some space or write elsewhere",
        errno.EEXIST: f"cannot create the folder {where}: a file of that name is in the way",
        errno.ENOTDIR: f"cannot use {where}: a part of the path is a file, not a folder",
        errno.EISDIR: f"cannot use {where}: it is a folder, expected a file",
        errno.EACCES: f"cannot use {where}: permission denied",
        errno.EPERM: f"cannot use {where}: operation not permitted",
        errno.EROFS: f"cannot write {where}: the file system is read-only",
        errno.ENAMETOOLONG: f"cannot use {where}: the name is too long for the file system "
        f"(at most {NAME_MAX} bytes a name)",
        errno.ENOENT: f"cannot use {where}: no such file or folder",
        errno.ETIMEDOUT: f"{where}: timed out",
    }
    text = words.get(exc.errno) if exc.errno is not None else None
    if text is None:
        reason = exc.strerror or str(exc) or type(exc).__name__
        text = f"{where}: {reason}" if name is not None else reason
    return text


def atomic_write(path: str | os.PathLike, write: Callable[[str], None], *, mode: int = 0o644) -> Path:
    """Call ``write(tmp)`` on a temporary name next to ``path``, then rename it onto ``path``.

    Readers never see half a file, and a failed write leaves no temporary file behind. The
    temporary name keeps the suffix of ``path`` (writers that pick a format from it still
    work). The file gets permissions ``mode`` whatever the umask or the writer did
    (``tempfile`` creates files 0600).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = atomic_write(Path(folder) / "a.txt", lambda tmp: Path(tmp).write_text("pig"))
    ...     p.read_text(), oct(p.stat().st_mode & 0o777)
    ('pig', '0o644')
    """
    path, mode = _target(path, mode)
    fd, tmp = _temporary(path)
    os.close(fd)

    def fill() -> None:
        write(tmp)
        os.chmod(tmp, mode)

    return _replace(tmp, path, fill)


def atomic_write_buffers(path: str | os.PathLike, buffers: Iterable[Any], *, mode: int = 0o644) -> Path:
    """Write ``buffers`` (bytes, or arrays' memory) one after another into ``path``, atomically.

    :func:`atomic_write` for bytes already in memory: the temporary is written through the
    descriptor that created it, so a file costs one ``open``, not two (the chunk stores write
    several files per task).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = atomic_write_buffers(Path(folder) / "a.bin", [b"pi", memoryview(b"g")])
    ...     p.read_bytes(), oct(p.stat().st_mode & 0o777)
    (b'pig', '0o644')
    """
    pieces = _bytes_like(buffers)
    path, mode = _target(path, mode)
    fd, tmp = _temporary(path)

    def fill() -> None:
        with open(fd, "wb", closefd=True) as f:
            for piece in pieces:
                f.write(piece)
            os.fchmod(f.fileno(), mode)

    return _replace(tmp, path, fill)


def _replace(tmp: str, path: Path, fill: Callable[[], None]) -> Path:
    """``fill()`` the temporary ``tmp``, then rename it onto ``path``; on any failure remove it."""
    try:
        fill()
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def _bytes_like(buffers: Iterable[Any]) -> list[memoryview]:
    """``buffers`` as byte views, checked before any file is made."""
    if isinstance(buffers, (str, bytes, bytearray, memoryview)):
        raise ValueError(f"buffers must be a list of bytes-like objects, got one {type(buffers).__name__}")
    try:
        items = list(buffers)
    except TypeError:
        raise ValueError(
            f"buffers must be a list of bytes-like objects, got {type(buffers).__name__}"
        ) from None
    pieces = []
    for i, item in enumerate(items):
        try:
            view = memoryview(item)
            pieces.append(view.cast("B") if view.nbytes else memoryview(b""))
        except TypeError:
            raise ValueError(
                f"buffers[{i}] must be bytes-like (bytes, an array's memory), got {type(item).__name__}"
            ) from None
    return pieces


def _target(path: str | os.PathLike, mode: int) -> tuple[Path, int]:
    """The checked target of an atomic write, its folder made and swept of dead temporaries."""
    path = check_path("path", path)
    mode = check_int("mode", mode, low=0, high=0o7777)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        check_writable(path)  # names the part of the path that is a file
        raise
    if path.is_dir():  # os.replace would fail half-way with IsADirectoryError
        raise ValueError(f"path: {str(path)!r:.160} is a folder, expected a file name")
    folder = str(path.parent)
    if folder not in _SWEPT:
        sweep_temporaries(folder)
        _SWEPT.add(folder)
    return path, mode


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file next to ``path`` (module Notes): its descriptor and name."""
    stem = path.name[:80]  # the temporary's name stays within NAME_MAX
    return tempfile.mkstemp(
        prefix=f".{stem}.pigtheory-{_HOST}-{os.getpid()}-", suffix=".tmp" + path.suffix[:20], dir=path.parent
    )


def check_writable(path: str | os.PathLike, name: str = "path") -> Path:
    """Raise ``ValueError`` now, before any work, if ``path`` could not be written later.

    ``path`` must not be a folder, and its nearest existing parent must be a folder this
    process may write in (missing folders below it are created when the file is written).

    Parameters
    ----------
    path : path-like
    name : str
        The argument's name, for the error message.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = check_path(name, path)
    try:
        is_dir = path.is_dir()
    except OSError as exc:  # a loop of links, a name the system refuses
        raise ValueError(f"{name}: cannot use {str(path)!r:.120} ({exc.strerror or exc})") from None
    if is_dir:
        raise ValueError(f"{name}: {str(path)!r} is a folder, expected a file name")
    parent = path.parent
    try:
        while not parent.exists():
            if os.path.lexists(parent):  # a link to nowhere or a loop of links: mkdir would fail
                raise ValueError(
                    f"{name}: cannot create {str(path)!r:.120}: {str(parent)!r:.120} is a symbolic link "
                    "that leads nowhere (or to a loop of links)"
                )
            if parent == parent.parent:
                break
            parent = parent.parent
        parent_is_dir = parent.is_dir()
    except OSError as exc:
        raise ValueError(f"{name}: cannot use {str(path)!r:.120} ({exc.strerror or exc})") from None
    if not parent_is_dir:
        raise ValueError(f"{name}: cannot create {str(path)!r}: {str(parent)!r} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{name}: cannot write {str(path)!r}: no permission to write in {str(parent)!r}")
    return path
