"""The game server (``pip install realpolitik[server]``): an ASGI app over the engine.

``create_app(settings)`` builds the FastAPI application; ``serve(host, port, database_url)`` runs
it with uvicorn. See ``docs/server.md``.
"""

from realpolitik.server.app import create_app, serve
from realpolitik.server.settings import Settings

__all__ = ["Settings", "create_app", "serve"]
