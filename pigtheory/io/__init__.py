"""Files: results and policies saved and loaded, policy files, atomic writes, the cache.

=====================  ===================================================================
:func:`save`           a result or policy to ``.npz`` (whole), or its policy to ``.json``,
                       ``.csv`` or ``.npy`` (a policy file); the suffix decides
:func:`load`           read either back (``pigtheory.load`` is the same function)
:func:`write_policy`   a policy file, with the rules to record
:func:`read_policy`    a policy file, checked against rules if given
:func:`atomic_write`   temporary file, then rename; mode 0644 (bytes in memory:
                       :func:`atomic_write_buffers`)
:func:`cached`         a result from the cache folder, or computed and saved there
=====================  ===================================================================

Formats: result archives in :mod:`pigtheory.io.archive`, policy files in
:mod:`pigtheory.io.policy_files` (the kinds of policy in :mod:`pigtheory.io.kinds`), the cache
in :mod:`pigtheory.io.cache`. Every reader refuses what it cannot read with a ``ValueError``
naming the file and the place in it, never unpickles, and never allocates more than the
memory limit of :mod:`pigtheory.guard` allows. Every writer is atomic and leaves files 0644.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from pigtheory import hold_at
>>> with tempfile.TemporaryDirectory() as folder:
...     load(save(hold_at(25), Path(folder) / "policy.npz")), load(save(hold_at(25), Path(folder) / "p.json"))
(HoldAt(n=25), HoldAt(n=25))
"""

from __future__ import annotations

from .archive import FORMAT_VERSION, META, load_archive, save_archive
from .atomic import atomic_write, atomic_write_buffers, check_writable
from .cache import (
    cache_disabled,
    cache_info,
    cache_path,
    cached,
    cached_arrays,
    clear_cache,
    resolve_cache_dir,
)
from .files import SUFFIXES, Saveable, load, load_with_rules, save
from .kinds import KINDS, PolicyKind, register_kind
from .policy_files import (
    POLICY_FORMAT,
    POLICY_SUFFIXES,
    POLICY_VERSION,
    read_policy,
    read_policy_file,
    write_policy,
)

__all__ = [
    "FORMAT_VERSION",
    "META",
    "SUFFIXES",
    "POLICY_FORMAT",
    "POLICY_VERSION",
    "POLICY_SUFFIXES",
    "KINDS",
    "PolicyKind",
    "register_kind",
    "Saveable",
    "save",
    "load",
    "load_with_rules",
    "save_archive",
    "load_archive",
    "write_policy",
    "read_policy",
    "read_policy_file",
    "atomic_write",
    "atomic_write_buffers",
    "check_writable",
    "resolve_cache_dir",
    "cache_path",
    "cached",
    "cached_arrays",
    "cache_disabled",
    "cache_info",
    "clear_cache",
]
