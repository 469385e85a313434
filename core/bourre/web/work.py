"""The pages that simulate (``/advise``, ``/review``): what one request may cost, and
how many run at once.

- **A budget per request.** A page's work is counted as deals × seats × weights:
  the deals it simulates (advice) or imagines for each card (review), times the seats
  dealt in (advice) or the cards played (review), times the page's weight
  (:data:`REVIEW_WEIGHT` for a review, whose deals are searched to the end), times
  :data:`PYTHON_FACTOR` for a house the compiled kernel does not play (a third-party
  variant: the Python rules).  Beyond :data:`WEB_WORK` the page answers "try fewer
  deals", naming the most it takes for that house, before any deal is played.  At the
  budget a page works about a second of one core (measured, 2 cores under a load of
  7: advice at 8 seats, 5,000 deals on the kernel 0.8 s, 100 on the Python rules
  0.34 s; a review of 15 cards, 100 deals on the kernel 0.24 s, 20 on the Python rules
  1.1 s).
- **A few at once.** At most :data:`WEB_WORKERS` such pages work at the same time
  (a :class:`Workshop`, shared by the app's simulating routes); one more is answered
  at once with 503, a "busy, try again in a moment" page and ``Retry-After``, never
  queued: the other pages and ``/health`` stay quick.
"""

from __future__ import annotations

import threading

from bourre.game.engines import choose
from bourre.houses.house import House
from bourre.kernel import can_play
from bourre.kernel.hooks import MONEY_HOOKS

__all__ = [
    "BUSY_WORDS",
    "PYTHON_FACTOR",
    "RETRY_SECONDS",
    "REVIEW_WEIGHT",
    "WEB_WORK",
    "WEB_WORKERS",
    "OverBudget",
    "Workshop",
    "check_work",
    "most_deals",
    "work_factor",
]

WEB_WORK = 40_000
"""The most work one page does: deals × seats (or cards) × the house's factor."""
PYTHON_FACTOR = 25
"""How much more a deal costs on the Python rules than on the compiled kernel."""
REVIEW_WEIGHT = 8
"""How much more a review's deal of one card costs than an advice's deal of one seat."""
WEB_WORKERS = 2
"""The simulating pages that work at once (the others are answered busy)."""
RETRY_SECONDS = 5
"""The ``Retry-After`` of a busy answer."""
BUSY_WORDS = "The referee is busy working out other questions right now: try again in a moment."


class OverBudget(ValueError):
    """A request that asks for more work than one page does; the message says how many
    deals the page takes for that house ("try fewer deals")."""


class Workshop:
    """The seats at the workbench shared by the simulating pages: :meth:`enter` takes
    one if one is free (never waits), :meth:`leave` gives it back.  A plain thread
    semaphore: the work itself runs in worker threads, the app in any event loop."""

    def __init__(self, seats: int = WEB_WORKERS) -> None:
        self.seats = seats
        self._free = threading.BoundedSemaphore(seats)

    def enter(self) -> bool:
        return self._free.acquire(blocking=False)

    def leave(self) -> None:
        self._free.release()


def work_factor(house: House, *, environment: bool = True) -> int:
    """1 for a house the compiled kernel plays (with the heuristic players the advice
    and the review use; a plugin's penalty or payout asked through Python, as the
    solver, its deals and advice's batches ask it), :data:`PYTHON_FACTOR` for one on
    the Python rules (and, with ``environment``, when ``BOURRE_ENGINE=python`` asks for
    them: the advice obeys it, the review does not)."""
    if environment and choose(None) == "python":
        return PYTHON_FACTOR
    return PYTHON_FACTOR if can_play(house, "heuristic", hooks=MONEY_HOOKS) is not None else 1


def check_work(
    field: str,
    deals: int,
    per_deal: int,
    house: House,
    what: str,
    *,
    weight: int = 1,
    environment: bool = True,
) -> None:
    """Refuse (:class:`OverBudget`) ``deals`` deals of ``per_deal`` seats or cards each
    (``what`` names them: "seats dealt in", "cards played"), each of ``weight``, past
    :data:`WEB_WORK` for ``house`` (``environment``: see :func:`work_factor`)."""
    factor = work_factor(house, environment=environment)
    most = _most(per_deal, weight, factor)
    if deals <= most:
        return
    rules = ", played on the Python rules" if factor > 1 else ""
    raise OverBudget(
        f"{field}: {deals:,} deals is more work than one page does for this house"
        f" ({per_deal} {what}{rules}): try fewer deals, at most {most:,} here;"
        " the command line (`bourre advise`, `bourre replay --review`) takes more"
    )


def most_deals(per_deal: int, house: House, *, weight: int = 1, environment: bool = True) -> int:
    """The most deals of ``per_deal`` seats or cards, each of ``weight``, that one page
    plays for ``house`` (:data:`WEB_WORK`; ``environment``: see :func:`work_factor`)."""
    return _most(per_deal, weight, work_factor(house, environment=environment))


def _most(per_deal: int, weight: int, factor: int) -> int:
    return WEB_WORK // (max(1, per_deal) * weight * factor)
