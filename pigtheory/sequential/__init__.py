"""Sequential (turn-taking) Pig: one die, Piglet, two dice and Double Trouble.

Shapes: ``value[i, j, k]`` and ``roll[i, j, k]`` for the player to move (own score i,
opponent j, turn total k); Double Trouble adds the forced-roll flag ``l`` as a last axis.
See :mod:`pigtheory.sequential.model`.

Where the sources are implemented (Neller & Presser's slides "Perspectives on perfect and
practical play of Pig" number no equations; their slide titles are given):

==================================================  ============================================
Neller & Presser, "Pig Probabilities", "Piglet"     :func:`solve` (one die, Piglet),
                                                    :func:`solve_exact`, :func:`value_iteration`
Neller & Presser, Algorithm 1 "Policy Comparison"   :func:`compare`; :func:`best_response`
                                                    (against a fixed opponent)
Neller & Presser, practical policies (Figs. 2, 4)   :func:`scoring_turns`, :func:`base_pace_race`,
                                                    :func:`pace_race`
Zhu & Ma 2022, section 3, Algorithm 1               :func:`solve` (two dice)
Zhu & Ma 2022, section 4, eqs. (3)-(4), (6)         :func:`solve` (Double Trouble)
Zhu & Ma 2022, Table 1 (turns); Tables A2, A3       :func:`play`, :func:`pigtheory.length.game_length`;
                                                    :func:`compare`
Höhle (2023), Super Six, Algorithm 1                :func:`super_six`
Zhu & Ma 2022, last paragraph (multiplayer Pig)     :func:`equilibrium` (2..10 players); out of
                                                    core with ``store=``, planned by :func:`plan`
==================================================  ============================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._lazy import lazy_attributes
from ..engine import ENGINES
from ..guard import check_memory, sequential_estimate
from ..policies.sequential import base_pace_race, pace_race, roll_table, scoring_turns
from ..rules import Rules
from ..validation import check_choice, check_int, check_progress, check_tol
from .best_response import SequentialResponse, best_response, opponent_turn_values
from .compare import Comparison, compare
from .model import SequentialSolution, check_rules
from .one_die import solve_exact, solve_one_die
from .play import Games, play
from .super_six import super_six
from .turns import turn_matrix
from .value_iteration import value_iteration

if TYPE_CHECKING:
    from .multiplayer.chunked import ChunkedEquilibrium
    from .multiplayer.equilibrium import MultiplayerEquilibrium, MultiplayerPolicy, equilibrium
    from .multiplayer.plan import ChunkedPlan, plan

_LAZY = {
    **dict.fromkeys(
        ("equilibrium", "MultiplayerEquilibrium", "MultiplayerPolicy"), ".multiplayer.equilibrium"
    ),
    "ChunkedEquilibrium": ".multiplayer.chunked",
    "ChunkedPlan": ".multiplayer.plan",
    "plan": ".multiplayer.plan",
}
"""The names imported on first use, and their modules: the multiplayer family, and its
out-of-core solve with the runtime and the file formats, which a two-player solve does not need
(``import pigtheory.sequential`` was 30% slower with them)."""

__all__ = [
    "solve",
    "compare",
    "Comparison",
    "SequentialSolution",
    "solve_exact",
    "value_iteration",
    "roll_table",
    "scoring_turns",
    "base_pace_race",
    "pace_race",
    "play",
    "Games",
    "super_six",
    "turn_matrix",
    "best_response",
    "SequentialResponse",
    "opponent_turn_values",
    "equilibrium",
    "MultiplayerEquilibrium",
    "MultiplayerPolicy",
    "ChunkedEquilibrium",
    "ChunkedPlan",
    "plan",
]


def solve(
    *,
    rules: Rules = Rules(),
    tol: float = 1e-12,
    max_iter: int = 100_000,
    engine: str = "auto",
    progress: bool | None = None,
    max_memory: Any = None,
) -> SequentialSolution:
    """Optimal two-player sequential play.

    One die (and Piglet): Neller & Presser's equations (slides "Pig Probabilities"; the
    papers' value iteration), solved by exact backward induction by score levels
    (:func:`~pigtheory.sequential.one_die.solve_one_die`; ``tol`` and ``max_iter`` unused).
    Two dice and Double Trouble: value iteration by whole turns until the largest change of
    the start-of-turn values is below ``tol`` (:mod:`pigtheory.sequential.two_dice`), with a
    :class:`~pigtheory.validation.ConvergenceWarning` if ``max_iter`` sweeps do not get there.

    Parameters
    ----------
    rules : Rules
        Two players; one die, two dice or Double Trouble.
    tol : float
        Two dice: stop when a sweep changes the start-of-turn values by less (> 0).
    max_iter : int
        Two dice: at most this many sweeps (>= 1).
    engine : {"auto", "numba", "numpy"}
        One die: the compiled level pass or the batched numpy one (the same values to
        rounding, the same choices); ``"auto"`` decides by the size of the solve
        (:func:`pigtheory.engine.choose_engine`). Two dice have the numpy sweeps only:
        ``"numba"`` is a ``ValueError`` there.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    SequentialSolution
        ``value[i, j, k]`` (win probability of the player to move: own score i, opponent j,
        turn total k) and ``policy[i, j, k]`` (True: roll), shape ``(goal, goal, goal)``;
        Double Trouble adds a last axis of 2 (``l``). Two dice: Zhu & Ma (2022) section 3
        (Algorithm 1); Double Trouble: section 4, eqs. (3)-(4) with the boundary (6).

    Examples
    --------
    >>> round(solve(rules=Rules.piglet(goal=2)).first_player_win, 6)
    0.571429
    """
    check_memory(sequential_estimate(rules), max_memory)
    check_rules(rules)
    tol = check_tol(tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_choice("engine", engine, ENGINES)
    check_progress(progress)
    if rules.roll_model().simple:
        return solve_one_die(rules=rules, engine=engine, progress=progress)
    if engine == "numba":
        raise ValueError("engine: 'numba' is for one die; two-dice Pig has the numpy sweeps only")
    from .two_dice import solve_two_dice

    return solve_two_dice(rules=rules, tol=tol, max_iter=max_iter, progress=progress)


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())
