"""Plugins: planner backends (entry-point group ``crewgate.planners``) and robot backends
(``crewgate.backends``), built-ins included, are found by name here, with their options.

A plugin declares what it takes as a subclass of :class:`Options` (typed fields with defaults,
bounds and a description each; unknown names are refused) and is built from an instance of it.
Values arrive by name from anywhere (the CLI's ``-o KEY=VALUE`` gives strings, its shorthands
typed values, Python callers a mapping); :func:`parse_options` turns them into the model or a
``UserError`` that names the option, the value and what the plugin takes. :func:`load` finds a
plugin by name ("did you mean", or the extra to install); :func:`describe` lists the installed
ones with their options (``crewgate planners``, ``crewgate backends``).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticUndefined

from crewgate.errors import CrewgateError, NotFoundError, UserError, did_you_mean

Model = TypeVar("Model", bound="Options")


class Options(BaseModel):
    """The options of a plugin that takes none; the base of every plugin's options."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def option_key(key: str) -> str:
    """An option name as written on a command line (``base-url``) as the field it names."""
    return key.strip().replace("-", "_")


def parse_options(kind: str, plugin: str, model: type[Model], values: Mapping[str, object],
                  hints: Mapping[str, str] | None = None) -> Model:
    """``values`` as ``model`` (the options of the ``kind`` ``plugin``: "planner exemplar"): an
    unknown name gets "did you mean" (or the plugin's hint for it) and the names the plugin
    takes; a bad or missing value names the option."""
    given = {option_key(k): v for k, v in values.items()}
    known = list(model.model_fields)
    for key in given:
        if key not in model.model_fields:
            takes = ", ".join(known) if known else "none"
            hint = f" ({hints[key]})" if hints and key in hints else did_you_mean(key, known)
            raise UserError(f"{kind} {plugin} takes no option {key!r}{hint}; it takes: {takes}")
    for key, value in given.items():  # one value for a list option is a list of one
        if isinstance(value, str) and get_origin(model.model_fields[key].annotation) is list:
            given[key] = [value]
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        raise UserError("; ".join(_problem(f"{kind} {plugin}", model, e)
                                  for e in exc.errors())) from None


def _problem(who: str, model: type[Options], error: ErrorDetails) -> str:
    name = str(error["loc"][0]) if error["loc"] else "?"
    if error["type"] == "missing":
        about = model.model_fields[name].description if name in model.model_fields else None
        return f"{who} needs option {name!r}" + (f" ({about})" if about else "")
    message = str(error["msg"])
    message = message[:1].lower() + message[1:]
    return f"{who}: option {name!r}: {message}, got {error['input']!r}"


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option as ``crewgate planners`` and ``crewgate backends`` show it."""

    name: str
    type: str
    default: object  # None when required or without a default value
    required: bool
    description: str

    def to_json(self) -> dict[str, object]:
        default = str(self.default) if isinstance(self.default, Path) else self.default
        return {"name": self.name, "type": self.type, "default": default,
                "required": self.required, "description": self.description}


def describe_options(model: type[Options]) -> list[OptionInfo]:
    """Every option of ``model``, in declaration order."""
    return [OptionInfo(name, type_name(f), None if f.is_required() else _default(f),
                       f.is_required(), f.description or "")
            for name, f in model.model_fields.items()]


def _default(field: FieldInfo) -> object:
    value = field.get_default(call_default_factory=True)
    return None if value is PydanticUndefined else value


def type_name(field: FieldInfo) -> str:
    """The field's type for people: ``float > 0``, ``auto|minilm|lexical``, ``path``."""
    text = _annotation_name(field.annotation)
    for bound in field.metadata:
        for attr, sign in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
            value = getattr(bound, attr, None)
            if isinstance(bound, annotated_types.BaseMetadata) and value is not None:
                text += f" {sign} {value}"
    return text


def _annotation_name(annotation: object) -> str:
    origin = get_origin(annotation)
    if origin is Literal:
        return "|".join(str(a) for a in get_args(annotation))
    if origin in (Union, types.UnionType):
        names = [_annotation_name(a) for a in get_args(annotation) if a is not type(None)]
        return " | ".join(names)
    if annotation is Path:
        return "path"
    return getattr(annotation, "__name__", str(annotation))


# -- finding plugins ---------------------------------------------------------------------------


def available(group: str) -> dict[str, str]:
    """Plugin name -> the object path it loads from, in an entry-point group."""
    return {ep.name: ep.value for ep in entry_points(group=group)}


def load(group: str, kind: str, name: str, base: type) -> type:
    """The plugin class registered as ``name`` in ``group``: a NotFoundError with "did you
    mean" for an unknown name, a UserError naming the extra for a missing dependency."""
    found = {ep.name: ep for ep in entry_points(group=group)}
    if name not in found:
        raise NotFoundError(kind, name, found, "or install a plugin that registers it in the "
                            f"{group} entry-point group")
    try:
        loaded = found[name].load()
    except ImportError as exc:
        raise UserError(f"{kind} {name!r} needs an optional dependency: {exc}; "
                        f'install it with pip install "crewgate[{name}]"') from exc
    if not (isinstance(loaded, type) and issubclass(loaded, base)):
        raise UserError(f"the {kind} entry point {name} = {found[name].value} is not a "
                        f"subclass of {base.__module__}.{base.__qualname__}")
    return loaded


@dataclass(frozen=True, slots=True)
class PluginInfo:
    """An installed plugin as ``crewgate planners`` / ``crewgate backends`` list it."""

    name: str
    target: str  # the entry point's object path
    summary: str
    options: tuple[OptionInfo, ...]
    error: str | None = None  # why it cannot be loaded (a missing extra)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "target": self.target, "summary": self.summary,
                "options": [o.to_json() for o in self.options], "error": self.error}


def describe(group: str, kind: str, base: type,
             options: Callable[[Any], type[Options]]) -> list[PluginInfo]:
    """Every installed plugin of ``group`` with its options, by name."""
    out = []
    for name, target in sorted(available(group).items()):
        try:
            cls = load(group, kind, name, base)
        except CrewgateError as exc:
            out.append(PluginInfo(name, target, "", (), str(exc)))
            continue
        summary = " ".join((inspect.getdoc(cls) or "").split("\n\n")[0].split())
        out.append(PluginInfo(name, target, summary, tuple(describe_options(options(cls)))))
    return out
