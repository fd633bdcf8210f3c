"""The HTTP and WebSocket routes, one module per resource; handlers are thin."""

from fastapi import APIRouter

from realpolitik.server.routes import accounts, events, games, gm, mail, orders, press

api_router = APIRouter()
api_router.include_router(accounts.router)
api_router.include_router(games.router)
api_router.include_router(orders.router)
api_router.include_router(press.router)
api_router.include_router(gm.router)
api_router.include_router(events.router)
api_router.include_router(mail.router)

__all__ = ["api_router"]
