"""The live numbers of a game: the person's win probability, the best move, each move's value.

:class:`Analyst` reads them off the exact solves of an
:class:`~pigtheory.play.opponents.Opponent`, in double precision; the web page computes the
same numbers in ``static/analysis.js`` from the packed data, and the tests compare the two.

Readings
--------
At every state of a game :meth:`Analyst.read` gives a :class:`Reading`: ``value``, the
person's win probability if it plays the best response from now on (1, 0 or 1/2 once the game
is over); on the person's move also ``roll`` and ``hold``, the win probabilities of rolling
(then playing best) and of holding now (None where not allowed), and ``advice``, the best
response's move (ties as the solvers break them).

Sequential play: the solved arrays of :class:`~pigtheory.sequential.best_response.SequentialResponse`
(the opponent's turn included). Simultaneous play: :func:`~pigtheory.simultaneous.best_response.turn_values`
during the person's turn; during the opponent's turn (the person's points x are then fixed and
the opponent's threshold t of the turn is known to the game), the expectation of
``V[min(i + x, g), min(j + Y, g)]`` over the rest of the opponent's hold-at-t turn.

:meth:`Analyst.cost` is what a move gave away: the best move's value minus the chosen one's
(0 when the person follows the advice; below :data:`COSTLY` the two moves are tied for any
purpose a player has).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..simultaneous.best_response import StoppingSolution, turn_values
from ..simultaneous.core.stopping_rules import stopping_outcomes, threshold_rule
from .game import Game
from .opponents import Opponent

__all__ = ["Reading", "Analyst", "COSTLY"]

COSTLY = 1e-6
"""A move that gives away less than this counts as a tie (the page stores values to 3e-8)."""


@dataclass(frozen=True)
class Reading:
    """The numbers at one state of a game (see the module docstring).

    Attributes
    ----------
    who : {"you", "opponent", None}
        Whose move it is (None once the game is over).
    value : float
        The person's win probability if it plays the best response from now on.
    roll : float or None
        On the person's move: the win probability of rolling (then playing best); None on
        the opponent's move.
    hold : float or None
        On the person's move: the win probability of holding now; None where holding is not
        allowed or on the opponent's move.
    advice : {"roll", "hold", None}
        The best response's move, on the person's move.
    """

    who: str | None
    value: float
    roll: float | None = None
    hold: float | None = None
    advice: str | None = None


class Analyst:
    """Readings of the games against one opponent.

    Parameters
    ----------
    opponent : Opponent
        With its solved best response (``opponent.response``), whose arrays the readings
        come from.

    Examples
    --------
    >>> import tempfile
    >>> from pigtheory.play.opponents import opponent
    >>> opp = opponent("hold-at-4", mode="sequential", goal=10, cache_dir=tempfile.mkdtemp())
    >>> reading = Analyst(opp).read(Game(opp.table, seed=1))
    >>> reading.who, reading.advice, round(reading.value, 4) == round(opp.response.first_player_win, 4)
    ('you', 'roll', True)
    """

    def __init__(self, opponent: Opponent) -> None:
        self.opponent = opponent
        self.rules = opponent.rules
        self._turns: dict[tuple[int, int], dict[str, np.ndarray]] = {}

    def read(self, game: Game) -> Reading:
        """The reading at the game's current state.

        Parameters
        ----------
        game : Game
            A game against this analyst's opponent.

        Returns
        -------
        Reading
        """
        if game.winner is not None:
            return Reading(None, {"you": 1.0, "tie": 0.5}.get(game.winner, 0.0))
        if self.opponent.mode == "sequential":
            return self._sequential(game)
        return self._simultaneous(game)

    def cost(self, reading: Reading, move: str) -> float:
        """Win probability given away by ``move`` (``"roll"`` or ``"hold"``) at ``reading``.

        Returns
        -------
        float
            ``>= 0``; 0 for the advised move (below :data:`~pigtheory.play.analysis.COSTLY` counts as a tie).
        """
        if reading.advice is None or move == reading.advice:
            return 0.0
        chosen = reading.roll if move == "roll" else reading.hold
        best = reading.roll if reading.advice == "roll" else reading.hold
        assert chosen is not None and best is not None
        return max(0.0, best - chosen)

    # --- sequential ---------------------------------------------------------------------

    def _sequential(self, game: Game) -> Reading:
        resp = self.opponent.response
        dt = resp.value.ndim == 4
        i, j = game.scores
        k = game.k
        flag = (int(game.forced),) if dt else ()
        g = self.rules.goal
        model = self.rules.roll_model()
        q_double = float(sum(x for _, x in model.forced))
        if game.to_move == "opponent":
            if j + k >= g:  # after a double past the goal: it rolls until it can hold (and win)
                v = resp.value[..., 0, 0] if dt else resp.value[:, :, 0]
                base = float(model.p_bust) * float(v[i, j]) + float(model.p_reset) * float(v[i, 0])
                return Reading("opponent", base / (1.0 - q_double))
            return Reading("opponent", float(resp.opponent_value[(j, i, k) + flag]))  # type: ignore[union-attr]

        def w(opp: int, mine: int) -> float:  # the person's value at the opponent's turn start
            if mine >= g:
                return 1.0
            return float(resp.opponent_value[(opp, mine, 0) + (0,) * dt])  # type: ignore[union-attr]

        def p(kk: int, forced: int) -> float:  # the person's value at turn total kk
            if i + kk < g:
                return float(resp.value[(i, j, kk) + ((forced,) if dt else ())])
            if not forced:
                return 1.0
            base = float(model.p_bust) * w(j, i) + float(model.p_reset) * w(j, 0)
            q_free = float(sum(x for _, x in model.free))
            return (q_free + base) / (1.0 - q_double)

        roll = float(model.p_bust) * w(j, i) + float(model.p_reset) * w(j, 0)
        roll += sum(float(q) * p(k + gain, 0) for gain, q in model.free)
        roll += sum(float(q) * p(k + gain, 1) for gain, q in model.forced)
        hold = None if game.forced else w(j, i + k)
        best_rolls = game.forced or bool(resp.policy[i, j, k, 0] if dt else resp.policy[i, j, k])
        return Reading("you", p(k, int(game.forced)), roll, hold, "roll" if best_rolls else "hold")

    # --- simultaneous -------------------------------------------------------------------

    def turn(self, i: int, j: int) -> dict[str, np.ndarray]:
        """:func:`~pigtheory.simultaneous.best_response.turn_values` at (i, j), cached
        (simultaneous opponents).

        Returns
        -------
        dict of numpy.ndarray
            ``"hold"``, ``"roll"``, ``"best"``, each of shape ``(goal - i + 1,)`` over the turn
            total.
        """
        if (i, j) not in self._turns:
            resp = self.opponent.response
            self._turns[i, j] = turn_values(resp.value, self.opponent.policy, i, j, rules=self.rules)
        return self._turns[i, j]

    def _simultaneous(self, game: Game) -> Reading:
        resp = self.opponent.response
        i, j = game.scores
        if game.to_move == "you":
            t = self.turn(i, j)
            k = game.k
            assert isinstance(resp, StoppingSolution)
            advice = "roll" if (k == 0 or resp.policy.roll[i, j, k]) else "hold"
            hold = float(t["hold"][k]) if k >= 1 else None
            return Reading("you", float(t["best"][k]), float(t["roll"][k]), hold, advice)
        return Reading("opponent", self.after_turn(i, j, game.gain, game.threshold, game.k))

    def after_turn(self, i: int, j: int, gain: int, threshold: int, k_opp: int) -> float:
        """The person's value once its turn ended with ``gain`` points, the opponent holding at
        ``threshold`` and now at turn total ``k_opp``.

        Parameters
        ----------
        i, j : int
            The scores at the start of the turn, the person's first.
        gain : int
            The points the person's turn added (0: a bust).
        threshold : int
            The opponent's threshold of this turn.
        k_opp : int
            The opponent's turn total so far.

        Returns
        -------
        float
            ``E[V(min(i + gain, g), min(j + Y, g))]`` over the rest of the opponent's turn,
            V the person's start-of-turn values (``StoppingSolution.value``).
        """
        g = self.rules.goal
        value = self.opponent.response.value
        room = g - j
        if k_opp >= room or k_opp >= threshold:
            final = {min(k_opp, room): 1.0}
        else:
            # the rest of the turn is a hold-at-(threshold - k_opp) turn from score j + k_opp
            dist = stopping_outcomes(
                threshold_rule(np.array([threshold - k_opp]), g), np.array([j + k_opp]), self.rules
            )[0]
            final = {0: float(dist[0])}
            for x in range(1, room - k_opp + 1):
                if dist[x]:
                    final[k_opp + x] = float(dist[x])
        mine = min(i + gain, g)
        return sum(p * float(value[mine, min(j + y, g)]) for y, p in final.items())
