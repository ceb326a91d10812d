"""The re-pointing rule of ``oracles balance``."""

from __future__ import annotations

from oracles.games.oracle.balance import MAX_POINTS, Goal, new_points

GOAL = Goal(median=2.0, aim=0.15, tolerance=0.35, min_kept=0.05)


def test_a_card_in_the_band_keeps_its_points() -> None:
    assert new_points(4, 0.5, 0.2, GOAL) == 4


def test_an_overpaying_card_is_lowered_and_an_underpaying_one_raised() -> None:
    assert new_points(12, 0.5, 0.2, GOAL) < 12  # 6 expected points against 2
    assert new_points(4, 0.1, 0.2, GOAL) > 4  # 0.4 against 2


def test_a_dead_card_is_raised_but_not_out_of_the_band() -> None:
    assert new_points(4, 0.5, 0.01, GOAL) == 5  # 2.5 expected: still under 2 x 1.35
    assert new_points(5, 0.5, 0.01, GOAL) == 5  # 6 x 0.5 = 3 would leave the band


def test_points_stay_whole_and_bounded() -> None:
    assert new_points(1, 1.0, 0.5, Goal(0.1, 0.15, 0.35, 0.05)) == 1
    assert new_points(MAX_POINTS, 0.001, 0.0, GOAL) == MAX_POINTS


def test_failing_cards_are_the_dead_and_the_uneven() -> None:
    from oracles.games.oracle.balance import Measurement, failing

    measurement = Measurement(
        points={"O01": 4, "O02": 5, "O03": 6},
        kept_rate={"O01": 0.2, "O02": 0.01, "O03": 0.3},
        expected={"O01": 2.0, "O02": 2.0, "O03": 3.0},
        hold_rate={"O01": 0.5, "O02": 0.4, "O03": 0.5},
        median=2.0,
        games=10,
    )
    assert failing(measurement, 0.35, 0.05) == ["O02", "O03"]  # dead; 50% over the median
    assert measurement.max_deviation == 0.5


def test_a_card_that_meets_the_goal_is_not_pushed_out_of_it() -> None:
    # 3 x 0.78 = 2.34 against 2: inside the band, outside the aim; the damped
    # step rounds back to 3, so it stays (a forced point down would kill it).
    assert new_points(3, 0.78, 0.15, GOAL) == 3
    # Seldom kept: not made cheaper even when the damped step would.
    assert new_points(5, 0.5, 0.07, GOAL) == 5
    # A card outside the band still moves by at least a point.
    assert new_points(4, 0.9, 0.2, GOAL) == 3


def test_a_card_that_cannot_pay_at_the_cap_is_given_up() -> None:
    from oracles.games.oracle.balance import Measurement, beyond_reach

    m = Measurement(
        points={"O21": MAX_POINTS, "O22": MAX_POINTS, "O01": 4},
        kept_rate={"O21": 0.4, "O22": 0.4, "O01": 0.2},
        expected={"O21": 0.1, "O22": 2.0, "O01": 0.1},
        hold_rate={"O21": 0.002, "O22": 0.03, "O01": 0.03},
        median=2.0,
        games=1000,
        kept={"O21": 400, "O22": 400, "O01": 200},
    )
    assert beyond_reach(m, 2.0, 0.35) == ["O21"]
