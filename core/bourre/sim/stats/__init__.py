"""Statistics of a run with 95% confidence intervals, the session as the unit: the
intervals (:mod:`~bourre.sim.stats.intervals`), the same folded in bounded memory as
the sessions stream by (:mod:`~bourre.sim.stats.folding`), each session's values
(:mod:`~bourre.sim.stats.scalars`) and a run's statistics per house
(:mod:`~bourre.sim.stats.metrics`).  It reads summaries, never runs a session."""
