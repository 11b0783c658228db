"""Learners to score with the referee (PigBench's agents), apart from the referee itself.

* tabular Q-learning in self-play on sequential Pig: :func:`q_learning`;
* OpenSpiel's own tabular Q-learner on its ``pig``: :func:`openspiel_q_learning`; its MCTS bot read
  at every state: :func:`openspiel_mcts`;
* regret matching+ per state in self-play on simultaneous Pig: :func:`regret_matching`;
* Monte Carlo matches of sequential tables and the Monte Carlo estimate of exploitability a
  win-rate study would report: :func:`play_matches`, :func:`monte_carlo_exploitability`.

Each learner returns a :class:`LearningRun` (its policy at the checkpoints), which
:func:`pigtheory.referee.score` and the task registry (:mod:`pigtheory.referee.tasks`) score
exactly.

Shapes
------
Sequential policies are the referee's tables ``roll[i, j, k]``
(:mod:`pigtheory.games.policy_tables`); the simultaneous learner's policy is a
:class:`~pigtheory.policies.MixedPolicy` over the thresholds ``1..goal - i`` at every state (own
score first).
"""

from .matches import monte_carlo_exploitability, play_matches
from .openspiel_agents import openspiel_mcts, openspiel_q_learning
from .q_learning import q_learning
from .regret import regret_matching
from .run import MAX_EPISODES, LearningRun

__all__ = [
    "LearningRun",
    "MAX_EPISODES",
    "q_learning",
    "regret_matching",
    "openspiel_q_learning",
    "openspiel_mcts",
    "play_matches",
    "monte_carlo_exploitability",
]
