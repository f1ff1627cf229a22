"""A learning agent on NumPy: a small masked policy network (:mod:`.policy`) trained by imitating
the ``defensive`` bot, then by policy gradient against the bots (:mod:`.train`). See docs/rl.md."""
