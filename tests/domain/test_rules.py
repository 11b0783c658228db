"""Rules: defaults, hashing, the roll distribution of each die, and validation errors."""

from fractions import Fraction

import pytest

from pigtheory import Rules


def test_defaults_are_the_papers_game():
    r = Rules()
    assert (r.goal, r.die_faces, r.bust_face, r.players, r.dice) == (100, 6, 1, 2, 1)
    assert r.scoring_faces == (2, 3, 4, 5, 6)
    assert r.p_bust == Fraction(1, 6)
    assert r.max_roll == 6


def test_frozen_and_hashable():
    assert Rules() == Rules() and hash(Rules()) == hash(Rules())
    assert len({Rules(), Rules(goal=50), Rules()}) == 2
    with pytest.raises(AttributeError):
        Rules().goal = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(die_faces=4), Rules(die_faces=8, bust_face=8), Rules.piglet(), Rules(dice=2)],
)
def test_roll_distribution_sums_to_one(rules):
    dist = rules.roll_distribution()
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())


def test_two_dice_roll():
    dist = Rules(dice=2).roll_distribution()
    assert dist[0] == 1 - Fraction(25, 36)  # any 1 busts
    assert min(g for g in dist if g) == 4 and max(dist) == 12
    assert dist[7] == Fraction(4, 36)  # (2,5) (5,2) (3,4) (4,3)


def test_piglet_is_a_fair_coin():
    r = Rules.piglet(goal=10)
    assert r.is_piglet and r.roll_distribution() == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_bust_face_other_than_one():
    assert Rules(bust_face=6).scoring_faces == (1, 2, 3, 4, 5)


def test_replace_validates_again():
    assert Rules().replace(goal=30).goal == 30
    with pytest.raises(ValueError, match="goal"):
        Rules().replace(goal=0)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"goal": 0}, "goal"),
        ({"goal": 2.5}, "goal"),
        ({"goal": True}, "goal"),
        ({"players": 1}, "players"),
        ({"die_faces": 1}, "die_faces"),
        ({"bust_face": 7}, "bust_face"),
        ({"bust_face": 0}, "bust_face"),
        ({"dice": 3}, "dice"),
        ({"double_trouble": True}, "double_trouble"),
        ({"double_trouble": 1, "dice": 2}, "double_trouble"),
        ({"face_points": (1, 2)}, "face_points"),
        ({"face_points": (1, 2, 3, 0, 5)}, "face_points"),
    ],
)
def test_bad_rules_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Rules(**kwargs)


def test_str_names_the_game():
    assert "Piglet" in str(Rules.piglet())
    assert "Double Trouble" in str(Rules(dice=2, double_trouble=True))
    assert "goal 100" in str(Rules())


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.piglet(),
        Rules(dice=2),
        Rules(dice=2, double_trouble=True),
        Rules(die_faces=5, bust_face=3),
    ],
    ids=str,
)
def test_roll_model_counts_the_faces_and_the_sampler_follows_it(rules):
    """The model against a count written here from the faces, and ``sample_rolls`` against
    the model within 4 standard errors per outcome."""
    import itertools

    import numpy as np

    scoring = [f for f in range(1, rules.die_faces + 1) if f != rules.bust_face]
    pts = {rules.bust_face: 0, **dict(zip(scoring, rules.scoring_faces, strict=True))}
    want: dict[tuple[str, int], Fraction] = {}
    for faces in itertools.product(range(1, rules.die_faces + 1), repeat=rules.dice):
        busts = sum(f == rules.bust_face for f in faces)
        kind = {2: "reset", 1: "bust"}.get(busts, "score")
        if kind == "score" and rules.double_trouble and faces[0] == faces[1]:
            kind = "double"
        gain = 0 if busts else sum(pts[f] for f in faces)
        want[kind, gain] = want.get((kind, gain), Fraction(0)) + Fraction(1, rules.die_faces**rules.dice)
    m = rules.roll_model()
    got = {("bust", 0): m.p_bust, ("reset", 0): m.p_reset}
    got.update({("score", g): p for g, p in m.free})
    got.update({("double", g): p for g, p in m.forced})
    assert {k: p for k, p in got.items() if p} == want
    n = 60_000
    kind, points = rules.sample_rolls(np.random.default_rng(11), n)
    names = np.array(["bust", "reset", "score", "double"])[kind]
    for (k, g), p in want.items():
        share = float(np.mean((names == k) & (points == g)))
        assert abs(share - float(p)) < 4 * np.sqrt(float(p * (1 - p)) / n) + 1e-12, (k, g)
