"""Score any policy or agent exactly on a PigBench task, from any training loop.

* :func:`score`: one plain function, the task's measure (exploitability or NashConv) of a
  policy, a learner's run, or a Gymnasium/PettingZoo agent;
* :func:`agent_table`: the batched adapter, an agent's action probabilities at every state read
  in a few vectorised calls, as the referee's table;
* :class:`ExactScoreCallback`: a Stable-Baselines3-style callback that logs the exact score
  every N steps (duck-typed: Stable-Baselines3 is never imported here).

Shapes
------
Sequential observations are those of the environments (:mod:`pigtheory.envs.gym_sequential`,
:mod:`pigtheory.envs.pettingzoo_sequential`): int64 rows ``[own, others..., turn_total, 0]``
(the others in turn order, the last field the mover relative to the agent, 0 when it acts).
Actions: ``0`` hold, ``1`` roll. An agent answers a batch ``obs`` of shape ``(B, players + 2)``
with P(roll) (shape ``(B,)``), actions (``(B,)`` of 0/1) or action probabilities
``(B, 2)`` (hold, roll).

Notes
-----
A policy played in both seats of a two-player game (self-play, the usual case while training)
is scored with one evaluation and one best-response solve: the responder's values with itself
and with the opponent to move come out of the same solve (:func:`pigtheory.sequential.pair_kernels.pair`),
which gives both seats' best responses at once.

References
----------
A. Raffin et al., "Stable-Baselines3: reliable reinforcement learning implementations", JMLR 22
(2021) (the callback protocol); M. Lanctot et al., NeurIPS 2017 (NashConv).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.policy_tables import read_profile
from ..guard import Estimate, check_memory
from ..sequential import pair_kernels as kernels
from ..validation import check_int
from .evaluate import _evaluate_tables, _model
from .tasks import Task, task

__all__ = ["score", "agent_table", "agent_observations", "ExactScoreCallback"]


def _is_agent(x: Any) -> bool:
    """A Gymnasium/PettingZoo-style agent: ``predict`` (Stable-Baselines3) or an ``policy``
    with ``get_distribution``; plain policies (tables, callables on states) are not."""
    return hasattr(x, "predict") or hasattr(getattr(x, "policy", None), "get_distribution")


def agent_observations(t: Any) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Every live decision state of a sequential task as one observation array.

    Returns
    -------
    obs : numpy.ndarray of int64, shape ``(states, players + 2)``
        Module Shapes.
    index : tuple of numpy.ndarray
        The states' indices into the table ``(goal,) * (players + 1)``.
    """
    t = task(t)
    if t.play != "sequential":
        raise ValueError(f"task: the batched adapter reads sequential agents, got {t.name} ({t.play})")
    n, g = t.rules.players, t.rules.goal
    check_memory(
        Estimate(
            f"observations ({t.rules})", g ** (n + 1), 8 * (n + 3) * g ** (n + 1) + 10**6, "lower the goal"
        )
    )
    grid = np.indices((g,) * (n + 1)).reshape(n + 1, -1)
    live = grid[0] + grid[-1] < g
    idx = tuple(grid[:, live])
    obs = np.zeros((idx[0].size, n + 2), dtype=np.int64)
    for c in range(n + 1):
        obs[:, c] = idx[c]
    return obs, idx


def _probs_fn(agent: Any, deterministic: bool) -> Any:
    pol: Any = getattr(agent, "policy", None)
    if not deterministic and hasattr(pol, "get_distribution") and hasattr(pol, "obs_to_tensor"):
        import torch  # only with a Stable-Baselines3 model, which has it

        def probs(obs: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                tensor = pol.obs_to_tensor(obs)[0]
                return pol.get_distribution(tensor).distribution.probs.cpu().numpy()

        return probs
    if hasattr(agent, "predict"):
        return lambda obs: np.asarray(agent.predict(obs, deterministic=True)[0])
    if callable(agent):
        return agent
    raise ValueError(
        f"agent: a callable on observations or a model with predict(), got {type(agent).__name__}"
    )


def agent_table(
    agent: Any, t: Any, *, batch_size: int = 1 << 16, deterministic: bool = False, hold_at_zero: bool = False
) -> np.ndarray:
    """The referee's table of an agent: its P(roll) at every state, read in batches.

    Parameters
    ----------
    agent : callable or model
        ``agent(obs) -> P(roll) | actions | (B, 2) probabilities`` on a batch of observations
        (module Shapes); a Stable-Baselines3 model (its action distribution, or with
        ``deterministic=True`` its ``predict``); anything with ``predict(obs)`` returning
        ``(actions, state)``.
    t : Task or str
        A sequential task.
    batch_size : int
        Observations per call (>= 1).
    deterministic : bool
        Read a model's greedy action instead of its action probabilities.
    hold_at_zero : bool
        The environment lets a hold at turn total 0 pass the turn (OpenSpiel's rule); otherwise
        (the Gymnasium default) it plays as a roll, and the table rolls there.

    Returns
    -------
    numpy.ndarray of float, shape ``(goal,) * (players + 1)``
        P(roll), 0 at the states where the game is won.
    """
    t = task(t)
    batch_size = check_int("batch_size", batch_size, low=1)
    obs, idx = agent_observations(t)
    fn = _probs_fn(agent, deterministic)
    out = np.empty(obs.shape[0])
    for lo in range(0, obs.shape[0], batch_size):
        a = np.asarray(fn(obs[lo : lo + batch_size]), dtype=float)
        size = min(batch_size, obs.shape[0] - lo)
        if a.ndim == 2 and a.shape == (size, 2):
            a = a[:, 1]
        if a.shape != (size,):
            raise ValueError(f"agent: answered a batch of {size} observations with shape {a.shape}")
        out[lo : lo + size] = a
    if not (out.min() >= 0.0 and out.max() <= 1.0):
        raise ValueError("agent: P(roll) (or actions 0/1) must lie in [0, 1]")
    table = np.zeros((t.rules.goal,) * (t.rules.players + 1))
    table[idx] = out
    if not hold_at_zero:  # a hold at turn total 0 plays as a roll
        table[..., 0] = 1.0
    return table


def _self_play_exploitability(table: np.ndarray, t: Task) -> float:
    """Two players, no horizon, one table in both seats: one evaluation, one best-response
    solve (module Notes)."""
    g = t.rules.goal
    pvec, p_bust = _model(t.rules)
    ev = _evaluate_tables(table, table, t.rules, None)
    w0, w1 = np.empty((g, g, g)), np.empty((g, g, g))
    choice = np.empty((g, g, g), dtype=np.bool_)
    out = np.zeros(2)
    kernels.pair()(g, kernels.Die(pvec, p_bust), table, table, 1.0, 0.0, True, 100, w0, w1, choice, out)
    br = np.array([w0[0, 0, 0], w1[0, 0, 0]])
    return float((br - ev.value_start).sum() / 2)


def score(policy_or_agent: Any, t: Any, *, agent: bool | None = None, **adapter: Any) -> float:
    """The task's exact measure (exploitability or NashConv) of a policy or an agent.

    Parameters
    ----------
    policy_or_agent : policy, LearningRun or agent
        Anything the task reads (:func:`pigtheory.referee.read_profile` for sequential tasks,
        a simultaneous policy for simultaneous ones, played in every seat, or one per seat); a
        learner's run (its last policy); an agent (a model with ``predict``, read by
        :func:`agent_table`).
    t : Task or str
        A task of :mod:`pigtheory.referee.tasks`.
    agent : bool, optional
        Read ``policy_or_agent`` as an agent on observations (:func:`agent_table`); default:
        only objects with ``predict`` (or a Stable-Baselines3 ``policy``) are, a plain callable
        is a policy on states ``(i, j, k)``.
    **adapter
        Passed to :func:`agent_table` for an agent.

    Returns
    -------
    float
        >= 0 up to rounding; 0 at an equilibrium.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> round(score(hold_at(20), "pig-100"), 4)
    0.0549
    """
    if agent is not None and not isinstance(agent, bool):
        raise ValueError(f"agent must be True, False or None, got {agent!r}")
    t = task(t)
    x = policy_or_agent
    if hasattr(x, "policies") and hasattr(x, "episodes"):  # a LearningRun: its last snapshot
        x = x.policies[-1]
    if agent or (agent is None and _is_agent(x)):
        x = agent_table(x, t, **adapter)
    if t.play == "sequential" and t.rules.players == 2 and t.horizon is None:
        if not (isinstance(x, (list, tuple)) and len(x) == 2):
            table = np.ascontiguousarray(read_profile(x, t.rules)[0], dtype=np.float64)
            return _self_play_exploitability(table, t)
    return t.measure_of(x)


class ExactScoreCallback:
    """Logs the exact score of the model being trained every ``every`` steps.

    Follows Stable-Baselines3's callback protocol without importing it: ``init_callback(model)``,
    ``on_training_start``, ``on_step()`` (counts ``n_calls``, calls ``_on_step``, returns True:
    training goes on), ``on_rollout_start/end``, ``on_training_end``, ``update_locals``; so
    ``model.learn(total_timesteps, callback=ExactScoreCallback(...).as_sb3())`` or, with any
    loop, ``cb.on_step()`` after each step.

    Parameters
    ----------
    t : Task or str
    every : int
        Score when ``n_calls`` is a multiple of it (>= 1).
    model : object, optional
        The agent scored (else the one ``init_callback`` receives).
    to_policy : callable, optional
        ``to_policy(model) -> policy`` when the model is not an agent :func:`score` reads (a
        tabular learner's table, say).
    **adapter
        Passed to :func:`agent_table`.

    Attributes
    ----------
    history : list of dict
        ``{"step": n_calls, "timesteps": model.num_timesteps or n_calls, "score": float}``.
    n_calls : int
    """

    def __init__(
        self, t: Any, every: int = 10_000, *, model: Any = None, to_policy: Any = None, **adapter: Any
    ):
        self.task = task(t)
        self.every = check_int("every", every, low=1)
        self.model = model
        self.to_policy = to_policy
        self.adapter = adapter
        self.n_calls = 0
        self.num_timesteps = 0
        self.history: list[dict[str, Any]] = []
        self.logger: Any = getattr(model, "logger", None)
        self.locals: dict[str, Any] = {}
        self.globals: dict[str, Any] = {}

    def init_callback(self, model: Any) -> None:
        self.model = model
        self.logger = getattr(model, "logger", None)

    def on_training_start(self, locals_: dict[str, Any], globals_: dict[str, Any]) -> None:
        self.locals, self.globals = locals_, globals_

    def on_rollout_start(self) -> None:
        pass

    def on_rollout_end(self) -> None:
        pass

    def on_training_end(self) -> None:
        pass

    def update_locals(self, locals_: dict[str, Any]) -> None:
        self.locals.update(locals_)

    def update_child_locals(self, locals_: dict[str, Any]) -> None:
        pass

    def on_step(self) -> bool:
        self.n_calls += 1
        self.num_timesteps = int(getattr(self.model, "num_timesteps", self.n_calls))
        return self._on_step()

    def _on_step(self) -> bool:
        if self.n_calls % self.every == 0:
            self.record()
        return True

    def record(self) -> float:
        """Score the model now, append to ``history`` and to the logger (``logger.record``)."""
        x = self.to_policy(self.model) if self.to_policy is not None else self.model
        value = score(x, self.task, **self.adapter)
        self.history.append({"step": self.n_calls, "timesteps": self.num_timesteps, "score": value})
        if self.logger is not None and hasattr(self.logger, "record"):
            self.logger.record(f"pigbench/{self.task.measure}", value)
        return value

    def as_sb3(self) -> Any:
        """This callback as a real ``stable_baselines3`` ``BaseCallback`` (imported now)."""
        from stable_baselines3.common.callbacks import BaseCallback

        outer = self

        class _Exact(BaseCallback):  # type: ignore[misc]
            def _on_step(self) -> bool:
                outer.model, outer.logger = self.model, self.logger
                outer.n_calls, outer.num_timesteps = self.n_calls, self.num_timesteps
                return outer._on_step()

        return _Exact()
