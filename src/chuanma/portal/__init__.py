"""The 算番 portal and the replay viewer: what the server's pages compute with the engine.

``calculator`` scores a hand and says who pays; ``reference`` serves the fan table and the presets'
options; ``examples`` plays the worked examples through the engine; ``replays`` rebuilds a finished
hand's views move by move. The routes are in :mod:`chuanma.server.routes.portal` and
:mod:`chuanma.server.routes.hands` (the replays).
"""
