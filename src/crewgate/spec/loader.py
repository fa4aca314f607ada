"""Load crew specs from YAML (a file or a packaged crew); errors name file, line and field."""

from __future__ import annotations

import gc
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from crewgate.errors import InputFileError, NotFoundError, SpecError, did_you_mean
from crewgate.limits import MAX_SPEC_CHARS, read_text
from crewgate.spec.base import SpecProblems
from crewgate.spec.crew import Crew
from crewgate.spec.finite import non_finite_message, not_finite
from crewgate.spec.params import PARAM_KINDS
from crewgate.spec.sections import registered_sections
from crewgate.yamlsafe import read_yaml, yaml_problem

PathKey = tuple[str | int, ...]


def packaged_crews() -> list[str]:
    """Names of the crews shipped inside the package."""
    folder = resources.files("crewgate.crews")
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_crew(name_or_path: str | Path) -> Crew:
    """A packaged crew by name (``sar``) or a crew spec file by path."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix in (".yaml", ".yml", ".json") or path.exists() or "/" in text:
        return load_crew_file(path)
    return _load_packaged(text)


@lru_cache(maxsize=16)
def _load_packaged(name: str) -> Crew:
    known = packaged_crews()
    if name not in known:
        raise NotFoundError("crew", name, known, "or give the path of a crew YAML file")
    source = resources.files("crewgate.crews").joinpath(f"{name}.yaml")
    return parse_crew(source.read_text(encoding="utf-8"), f"<packaged crew {name}>")


def load_crew_file(path: Path) -> Crew:
    """A crew spec file; cached while the file is unchanged (missions come in thousands)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise InputFileError(f"crew spec {str(path)!r} does not exist") from None
    except OSError as exc:
        raise InputFileError(f"cannot read crew spec {str(path)!r}: {exc}") from exc
    return _load_file(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load_file(path: str, mtime_ns: int, size: int) -> Crew:
    return parse_crew(read_text(Path(path), "crew spec", MAX_SPEC_CHARS), path)


def parse_crew(text: str, source: str) -> Crew:
    """Validate spec text; every problem is reported with its line and field path."""
    # a spec is a tree of fresh objects that the collector would walk again and again while it
    # grows (two thirds of loading a 10,000-skill crew): it has no cycles to find meanwhile
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, source)
    finally:
        if enabled:
            gc.enable()


def _parse(text: str, source: str) -> Crew:
    try:
        # a safe loader (C or Python), aliases bounded; the nodes' marks name lines in errors
        data, root = read_yaml(text)
    except yaml.YAMLError as exc:
        raise SpecError(source, [yaml_problem(exc)]) from exc
    if not isinstance(data, dict):
        raise SpecError(source, ["the top level must be a mapping with name, area, robots ..."])
    try:
        return Crew.model_validate(data)
    except ValidationError as exc:
        raise SpecError(source, _describe(exc, root)) from exc


def _describe(exc: ValidationError, root: yaml.Node | None) -> list[str]:
    problems: list[str] = []
    for err in exc.errors():
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, SpecProblems):  # found by a model, with paths from where it sits
            where = _real_path(root, err["loc"])
            for part, message in cause.problems:
                path = (*where, *part)
                problems.append(_line(root, path) + f"{_dotted(path) or '(top level)'}: "
                                f"{message}")
            continue
        path = _real_path(root, err["loc"])
        message = err["msg"].removeprefix("Value error, ")
        if err["type"] == "finite_number":  # a word or a string pydantic reads as one
            message = non_finite_message(not_finite(err["input"]) or str(err["input"]))
        elif err["type"] == "extra_forbidden":
            message = (f"unknown field{did_you_mean(str(path[-1]), _field_names())}; "
                       "`crewgate spec docs` lists every field")
        elif err["type"] == "missing":
            message = "required field is missing"
        problems.append(_line(root, path) + f"{_dotted(path) or '(top level)'}: {message}")
    return problems


def _field_names() -> frozenset[str]:
    from crewgate.spec.reference import sections

    return frozenset(name for _, model in sections() for name in model.model_fields)


def _real_path(root: yaml.Node | None, loc: tuple[str | int, ...]) -> PathKey:
    """Drop the parts pydantic inserts for tagged unions ("number", "tuple[...]"), which the
    file does not contain: a part is kept when the file has it, or when it is the last part."""
    path: list[str | int] = []
    node = root
    for i, part in enumerate(loc):
        child = _child(node, part)
        if child is not None or i == len(loc) - 1 or not _looks_like_tag(part):
            path.append(part)
            node = child
    return tuple(path)


def _looks_like_tag(part: object) -> bool:
    return isinstance(part, str) and (
        part in PARAM_KINDS or part.startswith(("tuple[", "list[", "dict[", "function-"))
        or part in {"str", "int", "float", "bool", "none"}
    )


def _dotted(path: PathKey) -> str:
    return ".".join(str(p) for p in path)


def _line(root: yaml.Node | None, path: PathKey) -> str:
    node = root
    best = root
    for part in path:
        node = _child(node, part)
        if node is None:
            break
        best = node
    if best is None:
        return ""
    return f"line {best.start_mark.line + 1}: "


def _child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                found: yaml.Node = v
                return found
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        child: yaml.Node = node.value[key]
        return child
    return None


def crew_json_schema() -> str:
    """The JSON Schema of a crew spec file (for editors: yaml-language-server)."""
    schema = Crew.model_json_schema()
    for key, section in registered_sections().items():  # the backends' sections
        part = section.model_json_schema(ref_template="#/$defs/{model}")
        schema.setdefault("$defs", {}).update(part.pop("$defs", {}))
        schema["$defs"][section.__name__] = part
        schema["properties"][key] = {"anyOf": [{"$ref": f"#/$defs/{section.__name__}"},
                                               {"type": "null"}],
                                     "description": (section.__doc__ or "").strip()}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "crewgate crew spec"
    return json.dumps(schema, indent=2)
