"""Information Set Monte Carlo Tree Search (single-observer ISMCTS).

Each iteration draws a *world* from the bot's information state
(``resample_from_infostate``: the bot never sees the true hidden cards), walks
the shared tree with UCB restricted to the actions available in that world
(Cowling, Powley and Whitehouse, 2012: availability counts), expands one node,
plays on with a rollout policy up to its horizon (the end of the round, of
the turn, or of the game) and backs up each seat's reward to the nodes where
that seat chose.

Nodes are keyed by the player actions taken since the root; chance actions
(later deals) are sampled afresh in every iteration and do not branch the
tree. At the end of the game a seat's reward is its share of the win plus a
small term for its score lead, so the search prefers winning and, among equal
chances, scoring more; at the end of a round it is what the seat gained in
the round; at the end of a turn, its chance of winning by the game's
position evaluator.
"""

from __future__ import annotations

import random
import time
from bisect import bisect
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate, filterfalse, islice
from math import exp, log, sqrt
from typing import Any, ClassVar

from oracles.bots.base import Bot, SeatInfo
from oracles.bots.hooks import (
    Evaluator,
    Policy,
    Pruner,
    candidates_for,
    evaluator_for,
    exploration_for,
    inference_for,
    policy_for,
    random_policy,
    root_candidates_for,
    steering_for,
)
from oracles.core.game import CHANCE, TERMINAL, State

#: Iterations per move when neither ``iterations`` nor ``seconds`` is given.
DEFAULT_ITERATIONS = 400


_empty_counter = dict.__new__


class _Node:
    """A node of the tree: visits and rewards of its children, and how often
    each action was available (``available``; see :meth:`visit`)."""

    __slots__ = ("_known", "_legal", "_pending", "_untried", "children_n", "children_w", "n_available")

    def __init__(self) -> None:
        self.children_n: dict[int, int] = {}
        self.children_w: dict[int, float] = {}
        # An empty Counter without running Counter.__init__ (a Python call):
        # a node is made at every iteration.
        self.n_available: Counter[int] = _empty_counter(Counter)
        # The legal actions of the last visits, how many visits since they
        # were counted in ``n_available``, and the untried ones among them as
        # of ``_known`` children: a node often sees the same legal actions
        # again (always at the root), thousands of them in Codename.
        self._legal: list[int] | None = None
        self._pending = 0
        self._untried: list[int] = []
        self._known = 0

    def visit(self, legal: list[int]) -> list[int]:
        """Count a visit where ``legal`` are available; the untried ones, in
        ``legal``'s order (the caller must not change the list)."""
        children = self.children_n
        if legal is self._legal or legal == self._legal:
            self._pending += 1
            if len(children) != self._known:
                # Children are only ever added, at the end of the dict.
                untried = self._untried
                for action in islice(children, self._known, None):
                    if action in untried:
                        untried.remove(action)
                self._known = len(children)
            return self._untried
        self.available()
        self._legal = legal
        self._pending = 1
        self._untried = list(filterfalse(children.__contains__, legal))
        self._known = len(children)
        return self._untried

    def expand(self, index: int) -> int:
        """The untried action at ``index`` of the list the last visit gave,
        taken out of it (in constant time): the iteration expands it, and
        its backup makes it a child."""
        untried = self._untried
        action = untried[index]
        last = untried.pop()
        if index < len(untried):
            untried[index] = last
        self._known += 1
        return action

    def available(self) -> Counter[int]:
        """``n_available`` brought up to date: each action's visits available."""
        if self._pending:
            assert self._legal is not None
            if self._pending == 1:
                self.n_available.update(self._legal)  # counted in C
            else:
                self.n_available.update(dict.fromkeys(self._legal, self._pending))
            self._pending = 0
        return self.n_available


def seat_rewards(state: State) -> list[float]:
    """Rewards in [0, 1] for a finished game: win share, plus a tenth of a
    point scaled by score rank so that a larger lead is preferred."""
    scores = state.scores()
    winners = state.winners()
    low = min(scores)
    spread = (max(scores) - low) or 1.0
    rewards = [0.1 * (score - low) / spread for score in scores]
    if winners:
        win = 0.9 * (1.0 / len(winners))
        for seat in winners:
            rewards[seat] += win
    return rewards


def gain_rewards(scores: list[float], start: list[float]) -> list[float]:
    """Rewards in [0, 1] from what each seat gained since ``start``.

    >>> gain_rewards([10, 4, 4], [0, 0, 0])
    [1.0, 0.0, 0.0]
    """
    gains = [now - then for now, then in zip(scores, start, strict=True)]
    low = min(gains)
    spread = (max(gains) - low) or 1.0
    return [(g - low) / spread for g in gains]


def tempered(logs: Sequence[float], floor: float) -> list[float]:
    """Weights ``exp(beta * log)`` (scaled so the largest is 1) for the
    largest ``beta`` in [0, 1] whose effective sample size,
    ``(sum w)^2 / sum w^2``, is at least ``floor``: a model of the other
    seats' play that is surer than it should be cannot let a few worlds
    stand for all (``beta`` 0 weighs every world alike).

    >>> tempered([0.0, 0.0], 2)
    [1.0, 1.0]
    >>> [round(w, 3) for w in tempered([0.0, -1.0], 1)]
    [1.0, 0.368]
    >>> [round(w, 3) for w in tempered([0.0, -50.0, -50.0], 2)]
    [1.0, 0.25, 0.25]
    """
    top = max(logs)
    shifted = [value - top for value in logs]

    def weights(beta: float) -> tuple[list[float], float]:
        w = [exp(beta * value) for value in shifted]
        return w, sum(w) ** 2 / sum(x * x for x in w)

    w, ess = weights(1.0)
    if ess >= floor:
        return w
    low, high = 0.0, 1.0
    for _ in range(30):
        mid = (low + high) / 2
        if weights(mid)[1] >= floor:
            low = mid
        else:
            high = mid
    return weights(low)[0]


class ISMCTSBot(Bot):
    """ISMCTS with an iteration or a time budget.

    Parameters:

    - ``iterations``: the budget per move (default 400 when no ``seconds``
      is given). The search stops early once no other move can overtake the
      most visited one: the move is the one the full budget would choose.
    - ``seconds``: a time budget per move; given with ``iterations``, the
      search stops at whichever runs out first (a cap on an iteration budget).
      It too stops early once no other move can overtake the most visited
      one in the iterations the clock leaves (at the mean length so far).
    - ``c``: UCB exploration: the game's own where it names one (its
      ``exploration`` part; Oracle 1.2), else 0.7.
    - ``rollout``: ``auto`` (default): the game's *steering* where it has
      one (Oracle: the deciding seat plays the plain style its kept
      prophecies pay best in, the others at random), else random play;
      ``random``; or ``heuristic`` (the game's policy for every seat).
    - ``guided``: with heuristic rollouts, only the first ``guided`` moves
      of a rollout follow the policy and random play finishes it (0, the
      default: the whole rollout).
    - ``horizon``: where a rollout stops. ``round``: when the scores change
      (the round is scored); each seat is rewarded by what it gained, which
      is cheaper and far less noisy in multi-round games. ``turn``: once
      ``turns`` more turns have begun (default 1: at the end of the turn
      being played); each seat is rewarded its chance of winning by the
      game's position evaluator (``EVALUATORS``; a game without one stops at
      the round's end). ``game``: at the end; the win is rewarded. ``auto``
      (default): ``turn`` for a game with an evaluator, else ``round``.
    - ``infer``: where the game has an *inference* (Oracle: a model of
      the other seats' card play; Inrah: of their bids and card play), each
      move first draws this many worlds and weighs each by how likely the
      other seats' actions were in it; the iterations then draw their
      worlds from these by weight (0, the default: off, every iteration
      resamples afresh and every world counts alike).
    - ``ess`` (default 0.5): the weights are flattened (tempered) until
      the pool's effective sample size is at least this share of it.
    - ``prune`` (default true): where the game has a pruning function
      (Codename's ``candidates``), the tree branches only on those actions;
      where it names the moves worth a search at the root (Oracle's best
      keeps, ``root_candidates``), the root branches only on those.
    """

    name: ClassVar[str] = "ismcts"
    params: ClassVar[dict[str, type]] = {
        "iterations": int,
        "seconds": float,
        "c": float,
        "rollout": str,
        "horizon": str,
        "turns": int,
        "prune": bool,
        "guided": int,
        "infer": int,
        "ess": float,
    }
    #: An hour a move, ten million iterations: far beyond any real use, and
    #: finite, so that no spec can make a search endless.
    param_ranges: ClassVar[dict[str, tuple[float, float]]] = {
        "iterations": (0, 10_000_000),
        "seconds": (0.0, 3600.0),
        "c": (0.0, 100.0),
        "turns": (0, 1000),
        "guided": (0, 100_000),
        "infer": (0, 100_000),
        "ess": (0.0, 1.0),
    }
    time_param: ClassVar[str | None] = "seconds"
    param_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "rollout": ("auto", "random", "heuristic"),
        "horizon": ("auto", "round", "turn", "game"),
    }

    iterations: int = 0
    seconds: float = 0.0
    c: float = 0.7
    rollout: str = "auto"
    horizon: str = "auto"
    turns: int = 1
    prune: bool = True
    guided: int = 0
    infer: int = 0
    ess: float = 0.5

    def __init__(self, seat: int, seed: int | str = 0, **params: Any) -> None:
        super().__init__(seat, seed, **params)
        #: Iterations run for each move searched (for benchmarks and tests).
        self.searched: list[int] = []
        # Types, ranges and choices are checked by Bot.check_param, from
        # param_ranges and param_choices above.
        #: The rollout policy of the decision being searched (``rollout=auto``).
        self._steered: Policy | None = None
        #: The root's actions searched, for the decision being searched.
        self._root_legal: list[int] | None = None
        #: The weighed worlds of the decision being searched (``infer``):
        #: the worlds and their cumulative weights; None: resample afresh.
        self._pool: tuple[list[State], list[float]] | None = None
        #: Per move searched with a pool: its effective sample size.
        self.pool_ess: list[float] = []
        #: The pruning, root pruning, evaluator, rollout (policy, guided
        #: moves) and exploration constant of the decision being searched
        #: (set by :meth:`choose`).
        self._hooks: tuple[Pruner | None, Pruner | None, Evaluator | None, tuple[Policy, int], float] = (
            None,
            None,
            None,
            (random_policy, 0),
            self.c,
        )
        #: Whether the spec set ``c`` (else the game's exploration applies).
        self._c_given = "c" in params

    def _exploration(self, game_id: str) -> float:
        """The spec's ``c`` if it names one, else the game's, else 0.7."""
        if self._c_given:
            return self.c
        game_c = exploration_for(game_id)
        return self.c if game_c is None else game_c

    def _rollout_for(self, game_id: str) -> tuple[Policy, int]:
        """The rollout policy and how many rollout moves follow it (0: all)."""
        if self.rollout == "heuristic":
            return policy_for(game_id), self.guided
        if self._steered is not None:
            return self._steered, 0
        return random_policy, 0

    def choose(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._steered = None
        self._root_legal = None
        if self.rollout == "auto":
            steering = steering_for(info.game.id)
            if steering is not None:
                # The steering reads only the seat's own information, so any
                # world will do; a fixed rng leaves the bot's own draws alone.
                self._steered = steering(info.sample_world(random.Random(0)), self.seat)
        game_id = info.game.id
        self._pool = self._weighed_pool(info) if self.infer else None
        # The game's hooks for this move, looked up once rather than at
        # every iteration.
        self._hooks = (
            candidates_for(game_id) if self.prune else None,
            root_candidates_for(game_id) if self.prune else None,
            evaluator_for(game_id) if self.horizon in ("auto", "turn") else None,
            self._rollout_for(game_id),
            self._exploration(game_id),
        )
        tree: dict[tuple[int, ...], _Node] = {}
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds > 0 else None
        budget = self.iterations or (0 if deadline is not None else DEFAULT_ITERATIONS)
        done = 0
        while True:
            remaining = budget - done if budget else -1
            # Stop when another iteration of the mean length so far would
            # overrun the time budget, so that a move keeps within it.
            if deadline is not None and done > 0:
                now = time.perf_counter()
                mean = (now - start) / done
                if now + mean >= deadline:
                    break
                # The iterations the clock leaves, at the mean length so far.
                left = int((deadline - now) / mean)
                remaining = left if remaining < 0 else min(remaining, left)
            if budget and done >= budget:
                break
            if remaining >= 0 and done % 16 == 0 and self._settled(tree, remaining):
                break
            # Past the first, an iteration still running at the deadline is
            # dropped, so that a long rollout cannot overrun the budget.
            if not self._iterate(info, tree, deadline if done else None):
                break
            done += 1
        self.searched.append(done)
        root = tree[()]

        def visits_then_mean(a: int) -> tuple[int, float]:
            n = root.children_n.get(a, 0)
            return (n, root.children_w.get(a, 0.0) / n if n else 0.0)

        return max(legal, key=visits_then_mean)

    def _weighed_pool(self, info: SeatInfo) -> tuple[list[State], list[float]] | None:
        """``infer`` worlds and their cumulative weights by the game's
        inference, tempered (:func:`tempered`); None where the game has
        none or the other seats' actions tell nothing yet."""
        inference = inference_for(info.game.id)
        if inference is None:
            return None
        # The inference reads only the seat's information: any world will do.
        weigh = inference(info.sample_world(random.Random(0)), self.seat)
        if weigh is None:
            return None
        rng = self.rng
        worlds = [info.sample_world(rng) for _ in range(self.infer)]
        weights = tempered([weigh(world) for world in worlds], self.ess * len(worlds))
        self.pool_ess.append(sum(weights) ** 2 / sum(w * w for w in weights))
        return worlds, list(accumulate(weights))

    @staticmethod
    def _settled(tree: dict[tuple[int, ...], _Node], remaining: int) -> bool:
        """True when no other root action can overtake the most visited one
        in the ``remaining`` iterations: the choice is made, stop early
        (same move as the full budget, as the choice is by visit count)."""
        root = tree.get(())
        if root is None or len(root.children_n) < 2:
            return False
        first, second = sorted(root.children_n.values(), reverse=True)[:2]
        return first > second + remaining

    def _iterate(self, info: SeatInfo, tree: dict[tuple[int, ...], _Node], deadline: float | None) -> bool:
        """One iteration; False (and nothing backed up) if ``deadline`` passed
        during its rollout."""
        rng = self.rng
        pool = self._pool
        if pool is None:
            world = info.sample_world(rng)
        else:
            worlds, cumulative = pool
            world = worlds[bisect(cumulative, rng.random() * cumulative[-1])].clone()
        prune, root_prune, evaluator, (policy, guided), c = self._hooks
        start_scores = world.scores() if self.horizon != "game" and evaluator is None else None
        path: list[tuple[_Node, int, int]] = []  # (node, action, acting seat)
        key: tuple[int, ...] = ()
        expanded = False
        # One current_player() a step (is_terminal and is_chance_node each
        # ask it again): rollouts are most of an iteration.
        while True:
            seat = world.current_player()
            if seat == TERMINAL:
                break
            if seat == CHANCE:
                world.apply_trusted(world.sample_chance(rng))
                continue
            if not key:
                # The root's moves are the searching seat's, the same in
                # every world: worked out once a move, and the same list
                # object lets the root's node see at once that they are.
                legal = self._root_legal
                if legal is None:
                    if root_prune is not None:
                        legal = root_prune(world, seat)
                    elif prune is not None:
                        legal = prune(world, seat)
                    else:
                        legal = world.legal_actions()
                    self._root_legal = legal
            elif prune is not None:
                legal = prune(world, seat)
            else:
                legal = world.legal_actions()
            node = tree.get(key)
            if node is None:
                if expanded:
                    break
                node = tree[key] = _Node()
            untried = node.visit(legal)
            if untried:
                action = node.expand(int(rng.random() * len(untried)))
                expanded = True
            else:
                best = -1.0
                action = legal[0]
                available = node.available()
                children_n, children_w = node.children_n, node.children_w
                for a in legal:
                    n = children_n[a]
                    value = children_w[a] / n + c * sqrt(log(available[a]) / n)
                    if value > best:
                        best, action = value, a
            path.append((node, action, seat))
            world.apply_trusted(action)
            key = (*key, action)
            if expanded and key not in tree:
                tree[key] = _Node()
                break
        played = 0  # moves of this rollout so far
        stop_turn = evaluator.turn(world) + self.turns if evaluator is not None else -1
        if evaluator is None and start_scores is None and deadline is None and policy is random_policy:
            # To the end of the game at random, no clock: the game's own
            # random playout, without the checks of the loop below.
            world.play_out_at_random(rng)
        while True:
            player = world.current_player()
            if player == TERMINAL:
                break
            if evaluator is not None and evaluator.turn(world) >= stop_turn:
                break
            if player == CHANCE:
                # A round is scored before the next deal: stop there when asked.
                if start_scores is not None and world.scores() != start_scores:
                    break
                world.apply_trusted(world.sample_chance(rng))
            else:
                if deadline is not None and time.perf_counter() >= deadline:
                    return False
                if guided and played == guided:
                    # Only the first ``guided`` moves follow the policy;
                    # random play, far cheaper, finishes the rollout.
                    policy = random_policy
                played += 1
                world.apply_trusted(policy(world, player, rng))
        if evaluator is not None and not world.is_terminal():
            rewards = evaluator.win_chances(world)
        elif world.is_terminal() or start_scores is None:
            rewards = seat_rewards(world)
        else:
            rewards = gain_rewards(world.scores(), start_scores)
        for node, action, seat in path:
            node.children_n[action] = node.children_n.get(action, 0) + 1
            node.children_w[action] = node.children_w.get(action, 0.0) + rewards[seat]
        return True
