"""The per-game pieces bots use, read from each game's declared parts.

A *policy* is ``policy(world, seat, rng) -> action``: it decides for ``seat``
reading only what that seat may know. Bots hand it a world resampled from the
seat's information state, never the true state, so even a policy that looked
at another seat's cards would see invented ones. A *pruner* gives the few
legal actions worth a search (policy's choice first). An *evaluator* scores a
position for searches that stop their rollouts early. Each game declares its
own in ``oracles.games.<id>.PARTS``; a game without a policy plays randomly.
A *steering* gives a search's rollouts a cheap plan for the deciding seat.
An *inference* weighs the worlds a search draws by how well they explain
what the other seats did. A game's *exploration* is the UCB constant its
search balances trying moves with.
*Outcomes* say what came true for a seat when a rollout stops (the advice's
reasons), and *why* words them; both live in the game's ``narrate`` part,
beside the game's other words, as ``outcomes`` and ``why``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from oracles.core.game import Game, State
from oracles.core.rand import pick
from oracles.core.registry import game_part

Policy = Callable[[State, int, random.Random], int]
Pruner = Callable[[State, int], list[int]]
#: ``steering(world, seat)``: the rollout policy of a search deciding for
#: ``seat`` at ``world`` (read from that seat's information only), or None.
Steering = Callable[[State, int], Policy | None]
#: ``weigh(world)``: the log-likelihood, up to a constant, of the other
#: seats' actions had they held what ``world`` gives them.
Weigh = Callable[[State], float]
#: ``inference(world, seat)``: the :data:`Weigh` of a search deciding for
#: ``seat`` (read from that seat's information only), or None when the
#: other seats' actions tell nothing yet.
Inference = Callable[[State, int], Weigh | None]
#: ``outcomes(world, seat)``: what came true for ``seat`` at ``world``, the
#: advice's horizon (a round just scored; Codename: the turn just played),
#: read from what that seat may see there (its own kept prophecies, its bid,
#: public chips, public strikes): key (e.g. ``"holds:O12"``,
#: ``"loser:phoenix"``, ``"bid:2"``, ``"hit:dealt"``) -> whether it happened.
Outcomes = Callable[[State, int], dict[str, bool]]
#: ``why(move, rates, other, other_rates, ahead, lang, game, names)``: one
#: sentence on how ``move``'s outcome rates compare with ``other``'s
#: (``ahead``: why ``move`` is the better one; else why it is worse), or None
#: when nothing differs notably; ``other`` None: ``move``'s own rates alone.
#: ``game`` is the game being played (None: its defaults), so a card is
#: worded as the table's edition words it; ``names``, the seats' names (empty:
#: "Seat n"), so a seat is called what the table calls it.
Why = Callable[
    [str, Mapping[str, float], str | None, Mapping[str, float] | None, bool, str, Game | None, Sequence[str]],
    str | None,
]


class Evaluator(NamedTuple):
    """``win_chances(world)``: each seat's chance of winning from ``world``;
    ``turn(world)``: the turn being played, so a rollout can stop a given
    number of turns on."""

    win_chances: Callable[[State], list[float]]
    turn: Callable[[State], int]


def random_policy(world: State, seat: int, rng: random.Random) -> int:
    # The pick of ``State.play_out_at_random``: a rollout makes the same
    # moves whichever of the two plays it.
    return pick(world.legal_actions(), rng)


@functools.cache
def policy_for(game_id: str) -> Policy:
    """The heuristic policy of ``game_id`` (random play if it has none)."""
    policy: Policy | None = game_part(game_id, "policy")
    return policy if policy is not None else random_policy


@functools.cache
def candidates_for(game_id: str) -> Pruner | None:
    """The pruning function of ``game_id``, or None (search every action)."""
    pruner: Pruner | None = game_part(game_id, "candidates")
    return pruner


@functools.cache
def root_candidates_for(game_id: str) -> Pruner | None:
    """The moves ``game_id`` offers a search at its root, or None (search
    every action, or the ``candidates`` pruner's)."""
    pruner: Pruner | None = game_part(game_id, "root_candidates")
    return pruner


@functools.cache
def steering_for(game_id: str) -> Steering | None:
    """The rollout steering of ``game_id``, or None (random rollouts)."""
    steering: Steering | None = game_part(game_id, "steering")
    return steering


@functools.cache
def inference_for(game_id: str) -> Inference | None:
    """The inference of ``game_id`` about hidden cards, or None (every world
    weighs the same)."""
    inference: Inference | None = game_part(game_id, "inference")
    return inference


@functools.cache
def exploration_for(game_id: str) -> float | None:
    """The UCB exploration constant of ``game_id``'s search, or None (the
    search's own default)."""
    exploration: float | None = game_part(game_id, "exploration")
    return exploration


@functools.cache
def evaluator_for(game_id: str) -> Evaluator | None:
    """The position evaluator of ``game_id``, or None if it has none."""
    module = game_part(game_id, "evaluator")
    if module is None:
        return None
    return Evaluator(module.win_chances, module.turn)


@functools.cache
def outcomes_for(game_id: str) -> Outcomes | None:
    """What ``game_id`` reads at a rollout's end for the advice's reasons
    (its ``narrate`` part's ``outcomes``), or None."""
    outcomes: Outcomes | None = getattr(game_part(game_id, "narrate"), "outcomes", None)
    return outcomes


@functools.cache
def why_for(game_id: str) -> Why | None:
    """``game_id``'s words for the advice's reasons (its ``narrate`` part's
    ``why``), or None."""
    why: Why | None = getattr(game_part(game_id, "narrate"), "why", None)
    return why
