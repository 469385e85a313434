"""The built-in variant plugins of ``bourre``.

Each module is an ordinary plugin, registered in the ``bourre`` entry-point group
exactly like a third-party one (see ``pyproject.toml``)::

    standard             the documented profile (see `bourre rules standard`)
    double-ante          double_ante.py
    pot-limit            pot_limit.py
    four-card            four_card.py
    simultaneous-reveal  simultaneous_reveal.py
    optional-undertrump  optional_undertrump.py
    no-cinch             no_cinch.py

Table sizes 2 to 8 are the ``table.players`` setting of the standard profile
(R-RESHUFFLE covers a stock that runs out).
"""
