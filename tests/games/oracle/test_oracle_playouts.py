"""Oracle: invariants over seeded random games, resampling, the shared suite."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from oracles import load_game
from oracles.core.records import replay_record
from oracles.games.oracle.cards import COLOUR_MASK, HAND_SIZE, NUM_VALUES, VICTORY_CHIPS
from oracles.games.oracle.rules import DEAL, OVER, OracleState
from oracles.testing import check_game

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 3, "rounds": 2},
    {"players": 4, "rounds": 2},
    {"players": 5, "rounds": 1},
    {"players": 3, "draft": True, "rounds": 1},
    {"players": 4, "draft": True, "rounds": 1},
    {"players": 5, "draft": True, "rounds": 1},
]


def step(state: OracleState, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def chips_in_play(state: OracleState) -> int:
    """Victory point and Loser chips, in the middle and in front of the seats."""
    losers_in_middle = state.loser_holder.count(-1)
    losers_held = sum(1 for holder in state.loser_holder if 0 <= holder < state.num_players)
    return sum(state.middle) + losers_in_middle + sum(state.held) + losers_held


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
def test_random_playout_invariants(options: dict[str, Any]) -> None:
    game = load_game("oracle", **options)
    n = game.num_players
    edition = game.edition  # type: ignore[attr-defined]
    for index in range(3):
        rng = random.Random(f"invariants:{index}")
        state = game.new_initial_state()
        assert isinstance(state, OracleState)
        rounds_scored = 0
        while not state.is_terminal():
            step(state, rng)
            if state.phase in (DEAL, OVER) and len(state.round_scores) > rounds_scored:
                rounds_scored += 1
                # Every trick of the round was played.
                assert len(state.tricks) == HAND_SIZE[n]
                assert all(hand == 0 for hand in state.hands)
                # After the forfeit no seat keeps chips of a creature whose Loser chip it holds.
                for creature, holder in enumerate(state.loser_holder):
                    if holder >= 0:
                        assert state.held[holder * 3 + creature] == 0
                # Round points = stars kept + points of the prophecies that hold.
                quantities = state.chip_quantities()
                for seat, pair in enumerate(state.revealed[-1]):
                    expected = quantities[seat][9] + sum(
                        edition.cards[card].points
                        for card in pair
                        if edition.cards[card].holds(quantities, seat)
                    )
                    assert state.round_scores[-1][seat] == expected
            elif state.round_number:
                # Victory point chips are in the middle or in front of a seat, never lost.
                assert chips_in_play(state) == sum(VICTORY_CHIPS[n]) + 3
        assert len(state.round_scores) == game.options["rounds"]
        assert state.scores() == [float(sum(points)) for points in zip(*state.round_scores, strict=True)]
        best = max(state.scores())
        assert state.winners() == [seat for seat, score in enumerate(state.scores()) if score == best]


def voids(state: OracleState) -> list[set[int]]:
    n = state.num_players
    lacking: list[set[int]] = [set() for _ in range(n)]
    tricks = [(leader, cards) for leader, cards, _ in state.tricks] + [(state.leader, tuple(state.trick))]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            if card // NUM_VALUES != cards[0] // NUM_VALUES:
                lacking[(leader + i) % n].add(cards[0] // NUM_VALUES)
    return lacking


@pytest.mark.parametrize("players", [3, 4, 5])
def test_resample_respects_voids_and_varies_hands(players: int) -> None:
    game = load_game("oracle", players=players, rounds=1)
    rng = random.Random(players)
    state = game.new_initial_state()
    assert isinstance(state, OracleState)
    # Play into the middle of the round, until some seat has shown a void.
    while not (state.phase == 5 and len(state.tricks) >= 4 and any(voids(state))):
        step(state, rng)
        assert not state.is_terminal()
    seat = state.current_player()
    seen_hands = set()
    for _ in range(20):
        world = state.resample_from_infostate(seat, rng)
        assert isinstance(world, OracleState)
        assert world.view(seat) == state.view(seat)
        assert world.hands[seat] == state.hands[seat]
        for other, lacking in enumerate(voids(state)):
            assert world.hands[other].bit_count() == state.hands[other].bit_count()
            for colour in lacking:
                assert not world.hands[other] & COLOUR_MASK[colour]
        seen_hands.add(tuple(world.hands))
    assert len(seen_hands) > 1


def test_resample_redraws_unrevealed_oracle_cards_of_past_rounds() -> None:
    game = load_game("oracle", players=4, rounds=2)
    rng = random.Random(11)
    state = game.new_initial_state()
    assert isinstance(state, OracleState)
    while state.round_number < 2 or state.phase < 3:
        step(state, rng)
    world = state.resample_from_infostate(0, rng)
    original, other = state.record()["actions"], world.record()["actions"]
    index = 2  # dealer, deal, oracles: round 1's Oracle cards
    assert original[index] != other[index]
    seat0 = original[index].split(" / ")[0]
    assert other[index].split(" / ")[0] == seat0  # seat 0's own cards stay
    # Revealed keeps stay: the scores of round 1 are unchanged.
    assert world.round_scores == state.round_scores
    assert replay_record(json.loads(json.dumps(world.record()))).history() == world.history()


def test_resample_in_draft_keeps_what_the_seat_saw() -> None:
    game = load_game("oracle", players=4, draft=True, rounds=1)
    rng = random.Random(3)
    state = game.new_initial_state()
    assert isinstance(state, OracleState)
    while not (
        state.phase == 4 and len(state.discards) >= 4 and state.current_player() == (state.dealer + 3) % 4
    ):
        step(state, rng)
    for seat in range(4):
        worlds = [state.resample_from_infostate(seat, rng) for _ in range(5)]
        for world in worlds:
            assert world.view(seat) == state.view(seat)
            assert world.discards == state.discards
        assert len({tuple(map(tuple, w.oracle_cards)) for w in worlds}) > 1


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
def test_shared_consistency_suite(options: dict[str, Any]) -> None:
    result = check_game(load_game("oracle", **options), playouts=1, seed=3)
    assert result["resample_changed"]


def test_resample_in_draft_does_not_reveal_where_passed_cards_went() -> None:
    game = load_game("oracle", players=4, draft=True, rounds=1)
    rng = random.Random(8)
    state = game.new_initial_state()
    assert isinstance(state, OracleState)
    state.apply_string("dealer 3")  # seat 0 draws and passes first
    while state.phase != 5:
        step(state, rng)
    # Seat 0 is first in each cycle: its passes are actions 3, 7, 11, ...
    passed = [card for action in state.history()[3::4] if 842 <= action < 1622 for card in _pair(action)]
    lost = [card for card in passed if card not in state.discards]
    assert lost, "pick another seed: every passed card was discarded"
    holders = set()
    for _ in range(40):
        world = state.resample_from_infostate(0, rng)
        assert world.view(0) == state.view(0)
        assert world.discards == state.discards
        holders.add(next(seat for seat, pair in enumerate(world.kept) if pair and lost[0] in pair))
    assert len(holders) > 1


def _pair(action: int) -> tuple[int, int]:
    from oracles.games.oracle.rules import PAIRS, PASS_BASE

    return PAIRS[action - PASS_BASE]


def test_views_never_show_hidden_cards() -> None:
    import re

    from oracles.games.oracle.cards import CARD_NAMES, cards_of_mask
    from oracles.games.oracle.prophecies import ORACLE_IDS

    token = re.compile(r"\b[RBGYPO]\d+\b")
    for players in (3, 4, 5):
        game = load_game("oracle", players=players, rounds=1)
        rng = random.Random(players * 7)
        state = game.new_initial_state()
        assert isinstance(state, OracleState)
        checked = 0
        while not state.is_terminal():
            step(state, rng)
            if state.round_scores:
                break  # the kept cards are revealed at the scoring
            for seat in range(players):
                shown = set(token.findall(json.dumps(state.view(seat))))
                for other in range(players):
                    if other == seat:
                        continue
                    hidden = {CARD_NAMES[card] for card in cards_of_mask(state.hands[other])}
                    hidden |= {ORACLE_IDS[card] for card in state.oracle_cards[other]}
                    assert not shown & hidden, f"seat {seat} sees {shown & hidden} of seat {other}"
                    checked += 1
        assert checked > 100


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
def test_public_view_shows_no_oracle_card_before_its_time(options: dict[str, Any]) -> None:
    """The public view names an Oracle card only once it is discarded (draft)
    or revealed by the scoring, and no event in it carries a hand."""
    from oracles.core.views import string_leaves
    from oracles.games.oracle.prophecies import ORACLE_IDS

    rng = random.Random(12)
    state = load_game("oracle", **options).new_initial_state()
    assert isinstance(state, OracleState)
    while not state.is_terminal():
        step(state, rng)
        public = state.view(None)
        assert public["hand"] is None and public["oracle_cards"] == [] and public["kept"] == []
        allowed = set(public.get("draft", {}).get("discards", []))
        for pairs in public["revealed"]:
            for pair in pairs:
                allowed.update(pair)
        shown = string_leaves(public) & set(ORACLE_IDS)
        assert shown <= allowed, shown - allowed
        for event in public["log"]:
            assert "hand" not in event
            if event["kind"] in ("keep", "pass", "draw", "oracles"):
                assert "cards" not in event, event


@pytest.mark.parametrize("options", OPTION_SETS[:2] + OPTION_SETS[4:5], ids=lambda o: json.dumps(o))
def test_views_of_a_clone_played_on_match_a_fresh_replay(options: dict[str, Any]) -> None:
    """A clone keeps the log entries its original's views made (a server
    clones before every move), and its views stay exactly those of the same
    game replayed from scratch, for every seat and the public, even when two
    clones of one state go different ways."""
    game = load_game("oracle", **options)
    rng = random.Random(11)
    state = game.new_initial_state()
    history: list[int] = []
    viewers: list[int | None] = [*range(game.num_players), None]
    while not state.is_terminal():
        for viewer in viewers:
            state.view(viewer)  # fills the original's log entries
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            if len(legal) > 1:
                # A sibling clone takes another way and views it: the main line must not see it.
                sibling = state.clone()
                sibling.apply_action(next(a for a in legal if a != action))
                for viewer in viewers:
                    sibling.view(viewer)
        following = state.clone()
        following.apply_action(action)
        history.append(action)
        fresh = game.new_initial_state()
        for past in history:
            fresh.apply_action(past)
        for viewer in viewers:
            assert following.view(viewer) == fresh.view(viewer)
        state = following


def test_views_share_the_log_entries_all_seats_see_alike_and_hand_out_copies() -> None:
    """A server keeps every seat's log: an event that looks the same to all
    seats is kept once; yet each view gets entries of its own to change."""
    game = load_game("oracle", players=4, rounds=1)
    rng = random.Random(5)
    state = game.new_initial_state()
    assert isinstance(state, OracleState)
    for _ in range(40):
        step(state, rng)
    views = [state.view(seat) for seat in range(4)]
    plays = [i for i, entry in enumerate(views[0]["log"]) if entry.get("kind") == "play"]
    assert plays
    kept = [state._logs[seat] for seat in range(4)]
    for index in plays:
        assert all(log[index] is kept[0][index] for log in kept)
    deal = next(i for i, entry in enumerate(views[0]["log"]) if entry.get("kind") == "deal")
    assert len({id(log[deal]) for log in kept}) == 4  # each seat saw its own hand
    views[0]["log"][plays[0]]["card"] = "changed"
    assert state.view(1)["log"][plays[0]]["card"] != "changed"
    assert state.view(0)["log"][plays[0]]["card"] != "changed"
