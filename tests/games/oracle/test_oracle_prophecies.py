"""Oracle: every prophecy card, where it holds and where it just fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracles.games.oracle.cards import HYDRA, PEGASUS, PHOENIX
from oracles.games.oracle.prophecies import (
    DEFAULT_EDITION_PATH,
    compile_condition,
    default_edition,
    load_edition,
)
from oracles.games.oracle.prophecies import chip_quantities as q

NONE = q()
ONE = q(hydra=1)  # one chip, 5 stars

# card id -> (position where it holds, position where it just fails); seat 0
# owns the card, seat 1 is its left neighbour, the last seat its right one.
CASES: dict[str, tuple[list[list[int]], list[list[int]]]] = {
    "O01": ([q(phoenix=1, hydra=2)], [q(phoenix=2)]),
    "O02": ([q(pegasus=1, losers=[HYDRA])], [q(losers=[PEGASUS])]),
    "O03": ([q(hydra=1)], [q(hydra=2)]),
    "O04": ([q(phoenix=2)], [q(phoenix=3)]),
    "O05": ([q(pegasus=2, phoenix=1)], [q(pegasus=1)]),
    "O06": ([q(hydra=2)], [q(hydra=1)]),
    "O07": ([q(phoenix=3)], [q(phoenix=4)]),
    "O08": ([q(pegasus=3)], [q(pegasus=2)]),
    "O09": ([q(losers=[PHOENIX])], [q(phoenix=1)]),
    "O10": ([q(hydra=3, losers=[PEGASUS])], [q(pegasus=1)]),
    "O11": ([q(losers=[HYDRA])], [q(hydra=1)]),
    "O12": ([q(phoenix=1, pegasus=1, hydra=1)], [q(phoenix=1, pegasus=1, losers=[HYDRA])]),
    "O13": ([q(hydra=2, phoenix=1)], [q(hydra=1, phoenix=1)]),
    "O14": ([q(pegasus=1)], [q(pegasus=2, phoenix=2)]),
    "O15": ([q(phoenix=2, pegasus=2)], [NONE]),
    "O16": ([q(phoenix=1, losers=[HYDRA, PEGASUS])], [q(phoenix=3, hydra=1)]),
    "O17": ([q(phoenix=3)], [q(losers=[PHOENIX])]),
    "O18": ([q(losers=[HYDRA], pegasus=2)], [q(losers=[HYDRA, PEGASUS])]),
    "O19": ([q(losers=[HYDRA, PHOENIX])], [q(losers=[PHOENIX], phoenix=5)]),
    "O20": ([q(losers=[PHOENIX])], [q(phoenix=1, losers=[HYDRA])]),
    "O21": ([q(losers=[PEGASUS])], [q(pegasus=1)]),
    "O22": ([q(losers=[HYDRA])], [q(hydra=1, losers=[PEGASUS])]),
    "O23": ([NONE], [q(losers=[HYDRA])]),
    "O24": ([q(losers=[PHOENIX])], [q(hydra=1, losers=[PEGASUS])]),
    "O25": ([q(pegasus=1, losers=[HYDRA])], [q(pegasus=3)]),
    "O26": ([q(hydra=1, phoenix=2)], [q(hydra=1, phoenix=1)]),
    "O27": ([q(pegasus=2, phoenix=1, losers=[HYDRA])], [q(phoenix=5)]),
    "O28": ([q(phoenix=4, losers=[HYDRA])], [q(phoenix=4)]),
    "O29": ([q(hydra=1), NONE, q(hydra=1, phoenix=1)], [q(hydra=1), NONE, q(phoenix=1)]),
    "O30": ([q(hydra=1), q(losers=[HYDRA, PEGASUS]), NONE], [q(hydra=1), ONE, q(phoenix=3)]),
    "O31": ([q(hydra=1), q(phoenix=4), NONE], [ONE, NONE, q(losers=[PEGASUS])]),
    "O32": ([q(phoenix=2), ONE, q(phoenix=5)], [q(phoenix=2), q(pegasus=2), NONE]),
    "O33": ([q(phoenix=2), q(losers=[HYDRA, PEGASUS]), NONE], [q(phoenix=2), ONE, q(phoenix=2)]),
    "O34": ([NONE, ONE, q(losers=[PHOENIX])], [NONE, ONE, NONE]),
    "O35": ([q(phoenix=2), ONE, q(phoenix=1), NONE], [q(phoenix=2), ONE, q(losers=[HYDRA, PEGASUS])]),
    "O36": ([q(hydra=1, pegasus=1, phoenix=1)], [q(hydra=1, phoenix=2)]),
    "O37": ([q(hydra=1, losers=[PEGASUS])], [q(phoenix=2)]),
    "O38": ([q(phoenix=1)], [q(losers=[HYDRA, PEGASUS, PHOENIX])]),
    "O39": ([q(phoenix=1, losers=[HYDRA])], [q(phoenix=2, losers=[HYDRA])]),
    "O40": ([q(pegasus=2), q(hydra=1), NONE], [q(hydra=1), q(hydra=1), NONE]),
}


def padded(position: list[list[int]]) -> list[list[int]]:
    """At least three seats: the unnamed ones hold nothing."""
    return position + [NONE] * (3 - len(position))


def test_every_card_has_a_case() -> None:
    assert sorted(CASES) == [card.id for card in default_edition().cards]


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_prophecy_holds_and_just_fails(card_id: str) -> None:
    card = default_edition().card(card_id)
    holds, fails = CASES[card_id]
    assert card.holds(padded(holds), 0), f"{card_id} ({card.text_en}) should hold"
    assert not card.holds(padded(fails), 0), f"{card_id} ({card.text_en}) should fail"


def test_points_and_texts_match_the_spec() -> None:
    points = [card.points for card in default_edition().cards]
    assert points[:20] == [4, 5, 5, 7, 9, 10, 10, 14, 3, 3, 2, 6, 7, 6, 8, 8, 2, 6, 15, 7]
    assert points[20:] == [8, 9, 10, 6, 5, 5, 6, 7, 5, 5, 4, 4, 6, 12, 9, 7, 8, 1, 12, 4]
    assert default_edition().card("O29").text_en == "fewer chips than your right neighbour"
    assert default_edition().card("O29").text("de") == "weniger Chips als dein rechter Nachbar"


def test_another_edition_is_data_only(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_EDITION_PATH.read_text(encoding="utf-8"))
    data["edition"] = "test"
    data["cards"][0] = {"id": "O01", "points": 99, "text_en": "no chips", "condition": "chips == 0"}
    path = tmp_path / "edition.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    edition = load_edition(path)
    assert edition.name == "test"
    assert edition.cards[0].points == 99 and edition.cards[0].holds([NONE, NONE, NONE], 0)

    from oracles.games.oracle.rules import OracleGame

    class SecondEditionGame(OracleGame):
        edition = load_edition(path)

    assert SecondEditionGame(players=3).edition.cards[0].points == 99
    assert OracleGame(players=3, edition="classic").edition.cards[0].points == 4


@pytest.mark.parametrize("condition", ["chips", "chips =< 2", "wings == 1", "up.chips == 1", "chips == 1 or"])
def test_malformed_conditions_are_refused(condition: str) -> None:
    with pytest.raises(ValueError, match="Oracle card O99"):
        compile_condition(condition, "O99")


def test_editions_must_hold_forty_cards(tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"cards": []}), encoding="utf-8")
    with pytest.raises(ValueError, match="40 Oracle cards"):
        load_edition(path)
