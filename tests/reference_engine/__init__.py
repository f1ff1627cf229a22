"""The Python reducer the compiled core was written from, kept as an independent reference: a
:class:`~reference_engine.game.Game` over a :class:`~chuanma.engine.state.HandState` that the
lockstep tests (``native_lockstep``, ``test_native_*``) play beside ``chuanma._core.Hand``."""
