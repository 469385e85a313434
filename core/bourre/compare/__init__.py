"""Comparing houses by simulation: many bot sessions per house with common random
numbers (:mod:`~bourre.compare.runner`), statistics with confidence intervals
(:mod:`~bourre.compare.metrics`), a terminal table, JSON and CSV
(:mod:`~bourre.compare.report`) and figures (:mod:`~bourre.compare.plots`).

``bourre simulate HOUSE`` and ``bourre compare HOUSE_A HOUSE_B …`` are the command
line (:mod:`~bourre.compare.commands`); ``bourre sweep "pot-limit(limit={5,10})"``
(:mod:`~bourre.compare.sweep`) plays the points of brace lists
(:mod:`~bourre.compare.braces`) the same way (:mod:`~bourre.compare.launch`).
"""
