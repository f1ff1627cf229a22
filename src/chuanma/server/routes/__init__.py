"""The HTTP routes, one :class:`fastapi.APIRouter` per domain (``router`` in each module), included
by :func:`chuanma.server.app.create_app`; what they share is in :mod:`chuanma.server.routes.deps`."""
