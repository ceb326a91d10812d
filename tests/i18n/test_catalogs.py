"""The German catalog translates every text marked in the source, and only those."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from oracles.i18n import LANGUAGES, catalog_path, translate

SOURCE = Path(__file__).resolve().parents[2] / "src" / "oracles"
KEYWORDS = {"translate": (2,), "ntranslate": (2, 3), "N_": None, "tr": None, "ntr": (1, 2), "reason": (1,)}


def marked_messages() -> set[str]:
    found: set[str] = set()
    for _, _, message, _, _ in extract_from_dir(
        str(SOURCE),
        method_map=[
            ("**.py", "python"),
            ("web/templates/**.html", "jinja2.ext:babel_extract"),
            ("games/*/templates/**.html", "jinja2.ext:babel_extract"),
        ],
        keywords=KEYWORDS,
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_marked_text_is_translated(lang: str) -> None:
    with catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    entries = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    marked = marked_messages()
    assert marked, "no marked texts found: is the extraction configured?"
    missing = sorted(marked - set(entries))
    assert not missing, f"{lang}: not in the catalog: {missing[:10]}"
    untranslated = sorted(k for k, m in entries.items() if not m.string or m.fuzzy)
    assert not untranslated, f"{lang}: untranslated or fuzzy: {untranslated[:10]}"
    unused = sorted(set(entries) - marked)
    assert not unused, f"{lang}: in the catalog but marked nowhere: {unused[:10]}"


def test_fields_survive_translation() -> None:
    assert translate("de", "seat {seat}", seat=3) == "Platz 3"
    assert translate("xx", "seat {seat}", seat=3) == "seat 3"
