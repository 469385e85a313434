"""Running many bot sessions per house with common random numbers: one session
reduced to its summary (:mod:`~bourre.sim.runs.sessions`, what it keeps of each hand
in :mod:`~bourre.sim.runs.tally`), a run's configuration and result
(:mod:`~bourre.sim.runs.run`), where the sessions are played
(:mod:`~bourre.sim.runs.backends`), the run itself (:mod:`~bourre.sim.runs.runner`),
its state file (:mod:`~bourre.sim.runs.statefile`), its progress bar
(:mod:`~bourre.sim.runs.progress`) and the garbage collector during it
(:mod:`~bourre.sim.runs.collector`).  Nothing here computes a statistic or prints a
report."""
