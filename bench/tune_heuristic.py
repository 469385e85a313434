"""Choose the heuristic bot's thresholds by measurement (issue 12 item 6).

The bot's options (``heuristic(play_threshold=…, per_opponent=…, keep_trump=…)``,
see ``variants/bourre_bots/heuristic.py``) are tried in a tournament on one house:

1. ``grid``: every (play_threshold, per_opponent) of a small grid, as one bot among
   four of the *baseline* (the thresholds before this tuning, spelled out below so
   that a rerun measures the same thing whatever the defaults are now);
2. ``keep``: ``keep_trump`` values, with the best grid point's play thresholds, among
   the baseline;
3. ``robin``: the best few of 1–2 and the baseline in a round robin, every setting
   once as the single bot among four of every other one (self-play against the other
   settings), plus each setting in self-play alone, for its play rate.

The gain of a setting is the chips per hand it wins at that table: its final balance
minus the table's mean, per hand (:func:`bourre.sim.skill.session_gain`), with a
95% interval over sessions; seats rotate (the bot sits at seat ``i % n`` in session
``i``) and every match uses the same decks (seed ``--seed``), so the settings are
compared on the same deals.  The chosen setting is the one with the best worst-case
gain against the other finalists (``--robin-sessions`` sessions per pair); beside it
the script prints the best gain any other finalist makes alone at a table of it.
Results go to stdout (tables) and ``--json``.

Run: ``python bench/tune_heuristic.py [--sessions 2000] [--robin-sessions 4000]
[--seed tune] [--workers 1] [--house standard] [--stages grid,keep,robin]
[--finalists 'BOT;BOT;…'] [--json tune.json]``.  It takes about ten minutes on one
core of the project's machine.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from typing import Any

from report import finish  # bench/report.py, beside this script

from bourre.sim.runs.runner import BotSpec, RunConfig, parse_bots, run
from bourre.sim.skill import session_gain
from bourre.sim.stats.metrics import ci_mean, compute

BASELINE = "heuristic(play_threshold=0.25,per_opponent=0.32,keep_trump=2)"
"""The thresholds before the tuning (the defaults up to issue 12)."""
PLAY = (0.25, 0.5, 0.75, 1.0, 1.25)
PER = (0.32, 0.45, 0.6)
KEEP = (2, 4, 6, 8)
FINALISTS = 4


def spec(play: float, per: float, keep: int) -> str:
    return f"heuristic(play_threshold={play:g},per_opponent={per:g},keep_trump={keep})"


def gain(bot: str, field: str, args: argparse.Namespace, sessions: int = 0) -> dict[str, Any]:
    """``bot`` as the single bot among ``field`` bots: its gain with a 95% interval."""
    a, b = parse_bots(bot)[0], parse_bots(field)[0]
    n = _players(args.house)
    bots: list[BotSpec] = [a] + [b] * (n - 1)
    cfg = RunConfig([args.house], sessions or args.sessions, args.seed, bots, True)
    res = run(cfg, workers=args.workers)
    ss = res.ordered(args.house)
    return ci_mean([session_gain(s, int(s["i"]) % n) for s in ss])


def self_play(bot: str, args: argparse.Namespace) -> dict[str, Any]:
    """Every seat ``bot``: its share of decisions to play and the mean pot."""
    cfg = RunConfig([args.house], args.robin_sessions, args.seed, parse_bots(bot))
    res = run(cfg, workers=args.workers)
    h = compute(res)["houses"][0]
    return {"playing": h["playing"], "pot_mean": h["pot_mean"], "bourre": h["bourre"]}


def _players(house: str) -> int:
    from bourre.houses.house import House

    return House(house).table.players


def show(iv: dict[str, Any]) -> str:
    return f"{iv['mean']:+.3f} [{iv['lo']:+.3f}, {iv['hi']:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sessions", type=int, default=2000)
    p.add_argument("--seed", default="tune")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--house", default="standard")
    p.add_argument("--robin-sessions", type=int, default=4000)
    p.add_argument("--stages", default="grid,keep,robin")
    p.add_argument("--finalists", default=None, help="';'-separated bots (robin only)")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    stages = set(args.stages.split(","))
    out: dict[str, Any] = {
        "house": args.house,
        "sessions": args.sessions,
        "seed": args.seed,
        "baseline": BASELINE,
    }
    t0 = time.perf_counter()
    ranked: list[tuple[float, str]] = []

    def report(stage: str, bot: str, iv: dict[str, Any]) -> None:
        out.setdefault(stage, {})[bot] = iv
        ranked.append((iv["lo"], bot))
        print(f"{stage:5} {bot:62} {show(iv)}", flush=True)

    best_play, best_per = 0.25, 0.32
    if "grid" in stages:
        for play, per in itertools.product(PLAY, PER):
            bot = spec(play, per, 2)
            if bot != BASELINE:
                report("grid", bot, gain(bot, BASELINE, args))
        _, top = max(ranked)
        o = dict(parse_bots(top)[0].options)
        best_play, best_per = float(o["play_threshold"]), float(o["per_opponent"])
    if "keep" in stages:
        for keep in KEEP[1:]:
            bot = spec(best_play, best_per, keep)
            report("keep", bot, gain(bot, BASELINE, args))
    if "robin" in stages:
        if args.finalists:
            finalists = [*args.finalists.split(";"), BASELINE]
        else:
            finalists = [b for _, b in sorted(ranked, reverse=True)[:FINALISTS]] + [BASELINE]
        out["finalists"] = finalists
        matrix: dict[str, dict[str, Any]] = {}
        for a, b in itertools.permutations(finalists, 2):
            iv = gain(a, b, args, args.robin_sessions)
            matrix.setdefault(a, {})[b] = iv
            print(f"robin {a:62} among {b}: {show(iv)}", flush=True)
        out["robin"] = matrix
        out["self_play"] = {b: self_play(b, args) for b in finalists}
        worst = {a: min(v["mean"] for v in row.values()) for a, row in matrix.items()}
        exposed = {b: max(matrix[a][b]["mean"] for a in finalists if a != b) for b in finalists}
        out["worst_gain"], out["best_intruder_gain"] = worst, exposed
        out["chosen"] = max(worst, key=lambda a: worst[a])
        print("\nper finalist: its worst gain against the others (alone among them), the best")
        print("gain of another one alone among it (chips per hand), its play rate in self-play:")
        for a in finalists:
            sp = out["self_play"][a]["playing"]["mean"]
            print(f"  {a:62} {worst[a]:+.3f} {exposed[a]:+.3f}   plays {100 * sp:.1f}%")
        print(f"chosen: {out['chosen']}")
    return finish(out, t0, args.json)


if __name__ == "__main__":
    sys.exit(main())
