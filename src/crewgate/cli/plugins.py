"""``crewgate planners`` and ``crewgate backends``: the installed plugins with their options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from crewgate.cli.app import app
from crewgate.cli.common import JsonOpt, out, print_json

if TYPE_CHECKING:
    from crewgate.plugins import PluginInfo


@app.command("planners")
def planners_command(as_json: bool = JsonOpt) -> None:
    """The installed planner backends (plugins included), each with its options: type, default
    and meaning. Give an option with -o NAME=VALUE, or with its flag where it has one."""
    from crewgate.cli.planning import FLAGS
    from crewgate.planners.registry import describe_planners

    _print(describe_planners(), FLAGS, as_json)


@app.command("backends")
def backends_command(as_json: bool = JsonOpt) -> None:
    """The installed robot backends (plugins included), each with its options: type, default
    and meaning. Choose one with `run --backend NAME`; give an option with -b NAME=VALUE, or
    with its flag where it has one."""
    from crewgate.adapters.backend import describe_backends
    from crewgate.cli.backends import FLAGS

    _print(describe_backends(), FLAGS, as_json)


def _print(infos: list[PluginInfo], flags: Mapping[str, str], as_json: bool) -> None:
    from rich.markup import escape
    from rich.padding import Padding
    from rich.table import Table

    if as_json:
        print_json([info.to_json() for info in infos])
        return
    for info in infos:
        out.print(f"[bold cyan]{escape(info.name)}[/]  [dim]{escape(info.target)}[/]")
        if info.error:
            out.print(f"  [yellow]not available:[/] {escape(info.error)}\n")
            continue
        out.print(Padding(escape(info.summary), (0, 0, 0, 2)), soft_wrap=False)
        if not info.options:
            out.print("  [dim]no options[/]\n")
            continue
        table = Table(box=None, show_header=True, header_style="dim", pad_edge=False,
                      padding=(0, 2, 0, 0))
        for column in ("  option", "type", "default", "meaning"):
            table.add_column(column, no_wrap=column != "meaning")
        for option in info.options:
            flag = f" ({flags[option.name]})" if option.name in flags else ""
            default = ("required" if option.required else "-" if option.default is None
                       else str(option.default))
            table.add_row(f"  {escape(option.name)}{flag}", escape(option.type), escape(default),
                          escape(option.description))
        out.print(table)
        out.print()
