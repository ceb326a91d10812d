"""Inrah-Orakel: the facts of each round and the designer's tables.

:func:`game_facts` is the one place that reads Inrah's states: it replays a
finished game, reading each bid from its notation (``bid 2``), each trick's
winner from the view's ``last_trick`` and each round's dealer and scores
from the view.

Tables: ``bids_by_round`` and ``bids_by_position`` (how often a bid is met,
by round and by position after the dealer; left out when the games have no
bids, the Altaïa variant), ``dealer`` (round score by position after the
dealer, with and without ``forbid_exact_sum``), ``variants`` (score spread,
lead changes and bid accuracy of the standard, Purpurberg and Altaïa
variants and of trump on and off).

A figure that does not apply is ``None`` (n/a in the report), never a 0 that
looks measured: Altaïa's bid accuracy (it has oracles, not bids). In
Purpurberg partners share every score, so no seat ever leads alone: its
lead changes are counted between teams. ``forbid_exact_sum`` is not compared
in Altaïa, where it changes nothing (the games would be the main games
again), and Purpurberg is not compared at an odd number of seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oracles.analysis.collect import Played
from oracles.analysis.report import Plot, Table
from oracles.analysis.stats import mean, rate, spread, warnings_of
from oracles.core.game import State
from oracles.games.inrah.constants import ALTAIA, PURPURBERG
from oracles.games.inrah.scoring import partner


def game_facts(state: State) -> dict[str, Any]:
    """Per round: its number, dealer, bids (``None`` without bids), tricks
    taken and round scores per seat."""
    n = state.num_players
    replay = state.game.new_initial_state()
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    plays = 0
    for action in state.history():
        if replay.is_chance_node():
            replay.apply_action(action)
            continue
        seat = replay.current_player()
        if current is None:
            public = replay.view(0)
            current = {
                "round": public["round"],
                "dealer": public["dealer"],
                "bids": [None] * n,
                "tricks": [0] * n,
            }
            plays = 0
        words = replay.action_to_string(action).split()
        replay.apply_action(action)
        if words[0] == "bid" and len(words) == 2 and words[1].isdigit():
            current["bids"][seat] = int(words[1])
        elif words[0] == "play":
            plays += 1
            if plays % n == 0:
                current["tricks"][replay.view(0)["last_trick"]["winner"]] += 1
        if replay.is_chance_node() or replay.is_terminal():
            current["scores"] = replay.view(0)["round_scores"][-1]
            rounds.append(current)
            current = None
    return {"players": n, "rounds": rounds}


def _seat_rounds(games: Sequence[Played]) -> list[tuple[int, int, int | None, int, float]]:
    """(round, position after the dealer, bid, tricks, round score) per seat and round."""
    rows = []
    for game in games:
        n = game.facts["players"]
        for r in game.facts["rounds"]:
            for seat in range(n):
                position = (seat - r["dealer"] - 1) % n
                rows.append(
                    (r["round"], position, r["bids"][seat], r["tricks"][seat], float(r["scores"][seat]))
                )
    return rows


def _position_label(position: int, players: int) -> str:
    return "dealer" if position == players - 1 else f"dealer + {position + 1}"


def bid_rows(games: Sequence[Played], by: str) -> list[dict[str, Any]]:
    """Bid accuracy by ``round`` or by ``position``."""
    seat_rounds = [row for row in _seat_rounds(games) if row[2] is not None]
    players = games[0].facts["players"] if games else 0
    keys = sorted({row[0] if by == "round" else row[1] for row in seat_rounds})
    rows = []
    for key in keys:
        chosen = [row for row in seat_rounds if (row[0] if by == "round" else row[1]) == key]
        hits = rate(sum(bid == tricks for _, _, bid, tricks, _ in chosen), len(chosen))
        label = key if by == "round" else _position_label(key, players)
        rows.append({by: label, "bids": len(chosen), **hits.columns("bid_met"), "warning": hits.warning})
    return rows


def dealer_rows(label: str, games: Sequence[Played]) -> list[dict[str, Any]]:
    seat_rounds = _seat_rounds(games)
    players = games[0].facts["players"] if games else 0
    rows = []
    for position in range(players):
        scores = [score for _, pos, _, _, score in seat_rounds if pos == position]
        score = mean(scores)
        rows.append(
            {
                "configuration": label,
                "position": _position_label(position, players),
                "rounds": len(scores),
                **score.columns("round_score"),
                "warning": score.warning,
            }
        )
    return rows


def lead_changes(round_scores: Sequence[Sequence[float]]) -> int:
    """How often the sole leader (highest running total) changes hands.

    >>> lead_changes([[10, 0], [0, 20], [30, 0], [0, 0]])
    2
    """
    totals = [0.0] * len(round_scores[0]) if round_scores else []
    leader: int | None = None
    changes = 0
    for scores in round_scores:
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        best = max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == best]
        if len(leaders) == 1 and leaders[0] != leader:
            changes += leader is not None
            leader = leaders[0]
    return changes


def team_scores(round_scores: Sequence[Sequence[float]]) -> list[list[float]]:
    """Purpurberg: each round's points per team (the first seat of each pair
    of partners stands for the pair: partners score alike).

    >>> team_scores([[20, -10, 20, -10]])
    [[20, -10]]
    """
    players = len(round_scores[0]) if round_scores else 0
    teams = [seat for seat in range(players) if seat < partner(seat, players)]
    return [[scores[seat] for seat in teams] for scores in round_scores]


def game_lead_changes(game: Played, variant: str) -> float:
    """Lead changes of one game: between seats, or in Purpurberg between teams."""
    scores = [r["scores"] for r in game.facts["rounds"]]
    return float(lead_changes(team_scores(scores) if variant == PURPURBERG else scores))


def variant_row(label: str, options: dict[str, Any], games: Sequence[Played]) -> dict[str, Any]:
    variant = str(options.get("variant", "standard"))
    gap = mean([spread(game.scores) for game in games], floor=0.0)
    changes = mean([game_lead_changes(game, variant) for game in games], floor=0.0)
    bids = [row for row in _seat_rounds(games) if row[2] is not None]
    hits = rate(sum(bid == tricks for _, _, bid, tricks, _ in bids), len(bids))
    # No bids (Altaïa): the accuracy does not apply, and is not a 0.
    accuracy = hits.columns("bid_met") if bids else dict.fromkeys(hits.columns("bid_met"))
    return {
        "variant": label,
        "options": ", ".join(f"{k}={v}" for k, v in options.items()),
        "games": len(games),
        **gap.columns("score_spread"),
        **changes.columns("lead_changes"),
        **accuracy,
        "warning": warnings_of(gap, changes) or (hits.warning if bids else ""),
    }


def variants(options: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``forbid_exact_sum`` (which only bids feel: not in Altaïa) and trump
    toggled, and the other variants (Purpurberg only at an even number of seats)."""
    forbid = bool(options.get("forbid_exact_sum", False))
    trump = bool(options.get("trump", True))
    variant = str(options.get("variant", "standard"))
    players = int(options.get("players", 4))
    result = []
    if variant != ALTAIA:
        result.append(
            (f"forbid_exact_sum {'off' if forbid else 'on'}", {**options, "forbid_exact_sum": not forbid})
        )
    result.append((f"trump {'on' if not trump else 'off'}", {**options, "trump": not trump}))
    for other in ("standard", PURPURBERG, ALTAIA):
        if other != variant and not (other == PURPURBERG and players % 2):
            result.append((other, {**options, "variant": other}))
    return result


def report_tables(
    games: Sequence[Played],
    options: dict[str, Any],
    compared: Sequence[tuple[str, dict[str, Any], Sequence[Played]]] = (),
) -> list[Table]:
    main = f"main ({options.get('variant')}, forbid_exact_sum {options.get('forbid_exact_sum')})"
    dealer = dealer_rows(main, games)
    for label, _, played in compared:
        if label.startswith("forbid_exact_sum"):
            dealer += dealer_rows(label, played)
    result = []
    if any(row[2] is not None for row in _seat_rounds(games)):  # Altaïa has no bids to measure
        result += [
            Table(
                "bids_by_round",
                "Bid accuracy by round",
                "How often a seat takes exactly the tricks it bid, by round (round r deals r cards each).",
                bid_rows(games, "round"),
                [Plot("bid_met", "round", "bid met")],
            ),
            Table(
                "bids_by_position",
                "Bid accuracy by seat",
                "How often a bid is met, by position after the dealer (the dealer bids last).",
                bid_rows(games, "position"),
                [Plot("bid_met", "position", "bid met")],
            ),
        ]
    result.append(
        Table(
            "dealer",
            "Dealer advantage, with and without forbid_exact_sum",
            "Mean round score by position after the dealer, for the main configuration and with "
            "forbid_exact_sum switched (not in Altaïa, which has no bids for it to forbid).",
            dealer,
            [Plot("round_score", "position", "round score")],
        )
    )
    rows = [variant_row("main", options, games)]
    rows += [variant_row(label, opts, played) for label, opts, played in compared]
    result.append(
        Table(
            "variants",
            "Variants, forbid_exact_sum and trump compared",
            "Score spread (best minus worst final score), lead changes per game (the sole leader of "
            "the running totals changes hands; in Purpurberg the sole leading team, since partners "
            "share their score) and bid accuracy (n/a in Altaïa, which has oracles, not bids).",
            rows,
            [
                Plot("score_spread", "variant", "score spread"),
                Plot("lead_changes", "variant", "lead changes"),
            ],
        )
    )
    return result
