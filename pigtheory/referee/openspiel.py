"""OpenSpiel's ``pig`` and the referee: its rules, its policies as tables, ours as its policies
and bots.

OpenSpiel 2.0.2's ``pig`` (``pyspiel.load_game("pig", {...})``) has the parameters ``players``
(2..10), ``winscore`` (the goal), ``diceoutcomes`` (faces; face 1 busts, face f scores f),
``piglet`` (every face but 1 scores one point) and ``horizon`` (default 1000). Its rules, read
from its legal actions and its ``DoApplyAction``:

* action 0 rolls, action 1 stops; stopping at a turn total of 0 is legal (it passes the turn);
* once ``score + turn total >= winscore`` the only legal action is to stop, which wins;
* every decision (roll or stop) is a move; once ``horizon`` moves are made the game is over,
  a draw (return 0 for everybody) unless the last move was that winning stop; a roll made as the
  horizon-th move ends the game before its die is read;
* returns: 1 to the winner, ``-1/(players - 1)`` to the others, 0 to all in a draw.

Without the horizon these are the rules of :mod:`pigtheory.sequential` (a player who reaches
the goal wins; a pass at 0 is allowed), so the referee's values are OpenSpiel's; with it the
referee adds the moves left to the state (:func:`pigtheory.referee.evaluate`, ``horizon=``).

OpenSpiel is optional: this module imports ``pyspiel`` only inside its functions, and a missing
``open_spiel`` raises an ImportError naming the extra (``pip install pigtheory[rl]``).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..guard import Estimate, check_memory
from ..rules import Rules
from ..validation import check_callable, check_openspiel_game, check_rules

__all__ = [
    "openspiel_rules",
    "openspiel_game",
    "from_openspiel_policy",
    "require_openspiel",
    "PigtheoryPolicyBase",
]

_OBS = re.compile(r"Scores:((?: -?\d+)+), Turn total: (\d+)\nCurrent player: (\d+)")


def require_openspiel() -> Any:
    """Import and return ``pyspiel``, or raise an ImportError that names the extra."""
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "this function needs OpenSpiel: pip install 'pigtheory[rl]' (or pip install open-spiel)"
        ) from exc
    return pyspiel


def openspiel_rules(game: Any) -> tuple[Rules, int]:
    """The pigtheory rules and the horizon of an OpenSpiel ``pig`` game.

    Parameters
    ----------
    game : pyspiel.Game
        ``pyspiel.load_game("pig", {...})``.

    Returns
    -------
    rules : Rules
        ``goal=winscore``, ``die_faces=diceoutcomes``, ``players``; Piglet's
        ``face_points=(1,) * (diceoutcomes - 1)``.
    horizon : int

    Examples
    --------
    >>> import pyspiel
    >>> openspiel_rules(pyspiel.load_game("pig", {"winscore": 6, "piglet": True, "diceoutcomes": 2}))
    (Rules(goal=6, die_faces=2, bust_face=1, players=2, dice=1, double_trouble=False, face_points=(1,)), 1000)
    """
    check_openspiel_game("game", game)
    p = game.get_parameters()
    d = int(p["diceoutcomes"])
    points = (1,) * (d - 1) if p["piglet"] else None
    rules = Rules(goal=int(p["winscore"]), die_faces=d, players=int(p["players"]), face_points=points)
    return rules, int(p["horizon"])


def openspiel_game(rules: Rules = Rules(), *, horizon: int = 1000) -> Any:
    """OpenSpiel's ``pig`` with these rules.

    Parameters
    ----------
    rules : Rules
        One die with face 1 busting and face f scoring f (``Rules(die_faces=d)``), or Piglet's
        points ``(1,) * (d - 1)``.
    horizon : int
        OpenSpiel's move limit (its default 1000).

    Returns
    -------
    pyspiel.Game
    """
    check_rules(rules)
    if rules.dice != 1:
        raise ValueError(f"rules.dice must be 1 for OpenSpiel's pig, got {rules.dice}")
    pyspiel = require_openspiel()
    piglet = rules.face_points is not None and set(rules.face_points) == {1}
    if rules.bust_face != 1 or not (piglet or rules.scoring_faces == tuple(range(2, rules.die_faces + 1))):
        raise ValueError(
            f"rules: OpenSpiel's pig has face 1 bust and faces 2..d (or Piglet's 1s), got {rules}"
        )
    if not isinstance(horizon, int) or isinstance(horizon, bool) or not 1 <= horizon <= 2**31 - 1:
        raise ValueError(f"horizon must be an integer in 1..2**31-1 (OpenSpiel's int), got {horizon!r:.80}")
    return pyspiel.load_game(
        "pig",
        {
            "players": rules.players,
            "winscore": rules.goal,
            "diceoutcomes": rules.die_faces,
            "piglet": bool(piglet),
            "horizon": horizon,
        },
    )


def _parse(state: Any) -> tuple[tuple[int, ...], int, int]:
    m = _OBS.match(str(state))
    if m is None:
        raise ValueError(f"state: not a state of OpenSpiel's pig: {str(state)!r}")
    return tuple(int(s) for s in m.group(1).split()), int(m.group(2)), int(m.group(3))


def _gains(rules: Rules) -> dict[int, int]:
    """Chance outcome -> points added (outcome 0 busts)."""
    if rules.face_points is not None:
        return {1: 1}
    return {o: o + 1 for o in range(1, rules.die_faces)}


def _walk(state: Any, limit: int, gains: dict[int, int]) -> dict[int, Any]:
    """Decision states of the same turn with turn totals k < limit: ``{k: state}``, each built
    from the one with the smallest turn total that reaches it (one roll, one die)."""
    found = {0: state}
    for k in range(limit):
        s = found.get(k)
        if s is None:
            continue
        rolled = None
        for outcome, gain in gains.items():
            kk = k + gain
            if kk < limit and kk not in found:
                if rolled is None:
                    rolled = s.child(0)
                found[kk] = rolled.child(outcome)
    return found


def _chains(g: int, gains: dict[int, int]) -> list[list[int]]:
    """Die outcomes that walk one turn through every reachable turn total below ``g``, asking
    the policy once at each: the chain from 0 adds the smallest gain each roll; with gains of
    2 and more, the odd totals come from a second chain that starts with the smallest odd gain
    (a negative outcome rolls without asking, k = 0 being asked already)."""
    small = min(gains, key=gains.__getitem__)
    step = gains[small]
    chains = [[small] * (g // step + 1)]
    odd = [o for o, v in gains.items() if v % step]
    if step == 2 and odd:
        first = min(odd, key=gains.__getitem__)
        chains.append([-first] + [small] * (g // step + 1))
    return chains


def from_openspiel_policy(game: Any, policy: Any) -> np.ndarray:
    """The roll probabilities of an OpenSpiel policy for ``pig``, by querying its states.

    Every canonical state (own score, the others' scores in turn order, turn total) is built
    once by applying actions, sharing prefixes (a turn's states are one walk over its turn
    totals), and the policy is asked once there; no history is walked twice. The states are
    built in the same game with a horizon long enough to reach them (a stationary policy
    does not read the move counter; one that does is queried at the fewest moves).

    Parameters
    ----------
    game : pyspiel.Game
        OpenSpiel's ``pig`` (any players, winscore, diceoutcomes, piglet).
    policy : open_spiel.python.policy.Policy or pyspiel.Policy
        Anything with ``action_probabilities(state)`` returning ``{action: probability}``
        (action 0 rolls); a policy from :func:`~pigtheory.referee.baselines.to_openspiel_policy` is read back directly.

    Returns
    -------
    numpy.ndarray of float, shape ``(players,) + (goal,) * (players + 1)``
        ``table[p, own, others..., k]``: seat p's P(roll), own-centric; 0 where
        ``own + k >= goal``; 0.5 at states no play reaches (a score of 1 with a die).

    Notes
    -----
    Cost: one ``child`` per state for the roll and one per die outcome it first reaches, plus one
    query per state: ``players * goal^(players + 1) / 2`` queries (half a million per seat at
    goal 100 with two players).

    Examples
    --------
    >>> import pyspiel
    >>> from open_spiel.python import policy as osp
    >>> game = pyspiel.load_game("pig", {"winscore": 4})
    >>> from_openspiel_policy(game, osp.UniformRandomPolicy(game))[0, :, 0].tolist()
    [[0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.0], [0.5, 0.5, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]]
    """
    require_openspiel()
    rules, horizon = openspiel_rules(game)
    check_callable(
        "policy.action_probabilities",
        getattr(policy, "action_probabilities", None),
        "an OpenSpiel policy: action_probabilities(state) -> {action: probability}",
    )
    if isinstance(policy, PigtheoryPolicyBase) and policy.rules == rules:
        return np.stack(policy.tables)
    g, n = rules.goal, rules.players
    entries = n * g ** (n + 1)
    check_memory(
        Estimate(f"OpenSpiel policy table ({rules})", entries, 8 * entries + 2000 * g**n, "lower winscore")
    )
    build = openspiel_game(rules, horizon=max(horizon, 10 * n * g + 10))
    gains = _gains(rules)
    table = np.full((n,) + (g,) * (n + 1), 0.5)
    # prefixes: seats 0..q have stopped at their scores; seat q + 1 to move at turn total 0
    prefixes: dict[tuple[int, ...], Any] = {(): build.new_initial_state()}
    for _ in range(n):
        nxt = {}
        for scores, state in prefixes.items():
            for k, s in _walk(state, g, gains).items():
                nxt[scores + (k,)] = s.child(1)
        prefixes = nxt
    chains = _chains(g, gains)
    for scores, state in prefixes.items():  # seat 0 to move at turn total 0
        s = state
        for p in range(n):
            if p:
                s = s.child(1)  # seat p - 1 passes
            own = scores[p]
            others = tuple(scores[(p + q) % n] for q in range(1, n))
            row = table[(p, own) + others]
            for outcomes in chains:
                # one state walked in place along the chain (a policy reads it, keeps nothing)
                st = s.clone()
                k = 0
                for outcome in outcomes:
                    if k >= g - own:
                        break
                    if outcome >= 0:
                        probs = policy.action_probabilities(st)
                        roll, stop = probs.get(0, 0.0), probs.get(1, 0.0)
                        row[k] = roll / (roll + stop) if roll + stop > 0 else 0.0
                    st.apply_action(0)
                    st.apply_action(abs(outcome))
                    k += gains[abs(outcome)]
    idx = np.indices((g,) * (n + 1))
    table[:, idx[0] + idx[-1] >= g] = 0.0
    table.setflags(write=False)
    return table


class PigtheoryPolicyBase:
    """Marker of the policies made by :func:`~pigtheory.referee.baselines.to_openspiel_policy` (read back without queries)."""

    rules: Rules
    tables: list[np.ndarray]
