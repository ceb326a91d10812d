"""Games played as Ray tasks on a local Ray give exactly the local results."""

from __future__ import annotations

import pytest

from oracles.backends import check_backend, ray_map
from oracles.core.errors import OptionError
from oracles.simulate import _play_indexed

ray = pytest.importorskip("ray", reason="Ray is not installed (the 'distributed' extra)")


@pytest.fixture(scope="module")
def local_ray() -> object:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize(
    ("game_id", "options", "bots"),
    [
        ("oracle", {"players": 3, "rounds": 1}, ["heuristic", "random", "random"]),
        ("inrah", {"players": 4, "rounds": 3}, ["heuristic", "random", "random", "random"]),
        ("codename", {}, ["heuristic", "random"]),
    ],
)
def test_ray_gives_the_local_results(local_ray: object, game_id: str, options: dict, bots: list) -> None:
    jobs = [(game_id, options, bots, 7, index, True) for index in range(6)]
    local = [_play_indexed(job) for job in jobs]
    remote = list(ray_map(_play_indexed, jobs, chunk=2))
    assert remote == local


def test_backend_arguments_are_checked() -> None:
    with pytest.raises(OptionError, match="unknown backend"):
        check_backend("spark", None)
    with pytest.raises(OptionError, match="--backend ray"):
        check_backend("local", "ray://head:10001")


def _run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    import json

    from oracles.cli import main

    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_and_tournament_on_ray_match_local(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI on a local Ray with 2 CPUs gives the same summary as one process."""
    base = [
        "simulate",
        "inrah",
        "-n",
        "8",
        "--players",
        "3",
        "--option",
        "rounds=2",
        "--bots",
        "heuristic,random,random",
    ]
    local = _run_cli(capsys, *base, "--json", "--quiet")
    remote = _run_cli(capsys, *base, "--json", "--quiet", "--backend", "ray", "--workers", "2")
    for summary in (local, remote):
        summary.pop("seconds"), summary.pop("games_per_second")
    assert remote == local
    base = ["tournament", "oracle", "--bots", "heuristic,random", "-n", "2", "--players", "3"]
    local = _run_cli(capsys, *base, "--option", "rounds=1", "--json", "--quiet")
    remote = _run_cli(
        capsys, *base, "--option", "rounds=1", "--json", "--quiet", "--backend", "ray", "--workers", "2"
    )
    strip = ("seconds", "think", "mean_think", "max_think")

    def without_timing(value: object) -> object:
        if isinstance(value, dict):
            return {k: without_timing(v) for k, v in value.items() if not any(w in k for w in strip)}
        if isinstance(value, list):
            return [without_timing(v) for v in value]
        return value

    assert without_timing(remote) == without_timing(local)
