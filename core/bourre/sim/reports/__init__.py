"""What a comparison says, from its statistics: numbers as a card player reads them
(:mod:`~bourre.sim.reports.fmt`), one cell and its mark
(:mod:`~bourre.sim.reports.cells`), names of runs and houses
(:mod:`~bourre.sim.reports.labels`), the plain-words summary
(:mod:`~bourre.sim.reports.summary`), the skill figures in words
(:mod:`~bourre.sim.reports.skill`), the table's rows
(:mod:`~bourre.sim.reports.table_rows`) printed to a console
(:mod:`~bourre.sim.reports.console_table`, :mod:`~bourre.sim.reports.table`), JSON
and CSV (:mod:`~bourre.sim.reports.files`), figures with their captions
(:mod:`~bourre.sim.reports.plots`) and one HTML page
(:mod:`~bourre.sim.reports.html`, ``templates/report.html``)."""
