"""``/healthz``: whether this server process can serve (its database answers and holds the schema it needs), for
a load balancer, a container's health check or a person's ``curl``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from campaign.bootstrap import SCHEMA_HEAD, current_revision
from campaign.server.context import access, server
from campaign.server.refusals import Refusal

router = APIRouter()


class Health(BaseModel):
    status: str
    database: str
    schema_revision: str


@router.get(
    "/healthz",
    openapi_extra=access("public"),
    response_model=Health,
    responses={503: {"model": Refusal, "description": "The database does not answer, or its schema is not current."}},
)
def healthz(request: Request) -> Health | JSONResponse:
    engine = server(request).app.engine
    try:
        revision = current_revision(engine)
    except SQLAlchemyError:
        return JSONResponse({"detail": "the database does not answer: this server cannot serve now"}, 503)
    if revision != SCHEMA_HEAD:
        said = f"the database's schema is at {revision or 'no revision'}, and this server needs {SCHEMA_HEAD}"
        return JSONResponse({"detail": f"{said}: run `campaign serve` (or any command) to bring it up to date"}, 503)
    return Health(status="ok", database="answers", schema_revision=revision)
