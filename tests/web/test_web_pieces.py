"""The pieces a board draws from a seat's view (no browser): faces from the
games' ``faces`` parts, data-pick tokens, legal marks and the reasons a
piece cannot be played, in English and German."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from oracles.core.registry import game_part, load_game
from oracles.i18n import ntranslate, translate
from oracles.web import present, routes


def render(state: Any, seat: int, lang: str = "en") -> str:
    legal = (
        [state.action_to_string(a) for a in state.legal_actions()] if state.current_player() == seat else []
    )
    n = state.num_players
    board = {
        "unavailable": False,
        "game": state.game.game_id if hasattr(state.game, "game_id") else state.view(seat)["game"],
        "view": state.view(seat),
        "legal": legal,
        "clicks": present.one_click(legal),
        "verbs": [],
        "moves": legal,
        "own_templates": True,
        "version": 0,
        "seat": seat,
        "names": [f"Person number {i}" for i in range(n)],
        "seats_info": [
            {"seat": i, "kind": "human", "connected": i != 1, **({"standin": True} if i == 2 else {})}
            for i in range(n)
        ],
        "finished": False,
        "table_id": "t",
    }
    template = routes.environment().get_template("board.html")
    return template.render(
        board=board,
        lang=lang,
        tr=lambda m, **f: translate(lang, m, **f),
        ntr=lambda a, b, c, **f: ntranslate(lang, a, b, c, **f),
    )


def advance(game: str, until: Any, seed: int = 1, **options: Any) -> Any:
    state = load_game(game, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(5000):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        if until(state):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("never reached")


def test_faces_name_creatures_and_court_cards() -> None:
    oracle = game_part("oracle", "faces")
    assert [oracle.face(c, "en")["creature"] for c in ("R1", "R5", "B6", "G9", "Y10", "P12")] == [
        "hydra",
        "hydra",
        "pegasus",
        "pegasus",
        "phoenix",
        "phoenix",
    ]
    assert oracle.face("G10", "de")["title"] == "Grün 10 (Phönix)"
    inrah = game_part("inrah", "faces")
    courts = ["squire", "knight", "seer", "mage", "prince"]
    assert [inrah.face(f"fire-{r}", "de")["court_name"] for r in courts] == [
        "Knappin",
        "Ritter",
        "Weissagerin",
        "Magier",
        "Fürst",
    ]
    assert [inrah.face(f"ice-{r}", "en")["court_name"] for r in courts] == courts
    assert present.sort_hand("inrah", ["ice-2", "fire-mage", "fire-ace"]) == [
        "fire-ace",
        "fire-mage",
        "ice-2",
    ]


def test_oracle_keep_offers_the_prophecy_cards_as_picks() -> None:
    state = advance("oracle", lambda s: s.view(s.current_player())["phase"] == "keep")
    seat = state.current_player()
    html = render(state, seat)
    ids = [o["id"].lower() for o in state.view(seat)["oracle_cards"]]
    for token in ids:
        assert re.search(
            rf'<button[^>]*class="oracle-card legal"[^>]*data-pick="{token}"[^>]*data-legal', html
        )
    # The hand is shown, but nothing in it can be played now.
    assert 'class="card' in html and 'data-move="play' not in html


def seen(html: str) -> str:
    """What a player sees or hears of a board: its text, titles and labels
    (not the hooks for scripts and tests, whose words are the notation's)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r'\s(data-[\w-]+|id|class|href|for|aria-describedby|aria-labelledby)="[^"]*"', "", html)
    return html


@pytest.mark.parametrize("lang", ["en", "de"])
def test_oracle_cards_show_words_and_pictures_never_their_ids(lang: str) -> None:
    """A new player saw "O11" on each prophecy: the notation's word, not the
    card's. The card shows its words, its points and the creatures it names;
    a seat sees only its own prophecies."""
    keep = advance("oracle", lambda s: s.view(s.current_player())["phase"] == "keep")
    seat = keep.current_player()
    html = render(keep, seat, lang)
    dealt = keep.view(seat)["oracle_cards"]
    assert len(re.findall(r'class="oracle-card', html)) == len(dealt)
    assert not re.search(r"\bO\d\d\b", seen(html)), re.findall(r".{40}\bO\d\d\b.{20}", seen(html))
    for card in dealt:
        button = re.search(rf'<button[^>]*data-pick="{card["id"].lower()}".*?</button>', html, re.S)
        assert button, card
        creatures = re.findall(r'<use href="#cr-(\w+)"/>', button.group(0).split('class="o-eye"')[0])
        named = [c for c in ("hydra", "pegasus", "phoenix") if c in card["text"].lower()]
        assert creatures == named, (card, creatures)

    def playing(s: Any) -> bool:
        return s.view(s.current_player())["phase"] == "play"

    play = advance("oracle", playing)
    seat = play.current_player()
    html = render(play, seat, lang)
    assert not re.search(r"\bO\d\d\b", seen(html))
    mine = {o["id"] for o in play.view(seat)["kept"]}
    assert len(re.findall(r'class="oracle-card', html)) == len(mine) == 2
    theirs = [o for other in range(play.num_players) if other != seat for o in play.view(other)["kept"]]
    for card in theirs:
        words = card["text_de"] if lang == "de" else card["text"]
        assert card["id"] not in mine and f">{words}<" not in html, card

    def discarded(s: Any) -> bool:
        return s.view(s.current_player())["phase"] == "draft" and bool(s.view(None)["draft"]["discards"])

    draft = advance("oracle", discarded, draft=True, players=3)
    seat = draft.current_player()
    html = render(draft, seat, lang)
    line = re.search(r'id="draft-line">(.*?)</p>', html, re.S)
    assert line and not re.search(r"\bO\d\d\b", line.group(1)) and "“" in line.group(1), line


def test_the_middles_chips_keep_their_slots_in_every_phase() -> None:
    """A new player saw the middle's chips jump: drawn in the felt's centre
    while no trick lay there, under the felt during one, and a taken Loser
    chip's neighbours closing up. Now one strip under the felt, a slot for
    each creature's chips and for each Loser chip, in every phase."""
    slots = ["hydra", "pegasus", "phoenix", "hydra-loser", "pegasus-loser", "phoenix-loser"]

    def strip(state: Any) -> tuple[str, list[str]]:
        seat = state.current_player()
        html = render(state, seat)
        felt = html.index('class="felt')
        centre = re.search(r'<section class="centre".*?</section>', html, re.S)
        assert centre and 'class="chip' not in centre.group(0), "no chip in the trick's place"
        assert len(re.findall(r"<div[^>]*data-middle>", html)) == 1
        middle = re.search(r"<div[^>]*data-middle>(.*?)</div>", html, re.S)
        assert middle and middle.start() > felt
        return middle.group(1), re.findall(r'data-middle-slot="([\w-]+)"', middle.group(1))

    def phase_is(phase: str, trick: bool | None = None) -> Any:
        def test(s: Any) -> bool:
            view = s.view(s.current_player())
            return view["phase"] == phase and (
                trick is None or bool((view.get("trick") or {}).get("cards")) == trick
            )

        return test

    def loser_taken(s: Any) -> bool:
        view = s.view(s.current_player())
        return view["phase"] == "play" and len(view["chips"]["middle"]["losers"]) < 3

    for until in (phase_is("keep"), phase_is("play", trick=False), phase_is("play", trick=True), loser_taken):
        html, found = strip(advance("oracle", until))
        assert found == slots
        # A Loser chip taken leaves its slot, drawn empty.
        assert (
            html.count('class="chip loser taken"')
            + html.count('class="chip loser hydra"')
            + html.count('class="chip loser pegasus"')
            + html.count('class="chip loser phoenix"')
            == 3
        )


@pytest.mark.parametrize("verb", ["pass", "discard"])
def test_the_oracle_draft_says_what_the_two_picks_are_for(verb: str) -> None:
    def drafting(s: Any) -> bool:
        return s.view(s.current_player())["phase"] == "draft" and s.action_to_string(
            s.legal_actions()[0]
        ).startswith(verb)

    state = advance("oracle", drafting, draft=True, players=3)
    seat = state.current_player()
    html = render(state, seat)
    heading = re.search(
        r'<section class="prophecies choosing"[^>]*>\s*(?:{#.*?#}\s*)?<h2>(.*?)</h2>', html, re.S
    )
    assert heading, html
    if verb == "pass":
        assert heading.group(1) == f"Choose two prophecies to pass to Person number {(seat + 1) % 3}"
    else:
        assert heading.group(1) == "Choose two prophecies to lay face up on the discard pile"
    draft = state.view(seat)["draft"]
    line = re.search(r'id="draft-line">(.*?)</p>', html)
    assert line and line.group(1).startswith(f"Stack: {draft['stack']} cards")
    german = render(state, seat, "de")
    assert "Wähle zwei Prophezeiungen, die du" in german and "Stapel:" in german


def test_oracle_cards_that_cannot_follow_say_why() -> None:
    def must_follow(s: Any) -> bool:
        view = s.view(s.current_player())
        return (
            view["phase"] == "play"
            and bool((view.get("trick") or {}).get("cards"))
            and len(s.legal_actions()) < len(view["hand"])
        )

    state = advance("oracle", must_follow)
    seat = state.current_player()
    view = state.view(seat)
    led = view["trick"]["cards"][0][1][0]
    colour = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "purple"}[led]
    html = render(state, seat)
    legal = {state.action_to_string(a).split()[1] for a in state.legal_actions()}
    for code in view["hand"]:
        button = re.search(rf'<button[^>]*data-pick="{code.lower()}"[^>]*>', html)
        assert button, code
        if code in legal:
            assert "data-legal" in button.group(0) and f'data-move="play {code}"' in button.group(0)
        else:
            assert 'aria-disabled="true"' in button.group(0) and f"must follow {colour}" in button.group(0)
    german = render(state, seat, "de")
    assert "bedienen" in german


def test_inrah_bids_are_numbers_and_the_dealer_is_told_why_not() -> None:
    def dealer_bids(s: Any) -> bool:
        view = s.view(s.current_player())
        return (
            view["phase"] == "bid"
            and view["dealer"] == s.current_player()
            and view["round"] >= 2
            and len(s.legal_actions()) < view["round"] + 1
        )

    state = advance("inrah", dealer_bids, forbid_exact_sum=True)
    seat = state.current_player()
    html = render(state, seat)
    legal = {int(state.action_to_string(a).split()[1]) for a in state.legal_actions()}
    for k in range(state.view(seat)["round"] + 1):
        button = re.search(rf'<button[^>]*class="number[^"]*"[^>]*data-pick="{k}"[^>]*>', html)
        assert button, k
        if k in legal:
            assert f'data-move="bid {k}"' in button.group(0)
        else:
            assert f"the dealer may not bid {k}" in button.group(0)
    assert "a bot plays for Person number 2" in html
    assert 'class="presence away"' in html


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_are_whole_and_the_trump_is_a_card(lang: str) -> None:
    state = advance("inrah", lambda s: s.view(s.current_player())["phase"] == "play")
    html = render(state, state.current_player(), lang)
    assert html.count("Person number 3") >= 1
    assert 'class="trump-box"' in html and '<span class="card' in html.split('class="trump-box"')[1][:400]


def test_an_oracle_card_shows_the_tables_words_in_both_languages(tmp_path: Any) -> None:
    """The card shows its words from the view (the table's edition at its
    player count), not the classic deck's: here O12 asks something else at five."""
    import json

    from oracles.games.oracle.prophecies import default_edition, edition_json

    data = json.loads(edition_json(default_edition()))
    data["cards"][11].update(
        condition={"3": "chips < 0", "4": "chips < 0", "5": "chips >= 0"},
        text_en={"3": "never", "4": "never", "5": "always at five"},
        text_de={"3": "nie", "4": "nie", "5": "immer zu fünft"},
    )
    path = tmp_path / "worded.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for seed in range(40):
        state = advance(
            "oracle",
            lambda s: s.view(s.current_player())["phase"] == "keep",
            seed,
            players=5,
            edition=str(path),
        )
        seat = state.current_player()
        if "O12" in [o["id"] for o in state.view(seat)["oracle_cards"]]:
            break

    def card_texts(html: str) -> list[str]:
        return re.findall(r'<span class="o-text">([^<]*)</span>', html)

    assert "always at five" in card_texts(render(state, seat, "en"))
    german = card_texts(render(state, seat, "de"))
    assert "immer zu fünft" in german and default_edition().card("O12").text_de not in german


def test_purpurberg_partners_share_a_team_tag() -> None:
    state = advance(
        "inrah", lambda s: s.view(s.current_player())["phase"] == "play", players=4, variant="purpurberg"
    )
    html = render(state, state.current_player())
    tags = re.findall(r'<section class="seat[^"]*" data-seat="(\d)".*?class="team-tag team-(\d)"', html, re.S)
    assert sorted((int(seat), int(team)) for seat, team in tags) == [(0, 0), (1, 1), (2, 0), (3, 1)]
    plain = render(advance("inrah", lambda s: s.view(s.current_player())["phase"] == "play"), 0)
    assert 'class="team-tag' not in plain


def test_a_finished_codename_names_its_winner_once() -> None:
    """The end of a Codename game says why it ended, winner included ("Bot
    named the whole opposing code: Bot wins."): the winners' line ("Bot
    won.", once "Won by: Bot.") said the same again. Oracle, which tells no
    reason, keeps the line."""
    state = advance("codename", lambda s: s.is_terminal(), max_turns=30)
    status = re.search(r'id="status"[^>]*>(.*?)</p>', render(state, 0), re.S)
    assert status and "end-reason" in status.group(1)
    assert 'class="winners"' not in status.group(1)
    oracle = advance("oracle", lambda s: s.is_terminal(), rounds=1)
    status = re.search(r'id="status"[^>]*>(.*?)</p>', render(oracle, 0), re.S)
    assert status and re.search(r'class="winners">[^<]+ (won|share the win)\.<', status.group(1))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_draft_names_its_discards_in_the_tables_words(lang: str) -> None:
    """Regression: the draft's discard line took the classic deck's words,
    where the table's edition may word a card otherwise (balanced: O01
    asks for six stars as well at four players)."""
    from oracles.games.oracle.prophecies import edition_named

    balanced = edition_named("balanced").for_players(4)
    classic = edition_named("classic").for_players(4)
    reworded = {c.id for c, b in zip(classic.cards, balanced.cards, strict=True) if c.text_en != b.text_en}
    for seed in range(200):
        state = advance(
            "oracle",
            lambda s: (
                s.view(s.current_player())["phase"] == "draft"
                and bool(reworded & set(s.view(None)["draft"]["discards"]))
            ),
            seed,
            draft=True,
            players=4,
            edition="balanced",
        )
        found = sorted(reworded & set(state.view(None)["draft"]["discards"]))
        if found:
            break
    card = balanced.card(found[0])
    line = re.search(r'id="draft-line">(.*?)</p>', render(state, state.current_player(), lang), re.S)
    assert line is not None
    words = card.text_de if lang == "de" else card.text_en
    old = classic.card(found[0]).text_de if lang == "de" else classic.card(found[0]).text_en
    quoted = "„{}“" if lang == "de" else "“{}”"
    assert quoted.format(words) in line.group(1) and quoted.format(old) not in line.group(1), line.group(1)
