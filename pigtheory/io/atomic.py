"""Atomic writes: a file appears whole, with permissions 0644, or not at all."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..validation import NAME_MAX, check_int, check_path

__all__ = ["atomic_write", "check_writable", "NAME_MAX"]


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
    path = check_path("path", path)
    check_int("mode", mode, low=0, high=0o7777)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp" + path.suffix, dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


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
