"""The ``replay`` check: the session's table script, refereed by ``bourre replay``
(:func:`bourre.referee.replay`), gives the same balances."""

from __future__ import annotations

from bourre.game.state import State
from bourre.referee import ScriptError, replay
from bourre.rules.money import amount_json
from bourre.rules.plugins import Registry
from bourre.testing.report import Failure, Report
from bourre.testing.scripts import script


def replayed(st: State, report: Report, spec: str, seed: str, registry: Registry) -> None:
    """``bourre replay`` of the finished session ``st`` ends with its balances."""
    table_script = script(st, current=False)
    if table_script is None or st.final is None:
        return
    try:
        record = replay(table_script, registry=registry)
    except ScriptError as e:
        report.fail(
            Failure(
                "replay",
                spec,
                f"`bourre replay` refuses the session: {e}",
                seed,
                script=table_script,
            )
        )
        return
    want = [amount_json(b) for b in st.final[0]]
    got = [amount_json(b) for b in record.final.balances] if record.final is not None else None
    if got != want:
        report.fail(
            Failure(
                "replay",
                spec,
                f"`bourre replay` of the session ends with balances {got}, the session with {want}",
                seed,
                script=table_script,
            )
        )
