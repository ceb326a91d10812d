"""Words and numbers of Inrah-Orakel shared by the rules, the notation and
the front ends: variants, phases of a round, kinds of Altaïa oracle."""

from __future__ import annotations

STANDARD, PURPURBERG, ALTAIA = "standard", "purpurberg", "altaia"

# Phases of a round; the first three are chance nodes.
DEALER, DEAL, TRUMP, BID, HESINDE, EFFERD, PHEX, PLAY, OVER = range(9)
PHASE_NAMES: tuple[str, ...] = ("dealer", "deal", "trump", "bid", "hesinde", "efferd", "phex", "play", "over")

# Kinds of Altaïa oracle, in the order of their action blocks.
HESINDE_KIND, EFFERD_MAKES, EFFERD_MISSES, PHEX_KIND = range(4)
#: Per kind: the oracle's name and whether it says "takes exactly k" (else
#: "does not take k").
ORACLE_NAME: tuple[str, ...] = ("hesinde", "efferd", "efferd", "phex")
ORACLE_MAKES: tuple[bool, ...] = (True, True, False, False)
#: The oracle each prediction phase asks for.
ORACLE_OF_PHASE: dict[int, str] = {HESINDE: "hesinde", EFFERD: "efferd", PHEX: "phex"}
