"""``crewgate serve`` (the operator service: HTTP API and web console over one long-running
orchestrator) and ``crewgate token`` (a user of it)."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.backends import BACKEND, BackendArgs, backend_options
from crewgate.cli.common import CrewArg, JournalOpt, SeedOpt
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options
from crewgate.errors import UserError

DEFAULT_PORT = 8765
APPROVALS = ("none", "required", "two_person")


@app.command()
@planner_options()
@backend_options()
def serve(
    crew: str = CrewArg,
    planners: PlannerArgs = PLANNERS,
    backend: BackendArgs = BACKEND,
    seed: int = SeedOpt,
    journal: Path | None = JournalOpt,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (another "
                             "than loopback needs --tokens or $CREWGATE_TOKENS)."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535,
                             help="Port (0 picks a free one; the URL is printed)."),
    speed: float = typer.Option(4.0, "--speed", help="Simulated seconds per second on the "
                                "simulator, so people can watch (0: as fast as it computes)."),
    tokens: Path | None = typer.Option(None, "--tokens", metavar="FILE", help="Token file "
                                       "(`crewgate token`); also $CREWGATE_TOKENS. Without "
                                       "either, one admin token is made for this run and "
                                       "printed in the console's URL."),
    approval: str = typer.Option("none", "--approval", metavar="MODE", help="Approval for "
                                 "every mission: none (the workflows decide), required, "
                                 "two_person."),
    approval_timeout: float = typer.Option(900.0, "--approval-timeout", metavar="SECONDS",
                                           help="A mission nobody approves within this time "
                                           "is rejected."),
) -> None:
    """Run the operator service for a crew: an authenticated HTTP API and a web console over
    one long-running orchestrator (missions on disjoint robots run at the same time; human
    approval; e-stop). Open the printed URL. See docs/service.md.

    Needs: pip install "crewgate\\[serve]". Ctrl-C stops it: running missions are cancelled
    (their safe fallback runs) and the journal is closed.
    """
    try:
        import uvicorn  # noqa: F401

        from crewgate.service.http import create_app
    except ModuleNotFoundError as exc:
        raise UserError(f"crewgate serve needs FastAPI and uvicorn ({exc.name} is not "
                        'installed): pip install "crewgate[serve]"') from exc
    from crewgate import __version__
    from crewgate.journal import Journal
    from crewgate.service import LiveCrew, MissionDesk
    from crewgate.service.auth import Tokens, User, digest, new_token
    from crewgate.service.server import listen, run_server, signals_noted
    from crewgate.spec import load_crew

    if approval not in APPROVALS:
        raise UserError(f"--approval must be one of {', '.join(APPROVALS)}, not {approval!r}")
    if not (approval_timeout > 0 and approval_timeout < float("inf")):
        raise UserError(f"--approval-timeout must be a positive number of seconds, not "
                        f"{approval_timeout!r}")
    users = Tokens.load(tokens)
    loopback = _loopback(host)
    session_token = None
    if not len(users):
        if not loopback:
            raise UserError(f"crewgate serve will not listen on {host} without tokens: write "
                            "a token file with `crewgate token NAME --role ROLE --file FILE` "
                            "and pass --tokens FILE (or set $CREWGATE_TOKENS)")
        session_token = new_token()
        users.add(digest(session_token), User("local", "admin"))
    spec = load_crew(crew)
    chosen = planners.build_one(spec, seed=seed)
    where = backend.choose(seed=seed)
    sock = listen(host, port)  # before anything starts: a taken port fails at once
    adapter = where.open(spec)
    live = LiveCrew(adapter, speed=speed if speed > 0 else None)
    jr = Journal(journal)
    desk = MissionDesk(spec, live, jr, planner=chosen, source="operator",
                       approval=approval,  # type: ignore[arg-type]  # checked above
                       approval_timeout_s=approval_timeout)
    with signals_noted() as stopped:
        try:
            if where.wait_s > 0:
                adapter.connect(list(spec.robots), where.wait_s)
            bound = sock.getsockname()
            shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
            url = f"http://{shown}:{bound[1]}/"
            print(f"crewgate serve {spec.name}: {adapter.describe()}, planner {chosen.name}, "
                  f"journal {jr.path}", file=sys.stderr, flush=True)
            if session_token is not None:
                print(f"console (admin token for this run): {url}#token={session_token}",
                      file=sys.stderr, flush=True)
            else:
                print(f"console: {url} (sign in with your token)", file=sys.stderr, flush=True)
            # an earlier process stopped without closing them (SIGKILL, power loss); not those
            # whose process still runs (it holds their lease on the journal)
            left = [m for m in jr.unfinished(spec.name) if not jr.running(m)]
            if left:
                print(f"{len(left)} mission(s) of an earlier run were never closed "
                      f"({', '.join(m.mission_id for m in left[:3])}): `crewgate recover "
                      f"{spec.name}` makes their robots safe and closes them", file=sys.stderr,
                      flush=True)
            run_server(create_app(desk, users, version=__version__), sock)
        finally:
            if stopped:
                print(f"{stopped[0]}: stopping; missions that wait or run are cancelled (their "
                      "safe fallback runs)", file=sys.stderr, flush=True)
            desk.close()
            live.close()
            jr.close()


@app.command()
def token(
    name: str = typer.Argument(..., metavar="NAME", help="The user's name (letters, digits, "
                               "_.@-)."),
    role: str = typer.Option(..., "--role", metavar="ROLE",
                             help="viewer (read, e-stop), operator (+ submit, approve, "
                             "cancel) or admin (+ release the e-stop)."),
    file: Path = typer.Option(..., "--file", metavar="FILE", help="The token file to add the "
                              "user to (created if missing, readable by you only)."),
) -> None:
    """Make a token for a user of `crewgate serve`: its hash is added to the token file, the
    token is printed once on stdout (give it to the user; it is not stored anywhere)."""
    from crewgate.service.auth import new_token, parse_file, token_line

    secret = new_token()
    line = token_line(name, role, secret)
    if file.exists():
        known = [u.name for _, u, _ in parse_file(file)]
        if name in known:
            raise UserError(f"{file} already has a user {name!r}; remove its line to replace it")
    try:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(line)
    except OSError as exc:
        raise UserError(f"cannot write token file {file}: {exc}") from exc
    # the token alone on stdout, so that a script can take it: TOKEN=$(crewgate token ...)
    print(f"user {name} ({role}) added to {file}; the token (shown once) follows on stdout",
          file=sys.stderr)
    print(secret)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
