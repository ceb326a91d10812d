"""Fit the Codename position evaluator (``oracles.games.codename.evaluator``).

Plays heuristic-vs-heuristic games, records the evaluator's features for
both seats at the start of every turn, and fits a logistic model of the
eventual winner (draws count half) by Newton's method (numpy, from the
``research`` extra). Prints the held-out log loss and accuracy against the
no-skill baseline and the ``WEIGHTS`` line to paste into the module::

    .venv/bin/python tools/fit_codename_value.py --games 2000 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.registry import load_game
from oracles.games.codename.evaluator import FEATURES, features, turn


def _play(seed: int) -> list[tuple[list[float], float]]:
    game = load_game("codename")
    bots = [make_bot("heuristic", seat, f"fit:{seed}") for seat in range(2)]
    rng = random.Random(f"fit-chance:{seed}")
    state = game.new_initial_state()
    rows: list[tuple[int, list[float]]] = []
    last_turn = -1
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_trusted(state.sample_chance(rng))
            continue
        if turn(state) != last_turn and turn(state) > 0:
            last_turn = turn(state)
            for seat in range(2):
                rows.append((seat, features(state, seat)))
        seat = state.current_player()
        state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
    winners = state.winners()
    out = []
    for seat, x in rows:
        y = 0.5 if not winners or len(winners) == 2 else float(seat in winners)
        out.append((x, y))
    return out


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2, steps: int = 40) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(_play, range(args.games), chunksize=20))
    cut = int(len(games) * 0.8)
    train = [row for g in games[:cut] for row in g]
    test = [row for g in games[cut:] for row in g]
    xt = np.array([r[0] for r in train])
    yt = np.array([r[1] for r in train])
    xv = np.array([r[0] for r in test])
    yv = np.array([r[1] for r in test])
    w = fit(xt, yt)
    accuracy = float(np.mean(((xv @ w) > 0) == (yv > 0.5)))
    print(f"positions: {len(train)} train, {len(test)} held out")
    print(
        f"held-out log loss {log_loss(xv, yv, w):.4f} (no skill {math.log(2):.4f}), accuracy {accuracy:.3f}"
    )
    for name, weight in zip(FEATURES, w, strict=True):
        print(f"  {name:14s} {weight:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


if __name__ == "__main__":
    main()
