"""``oracles balance oracle``: re-point the Oracle cards until they are even.

Points change; a card that no points can balance gets a new condition
(:func:`propose`, below; ``recondition=False`` keeps every condition). Each step plays ``games`` one-round games
(heuristic bots by default, 4 players) with the current points, measures
every card's kept rate and expected points when kept (points x how often it
holds when kept, :mod:`oracles.games.oracle.analysis`) and re-points:

* a card whose expected points when kept lie outside ``median x (1 ± aim)``
  moves towards the points that would bring it to the median, damped
  (``points x (ideal / points) ** DAMPING``, at most :data:`MAX_STEP` times
  up or down) because a card's hold rate changes with its points: the bots
  keep a dearer card in worse hands and fight harder for it;
* a *dead* card (kept in fewer than ``min_kept`` of the deals that hand it
  out) gains at least a fifth of its points, but never so many that its
  expected points when kept would leave the band ``median x (1 + tolerance)``:
  the bots keep some cards only when they are nearly sure to hold, and such
  a card, raised without end, would become a windfall;
* a card that meets the goal moves only when the damped step says so (no
  forced point up or down), and is never made cheaper while it is kept in
  fewer than twice ``min_kept`` of its deals: with whole points a cheap card
  that holds most of the time flips between dead and overpaying;
* points stay whole, from 1 to :data:`MAX_POINTS`; a card that pays under
  the band even at the cap (kept often enough to tell) is out of reach of
  points (:func:`beyond_reach`): it gets a new condition, or, with
  ``recondition=False``, goes back to its starting points for good, where it
  no longer crowds out the others, and is listed;
* a card that seldom holds at all, is dead at :data:`CHEAP_POINTS` or fewer,
  or overpays while kept in under twice ``min_kept`` of its deals
  (:func:`replacement_reason`) gets, once, a new condition from the prophecy
  language, tried on the rounds just played (:func:`propose`), with points
  that should bring it to the target; the result lists every such card the
  edition written has, with the reason, the new condition and the points the
  edition gives it, and apart the proposals it lacks (made after the step
  whose edition is written). Every reason needs a least sample in the
  step's games (:func:`minimum_samples`: :data:`SELDOM_DEALS` deals to say a
  card seldom holds, :data:`NEVER_HOLDS_KEEPS` keeps to say it never holds
  when kept or is out of reach, ``MIN_EVENTS / min_kept`` deals to call it
  dead, :data:`OVERPAY_KEEPS` keeps to say it overpays); on fewer, points
  alone move it.

Hold rates of rarely kept cards are noisy: the loop mixes
:data:`PRIOR_KEEPS` pseudo-keeps at the card's dealt hold rate into them.
The target is the median card's expected points when kept in the first
step (the starting edition's), held fixed, so prophecies keep their weight
against the stars. The edition written is the best measured step's (the
fewest cards missing the goal, then the smallest mean gap to the median); a card kept in fewer than
``revert_below`` (1%) of its deals over all steps goes back to its starting
points: no points tried made the bots keep it, so there is nothing to
measure, and the loop's last guess would only be a lottery ticket for human
players. Such cards are listed in the result.

A step whose measurement meets the goal (every card kept in at least
``min_kept`` of its deals, every card's expected points when kept within
``median x (1 ± tolerance)``) is checked on ``check_games`` fresh games (other
seeds); the loop ends when the check passes too, or after ``steps`` steps
with the best edition measured. The check's measurement is what is reported.

The loop tunes one player count, ``players``: it starts from the start
edition's cards at that count and writes them back into the start's
per-count tables, so the other counts keep theirs (``--players 3`` on the
balanced edition changes its 3-player points only). A new condition is
likewise that count's only: the card asks it, with its new texts, at a
table of ``players`` and keeps its condition at the other counts.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracles.analysis.collect import Played, play_games
from oracles.analysis.stats import MIN_EVENTS, MIN_TRIALS
from oracles.games.oracle.analysis import (
    DEAD_KEPT_RATE,
    card_counts,
    expected_when_kept,
    median_expected,
    rounds_of,
)
from oracles.games.oracle.prophecies import (
    Edition,
    Prophecy,
    compile_condition,
    edition_json,
    edition_points,
    load_edition,
    oracle_index,
    repointed,
    with_points_at,
)

DAMPING = 0.6
MAX_STEP = 1.8
#: Pseudo-observations of the dealt hold rate mixed into a rarely kept card's hold rate.
PRIOR_KEEPS = 5
#: No card is worth more than four times the classic edition's dearest (O19, 15): a
#: prophecy that rarely holds needs many points to pay as much as the others.
MAX_POINTS = 60
#: Keeps a card at the cap needs before it is given up (:func:`beyond_reach`).
REACH_KEEPS = 100


@dataclass(frozen=True)
class Measurement:
    """One measured edition: per card id its points, kept rate and expected
    points when kept, the median of those, and whether it meets the goal."""

    points: dict[str, int]
    kept_rate: dict[str, float]
    expected: dict[str, float]
    hold_rate: dict[str, float]
    median: float
    games: int
    dealt: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)
    #: How often every dealt copy would have held for the seat it was dealt to.
    dealt_hold_rate: dict[str, float] = field(default_factory=dict)

    @property
    def min_kept_rate(self) -> float:
        return min(self.kept_rate.values())

    @property
    def max_deviation(self) -> float:
        """The largest ``|expected / median - 1|`` over the cards."""
        if self.median <= 0:
            return math.inf
        return max(abs(value / self.median - 1) for value in self.expected.values())

    def meets(self, tolerance: float, min_kept: float) -> bool:
        return self.min_kept_rate >= min_kept and self.max_deviation <= tolerance


def measure(games: Sequence[Played], edition: Edition) -> Measurement:
    """The figures the loop steers by, from finished games of ``edition``."""
    counts = card_counts(games)
    empty = {"points": 0, "dealt": 0, "dealt_holds": 0, "kept": 0, "kept_holds": 0}
    kept_rate, expected, hold_rate, dealt, kept, dealt_holds = {}, {}, {}, {}, {}, {}
    for card in edition.cards:
        entry = {**empty, **counts.get(card.id, {}), "points": card.points}
        dealt[card.id], kept[card.id] = entry["dealt"], entry["kept"]
        kept_rate[card.id] = entry["kept"] / entry["dealt"] if entry["dealt"] else 0.0
        expected[card.id] = expected_when_kept(entry)
        dealt_rate = entry["dealt_holds"] / entry["dealt"] if entry["dealt"] else 0.0
        dealt_holds[card.id] = dealt_rate
        hold_rate[card.id] = (entry["kept_holds"] + PRIOR_KEEPS * dealt_rate) / (entry["kept"] + PRIOR_KEEPS)
    return Measurement(
        points=edition_points(edition),
        kept_rate=kept_rate,
        expected=expected,
        hold_rate=hold_rate,
        median=median_expected(counts),
        games=len(games),
        dealt=dealt,
        kept=kept,
        dealt_hold_rate=dealt_holds,
    )


def new_points(points: int, hold_rate: float, kept_rate: float, goal: Goal) -> int:
    """One card's next points (see the module docstring); ``hold_rate`` is
    how often it holds when kept (shrunk towards its dealt rate when rarely kept)."""
    expected = points * hold_rate
    result = points
    gap = abs(expected / goal.median - 1) if goal.median > 0 else 0.0
    meets = kept_rate >= goal.min_kept and gap <= goal.tolerance
    if goal.median > 0 and gap > goal.aim:
        ideal = goal.median / hold_rate if hold_rate > 0 else points * MAX_STEP
        ratio = min(MAX_STEP, max(1 / MAX_STEP, (ideal / points) ** DAMPING))
        result = round(points * ratio)
        if result == points and not meets:
            result += 1 if ideal > points else -1
        if meets and result < points and kept_rate < 2 * goal.min_kept:
            # A card that meets the goal but is seldom kept would die cheaper.
            result = points
    if kept_rate < goal.min_kept and hold_rate > 0:
        # Raised, but never past the top of the band: a card the bots keep
        # only when it is sure to hold would otherwise grow without end.
        ceiling = math.floor(goal.median * (1 + goal.tolerance) / hold_rate)
        result = max(result, min(ceiling, points + max(1, round(points / 5))))
    return min(MAX_POINTS, max(1, result))


@dataclass(frozen=True)
class Goal:
    median: float
    aim: float
    tolerance: float
    min_kept: float


def repoint(
    measurement: Measurement, target: float, aim: float, tolerance: float, min_kept: float
) -> dict[str, int]:
    """Every card's next points, steering expected points when kept to ``target``."""
    goal = Goal(target, aim, tolerance, min_kept)
    return {
        card_id: new_points(points, measurement.hold_rate[card_id], measurement.kept_rate[card_id], goal)
        for card_id, points in measurement.points.items()
    }


@dataclass
class Step:
    number: int
    kind: str  # "step" or "check"
    seed: int
    measurement: Measurement
    #: The cards given a new condition after this step: proposals, played from
    #: the next step on; the edition written has them only if it is a later step's.
    replaced: list[Replacement] = field(default_factory=list)


@dataclass
class BalanceResult:
    edition: Edition
    final: Measurement
    met: bool
    steps: list[Step] = field(default_factory=list)
    #: Cards the bots (almost) never kept at any points tried: back at their start points.
    unkept: list[str] = field(default_factory=list)
    #: Cards whose condition the loop changed (those the edition written has), and
    #: why, each with the points the edition written gives it.
    replaced: list[Replacement] = field(default_factory=list)
    #: New conditions proposed after a step but not in the edition written (the
    #: best step measured came before them, or the card was proposed again).
    dropped: list[Replacement] = field(default_factory=list)
    #: The step whose edition is written (its measurement is ``final``).
    best_step: int = 0


@dataclass(frozen=True)
class BalanceSettings:
    games: int = 1000
    check_games: int = 2000
    steps: int = 12
    tolerance: float = 0.35
    aim: float = 0.15
    min_kept: float = DEAD_KEPT_RATE
    players: int = 4
    bots: tuple[str, ...] = ("heuristic",)
    seed: int = 0
    workers: int = 1
    revert_below: float = 0.01
    #: Dead cards are raised until kept in ``min_kept + kept_margin`` of their
    #: deals: a card kept in just over ``min_kept`` on the loop's games falls
    #: under it on the next run as often as not.
    kept_margin: float = 0.02
    #: Whether cards that no points can balance get a new condition (:func:`propose`).
    recondition: bool = True


def play_edition(
    edition: Edition,
    path: Path,
    games: int,
    seed: int,
    settings: BalanceSettings,
    on_game: Callable[[Played], None] | None,
) -> list[Played]:
    """Write ``edition`` to ``path`` and play ``games`` one-round games with it."""
    path.write_text(edition_json(edition), encoding="utf-8")
    options: dict[str, Any] = {"players": settings.players, "rounds": 1, "edition": str(path)}
    return play_games("oracle", options, settings.bots, games, seed, settings.workers, on_game)


def balance(
    start: Edition,
    work: Path,
    settings: BalanceSettings,
    name: str = "balanced",
    on_game: Callable[[Played], None] | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> BalanceResult:
    """Run the loop (see the module docstring); candidate editions are
    written into ``work`` (one file per step, so each worker reads the right one)."""
    work.mkdir(parents=True, exist_ok=True)
    # The loop tunes one player count: it plays and re-points that count's
    # points, and the edition written keeps the start's points at the others.
    per_count = start
    start = start.for_players(settings.players)
    edition = repointed(start, {}, name)
    steps: list[Step] = []
    best: tuple[float, Edition, Measurement, int] | None = None
    met = False
    target = 0.0
    out_of_reach: set[str] = set()
    replaced: dict[str, Replacement] = {}
    for number in range(settings.steps):
        seed = settings.seed + number
        kind = "step"
        games = play_edition(
            edition, work / f"step-{number:02d}.json", settings.games, seed, settings, on_game
        )
        measurement = measure(games, edition)
        if measurement.meets(settings.tolerance, settings.min_kept):
            kind = "check"
            seed = settings.seed + 1000 + number
            path = work / f"check-{number:02d}.json"
            games = play_edition(edition, path, settings.check_games, seed, settings, on_game)
            measurement = measure(games, edition)
        target = target or measurement.median
        step = Step(number, kind, seed, measurement)
        score = _badness(measurement, settings)
        if best is None or score < best[0]:
            best = (score, edition, measurement, number)
        if kind == "check" and measurement.meets(settings.tolerance, settings.min_kept):
            steps.append(step)
            if on_step is not None:
                on_step(step)
            met = True
            break
        points = repoint(
            measurement, target, settings.aim, settings.tolerance, settings.min_kept + settings.kept_margin
        )
        if settings.recondition:
            # Each card gets one new condition at most: after that, points tune it.
            step.replaced = propose(games, edition, measurement, target, settings, skip=list(replaced))
            replaced.update({item.card_id: item for item in step.replaced})
        else:
            out_of_reach.update(beyond_reach(measurement, target, settings.tolerance))
        steps.append(step)
        if on_step is not None:
            on_step(step)
        points.update({card_id: start.card(card_id).points for card_id in out_of_reach})
        edition = reconditioned(repointed(edition, points, name), step.replaced, name)
    assert best is not None
    proposed = [item for step in steps for item in step.replaced]
    written = {
        item.card_id: item for item in proposed if best[1].card(item.card_id).condition == item.new.condition
    }
    reverted = set(never_kept(steps, settings.revert_below)) - set(written)
    unkept = sorted(reverted | out_of_reach)
    chosen = repointed(best[1], {card_id: start.card(card_id).points for card_id in unkept}, name)
    # What is said is what is written: each new condition with the points the
    # edition written gives it (later steps re-point it), and the proposals the
    # edition written does not have, apart.
    return BalanceResult(
        edition=with_points_at(per_count, settings.players, chosen, name),
        final=best[2],
        met=met,
        steps=steps,
        unkept=unkept,
        replaced=[
            dataclasses.replace(item, points=chosen.card(item.card_id).points) for item in written.values()
        ],
        dropped=[item for item in proposed if written.get(item.card_id) is not item],
        best_step=best[3],
    )


def beyond_reach(measurement: Measurement, target: float, tolerance: float) -> list[str]:
    """Cards at :data:`MAX_POINTS`, kept at least :data:`REACH_KEEPS` times,
    whose expected points when kept are still under the band: no points
    allowed would make them pay, and at that price they only crowd out the
    other cards. They go back to their starting points for good."""
    return [
        card_id
        for card_id, points in measurement.points.items()
        if points >= MAX_POINTS
        and measurement.kept.get(card_id, 0) >= REACH_KEEPS
        and measurement.expected[card_id] < target * (1 - tolerance)
    ]


def never_kept(steps: Sequence[Step], below: float) -> list[str]:
    """Cards kept in fewer than ``below`` of their deals over all steps: no
    points the loop tried made the bots keep them."""
    result = []
    for card_id in steps[0].measurement.points:
        dealt = sum(step.measurement.dealt.get(card_id, 0) for step in steps)
        kept = sum(step.measurement.kept.get(card_id, 0) for step in steps)
        if dealt and kept / dealt < below:
            result.append(card_id)
    return result


def failing(measurement: Measurement, tolerance: float, min_kept: float) -> list[str]:
    """The cards that miss the goal: dead, or outside the band around the median."""
    median = measurement.median
    return [
        card_id
        for card_id, expected in measurement.expected.items()
        if measurement.kept_rate[card_id] < min_kept or median <= 0 or abs(expected / median - 1) > tolerance
    ]


def _badness(measurement: Measurement, settings: BalanceSettings) -> float:
    """How far from the goal: the cards that miss it, then the mean gap to the
    median (each capped at 1), as a fraction."""
    misses = len(failing(measurement, settings.tolerance, settings.min_kept))
    if measurement.median <= 0:
        return misses + 1.0
    gaps = [min(1.0, abs(value / measurement.median - 1)) for value in measurement.expected.values()]
    return misses + sum(gaps) / len(gaps)


def write_history(steps: Sequence[Step], path: Path) -> None:
    """One row per step and card: points, kept rate, expected points when kept."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(
            ["step", "kind", "games", "id", "points", "kept_rate", "expected_when_kept", "median"]
        )
        for step in steps:
            m = step.measurement
            for card_id, points in m.points.items():
                writer.writerow(
                    [
                        step.number,
                        step.kind,
                        m.games,
                        card_id,
                        points,
                        f"{m.kept_rate[card_id]:.4f}",
                        f"{m.expected[card_id]:.4f}",
                        f"{m.median:.4f}",
                    ]
                )


def load_start(name_or_path: str) -> Edition:
    """The edition to start from: a shipped name or a file."""
    from oracles.games.oracle.prophecies import edition_named

    try:
        return edition_named(name_or_path)
    except ValueError:
        if not Path(name_or_path).exists():
            raise ValueError(
                f"unknown edition {name_or_path!r}: classic, balanced or the path of an edition file"
            ) from None
        return load_edition(name_or_path)


# ------------------------------------------------------------ new conditions
#: The creatures as the prophecy language names them, with their English and German names.
CREATURE_WORDS = (
    ("hydra", "Hydra", "Hydra"),
    ("pegasus", "Pegasus", "Pegasus"),
    ("phoenix", "Phoenix", "Phönix"),
)
#: The other quantities a card may be about, with their English and German words.
QUANTITY_WORDS = (
    ("stars", "stars", "Sterne"),
    ("victory", "victory point chips", "Siegpunktchips"),
    ("losers", "Loser chips", "Verliererchips"),
    ("chips", "chips", "Chips"),
)
#: Clauses that may be added to a card's own condition (``and``): the card keeps
#: what it asks and asks one thing more, so it holds less often and earns more points.
EXTRA_CLAUSES = (
    ("chips >= 3", "at least three chips", "mindestens drei Chips"),
    ("chips <= 2", "at most two chips", "höchstens zwei Chips"),
    ("losers == 0", "no Loser chip", "kein Verliererchip"),
    ("losers >= 1", "at least one Loser chip", "mindestens ein Verliererchip"),
    ("chips > left.chips", "more chips than your left neighbour", "mehr Chips als dein linker Nachbar"),
    ("chips < left.chips", "fewer chips than your left neighbour", "weniger Chips als dein linker Nachbar"),
    ("stars >= 6", "at least 6 stars", "mindestens 6 Sterne"),
    ("stars <= 4", "at most 4 stars", "höchstens 4 Sterne"),
)
#: A card is replaced when it holds in fewer of the deals that hand it out:
#: no points would make it pay short of a lottery ticket.
SELDOM_HOLDS = 0.01
#: Cards this cheap cannot be tuned by whole points: one point is a quarter of their worth.
CHEAP_POINTS = 4
#: Keeps after which a card that held in none of them, or so seldom that
#: :data:`MAX_POINTS` would not make it pay, is replaced (fewer are too few
#: to tell a card that holds 5% of the time from one that never does).
NEVER_HOLDS_KEEPS = REACH_KEEPS
#: Deals a card needs before "it holds in under SELDOM_HOLDS of its deals" is
#: said: a card holding at that line would hold MIN_EVENTS times in them (500).
SELDOM_DEALS = math.ceil(MIN_EVENTS / SELDOM_HOLDS)
#: Keeps a card needs before its expected points when kept are trusted to
#: overpay: the report's least sample for a rate (MIN_TRIALS, 30).
OVERPAY_KEEPS = MIN_TRIALS
#: A new condition should hold for about this share of seats (the middle of
#: the cards that meet the goal), and within :data:`HOLD_BAND` of it.
TARGET_HOLDS = 0.2
HOLD_BAND = (0.1, 0.4)
#: A clause that holds for this share of the seats or more asks nothing
#: (*at most four Pegasus chips* with five players, who share three).
SAYS_NOTHING = 0.99
#: Two conditions are the same card when this share or more of the seats
#: for which either holds are seats for which both hold.
SAME_CARD = 0.65


@dataclass(frozen=True)
class Candidate:
    """A condition of the prophecy language with its English and German texts."""

    condition: str
    text_en: str
    text_de: str


@dataclass(frozen=True)
class Replacement:
    """A card whose condition ``oracles balance`` changed, and why."""

    card_id: str
    old: str
    new: Candidate
    points: int
    reason: str
    holds: float  # how often the new condition held for a seat in the measured rounds
    #: The player count whose condition this is (0: not said).
    players: int = 0

    def describe(self) -> str:
        where = f" at {self.players} players" if self.players else ""
        return (
            f"{self.card_id}{where}: {self.reason}; '{self.old}' -> '{self.new.condition}' "
            f"({self.new.text_en}; holds for {self.holds:.0%} of seats), {self.points} points"
        )


def dead_deals(settings: BalanceSettings) -> int:
    """Deals a card needs before it is called dead (kept in under ``min_kept``
    of them) for a new condition: a card kept at that line would be kept
    MIN_EVENTS times in them (100 at 5%)."""
    return math.ceil(MIN_EVENTS / settings.min_kept) if settings.min_kept > 0 else SELDOM_DEALS


def minimum_samples(settings: BalanceSettings) -> dict[str, str]:
    """The least sample each reason of :func:`replacement_reason` needs, in
    the step's games, before it gives a card a new condition."""
    return {
        "seldom holds": f"{SELDOM_DEALS} deals",
        "never holds, or out of reach at the cap": f"{NEVER_HOLDS_KEEPS} keeps",
        "dead (too cheap, or a point more overpays)": f"{dead_deals(settings)} deals",
        "overpays while seldom kept": f"{OVERPAY_KEEPS} keeps",
    }


def replacement_reason(
    measurement: Measurement, card_id: str, target: float, settings: BalanceSettings
) -> str:
    """Why no points can balance ``card_id`` ('' if points can, or if the
    step's games are too few to say: every reason has its least sample,
    :func:`minimum_samples`): it seldom holds at all or never when kept, it
    is dead at so few points that one point is a quarter of its worth, it is
    dead and a point more would take it over the band (kept too rarely at
    any points), or it overpays while kept so seldom that a point less kills
    it. The reason says the sample it was read on."""
    dealt = measurement.dealt.get(card_id, 0)
    if not dealt or target <= 0:
        return ""  # nothing measured to go by (no card was ever kept and held)
    points = measurement.points[card_id]
    kept_rate = measurement.kept_rate[card_id]
    kept = measurement.kept.get(card_id, 0)
    if card_id in beyond_reach(measurement, target, settings.tolerance):  # REACH_KEEPS keeps
        return (
            f"pays {measurement.expected[card_id]:.2f} at {points} points, under the band (kept {kept} times)"
        )
    if dealt >= SELDOM_DEALS and measurement.dealt_hold_rate.get(card_id, 1.0) < SELDOM_HOLDS:
        return (
            f"holds in {measurement.dealt_hold_rate[card_id]:.1%} of its {dealt} deals: no points make it pay"
        )
    if kept >= NEVER_HOLDS_KEEPS and measurement.expected[card_id] == 0:
        return f"held in none of the {kept} rounds it was kept: no points make it pay"
    if kept >= NEVER_HOLDS_KEEPS and measurement.hold_rate[card_id] * MAX_POINTS < target * (
        1 - settings.tolerance
    ):
        return (
            f"holds in {measurement.hold_rate[card_id]:.1%} of the {kept} rounds it is kept: "
            f"even at {MAX_POINTS} points it would pay under the band"
        )
    dead = dealt >= dead_deals(settings) and kept_rate < settings.min_kept
    if dead and points <= CHEAP_POINTS:
        return (
            f"kept in {kept_rate:.1%} of its {dealt} deals at {points} points: whole points are too "
            "coarse for a card that holds this often"
        )
    top = target * (1 + settings.tolerance)
    if dead and (points + 1) * measurement.hold_rate[card_id] > top:
        return (
            f"kept in {kept_rate:.1%} of its {dealt} deals at {points} points, and a point more would "
            f"pay {(points + 1) * measurement.hold_rate[card_id] / target - 1:+.0%} against the median: "
            "kept too rarely at any points that stay in the band"
        )
    if kept >= OVERPAY_KEEPS and measurement.expected[card_id] > top and kept_rate < 2 * settings.min_kept:
        return (
            f"pays {measurement.expected[card_id] / target - 1:+.0%} against the median while kept in "
            f"{kept_rate:.1%} of its deals ({kept} of {dealt}): a point less and it is dead"
        )
    return ""


#: The nouns of a count as a card words it: English singular and plural, German singular and plural.
COUNT_NOUNS = {
    "hydra": ("Hydra chip", "Hydra chips", "Hydra-Chip", "Hydra-Chips"),
    "pegasus": ("Pegasus chip", "Pegasus chips", "Pegasus-Chip", "Pegasus-Chips"),
    "phoenix": ("Phoenix chip", "Phoenix chips", "Phönix-Chip", "Phönix-Chips"),
    "losers": ("Loser chip", "Loser chips", "Verliererchip", "Verliererchips"),
    "victory": ("victory point chip", "victory point chips", "Siegpunktchip", "Siegpunktchips"),
    "chips": ("chip", "chips", "Chip", "Chips"),
    "stars": ("star", "stars", "Stern", "Sterne"),
}
#: Counts of nearly the same chips: every chip, and the victory point chips alone.
SIBLING_COUNTS = {"chips": "victory", "victory": "chips"}
_NUMBERS_EN = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_NUMBERS_DE = ("kein", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun")
_BOUNDS = {">=": ("at least", "mindestens"), "<=": ("at most", "höchstens"), "==": ("exactly", "genau")}


def count_words(quantity: str, op: str, number: int) -> tuple[str, str] | None:
    """The English and German words of ``quantity op number`` (``chips >= 4``:
    "at least four chips", "mindestens vier Chips"), the way the cards word
    a count (stars in digits); None for a clause no card words so.

    >>> count_words("pegasus", "==", 1)
    ('exactly one Pegasus chip', 'genau ein Pegasus-Chip')
    >>> count_words("losers", "==", 0)
    ('no Loser chip', 'kein Verliererchip')
    """
    nouns = COUNT_NOUNS.get(quantity)
    if nouns is None or op not in _BOUNDS or number < 0 or number >= len(_NUMBERS_EN):
        return None
    one_en, many_en, one_de, many_de = nouns
    if number == 0 and quantity == "chips":
        return ("no chips at all", "überhaupt keine Chips") if op == "==" else None
    if number == 0:
        return (f"no {one_en}", f"kein {one_de}") if op == "==" else None
    if quantity == "stars":
        en_number, de_number = str(number), str(number)
    else:
        en_number, de_number = _NUMBERS_EN[number], _NUMBERS_DE[number]
    en_bound, de_bound = _BOUNDS[op]
    en_noun, de_noun = (one_en, one_de) if number == 1 else (many_en, many_de)
    return f"{en_bound} {en_number} {en_noun}", f"{de_bound} {de_number} {de_noun}"


def moved_counts(card: Prophecy) -> list[Candidate]:
    """A one-clause card about a count (``chips >= 5``) with its number moved
    by one or its bound loosened (``chips >= 4``, ``chips >= 6``; ``pegasus
    == 3`` also ``pegasus >= 2`` and ``pegasus <= 4``; a count of chips also
    of victory point chips, ``victory >= 3``, ``victory <= 1``), worded afresh: the same thing asked, an
    easier or a harder number (a count at five players is not one at three)."""
    parts = card.condition.split()
    if len(parts) != 3 or not parts[2].isdigit() or parts[1] not in _BOUNDS:
        return []
    quantity, op, number = parts[0], parts[1], int(parts[2])
    moves = [(quantity, op, number - 1), (quantity, op, number + 1)]
    if op == "==":
        moves += [(quantity, ">=", number - 1), (quantity, "<=", number + 1)]
    sibling = SIBLING_COUNTS.get(quantity)
    if sibling is not None:
        # Chips counted without the Loser chips (or with them), the bound loosened by up to two.
        if op == ">=":
            moves += [(sibling, op, number - lower) for lower in range(3)]
        else:
            moves += [(sibling, op, number), (sibling, "<=", number + 1)]
    result = []
    for new_quantity, new_op, new_number in moves:
        if new_number < 0 or (new_op == ">=" and new_number == 0):
            continue  # never negative, never always true
        words = count_words(new_quantity, new_op, new_number)
        if words is not None:
            result.append(Candidate(f"{new_quantity} {new_op} {new_number}", *words))
    return result


def candidates(card: Prophecy) -> list[tuple[Candidate, bool]]:
    """Conditions that could replace ``card``'s, each with whether it keeps
    the card's own condition (and adds a clause) rather than asking something
    else about the creature the card names (or, naming none, the count it is
    about: stars, victory point chips, Loser chips, chips), or the same count
    with another number (:func:`moved_counts`)."""
    result: list[tuple[Candidate, bool]] = []
    for moved in moved_counts(card):
        result.append((moved, False))
        # The moved count with a clause more: a number that holds too often
        # alone may, asked with something else, be a card of its own.
        for clause, en, de in EXTRA_CLAUSES:
            if clause.split()[0] != moved.condition.split()[0]:
                result.append(
                    (
                        Candidate(
                            f"{moved.condition} and {clause}",
                            f"{moved.text_en} and {en}",
                            f"{moved.text_de} und {de}",
                        ),
                        False,
                    )
                )
    for clause, en, de in EXTRA_CLAUSES:
        if clause not in card.condition.split(" and "):
            result.append(
                (
                    Candidate(
                        f"{card.condition} and {clause}",
                        f"{card.text_en} and {en}",
                        f"{card.text_de} und {de}",
                    ),
                    True,
                )
            )
    named = [
        (card.condition.find(word), word, en, de) for word, en, de in CREATURE_WORDS if word in card.condition
    ]
    for _, word, en, de in sorted(named)[:1]:
        # The creature the card is about: the first it names.
        result += [
            (Candidate(f"{word} >= 2", f"at least two {en} chips", f"mindestens zwei {de}-Chips"), False),
            (
                Candidate(
                    f"{word} > others_max.{word}",
                    f"more {en} chips than every other player",
                    f"mehr {de}-Chips als jeder andere Spieler",
                ),
                False,
            ),
            (
                Candidate(
                    f"{word} > left.{word}",
                    f"more {en} chips than your left neighbour",
                    f"mehr {de}-Chips als dein linker Nachbar",
                ),
                False,
            ),
        ]
    if not named:
        # A card about a count of all creatures: the same count against the others'.
        counted = [
            (card.condition.find(word), word, en, de)
            for word, en, de in QUANTITY_WORDS
            if word in card.condition
        ]
        for _, word, en, de in sorted(counted)[:1]:
            result += [
                (
                    Candidate(
                        f"{word} > others_max.{word}",
                        f"more {en} than every other player",
                        f"mehr {de} als jeder andere Spieler",
                    ),
                    False,
                ),
                (
                    Candidate(
                        f"{word} > left.{word}",
                        f"more {en} than your left neighbour",
                        f"mehr {de} als dein linker Nachbar",
                    ),
                    False,
                ),
            ]
    unique: dict[str, tuple[Candidate, bool]] = {}
    for candidate, own in result:
        unique.setdefault(candidate.condition, (candidate, own))
    return list(unique.values())


def _seat_rounds(games: Sequence[Played]) -> list[tuple[list[list[int]], int]]:
    return [
        (round_["quantities"], seat)
        for round_ in rounds_of(games)
        if "quantities" in round_
        for seat in range(round_["players"])
    ]


def propose(
    games: Sequence[Played],
    edition: Edition,
    measurement: Measurement,
    target: float,
    settings: BalanceSettings,
    skip: Sequence[str] = (),
) -> list[Replacement]:
    """New conditions for the cards no points can balance (:func:`replacement_reason`),
    tried on the rounds of ``games``: the candidate (:func:`candidates`) that
    holds for about :data:`TARGET_HOLDS` of the seats, within
    :data:`HOLD_BAND` (the nearest outside it if none is inside), unlike every other card (:data:`SAME_CARD`), a clause added to the card's own
    condition preferred; its points bring it to ``target`` at the hold rate
    the cards that meet the goal have when kept against when dealt."""
    seats = _seat_rounds(games)
    if not seats:
        return []
    reasons = {
        card.id: reason
        for card in edition.cards
        if card.id not in skip and (reason := replacement_reason(measurement, card.id, target, settings))
    }
    if not reasons:
        return []
    vectors = {
        card.id: [card.holds(q, seat) for q, seat in seats]
        for card in edition.cards
        if card.id not in reasons
    }
    uplift = _kept_uplift(measurement, target, settings)
    result = []
    for card_id, reason in reasons.items():
        card = edition.card(card_id)
        found = choose_condition(card, seats, list(vectors.values()))
        if found is None:
            continue
        chosen, share = found
        points = min(MAX_POINTS, max(1, round(target / (share * uplift))))
        vectors[card_id] = _holds(chosen.condition, seats)
        result.append(Replacement(card_id, card.condition, chosen, points, reason, share, settings.players))
    return result


def _holds(condition: str, seats: Sequence[tuple[list[list[int]], int]]) -> list[bool]:
    probe = Prophecy("?", 1, "", "", condition, compile_condition(condition))
    return [probe.holds(q, seat) for q, seat in seats]


def choose_condition(
    card: Prophecy, seats: Sequence[tuple[list[list[int]], int]], others: Sequence[Sequence[bool]]
) -> tuple[Candidate, float] | None:
    """The candidate (:func:`candidates`) for ``card`` that holds for about
    :data:`TARGET_HOLDS` of ``seats`` (``(quantities, seat)`` of measured
    rounds), within :data:`HOLD_BAND` if any is, and is not the same card
    (:data:`SAME_CARD`) as ``card`` itself or as any of ``others`` (hold
    vectors over the same seats), and has no clause that nearly always holds
    (:data:`SAYS_NOTHING`) or that changes nothing; a clause added to the card's own condition
    preferred. With how often it holds; None if no candidate will do."""
    own_holds = [card.holds(q, seat) for q, seat in seats]
    best: tuple[float, Candidate, float] | None = None
    clause_shares: dict[str, float] = {}
    for candidate, own in candidates(card):
        compile_condition(candidate.condition, card.id)
        for clause in candidate.condition.split(" and "):
            if clause not in clause_shares:
                clause_shares[clause] = sum(_holds(clause, seats)) / len(seats)
        if max(clause_shares[clause] for clause in candidate.condition.split(" and ")) >= SAYS_NOTHING:
            continue  # a clause that (nearly) always holds: words that ask nothing
        holds = _holds(candidate.condition, seats)
        clauses = candidate.condition.split(" and ")
        if len(clauses) > 1 and holds == _holds(" and ".join(clauses[:-1]), seats):
            continue  # the clause added changes nothing (*exactly three victory point chips and at least 6 stars*)
        share = sum(holds) / len(holds)
        if share < SELDOM_HOLDS or share > HOLD_BAND[1] * 1.5:
            continue
        if any(_agreement(holds, other) >= SAME_CARD for other in [own_holds, *others]):
            continue  # the same card as another, or as itself
        # Outside the band only when nothing inside is left.
        outside = 0.0 if HOLD_BAND[0] <= share <= HOLD_BAND[1] else 10.0
        score = outside + abs(math.log(share / TARGET_HOLDS)) + (0.0 if own else 0.3)
        if best is None or score < best[0]:
            best = (score, candidate, share)
    return None if best is None else (best[1], best[2])


def _agreement(a: Sequence[bool], b: Sequence[bool]) -> float:
    """Of the seats for which either condition holds, the share for which both
    do (1 when neither ever holds): rare conditions do not look alike for
    agreeing where both fail."""
    either = sum(x or y for x, y in zip(a, b, strict=True))
    both = sum(x and y for x, y in zip(a, b, strict=True))
    return both / either if either else 1.0


def _kept_uplift(measurement: Measurement, target: float, settings: BalanceSettings) -> float:
    """How much more often the cards that meet the goal hold when kept than when
    dealt (the median ratio; 1 when there are none): the bots keep a card
    when it looks likely."""
    ratios = [
        measurement.hold_rate[card_id] / measurement.dealt_hold_rate[card_id]
        for card_id in measurement.points
        if card_id not in failing(measurement, settings.tolerance, settings.min_kept)
        and measurement.dealt_hold_rate.get(card_id, 0) > 0
    ]
    return statistics.median(ratios) if ratios else 1.0


def reconditioned(edition: Edition, replacements: Sequence[Replacement], name: str) -> Edition:
    """``edition`` with the replaced cards' new conditions, texts and points."""
    cards = list(edition.cards)
    for item in replacements:
        index = oracle_index(item.card_id)
        cards[index] = Prophecy(
            id=item.card_id,
            points=item.points,
            text_en=item.new.text_en,
            text_de=item.new.text_de,
            condition=item.new.condition,
            clauses=compile_condition(item.new.condition, item.card_id),
        )
    return Edition(name=name, cards=tuple(cards))
