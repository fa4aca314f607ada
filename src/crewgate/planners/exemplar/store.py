"""The example embeddings of a crew, kept on disk so that a warm start does not encode them again.

The offline planner compares every request with its crew's example requests; encoding those
examples with MiniLM is most of the planner's start-up. They are kept per crew in one ``.npz``
file, keyed by a content hash of what decides them: the encoder's identity (for MiniLM: its
weights' header, size and sampled pages, its tokenizer and configuration, and the version of
the forward pass, :attr:`MiniLMEncoder.identity`) and the example texts, in order. Another model,
an edited example or another forward pass is another key, hence another file (the crew's older
files are removed when a new one is written).

Where: ``$CREWGATE_EMBEDDINGS`` (a directory; ``off`` keeps nothing on disk), else
``$XDG_CACHE_HOME/crewgate/embeddings``, else ``~/.cache/crewgate/embeddings``. Clearing it is
deleting that directory (or its files): the next start encodes the examples again and writes
them back.

Safety: a file is written whole to a temporary file in the same directory and renamed over the
old one (``os.replace``: a reader sees the old file or the new one, never part of one). On
reading, a file is trusted only if it holds exactly this key, one float32 row of the encoder's
width per example, every number finite and every row of unit length; anything else (a damaged,
truncated or foreign file, another key) is ignored and the embeddings are encoded and written
again. A directory that cannot be written is not an error: the planner encodes as before.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

ENV = "CREWGATE_EMBEDDINGS"
FORMAT = "crewgate-embeddings-1"  # the file's own version: another layout is another key
MAX_FILE_BYTES = 64 * 1024 * 1024  # no crew has that many examples; a larger file is foreign


@runtime_checkable
class Embedder(Protocol):
    """An encoder whose embeddings can be kept: a content hash of what decides them, its rows
    for texts (unit length, float32), and rows it is given instead of computing them."""

    @property
    def identity(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> Any: ...

    def adopt(self, texts: Sequence[str], vectors: Any) -> None: ...


def cache_dir() -> Path | None:
    """Where example embeddings are kept (see the module's doc); None when switched off."""
    env = os.environ.get(ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "none", "0") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "crewgate" / "embeddings"


def key_of(identity: str, texts: Sequence[str]) -> str:
    """The content hash the embeddings of ``texts`` by that encoder are kept under."""
    digest = hashlib.sha256()
    for part in (FORMAT, identity, str(len(texts)), *texts):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


class EmbeddingStore:
    """One directory of ``CREW-KEY.npz`` files (see the module's doc)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, crew: str, key: str) -> Path:
        return self.folder / f"{_safe(crew)}-{key[:32]}.npz"

    def load(self, crew: str, key: str, rows: int) -> Any | None:
        """The kept embeddings, or None when there are none that can be trusted."""
        import numpy as np

        path = self.path(crew, key)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                return None
            with np.load(path, allow_pickle=False) as data:
                kept_key = str(data["key"])
                vectors = np.array(data["vectors"])
        except (OSError, ValueError, KeyError, EOFError, TypeError, AttributeError,
                zipfile.BadZipFile):
            return None  # absent, damaged or foreign: encoded again, and written again
        if kept_key != key or vectors.dtype != np.float32 or vectors.ndim != 2 or (
                vectors.shape[0] != rows) or not np.isfinite(vectors).all():
            return None
        norms = np.linalg.norm(vectors, axis=1)
        if not np.allclose(norms, 1.0, atol=1e-3):
            return None
        return vectors

    def save(self, crew: str, key: str, vectors: Any) -> bool:
        """Keep the embeddings (atomically); the crew's files of other keys are removed.
        False when the directory cannot be written (nothing is kept, nothing fails)."""
        import numpy as np

        path = self.path(crew, key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp",
                                            dir=self.folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    np.savez(out, key=np.array(key), vectors=np.asarray(vectors, np.float32))
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temp, path)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
            for old in self.folder.glob(f"{_safe(crew)}-*.npz"):
                if old != path:
                    old.unlink(missing_ok=True)
        except OSError:
            return False
        return True


def embed_examples(encoder: Embedder, crew: str, texts: Sequence[str],
                   store: EmbeddingStore) -> bool:
    """Give the encoder the embeddings of a crew's example texts: the kept ones when the store
    has them for this encoder and these texts, else encoded now (and kept). True when they came
    from the store."""
    if not texts:
        return False
    key = key_of(encoder.identity, texts)
    kept = store.load(crew, key, len(texts))
    if kept is not None:
        encoder.adopt(texts, kept)
        return True
    store.save(crew, key, encoder.embed(texts))
    return False


def default_store() -> EmbeddingStore | None:
    folder = cache_dir()
    return EmbeddingStore(folder) if folder is not None else None


def _safe(name: str) -> str:
    """A crew name as a file name part (crew names are identifiers; anything else is mapped)."""
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in name)[:64] or "crew"
