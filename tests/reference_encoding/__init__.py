"""The observation encoders in Python, reading a :class:`~chuanma.engine.SeatView`: the reference
the compiled encoders (``chuanma._core.Hand.encode_compact``, ``encode_planes``) are compared with."""
