"""``serve``: the deal-verification service (HTTP, JSON) on this machine."""

from __future__ import annotations

import os
import re
import secrets

import click

from spider_solver.cli.group import cli
from spider_solver.cli.params import CONTEXT_SETTINGS, LAYOUTS, NODES, SECONDS, WORKERS, Integer, catalog_option
from spider_solver.errors import plural, quote
from spider_solver.games import MIN_KEY_BYTES, check_key
from spider_solver.limits import (
    DEFAULT_CATALOG,
    DEFAULT_MAX_LAYOUTS_CAP,
    GAMES_PER_MINUTE,
    INTERACTIVE_MAX_NODES,
    INTERACTIVE_MAX_SECONDS,
)
from spider_solver.outcomes import ExitStatus

PORT = Integer(0, 65535)
QUEUE = Integer(0, 10_000)
GAMES_RATE = Integer(1, 100_000)
#: The longest key ``--secret-file`` may hold.
MAX_SECRET_BYTES = 1024
#: The longest host name or CORS origin accepted.
MAX_NAME = 253
#: An origin as a browser sends it in the Origin header: scheme://host[:port], lower-case scheme.
ORIGIN = re.compile(r"[a-z][a-z0-9+.-]*://(\[[0-9a-fA-F:.]+\]|[^\s/:?#\[\]@]+)(:[0-9]{1,5})?")


def read_secret(path: str) -> bytes:
    """The key of ``--secret-file``: the file's bytes, surrounding whitespace (a final newline)
    left out; at least :data:`MIN_KEY_BYTES` of them."""
    try:
        with open(path, "rb") as handle:
            key = handle.read(MAX_SECRET_BYTES + 1).strip()
    except OSError as error:
        raise click.BadParameter(f"cannot read {quote(path)}: {error.strerror or error}",
                                 param_hint="'--secret-file'") from None
    if len(key) > MAX_SECRET_BYTES:
        raise click.BadParameter(f"{quote(path)} holds more than {MAX_SECRET_BYTES:,} bytes: a key is 32 to 1,024 "
                                 "random bytes", param_hint="'--secret-file'")
    try:
        return check_key(key)
    except ValueError as error:
        raise click.BadParameter(f"{quote(path)}: {error}", param_hint="'--secret-file'") from None


def _default_solvers() -> int:
    """One core for the server, the others for searches (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only; '::1' for IPv6).")
@click.option("--port", type=PORT, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@catalog_option(DEFAULT_CATALOG)
@click.option("--solvers", type=WORKERS, default=None,
              help="Solver processes (searches run at once).  [default: the cores less one, at least 1]")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Server processes sharing the port and the catalog; one of them runs the --solvers searches.")
@click.option("--queue", type=QUEUE, default=None,
              help="Searches that may wait for a solver beyond those running; more get 503.  [default: 4 a solver]")
@click.option("--max-nodes-cap", type=NODES, default=INTERACTIVE_MAX_NODES,
              help=f"Largest node budget a request gets (and the default).  [default: {INTERACTIVE_MAX_NODES:,}]")
@click.option("--max-seconds-cap", type=SECONDS, default=INTERACTIVE_MAX_SECONDS,
              help="Largest time budget a request gets, in seconds (and the default); 0 for none.  "
                   f"[default: {INTERACTIVE_MAX_SECONDS:g}]")
@click.option("--max-layouts-cap", type=LAYOUTS, default=DEFAULT_MAX_LAYOUTS_CAP, show_default=True,
              help="Most layouts of the unseen cards a fair hint may ask for (its effort: it has no time budget).")
@click.option("--read-only", is_flag=True,
              help="Serve the catalog and replays only: never search, never write the catalog.")
@click.option("--cors-origin", "cors_origins", multiple=True, metavar="ORIGIN",
              help="Let web pages from ORIGIN (e.g. https://play.example.com) call the API; repeat for more.")
@click.option("--secret-file", type=click.Path(dir_okay=False), default=None,
              help="File holding the key that signs finished games' receipts (at least 32 bytes, e.g. "
                   "openssl rand -hex 32 > FILE).  [default: a random key for this run: receipts verify until "
                   "it stops]")
@click.option("--games-per-minute", type=GAMES_RATE, default=GAMES_PER_MINUTE, show_default=True,
              help="Finished games a client address may submit a minute (POST /v1/games); more get 429.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              default="warning", show_default=True, help="How much the server logs to stderr.")
def serve(host: str, port: int, catalog: str, solvers: int | None, workers: int, queue: int | None,
          max_nodes_cap: int, max_seconds_cap: float | None, max_layouts_cap: int, read_only: bool,
          cors_origins: tuple[str, ...],
          secret_file: str | None, games_per_minute: int, log_level: str) -> ExitStatus:
    """Run the deal-verification service: an HTTP API (JSON) that frontends call.

    Endpoints under /v1: health, deals/{code}, verify, replay, position, analyze,
    games (finished games and their signed receipts), catalog/deals, catalog/random
    and catalog/daily; the OpenAPI document is at /openapi.json and
    interactive docs at /docs (docs/service.md). Searches run in --solvers
    processes; the catalog answers settled deals without a search and records new
    results, and new verified deals are graded in the background. --workers N
    serves with N processes (replays and lookups use the cores; the searches stay
    --solvers processes in all). Stop it with Ctrl-C or SIGTERM: searches in flight end at once and the
    catalog stays intact.

    \b
    Exit status: 0 stopped, 2 bad input (an option, a catalog, a port in use).
    """
    try:
        from spider_solver.service.app import Settings
        from spider_solver.service.server import listen
        from spider_solver.service.workers import serve as run_server
    except ImportError as error:
        raise click.ClickException(
            f"spider-solve serve needs the service extra ({error.name} is missing): "
            "pip install 'spider-solver[service]'"
        ) from None
    from spider_solver.catalog import Catalog
    from spider_solver.service.searches import prepare_solvers

    if len(host) > MAX_NAME or not host.strip():
        raise click.BadParameter(f"{quote(host)} is not a host name or address", param_hint="'--host'")
    for origin in cors_origins:
        if len(origin) > MAX_NAME or not ORIGIN.fullmatch(origin):
            # A browser sends scheme://host[:port], nothing more: any other text never matches.
            raise click.BadParameter(f"{quote(origin)} is not an origin: scheme://host[:port] with no path or "
                                     "trailing slash, e.g. https://play.example.com", param_hint="'--cors-origin'")
    secret = None if secret_file is None else read_secret(secret_file)
    # SIGTERM or Ctrl-C stops the server at any moment, its start-up included (the engine may
    # take a minute or two to compile): status 0 "stopped", as a service manager expects.
    try:
        # Refuse a bad catalog now, with its message, rather than in the server's start-up.
        Catalog(catalog, create=not read_only, read_only=read_only).close()
        solvers = solvers or _default_solvers()
        try:
            sock = listen(host, port, share=workers > 1)
        except (OSError, UnicodeError, OverflowError) as error:
            raise click.ClickException(
                f"cannot listen on {quote(host)} port {port}: {getattr(error, 'strerror', None) or error}"
            ) from None
        if not read_only:  # compile the engine, the grader and the fair hint once here (side by side on
            # the cores); the solver processes then load them
            prepare_solvers(lambda message: click.echo(message, err=True))
        bound_host, bound_port = sock.getsockname()[:2]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        what = "read-only, no searches" if read_only else plural(solvers, "solver process", "solver processes")
        if workers > 1:
            what = f"{workers} server processes, {what}"
        click.echo(f"serving on http://{shown}:{bound_port} ({what}; catalog {catalog}); docs at /docs; "
                   "Ctrl-C to stop", err=True)
        if secret is None:
            click.echo("no --secret-file: finished games' receipts are signed with a key made for this run; they "
                       "verify until the server stops", err=True)
            secret = secrets.token_bytes(MIN_KEY_BYTES)  # made here: every process of --workers signs alike
        settings = Settings(catalog=catalog, read_only=read_only, solvers=solvers, queue=queue,
                            max_nodes_cap=max_nodes_cap, max_seconds_cap=max_seconds_cap,
                            max_layouts_cap=max_layouts_cap, cors_origins=cors_origins,
                            secret=secret, games_per_minute=games_per_minute)
        with sock:
            run_server(settings, sock, workers=workers, log_level=log_level)
    except KeyboardInterrupt:
        pass
    click.echo("stopped", err=True)
    return ExitStatus.OK
