"""Codename: Oracle: the facts of each game and the designer's tables.

:func:`game_facts` is the one place that reads Codename's states: it replays
a finished game and reads the first player from the chance action
``first K`` and every player action's kind from its notation (the first
word: ``peek``, ``swap``, ``replace``, ``reveal``, ``respond``, ``pick``,
``target``, ``take``, ``place``, ``fill``, ``codeswap``, ``recode``, ``name``,
``guess``), and the number of turns from the final view.

An effect is counted by the decision it asks for: ``pick`` a wave strike,
``target``/``take`` a circle strike, ``place`` a wave shield, ``fill`` a
cross shield, ``codeswap`` a square shield, ``recode`` a square focus,
``name`` a circle focus; the plain moves (``peek``, ``swap``, ``replace``,
``reveal``, ``respond``, ``guess``) are counted too. Effects that ask
nothing (star and cross strikes, for instance) do not show in the actions
and are not counted.

Tables: ``first_player`` (win, loss and draw rates of the player who starts),
``length`` (turns and actions per game), ``effects`` (per kind: how often it
fires per game, in how many games, and the win rate of the player who fired
it against the average player's: the swing that follows it). Counts and
lengths cannot be negative: their intervals are cut at 0, and a count that
is above 0 in fewer than five games is flagged too few to conclude
(:func:`oracles.analysis.stats.mean`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from oracles.analysis.collect import Played
from oracles.analysis.report import Plot, Table
from oracles.analysis.stats import mean, rate, warnings_of
from oracles.core.game import State


def game_facts(state: State) -> dict[str, Any]:
    """First player, turns, and each player action's kind and seat, in order."""
    replay = state.game.new_initial_state()
    first: int | None = None
    actions: list[list[Any]] = []
    for action in state.history():
        seat = replay.current_player()
        words = replay.action_to_string(action).split()
        if replay.is_chance_node():
            if words[0] == "first" and len(words) == 2 and words[1].isdigit():
                first = int(words[1])
        else:
            actions.append([words[0], seat])
        replay.apply_action(action)
    return {"first": first, "turns": state.view(0).get("turn"), "actions": actions}


def first_player_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    known = [game for game in games if game.facts["first"] is not None]
    wins = rate(sum(game.winners == [game.facts["first"]] for game in known), len(known))
    losses = rate(
        sum(len(game.winners) == 1 and game.winners != [game.facts["first"]] for game in known), len(known)
    )
    draws = rate(sum(len(game.winners) != 1 for game in known), len(known))
    return [
        {
            "outcome": "first player wins",
            "games": len(known),
            **wins.columns("rate"),
            "warning": wins.warning,
        },
        {
            "outcome": "first player loses",
            "games": len(known),
            **losses.columns("rate"),
            "warning": losses.warning,
        },
        {"outcome": "draw", "games": len(known), **draws.columns("rate"), "warning": draws.warning},
    ]


def length_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    turns = mean([float(game.facts["turns"] or 0) for game in games], floor=0.0)
    actions = mean([float(game.length) for game in games], floor=0.0)
    return [
        {"measure": "turns", "games": len(games), **turns.columns("mean"), "warning": turns.warning},
        {"measure": "actions", "games": len(games), **actions.columns("mean"), "warning": actions.warning},
    ]


def effect_rows(games: Sequence[Played]) -> list[dict[str, Any]]:
    """Per action kind: fires per game, games where it fired, and the firer's win rate."""
    sole_wins = sum(len(game.winners) == 1 for game in games)
    baseline = sole_wins / (2 * len(games)) if games else 0.0
    fired: Counter[str] = Counter()
    firer_games: Counter[str] = Counter()
    firer_wins: Counter[str] = Counter()
    for game in games:
        seen: set[tuple[str, int]] = set()
        for kind, seat in game.facts["actions"]:
            fired[kind] += 1
            seen.add((kind, seat))
        for kind, seat in seen:
            firer_games[kind] += 1
            firer_wins[kind] += game.winners == [seat]
    rows = []
    for kind in sorted(fired):
        wins = rate(firer_wins[kind], firer_games[kind])
        # A count: its interval is cut at 0 (see oracles.analysis.stats).
        per_game = mean(
            [float(sum(k == kind for k, _ in game.facts["actions"])) for game in games], floor=0.0
        )
        rows.append(
            {
                "effect": kind,
                "fired": fired[kind],
                **per_game.columns("per_game"),
                "player_games": firer_games[kind],
                **wins.columns("firer_win_rate"),
                "swing": wins.value - baseline,
                "warning": warnings_of(wins, per_game),
            }
        )
    return rows


def variants(options: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Codename has no variant to compare."""
    return []


def report_tables(
    games: Sequence[Played],
    options: dict[str, Any],
    compared: Sequence[tuple[str, dict[str, Any], Sequence[Played]]] = (),
) -> list[Table]:
    return [
        Table(
            "first_player",
            "First-player advantage",
            "How often the player who starts (chance action 'first K') wins, loses or draws.",
            first_player_rows(games),
            [Plot("rate", "outcome", "rate", line=0.5)],
        ),
        Table(
            "length",
            "Game length",
            "Turns and actions (chance included) per game.",
            length_rows(games),
        ),
        Table(
            "effects",
            "Effects and moves",
            "Per kind of decision: how often it fires per game, in how many player-games, and the win "
            "rate of the player who fired it; swing = that win rate minus an average player's. "
            "Fires per game is a count: its interval is cut at 0, and it is too few to conclude "
            "when the kind fired in fewer than 5 games.",
            effect_rows(games),
            [
                Plot("per_game", "effect", "fires per game"),
                Plot("swing", "effect", "win-rate swing", line=0.0),
            ],
        ),
    ]
