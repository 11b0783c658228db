"""Learners to score with the referee (PigBench's agents), apart from the referee itself.

* tabular Q-learning in self-play on sequential Pig: :func:`q_learning`;
* OpenSpiel's own tabular Q-learner on its ``pig``: :func:`openspiel_q_learning`; its MCTS bot read
  at every state: :func:`openspiel_mcts`;
* regret matching+ per state in self-play on simultaneous Pig: :func:`regret_matching`; CFR+
  (alternating updates): :func:`cfr_plus`; fictitious play: :func:`fictitious_play`;
* model-based (certainty-equivalent) learning from self-play rolls, the game solved under the
  estimated die: :func:`model_based` (sequential), :func:`model_based_simultaneous`;
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

from .fictitious import fictitious_play
from .matches import monte_carlo_exploitability, play_matches
from .model_based import model_based, model_based_details, solve_under_die
from .model_based_simultaneous import model_based_simultaneous
from .openspiel_agents import openspiel_mcts, openspiel_q_learning
from .q_learning import q_learning
from .regret import cfr_plus, regret_matching
from .run import MAX_EPISODES, LearningRun

__all__ = [
    "LearningRun",
    "MAX_EPISODES",
    "q_learning",
    "regret_matching",
    "cfr_plus",
    "fictitious_play",
    "openspiel_q_learning",
    "openspiel_mcts",
    "model_based",
    "model_based_details",
    "model_based_simultaneous",
    "solve_under_die",
    "play_matches",
    "monte_carlo_exploitability",
]
