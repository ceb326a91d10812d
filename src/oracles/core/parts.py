"""What a game package declares about itself: its parts, named once.

A game lives in one package, ``oracles.games.<id>``. Beside its pure rules it
may carry the pieces that front ends need: a heuristic policy for the bots, a
terminal renderer, a research encoder. The package's ``__init__`` declares
them in a module-level ``PARTS`` as *names* (``"module:attribute"``, the
module relative to the package), so nothing heavy is imported until a front
end asks for that part: a simulation never imports ``rich``, the terminal
never imports ``numpy``.

==================  ===========================================================
part                what it is
==================  ===========================================================
``game``            the :class:`~oracles.core.game.Game` subclass (required)
``policy``          ``policy(world, seat, rng) -> action``: the heuristic bot
``candidates``      ``candidates(world, seat) -> actions``: the few legal
                    actions worth a search (for games with very many moves)
``root_candidates`` ``root_candidates(world, seat) -> actions``: the moves a
                    search decides among at its root (the deciding seat's
                    own information only, so every world gives the same)
``steering``        ``steering(world, seat) -> policy | None``: the rollout
                    policy of a search deciding for ``seat`` (its own
                    information only), random play where None
``inference``       ``inference(world, seat) -> weigh | None``: for a search
                    deciding for ``seat``, ``weigh(world) -> float``, the
                    log-likelihood (up to a constant) of the other seats'
                    actions in a world resampled for ``seat``, under a model
                    of their play (None: nothing to infer from yet)
``exploration``     a number: the UCB exploration constant of the game's
                    search (``ismcts``'s ``c`` where its spec names none)
``evaluator``       a module with ``win_chances(world)`` and ``turn(world)``:
                    a position evaluator for searches that stop early
``renderer``        the terminal renderer class (``oracles.play.render.Renderer``)
``encoder``         the research tensor encoder class
                    (``oracles.research.encoding.Encoder``)
``analysis``        a module with ``game_facts(state)``, ``variants(options)``
                    and ``report_tables(...)``: the game's statistics for
                    ``oracles analyze`` (built on ``oracles.analysis``)
``balancer``        a module with the re-pointing loop of ``oracles balance``
                    (Oracle only: its prophecy deck is the thing re-pointed)
``faces``           a module that draws the game's pieces for front ends:
                    ``face(code, lang) -> dict`` (the drawing data of one
                    piece: suit or symbol, rank, creature, translated name)
                    and ``sort_key(code)`` (the order of a sorted hand)
``narrate``         a module with ``narrate(event, viewer, names, lang) ->
                    str``: one event of the view's log as a sentence in the
                    viewer's language (the terminal and the web page alike)
``templates``       a folder of the package with the game's web templates
                    (``board.html`` and the partials it includes), found by
                    the web page's template loader as ``<game id>/<name>``
==================  ===========================================================
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from importlib import resources

PART_NAMES = (
    "game",
    "policy",
    "candidates",
    "root_candidates",
    "steering",
    "inference",
    "exploration",
    "evaluator",
    "renderer",
    "encoder",
    "analysis",
    "balancer",
    "faces",
    "narrate",
    "templates",
)


@dataclass(frozen=True)
class GameParts:
    """The parts of one game package, each ``"module:attribute"`` relative
    to the package (``":attribute"`` for the package itself; ``evaluator``,
    ``analysis`` and ``balancer`` name a module only), or ``None``."""

    game: str
    policy: str | None = None
    candidates: str | None = None
    root_candidates: str | None = None
    steering: str | None = None
    inference: str | None = None
    exploration: str | None = None
    evaluator: str | None = None
    renderer: str | None = None
    encoder: str | None = None
    analysis: str | None = None
    balancer: str | None = None
    faces: str | None = None
    narrate: str | None = None
    #: A folder name relative to the package (not a module).
    templates: str | None = None

    def __post_init__(self) -> None:
        assert tuple(f.name for f in fields(self)) == PART_NAMES


def fitted_weights(
    package: str, names: Sequence[str], file: str = "data/play_model.json"
) -> tuple[float, ...]:
    """The weights of a model fitted by ``tools/fit_play_model.py`` and shipped
    as data in a game package (an ``inference`` part's model of play), in the
    order of the feature ``names`` the model was fitted for; a file fitted
    for other features is refused, since its weights would be read against
    the wrong features."""
    data = json.loads(resources.files(package).joinpath(file).read_text("utf-8"))
    weights = data["weights"]
    if len(weights) != len(names) or data["features"] != list(names):
        raise ValueError(f"{package}: {file} was fitted for other features: run tools/fit_play_model.py")
    return tuple(float(w) for w in weights)
