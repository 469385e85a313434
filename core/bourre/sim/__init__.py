"""Comparing houses by simulation, in layers (each imports only those below it; the
import-linter contracts in ``pyproject.toml`` hold them):

- :mod:`~bourre.sim.sweeps`: ``bourre sweep``'s points from brace lists, its table,
  figures and page, in compare's words;
- :mod:`~bourre.sim.speed`: ``bourre bench``, how fast the game runs, and each rule
  component's share of a hand's time;
- :mod:`~bourre.sim.reports`: what a comparison says: the plain-words summary, the
  terminal table, JSON and CSV, figures with their captions and one HTML page;
- :mod:`~bourre.sim.skill`: does skill pay here (``--skill``): its matches and their
  figures;
- :mod:`~bourre.sim.stats`: statistics with 95% confidence intervals, per session as
  the unit, folded in bounded memory;
- :mod:`~bourre.sim.runs`: running many bot sessions per house with common random
  numbers: the sessions, where they are played, the state file and the progress bar.

``bourre simulate HOUSE``, ``bourre compare HOUSE_A HOUSE_B …`` and ``bourre sweep``
are the command line (:mod:`~bourre.cli.commands.compare`,
:mod:`~bourre.cli.commands.sweep`, :mod:`~bourre.cli.commands.launch`).
"""
