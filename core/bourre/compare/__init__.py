"""Comparing houses by simulation: many bot sessions per house with common random
numbers (:mod:`~bourre.compare.runner`), statistics with confidence intervals
(:mod:`~bourre.compare.metrics`), the summary in plain words
(:mod:`~bourre.compare.summary`), the terminal table (:mod:`~bourre.compare.table`),
JSON and CSV (:mod:`~bourre.compare.report`), figures with their captions
(:mod:`~bourre.compare.plots`) and one HTML page (:mod:`~bourre.compare.htmlreport`).

``bourre simulate HOUSE`` and ``bourre compare HOUSE_A HOUSE_B …`` are the command
line (:mod:`~bourre.compare.commands`); ``bourre sweep "pot-limit(limit={5,10})"``
(:mod:`~bourre.compare.sweep`) plays the points of brace lists
(:mod:`~bourre.compare.braces`) the same way (:mod:`~bourre.compare.launch`) and says
the same things of each point (:mod:`~bourre.compare.sweep_table`, the same HTML page).
"""
