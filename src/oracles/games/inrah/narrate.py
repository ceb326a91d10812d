"""Inrah-Orakel's story: one event of a view's log as a sentence in the
viewer's language (the game part ``narrate``).

The card that completes a trick carries who took it and why, the one that
completes a round the round's points (see :mod:`.views`), so the story says
them where they happen. Card, element and rank names come from the catalog.

>>> narrate({"seq": 5, "seat": 1, "kind": "bid", "round": 2, "bid": 1}, None, ["Ann", "Beate", "Carl"], "en")
'Beate bids 1 trick.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracles.core.game import Game, State
from oracles.games.inrah.notation import split_oracle
from oracles.games.inrah.scoring import makes_points, misses_points, partner

# The board names each seat's Purpurberg team through this part.
from oracles.games.inrah.scoring import team as team
from oracles.games.inrah.views import oracle_fields
from oracles.i18n import N_, ntranslate, seat_name, translate

ELEMENT_WORDS = {
    "fire": N_("Fire"),
    "water": N_("Water"),
    "air": N_("Air"),
    "ore": N_("Ore"),
    "humus": N_("Humus"),
    "ice": N_("Ice"),
}
RANK_WORDS = {
    "ace": N_("Ace"),
    "squire": N_("Squire"),
    "knight": N_("Knight"),
    "seer": N_("Seer"),
    "mage": N_("Mage"),
    "prince": N_("Prince"),
}
#: Why a trick's card won (the rules' reasons, :mod:`.tricks`).
REASON_WORDS = {
    "first seer": N_("the first seer played takes the trick"),
    "highest trump": N_("highest trump"),
    "highest of the led element": N_("highest card of the led element"),
    "only mages: first mage": N_("only mages were played: the first mage takes the trick"),
}
ORACLE_WORDS = {"hesinde": "Hesinde", "efferd": "Efferd", "phex": "Phex"}


def element_words(element: str, lang: str) -> str:
    word = ELEMENT_WORDS.get(element)
    return translate(lang, word) if word else element


def card_words(card: str, lang: str) -> str:
    """``fire-seer`` as "Fire Seer" ("Feuer-Weissagerin")."""
    element, _, rank = card.partition("-")
    if element not in ELEMENT_WORDS:
        return card
    rank_word = translate(lang, RANK_WORDS[rank]) if rank in RANK_WORDS else rank
    return translate(lang, "{element} {rank}", element=element_words(element, lang), rank=rank_word)


def prediction_words(fields: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """An Altaïa oracle as a sentence part: "Beate takes exactly 2 tricks"."""
    named = seat_name(fields.get("named"), names, lang)
    k = int(fields.get("k") or 0)
    if fields.get("makes"):
        return ntranslate(
            lang,
            "{named} takes exactly {count} trick",
            "{named} takes exactly {count} tricks",
            k,
            named=named,
        )
    return ntranslate(
        lang,
        "{named} does not take exactly {count} trick",
        "{named} does not take exactly {count} tricks",
        k,
        named=named,
    )


def points_words(points: Sequence[int], names: Sequence[str], lang: str) -> str:
    return ", ".join(
        ntranslate(
            lang, "{name} {count} point", "{name} {count} points", int(p), name=seat_name(s, names, lang)
        )
        for s, p in enumerate(points)
    )


def narrate(event: dict[str, Any], viewer: int | None, names: Sequence[str], lang: str) -> str:
    """``event`` (one entry of ``view(viewer)["log"]``) as a sentence in ``lang``."""
    kind = event.get("kind")
    name = seat_name(event.get("seat"), names, lang)
    if kind == "dealer":
        return translate(
            lang, "{name} deals the first round.", name=seat_name(event.get("dealer"), names, lang)
        )
    if kind == "deal":
        return ntranslate(
            lang,
            "Round {round}: {count} card is dealt to each player.",
            "Round {round}: {count} cards are dealt to each player.",
            int(event.get("cards") or 0),
            round=event.get("round"),
        )
    if kind == "trump":
        return translate(
            lang,
            "The trump card is {card}: {element} is trump.",
            card=card_words(str(event.get("card")), lang),
            element=element_words(str(event.get("element")), lang),
        )
    if kind == "bid":
        return ntranslate(
            lang,
            "{name} bids {count} trick.",
            "{name} bids {count} tricks.",
            int(event.get("bid") or 0),
            name=name,
        )
    if kind in ORACLE_WORDS:
        return translate(
            lang,
            "{name} foretells ({oracle}): {prediction}.",
            name=name,
            oracle=ORACLE_WORDS[str(kind)],
            prediction=prediction_words(event, names, lang),
        )
    if kind == "play":
        text = translate(
            lang, "{name} plays {card}.", name=name, card=card_words(str(event.get("card")), lang)
        )
        if "winner" in event:
            reason = REASON_WORDS.get(str(event.get("reason")))
            text += " " + translate(
                lang,
                "{winner} takes trick {trick}: {reason}.",
                winner=seat_name(event["winner"], names, lang),
                trick=event.get("trick"),
                reason=translate(lang, reason) if reason else str(event.get("reason")),
            )
        if "points" in event:
            text += " " + translate(
                lang,
                "Round {round} is over: {points}.",
                round=event.get("round"),
                points=points_words(event["points"], names, lang),
            )
        return text
    return translate(lang, "{name}: {what}", name=name, what=str(kind))


def example_move(lang: str) -> str:
    """A move in notation to show as the notation box's example."""
    return translate(lang, "e.g. {move}", move="play fire-7")


def score_pad(view: dict[str, Any], names: Sequence[str], lang: str) -> dict[str, Any]:
    """The score pad of the finished rounds, from the view's log (bids and
    oracles are public once made, trick winners once a trick is complete):
    per round and seat the bid (or Altaïa's three oracles, each with whether
    it held and its points), the tricks taken and the points; Purpurberg's
    team sums; the running totals."""
    n = int(view.get("players") or 0)
    variant = view.get("variant")
    round_scores = view.get("round_scores") or []
    rounds: dict[int, dict[str, Any]] = {}
    for event in view.get("log") or []:
        if not isinstance(event, dict) or "round" not in event:
            continue
        number = int(event["round"])
        if number > len(round_scores):
            continue  # the round under way: not on the pad yet
        entry = rounds.setdefault(
            number,
            {"round": number, "bids": [None] * n, "oracles": [[] for _ in range(n)], "tricks": [0] * n},
        )
        kind = event.get("kind")
        seat = event.get("seat")
        if kind == "bid" and isinstance(seat, int):
            entry["bids"][seat] = event.get("bid")
        elif kind in ORACLE_WORDS and isinstance(seat, int):
            entry["oracles"][seat].append(event)
        elif kind == "play" and isinstance(event.get("winner"), int):
            entry["tricks"][event["winner"]] += 1
    totals = [0] * n
    pads = []
    for number in sorted(rounds):
        entry = rounds[number]
        points = list(round_scores[number - 1])
        totals = [t + p for t, p in zip(totals, points, strict=False)]
        oracles = []
        for seat in range(n):
            told = []
            for oracle in entry["oracles"][seat]:
                named, k = int(oracle.get("named") or 0), int(oracle.get("k") or 0)
                taken = entry["tricks"][named] if named < n else 0
                makes = bool(oracle.get("makes"))
                held = taken == k if makes else taken != k
                told.append(
                    {
                        "oracle": ORACLE_WORDS[str(oracle["kind"])],
                        "text": prediction_words(oracle, names, lang),
                        "holds": held,
                        "points": makes_points(k, taken) if makes else misses_points(k, taken),
                    }
                )
            oracles.append(told)
        teams = []
        if variant == "purpurberg" and n:
            for first in range(n // 2):
                pair = (first, partner(first, n))
                teams.append(
                    {
                        "names": translate(
                            lang,
                            "{first} and {second}",
                            first=seat_name(pair[0], names, lang),
                            second=seat_name(pair[1], names, lang),
                        ),
                        "bids": sum(int(entry["bids"][s] or 0) for s in pair),
                        "tricks": sum(entry["tricks"][s] for s in pair),
                        "points": points[pair[0]],
                    }
                )
        pads.append(
            {
                "round": number,
                "bids": entry["bids"] if variant != "altaia" else None,
                "oracles": oracles if variant == "altaia" else None,
                "tricks": entry["tricks"],
                "points": points,
                "totals": list(totals),
                "teams": teams,
            }
        )
    return {"variant": variant, "rounds": pads}


def made_label(move: str, lang: str, names: Sequence[str] = (), game: Game | None = None) -> str:
    """A move made, as the comparison of tables tells it: a bid is said done
    ("0 Stiche angesagt"; the button's "0 Stiche ansagen" read as an order).

    >>> made_label("bid 0", "de"), made_label("bid 1", "en")
    ('0 Stiche angesagt', '1 trick bid')
    """
    words = move.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return ntranslate(lang, "{count} trick bid", "{count} tricks bid", int(words[1]))
    return move_label(move, lang, names, game)


def move_label(move: str, lang: str, names: Sequence[str] = (), game: Game | None = None) -> str:
    """A legal move's notation as a button's words (the notation itself when
    it has no shorter words). An Altaïa oracle names a seat: by ``names``,
    else "Seat n". ``game`` (the game played) is there for the narrate
    parts' one signature: no move of Inrah reads its options."""
    words = move.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return ntranslate(lang, "Bid {count} trick", "Bid {count} tricks", int(words[1]))
    if len(words) == 2 and words[0] == "play":
        return translate(lang, "Play {card}", card=card_words(words[1], lang))
    try:
        oracle = oracle_fields(split_oracle([word.lower() for word in words]))
    except ValueError:  # not an oracle: its notation is its words
        return move
    return translate(
        lang,
        "{oracle}: {prediction}",
        oracle=ORACLE_WORDS[oracle["kind"]],
        prediction=prediction_words(dict(oracle), names, lang),
    )


# ------------------------------------------------------------- the advice's reasons
#: A difference between two moves' outcome rates worth a sentence (a tenth
#: of the worlds): below it the rates are within the luck of a few worlds.
NOTABLE = 0.1


def outcomes(world: State, seat: int) -> dict[str, bool]:
    """What came true for ``seat`` in the round just scored in ``world``
    (the hook :data:`oracles.bots.hooks.Outcomes`), from the view's
    ``last_round`` (public: bids, oracles and tricks taken): ``"bid:<n>"``,
    the seat made its bid of n exactly; Purpurberg also
    ``"team:<n>:<m>"``, the seat and its partner (bids n and m) both did;
    Altaïa ``"oracle:<kind>:<seat named>:<k>:<makes|misses>"`` for each of
    the seat's oracles, whether it held."""
    from oracles.games.inrah.rules import InrahState

    # The view's ``last_round`` without building the whole view (its log is
    # rebuilt on every call, and this runs at the end of every rollout).
    last = world._last_round if isinstance(world, InrahState) else world.view(seat).get("last_round")
    if not last:
        return {}
    variant = world.game.options.get("variant")
    taken = last["tricks_taken"]
    found: dict[str, bool] = {}
    bids = last.get("bids")
    if bids is not None:
        found[f"bid:{bids[seat]}"] = bids[seat] == taken[seat]
        if variant == "purpurberg":
            other = partner(seat, len(taken))
            both = bids[seat] == taken[seat] and bids[other] == taken[other]
            found[f"team:{bids[seat]}:{bids[other]}"] = both
    for oracle in (last.get("oracles") or [[]] * (seat + 1))[seat]:
        named, k, makes = oracle["named"], oracle["k"], oracle["makes"]
        key = f"oracle:{oracle['kind']}:{named}:{k}:{'makes' if makes else 'misses'}"
        found[key] = (taken[named] == k) == bool(makes)
    return found


def _percent(rate: float, lang: str) -> str:
    return translate(lang, "{percent}%", percent=round(100 * rate))


def _words_of(key: str, lang: str, names: Sequence[str] = ()) -> str:
    """What an outcome key names: "your bid of 2 tricks", "Hesinde: Seat 2
    takes exactly 1 trick"."""
    kind, _, rest = key.partition(":")
    parts = rest.split(":")
    if kind == "bid":
        return ntranslate(lang, "your bid of {count} trick", "your bid of {count} tricks", int(parts[0]))
    if kind == "team":
        return translate(lang, "your team's bids ({bid} and {partner})", bid=parts[0], partner=parts[1])
    oracle_kind, named, k, makes = parts
    fields = {"named": int(named), "k": int(k), "makes": makes == "makes"}
    return translate(
        lang,
        "{oracle}: {prediction}",
        oracle=ORACLE_WORDS.get(oracle_kind, oracle_kind),
        prediction=prediction_words(fields, names, lang),
    )


#: The reasons' sentences: a bid (or a team's bids) is made, an oracle holds;
#: alone, ahead of another move or behind it.
WHY_TEMPLATES = {
    ("makes", "alone"): N_("Makes {outcome} in {rate} of the games the bot played out."),
    ("makes", "ahead"): N_(
        "Makes {outcome} in {rate} of the games the bot played out, against {other_rate} with “{move}”."
    ),
    ("makes", "behind"): N_(
        "Makes {outcome} in only {rate} of the games the bot played out, against {other_rate} with “{move}”."
    ),
    ("holds", "alone"): N_("Your oracle ({outcome}) holds in {rate} of the games the bot played out."),
    ("holds", "ahead"): N_(
        "Your oracle ({outcome}) holds in {rate} of the games the bot played out, against {other_rate} with “{move}”."
    ),
    ("holds", "behind"): N_(
        "Your oracle ({outcome}) holds in only {rate} of the games the bot played out, against {other_rate} with “{move}”."
    ),
}


def _kind(key: str) -> str:
    return key.partition(":")[0]


def why(
    move: str,
    rates: Mapping[str, float],
    other: str | None,
    other_rates: Mapping[str, float] | None,
    ahead: bool,
    lang: str,
    game: Game | None = None,
    names: Sequence[str] = (),
) -> str | None:
    """Why ``move`` is better (``ahead``) or worse than ``other``, from the
    share of the same worlds in which each outcome of :func:`outcomes` came
    true after each (the hook :data:`oracles.bots.hooks.Why`): the team's
    bids (Purpurberg, what scores there), else the seat's bid, else the
    Altaïa oracle that differs most. A bid is compared with the other
    move's bid even when the two differ (a choice of bid). None when
    nothing differs by :data:`NOTABLE` (the best move then says how often
    it makes its bid). ``game`` is not read: no word of
    these reasons depends on the table's options."""
    chosen: tuple[float, str, str] | None = None
    if other is not None and other_rates is not None:
        for key, rate in rates.items():
            # A bid or a team's bids is one key of its kind per move: matched
            # by kind; an oracle only with the same oracle.
            if _kind(key) in ("bid", "team"):
                match = next((k for k in other_rates if _kind(k) == _kind(key)), None)
            else:
                match = key if key in other_rates else None
            if match is None:
                continue
            gain = rate - other_rates[match]
            if not ahead:
                gain = -gain
            rank = 2.0 if _kind(key) == "team" else 0.0  # the team's bids first: they score
            if gain >= NOTABLE and (chosen is None or gain + rank > chosen[0]):
                chosen = (gain + rank, key, match)
    if chosen is None or other is None or other_rates is None:
        if not ahead or not rates:
            return None
        # The team's bids where they score; else the oracle this move makes
        # (``hesinde P1 0``); else what this move leads to that the other
        # does not, before what every move shares.
        words = move.split()
        made = f"oracle:{words[0]}:{words[1][1:]}:{words[2]}:" if len(words) >= 3 else None
        fresh = [k for k in rates if other_rates is None or k not in other_rates]
        key = (
            next((k for k in rates if _kind(k) == "team"), None)
            or next((k for k in rates if made is not None and k.startswith(made)), None)
            or (fresh or list(rates))[0]
        )
        verb = "holds" if _kind(key) == "oracle" else "makes"
        return translate(
            lang,
            WHY_TEMPLATES[verb, "alone"],
            outcome=_words_of(key, lang, names),
            rate=_percent(rates[key], lang),
        )
    _, key, match = chosen
    verb = "holds" if _kind(key) == "oracle" else "makes"
    return translate(
        lang,
        WHY_TEMPLATES[verb, "ahead" if ahead else "behind"],
        outcome=_words_of(key, lang, names),
        rate=_percent(rates[key], lang),
        other_rate=_percent(other_rates[match], lang),
        move=move_label(other, lang, names),
    )
