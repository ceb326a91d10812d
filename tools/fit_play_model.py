"""Fit the models of play behind the search's inference on self-play
records: each game's model of card play (``oracles.games.<id>.inference``),
whose weights it writes as data, and, for Inrah, the sharpness of its model
of bidding (``SHARPNESS``), which it prints.

    .venv/bin/python tools/fit_play_model.py --games 600 --workers 2
    .venv/bin/python tools/fit_play_model.py --game inrah --games 300 --workers 2

Plays ``--games`` games at four seats (Oracle: one round; Inrah: five)
between the ``--bots`` (each game's seats drawn from the list), or reads the
histories of earlier games (``--records``, JSON lines with a ``history``
list), takes every card play that had a choice, and fits the game's
conditional logit by Newton's method with a small L2 penalty. It prints the
mean log-likelihood of a play against uniform choice (on a held-out fifth
of the games too), and writes the weights with how they were made to
``src/oracles/games/<id>/data/play_model.json``. ``--check FILE`` only
scores the stored model on the records of FILE (for example games against
another bot) and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from oracles.core.registry import load_game
from oracles.simulate import play_game

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BOTS = "ismcts:iterations=1000,ismcts:iterations=300,heuristic"
#: The L2 penalty on the weights (a prior of weight 0, about one decision's worth).
PENALTY = 1.0


#: The games played for each game id: one round of Oracle, Inrah's five.
GAMES = {"oracle": {"players": 4, "rounds": 1}, "inrah": {"players": 4, "rounds": 5}}


def _play(job: tuple[str, list[str], int]) -> list[int]:
    game_id, lineup, index = job
    game = load_game(game_id, **GAMES[game_id])
    state, _ = play_game(game, lineup, f"fit:{index}")
    return list(state.history())


def generate(game_id: str, bots: list[str], games: int, workers: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    jobs = [
        (game_id, [rng.choice(bots) for _ in range(4)], seed * 1_000_000 + index) for index in range(games)
    ]
    histories = []
    start = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        for done, history in enumerate(pool.imap_unordered(_play, jobs, chunksize=1), start=1):
            histories.append(history)
            if done % 50 == 0:
                print(f"  {done}/{games} games ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return histories


Decision = tuple[list[list[int]], int]


def decisions(game_id: str, histories: list[list[int]]) -> list[Decision]:
    """Every card play with a choice: the features of each legal card and
    the index of the one played."""
    game = load_game(game_id, **GAMES[game_id])
    model = _model(game_id)
    out = []
    for history in histories:
        state = game.new_initial_state()
        for action in history:
            rows = model.play_rows(state)
            if rows is not None:
                out.append((rows, state.legal_actions().index(action)))
            state.apply_action(action)
    return out


def _model(game_id: str) -> Any:
    """The game's inference module (its features and stored model)."""
    import importlib

    return importlib.import_module(f"oracles.games.{game_id}.inference")


def arrays(data: list[Decision], features: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Padded tensors: features (decision, card, feature), a mask of real
    cards, and the chosen index."""
    width = max(len(rows) for rows, _ in data)
    x = np.zeros((len(data), width, features), dtype=np.float64)
    mask = np.zeros((len(data), width), dtype=bool)
    chosen = np.zeros(len(data), dtype=np.int64)
    for d, (rows, pick) in enumerate(data):
        for c, active in enumerate(rows):
            x[d, c, active] = 1.0
            mask[d, c] = True
        chosen[d] = pick
    return x, mask, chosen


def log_likelihood(w: np.ndarray, x: np.ndarray, mask: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Per decision, the log of the model's chance of the card played."""
    u = np.where(mask, x @ w, -np.inf)
    top = u.max(axis=1, keepdims=True)
    logz = top[:, 0] + np.log(np.exp(u - top).sum(axis=1))
    return u[np.arange(len(chosen)), chosen] - logz


def fit(x: np.ndarray, mask: np.ndarray, chosen: np.ndarray, steps: int = 30) -> np.ndarray:
    """Newton's method on the penalised log-likelihood."""
    features = x.shape[2]
    w = np.zeros(features)
    rows = np.arange(len(chosen))
    for _ in range(steps):
        u = np.where(mask, x @ w, -np.inf)
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("dc,dcf->df", p, x)
        grad = (x[rows, chosen] - mean).sum(axis=0) - PENALTY * w
        second = np.einsum("dc,dcf,dcg->fg", p, x, x) - mean.T @ mean
        hessian = second + PENALTY * np.eye(features)
        step = np.linalg.solve(hessian, grad)
        w += step
        if np.abs(step).max() < 1e-6:
            break
    return w


def uniform(mask: np.ndarray) -> np.ndarray:
    return -np.log(mask.sum(axis=1))


def report(label: str, w: np.ndarray, x: np.ndarray, mask: np.ndarray, chosen: np.ndarray) -> dict[str, Any]:
    ll = log_likelihood(w, x, mask, chosen)
    base = uniform(mask)
    u = np.where(mask, x @ w, -np.inf)
    top1 = float((u.argmax(axis=1) == chosen).mean())
    figures = {
        "decisions": len(chosen),
        "log_likelihood": round(float(ll.mean()), 4),
        "uniform": round(float(base.mean()), 4),
        "top1": round(top1, 4),
    }
    print(
        f"{label}: {figures['decisions']} plays, log-likelihood {figures['log_likelihood']:.3f} a play "
        f"(uniform {figures['uniform']:.3f}), the model's likeliest card played {100 * top1:.1f}%"
    )
    return figures


def inrah_bids(histories: list[list[int]]) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Every bid of the records: (the hand, the trump card, the trump, the bid)."""
    from oracles.games.inrah.constants import BID

    game = load_game("inrah", **GAMES["inrah"])
    out = []
    for history in histories:
        state = game.new_initial_state()
        for action in history:
            if state._phase == BID:
                seat = state.current_player()
                hand = tuple(state._hands[seat])
                out.append((hand, state._trump_card, state._trump, action - game.bid_base))
            state.apply_action(action)
    return out


def fit_sharpness(histories: list[list[int]]) -> float:
    """The sharpness of Inrah's model of bidding that makes the records'
    bids likeliest (a grid search), with the log-likelihood of each."""
    import oracles.games.inrah.inference as inference

    game = load_game("inrah", **GAMES["inrah"])
    bids = inrah_bids(histories)
    best, best_ll = 0.0, -1e18
    for sharpness in [0.02 * k for k in range(1, 26)]:
        inference.SHARPNESS = sharpness
        ll = sum(
            inference.bid_log_chances(hand, card, trump, 4, game.deck_size)[bid]
            for hand, card, trump, bid in bids
        )
        flat = sum(-np.log(len(hand) + 1) for hand, _, _, _ in bids)
        print(
            f"  sharpness {sharpness:.2f}: log-likelihood {ll / len(bids):.3f} a bid (uniform {flat / len(bids):.3f})"
        )
        if ll > best_ll:
            best, best_ll = sharpness, ll
    print(f"{len(bids)} bids: the likeliest sharpness is {best:.2f}")
    return best


def read_records(path: Path) -> list[list[int]]:
    return [json.loads(line)["history"] for line in path.read_text().splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="oracle")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="comma-separated bot specs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--records", type=Path, help="fit on these histories instead of playing")
    parser.add_argument("--check", type=Path, help="only score the stored model on these records")
    parser.add_argument("--save-records", type=Path, help="also write the games' histories here (JSON lines)")
    parser.add_argument(
        "--out", type=Path, help="where to write the weights (default: the game's data folder)"
    )
    args = parser.parse_args()
    game_id = args.game
    model = _model(game_id)
    out = args.out or ROOT / f"src/oracles/games/{game_id}/data/play_model.json"
    if args.check:
        x, mask, chosen = arrays(decisions(game_id, read_records(args.check)), model.NUM_FEATURES)
        report(f"stored model on {args.check}", np.array(model.play_model()), x, mask, chosen)
        return 0
    bots = [spec.strip() for spec in args.bots.split(",")]
    histories = (
        read_records(args.records)
        if args.records
        else generate(game_id, bots, args.games, args.workers, args.seed)
    )
    if args.save_records:
        args.save_records.write_text("".join(json.dumps({"history": h}) + "\n" for h in histories))
    if game_id == "inrah":
        fit_sharpness(histories)
    held_out = len(histories) // 5
    train = decisions(game_id, histories[held_out:])
    test = decisions(game_id, histories[:held_out])
    x, mask, chosen = arrays(train, model.NUM_FEATURES)
    w = fit(x, mask, chosen)
    fitted = report("training games", w, x, mask, chosen)
    checked = report("held-out games", w, *arrays(test, model.NUM_FEATURES)) if test else {}
    # The held-out fifth joins the fit that is stored.
    x, mask, chosen = arrays(train + test, model.NUM_FEATURES)
    w = fit(x, mask, chosen)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    data = {
        "about": f"The model of card play of oracles.games.{game_id}.inference, fitted by tools/fit_play_model.py",
        "made_with": {
            "games": len(histories),
            "bots": "records of " + str(args.records) if args.records else bots,
            "seed": args.seed,
            "options": GAMES[game_id],
            "commit": commit,
            "penalty": PENALTY,
            "command": " ".join(["tools/fit_play_model.py", *sys.argv[1:]]),
        },
        "fit": {"training": fitted, "held_out": checked},
        "features": model.feature_names(),
        "weights": [round(float(v), 4) for v in w],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
