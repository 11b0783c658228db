"""The exact referee: evaluation, best responses, exploitability and regret of any policy of
sequential Pig (and, through :mod:`pigtheory.simultaneous`, of simultaneous Pig), with OpenSpiel's
rules and conversions both ways.

Shapes and the canonical state are documented in :mod:`pigtheory.games.policy_tables` (policies as
tables of roll probabilities ``roll[i, j, k]``) and :mod:`pigtheory.referee.evaluate`
(``value[p, i, j, k]``).

* exact win probabilities of a profile: :func:`evaluate`;
* the best response of one seat, exploitability and NashConv: :func:`best_response`,
  :func:`exploitability`, :func:`nash_conv`;
* regret against the optimum (two players): :func:`regret`; per-state diagnostics:
  :func:`diagnose`;
* simultaneous Pig: :func:`simultaneous_exploitability`;
* OpenSpiel's ``pig``: :func:`~pigtheory.referee.openspiel.openspiel_rules`,
  :func:`~pigtheory.referee.openspiel.openspiel_game`,
  :func:`~pigtheory.referee.openspiel.from_openspiel_policy`,
  :func:`~pigtheory.referee.baselines.to_openspiel_policy`,
  :func:`~pigtheory.referee.baselines.openspiel_bot`;
* exact scores of any policy or agent on the PigBench tasks: :func:`score`, :mod:`.tasks`;
  learners to score live apart, in :mod:`pigtheory.learning`.

OpenSpiel is optional (``pip install pigtheory[rl]``): only the OpenSpiel functions import it.
"""

from ..games.policy_tables import read_profile, roll_probabilities
from .best_response import BestResponse, Exploitability, best_response, exploitability, nash_conv, regret
from .diagnostics import Diagnostics, diagnose
from .evaluate import Evaluation, evaluate
from .score import ExactScoreCallback, agent_table, score
from .simultaneous import simultaneous_exploitability
from .tasks import TASKS, Task, task

__all__ = [
    "evaluate",
    "Evaluation",
    "best_response",
    "BestResponse",
    "exploitability",
    "Exploitability",
    "nash_conv",
    "regret",
    "diagnose",
    "Diagnostics",
    "roll_probabilities",
    "read_profile",
    "simultaneous_exploitability",
    "score",
    "agent_table",
    "ExactScoreCallback",
    "Task",
    "TASKS",
    "task",
]
