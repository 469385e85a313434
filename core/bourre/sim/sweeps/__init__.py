"""``bourre sweep``: the points of brace lists in a house string
(:mod:`~bourre.sim.sweeps.braces`), each point's figures and the typed record
(:mod:`~bourre.sim.sweeps.points`), and what a sweep shows in compare's words: its
table (:mod:`~bourre.sim.sweeps.table`), figures (:mod:`~bourre.sim.sweeps.plots`)
and page (:mod:`~bourre.sim.sweeps.html`)."""
