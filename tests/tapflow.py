"""A hand entered on ``bourre serve``'s tap page, tap by tap (shared by the web
tests): the tour's hand, a five-player hand of the standard house with changes and
one renege the table lets stand, and the taps that enter any hand given in the
notation (what a table would tap, step by step)."""

from __future__ import annotations

TOUR = """\
hand dealer 0
upcard 9H
decide 1 play 9D
decide 2 play 4C 7D
decide 3 pass
decide 4 pass
decide 0 play JD 2C
play 1 5S
play 2 AS
play 0 4S
play 2 KS
play 0 6S
play 1 8C
play 2 QS
play 0 9H
play 1 QH
play 1 KH
play 2 2H
play 0 AC
play 1 TC
play 2 3H
play 0 AD
"""
"""The tour's hand, as its tricks show it (no seat's dealt cards: each seat that
plays plays all its cards): seat 0 deals, hearts are trump; seats 1, 2 and 0 play
and change cards; in trick 2 seat 1 plays 8♣ while holding hearts (R-TRUMP) and the
table lets it stand: a renege; seat 2 takes the pot, seat 0 is bourré, seat 1 pays
the renege and loses its next deal."""

SHOWN = """\
hand dealer 0
upcard 9H
dealt 1: KH QH 5S 8C 9D
dealt 2: AS KS 4C 7D 2H
dealt 0: 9H AC 6S JD 2C
decide 1 play 9D > TC
decide 2 play 4C 7D > QS 3H
decide 3 pass
decide 4 pass
decide 0 play JD 2C > AD 4S
""" + TOUR.split("decide 0 play JD 2C\n", 1)[1]
"""The tour's hand with the playing seats' cards shown (what a table knows): the
same hand, each card then checked as it is played."""

PREMATURE = TOUR.replace("decide 2 play", "premature 3\ndecide 2 play", 1)
"""The tour's hand where seat 3 announces its pass before seat 2 has decided
(R-PREMATURE): it loses its next turn to deal."""

RENEGE = ("1", "8C")
"""The seat and the card of the tour's renege."""

ASKED = "?"
"""Before a tap: only when the page asks (the table's ruling on a forbidden card)."""


def taps(text: str) -> list[str]:
    """The taps that enter a hand written in the notation (one play a line; a card
    with ``/`` was taken back; a seat with ``dealt`` cards shows them first).  A tap
    marked :data:`ASKED` is tapped only when the page asks whether a card stood."""
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    dealt: dict[str, list[str]] = {}
    dealer, upcard = "", ""
    for line in lines:
        if line.startswith("dealt "):
            seat, _, cards = line[6:].partition(":")
            dealt[seat.strip()] = cards.split()
        elif line.startswith("hand dealer "):
            dealer = line.split()[2]
        elif line.startswith("upcard "):
            upcard = line.split()[1]
    out: list[str] = []
    for line in lines:
        words = line.split()
        if words[0] == "hand":
            out.append(f"dealer:{words[2]}" if len(words) > 2 else "next")
        elif words[0] == "upcard":
            out.append(f"upcard:{words[1]}")
        elif words[0] == "premature":  # an announcement out of turn (R-PREMATURE)
            out.append(f"premature:{words[1]}")
        elif words[0] == "decide" and words[2] == "pass":
            out.append("pass")
        elif words[0] == "decide":
            seat = words[1]
            out.append("play")
            if seat in dealt:  # the seat shows its cards first
                out.append("show")
                out += [f"dealt:{c}" for c in dealt[seat] if not (seat == dealer and c == upcard)]
            thrown = words[3 : words.index(">")] if ">" in words else words[3:]
            drawn = words[words.index(">") + 1 :] if ">" in words else []
            out.append(f"change:{len(thrown)}")
            out += [f"throw:{c}" for c in thrown] + [f"drew:{c}" for c in drawn]
        elif words[0] == "play":
            card, slash, instead = words[2].partition("/")
            out.append(f"card:{card}")
            out += ["back", f"card:{instead}"] if slash else [ASKED + "stands"]
    return [*out, ASKED + "stands"]  # a renege the tricks showed, at the end


def hidden(page: str, name: str) -> str:
    """A hidden field's value on a page (what the next tap posts back)."""
    import html
    import re

    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    return html.unescape(m.group(1)) if m else ""


def text_of(page: str, element_id: str) -> str:
    """The text of the element with that id (tags dropped), or ``""``."""
    import html
    import re

    m = re.search(rf'id="{element_id}"[^>]*>(.*?)</(p|ul|pre|div)>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", m.group(1))).strip() if m else ""


def ruling_items(page: str) -> list[str]:
    """The lines of the ruling at the end of a hand, as the page lists them: the
    summary, then each seat's line (the rule texts behind the disclosure left out)."""
    import html
    import re

    block = page.split('id="ruling">', 1)[1].split("<details", 1)[0].split("</div>", 1)[0]
    return [html.unescape(x).strip() for x in re.findall(r"<li>(.*?)</li>", block, re.S)]


def last_hand_words(out: str) -> list[str]:
    """The summary and the seats' lines of the last hand of ``bourre replay --words``
    (what a page lists for the hand just refereed)."""
    lines = out.splitlines()
    start = max(i for i, x in enumerate(lines) if x.startswith("Hand "))
    block = []
    for x in lines[start + 1 :]:
        if not x.startswith("  "):
            break
        block.append(x.strip().removeprefix("- "))
    return block
