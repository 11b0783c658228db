"""``pigtheory cache info`` and ``pigtheory cache clear``: the folder of cached solves."""

from __future__ import annotations

import argparse

from .args import add_common_arguments, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cache",
        help="the folder of cached solves: where it is and its size (info), or empty it (clear)",
        description="Commands that solve (sequential, play, site, ...) keep their solves in a cache "
        "folder and reuse them: $PIGTHEORY_CACHE_DIR if set, else the user's cache folder "
        "(~/.cache/pigtheory on Linux). 'info' shows it and its size; 'clear' removes its entries. "
        "Any command's --no-cache neither reads nor writes it.",
    )
    p.add_argument(
        "action", choices=("info", "clear"), help="info: folder and size; clear: remove the entries"
    )
    add_common_arguments(p)
    p.set_defaults(func=_cache)


def _cache(args: argparse.Namespace) -> int:
    from ..guard import format_bytes
    from ..io.cache import cache_info, clear_cache

    record = cache_info() if args.action == "info" else clear_cache()
    verb = "holds" if args.action == "info" else "removed"
    line = f"{record['folder']}: {verb} {record['entries']} solves, {format_bytes(record['bytes'])}"
    emit(args, record, [line])
    return 0
