"""The ``isolated bot`` check: the bot answers through the isolated protocol
(:class:`bourre.game.isolate.IsolatedBot`), from its own process."""

from __future__ import annotations

from typing import Any

from bourre.game.isolate import IsolatedBot
from bourre.game.state import State
from bourre.houses.house import House
from bourre.testing.report import Failure, Report


def isolated(bot: str, options: dict[str, Any], report: Report, seed: str) -> None:
    """One hand at three seats, the bot answering from its own process."""
    house = House("standard+table(players=3,hands=1)")
    st = State(house, seed=f"{seed}:isolated", hands=1)
    bots = [IsolatedBot(bot, options, house=house.spec, timeout=30.0) for _ in range(st.n)]
    try:
        while not st.is_terminal():
            seat = st.current_player()
            try:
                action = bots[seat].act(st.observation(seat))
            except Exception as e:
                report.fail(
                    Failure(
                        "isolated bot",
                        house.spec,
                        f"the isolated bot fails: {e}",
                        hand=1,
                        seat=seat,
                    )
                )
                return
            if action not in st.legal_actions():
                report.fail(
                    Failure(
                        "isolated bot",
                        house.spec,
                        f"the isolated bot answers {action}, not legal",
                        hand=1,
                        seat=seat,
                    )
                )
                return
            st.apply_action(action)
    finally:
        for b in bots:
            b.close()
