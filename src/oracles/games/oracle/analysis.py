"""Oracle: the facts of each round and the designer's tables.

:func:`round_facts` is the one place that reads Oracle's views (at the end of
a round, after the Loser forfeit); everything else works on its output.

Tables (one row per ...):

* ``prophecies`` (card): how often it is dealt and kept, how often it holds
  when kept and how often every dealt copy would have held for its holder,
  its expected points when kept (points x holds-when-kept) against the median
  card's, and a *fair value*: the points that would bring its expected
  points when kept to the median (holds-when-kept, or for a card never
  kept holds-when-dealt, held fixed). In the draft variant a seat's dealt
  cards are the two it ends with.
* ``creatures`` (creature): per round, tricks won with its cards, the chips
  they earned (victory point chips while any are left, then its Loser chip;
  a trick won by the Loser chip's holder earns none) and of them victory
  point chips, victory point chips forfeited for its Loser chip, and how
  often its Loser chip ends in front of a player.
* ``seats`` (seat): final score and win rate by seat.
* ``dealer`` (position from the dealer): round score and how often that
  position scores best in the round.
* ``variants`` (configuration): the draft against the plain deal and each
  player count: score spread (best minus worst of a game), how often a
  kept prophecy holds, prophecy points per player and round.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from oracles.analysis.collect import Played, round_end_states
from oracles.analysis.report import Plot, Table
from oracles.analysis.stats import mean, rate, spread, warnings_of
from oracles.core.game import State
from oracles.games.oracle.cards import CARD_CREATURE, CREATURE_NAMES, parse_card
from oracles.games.oracle.prophecies import Edition, chip_quantities

#: A card kept in fewer of the deals that hand it out is *dead*.
DEAD_KEPT_RATE = 0.05
#: The band around the median card's expected points when kept that counts as even.
BAND = 0.35


def _edition(state: State) -> Edition:
    edition: Edition = state.game.edition  # type: ignore[attr-defined]
    return edition


def round_facts(state: State) -> dict[str, Any]:
    """What happened in the round that just ended, from every seat's view.

    Per seat: position after the dealer (0 = first to act, n-1 = dealer), the
    round's score and stars, the dealt Oracle cards as ``[id, points, would
    hold]``, the kept ids and whether each holds; per creature: tricks won
    with its cards, the chips they earned, the victory point chips forfeited
    and whether its Loser chip ends with a player (:func:`_creature_facts`); and every
    seat's quantity vector (:func:`.prophecies.chip_quantities`, public at the
    end of the round), on which ``oracles balance`` tries conditions no card has.
    """
    n = state.num_players
    views = [state.view(seat) for seat in range(n)]
    public = views[0]
    chips = public["chips"]["seats"]
    quantities = [
        chip_quantities(
            c["hydra"], c["pegasus"], c["phoenix"], [CREATURE_NAMES.index(x) for x in c["losers"]]
        )
        for c in chips
    ]
    edition = _edition(state)
    dealer = public["dealer"]
    round_scores = public["round_scores"][-1]
    seats = []
    for seat, view in enumerate(views):
        status = dict(view["prophecies"])
        seats.append(
            {
                "seat": seat,
                "position": (seat - dealer - 1) % n,
                "score": round_scores[seat],
                "stars": chips[seat]["stars"],
                "dealt": [
                    [card["id"], card["points"], edition.card(card["id"]).holds(quantities, seat)]
                    for card in view["oracle_cards"]
                ],
                "kept": [[card["id"], card["points"], status[card["id"]]] for card in view["kept"]],
            }
        )
    creatures = _creature_facts(public, {name for c in chips for name in c["losers"]})
    return {
        "players": n,
        "dealer": dealer,
        "seats": seats,
        "creatures": creatures,
        "quantities": quantities,
    }


def _creature_facts(public: dict[str, Any], held_losers: set[str]) -> dict[str, dict[str, Any]]:
    """Per creature, in the round that just ended: ``tricks`` won with its
    cards; ``chips`` those tricks earned (``victory``: its victory point
    chips, while any are left; then its Loser chip, taken from the middle or
    from the seat that held it; a trick won by the Loser chip's own holder
    earns no chip); victory point chips ``forfeited`` at the scoring for its
    Loser chip; whether its Loser chip ends with a player (``loser_held``).
    Read from the round's ``trick`` and ``score`` events (the view's log
    holds the current round in full)."""
    result = {
        name: {"tricks": 0, "chips": 0, "victory": 0, "forfeited": 0, "loser_held": name in held_losers}
        for name in CREATURE_NAMES
    }
    for trick in public["tricks"]:
        winning = next(card for seat, card in trick["cards"] if seat == trick["winner"])
        result[CREATURE_NAMES[CARD_CREATURE[parse_card(winning)]]]["tricks"] += 1
    scores = []
    for event in public["log"]:
        if event["kind"] == "trick" and event["take"] in ("chip", "loser"):
            entry = result[event["creature"]]
            entry["chips"] += 1
            entry["victory"] += event["take"] == "chip"
        elif event["kind"] == "score":
            scores.append(event)
    for forfeits in scores[-1]["forfeits"] if scores else []:
        for name, count in forfeits:
            result[name]["forfeited"] += count
    return result


def game_facts(state: State) -> dict[str, Any]:
    """Every round's :func:`round_facts` of a finished game."""
    return {"rounds": [round_facts(end) for end in round_end_states(state)]}


def rounds_of(games: Sequence[Played]) -> list[dict[str, Any]]:
    return [round_ for game in games for round_ in game.facts["rounds"]]


# ------------------------------------------------------------------ prophecies
def card_counts(games: Sequence[Played]) -> dict[str, dict[str, Any]]:
    """Per card id: points, dealt, dealt copies that would hold, kept, kept that hold."""
    counts: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"points": 0, "dealt": 0, "dealt_holds": 0, "kept": 0, "kept_holds": 0}
    )
    for round_ in rounds_of(games):
        for seat in round_["seats"]:
            kept = {card_id for card_id, _, _ in seat["kept"]}
            for card_id, points, holds in seat["dealt"]:
                entry = counts[card_id]
                entry["points"] = points
                entry["dealt"] += 1
                entry["dealt_holds"] += int(holds)
                if card_id in kept:
                    entry["kept"] += 1
                    entry["kept_holds"] += int(holds)
    return dict(counts)


def expected_when_kept(entry: dict[str, Any]) -> float:
    """Points times how often the card holds when kept (0 if never kept)."""
    return entry["points"] * entry["kept_holds"] / entry["kept"] if entry["kept"] else 0.0


def fair_value(entry: dict[str, Any], target: float) -> int:
    """The whole points (at least 1) that would make the card's expected
    points when kept equal ``target``, its hold rate held fixed (when never
    kept, the rate at which dealt copies would hold)."""
    holds = (
        entry["kept_holds"] / entry["kept"]
        if entry["kept"]
        else entry["dealt_holds"] / entry["dealt"]
        if entry["dealt"]
        else 0.0
    )
    if holds <= 0:
        return max(1, int(entry["points"]))
    return max(1, round(target / holds))


def median_expected(counts: dict[str, dict[str, Any]]) -> float:
    values = [expected_when_kept(entry) for entry in counts.values() if entry["kept"]]
    return statistics.median(values) if values else 0.0


def prophecy_rows(games: Sequence[Played], edition: Edition) -> list[dict[str, Any]]:
    counts = card_counts(games)
    target = median_expected(counts)
    rows = []
    for card in edition.cards:
        entry = counts.get(card.id, {"points": card.points, "dealt": 0, "dealt_holds": 0, "kept": 0})
        entry.setdefault("kept_holds", 0)
        kept = rate(entry["kept"], entry["dealt"])
        holds = rate(entry["kept_holds"], entry["kept"])
        every = rate(entry["dealt_holds"], entry["dealt"])
        points = entry["points"]
        expected = expected_when_kept(entry)
        dealt, was_kept = entry["dealt"] > 0, entry["kept"] > 0
        rows.append(
            {
                "id": card.id,
                "prophecy": card.text_en,
                "points": points,
                "dealt": entry["dealt"],
                "kept": entry["kept"],
                # A figure with nothing to count reads n/a (None), not 0: a card
                # never kept has no hold rate when kept and no expected points.
                **_measured(kept.columns("kept_rate"), dealt),
                **_measured(holds.columns("holds_when_kept"), was_kept),
                **_measured(every.columns("holds_when_dealt"), dealt),
                **_measured(
                    {
                        "expected_when_kept": expected,
                        "expected_when_kept_low": points * holds.low,
                        "expected_when_kept_high": points * holds.high,
                    },
                    was_kept,
                ),
                "vs_median": expected / target - 1 if was_kept and target else None,
                "fair_value": fair_value(entry, target) if dealt else None,
                "dead": kept.value < DEAD_KEPT_RATE if dealt else None,
                "warning": warnings_of(kept, holds),
            }
        )
    return rows


def _measured(columns: dict[str, Any], counted: bool) -> dict[str, Any]:
    """``columns`` when there was something to count, else the same columns n/a."""
    return columns if counted else dict.fromkeys(columns)


# ------------------------------------------------------------------- the rest
def creature_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    rounds = rounds_of(games)
    rows = []
    for name in CREATURE_NAMES:
        facts = [r["creatures"][name] for r in rounds]
        tricks = mean([float(f["tricks"]) for f in facts], floor=0.0)
        chips = mean([float(f["chips"]) for f in facts], floor=0.0)
        victory = mean([float(f["victory"]) for f in facts], floor=0.0)
        forfeited = mean([float(f["forfeited"]) for f in facts], floor=0.0)
        loser = rate(sum(f["loser_held"] for f in facts), len(rounds))
        rows.append(
            {
                "creature": name,
                "rounds": len(rounds),
                **tricks.columns("tricks_won"),
                **chips.columns("chips_taken"),
                **victory.columns("victory_chips_taken"),
                **forfeited.columns("chips_forfeited"),
                **loser.columns("loser_chip_held"),
                "warning": warnings_of(chips, loser),
            }
        )
    return rows


def seat_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    players = len(games[0].scores) if games else 0
    rows = []
    for seat in range(players):
        score = mean([game.scores[seat] for game in games], floor=0.0)
        wins = rate(sum(seat in game.winners for game in games), len(games))
        rows.append(
            {
                "seat": seat,
                "games": len(games),
                **score.columns("mean_score"),
                **wins.columns("win_rate"),
                "warning": warnings_of(score, wins),
            }
        )
    return rows


def dealer_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    rounds = rounds_of(games)
    players = rounds[0]["players"] if rounds else 0
    rows = []
    for position in range(players):
        scores = []
        best = 0
        for round_ in rounds:
            seat = next(s for s in round_["seats"] if s["position"] == position)
            scores.append(float(seat["score"]))
            best += seat["score"] == max(s["score"] for s in round_["seats"])
        score = mean(scores, floor=0.0)
        top = rate(best, len(rounds))
        label = "dealer" if position == players - 1 else f"dealer + {position + 1}"
        rows.append(
            {
                "position": label,
                "rounds": len(rounds),
                **score.columns("round_score"),
                **top.columns("best_in_round"),
                "warning": warnings_of(score, top),
            }
        )
    return rows


def variant_row(label: str, options: dict[str, Any], games: Sequence[Played]) -> dict[str, Any]:
    rounds = rounds_of(games)
    gap = mean([spread(game.scores) for game in games], floor=0.0)
    kept = [card for r in rounds for seat in r["seats"] for card in seat["kept"]]
    holds = rate(sum(1 for _, _, held in kept if held), len(kept))
    prophecy_points = mean(
        [
            float(sum(points for _, points, held in seat["kept"] if held))
            for r in rounds
            for seat in r["seats"]
        ],
        floor=0.0,
    )
    return {
        "variant": label,
        "options": ", ".join(f"{k}={v}" for k, v in options.items()),
        "games": len(games),
        **gap.columns("score_spread"),
        **holds.columns("kept_holds"),
        **prophecy_points.columns("prophecy_points"),
        "warning": warnings_of(gap, holds),
    }


def variants(options: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The configurations compared with the main one: the other way of
    dealing the Oracle cards, and the other player counts."""
    players = int(options.get("players", 4))
    draft = bool(options.get("draft", False))
    result = [("plain" if draft else "draft", {**options, "draft": not draft})]
    for count in (3, 4, 5):
        if count != players:
            result.append((f"{count} players", {**options, "players": count}))
    return result


def main_label(options: dict[str, Any]) -> str:
    return f"{'draft' if options.get('draft') else 'plain'}, {options.get('players', 4)} players"


def tables(
    games: Sequence[Played],
    edition: Edition,
    options: dict[str, Any],
    compared: Sequence[tuple[str, dict[str, Any], Sequence[Played]]] = (),
) -> list[Table]:
    prophecies = prophecy_rows(games, edition)
    target = median_expected(card_counts(games))
    dead = [row["id"] for row in prophecies if row["dead"]]
    within = sum(row["vs_median"] is not None and abs(row["vs_median"]) <= BAND for row in prophecies)
    kept_rates = [row["kept_rate"] for row in prophecies if row["kept_rate"] is not None]
    verdict = (
        f" In these games {within} of {len(prophecies)} cards lie within ±{BAND:.0%} of the median, "
        f"the lowest kept rate is {min(kept_rates, default=0.0):.1%}"
        + (f" and {len(dead)} cards are dead ({', '.join(dead)})." if dead else " and no card is dead.")
    )
    result = [
        Table(
            "prophecies",
            "Prophecies",
            "Per Oracle card: dealt, kept rate, how often it holds when kept and how often every "
            "dealt copy would have held, expected points when kept (points x holds when kept) "
            f"against the median card's ({target:.2f}), and a fair value: the points that would "
            f"bring it to the median. A card kept in under {DEAD_KEPT_RATE:.0%} of its deals is dead. "
            "A figure with nothing to count (the hold rate of a card never kept) reads n/a." + verdict,
            prophecies,
            [
                Plot("expected_when_kept", "id", "expected points when kept", band=(target, BAND)),
                Plot("kept_rate", "id", "kept rate", line=DEAD_KEPT_RATE),
                Plot("holds_when_kept", "id", "holds when kept"),
            ],
        ),
        Table(
            "creatures",
            "Creatures",
            "Per creature and round: tricks won with its cards; the chips those tricks earned (a "
            "victory point chip while any is left, then its Loser chip, from the middle or from the "
            "seat that holds it; its holder winning again earns none), of them victory point chips "
            "(at most the supply); victory point chips forfeited at the scoring for its Loser chip; "
            "and how often its Loser chip ends in front of a player.",
            creature_rows(games),
            [
                Plot("chips_taken", "creature", "chips taken per round"),
                Plot("victory_chips_taken", "creature", "victory point chips taken per round"),
                Plot("loser_chip_held", "creature"),
            ],
        ),
        Table(
            "seats",
            "Seat advantage",
            "Final score and win rate by seat (shared wins count for every winner).",
            seat_rows(games),
            [Plot("win_rate", "seat", "win rate", line=1 / max(1, len(games[0].scores)) if games else None)],
        ),
        Table(
            "dealer",
            "Dealer advantage",
            "Round score and how often each position (counted from the dealer's left) scores best "
            "in the round (ties count for all).",
            dealer_rows(games),
            [Plot("round_score", "position", "round score")],
        ),
    ]
    if compared:
        rows = [variant_row(main_label(options) + " (main)", options, games)]
        rows += [variant_row(label, opts, played) for label, opts, played in compared]
        result.append(
            Table(
                "variants",
                "Draft against plain, and player counts",
                "Score spread (best minus worst final score of a game), how often a kept prophecy "
                "holds, and prophecy points per player and round, for each configuration.",
                rows,
                [Plot("score_spread", "variant", "score spread"), Plot("kept_holds", "variant")],
            )
        )
    return result


def report_tables(
    games: Sequence[Played],
    options: dict[str, Any],
    compared: Sequence[tuple[str, dict[str, Any], Sequence[Played]]] = (),
) -> list[Table]:
    """The report of games played with ``options`` (resolved), and the compared variants."""
    from oracles.core.registry import load_game

    edition: Edition = load_game("oracle", **options).edition  # type: ignore[attr-defined]
    return tables(games, edition, options, compared)
