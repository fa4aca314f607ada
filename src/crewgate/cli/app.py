"""The ``crewgate`` entry point: commands are registered here; user errors print one clear
message and exit 2, never a traceback (the app does it, so a command run in process through
``CliRunner`` behaves as the console script does)."""

from __future__ import annotations

import inspect
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup, TyperOption

from crewgate import __version__
from crewgate.errors import CrewgateError, UserError

err = Console(stderr=True, soft_wrap=True)

EXIT_USER_ERROR = 2


def reflow(text: str) -> str:
    """A command's help with each paragraph on one line, for rich to wrap to the terminal
    (typer 0.29 keeps the line breaks of every paragraph after the first, so that the source's
    lines wrap a second time on a narrower terminal). A paragraph opened by ``\\b`` keeps its
    lines, as click's convention has it."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


class _Reflowing(TyperGroup):
    """A group whose commands' help is reflowed (:func:`reflow`; again each time it is asked
    for, which changes nothing)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and command.help:
            command.help = reflow(command.help)
        return command


class _Commands(_Reflowing):
    """The root group: crewgate's errors end the command with one message and an exit status
    (2: the caller's input, 1: anything else that crewgate raised on purpose)."""

    def invoke(self, ctx: Any) -> Any:  # ctx: the click Context typer vendors
        try:
            return super().invoke(ctx)
        except UserError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            ctx.exit(EXIT_USER_ERROR)
        except CrewgateError as exc:
            err.print(f"[bold red]error ({type(exc).__name__}):[/] {escape(str(exc))}",
                      highlight=False)
            ctx.exit(1)


def _flag_type(self: TyperOption, ctx: Any) -> str | None:
    """A flag takes no value: its help shows no ``<bool>`` (typer 0.29 shows one for every
    option, which reads as if ``--json true`` were the way to write it)."""
    return None if self.is_flag else _type_of(self, ctx)


_type_of = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]

app = typer.Typer(
    name="crewgate",
    cls=_Commands,
    help="Drive a robot crew with plain-language requests, safely: a planner proposes, the "
    "Robot Orchestrator's gate checks every step, only then does anything move.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
spec_app = typer.Typer(help="The crew spec format.", no_args_is_help=True, cls=_Reflowing)
app.add_typer(spec_app, name="spec")


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
    from crewgate.cli import (  # noqa: F401
        agents,
        check,
        estop,
        evaluate,
        inspect,
        node,
        plan,
        plugins,
        recover,
        run,
        serve,
        status,
        trace,
    )

    # standalone: usage errors exit 2; --help and typer.Exit are handled by typer, crewgate's
    # errors by the root group (_Commands)
    app(prog_name="crewgate")


if __name__ == "__main__":
    main()
