"""The referee's commands: hands played at a real table refereed (``bourre replay``),
one question answered (``bourre check``), a table script converted between JSON and
the hand notation (``bourre convert``), and the referee in a browser (``bourre serve``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from bourre.cli.commands.options import unwritable
from bourre.cli.util import fail, load_house, whole_number
from bourre.houses.textfile import read_text
from bourre.rules import RuleViolation
from bourre.rules.cards import CardError, card_symbol, parse_card, parse_suit, shown
from bourre.rules.hookspec import PluginError
from bourre.rules.person import of_seat

__all__ = ["check", "convert", "register_commands", "replay", "serve"]


def replay(
    script: Annotated[
        Path,
        typer.Argument(
            help="A table script: JSON or the hand notation, see docs/table-scripts.md;"
            " '-' reads stdin."
        ),
    ],
    indent: Annotated[
        int | None,
        typer.Option(parser=whole_number("--indent"), help="Indent the JSON output (0 to 16)."),
    ] = None,
    words: Annotated[
        bool | None,
        typer.Option(
            "--words/--json",
            help="A ruling in plain words, or the hand records as JSON (default: words on a"
            " terminal, JSON otherwise).",
            show_default=False,
        ),
    ] = None,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="After the ruling, a review of every card played: what each card allowed was"
            " worth with every hand known and on what the player knew, and the plays that"
            " cost chips or a sure trick (docs/advice.md).",
        ),
    ] = False,
    review_json: Annotated[
        Path | None,
        typer.Option(
            help="Write the review as JSON to this file (standard output is unchanged).",
            show_default=False,
        ),
    ] = None,
    deals: Annotated[
        int,
        typer.Option(
            parser=whole_number("--deals"),
            help="For the review: deals imagined for each card played, agreeing with what"
            " the player had seen (0: every hand known only).",
        ),
    ] = 30,
    seed: Annotated[
        int,
        typer.Option(
            parser=whole_number("--seed"), help="For the review: the same seed, the same deals."
        ),
    ] = 0,
) -> None:
    """Referee hands played at a real table: who takes the pot and why, who pays what."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.referee import ScriptError, parse_text, referee, referee_file

    if indent is not None and indent > 16:
        fail(f"--indent must be from 0 to 16, not {indent:,}")
    reviewing = review or review_json is not None
    if review and words is False:
        fail(
            "--review prints words: the hand records on standard output stay as replay writes"
            " them; give --review-json FILE for the review as JSON"
        )
    recorder = None
    if reviewing:
        # lazy: the solvers and the sampled deals, loaded for a review only
        from bourre.advice.review import MAX_DEALS, Recorder

        if deals > MAX_DEALS:
            fail(f"--deals: from 0 to {MAX_DEALS:,} deals for each card played, not {deals:,}")
        if review_json is not None and (str(review_json) == "-" or review_json.is_dir()):
            fail(
                f"--review-json: {str(review_json)!r} is not a file to write (standard output"
                " holds the records)"
            )
        if review_json is not None:  # (said now, not after a review that can take minutes)
            why = unwritable(review_json)
            if why:
                fail(f"--review-json: cannot write {str(review_json)!r}: {why}")
        recorder = Recorder()
    try:
        if str(script) == "-":
            try:
                text = sys.stdin.read()
            except UnicodeDecodeError as e:
                raise ScriptError(f"<stdin>: not UTF-8 text: {e}") from None
            done = referee(parse_text(text, "<stdin>"), place="<stdin>", watch=recorder)
        else:
            done = referee_file(script, watch=recorder)
    except ScriptError as e:
        fail(str(e))
    said: list[str] | None = None
    if recorder is not None:
        said = _review(done.house.spec, recorder, deals, seed, review_json, review)
    if review or (words if words is not None else sys.stdout.isatty()):
        from bourre.referee.ruling import ruling

        lines = ruling(done) + (["", *said] if said else [])
        sys.stdout.write("\n".join(lines) + "\n")
        return
    data = done.record.model_dump(mode="json")
    sys.stdout.write(json.dumps(data, indent=indent, ensure_ascii=False) + "\n")


def _review(
    house: str, recorder: Any, deals: int, seed: int, to: Path | None, words: bool
) -> list[str]:
    """Review the cards the recorder kept; write the JSON form to ``to``; the words."""
    # lazy: the solvers and the sampled deals, loaded for a review only
    from bourre.advice.kernel_solver import why_not_house
    from bourre.advice.review import review

    # (the solver asks a plugin's rules through Python: the kernel's, issue 41)
    why = why_not_house(recorder.moments[0].state.house) if recorder.moments else None
    if why is not None:
        sys.stderr.write(
            f"bourre: the kernel cannot solve this house ({why}): the review searches on the"
            " Python rules, card by card, which at a full table can take minutes\n"
        )
    try:
        done = review(recorder.moments, house=house, deals=deals, seed=seed)
    except (PluginError, RuleViolation) as e:  # a third-party rule failing in the search
        fail(f"the review: {e}")
    if to is not None:
        try:
            to.write_text(json.dumps(done.as_dict(), indent=1, ensure_ascii=False) + "\n")
        except OSError as e:
            fail(f"--review-json: cannot write {str(to)!r}: {e.strerror}")
    return done.words() if words else []


def check(
    hand: Annotated[
        str, typer.Option(help="Your cards, e.g. 'AH 5H 8S'.", show_default=False)
    ] = "",
    trick: Annotated[
        str, typer.Option(help="The cards already on the trick, in play order ('' to lead).")
    ] = "",
    trump: Annotated[
        str | None,
        typer.Option(
            help="The trump suit: S, H, D or C (or ♠ ♥ ♦ ♣, spades …).", show_default=False
        ),
    ] = None,
    upcard: Annotated[
        str | None, typer.Option(help="Or the upcard, which names trump.", show_default=False)
    ] = None,
    house: Annotated[
        str | None, typer.Option(help="The house (default standard).", show_default=False)
    ] = None,
    played: Annotated[
        str, typer.Option(help="Cards played in earlier tricks of the hand (for the cinch).")
    ] = "",
    won: Annotated[
        int,
        typer.Option(
            parser=whole_number("--won"), help="Tricks you have won so far (for the cinch)."
        ),
    ] = 0,
    discards: Annotated[str, typer.Option(help="Your own discards (for the cinch).")] = "",
    last: Annotated[bool, typer.Option(help="You play last to this trick (R-CINCH-LAST).")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Answer as JSON.")] = False,
    script: Annotated[
        Path | None,
        typer.Option(
            help="Or a hand (JSON or hand notation) that stops at the question: who acts"
            " next and what they may do.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """One question, one answer: which cards may you play here, and why (rule ids)."""
    if script is not None:
        _check_script(script, json_out)
        return

    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.referee.check import CheckError, check_card

    def cards(option: str, text: str) -> list[int]:
        try:
            return [parse_card(t) for t in text.replace(",", " ").split()]
        except CardError as e:
            fail(f"{option}: {e}")

    if not hand.strip():
        fail("--hand: your cards are required (or --script FILE)")
    h = load_house(house)
    if (trump is None) == (upcard is None):
        fail("give --trump S/H/D/C or --upcard CARD (one of them): it names trump (R-DEAL)")
    if trump is not None:
        try:
            suit = parse_suit(trump)
        except CardError as e:
            fail(f"--trump: {e}")
    else:
        suit = cards("--upcard", upcard or "")[0] // 13 if (upcard or "").strip() else -1
    try:
        ruling = check_card(
            h,
            cards("--hand", hand),
            cards("--trick", trick),
            trump=suit,
            played=cards("--played", played),
            won=won,
            discards=cards("--discards", discards),
            last=last,
        )
    except (CheckError, PluginError) as e:  # a plugin that raises is named, with its hook
        fail(str(e))
    if json_out:
        sys.stdout.write(json.dumps(ruling.as_json(), ensure_ascii=False) + "\n")
        return
    sys.stdout.write("\n".join(ruling.words(h)) + "\n")


def _check_script(path: Path, json_out: bool) -> None:
    """``bourre check --script``: the question a hand that stops part-way asks."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.referee import ScriptError, referee_file
    from bourre.referee.records import PartialHandRecord

    try:
        done = referee_file(path)
    except ScriptError as e:
        fail(str(e))
    last = done.record.hands[-1]
    if not isinstance(last, PartialHandRecord):
        fail(f"{path}: the last hand is complete: there is no question left (use bourre replay)")
    if json_out:
        sys.stdout.write(json.dumps(last.next.model_dump(mode="json")) + "\n")
        return

    texts = {rid: text for _, _, (rid, text) in done.house.rule_texts()}
    state = done.state
    for log in done.table.log().plays:  # the illegal cards already played this hand, and their rule
        if not (log.renege or log.corrected):
            continue
        card = log.played_first if log.played_first is not None else log.card
        then = (
            "it was taken back (R-CORRECTED)" if log.corrected else "it stands: a renege (R-RENEGE)"
        )
        why = f": {of_seat(log.why.words)} ({log.why.rule})" if log.why is not None else ""
        sys.stdout.write(
            f"Seat {log.seat} played {card_symbol(card)}, which was not allowed{why}; {then}.\n"
        )
    nxt = last.next
    sys.stdout.write(f"Seat {nxt.seat} is to act and may: {', '.join(map(shown, nxt.legal))}.\n")
    if state.phase_name == "play":
        for reason in state.legal_with_reasons().reasons:
            sys.stdout.write(f"Why ({reason.rule}): {of_seat(reason.words)}.\n")
    for rid in nxt.rules:
        sys.stdout.write(f"{rid}: {texts.get(rid, '')}\n")


def convert(
    script: Annotated[Path, typer.Argument(help="A table script: JSON or hand notation.")],
    to: Annotated[str, typer.Option(help="'notation' or 'json' (default: the other form).")] = "",
) -> None:
    """Convert a table script between JSON and the hand notation (without loss)."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.referee import ScriptError, check_script, parse_text
    from bourre.referee.notation import format_script, looks_like_notation

    try:
        text = read_text(script, ScriptError)  # read once: parsed, and its form seen
        data = parse_text(text, str(script))
        check_script(data, str(script))  # its form, before it is written the other way
    except ScriptError as e:
        fail(str(e))
    target = to or ("json" if looks_like_notation(text) else "notation")
    if target not in ("json", "notation"):
        fail(f"--to: {to!r}: 'notation' or 'json'")
    if target == "json":
        sys.stdout.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_script(data))


def serve(
    host: Annotated[
        str, typer.Option(help="The address to listen on (this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(parser=whole_number("--port"), help="The port.")] = 8000,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A name the referee is reached under besides localhost, 127.0.0.1, [::1]"
            " and --host (repeat for more); requests naming another host are refused."
        ),
    ] = None,
) -> None:
    """The referee in a browser: compose a house, referee a hand as it is played."""
    try:
        # lazy: the optional 'web' extra (uvicorn, starlette), loaded for serve only
        import uvicorn

        from bourre.web import create_app
    except ImportError as e:
        fail(f"bourre serve needs the web extra: pip install 'bourre[web]' ({e.name} is missing)")
    if not 0 < port < 65536:
        fail(f"--port: {port} is not a port (1 to 65535)")
    names = [*(allow_host or []), *([] if host in ("0.0.0.0", "::", "") else [host])]
    for name in names:
        if not name or len(name) > 253 or any(c in name for c in "/ @?#"):
            fail(f"--allow-host: {name!r} is not a host name")
    sys.stderr.write(f"bourre: the referee is at http://{host}:{port}/ (Ctrl-C stops it)\n")
    uvicorn.run(
        create_app(names),
        host=host,
        port=port,
        log_level="warning",
        server_header=False,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,
    )


def register_commands(cli: typer.Typer) -> None:
    """``bourre replay``, ``check``, ``convert`` and ``serve``."""
    cli.command()(replay)
    cli.command()(check)
    cli.command()(convert)
    cli.command()(serve)
