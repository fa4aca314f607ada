"""The ``crewgate`` entry point: commands are registered here; user errors print one clear
message and exit 2, never a traceback."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from crewgate import __version__
from crewgate.errors import CrewgateError, UserError

app = typer.Typer(
    name="crewgate",
    help="Drive a robot crew with plain-language requests, safely: a planner proposes, the "
    "Robot Orchestrator's gate checks every step, only then does anything move.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
spec_app = typer.Typer(help="The crew spec format.", no_args_is_help=True)
app.add_typer(spec_app, name="spec")

err = Console(stderr=True, soft_wrap=True)

EXIT_USER_ERROR = 2


def _version(value: bool) -> None:
    if value:
        print(f"crewgate {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """crewgate command line."""


def main() -> None:
    # importing the command modules registers them on `app`
    from crewgate.cli import check, estop, evaluate, inspect, node, plan, run, trace  # noqa: F401

    try:
        app()  # standalone: usage errors exit 2, --help and typer.Exit are handled by typer
    except UserError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        sys.exit(EXIT_USER_ERROR)
    except CrewgateError as exc:
        err.print(f"[bold red]error ({type(exc).__name__}):[/] {escape(str(exc))}",
                  highlight=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
