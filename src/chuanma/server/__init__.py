"""The game server (``chuanma serve``): accounts, chips, rooms, matchmaking, live tables.

See ``docs/server.md`` and the WebSocket protocol in ``docs/protocol.md``.
"""
