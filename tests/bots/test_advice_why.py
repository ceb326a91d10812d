"""Hints that teach: the advice's outcome rates come from the same rollouts
as its values, and its reasons say in words (English and German) what a move
does for the seat, naming only what the seat may see."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator

import pytest

from oracles.bots import advice as advice_module
from oracles.bots.advice import MoveValue, advise, reasons, review
from oracles.bots.base import SeatInfo
from oracles.bots.hooks import outcomes_for, policy_for
from oracles.core.game import State
from oracles.core.registry import game_part, load_game
from oracles.testing import decision_positions


def _heuristic_positions(game_id: str, seeds: range, **options: object) -> Iterator[tuple[State, int]]:
    """Every decision of seeded games of heuristic bots, in order."""
    policy = policy_for(game_id)
    for seed in seeds:
        state = load_game(game_id, **options).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.current_player()
            yield state, seat
            state.apply_action(policy(state, seat, rng))


def _move(advice: advice_module.Advice, notation: str) -> MoveValue:
    return next(move for move in advice.moves if move.notation == notation)


def test_oracle_why_names_the_loser_chip_the_move_avoids() -> None:
    """At the last trick's Loser decision the choice is final: keeping the
    chip ends the round with it in every world, putting it back in none.
    Where the seat's prophecies fare alike either way, the best move's reason
    is the Loser chip avoided, and the other's the Loser chip risked."""
    for state, seat in _heuristic_positions("oracle", range(60), players=3, rounds=1):
        view = state.view(seat)
        if view["phase"] != "loser" or any(view["hand_sizes"]):
            continue
        creature = view["pending_loser"]
        advice = advise(SeatInfo(state, seat), seed=1, worlds=6)
        keep, back = _move(advice, "loser keep"), _move(advice, "loser return")
        assert keep.outcomes[f"loser:{creature}"] == 1.0
        assert back.outcomes[f"loser:{creature}"] == 0.0
        held = {key for key in keep.outcomes if key.startswith("holds:")}
        if any(keep.outcomes[key] != back.outcomes[key] for key in held):
            continue  # a prophecy differs too: the reason may name it instead
        # The Loser chip costs the seat that creature's chips.
        assert back.value > keep.value and advice.best == back
        english = reasons(advice, "oracle", "en")
        name = {"hydra": "Hydra", "pegasus": "Pegasus", "phoenix": "Phoenix"}[creature]
        assert english[0] == (
            f"Avoids the {name} Loser chip: you end with it in 0% of the games the bot played out, "
            "against 100% with “Keep the Loser chip”."
        )
        assert english[1] is not None and english[1].startswith(f"Risks the {name} Loser chip")
        german = reasons(advice, "oracle", "de")
        assert german[0] is not None and german[0].startswith("Vermeidet den ")
        assert "-Verliererchip: du endest mit ihm in 0 % der Annahmen, gegenüber 100 %" in german[0]
        return
    pytest.fail("no final Loser decision found in the seeded games")


def test_oracle_why_names_the_prophecy_kept_alive() -> None:
    """A card play after which a kept prophecy holds in far more worlds is
    explained by that prophecy's text."""
    narrate = game_part("oracle", "narrate")
    for state, seat in _heuristic_positions("oracle", range(30), players=3, rounds=1):
        if state.view(seat)["phase"] != "play" or len(state.legal_actions()) < 2:
            continue
        advice = advise(SeatInfo(state, seat), seed=2, worlds=6)
        best, runner_up = advice.moves[0], advice.moves[1]
        gaps = {
            key: best.outcomes[key] - runner_up.outcomes[key]
            for key in best.outcomes
            if key.startswith("holds:")
        }
        losers = [
            abs(best.outcomes[k] - runner_up.outcomes[k]) for k in best.outcomes if k.startswith("loser:")
        ]
        if not gaps or max(gaps.values()) < 0.5 or max(losers) >= max(gaps.values()):
            continue
        card = max(gaps, key=lambda key: gaps[key]).partition(":")[2]
        said = reasons(advice, "oracle", "en")[0]
        text = narrate.prophecy_text(card, "en")
        assert said is not None and said.startswith(f"Keeps “{text}” alive: it holds in ")
        assert said.endswith(f"with “{narrate.move_label(runner_up.notation, 'en')}”.")
        german = reasons(advice, "oracle", "de")[0]
        assert german is not None and german.startswith(
            f"Hält „{narrate.prophecy_text(card, 'de')}“ am Leben"
        )
        return
    pytest.fail("no card play that keeps a prophecy alive found")


def test_oracle_why_words_a_card_as_the_table_s_edition_does() -> None:
    """At a table of five playing the balanced edition, O13 asks for more
    Hydra chips than each neighbour: a hint or a review names it so (in
    English and in the edition's German), not by the printed card's
    words, which the same reason gives without a game."""
    narrate = game_part("oracle", "narrate")
    game = load_game("oracle", players=5, rounds=1, edition="balanced")
    rates, other = {"holds:O13": 0.75, "loser:hydra": 0.0}, {"holds:O13": 0.25, "loser:hydra": 0.0}
    english = narrate.why("play R5", rates, "play R9", other, True, "en", game)
    assert english == (
        "Keeps “more Hydra chips than each of your neighbours” alive: it holds in 75% of the games the bot played out, "
        "against 25% with “Play Red 9”."
    )
    german = narrate.why("play R5", rates, "play R9", other, True, "de", game)
    assert german is not None and "„mehr Hydra-Chips als jeder deiner beiden Nachbarn“" in german
    printed = narrate.why("play R5", rates, "play R9", other, True, "en")
    assert printed is not None and "“more Hydra chips than Phoenix chips”" in printed
    # A keep says how often its cards hold, in the same words.
    alone = narrate.why("keep O13 O34", {"holds:O13": 0.5, "holds:O34": 0.2}, None, None, True, "en", game)
    assert alone == (
        "“more Hydra chips than each of your neighbours” holds in 50% of the games the bot played out, "
        "“fewer stars than each of your neighbours” in 20%."
    )


def test_oracle_hints_pass_the_game_to_the_words() -> None:
    """``reasons`` and the review hand the game played to the words, so the
    server's hint desk and ``oracles review`` word the table's edition."""
    game = load_game("oracle", players=5, rounds=1, edition="balanced")
    advice = advice_module.Advice(
        "points",
        [
            MoveValue(0, "play R5", 3.0, 0.1, {"holds:O34": 0.9}),
            MoveValue(1, "play R9", 1.0, 0.1, {"holds:O34": 0.1}),
        ],
        6,
    )
    said = reasons(advice, "oracle", "en", game)[0]
    assert said is not None and "“fewer stars than each of your neighbours”" in said
    printed = reasons(advice, "oracle", "en")[0]
    assert printed is not None and "“fewer chips than every other player”" in printed


def test_inrah_why_names_the_bid_only_one_card_keeps_makeable() -> None:
    """The seat has taken the tricks it bid and plays last to a trick: a
    card that wins the trick breaks the bid in every world; the advice says
    so, and the best move's reason is the bid it keeps."""
    for state, seat in _heuristic_positions("inrah", range(200), players=3, rounds=3):
        view = state.view(seat)
        if view["phase"] != "play" or len(view["trick"]) != 2:
            continue
        bid = view["bids"][seat]
        if view["tricks_taken"][seat] != bid:
            continue
        winning = []
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            if after.view(seat)["tricks_taken"][seat] > bid:
                winning.append(state.action_to_string(action))
        if not winning or len(winning) == len(state.legal_actions()):
            continue
        advice = advise(SeatInfo(state, seat), seed=3, worlds=8)
        key = f"bid:{bid}"
        for notation in winning:
            assert _move(advice, notation).outcomes[key] == 0.0
        best = advice.best
        if best.notation in winning or best.outcomes[key] < NOTABLE_FOR_TEST:
            continue
        said = reasons(advice, "inrah", "en")
        assert said[0] is not None
        assert said[0].startswith(f"Makes your bid of {bid} trick")
        for move, why in zip(advice.moves, said, strict=True):
            if move.notation in winning:
                assert why is not None and " in only 0% of the games the bot played out, against " in why
        german = reasons(advice, "inrah", "de")
        assert german[0] is not None and german[0].startswith(f"Erfüllt deine Ansage von {bid} Stich")
        return
    pytest.fail("no position where only some cards keep the bid makeable")


#: The best move's bid rate a scenario needs for its comparison to be notable.
NOTABLE_FOR_TEST = 0.2


def test_outcome_rates_come_from_the_very_worlds_of_the_values() -> None:
    """Replaying advise's own worlds and draws by hand gives each value and
    each outcome rate: every rate is a count over the same rollouts."""
    game = load_game("inrah", players=3, rounds=2)
    state = next(s for s in decision_positions(game, 1, seed=3, keep=0.5) if len(s.legal_actions()) > 1)
    seat = state.current_player()
    info = SeatInfo(state, seat)
    advice = advise(info, seed="x", worlds=5)
    rng = random.Random("advice:x")
    worlds = [info.sample_world(rng) for _ in range(5)]
    outcomes = outcomes_for("inrah")
    assert outcomes is not None
    for move in advice.moves:
        values, came_true = [], {}
        for index, world in enumerate(worlds):
            trial = world.clone()
            trial.apply_trusted(move.action)
            seen: dict[str, bool] = {}
            values.append(
                advice_module._rollout(
                    trial, seat, random.Random(f"x:{index}"), None, outcomes, seen, world.scores()
                )
            )
            for key, happened in seen.items():
                came_true[key] = came_true.get(key, 0) + happened
        assert move.value == statistics.fmean(values)
        assert move.outcomes == {key: count / 5 for key, count in sorted(came_true.items())}


@pytest.mark.parametrize(
    ("game_id", "options"), [("oracle", {"players": 3, "rounds": 1}), ("inrah", {}), ("codename", {})]
)
def test_reading_outcomes_leaves_the_values_as_they_were(
    game_id: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same seed, same values, with or without the outcomes read."""
    positions = list(decision_positions(load_game(game_id, **options), 1, seed=8, keep=0.2))[:4]
    with_reasons = [advise(SeatInfo(s, s.current_player()), seed=4, worlds=3) for s in positions]
    monkeypatch.setattr(advice_module, "outcomes_for", lambda game_id: None)
    without = [advise(SeatInfo(s, s.current_player()), seed=4, worlds=3) for s in positions]
    for one, two in zip(with_reasons, without, strict=True):
        assert [(m.action, m.value, m.margin) for m in one.moves] == [
            (m.action, m.value, m.margin) for m in two.moves
        ]
        assert all(not m.outcomes for m in two.moves)
    assert any(m.outcomes for advice in with_reasons for m in advice.moves)


def test_reasons_name_nothing_the_seat_cannot_see() -> None:
    """Oracle reasons speak of the seat's own prophecies and of its legal
    moves only: no text of another seat's unrevealed Oracle card (unless a
    card the seat sees says the same) and no card of another hand."""
    narrate = game_part("oracle", "narrate")
    checked = 0
    for state in decision_positions(load_game("oracle", players=3, rounds=2), 2, seed=11, keep=0.25):
        seat = state.current_player()
        view = state.view(seat)
        seen_ids = {c["id"] for c in view["oracle_cards"]} | {c["id"] for c in view["kept"]}
        for round_kept in view["revealed"]:
            for pair in round_kept:
                seen_ids |= set(pair)
        seen_texts = {narrate.prophecy_text(card, lang) for card in seen_ids for lang in ("en", "de")}
        hidden_texts = set()
        hidden_cards = set()
        for other in range(state.num_players):
            if other == seat:
                continue
            truth = state.view(other)
            hidden_texts |= {
                narrate.prophecy_text(c["id"], lang)
                for c in truth["oracle_cards"] + truth["kept"]
                if c["id"] not in seen_ids
                for lang in ("en", "de")
            }
            hidden_cards |= {
                narrate.card_words(card, lang) for card in truth["hand"] for lang in ("en", "de")
            }
        hidden_texts -= seen_texts
        advice = advise(SeatInfo(state, seat), seed=5, worlds=3)
        for lang in ("en", "de"):
            for why in reasons(advice, "oracle", lang):
                if why is None:
                    continue
                checked += 1
                assert not [text for text in hidden_texts if f"“{text}”" in why or f"„{text}“" in why], why
                assert not [card for card in hidden_cards if card in why], why
    assert checked


def test_review_marks_say_why() -> None:
    """``review``'s marks carry the reason the best move beats the one
    played (here, a seat that keeps every Loser chip at the last trick)."""
    for state, seat in _heuristic_positions("oracle", range(60), players=3, rounds=1):
        view = state.view(seat)
        if view["phase"] != "loser" or any(view["hand_sizes"]):
            continue
        keep = next(a for a in state.legal_actions() if state.action_to_string(a) == "loser keep")
        index = len(state.history())
        final = state.clone()
        final.apply_action(keep)

        def state_at(i: int, final: State = final) -> State:
            replay = final.game.new_initial_state()
            for action in final.history()[:i]:
                replay.apply_trusted(action)
            return replay

        marks = review(state_at, final.history(), seat, margin=0.0, worlds=4, only={index})
        if not marks:
            continue  # keeping it was worth as much here
        (mark,) = marks
        assert mark.played == "loser keep" and mark.best == "loser return"
        assert mark.why is not None and "with “Keep the Loser chip”" in mark.why
        return
    pytest.fail("no final Loser decision found to review")


def test_oracle_outcomes_are_the_scoring_the_seat_s_log_shows() -> None:
    """``outcomes`` reads the last scoring alone, as the seat's log tells it:
    the seat's kept prophecies, whether each held, and its Loser chips."""
    narrate = game_part("oracle", "narrate")
    state = load_game("oracle", players=3, rounds=2).new_initial_state()
    rng = random.Random(6)
    policy = policy_for("oracle")
    scorings = 0
    while True:
        ended = state.is_terminal() or (
            state.is_chance_node() and len(state.view(0)["round_scores"]) > scorings
        )
        if ended:
            scorings = len(state.view(0)["round_scores"])
            for seat in range(3):
                event = [e for e in state.view(seat)["log"] if e["kind"] == "score"][-1]
                expected = {
                    f"holds:{c}": h for c, h in zip(event["kept"][seat], event["holds"][seat], strict=True)
                }
                expected |= {
                    f"loser:{c}": c in event["losers"][seat] for c in ("hydra", "pegasus", "phoenix")
                }
                assert narrate.outcomes(state, seat) == expected
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(policy(state, state.current_player(), rng))
    assert scorings == 2


def test_codename_why_names_the_strike_a_shield_blocks() -> None:
    """Struck, the seat may block with a shield or pass: passing lets the
    strike hit in every world (the struck cards are face up, the shields
    the seat's own); a block stops this strike, though the striker may hit
    later in the turn. Where the block saves the seat from being hit in
    most worlds, its reason is the hit it saves."""
    narrate = game_part("codename", "narrate")
    for state, seat in _heuristic_positions("codename", range(8)):
        legal = {state.action_to_string(a): a for a in state.legal_actions()}
        if "respond pass" not in legal:
            continue
        seen = len(state.view(seat)["log"])

        def hit_after(action: int, state: State = state, seat: int = seat, seen: int = seen) -> bool:
            after = state.clone()
            after.apply_action(action)
            return any(e["kind"] == "hit" for e in after.view(seat)["log"][seen:])

        blocks = [text for text, action in legal.items() if text != "respond pass" and not hit_after(action)]
        if not blocks or not hit_after(legal["respond pass"]):
            continue
        advice = advise(SeatInfo(state, seat), seed=7, worlds=4, extra=legal[blocks[0]])
        passed, block = _move(advice, "respond pass"), _move(advice, blocks[0])
        assert passed.outcomes["hit:taken"] == 1.0
        if block.outcomes["hit:taken"] > 0.5:
            continue  # the striker hits later anyway
        said = narrate.why(block.notation, block.outcomes, passed.notation, passed.outcomes, True, "en")
        label = narrate.move_label("respond pass", "en")
        rate = round(100 * block.outcomes["hit:taken"])
        assert said == (
            f"Your opponent's strike hits you this turn in {rate}% of the games the bot played out, against 100% with “{label}”."
        )
        german = narrate.why(block.notation, block.outcomes, passed.notation, passed.outcomes, True, "de")
        assert german.startswith(
            f"In {rate} % der Annahmen trifft dich in diesem Zug ein Schlag deines Gegners"
        )
        return
    pytest.fail("no strike a shield blocks found in the seeded games")
