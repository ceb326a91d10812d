"""The bot queue shares its workers' time when more bots wait than it has workers."""

from __future__ import annotations

import asyncio
import random
import threading

from oracles.bots.specs import shared_spec
from oracles.core.registry import load_game
from oracles.server.bots import ANSWER_MARGIN, MIN_SHARE, BotRunner


def _keep_position() -> list[str]:
    """An Oracle deal's actions up to the first keep (a searched choice)."""
    state, texts, rng = load_game("oracle", players=4).new_initial_state(), [], random.Random(4)
    while state.is_chance_node():
        action = state.sample_chance(rng)
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return texts


def test_queued_bots_think_for_a_share_and_a_quiet_queue_gives_the_whole_budget() -> None:
    texts = _keep_position()

    async def scenario() -> tuple[float, float, int]:
        runner = BotRunner("thread", 1)
        hold = threading.Event()
        try:
            blocker = asyncio.ensure_future(runner.call(hold.wait, 10))
            await asyncio.sleep(0.05)
            state = load_game("oracle", players=4).new_initial_state()
            for text in texts:
                state.apply_string(text)
            player = state.current_player()
            jobs = [
                asyncio.ensure_future(
                    runner.choose("oracle", {"players": 4}, texts, player, "ismcts:iterations=20:seconds=0.5")
                )
                for _ in range(4)
            ]
            await asyncio.sleep(0.05)
            assert runner.shares_given == 0  # all four wait behind the blocker
            hold.set()
            await blocker
            answers = await asyncio.gather(*jobs)
            assert all(isinstance(answer, str) for answer in answers)
            return runner.share_total, runner.least_share, runner.shares_given
        finally:
            await runner.aclose()

    total, least, given = asyncio.run(scenario())
    # One worker: the first taken had three behind it (a quarter of its
    # budget), the next two (a third), then one (a half), the last none.
    assert given == 4
    assert least == 1 / 4
    assert abs(total - (1 / 4 + 1 / 3 + 1 / 2 + 1)) < 1e-9


def test_a_bot_that_waited_gets_what_its_bound_leaves() -> None:
    """Nothing queued behind it, but it waited: it thinks for what is left
    of twice its budget, less the margin for the answer; never below the
    least share."""
    runner = BotRunner("thread", 2)
    assert runner.share(0.2, 0.0) == 1.0
    assert abs(runner.share(0.2, 0.3) - (0.4 - 0.3 - ANSWER_MARGIN) / 0.2) < 1e-9
    assert runner.share(0.2, 1.0) == MIN_SHARE


def test_a_share_cuts_only_the_time_budget() -> None:
    assert shared_spec("ismcts:iterations=50:seconds=0.4", 0.25) == "ismcts:iterations=50:seconds=0.1"
    assert shared_spec("ismcts:seconds=0.4", 1.0) == "ismcts:seconds=0.4"
    assert shared_spec("ismcts:iterations=50", 0.25) == "ismcts:iterations=50"
    assert shared_spec("random", MIN_SHARE) == "random"
