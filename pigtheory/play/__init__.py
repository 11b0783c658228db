"""Play Pig against any solved policy: a static web site and a terminal game.

Every opponent comes with the person's exact best response against it, so the live numbers
are exact: the person's win probability at the current state, the best move there, and what
each of the person's moves gave away.

===========================================  ==============================================
:func:`opponent`, :func:`default_opponents`  the opponents, by name (solved, cached)
:func:`opponents_from_file`                  an opponent from a saved policy or result
:class:`Game`                                the rules, move by move (the reference engine)
:class:`Analyst`                             the live numbers at a game's state
:func:`build_site`                           the static site (``pigtheory site``)
:func:`check_site_folder`                    where a site may be written, checked first
:func:`play_terminal`                        the terminal game (``pigtheory play``)
:class:`Mulberry32`                          the seeded generator shared with the browser
:mod:`pigtheory.play.multiplayer`            n-player sequential games against the
                                             equilibrium (terminal and ``multi.html``)
===========================================  ==============================================

The person's best responses come from the solvers: :func:`pigtheory.sequential.best_response`
(sequential play) and :func:`pigtheory.simultaneous.best_response` with
``strategies="stopping"`` (simultaneous play: the person decides roll by roll).

The page's JavaScript (``static/``) implements the same rules and numbers; the tests play
seeded games through both and compare every move and every number.
"""

from .analysis import Analyst, Reading
from .file_opponents import opponents_from_file
from .game import Game, OpponentTable
from .opponents import NAMES, Opponent, default_opponents, opponent
from .rng import Mulberry32, quantize_weights, streams
from .site import MARKER, SiteReport, build_site, check_site_folder, read_site_data
from .terminal import play_terminal

__all__ = [
    "Analyst",
    "Reading",
    "Game",
    "OpponentTable",
    "NAMES",
    "Opponent",
    "default_opponents",
    "opponent",
    "opponents_from_file",
    "Mulberry32",
    "quantize_weights",
    "streams",
    "SiteReport",
    "build_site",
    "check_site_folder",
    "MARKER",
    "read_site_data",
    "play_terminal",
]
