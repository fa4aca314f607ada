"""YAML crewgate did not make (a crew spec, a scenario suite, a price table): read as hostile.

:func:`load_yaml` reads with a safe loader (plain data only; libyaml's when installed) that also
refuses what YAML allows but no crewgate file needs, each as a ``yaml.YAMLError`` with the line
it is about (the callers name the file and the fix):

- a duplicate key, which YAML would silently resolve to the last one;
- an integer too long for the interpreter to read (more than 4,300 digits), which raised;
- aliases that make a small file stand for a huge value: ten lines of anchors, each a list of
  ten aliases of the one before, stand for a billion values ("billion laughs"), and every walk
  of the value (validation, the finite-number check, a copy) would take hours. The values a
  document stands for, aliases expanded, are counted on its node graph, each node once, and
  bounded by ``MAX_VALUES``.

Nesting is bounded by the parser itself (an error past about a thousand levels).
"""

from __future__ import annotations

from typing import Any

import yaml

# values a document may stand for, aliases expanded (a 10,000-skill crew spec stands for
# about 90,000; crewgate.limits bounds the text to 2 MB, which without aliases is fewer)
MAX_VALUES = 2_000_000

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster


class Loader(_Base):  # type: ignore[misc]
    """A safe loader that refuses duplicate keys (YAML would silently keep the last one)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int | float | bool) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first on line {seen[key]})",
                    key_node.start_mark)
            if isinstance(key, str | int | float | bool):
                seen[key] = key_node.start_mark.line + 1
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            value: int = super().construct_yaml_int(node)
        except ValueError:  # past the interpreter's limit on integer text (4,300 digits)
            raise yaml.constructor.ConstructorError(
                None, None, f"an integer of {len(str(node.value)):,} characters is too long to "
                "read (write a finite number of a few digits)", node.start_mark) from None
        return value


Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)


class TooLarge(yaml.MarkedYAMLError):
    """A document whose aliases expand it beyond ``MAX_VALUES`` values."""


def load_yaml(text: str) -> Any:
    """The document's plain data (see the module's doc)."""
    return read_yaml(text)[0]


def read_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The document's plain data and its node graph (whose marks name lines for errors)."""
    loader = Loader(text)
    try:
        root: yaml.Node | None = loader.get_single_node()
        if root is None:
            return None, None
        if "*" in text:  # (no alias without its mark: most files are not walked)
            _bounded(root)
        return loader.construct_document(root), root
    finally:
        loader.dispose()


def yaml_problem(exc: yaml.YAMLError) -> str:
    """What is wrong with the YAML, where: "line 7, column 5: not valid YAML: ..."."""
    mark = getattr(exc, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
    problem = getattr(exc, "problem", None) or str(exc)
    return f"{where}not valid YAML: {problem}"


def _bounded(root: yaml.Node) -> None:
    """Count the values the graph stands for, aliases expanded, each node's count worked out
    once (post-order, without recursion); a TooLarge at the first node past the bound."""
    counts: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in counts:
            continue
        children = _children(node)
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in counts)
            continue
        count = 1 + sum(counts[id(child)] for child in children)
        if count > MAX_VALUES:
            raise TooLarge(
                None, None, f"its aliases make it stand for more than {MAX_VALUES:,} values "
                "(aliases of aliases, nested); write the values out, or alias less",
                node.start_mark)
        counts[id(node)] = count


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
