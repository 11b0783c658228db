"""Sequential Pig: players take turns; the one transition every simulator, environment and page uses.

Sequential state
----------------
``State(scores, mover, k, forced)``: the banked scores in seat order, the seat to move, its turn
total and whether it must roll (Double Trouble: after a double). The start is
``((0, ..., 0), 0, 0, False)``. The vectorised form keeps the mover's view only: arrays ``own``
(the mover's score) and ``k`` (its turn total), one entry per game; passing the dice is a seat
rotation the caller does.

Sequential transition
---------------------
With the :class:`~pigtheory.games.outcomes.Outcomes` of the rules (roll ``r`` with probability
``1 / rolls``), the mover at ``(own, k)``:

* holds: ``own <- own + k``, ``k <- 0``, the turn passes;
* rolls ``r``: if ``bust[r]``, ``k <- 0`` (and ``own <- 0`` if ``reset[r]``) and the turn
  passes; else ``k <- k + points[r]``, and ``forced <- again[r]``; if not forced and
  ``own + k >= goal`` the mover wins at once, its score set to ``goal``.

So ``P(own', k' | own, k, roll) = sum_r [transition(own, k, r) = (own', k')] / rolls``. Holding
is legal when ``k > 0`` and not forced (or at ``k = 0`` where the caller allows it:
``hold_at_zero``, OpenSpiel's rule). The game ends when a score reaches the goal.

References
----------
Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25 (2004) (one die);
Zhu & Ma, Stats 2022 (two dice, snake eyes, Double Trouble).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _wiring
from ..rules import Rules
from .outcomes import Dice, Outcomes, outcomes

__all__ = ["SequentialGame", "State", "HOLD", "ROLL"]

HOLD = 0
"""Bank the turn total and pass the dice."""
ROLL = 1
"""Roll once."""


class State(NamedTuple):
    """A position of sequential play (module docstring)."""

    scores: tuple[int, ...]
    mover: int
    k: int
    forced: bool = False


class SequentialGame:
    """Sequential Pig under ``rules`` (module docstring): the only sequential transition.

    Parameters
    ----------
    rules : Rules
        Any rules, a :class:`~pigtheory.Rules` subclass with its own die included.

    Examples
    --------
    >>> from pigtheory import Rules
    >>> game = SequentialGame(Rules(goal=10))
    >>> s = game.step(game.start(), ROLL, 4)   # roll 4 shows face 5
    >>> s, game.step(s, HOLD)
    (State(scores=(0, 0), mover=0, k=5, forced=False), State(scores=(5, 0), mover=1, k=0, forced=False))
    """

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
        self.rules = rules
        self.goal = rules.goal
        self.outcomes: Outcomes = outcomes(rules)
        self._simple = self.outcomes.simple
        self._false = np.zeros(0, dtype=bool)

    def start(self) -> State:
        """Scores 0, seat 0 to move, turn total 0."""
        return State((0,) * self.rules.players, 0, 0, False)

    def is_terminal(self, state: State) -> bool:
        """Whether a score has reached the goal."""
        return max(state.scores) >= self.goal

    def winner(self, state: State) -> int | None:
        """The seat at the goal, None while the game goes on."""
        for seat, s in enumerate(state.scores):
            if s >= self.goal:
                return seat
        return None

    def legal_actions(self, state: State, *, hold_at_zero: bool = False) -> tuple[int, ...]:
        """``(ROLL,)``, ``(HOLD, ROLL)``, or ``()`` once the game is over."""
        if self.is_terminal(state):
            return ()
        if state.forced or (state.k == 0 and not hold_at_zero):
            return (ROLL,)
        return (HOLD, ROLL)

    def policy_table(self, policy: Any) -> np.ndarray:
        """The canonical policy array of sequential play: P(roll) at every state the mover sees,
        own score first, the others in turn order, then the turn total, shape
        ``(goal,) * (players + 1)`` (read-only). The one converter from every policy type users
        hand in (tables, callables, ``hold_at``, solved results, multiplayer policies, OpenSpiel
        policies): :func:`pigtheory.games.policy_tables.roll_probabilities`. One die.

        >>> from pigtheory import hold_at
        >>> SequentialGame(Rules(goal=3)).policy_table(hold_at(2))[:, 0].tolist()
        [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
        """
        from .policy_tables import roll_probabilities

        return roll_probabilities(policy, self.rules)

    def profile_tables(self, profile: Any) -> list[np.ndarray]:
        """One :meth:`policy_table` per seat: ``profile`` is one policy for every seat or one per
        seat in seat order (:func:`pigtheory.games.policy_tables.read_profile`)."""
        from .policy_tables import read_profile

        return read_profile(profile, self.rules)

    def evaluate(self, profile: Any, **options: Any) -> Any:
        """Every seat's exact win probability under a fixed profile: the value ``V^pi`` that
        solves the Bellman equation ``V = T_pi V`` of :meth:`bellman` (the exact engine behind
        :func:`pigtheory.referee.evaluate`, here with this game's rules; ``options`` are that
        function's: ``horizon``, ``max_memory``).

        >>> from pigtheory import Rules, hold_at
        >>> game = SequentialGame(Rules.piglet(goal=2))
        >>> [round(float(x), 6) for x in game.evaluate(hold_at(1)).value_start]  # 16/27, 11/27
        [0.592593, 0.407407]
        """
        return _wiring.game_solver("sequential", "evaluate")(profile, rules=self.rules, **options)

    def best_response(self, profile: Any, seat: int = 0, **options: Any) -> Any:
        """The exact best response of ``seat`` to the other seats' policies in ``profile``:
        the fixed point of ``V = T* V``, the step of :meth:`bellman` that maximises the
        responder's value (:func:`pigtheory.referee.best_response` with this game's rules;
        ``options``: ``horizon``, ``max_iter``, ``max_memory``)."""
        return _wiring.game_solver("sequential", "best_response")(
            profile, seat=seat, rules=self.rules, **options
        )

    def bellman(self, values: np.ndarray, tables: Any, *, respond: int | None = None) -> np.ndarray:
        """One Bellman step of two-player sequential Pig with one die: the block that the exact
        engines solve to its fixed point, in plain numpy (a check of them, and a step for
        iterative learners).

        Parameters
        ----------
        values : numpy.ndarray, shape ``(2, goal, goal, goal)``
            ``values[m, own, other, k]``: the probability that seat 0 wins when seat ``m`` is to
            move with score ``own``, the other seat's score ``other`` and turn total ``k``.
            Entries with ``own + k >= goal`` are not read.
        tables : profile
            One policy for both seats or one per seat, read by :meth:`profile_tables`.
        respond : {None, 0, 1}
            None: both seats follow ``tables`` (evaluation). A seat: it takes the better of roll
            and hold (seat 0 maximises, seat 1 minimises seat 0's win), ties to holding at
            ``k >= 1`` and to rolling at ``k = 0``.

        Returns
        -------
        numpy.ndarray, shape ``(2, goal, goal, goal)``
            ``T(values)``; NaN where ``own + k >= goal``.

        Notes
        -----
        With ``p_f`` the chance of face f (``pts[f]`` points, or a bust), ``w_m`` what a win of
        the mover is worth to seat 0 (1 for seat 0, 0 for seat 1) and ``x = values``:

        .. math:: \\text{roll}_m(i, j, k) = \\sum_{f \\text{ bust}} p_f\\, x_{1-m}(j, i, 0)
                  + \\sum_{f \\text{ scores}} p_f\\, [i + k + pts_f \\ge goal]\\, w_m
                  + [i + k + pts_f < goal]\\, x_m(i, j, k + pts_f),

        hold (``k >= 1``) ``= x_{1-m}(j, i + k, 0)`` and pass (``k = 0``) ``= x_{1-m}(j, i, 0)``;
        ``T(x)_m = r_m \\text{roll}_m + (1 - r_m) \\text{hold}_m`` with ``r_m`` the table's P(roll),
        or the best of the two for the responding seat. The exact values of a profile (the
        referee's :func:`~pigtheory.referee.evaluate`) and of a best response are its fixed points.
        """
        if self.rules.players != 2 or not self._simple:
            raise ValueError(f"rules: the Bellman step is for two players and one die, got {self.rules}")
        if respond is not None and respond not in (0, 1):
            raise ValueError(f"respond must be None, 0 or 1, got {respond!r}")
        g = self.goal
        x = np.asarray(values, dtype=float)
        if x.shape != (2, g, g, g):
            raise ValueError(f"values must have shape {(2, g, g, g)}, got {x.shape}")
        r = self.profile_tables(tables)
        t = self.outcomes
        p = float(t.probability)
        i = np.arange(g)[:, None, None]
        j = np.arange(g)[None, :, None]
        k = np.arange(g)[None, None, :]
        live = np.broadcast_to(i + k < g, (g, g, g))
        out = np.full((2, g, g, g), np.nan)
        for m in (0, 1):
            win = 1.0 if m == 0 else 0.0
            other = x[1 - m].transpose(1, 0, 2)  # other[i, j, k] = x_{1-m}(j, i, k)
            passed = np.broadcast_to(other[:, :, :1], (g, g, g))  # x_{1-m}(j, i, 0)
            roll = np.zeros((g, g, g))
            for f in range(t.rolls):
                if t.bust[f]:
                    roll += p * passed
                    continue
                kk = k + int(t.points[f])  # the turn total after the roll, (1, 1, goal)
                ahead = x[m][:, :, np.minimum(kk[0, 0], g - 1)]  # read only where i + kk < goal
                roll += p * np.where(i + kk >= g, win, ahead)
            banked = np.minimum(i + k, g - 1)  # hold at k >= 1: the other moves at (j, i + k)
            hold = np.where(k == 0, passed, x[1 - m][j, banked, 0])
            hold = np.where(i + k >= g, win, hold)
            if respond == m:
                better = roll > hold + 1e-13 if m == 0 else roll < hold - 1e-13
                tie0 = np.abs(roll - hold) <= 1e-13
                go = np.where(k == 0, better | tie0, better)
                new = np.where(go, roll, hold)
            else:
                q = r[m]
                new = q * roll + (1.0 - q) * hold
            out[m] = np.where(live, new, np.nan)
        return out

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` rolls (indices of :attr:`outcomes`), face by face: :meth:`Outcomes.sample`."""
        return self.outcomes.sample(rng, size)

    def dice(self, rng: np.random.Generator) -> Dice:
        """A scalar die drawing from ``rng`` (simple games only): :class:`~pigtheory.games.outcomes.Dice`."""
        return Dice(self.outcomes, rng)

    def step(self, state: State, action: int, roll: int | None = None) -> State:
        """The state after ``action`` (and, for a roll, the roll ``roll`` of :attr:`outcomes`)."""
        if action not in self.legal_actions(state, hold_at_zero=True):
            raise ValueError(f"action {action!r} is not legal at {state}")
        scores, seat = list(state.scores), state.mover
        nxt = (seat + 1) % len(scores)
        if action == HOLD:
            scores[seat] = min(scores[seat] + state.k, self.goal)
            return State(tuple(scores), seat if scores[seat] >= self.goal else nxt, 0, False)
        if roll is None or not 0 <= roll < self.outcomes.rolls:
            raise ValueError(f"roll must be in 0..{self.outcomes.rolls - 1}, got {roll!r}")
        t = self.outcomes
        if t.bust[roll]:
            if t.reset[roll]:
                scores[seat] = 0
            return State(tuple(scores), nxt, 0, False)
        k, forced = state.k + int(t.points[roll]), bool(t.again[roll])
        if not forced and scores[seat] + k >= self.goal:
            scores[seat] = self.goal
            return State(tuple(scores), seat, 0, False)
        return State(tuple(scores), seat, k, forced)

    def _never(self, n: int) -> np.ndarray:
        """``n`` False values (a read-only view): no forced roll in a simple game."""
        if self._false.size < n:
            self._false = np.zeros(max(n, 2 * self._false.size), dtype=bool)
            self._false.setflags(write=False)
        return self._false[:n]

    def roll_many(
        self, own: np.ndarray, k: np.ndarray, rolls: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rolls of many movers at once (the vectorised :meth:`step` with ``ROLL``).

        Parameters
        ----------
        own, k : numpy.ndarray of int
            The movers' scores and turn totals.
        rolls : numpy.ndarray of int
            Their rolls (:meth:`sample`).

        Returns
        -------
        own, k : numpy.ndarray
            The inputs are not changed (``own`` may be returned as it is, when nobody won); a
            winner's score is ``goal``, its ``k`` 0.
        passed : numpy.ndarray of bool
            The roll busted: the turn passes.
        won : numpy.ndarray of bool
        forced : numpy.ndarray of bool
            The mover must roll again.
        """
        t = self.outcomes
        pts = t.points[rolls]
        if self._simple:  # the fast path of the vector environment: a bust is 0 points
            passed = pts == 0
            k = np.where(passed, 0, k + pts)
            won = own + k >= self.goal
            if won.any():
                own, k = np.where(won, self.goal, own), np.where(won, 0, k)
            return own, k, passed, won, self._never(pts.size)
        passed = t.bust[rolls]
        forced = t.again[rolls]
        k = np.where(passed, 0, k + pts)
        own = np.where(t.reset[rolls], 0, own)
        won = ~forced & (own + k >= self.goal)
        own = np.where(won, self.goal, own)
        k[won] = 0
        return own, k, passed, won, forced

    def roll_at(
        self,
        own: np.ndarray,
        k: np.ndarray,
        at: np.ndarray,
        rolls: np.ndarray,
        *,
        passed: bool = True,
        going: bool = True,
    ) -> tuple[Any, np.ndarray, Any, np.ndarray]:
        """:meth:`roll_many` in place: the movers ``at`` (distinct indices into ``own`` and ``k``)
        roll ``rolls``; ``own`` and ``k`` are updated there, no array of all movers is copied
        (the vector environment's step). ``passed=False`` or ``going=False`` leaves that
        output out (None): a loop over thousands of games that does not read it saves the
        numpy calls.

        Returns
        -------
        passed, won, going, forced : numpy.ndarray of int
            Values of ``at``: the roll busted (``own`` set to 0 on a reset; ``k`` is left as
            it was, the caller passes the dice and the next turn starts at 0), won
            (``own`` set to ``goal``, ``k`` to 0), the turn goes on, and, among those, must be
            rolled again.
        """
        if not (isinstance(passed, bool) and isinstance(going, bool)):
            raise ValueError(f"passed and going must be True or False, got {passed!r:.20} and {going!r:.20}")
        t = self.outcomes
        pts = t.points[rolls]
        if self._simple:
            ok = pts > 0
            forced = at[:0]
        else:
            ok = ~t.bust[rolls]
            own[at[t.reset[rolls]]] = 0
            forced = at[t.again[rolls]]
        scored = at[ok]
        busted = at[~ok] if passed else None
        k[scored] += pts[ok]
        reach = own[scored] + k[scored] >= self.goal
        if forced.size:
            reach &= ~t.again[rolls][ok]
        won = scored[reach]
        rolling_on = scored[~reach] if going else None
        if won.size:  # (an empty fancy assignment costs a microsecond: the loops are long)
            own[won] = self.goal
            k[won] = 0
        return busted, won, rolling_on, forced

    def hold_at(self, own: np.ndarray, k: np.ndarray, at: np.ndarray, *, clear: bool = True) -> None:
        """:meth:`hold_many` in place for the movers ``at`` of a live game (``own + k < goal``
        there, so nobody wins by holding): ``own += k``, and ``k = 0`` unless ``clear=False``
        (a caller that resets or drops those turn totals itself)."""
        if not isinstance(clear, bool):
            raise ValueError(f"clear must be True or False, got {clear!r:.20}")
        if at.size:
            own[at] += k[at]
            if clear:
                k[at] = 0

    def hold_many(self, own: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Holds of many movers at once: ``(own + k`` clipped at the goal``, won)`` (new arrays);
        the turn passes unless won."""
        banked = np.minimum(own + k, self.goal)
        return banked, banked >= self.goal

    def step_many(
        self, own: np.ndarray, k: np.ndarray, actions: np.ndarray, rolls: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`step` of many movers: ``actions`` HOLD or ROLL, ``rolls`` read where they roll.

        Returns ``(own, k, passed, won, forced)`` as :meth:`roll_many`; ``passed`` is also true
        where the mover held (a hold that reaches the goal wins).
        """
        own2, k2, passed, won, forced = self.roll_many(own, k, rolls)
        hold = np.asarray(actions) == HOLD
        banked, won_hold = self.hold_many(own, k)
        own2 = np.where(hold, banked, own2)
        k2 = np.where(hold, 0, k2)
        return own2, k2, np.where(hold, True, passed), np.where(hold, won_hold, won), forced & ~hold
