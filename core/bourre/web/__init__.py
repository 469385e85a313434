"""``bourre serve``: the referee in a browser (Starlette and Jinja2 templates).

Seven pages: compose a house (its variants and settings as forms generated from the
settings models) and read its rules; referee a hand by tapping, every step a choice on
the screen (:mod:`bourre.web.tap`); referee a hand typed as it is played, one line at
a time, each ruling shown as it happens (the legal cards, a refused card with its
rule, the payout at the end); paste a whole script (JSON or hand notation) for a
ruling; ask whether to play a hand (``/advise``, :func:`bourre.advice.advise`, the cards
tapped on the tap page's picker, :mod:`bourre.web.advising`); read the house's strategy
chart (``/chart``, :mod:`bourre.web.charts`); and
review the play of a refereed hand (``/review``, :mod:`bourre.advice.review`), reached
from the ruling of the three referee pages; and, during a hand, which card to play
(``/advise/hand``, :mod:`bourre.advice.inhand`, reached from the tap page; as JSON,
``POST /api/advise/hand``).
The links of every page keep the house (``?house=``).

The app keeps nothing between requests: the hand so far travels in the form as hand
notation (:mod:`bourre.referee.notation`) and is refereed again on every step, by the same
state as ``bourre replay``.  It reads only the fields it needs, refuses bodies over
:data:`MAX_BODY` bytes, and answers bad input with a message on the page; its
:mod:`~bourre.web.guard` checks the host, refuses cross-site posts, reads bodies
with a deadline and sends the security headers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from bourre.advice.advise import HANDS as ADVICE_HANDS
from bourre.advice.advise import Advice, AdviceError, advise
from bourre.advice.chart_page import chart_context
from bourre.advice.inhand import HandAdvice, InHandError, advise_in_hand
from bourre.advice.review import Recorder, Review, review
from bourre.game.actions import CARDS
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError, house_from_data
from bourre.houses.strings import parse_house_string
from bourre.houses.text import SECTIONS, type_name
from bourre.referee import Refereed, ScriptError, parse_text, referee
from bourre.referee.notation import NotationError, parse_script, seat_number
from bourre.referee.records import PartialHandRecord
from bourre.referee.ruling import ruling_of
from bourre.rules import RuleViolation, plugins
from bourre.rules.cards import CardError, card_symbol, parse_card, shown
from bourre.rules.settings import TableSettings
from bourre.web.advising import FIELDS as ADVICE_FIELDS
from bourre.web.advising import AdviceForm, PickError
from bourre.web.charts import ChartRefused, web_chart
from bourre.web.guard import BODY_SECONDS, Guard
from bourre.web.tap import TapError, TapFlow
from bourre.web.tap.phases import Phase
from bourre.web.tap.session import Names, Opened, export, ledger, so_far
from bourre.web.work import (
    BUSY_WORDS,
    RETRY_SECONDS,
    REVIEW_WEIGHT,
    OverBudget,
    Workshop,
    check_work,
    most_deals,
)

__all__ = ["MAX_BODY", "MAX_WEB_HAND_DEALS", "WEB_DEALS", "create_app"]

MAX_BODY = 64 * 1024
"""The largest request body read (a hand's script is a few hundred bytes)."""
MAX_FIELD = 16 * 1024

_TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
_TEMPLATES.env.loader = jinja2.ChoiceLoader(  # the chart's body: bourre chart --html's
    [_TEMPLATES.env.loader, jinja2.PackageLoader("bourre.advice", "templates")]
    if _TEMPLATES.env.loader is not None
    else [jinja2.PackageLoader("bourre.advice", "templates")]
)
_TEMPLATES.env.filters["shown"] = shown  # a card by its symbol on the page


_DIGITS = re.compile(r"[0-9]{1,12}")
"""A whole number as a form or a header gives it: ASCII digits only (``²`` is a digit to
:meth:`str.isdigit`, and ``int()`` of it fails)."""


class FormError(ValueError):
    """Bad form input: shown on the page."""


async def _form(request: Request, fields: tuple[str, ...]) -> dict[str, str]:
    """The named fields of a form post, as short strings (nothing else is read)."""
    length = request.headers.get("content-length")
    if length is not None and (not _DIGITS.fullmatch(length) or int(length) > MAX_BODY):
        raise FormError(f"the form is too large (at most {MAX_BODY // 1024} kB)")
    form = await request.form(max_files=0, max_fields=200)
    out: dict[str, str] = {}
    for name in fields:
        value = form.get(name, "")
        if not isinstance(value, str):
            raise FormError(f"{name}: text expected")
        if len(value) > MAX_FIELD:
            raise FormError(f"{name}: too long")
        out[name] = value
    return out


def _page(request: Request, name: str, status: int = 200, **context: Any) -> Response:
    return _TEMPLATES.TemplateResponse(request, name, context, status_code=status)


def _registry_variants() -> list[dict[str, Any]]:
    default_registry = plugins.default_registry  # (looked up where it lives: tests replace it)

    out = []
    for name, info in sorted(default_registry().variants.items()):
        fields = [
            {
                "key": key,
                "type": type_name(f.annotation),
                "required": f.is_required(),
                "default": "" if f.is_required() else f.default,
                "help": f.description or "",
            }
            for key, f in info.cls.Settings.model_fields.items()
        ]
        out.append({"name": name, "summary": info.cls.summary, "fields": fields})
    return out


def _house_data(house: House) -> dict[str, Any]:
    """The house's rules as a house-rules object (only what differs from the
    defaults)."""
    data: dict[str, Any] = parse_house_string(house.spec).model_dump(
        mode="json", exclude_defaults=True
    )
    return data


def _table_fields(house: House | None = None) -> list[dict[str, Any]]:
    given = _house_data(house).get("table", {}) if house is not None else {}
    return [
        {
            "key": key,
            "default": f.default,
            "value": given.get(key, ""),
            "help": f.description or "",
        }
        for key, f in TableSettings.model_fields.items()
    ]


def _prefill(house: House, variants: list[dict[str, Any]]) -> None:
    """Tick the house's variants and fill in its settings (the house kept across
    pages)."""
    data = _house_data(house).get("variants", {})
    use = data.get("use", [])
    for v in variants:
        v["checked"] = v["name"] in use
        for f in v["fields"]:
            if f["key"] in data.get(v["name"], {}):
                f["default"] = data[v["name"]][f["key"]]


_INTEGER = re.compile(r"-?[0-9]{1,16}")


def _value(text: str) -> Any:
    """A form field's value: a whole number when it is one (ASCII digits, at most 16
    of them), else the text (which the settings then accept or refuse with words)."""
    text = text.strip()
    return int(text) if _INTEGER.fullmatch(text) else text


async def home(request: Request) -> Response:
    """Compose a house."""
    variants = _registry_variants()
    if request.method in ("GET", "HEAD"):
        spec = request.query_params.get("house", "")
        try:
            house = _house(spec) if spec else None
        except FormError as e:
            return _page(
                request, "home.html", 400, variants=variants, table=_table_fields(), error=str(e)
            )
        if house is not None:
            _prefill(house, variants)
        return _page(
            request,
            "home.html",
            variants=variants,
            table=_table_fields(house),
            house=house.spec if house else "",
        )
    names = [f"use:{v['name']}" for v in variants]
    keys = [f"{v['name']}.{f['key']}" for v in variants for f in v["fields"]]
    table_keys = [f"table.{f['key']}" for f in _table_fields()]
    try:
        got = await _form(request, (*names, *keys, *table_keys))
        use = ["standard"] + [
            v["name"] for v in variants if got[f"use:{v['name']}"] and v["name"] != "standard"
        ]
        data: dict[str, Any] = {"table": {}, "variants": {"use": use}}
        for key in table_keys:
            if got[key].strip():
                data["table"][key.split(".", 1)[1]] = _value(got[key])
        for v in variants:
            if v["name"] not in use:
                continue
            given = {
                f["key"]: _value(got[f"{v['name']}.{f['key']}"])
                for f in v["fields"]
                if got[f"{v['name']}.{f['key']}"].strip()
            }
            if given:
                data["variants"][v["name"]] = given
        house = House(house_from_data(data, "the form"), source="the form")
    except (FormError, HouseError, PluginError) as e:
        return _page(
            request, "home.html", 400, variants=variants, table=_table_fields(), error=str(e)
        )
    return RedirectResponse(f"/rules?house={quote(house.spec, safe='')}", status_code=303)


def _house(spec: str) -> House:
    if not spec or len(spec) > 1000:
        raise FormError("the house is missing or too long")
    try:
        return House(spec)
    except (HouseError, PluginError) as e:
        raise FormError(str(e)) from None


def _header_house(request: Request) -> str:
    """The house the page was reached with, kept for the links of its header."""
    spec = request.query_params.get("house", "")
    try:
        return _house(spec).spec if spec else ""
    except FormError:
        return ""


async def rules(request: Request) -> Response:
    """A house's rules, with their ids."""
    try:
        house = _house(request.query_params.get("house", "standard"))
    except FormError as e:
        return _page(request, "message.html", 400, error=str(e))
    sections: list[tuple[str, list[tuple[str, str, str]]]] = []
    for hook, variant, (rid, text) in house.rule_texts():
        title = SECTIONS.get(hook, hook)
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append((rid, text, "" if variant == "standard" else variant))
    return _page(request, "rules.html", house=house.spec, sections=sections)


SETTING_UP = "Now the upcard (upcard 7S), or the whole deck (deck AS KH …)."


def _ruling_of(house: House, script_text: str) -> tuple[Refereed | None, str | None]:
    """Referee the house's hand so far; the error message if it cannot be.  A hand
    whose deck or upcard is not given yet is being set up: no ruling, no error."""
    text = f"house {house.spec}\n{script_text}"
    try:
        script = parse_script(text, "the hand", line_offset=-1)  # the lines typed
        last = script["hands"][-1]
        if last.get("deck") is None and last.get("upcard") is None:
            if last.get("decisions") or last.get("plays") or last.get("dealt"):
                return None, f"the hand: give the upcard first. {SETTING_UP}"
            return None, None
        done = referee(script, place="the hand")
    except (NotationError, ScriptError) as e:
        return None, str(e)
    return done, None


def _refusal(done: Refereed, line: str) -> str | None:
    """Why the card of a ``play SEAT CARD`` line may not be played now, in the words
    of the house's rule components; ``None`` if it may (or the line is no play)."""
    words = line.split()
    if len(words) != 3 or words[0].lower() != "play" or "/" in words[2]:
        return None
    last = done.record.hands[-1]
    if not isinstance(last, PartialHandRecord) or done.state.phase_name != "play":
        return None
    try:
        card = parse_card(words[2])
    except CardError as e:
        return str(e)
    if seat_number(words[1]) != done.state.current_player():
        return f"seat {done.state.current_player()} is to play now, not seat {words[1]} (R-LEAD)"
    refused = done.state.why_not(CARDS[card])
    if refused is None:
        return None
    return f"{card_symbol(card)} is not allowed ({refused.rule}): {refused.reason}"


def _ruled(done: Refereed, last_only: bool) -> dict[str, Any]:
    """The ruling a page shows (:func:`bourre.referee.ruling.ruling_of`): every hand,
    or (a hand being refereed) the last; the texts of the rules it cites, once; the
    settlement once the session is over."""
    r = ruling_of(done)
    hands = r.hands[-1:] if last_only else r.hands
    whole = len(done.record.hands) >= done.house.table.hands
    end = r.end if not last_only or whole else ()
    ids = [rid for h in hands for rid in h.rules] + (["R-SETTLE"] if end else [])
    return {"hands": hands, "texts": r.texts_of(ids), "end": end}


def _named(ruled: dict[str, Any], names: Names) -> dict[str, Any]:
    """The ruling with each seat named as the tap page names them (``Ana (seat 1)``)."""
    hands = [
        h.model_copy(
            update={
                "opening": names.text(h.opening),
                "summary": tuple(names.text(x) for x in h.summary),
                "seats": tuple(names.text(x) for x in h.seats),
            }
        )
        for h in ruled["hands"]
    ]
    return {**ruled, "hands": hands, "end": tuple(names.text(x) for x in ruled["end"])}


async def hand(request: Request) -> Response:
    """Referee a hand as it is played, one entry at a time."""
    spec = request.query_params.get("house", "standard")
    script_text, line, error, refusal = "", "", None, None
    try:
        house = _house(spec)
        if request.method == "POST":
            got = await _form(request, ("script", "line"))
            script_text, line = got["script"].strip(), got["line"].strip()
    except FormError as e:
        return _page(request, "message.html", 400, error=str(e))
    done, error = _ruling_of(house, script_text) if script_text else (None, None)
    if line:
        candidate = f"{script_text}\n{line}".strip()
        if done is not None:
            refusal = _refusal(done, line)
        if refusal is None:
            new, problem = _ruling_of(house, candidate)
            if problem is None:
                script_text, done, error = candidate, new, None
            else:
                error = problem
    nxt = None
    ruled: dict[str, Any] | None = None
    over = False
    setting_up = bool(script_text) and done is None and error is None
    if done is not None:
        last = done.record.hands[-1]
        if isinstance(last, PartialHandRecord):
            nxt = last.next
        else:
            over = True
        ruled = _ruled(done, last_only=True)
    status = 200 if error is None and refusal is None else 400
    return _page(
        request,
        "hand.html",
        status,
        house=house.spec,
        script=script_text,
        error=error,
        refusal=refusal,
        next=nxt,
        ruled=ruled,
        over=over,
        setting_up=SETTING_UP if setting_up else None,
    )


async def tap_page(request: Request) -> Response:
    """Referee a hand by tapping: every step a choice on the screen
    (:mod:`bourre.web.tap`; named apart from that module, which shadows a package
    attribute of its name once imported)."""
    spec = request.query_params.get("house", "standard")
    got = {"script": "", "pending": "", "tap": ""}
    error = None
    try:
        house = _house(spec)
        if request.method == "POST":
            got = await _form(request, ("script", "pending", "tap", *_name_fields(house)))
            if got["tap"] == "open":  # a saved session: its house, its hands, its names
                opened = Opened.read((await _form(request, ("session",)))["session"], spec)
                house = _house(opened.spec)
                got = {"script": opened.script, "pending": "", "tap": ""}
                got |= {
                    f"name{s}": x for s, x in enumerate(opened.names(house.table.players).names)
                }
    except (FormError, TapError) as e:
        return _page(request, "message.html", 400, error=str(e))
    try:
        names = Names.read(got, house.table.players)
    except TapError as e:  # a name too long: the seats unnamed, the hand kept
        error, names = str(e), Names(("",) * house.table.players)
    if got["tap"] == "names":  # the names saved: the hand as it was
        got["tap"] = ""
    try:
        flow = TapFlow(house, got["script"], got["pending"])
    except TapError as e:  # a forged form: without the step under way, else anew
        error = error or str(e)
        try:
            flow = TapFlow(house, got["script"], "")
        except TapError:
            flow = TapFlow(house, "", "")
    if error is None and got["tap"]:
        try:
            flow.tap(got["tap"])
        except TapError as e:
            error = str(e)
    try:
        step, where = flow.step(), flow.status()
    except TapError as e:  # a step the form's state cannot show: without it, or anew
        error, flow.pending = str(e), None
        try:
            step, where = flow.step(), flow.status()
        except TapError:
            flow = TapFlow(house, "", "")
            step, where = flow.step(), flow.status()
    # the ruling only once the hand is over and the table has said whether each card
    # the rules forbade stood (the Found step asks first, R-RENEGE)
    ruled = _ruled(flow.done, last_only=True) if step.over and flow.done is not None else None
    return _page(
        request,
        "tap.html",
        200 if error is None and flow.error is None else 400,
        advise_hand=_can_advise(flow),
        house=house.spec,
        script=flow.script,
        pending=flow.pending.text() if flow.pending else "",
        step=names.step(step),
        where=[names.text(x) for x in where],
        error=error or flow.error,
        ruled=_named(ruled, names) if ruled is not None else None,
        names=names.names,
        ledger=(
            ledger(
                so_far(house, flow.script, flow.done),
                house,
                names,
                ruled=flow.phase is not Phase.FOUND,
                settle=flow.phase is Phase.OVER,
            )
            if flow.error is None
            else None
        ),
        notation=export(house, flow.script, names),
        fresh=request.method != "POST",
    )


def _can_advise(flow: TapFlow) -> bool:
    """Whether the tap page offers "What should I play?": a card is to be played, no
    step is under way, and the seat to play has shown its cards."""
    done = flow.done
    if flow.phase is not Phase.PLAY or flow.pending is not None or done is None:
        return False
    state = done.state
    return state.phase_name == "play" and state.current_player() not in flow.guessed


def _name_fields(house: House) -> tuple[str, ...]:
    return tuple(f"name{s}" for s in range(house.table.players))


async def tap_export(request: Request) -> Response:
    """The tapped session in the hand notation, as a file (``session.hand``): the
    players' names as comment lines; ``bourre replay`` referees it to the same money
    (R-SESSION, R-SETTLE)."""
    spec = request.query_params.get("house", "standard")
    try:
        house = _house(spec)
        got = await _form(request, ("script", *_name_fields(house)))
        names = Names.read(got, house.table.players)
        flow = TapFlow(house, got["script"], "")
    except (FormError, TapError) as e:
        return _page(request, "message.html", 400, error=str(e))
    return PlainTextResponse(
        export(house, flow.script, names),
        headers={"content-disposition": 'attachment; filename="session.hand"'},
    )


_SESSION_JS = (Path(__file__).parent / "static" / "tap-session.js").read_bytes()


async def tap_session_js(request: Request) -> Response:
    """The tap page's one script: it keeps the session in the browser's storage and
    brings it back after a reload (see :mod:`bourre.web.tap.session`)."""
    return Response(_SESSION_JS, media_type="text/javascript; charset=utf-8")


async def paste(request: Request) -> Response:
    """Paste a script (JSON or hand notation) for a ruling in words."""
    if request.method in ("GET", "HEAD"):
        return _page(request, "paste.html", script="", house=_header_house(request))
    got = {"script": ""}
    try:
        got = await _form(request, ("script",))
        done = referee(parse_text(got["script"], "the script"), place="the script")
    except (FormError, ScriptError) as e:
        return _page(
            request,
            "paste.html",
            400,
            error=str(e),
            script=got["script"],
            house=_header_house(request),
        )
    return _page(
        request,
        "paste.html",
        script=got["script"],
        ruled=_ruled(done, last_only=False),
        house=_header_house(request),
    )


ADVISE_FIELDS = (*ADVICE_FIELDS, "tap")
MAX_WEB_HANDS = 5000
"""The most simulated deals one page asks for (a few seconds of work)."""
_NUMBER = re.compile(r"[0-9]{1,12}(\.[0-9]{1,6})?")


def _whole(got: dict[str, str], name: str, default: int | None, signed: bool = False) -> int | None:
    text = got[name].strip()
    if not text:
        return default
    digits = text[1:] if signed and text.startswith("-") else text
    if not _DIGITS.fullmatch(digits):
        raise FormError(f"{name}: {text!r} is not a whole number")
    return int(text)


def _advice_of(got: dict[str, str]) -> tuple[Advice, str | None]:
    """The advice for a filled form (``bourre advise``'s defaults for what it leaves
    empty; the default deals, at most what one page plays for the house, said in the
    note that comes with it); :class:`FormError` for bad input."""
    house = _house(got["house"].strip() or "standard")
    place = _whole(got, "place", None)
    if place is None:
        raise FormError("place: tap your place from the dealer (1 = the dealer's left)")
    given = _whole(got, "hands", None)
    hands = ADVICE_HANDS if given is None else given
    default = given in (None, ADVICE_HANDS)  # (the form carries the default, untouched)
    if not 1 <= hands <= MAX_WEB_HANDS:
        raise FormError(f"hands: from 1 to {MAX_WEB_HANDS:,} simulated deals here, not {hands:,}")
    pot_text = got["pot"].strip()
    if pot_text and not _NUMBER.fullmatch(pot_text):
        raise FormError(f"pot: {pot_text!r} is not an amount (R-ANTE)")
    pot = None if not pot_text else (float(pot_text) if "." in pot_text else int(pot_text))
    if not got["upcard"].strip():
        raise FormError("upcard: tap the dealer's upcard first (R-DEAL)")
    players = _whole(got, "players", None)
    seats = house.table.players if players is None else players
    note = None
    if default and hands > (most := most_deals(seats, house)):
        hands = max(1, most)  # (the default: as many as a page plays, said)
        note = (
            f"From {hands:,} simulated deals, the most one page plays for this house"
            f" ({seats} seats dealt in, played on the Python rules); `bourre advise` plays"
            f" {ADVICE_HANDS:,} by default."
        )
    try:
        check_work("hands", hands, seats, house, "seats dealt in")
    except OverBudget as e:
        raise FormError(str(e)) from None
    try:
        return advise(
            house,
            got["hand"].replace(",", " ").split(),
            got["upcard"].strip(),
            place,
            players=players,
            pot=pot,
            decisions=[d for d in got["decided"].replace(" ", ",").split(",") if d],
            hands=hands,
            seed=_whole(got, "seed", 0, signed=True) or 0,
        ), note
    except AdviceError as e:
        raise FormError(f"{e.field}: {e}") from None
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        raise FormError(str(e)) from None


def _busy(request: Request) -> Response:
    """The answer when every seat of the workshop is taken: 503, come back soon."""
    page = _page(
        request, "message.html", 503, title="Busy, try again in a moment", error=BUSY_WORDS
    )
    page.headers["Retry-After"] = str(RETRY_SECONDS)
    return page


async def _worked(request: Request, fn: Any, got: dict[str, str]) -> Any:
    """``fn(got)`` in a worker thread, on a seat of the app's workshop; ``None`` when
    every seat is taken (the caller answers busy)."""
    workshop: Workshop = request.app.state.workshop
    if not workshop.enter():
        return None
    try:
        return await run_in_threadpool(fn, got)
    finally:
        workshop.leave()


async def advise_page(request: Request) -> Response:
    """Should I play this hand? The question tapped on the tap page's card picker
    (:mod:`bourre.web.advising`), then the verdict first (PLAY, PASS, CLOSE, with the
    chips at stake) and the figures under it, as ``bourre advise`` gives them."""
    spec = _header_house(request)
    got = {"house": spec or "standard"}
    if request.method == "POST":
        try:
            got = await _form(request, ADVISE_FIELDS)
        except FormError as e:
            return _page(request, "message.html", 400, error=str(e))
    form = AdviceForm.read(got)
    error: str | None = None
    done: Advice | None = None
    note: str | None = None
    tap = got.get("tap", "")
    try:
        if tap:
            form.tap(tap)
        if tap == "ask" or (request.method == "POST" and not tap):  # (a typed form: asked)
            worked = await _worked(request, _advice_of, form.fields)
            if worked is None:
                return _busy(request)
            done, note = worked
    except (PickError, FormError) as e:
        error = str(e)
    return _page(
        request,
        "advise.html",
        400 if error else 200,
        form=form.fields,
        picking=form,
        house=spec,
        error=error,
        advice=done,
        note=note,
        max_hands=f"{MAX_WEB_HANDS:,}",
    )


REVIEW_FIELDS = ("script", "house", "deals", "seed")
MAX_WEB_DEALS = 100
"""The most deals one review page imagines for each card played."""
WEB_DEALS = 20
"""The deals a review page imagines for each card, by default."""
REVIEW_SECONDS = 20.0
"""Once a review page has worked this long, the cards left are not reviewed."""
WEB_MAX_HELD = 12
"""On the Python rules (a house the kernel cannot play), a review page searches only
positions where the playing seats hold at most this many cards."""


def _review_of(got: dict[str, str]) -> tuple[Review, str | None]:
    """The review of the posted hand (the default deals, at most what one page plays
    for the hand, said in the note that comes with it); :class:`FormError` for bad
    input."""
    text = got["script"]
    if not text.strip():
        raise FormError("script: the hand to review is missing")
    spec = got["house"].strip()
    if spec:  # a hand typed or tapped at a house: its lines, without the house
        text = f"house {_house(spec).spec}\n{text}"
    given = _whole(got, "deals", None)
    deals = WEB_DEALS if given is None else given
    if not 0 <= deals <= MAX_WEB_DEALS:
        raise FormError(f"deals: from 0 to {MAX_WEB_DEALS} deals for each card here, not {deals:,}")
    seed = _whole(got, "seed", 0) or 0
    recorder = Recorder()
    try:
        done = referee(parse_text(text, "the hand"), place="the hand", watch=recorder)
    except ScriptError as e:
        raise FormError(str(e)) from None
    cards = len(recorder.moments)
    most = most_deals(cards, done.house, weight=REVIEW_WEIGHT, environment=False)
    note = None
    if given in (None, WEB_DEALS) and deals > most:  # (the default, untouched: said)
        deals = most
        note = (
            f"{most:,} deals imagined for each card, the most one page takes for this hand"
            f" ({cards} cards played, on the Python rules); `bourre replay --review` takes"
            " more."
        )
    try:
        check_work(
            "deals",
            deals,
            cards,
            done.house,
            "cards played",
            weight=REVIEW_WEIGHT,
            environment=False,  # the review plays the kernel wherever it can
        )
    except OverBudget as e:
        raise FormError(str(e)) from None
    try:
        return review(
            recorder.moments,
            house=done.house.spec,
            deals=deals,
            seed=seed,
            seconds=REVIEW_SECONDS,
            max_held=WEB_MAX_HELD,
        ), note
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        raise FormError(str(e)) from None


def _review_items(done: Review) -> list[dict[str, Any]]:
    """Each card played as an item of the page: who played what, then its lines, the
    plays that cost something marked."""
    return [
        {
            "head": words[0],
            "lines": [(w.strip(), "cost" if w.strip().startswith("✗") else "") for w in words[1:]],
            "marked": bool(p.marks()),
        }
        for p, words in zip(done.plays, done.play_words(), strict=True)
    ]


async def review_page(request: Request) -> Response:
    """A review of the play of a refereed hand (the ruling pages post their hand here)."""
    got = dict.fromkeys(REVIEW_FIELDS, "")
    got.update(deals=str(WEB_DEALS), seed="0")
    spec = _header_house(request)
    if request.method in ("GET", "HEAD"):
        return _page(request, "review.html", form=got, house=spec, max_deals=MAX_WEB_DEALS)
    try:
        got = await _form(request, REVIEW_FIELDS)
        worked = await _worked(request, _review_of, got)
        if worked is None:
            return _busy(request)
        done, note = worked
    except FormError as e:
        return _page(
            request,
            "review.html",
            400,
            form=got,
            house=spec,
            error=str(e),
            max_deals=MAX_WEB_DEALS,
        )
    words = done.words()
    return _page(
        request,
        "review.html",
        form=got,
        house=spec,
        intro=words[:2],
        note=note,
        items=_review_items(done),
        summary=done.summary(),
        max_deals=MAX_WEB_DEALS,
    )


async def chart_page(request: Request) -> Response:
    """The strategy chart of the house (:mod:`bourre.web.charts`: a house the kernel
    plays, kept once drawn), its cells reflowed on a phone: a card a kind of hand."""
    spec = _header_house(request)
    try:
        house = _house(request.query_params.get("house", "standard") or "standard")
        got = await run_in_threadpool(web_chart, house)
    except (FormError, ChartRefused) as e:
        return _page(request, "chart.html", 400, error=str(e), house=spec)
    return _page(request, "chart.html", **{**chart_context(got), "house": spec})


IN_HAND_FIELDS = ("script", "house", "deals", "seed")
WEB_HAND_DEALS = 200
"""The deals the advice during a hand imagines, by default (as ``bourre advise --script``)."""
MAX_WEB_HAND_DEALS = 500
"""The most deals one request imagines: each is one exact solve (about 1–2 ms on the
kernel from the first lead of five players)."""
IN_HAND_SECONDS = 10.0
"""Once a request has worked this long, no more deals are drawn (the answer says how
many were)."""


def _cards_played(done: Refereed) -> int:
    """The cards the script played, every hand counted: where the review's deals for
    the next card are drawn from."""
    return sum(len(t.plays) for h in done.record.hands for t in h.tricks)


def _in_hand_of(got: dict[str, str]) -> HandAdvice:
    """The advice for the seat to play at the end of the posted hand; :class:`FormError`
    for bad input or no card to play.  With ``house``, the hand's lines are read as the
    tap page reads them: a seat that has not shown its cards has stand-ins, so only the
    values on what the player knows are given."""
    text = got["script"]
    if not text.strip():
        raise FormError("script: the hand is missing (its lines up to the card to play)")
    deals = _whole(got, "deals", WEB_HAND_DEALS)
    assert deals is not None
    if not 0 <= deals <= MAX_WEB_HAND_DEALS:
        raise FormError(f"deals: from 0 to {MAX_WEB_HAND_DEALS} deals here, not {deals:,}")
    seed = _whole(got, "seed", 0) or 0
    spec = got["house"].strip()
    stand_ins: frozenset[int] = frozenset()
    if spec:  # a hand tapped or typed at a house: its lines, without the house
        try:
            flow = TapFlow(_house(spec), text, "")
        except TapError as e:
            raise FormError(str(e)) from None
        if flow.done is None or flow.error is not None:
            raise FormError(flow.error or "the hand: no card is to be played yet (R-LEAD)")
        done, stand_ins = flow.done, flow.guessed
    else:
        try:
            done = referee(parse_text(text, "the hand"), place="the hand")
        except ScriptError as e:
            raise FormError(str(e)) from None
    state = done.state
    if not state.is_terminal() and state.phase_name == "play":
        seat = state.current_player()
        if seat in stand_ins:
            raise FormError(
                f"seat {seat} is to play but has not shown its cards: the advice weighs the"
                " cards it holds (on the tap page, a seat shows the cards it was dealt when it"
                " decides to play, R-DEAL)"
            )
    try:
        return advise_in_hand(
            state,
            index=_cards_played(done),
            house=done.house.spec,
            deals=deals,
            seed=seed,
            seconds=IN_HAND_SECONDS,
            max_held=WEB_MAX_HELD,
            hands_known=not stand_ins,
        )
    except InHandError as e:
        raise FormError(str(e)) from None
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        raise FormError(str(e)) from None


async def in_hand_page(request: Request) -> Response:
    """During a hand: which card should the seat to play play? (The tap page's "What
    should I play?" posts its hand here.)"""
    got = dict.fromkeys(IN_HAND_FIELDS, "")
    got.update(deals=str(WEB_HAND_DEALS), seed="0")
    spec = _header_house(request)
    context: dict[str, Any] = {"house": spec, "max_deals": MAX_WEB_HAND_DEALS}
    if request.method in ("GET", "HEAD"):
        return _page(request, "advise_hand.html", form=got, **context)
    try:
        got = await _form(request, IN_HAND_FIELDS)
        done = await _worked(request, _in_hand_of, got)
        if done is None:
            return _busy(request)
    except FormError as e:
        return _page(request, "advise_hand.html", 400, form=got, error=str(e), **context)
    words = done.words()
    first = next((i for i, x in enumerate(words) if x.startswith("  ")), len(words))
    return _page(
        request,
        "advise_hand.html",
        form=got,
        advice=done,
        head=words[:first],
        rows=done.rows() if len(done.cards) > 1 else [],
        foot=[x for x in words[first:] if not x.startswith("  ")],
        **context,
    )


async def in_hand_api(request: Request) -> Response:
    """``POST /api/advise/hand``: the advice during a hand as JSON.  The body: a JSON
    object with ``script`` (the hand: JSON or the hand notation) and optional ``house``
    (the hand's lines read as the tap page reads them), ``deals`` and ``seed``; the
    answer: :meth:`~bourre.advice.inhand.HandAdvice.as_dict`, or ``{"error": ...}``
    with status 400."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return JSONResponse(
            {"error": f"the body is too large (at most {MAX_BODY // 1024} kB)"}, 413
        )
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "the body: a JSON object expected"}, 400)
    if not isinstance(body, dict):
        return JSONResponse({"error": "the body: a JSON object expected"}, 400)
    got: dict[str, str] = {}
    for name in IN_HAND_FIELDS:
        value = body.get(name, "")
        if isinstance(value, int) and not isinstance(value, bool) and name in ("deals", "seed"):
            value = str(value)
        if not isinstance(value, str) or len(value) > MAX_FIELD:
            return JSONResponse(
                {"error": f"{name}: text expected (at most {MAX_FIELD // 1024} kB)"}, 400
            )
        got[name] = value
    unknown = sorted(set(body) - set(IN_HAND_FIELDS))
    if unknown:
        return JSONResponse(
            {"error": f"{unknown[0]}: not a field (script, house, deals, seed)"}, 400
        )
    try:
        done = await _worked(request, _in_hand_of, got)
    except FormError as e:
        return JSONResponse({"error": str(e)}, 400)
    if done is None:
        return JSONResponse({"error": BUSY_WORDS}, 503, headers={"Retry-After": str(RETRY_SECONDS)})
    return JSONResponse(done.as_dict())


async def health(request: Request) -> Response:
    return PlainTextResponse("ok")


def create_app(hosts: Iterable[str] = (), body_seconds: float = BODY_SECONDS) -> Guard:
    """The referee web app, behind its :class:`~bourre.web.guard.Guard`; ``hosts``:
    names it is reached under besides ``localhost``, ``127.0.0.1`` and ``[::1]``;
    ``body_seconds``: the time a client has to send a request's body."""
    app = Starlette(
        routes=[
            Route("/", home, methods=["GET", "POST"]),
            Route("/rules", rules),
            Route("/hand", hand, methods=["GET", "POST"]),
            Route("/tap", tap_page, methods=["GET", "POST"]),
            Route("/tap/export", tap_export, methods=["POST"]),
            Route("/tap/session.js", tap_session_js),
            Route("/paste", paste, methods=["GET", "POST"]),
            Route("/advise", advise_page, methods=["GET", "POST"]),
            Route("/review", review_page, methods=["GET", "POST"]),
            Route("/chart", chart_page),
            Route("/advise/hand", in_hand_page, methods=["GET", "POST"]),
            Route("/api/advise/hand", in_hand_api, methods=["POST"]),
            Route("/health", health),
        ]
    )
    app.state.workshop = Workshop()  # the simulating pages' seats (bourre.web.work)
    return Guard(app, hosts, max_body=MAX_BODY, body_seconds=body_seconds)
