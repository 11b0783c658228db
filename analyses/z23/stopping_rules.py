"""Beyond "hold at n": what the threshold restriction of the paper costs (extension rows).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), restrict every strategy of simultaneous Pig
to "hold at n" (eq. 12 and Algorithms 0.1-0.3). A player does not see the others during its
own turn, so any rule "roll or hold at each turn total" is a strategy too (the class Neller &
Presser's sequential optimum needs: it is not a threshold everywhere). The paper has no
number here; these rows are ours:

* the best response to hold at 25 over every stopping rule, against the threshold one: its gain
  at (0, 0) and the states where no threshold is optimal (:func:`best_response` with
  ``strategies="stopping"``);
* the equilibrium over every stopping rule (:func:`stopping_equilibrium`): V(0, 0), the
  certificate, and the class of every state, decided exhaustively with a certificate per
  state (:func:`~pigtheory.simultaneous.stopping.certify.certify_classes`: every threshold enumerated,
  a MILP over deterministic stopping rules, an LP over threshold mixtures), beside the class
  the solver's best-response dynamics found;
* the exploitability, by an opponent free to play any stopping rule, of the threshold
  equilibrium, the Stackelberg policies, the self-play cycle's policies and the web app's
  tables (best response's win probability from (0, 0) minus 1/2);
* whether "everybody holds at the goal" needs more players when a deviator may use any rule
  (:func:`limit` with ``strategies="stopping"``).
"""

from __future__ import annotations

from fractions import Fraction

from analyses._claims import EXTENSION, Row, near, print_rows, tiny
from analyses.z23._equilibrium_data import RULES, equilibrium_policy, self_play_data, stackelberg_data
from pigtheory import hold_at
from pigtheory.io import cached
from pigtheory.published import SIMULTANEOUS_TABLES, webapp_policies
from pigtheory.simultaneous import best_response, exploitability, limit, stopping_equilibrium
from pigtheory.simultaneous.stopping import KINDS, StoppingClasses, StoppingEquilibrium, certify_classes

SOURCE = "Zhu et al. 2023 (Sci. Rep.), strategies beyond hold-at-n (extension)"
CLAIMS: list = []
N_MAX = 200


def stopping_equilibrium_data() -> StoppingEquilibrium:
    return cached(
        "z23-stopping-equilibrium",
        # version 2: a state's class counts only the turn totals its rules reach
        {"rules": RULES, "version": 2},
        lambda: stopping_equilibrium(rules=RULES),
        expected=StoppingEquilibrium,
    )


CLASS_TOL = 1e-9  # a gap up to this counts as optimal (the equilibrium's certificate is ~1e-12)


def stopping_classes_data() -> StoppingClasses:
    return cached(
        "z23-stopping-classes",
        {"rules": RULES, "tol": CLASS_TOL, "version": 2},
        lambda: certify_classes(stopping_equilibrium_data(), tol=CLASS_TOL),
        expected=StoppingClasses,
    )


def exploitabilities() -> dict[str, tuple[float, float]]:
    """``{name: (by thresholds, by every stopping rule)}``."""
    cycle = list(self_play_data().cycle)
    st = stackelberg_data("exact")
    named = {
        "threshold equilibrium": equilibrium_policy(),
        "Stackelberg leader": st.leader_policy,
        "Stackelberg follower": st.follower_policy,
        "self-play cyclic policy 1": cycle[0],
        "self-play cyclic policy 2": cycle[1],
        "hold at 25": hold_at(25),
    }
    tables = webapp_policies(rules=RULES).tables
    for key in SIMULTANEOUS_TABLES:
        named[f"web app table {key.rsplit('-', 1)[1]}"] = tables[key]
    out = {}
    for name, policy in named.items():
        out[name] = (
            exploitability(policy, rules=RULES).exploitability,
            exploitability(policy, rules=RULES, strategies="stopping").exploitability,
        )
    return out


def main() -> list[Row]:
    thr = best_response(hold_at(25), rules=RULES)
    stop = best_response(hold_at(25), rules=RULES, strategies="stopping")
    eq = stopping_equilibrium_data()
    certified = stopping_classes_data()
    counts = certified.counts()
    by_dynamics = eq.counts()
    margins = certified.margins()
    lim_t = limit(N_MAX, rules=RULES)
    lim_s = limit(N_MAX, rules=RULES, strategies="stopping")
    rows = [
        Row(
            "Z23.SR1",
            SOURCE,
            "best response to hold at 25 over every stopping rule: gain over the threshold one at (0, 0)",
            "-",
            tiny(stop.value[0, 0] - thr.value[0, 0], digits=3),
            EXTENSION,
            f"{stop.value[0, 0]:.9f} against {thr.value[0, 0]:.9f}; exact, optimal stopping per state with "
            "the self-loop by policy iteration",
        ),
        Row(
            "Z23.SR2",
            SOURCE,
            "states where the best response to hold at 25 is no threshold",
            "-",
            str(int(stop.non_threshold.sum())),
            EXTENSION,
            f"of {RULES.goal**2}, judged on the turn totals each rule reaches; it gains over the best "
            f"threshold at {int((stop.gain > 1e-12).sum())} states, at most "
            f"{float(stop.gain.max()):.2e}",
        ),
        Row(
            "Z23.SR3",
            SOURCE,
            "equilibrium over every stopping rule: V(0, 0) and certificate",
            "-",
            near(eq.value[0, 0], Fraction(1, 2)),
            EXTENSION,
            f"largest gap upper - lower {tiny(eq.residual)}; {eq.n_lp} sequence-form LPs",
        ),
    ]
    for code, name in enumerate(KINDS):
        rows.append(
            Row(
                f"Z23.SR4.{code}",
                SOURCE,
                f"equilibrium over stopping rules, states of class: {name}",
                "-",
                str(counts[name]),
                EXTENSION,
                f"certified per state: every threshold enumerated, deterministic stopping rules by a "
                f"local search (each rule found judged by its exact reply) or a MILP ({certified.n_milp} "
                f"MILPs), an LP over threshold mixtures ({certified.n_lp} LPs); "
                f"every 'yes' off the value by {tiny(_largest(margins, 'yes'))}, every 'no' short of it "
                f"by at least {tiny(_largest(margins, 'no'))} (the same classes for any tolerance between); "
                f"the solver's best-response dynamics gave {by_dynamics[name]}",
            )
        )
    for n, (name, (by_thr, by_stop)) in enumerate(exploitabilities().items(), 1):
        rows.append(
            Row(
                f"Z23.SR5.{n}",
                SOURCE,
                f"exploitability of the {name} by any stopping rule",
                "-",
                tiny(by_stop, digits=3),
                EXTENSION,
                f"by thresholds only: {tiny(by_thr, digits=3)}",
            )
        )
    rows.append(
        Row(
            "Z23.SR6",
            SOURCE,
            "smallest n from which everybody holding at the goal is an equilibrium, any stopping rule",
            "-",
            str(lim_s.smallest_n),
            EXTENSION,
            f"against thresholds only: {lim_t.smallest_n} (n up to {N_MAX})",
        )
    )
    return rows


def _largest(margins: dict[str, float], answer: str) -> float:
    """The largest gap answered "yes", or the smallest certified gap answered "no"."""
    if answer == "yes":
        return max(v for k, v in margins.items() if k.endswith("largest yes") and v == v)
    return min(v for k, v in margins.items() if k.endswith("smallest no") and v == v)


if __name__ == "__main__":
    print_rows(main())
