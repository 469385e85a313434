"""How much do common random numbers, and other variance reductions, shrink intervals
(issue 12 item 7)?  The numbers of docs/comparing.md ("How precise").

Parts (``--parts``, all by default):

``crn``
    Houses against ``standard`` with ``heuristic`` bots.  *Common* decks: session
    ``i`` of every house plays seed ``SEED:i`` (what ``bourre compare`` does), and
    the paired difference is taken session by session.  *Independent* decks: the
    other house plays seed ``SEED-indep:i`` instead, and the same formula then gives
    the interval of two independent samples.  Same number of sessions; the ratio of
    the half-widths says how much CRN shrinks the interval, its square how many
    times more sessions independent decks would need.  Also for the ``--skill``
    gain (a heuristic bot among random ones), whose differences between houses are
    paired the same way.
``cv``
    Control variates from the cards dealt (known before anyone plays, hence the same
    in every house): per session, the mean strength of the dealt hands, the mean
    strongest hand, the number of strong and of weak hands, the strength of the
    ``--skill`` bot's own hands against the table's (mean 0 over whole rotations).
    The deck covariates' means come from ``--mu-decks`` sessions of other decks
    (dealt, not played).  The regression estimate ``mean(y − β·(x − mean_x))`` and
    its interval beside the plain one, the ratio of the half-widths and the adjusted
    R²; for the paired differences of ``crn`` and for the skill gain.
``dup``
    Duplicate seating for the skill gain (what ``--skill`` does): every deal played
    ``n`` times, the bot at each seat once (the deal's gain is the mean of its
    seatings), against one seating per deal (seats rotated, a new deal every
    session), for the same number of sessions.  Over ``--replicates`` independent
    replicates: the mean of the estimates (the two must agree), their standard
    deviation (the true precision) and the mean reported half-width.  ``--mc`` adds
    the ``montecarlo`` match of ``--skill`` (``--mc-sessions`` each, at ``--mc-budget``;
    minutes); ``--only-mc`` plays only that match.

Run: ``python bench/variance.py [--sessions 2000] [--skill-sessions 1000]
[--replicates 8] [--mu-decks 20000] [--seed vr] [--workers 1] [--parts crn,cv,dup]
[--mc] [--mc-sessions 250] [--mc-budget 16] [--only-mc] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import math
import statistics as st
import sys
import time
from collections.abc import Sequence
from typing import Any

from report import finish  # bench/report.py, beside this script

from bourre.game.chance import Chance
from bourre.houses.house import House
from bourre.rules.hookspec import DEAL
from bourre.sim import skill
from bourre.sim.runs.runner import BotSpec, RunConfig, parse_bots, run, run_session
from bourre.sim.stats.metrics import RATIOS, SCALARS, ci_mean, paired
from bourre_bots.heuristic import hand_strength

BASE = "standard"
OTHERS = ("double-ante", "pot-limit(limit=10)", "four-card", "no-cinch")
KEYS = ("pot_mean", "playing", "bourre", "carried", "spread", "below", "dealer")
SKILL_OTHERS = ("double-ante", "pot-limit(limit=10)")


def half(iv: dict[str, Any]) -> float:
    return (iv["hi"] - iv["lo"]) / 2


def fmt(iv: dict[str, Any]) -> str:
    return f"{iv['mean']:+.4g} ±{half(iv):.3g}"


# -- the cards dealt -----------------------------------------------------------------------


def dealt(spec: str, s: dict[str, Any]) -> list[list[float]]:
    """The strength of every seat's dealt hand, per hand of session ``s`` (the decks
    of its seed, the dealers it had)."""
    house = skill.cached_house(spec)
    chance, n = Chance(s["seed"]), s["players"]
    out = []
    for dealer in s["dealer"]:
        hands, up, _ = house.rules[DEAL].deal(chance.deck(), dealer, n)
        out.append([hand_strength(h, up // 13) for h in hands])
    return out


def deck_covariates(spec: str, s: dict[str, Any]) -> list[float]:
    hs = dealt(spec, s)
    return [
        st.mean(sum(h) for h in hs),
        st.mean(max(h) for h in hs),
        st.mean(sum(x >= 1.5 for x in h) for h in hs),
        st.mean(sum(x < 0.5 for x in h) for h in hs),
    ]


def own_covariate(spec: str, s: dict[str, Any]) -> list[float]:
    """The skill bot's dealt strength against the table's mean (mean 0 over whole
    rotations of the seats)."""
    k = s["i"] % s["players"]
    return [st.mean(h[k] - sum(h) / len(h) for h in dealt(spec, s))]


def regress(
    y: Sequence[float], xs: Sequence[Sequence[float]], mu: Sequence[float]
) -> tuple[float, dict[str, Any]]:
    """The control-variate estimate of the mean of ``y`` with covariates ``xs`` of
    known means ``mu``: the values ``y_i − β·(x_i − mu)`` (β by least squares) and
    their interval; and the adjusted R² of the regression."""
    m, k = len(y), len(xs[0])
    cols = [[x[j] for x in xs] for j in range(k)]
    means = [st.mean(c) for c in cols]
    cx = [[v - c_mu for v in c] for c, c_mu in zip(cols, means, strict=True)]
    my = st.mean(y)
    cy = [v - my for v in y]
    a = [[math.fsum(p * q for p, q in zip(ci, cj, strict=True)) for cj in cx] for ci in cx]
    b = [math.fsum(p * q for p, q in zip(ci, cy, strict=True)) for ci in cx]
    beta = _solve(a, b)
    sse = math.fsum(
        (cy[i] - math.fsum(beta[j] * cx[j][i] for j in range(k))) ** 2 for i in range(m)
    )
    sst = math.fsum(v * v for v in cy)
    r2 = 1 - (sse / sst) * (m - 1) / (m - k - 1) if sst and m > k + 1 else 0.0
    adj = [y[i] - math.fsum(beta[j] * (cols[j][i] - mu[j]) for j in range(k)) for i in range(m)]
    return max(0.0, r2), ci_mean(adj)


def deck_means(
    spec: str, dealers: Sequence[int], players: int, seed: str, decks: int
) -> list[float]:
    """The expected deck covariates, from ``decks`` sessions of other decks (no play)."""
    rows = [
        deck_covariates(spec, {"seed": f"{seed}:{i}", "players": players, "dealer": dealers})
        for i in range(decks)
    ]
    return [st.mean(r[j] for r in rows) for j in range(len(rows[0]))]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-300:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def per_session(key: str, s: dict[str, Any]) -> float:
    if key in SCALARS:
        return SCALARS[key][1](s)
    if key in RATIOS:
        num, den = RATIOS[key][1](s)
        return num / den if den else 0.0
    return float(st.mean(f < 50 for f in s["final"]))  # below


# -- the runs ---------------------------------------------------------------------------------


def heuristic_run(houses: list[str], args: argparse.Namespace, seed: str) -> Any:
    cfg = RunConfig(houses, args.sessions, seed, parse_bots("heuristic"))
    return run(cfg, workers=args.workers)


def one_chunk(
    key: str,
    bots: Sequence[BotSpec],
    seed: str | int,
    indices: Sequence[int],
    rotate: bool = True,
    isolate: bool = False,
) -> list[dict[str, Any]]:
    """One seating per deal (a task for :func:`run`): session ``i`` plays the decks
    of session ``i`` with the bot at seat ``i % n`` (seats rotated)."""
    house = skill.cached_house(skill.house_of(key))
    lineup = skill.lineup(bots, house.table.players)
    return [run_session(house, lineup, seed, i, True) for i in indices]


def skill_run(
    match: skill.Match, houses: list[str], sessions: int, seed: str, w: int, task: Any = None
) -> Any:
    """The sessions of one match: duplicate seating (``--skill``) unless ``task``."""
    cfg = skill.config(match, houses, sessions, seed)
    return run(cfg, workers=w, task=task or skill.skill_chunk)


def one_gain(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The gain with one seating per deal: over sessions."""
    return ci_mean([skill.session_gain(s, s["i"] % s["players"]) for s in summaries])


# -- the parts ----------------------------------------------------------------------------------


def part_crn(args: argparse.Namespace, out: dict[str, Any]) -> None:
    specs = [House(h).spec for h in (BASE, *OTHERS)]
    common = heuristic_run(specs, args, args.seed)
    indep = heuristic_run(specs[1:], args, f"{args.seed}-indep")
    base = common.ordered(specs[0])
    rows: dict[str, Any] = {}
    print(f"\n== crn: {args.sessions} sessions per house, heuristic bots, vs {BASE}")
    print(f"{'house':22} {'metric':10} {'common decks':>18} {'independent':>18} {'ratio':>6}")
    for h in specs[1:]:
        p = paired(base, common.ordered(h))
        q = paired(base, indep.ordered(h))
        for key in KEYS:
            r = half(q[key]) / half(p[key]) if half(p[key]) else math.inf
            rows.setdefault(h, {})[key] = {"common": p[key], "independent": q[key], "ratio": r}
            print(f"{h:22} {key:10} {fmt(p[key]):>18} {fmt(q[key]):>18} {r:6.2f}")
    out["crn"] = rows
    out["_runs"] = {"common": common, "base": specs[0]}
    # the skill gain's differences between houses
    specs = [House(h).spec for h in (BASE, *SKILL_OTHERS)]
    m = skill.MATCHES[1]
    c = skill_run(m, specs, args.skill_sessions, args.seed, args.workers)
    ind = skill_run(m, specs[1:], args.skill_sessions, f"{args.seed}-indep", args.workers)
    g0 = skill.gains(c.ordered(m.key(specs[0])))
    srows = {}
    print(f"\n== crn: the --skill gain of {m.label}, {args.skill_sessions} sessions (as --skill)")
    for h in specs[1:]:
        gc, gi = skill.gains(c.ordered(m.key(h))), skill.gains(ind.ordered(m.key(h)))
        p_iv = ci_mean([gc[i] - g0[i] for i in sorted(g0)])
        q_iv = ci_mean([gi[i] - g0[i] for i in sorted(g0)])
        r = half(q_iv) / half(p_iv)
        srows[h] = {"common": p_iv, "independent": q_iv, "ratio": r}
        print(f"{h:22} {'gain':10} {fmt(p_iv):>18} {fmt(q_iv):>18} {r:6.2f}")
    out["crn_skill"] = srows


def part_cv(args: argparse.Namespace, out: dict[str, Any]) -> None:
    runs = out.get("_runs")
    if runs is None:
        print("cv needs crn (same run)", file=sys.stderr)
        return
    common, b = runs["common"], runs["base"]
    base = common.ordered(b)
    xs = [deck_covariates(b, s) for s in base]
    mu = deck_means(b, base[0]["dealer"], base[0]["players"], f"{args.seed}-mu", args.mu_decks)
    res: dict[str, Any] = {"deck_means": mu}
    print(
        f"\n== cv: paired differences regressed on the cards dealt (4 covariates; means of {args.mu_decks} other sessions' decks)"
    )
    print(f"{'house':22} {'metric':10} {'R2 adj':>6} {'half x':>7} {'plain':>18} {'adjusted':>18}")
    for h in common.summaries:
        if h == b:
            continue
        other = common.ordered(h)
        for key in KEYS:
            y = [
                per_session(key, o) - per_session(key, a) for a, o in zip(base, other, strict=True)
            ]
            r2, cv = regress(y, xs, mu)
            plain = ci_mean(y)
            shrink = half(cv) / half(plain) if half(plain) else 1.0
            res.setdefault(h, {})[key] = {"r2": r2, "plain": plain, "adjusted": cv}
            print(f"{h:22} {key:10} {r2:6.3f} {shrink:7.3f} {fmt(plain):>18} {fmt(cv):>18}")
    # the skill gain, one seating per deal (with duplicate seating the bot's own
    # hands against the table's sum to zero over a deal's seatings: nothing to regress)
    m, spec = skill.MATCHES[1], b
    ss = skill_run(m, [spec], args.skill_sessions, args.seed, args.workers, one_chunk).ordered(
        m.key(spec)
    )
    y = [skill.session_gain(s, s["i"] % s["players"]) for s in ss]
    x1 = [own_covariate(spec, s) for s in ss]
    x5 = [a + d for a, d in zip(x1, (deck_covariates(spec, s) for s in ss), strict=True)]
    print(f"\n== cv: the skill gain of {m.label} ({spec}), one seating per deal")
    cases = (("own hands vs the table", x1, [0.0]), ("and the 4 deck covariates", x5, [0.0, *mu]))
    for name, x, known in cases:
        r2, cv = regress(y, x, known)
        plain = ci_mean(y)
        res.setdefault("skill", {})[name] = {"r2": r2, "plain": plain, "adjusted": cv}
        print(
            f"  {name:28} R2 adj {r2:.3f}, half x {half(cv) / half(plain):.3f}:"
            f" plain {fmt(plain)}, adjusted {fmt(cv)}"
        )
    out["cv"] = res


def part_dup(args: argparse.Namespace, out: dict[str, Any]) -> None:
    mc = skill._match(f"montecarlo(budget={args.mc_budget})", "heuristic")
    matches = [skill.MATCHES[1]] + ([mc] if args.mc else [])
    if not args.only_mc:
        matches.append(skill._match("heuristic(play_threshold=1)", "heuristic"))
    else:
        matches = [mc]
    res = {}
    for m in matches:
        sessions = args.mc_sessions if m is mc else args.skill_sessions
        print(f"\n== dup: {m.label}, {args.replicates} replicates of {sessions} sessions ({BASE})")
        row = {}
        for name, task in (("one seating", one_chunk), ("duplicate", skill.skill_chunk)):
            est = []
            for r in range(args.replicates):
                seed = f"{args.seed}-rep{r}"
                ss = skill_run(m, [BASE], sessions, seed, args.workers, task).ordered(m.key(BASE))
                est.append(
                    one_gain(ss) if task is one_chunk else ci_mean(list(skill.gains(ss).values()))
                )
            means = [e["mean"] for e in est]
            row[name] = {
                "mean": st.mean(means),
                "sd_of_estimates": st.stdev(means),
                "mean_half_width": st.mean(half(e) for e in est),
                "estimates": est,
            }
            print(
                f"  {name:12} mean of estimates {st.mean(means):+.3f}, their sd {st.stdev(means):.3f}"
                f" (x1.96 = {1.96 * st.stdev(means):.3f}), mean half-width {row[name]['mean_half_width']:.3f}"
            )
        a, d = row["one seating"], row["duplicate"]
        se = math.sqrt((a["sd_of_estimates"] ** 2 + d["sd_of_estimates"] ** 2) / args.replicates)
        row["difference"] = {"mean": d["mean"] - a["mean"], "se": se}
        print(f"  duplicate − one seating: {d['mean'] - a['mean']:+.3f} ± {1.96 * se:.3f} (95%)")
        res[m.label] = row
    out["dup"] = res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sessions", type=int, default=2000)
    p.add_argument("--skill-sessions", type=int, default=1000)
    p.add_argument("--mc-sessions", type=int, default=250)
    p.add_argument("--replicates", type=int, default=8)
    p.add_argument("--mu-decks", type=int, default=20000)
    p.add_argument("--seed", default="vr")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--parts", default="crn,cv,dup")
    p.add_argument("--mc", action="store_true")
    p.add_argument("--mc-budget", type=int, default=skill.SKILL_BUDGET)
    p.add_argument("--only-mc", action="store_true", help="dup: only the montecarlo match")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    parts = args.parts.split(",")
    out: dict[str, Any] = {"args": vars(args)}
    t0 = time.perf_counter()
    for name in ("crn", "cv", "dup"):
        if name in parts:
            globals()[f"part_{name}"](args, out)
    out.pop("_runs", None)
    return finish(out, t0, args.json)


if __name__ == "__main__":
    sys.exit(main())
