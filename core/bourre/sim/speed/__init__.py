"""How fast the game runs: ``bourre bench``'s measures
(:mod:`~bourre.sim.speed.bench`) and each rule component's share of a hand's time
(:mod:`~bourre.sim.speed.rulecost`, ``bourre bench --components``)."""
