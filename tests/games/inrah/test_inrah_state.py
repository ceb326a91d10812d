"""Inrah-Orakel states: options, notation, the hook rule, trump, views,
resampling, the shared consistency suite, and whole games checked against an
independent reference scorer that reads only the records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from oracles.core.errors import ChanceNotEnumerableError, IllegalActionError, NotationError
from oracles.core.game import CHANCE, TERMINAL
from oracles.core.records import replay_record
from oracles.core.registry import load_game
from oracles.games.inrah.resample import _draw_hidden, _shuffle_from
from oracles.games.inrah.rules import InrahGame, InrahState
from oracles.testing import check_game


def new_state(**options: Any) -> InrahState:
    state = load_game("inrah", **options).new_initial_state()
    assert isinstance(state, InrahState)
    return state


def play_until(state: InrahState, rng: random.Random, stop: Any) -> InrahState:
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def legal_texts(state: InrahState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# ---------------------------------------------------------------- options
@pytest.mark.parametrize(("players", "elements", "rounds"), [(3, 3, 12), (4, 4, 12), (5, 5, 12), (6, 5, 10)])
def test_option_defaults(players: int, elements: int, rounds: int) -> None:
    game = load_game("inrah", players=players)
    assert game.options["elements"] == elements
    assert game.options["rounds"] == rounds
    assert game.options["trump"] is True and game.options["forbid_exact_sum"] is False
    assert game.options["variant"] == "standard"


def test_options_from_strings_and_defaults_follow_elements() -> None:
    game = load_game("inrah", players="6", elements="3", trump="off")
    assert game.options["rounds"] == 6 and game.options["trump"] is False
    assert load_game("inrah", players=4, elements=6).options["rounds"] == 18
    assert InrahGame.option_defaults()["players"] == 4


def test_max_game_length_is_exact() -> None:
    for options in InrahGame.test_option_sets:
        game = load_game("inrah", **options)
        state = play_until(new_state(**options), random.Random(3), lambda s: False)
        assert len(state.history()) == game.max_game_length()


# --------------------------------------------------------------- notation
def test_notation_round_trip_and_case() -> None:
    state = new_state(players=3)
    assert state.string_to_action("DEALER 1") == 1
    assert state.action_to_string(1) == "dealer 1"
    state.apply_string("dealer 1")
    action = state.string_to_action("deal Feuer-As / air-seer / WATER-7")
    assert state.string_to_action("deal fire-ace / air-seer / water-7") == action
    state.apply_action(action)
    assert state.action_to_string(state.string_to_action("trump Wasser-Magier")) == "trump water-mage"
    with pytest.raises(NotationError, match="not a card"):
        state.string_to_action("trump water-13")
    with pytest.raises(NotationError, match="chance 'trump'"):
        state.string_to_action("bid 1")


def test_deal_notation_errors() -> None:
    state = new_state(players=3)
    state.apply_string("dealer 0")
    for text, why in [
        ("deal fire-ace / fire-2", "3 hands"),
        ("deal fire-ace / fire-2 / fire-3 / fire-4", "3 hands"),
        ("deal fire-ace fire-5 / fire-2 / fire-3", "seat 0 gets 2"),
        ("deal fire-ace / ore-2 / fire-3", "ore is not in this deck"),
        ("dealer 2", "chance 'deal'"),
        ("", "empty"),
    ]:
        with pytest.raises(NotationError, match=why):
            state.string_to_action(text)
    # Deals are validated as integers too: records come from outside.
    with pytest.raises(IllegalActionError, match="fire-3 is dealt twice"):
        state.apply_action(2 + 2 * 36 + 0 * 36**2)  # fire-3 to seats 0 and 1
    assert state.history() == [0]


def test_unsorted_deal_integer_is_refused() -> None:
    state = new_state(players=3, rounds=2)
    state.apply_string("dealer 0")
    state.apply_string("deal fire-2 / fire-3 / fire-4")
    for text in ["trump fire-5", "bid 0", "bid 0", "bid 0", "play fire-3", "play fire-4", "play fire-2"]:
        state.apply_string(text)
    # round 2: seat 0's hand written as (fire-6, fire-5) is not canonical
    with pytest.raises(IllegalActionError, match="sorted order"):
        state.apply_action(6 + 5 * 36 + 7 * 36**2 + 8 * 36**3 + 9 * 36**4 + 10 * 36**5)
    with pytest.raises(IllegalActionError, match="not a deal"):
        state.apply_action(36**6)


def test_player_actions_have_distinct_integers() -> None:
    game = load_game("inrah", players=5, variant="altaia", rounds=3)
    state = play_until(new_state(players=5, variant="altaia", rounds=3), random.Random(1), lambda s: False)
    assert game.num_distinct_actions() == 60 + 4 + 4 * 5 * 4
    assert state.action_to_string(60) == "bid 0"
    assert state.action_to_string(64) == "hesinde P0 0"
    assert state.action_to_string(64 + 20 + 7) == "efferd P1 makes 3"
    assert state.action_to_string(64 + 40) == "efferd P0 misses 0"
    assert state.action_to_string(64 + 60 + 19) == "phex P4 3"


# ------------------------------------------------------------- hook rule
HOOK = [
    # options, round, bids before the dealer's, the dealer's legal bids
    ({"forbid_exact_sum": True}, 1, [0, 0], ["bid 0"]),
    ({"forbid_exact_sum": True}, 1, [1, 0], ["bid 1"]),
    ({"forbid_exact_sum": True}, 1, [1, 1], ["bid 0", "bid 1"]),
    ({"forbid_exact_sum": True}, 2, [0, 1], ["bid 0", "bid 2"]),
    ({"forbid_exact_sum": True}, 2, [2, 0], ["bid 1", "bid 2"]),
    ({"forbid_exact_sum": True}, 2, [2, 1], ["bid 0", "bid 1", "bid 2"]),
    ({"forbid_exact_sum": True}, 3, [0, 0], ["bid 0", "bid 1", "bid 2"]),
    (
        {"forbid_exact_sum": True, "variant": "standard", "trump": False},
        3,
        [1, 1],
        ["bid 0", "bid 2", "bid 3"],
    ),
    ({}, 1, [0, 0], ["bid 0", "bid 1"]),
    ({}, 2, [0, 1], ["bid 0", "bid 1", "bid 2"]),
]


@pytest.mark.parametrize(("options", "round_number", "bids", "dealer_bids"), HOOK)
def test_hook_rule(
    options: dict[str, Any], round_number: int, bids: list[int], dealer_bids: list[str]
) -> None:
    state = new_state(players=3, rounds=3, **options)
    state = play_until(
        state,
        random.Random(round_number),
        lambda s: s.view(0)["round"] == round_number and s.view(0)["phase"] == "bid",
    )
    assert legal_texts(state) == [f"bid {k}" for k in range(round_number + 1)]  # first bidder: free
    for k in bids:
        state.apply_string(f"bid {k}")
    assert state.current_player() == state.view(0)["dealer"]
    assert legal_texts(state) == dealer_bids
    for k in range(round_number + 1):
        if f"bid {k}" not in dealer_bids:
            with pytest.raises(IllegalActionError) as caught:
                state.apply_string(f"bid {k}")
            assert caught.value.reason == (
                f"bids may not add up to {round_number} trick{'s' if round_number > 1 else ''}: "
                f"the dealer may not bid {k}"
            )


def test_hook_rule_does_not_touch_altaia_oracles() -> None:
    state = new_state(players=3, rounds=1, variant="altaia", forbid_exact_sum=True)
    for text in ["dealer 0", "deal fire-2 / fire-3 / fire-4", "trump fire-5", "hesinde P0 0", "hesinde P0 0"]:
        state.apply_string(text)
    assert len(legal_texts(state)) == 3 * 2


# ------------------------------------------------------------------ trump
@pytest.mark.parametrize(("players", "elements", "rounds"), [(6, 3, 6), (4, 3, 9), (3, 3, 12)])
def test_last_round_of_a_full_deck_has_no_trump(players: int, elements: int, rounds: int) -> None:
    state = new_state(players=players, elements=elements)
    state = play_until(
        state, random.Random(5), lambda s: s.view(0)["round"] == rounds and s.view(0)["phase"] != "deal"
    )
    view = state.view(0)
    assert view["phase"] == "bid" and view["trump"] is None and view["trump_card"] is None
    assert not state.is_chance_node()
    with pytest.raises(NotationError, match="no trump card"):
        state.string_to_action("trump fire-2")
    texts = play_until(state, random.Random(6), lambda s: False).record()["actions"]
    assert sum(text.startswith("trump ") for text in texts) == rounds - 1
    assert sum(text.startswith("deal ") for text in texts) == rounds


def test_trump_outcomes_are_the_undealt_cards() -> None:
    state = new_state(players=3, rounds=2)
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_string("dealer 0")
    with pytest.raises(ChanceNotEnumerableError):
        state.chance_outcomes()
    state.apply_string("deal fire-2 / fire-3 / fire-4")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 33 and {a for a, _ in outcomes}.isdisjoint({1, 2, 3})
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12


@pytest.mark.parametrize("turned", ["ice-seer", "ice-mage", "ice-ace"])
def test_turned_seer_or_mage_still_names_trump(turned: str) -> None:
    state = new_state(players=3, elements=6, rounds=1)
    for text in [
        "dealer 0",
        "deal ice-2 / fire-prince / ice-4",
        f"trump {turned}",
        "bid 0",
        "bid 0",
        "bid 0",
    ]:
        state.apply_string(text)
    assert state.view(2)["trump"] == "ice"
    for text in ["play fire-prince", "play ice-4", "play ice-2"]:
        state.apply_string(text)
    assert state.view(0)["last_trick"]["reason"] == "highest trump"
    assert state.view(0)["tricks_taken"] == [0, 0, 1]


# ------------------------------------------------------------------ views
def test_views_hide_other_hands() -> None:
    state = new_state(players=4, rounds=4)
    rng = random.Random(11)
    own_deals: list[list[list[str]]] = [[] for _ in range(4)]
    while not state.is_terminal():
        hands = (
            [[state.action_to_string(c)[5:] for c in hand] for hand in state._hands]
            if not (state.is_chance_node())
            else [[] for _ in range(4)]
        )
        for seat in range(4):
            view = state.view(seat)
            if not state.is_chance_node():
                assert view["hand"] == hands[seat]
            # Past rounds' cards may be dealt again: check what shows this round's hands.
            text = json.dumps({k: v for k, v in view.items() if k not in ("log", "last_trick")})
            for other in range(4):
                if other != seat:
                    for word in hands[other]:
                        assert f'"{word}"' not in text, (seat, word)
            deals = [event["hand"] for event in view["log"] if event["kind"] == "deal"]
            assert deals == own_deals[seat]
        public_deals = [event for event in state.view(None)["log"] if event["kind"] == "deal"]
        assert all("hand" not in event for event in public_deals)
        if state.is_chance_node():
            action = state.sample_chance(rng)
            if state.action_to_string(action).startswith("deal "):
                for seat, group in enumerate(state.action_to_string(action)[5:].split(" / ")):
                    own_deals[seat].append(group.split())
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_view_contents() -> None:
    state = replay_record(
        {
            "game": "inrah",
            "options": {"players": 3, "rounds": 2},
            "actions": [
                "dealer 0",
                "deal fire-7 / water-2 / fire-prince",
                "trump water-ace",
                "bid 1",
                "bid 0",
            ],
        }
    )
    view = state.view(0)
    assert view["hand"] == ["fire-7"] and view["hand_sizes"] == [1, 1, 1]
    assert view["trump"] == "water" and view["trump_card"] == "water-ace"
    assert view["bids"] == [None, 1, 0] and view["oracles"] is None
    assert view["to_act"] == 0 and view["dealer"] == 0 and view["phase"] == "bid"
    assert view["log"] == [
        {"seq": 0, "seat": None, "kind": "dealer", "dealer": 0},
        {"seq": 1, "seat": None, "kind": "deal", "round": 1, "cards": 1, "hand": ["fire-7"]},
        {"seq": 2, "seat": None, "kind": "trump", "round": 1, "card": "water-ace", "element": "water"},
        {"seq": 3, "seat": 1, "kind": "bid", "round": 1, "bid": 1},
        {"seq": 4, "seat": 2, "kind": "bid", "round": 1, "bid": 0},
    ]
    assert state.view(1)["log"][1]["hand"] == ["water-2"]
    public = state.view(None)
    assert public["hand"] is None and public["seat"] is None
    assert "hand" not in public["log"][1]
    assert {k: v for k, v in public.items() if k not in ("seat", "hand", "log")} == {
        k: v for k, v in view.items() if k not in ("seat", "hand", "log")
    }
    for text in ["bid 0", "play water-2", "play fire-prince"]:
        state.apply_string(text)
    view = state.view(2)
    assert view["log"][-1] == {
        "seq": 7,
        "seat": 2,
        "kind": "play",
        "round": 1,
        "trick": 1,
        "card": "fire-prince",
    }
    assert view["trick"] == [{"seat": 1, "card": "water-2"}, {"seat": 2, "card": "fire-prince"}]
    assert view["trick_leader"] == 1 and view["led"] == "water" and view["hand"] == []
    assert view["seer_first"] is False
    state.apply_string("play fire-7")
    view = state.view(2)
    assert view["last_trick"]["winner"] == 1 and view["last_trick"]["reason"] == "highest trump"
    assert view["round_scores"] == [[20, 30, 20]] and view["scores"] == [20, 30, 20]
    assert view["round"] == 2 and view["dealer"] == 1 and view["phase"] == "deal"


# ------------------------------------------------------------- resampling
THREE_TO_ROUND_TWO = [
    "dealer 0",
    "deal fire-7 / water-2 / fire-prince",
    "trump water-ace",
    "bid 1",
    "bid 0",
    "bid 0",
    "play water-2",
    "play fire-prince",
    "play fire-7",
    "deal air-7 air-seer / water-7 air-mage / fire-2 air-3",
    "trump fire-knight",
    "bid 1",
    "bid 1",
    "bid 0",
]


def round_two(seat0_play: str) -> InrahState:
    state = new_state(players=3, rounds=2)
    for text in [
        "dealer 0",
        "deal fire-7 / water-2 / fire-prince",
        "trump water-ace",
        "bid 1",
        "bid 0",
        "bid 0",
        "play water-2",
        "play fire-prince",
        "play fire-7",
        "deal air-7 air-seer / water-7 air-mage / fire-2 air-3",
        "trump fire-knight",
        "bid 1",
        "bid 1",
        "bid 0",
        "play air-3",
        f"play {seat0_play}",
    ]:
        state.apply_string(text)
    return state


def seat0_hidden(state: InrahState, seat: int, rng: random.Random) -> list[str]:
    world = state.resample_from_infostate(seat, rng)
    assert world.view(seat) == state.view(seat)
    assert replay_record(world.record()).view(2) == world.view(2)
    return [world.action_to_string(c).split()[1] for c in world._hands[0]]


def test_a_seer_played_on_a_led_element_proves_no_void() -> None:
    state = round_two("air-seer")
    assert state.known_voids() == [0, 0, 0]
    rng = random.Random(2)
    seen = {card for _ in range(200) for card in seat0_hidden(state, 1, rng)}
    assert any(card.startswith("air-") and card[4:] not in ("seer", "mage") for card in seen)
    assert "air-seer" not in seen and "air-3" not in seen and "fire-knight" not in seen


def test_view_of_a_trick_led_by_a_mage_then_a_seer() -> None:
    assert round_two("air-seer").view(1)["led"] == "air"  # air-3 came first
    state = new_state(players=3, rounds=2)
    for text in THREE_TO_ROUND_TWO[:9]:
        state.apply_string(text)
    for text in ["deal air-7 air-seer / water-7 air-mage / fire-mage air-3", "trump fire-knight"]:
        state.apply_string(text)
    for text in THREE_TO_ROUND_TWO[11:]:
        state.apply_string(text)
    state.apply_string("play fire-mage")
    assert state.view(0)["led"] is None and state.view(0)["seer_first"] is False
    state.apply_string("play air-seer")
    assert state.view(0)["led"] is None and state.view(0)["seer_first"] is True
    assert legal_texts(state) == ["play water-7", "play air-mage"]
    state.apply_string("play water-7")
    assert state.view(0)["last_trick"]["winner"] == 0


def test_an_off_element_normal_card_proves_a_void() -> None:
    state = new_state(players=3, rounds=2)
    for text in [
        "dealer 0",
        "deal fire-7 / water-2 / fire-prince",
        "trump water-ace",
        "bid 1",
        "bid 0",
        "bid 0",
        "play water-2",
        "play fire-prince",
        "play fire-7",
        "deal fire-ace fire-3 / water-7 air-mage / fire-2 air-3",
        "trump fire-knight",
        "bid 1",
        "bid 1",
        "bid 0",
        "play air-3",
        "play fire-ace",
    ]:
        state.apply_string(text)
    assert state.known_voids() == [1 << 2, 0, 0]
    rng = random.Random(4)
    seen = {card for _ in range(200) for card in seat0_hidden(state, 1, rng)}
    assert len(seen) > 10
    assert not any(card.startswith("air-") and card[4:] not in ("seer", "mage") for card in seen)
    assert "air-seer" in seen or "air-mage" in seen


def test_resampling_varies_and_keeps_every_constraint() -> None:
    rng = random.Random(8)
    for options in ({"players": 4, "rounds": 5}, {"players": 5, "variant": "altaia", "rounds": 4}):
        for game_index in range(4):
            state = new_state(**options)
            game_rng = random.Random(game_index)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(game_rng))
                    continue
                seat = (state.current_player() + 1) % state.num_players
                voids = state.known_voids()
                world = state.resample_from_infostate(seat, rng)
                assert world.view(seat) == state.view(seat)
                assert world.legal_actions() == state.legal_actions() or seat != state.current_player()
                for other, mask in enumerate(voids):
                    if other != seat:
                        for c in world._hands[other]:
                            assert not (mask >> (c // 12) & 1 and c % 12 not in (9, 10))
                replayed = replay_record(world.record())
                assert [replayed.view(s) for s in range(state.num_players)] == [
                    world.view(s) for s in range(state.num_players)
                ]
                state.apply_action(game_rng.choice(state.legal_actions()))


def test_resample_at_chance_and_terminal_nodes() -> None:
    state = new_state(players=3, rounds=1)
    assert state.resample_from_infostate(0, random.Random(1)).history() == []
    assert state.current_player() == CHANCE
    state = play_until(state, random.Random(1), lambda s: False)
    world = state.resample_from_infostate(0, random.Random(1))
    assert world.current_player() == TERMINAL and world.history() == state.history()


def test_clone_is_independent() -> None:
    state = play_until(new_state(players=4, rounds=3), random.Random(2), lambda s: len(s.history()) == 20)
    twin = state.clone()
    before = [twin.view(s) for s in range(4)]
    play_until(state, random.Random(3), lambda s: False)
    assert [twin.view(s) for s in range(4)] == before
    assert len(twin.history()) == 20


# ------------------------------------------------ shared consistency suite
EXTRA_OPTION_SETS = (
    {"players": 3, "rounds": 2, "variant": "altaia", "trump": False},
    {"players": 6, "rounds": 2, "variant": "purpurberg", "forbid_exact_sum": True},
    {"players": 5, "rounds": 2, "elements": 6, "forbid_exact_sum": True},
    {"players": 6, "rounds": 2, "variant": "altaia", "elements": 4},
    {"players": 3, "elements": 3, "rounds": 12, "trump": True},
)


@pytest.mark.parametrize("options", InrahGame.test_option_sets + EXTRA_OPTION_SETS, ids=str)
def test_check_game(options: dict[str, Any]) -> None:
    stats = check_game(load_game("inrah", **options), playouts=2, seed=7)
    assert stats["resample_changed"]


# ------------------------------------------- independent reference scorer
RANK_VALUE = {
    "ace": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "squire": 8,
    "knight": 9,
    "prince": 10,
}


def reference_result(options: dict[str, Any], actions: list[str]) -> list[int]:
    """Scores of a finished record, computed from its text alone."""
    n = options["players"]
    variant = options.get("variant", "standard")
    totals = [0] * n
    dealer = 0
    hands: list[list[str]] = []
    predictions: list[tuple[int, str, int, int]] = []
    bids: dict[int, int] = {}
    acted = 0
    trick: list[tuple[int, str]] = []
    taken = [0] * n
    trump = None
    leader = 0
    for text in actions:
        words = text.split()
        if words[0] == "dealer":
            dealer = int(words[1]) - 1
        elif words[0] == "deal":
            dealer = (dealer + 1) % n
            hands = [group.split() for group in text[5:].split(" / ")]
            trump, bids, predictions, acted, taken, leader = None, {}, [], 0, [0] * n, (dealer + 1) % n
        elif words[0] == "trump":
            trump = words[1].split("-")[0]
        elif words[0] == "bid":
            bids[(dealer + 1 + acted) % n] = int(words[1])
            acted += 1
        elif words[0] in ("hesinde", "efferd", "phex"):
            seat = (dealer + 1 + acted) % n
            acted += 1
            target = int(words[1][1:])
            makes = words[0] == "hesinde" or (words[0] == "efferd" and words[2] == "makes")
            predictions.append((seat, "makes" if makes else "misses", target, int(words[-1])))
        else:
            seat = (leader + len(trick)) % n
            hands[seat].remove(words[1])
            trick.append((seat, words[1]))
            if len(trick) < n:
                continue
            ranks = [(s, c.split("-")[0], c.split("-")[1]) for s, c in trick]
            seers = [s for s, _, r in ranks if r == "seer"]
            normal = [(s, e, RANK_VALUE[r]) for s, e, r in ranks if r in RANK_VALUE]
            trumps = [(v, s) for s, e, v in normal if e == trump]
            if seers:
                winner = seers[0]
            elif trumps:
                winner = max(trumps)[1]
            elif normal:
                winner = max((v, s) for s, e, v in normal if e == normal[0][1])[1]
            else:
                winner = trick[0][0]
            taken[winner] += 1
            trick, leader = [], winner
            if hands[winner]:
                continue
            if variant == "altaia":
                for seat, kind, target, k in predictions:
                    t = taken[target]
                    if kind == "makes":
                        totals[seat] += 20 + 10 * t if t == k else -10 * abs(k - t)
                    else:
                        totals[seat] += -20 * k if t == k else -10 * abs(k - t)
                continue
            gains = [
                20 + 10 * taken[s] if bids[s] == taken[s] else -10 * abs(bids[s] - taken[s]) for s in range(n)
            ]
            if variant == "purpurberg":
                for s in range(n):
                    p = (s + n // 2) % n
                    both = bids[s] == taken[s] and bids[p] == taken[p]
                    totals[s] += (
                        gains[s] + gains[p] if both else -10 * abs(bids[s] + bids[p] - taken[s] - taken[p])
                    )
            else:
                totals = [a + b for a, b in zip(totals, gains, strict=True)]
    return totals


FULL_GAMES = [
    {"players": 6, "elements": 3},
    {"players": 3},
    {"players": 4, "forbid_exact_sum": True},
    {"players": 4, "variant": "purpurberg", "trump": False},
    {"players": 6, "variant": "purpurberg", "elements": 6},
    {"players": 5, "variant": "altaia"},
    {"players": 3, "variant": "altaia", "elements": 4},
]


@pytest.mark.parametrize("options", FULL_GAMES, ids=str)
def test_full_games_match_the_reference_scorer(options: dict[str, Any]) -> None:
    for seed in range(2):
        state = play_until(new_state(**options), random.Random(seed), lambda s: False)
        record = json.loads(json.dumps(state.record()))
        assert reference_result(state.game.options, record["actions"]) == state.scores()
        replayed = replay_record(record)
        assert replayed.scores() == state.scores() and replayed.winners() == state.winners()
        best = max(state.scores())
        assert state.winners() == [s for s, v in enumerate(state.scores()) if v == best]


def test_resample_fallback_keeps_voids_and_moves_cards() -> None:
    # Seat 1 holds no normal fire card, seat 2 none of water; 0 fire, 1 water, 2 air.
    pool = [0, 1, 12, 13, 24, 25]
    voids = [0, 1 << 0, 1 << 1]
    hands = {1: [12, 24], 2: [0, 25]}
    rng = random.Random(5)
    seen = set()
    for _ in range(100):
        result = _shuffle_from(pool, hands, voids, rng)
        assert sorted(len(h) for h in result.values()) == [2, 2]
        assert not any(c < 12 for c in result[1]) and not any(12 <= c < 24 for c in result[2])
        seen.add(tuple(sorted(result[1])))
        drawn = _draw_hidden(pool, {1: 2, 2: 2}, voids, rng)
        assert drawn is not None and not any(c < 12 for c in drawn[1])
    assert len(seen) > 3
    assert _draw_hidden([0, 1], {1: 2}, voids, rng) is None


def test_altaia_oracles_are_events_with_fields() -> None:
    state = replay_record(
        {
            "game": "inrah",
            "options": {"players": 3, "rounds": 1, "variant": "altaia"},
            "actions": [
                "dealer 2",
                "deal fire-seer / fire-2 / water-3",
                "trump air-2",
                "hesinde P0 1",
                "hesinde P1 0",
                "hesinde P2 0",
                "efferd P2 misses 1",
                "efferd P0 makes 1",
            ],
        }
    )
    events = [event for event in state.view(None)["log"] if event["kind"] in ("hesinde", "efferd")]
    assert events[0] == {
        "seq": 3,
        "seat": 0,
        "kind": "hesinde",
        "round": 1,
        "named": 0,
        "k": 1,
        "makes": True,
    }
    assert events[3] == {
        "seq": 6,
        "seat": 0,
        "kind": "efferd",
        "round": 1,
        "named": 2,
        "k": 1,
        "makes": False,
    }
    assert events[4]["makes"] is True and events[4]["seat"] == 1
    assert state.view(2)["oracles"][0] == [
        {"kind": "hesinde", "named": 0, "k": 1, "makes": True},
        {"kind": "efferd", "named": 2, "k": 1, "makes": False},
    ]
