"""The canonical policy array of sequential Pig: any policy as one table of roll probabilities
(the one converter), and profiles of them (:meth:`pigtheory.games.SequentialGame.policy_table`).

Shapes
------
The referee's canonical state is seen by the player to move: own score first, then the other
players' scores in turn order (the next player first), then the turn total:
``(i, j, k)`` for two players. A policy becomes a float table ``roll[i, j, k]`` = P(roll) at
that state, shape ``(goal,) * (players + 1)``; entries with ``i + k >= goal`` are 0 and are
never read (the player has reached the goal and stops). At ``k = 0`` a policy may stop too: that
passes the turn (legal in OpenSpiel's ``pig`` and in :func:`pigtheory.sequential.solve`).

Accepted policies
-----------------
* a float array of that shape with entries in [0, 1] (P(roll)), or a bool array (roll or not);
* a callable ``policy(i, j, k) -> P(roll)`` (own score, other scores in turn order, turn
  total); it is first tried once on whole index arrays (a vectorised callable returns the full
  table at once) and otherwise called state by state;
* anything :func:`pigtheory.sequential.roll_table` reads: ``hold_at(n)``, an int n, a
  :class:`~pigtheory.policies.sequential.RollTable`, a threshold table, the optimum
  (:func:`pigtheory.sequential.solve`), the practical policies;
* an n-player sequential policy, :class:`~pigtheory.sequential.multiplayer.equilibrium.MultiplayerPolicy`
  or the :class:`~pigtheory.sequential.multiplayer.equilibrium.MultiplayerEquilibrium` that holds one
  (:func:`pigtheory.sequential.equilibrium`), mixed states included;
* an OpenSpiel policy for ``pig`` (an object with ``action_probabilities``, or a
  ``pyspiel.Policy``): read by :func:`pigtheory.referee.openspiel.from_openspiel_policy` on the policy's
  own ``game`` (or on the game of the rules, :func:`pigtheory.referee.openspiel.openspiel_game`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _wiring
from ..policies.sequential import table_shape_hint
from ..rules import Rules
from ..validation import check_int, check_rules

__all__ = ["roll_probabilities", "read_profile", "check_referee_rules"]


MAX_SEATS = 10
"""Most seats the referee scores (its tables have ``players + 1`` axes of ``goal`` entries)."""


def check_referee_rules(rules: Any, players: int | None = None) -> Rules:
    """Rules the referee reads: one die (scores never decrease), ``players`` if given."""
    check_rules(rules)
    if players is not None:
        check_int("players", players, low=1)
    if rules.dice != 1:
        raise ValueError(f"rules.dice must be 1 for the referee (scores never decrease), got {rules.dice}")
    if rules.players > MAX_SEATS:
        raise ValueError(f"rules.players must be in 2..{MAX_SEATS} for the referee, got {rules.players}")
    if players is not None and rules.players != players:
        raise ValueError(f"rules.players must be {players} here, got {rules.players}")
    return rules


def _grid(rules: Rules) -> tuple[np.ndarray, ...]:
    n, g = rules.players, rules.goal
    return tuple(np.arange(g).reshape((1,) * d + (g,) + (1,) * (n - d)) for d in range(n + 1))


def _live(rules: Rules) -> np.ndarray:
    idx = _grid(rules)
    return np.broadcast_to(idx[0] + idx[-1] < rules.goal, (rules.goal,) * (rules.players + 1))


def _from_array(table: np.ndarray, rules: Rules) -> np.ndarray:
    shape = (rules.goal,) * (rules.players + 1)
    if table.shape != shape:
        raise ValueError(
            f"policy: a table of roll probabilities for {rules} has shape {shape}, got {table.shape}"
            + table_shape_hint(table.shape, rules)
        )
    if table.dtype.kind not in "biuf":
        raise ValueError(f"policy: a table of roll probabilities holds numbers, got dtype {table.dtype}")
    # one pass to a float copy, 0 at the dead states; NaN fails both comparisons below
    table = np.where(_live(rules), table, np.float64(0.0)).astype(np.float64, copy=False)
    if not (table.min() >= 0.0 and table.max() <= 1.0):
        raise ValueError("policy: roll probabilities must lie in [0, 1]")
    return table


def _from_callable(policy: Callable[..., Any], rules: Rules) -> np.ndarray:
    shape = (rules.goal,) * (rules.players + 1)
    live = _live(rules)
    idx = np.nonzero(live)
    try:
        out = np.asarray(policy(*idx), dtype=float)
        if out.shape != idx[0].shape:
            raise TypeError
        vectorised = np.zeros(shape)
        vectorised[idx] = out
        return vectorised
    except Exception:  # a scalar callable: fall back to one call per state
        pass
    table = np.zeros(shape)
    for state in zip(*(a.tolist() for a in idx), strict=True):
        answer = policy(*state)
        try:
            table[state] = float(answer)
        except (TypeError, ValueError):
            raise ValueError(
                f"policy: the callable returned {answer!r:.40} at state {state}; it must return P(roll), a number"
            ) from None
    return table


def _is_multiplayer(policy: Any) -> bool:
    """A multiplayer sequential policy: a :class:`~pigtheory.policies.multiplayer.MultiplayerRollTable`,
    or what :func:`pigtheory.sequential.equilibrium` returns (its ``MultiplayerPolicy``, or the
    equilibrium that holds one: pure choices and mixed states; read by what they hold, as this
    layer does not import the solvers)."""
    from ..policies.multiplayer import MultiplayerRollTable

    if isinstance(policy, MultiplayerRollTable):
        return True
    pol = getattr(policy, "policy", policy)
    return all(hasattr(pol, a) for a in ("roll_table", "mixed_states", "mixed_prob", "rules"))


def _from_multiplayer(policy: Any, rules: Rules) -> np.ndarray:
    """The table of a :class:`~pigtheory.sequential.multiplayer.equilibrium.MultiplayerPolicy` (or of an
    equilibrium's policy): its pure choices with its mixed states' roll probabilities."""
    from ..policies.multiplayer import MultiplayerRollTable

    if isinstance(policy, MultiplayerRollTable):  # the same policy, as a .json or .csv file holds it
        if policy.allow_pass:
            raise ValueError(
                "policy: a multiplayer roll table with passes (allow_pass=True) is not sequential Pig"
            )
        return _from_array(np.array(policy.check(rules).prob), rules)
    pol = getattr(policy, "policy", policy)
    r = pol.rules
    if (r.players, r.goal, r.roll_distribution()) != (rules.players, rules.goal, rules.roll_distribution()):
        raise ValueError(f"policy: a multiplayer sequential policy for {r}, not for {rules}")
    table = pol.roll_table().astype(float)
    for row, p in zip(pol.mixed_states, pol.mixed_prob, strict=True):
        table[tuple(int(x) for x in row)] = float(p)
    return _from_array(table, rules)


def _openspiel() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(from_openspiel_policy, openspiel_game)`` of :mod:`pigtheory.referee.openspiel`, handed
    down by the package root (:data:`pigtheory._wiring.openspiel_readers`)."""
    if _wiring.openspiel_readers is None:  # pragma: no cover - the package root sets it
        raise ValueError("policy: an OpenSpiel policy, and the OpenSpiel reader is not loaded")
    return _wiring.openspiel_readers()


def roll_probabilities(policy: Any, rules: Rules = Rules()) -> np.ndarray:
    """Any policy of sequential Pig as the table ``roll[i, j, k]`` = P(roll).

    Parameters
    ----------
    policy : policy
        See the module docstring (tables, callables, pigtheory policies, OpenSpiel policies).
    rules : Rules
        One die, ``rules.players`` players (OpenSpiel policies, tables, callables and
        multiplayer policies: any number; pigtheory's two-player sequential policies: two).

    Returns
    -------
    numpy.ndarray of float, shape ``(goal,) * (players + 1)``
        Read-only; 0 where ``own + k >= goal``.

    Raises
    ------
    ValueError
        A table of the wrong shape, probabilities outside [0, 1], rules with two dice.

    Examples
    --------
    >>> from pigtheory import hold_at
    >>> roll_probabilities(hold_at(2), Rules(goal=3))[:, 0].tolist()  # own score i, k; j = 0
    [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    check_referee_rules(rules)
    if isinstance(policy, type):
        raise ValueError(
            f"policy: the class {policy.__name__}, not a policy; pass an instance (hold_at(25), a table)"
        )
    if isinstance(policy, np.ndarray):
        table = _from_array(policy, rules)
    elif hasattr(policy, "action_probabilities") or type(policy).__module__ == "pyspiel":
        from_openspiel_policy, openspiel_game = _openspiel()
        game = getattr(policy, "game", None) or openspiel_game(rules)
        tables = from_openspiel_policy(game, policy)
        if tables.shape[1:] != (rules.goal,) * (rules.players + 1):
            raise ValueError(f"policy: an OpenSpiel policy for another game than {rules}")
        table = np.array(tables[0])
    elif callable(policy) and not hasattr(policy, "roll_table"):
        table = _from_callable(policy, rules)
        table = _from_array(table, rules)
    elif _is_multiplayer(policy):
        table = _from_multiplayer(policy, rules)
    else:
        if rules.players != 2:
            raise ValueError(
                f"policy: {policy!r} is a two-player sequential policy; rules.players={rules.players}"
            )
        from ..policies.sequential import roll_table

        table = roll_table(policy, rules).astype(float)
    table.setflags(write=False)
    return table


def read_profile(profile: Any, rules: Rules) -> list[np.ndarray]:
    """One table of roll probabilities per seat (seat 0 moves first).

    Parameters
    ----------
    profile : policy or sequence of policies
        One policy played by every seat, or ``rules.players`` policies in seat order. An
        OpenSpiel policy stands for all seats (it is queried for each player).
    rules : Rules

    Returns
    -------
    list of numpy.ndarray
        ``rules.players`` read-only tables (:func:`roll_probabilities`).
    """
    check_referee_rules(rules)
    n = rules.players
    if hasattr(profile, "action_probabilities") or type(profile).__module__ == "pyspiel":
        from_openspiel_policy, openspiel_game = _openspiel()
        game = getattr(profile, "game", None) or openspiel_game(rules)
        tables = from_openspiel_policy(game, profile)
        if tables.shape != (n,) + (rules.goal,) * (n + 1):
            raise ValueError(f"profile: an OpenSpiel policy for another game than {rules}")
        return [tables[p] for p in range(n)]
    if isinstance(profile, Sequence) and not isinstance(profile, (str, bytes)):
        if len(profile) != n:
            raise ValueError(f"profile: {n} policies (one per seat) for {rules}, got {len(profile)}")
        return [roll_probabilities(p, rules) for p in profile]
    table = roll_probabilities(profile, rules)
    return [table] * n
