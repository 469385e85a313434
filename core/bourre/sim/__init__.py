"""Comparing houses by simulation: many bot sessions per house with common random
numbers (:mod:`~bourre.sim.runner`), statistics with confidence intervals
(:mod:`~bourre.sim.metrics`), the summary in plain words
(:mod:`~bourre.sim.summary`), the terminal table (:mod:`~bourre.sim.table`),
JSON and CSV (:mod:`~bourre.sim.report`), figures with their captions
(:mod:`~bourre.sim.plots`) and one HTML page (:mod:`~bourre.sim.htmlreport`).

``bourre simulate HOUSE`` and ``bourre compare HOUSE_A HOUSE_B …`` are the command
line (:mod:`~bourre.cli.commands.compare`); ``bourre sweep "pot-limit(limit={5,10})"``
(:mod:`~bourre.cli.commands.sweep`) plays the points of brace lists
(:mod:`~bourre.sim.braces`) the same way (:mod:`~bourre.cli.commands.launch`) and says
the same things of each point (:mod:`~bourre.sim.sweep_table`, the same HTML page).
"""
