"""The deal-verification service: an HTTP API (FastAPI on uvicorn) that frontends call.

Needs the ``service`` extra (``pip install 'spider-solver[service]'``). The endpoints,
limits and errors are in docs/service.md and in the OpenAPI document the
server publishes at ``/openapi.json`` (interactive at ``/docs``).
"""
