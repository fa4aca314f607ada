"""Fuzz the gate with hostile variants of real plans (both packaged crews), and print plans tried /
accepted / refused / exceptions / invariant violations (see ``crewgate.testing.fuzz``).

    .venv/bin/python benchmarks/fuzz_gate.py --plans 100000 [--seed 0] [--json PATH]

Seeds: the reference plans of the packaged suites and the study's recorded plans
(tests/corpus/study). The bar is 0 exceptions and 0 violations; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from crewgate.spec import load_crew
from crewgate.suites.scenarios import load_suite
from crewgate.testing.fuzz import Fuzzer, Seed, suite_seeds

REPO = Path(__file__).resolve().parent.parent
CREWS = ("sar", "g1_go2")


def corpus_seeds() -> list[Seed]:
    """The study's recorded plans, with their scenarios' requests."""
    out = []
    for crew in CREWS:
        requests = {s.id: s.request for s in load_suite(crew, "study").scenarios}
        for path in sorted((REPO / "tests" / "corpus" / "study" / crew).glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                output = record["output"]
                if isinstance(output, dict) and record["scenario"] in requests:
                    out.append(Seed(crew, requests[record["scenario"]], output))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plans", type=int, default=10_000, help="plans to try")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed")
    parser.add_argument("--json", type=Path, default=None, help="also write the tally here")
    args = parser.parse_args(argv)
    seeds = suite_seeds(CREWS) + corpus_seeds()
    fuzzer = Fuzzer({c: load_crew(c) for c in CREWS}, seeds, seed=args.seed)
    start = time.perf_counter()
    tally = fuzzer.run(args.plans)
    elapsed = time.perf_counter() - start
    print(f"seeds {len(seeds)} (suite reference plans and the study's recorded plans)")
    print(f"plans tried {tally.tried:,}  accepted {tally.accepted:,}  refused {tally.refused:,}  "
          f"executed on the simulator {tally.executed:,}")
    print(f"exceptions {len(tally.exceptions)}  invariant violations {len(tally.violations)}")
    print(f"{elapsed:.1f} s, {1e6 * elapsed / max(tally.tried, 1):.0f} us per plan")
    for line in [*tally.exceptions, *tally.violations][:20]:
        print(f"  {line}")
    if args.json is not None:
        args.json.write_text(json.dumps(tally.to_json(), indent=2), encoding="utf-8")
    ok = not tally.exceptions and not tally.violations
    print(f"fuzz {tally.tried:,} plans: 0 exceptions and 0 violations (target): "
          f"{'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
