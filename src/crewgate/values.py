"""Frozen value objects that are quick to build.

Verdicts and problems are frozen, slotted dataclasses: immutable values with equality, hashing
and a repr. The gate builds them by the hundred per evaluation pass, and a frozen dataclass's
generated ``__init__`` sets each field through ``object.__setattr__`` (a global lookup, an
attribute lookup and a call per field). :func:`quick_init` gives such a class an ``__init__``
with the same parameters that writes each slot through the slot's own descriptor: the same
object, still frozen afterwards, in about two thirds of the time.

Hot named tuples are built with :data:`tuple_of` instead of through their class.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

# ``tuple_of(Cls, (a, b, ...))``: a named tuple built in C from all its fields, in order. A
# named tuple's generated ``__new__`` is a Python function: called through the class, it costs
# about two and a half times as much. (No arity check: hand it every field, defaults included.)
tuple_of = tuple.__new__


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of a frozen, slotted dataclass (one with no ``__post_init__``,
    no default factory and every field in ``__init__``) by one that writes its slots directly.
    The source is built from the class's own field names, never from data."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init is for frozen, slotted dataclasses")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or any(
            not f.init or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: quick_init takes no __post_init__, default factory "
                        "or field outside __init__")
    namespace: dict[str, Any] = {}
    args, body = [], []
    for f in fields:
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's descriptor
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)  # field names only: see the docstring
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010  (a class attribute mypy forbids assigning)
    return cls


__all__ = ["quick_init", "tuple_of"]
