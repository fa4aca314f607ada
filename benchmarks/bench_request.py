"""Benchmark: reading a request, ``RequestFacts.read``, on adversarial requests of growing length.

What is measured: the time to read requests of 1,000, 10,000, 100,000 and 1,000,000 characters
made of one adversarial pattern repeated (a long run of spaces, of digits, of "x ", of
"from 1 to ", of "(1,", of punctuation, of non-ASCII letters and combining marks, of
typographic marks (dashes written for a minus, zero-width spaces, curly apostrophes), of
negations and retractions, of negated points, of subjects dropped ("searching ... is not
needed") and actions passed over ("skip landing"), of one clause of robots, actions, places and
quantities, nested brackets, phrase triggers; and, for reference, requests dense with real
ranges and points, whose output grows with them). Each reading is timed on its own with
``time.perf_counter_ns``, cold: the readings and the gaps kept across requests are forgotten
first (a request up to 4,000 characters is otherwise read once and kept: a repeated timing would
measure the cache); the table gives the median per length and the time per character at 1 M
divided by the time per character at 1 k and at 100 k: a linear reader keeps these ratios near
1 (below 1 where fixed costs weigh on short requests). The reader before issue 9 took 45-64 s
for "x" and 1,000 spaces (cubic growth) and never finished with 3,000.

A second table (informational) times every other reader of a request on the gate's and the
offline planner's path at 1 M characters (100 k with ``--quick``): the crews' name mentions, the
phrase readers, the exemplar planner's cues and masking.

A third table times the request read into what it asks (``Intent.read``: robots named and ruled
out, actions, places, stated values, negation scopes; issue 10) for both packaged crews at 1,000,
10,000 and 100,000 characters, with the per-character ratio 100 k / 1 k, cold like the first.

Targets: a 100,000-character request is read in under 1 s, whatever it holds, by
``RequestFacts.read`` (issue 9) and by ``Intent.read`` (issue 10).

Run: ``.venv/bin/python benchmarks/bench_request.py [--quick] [--profile] [--json PATH]``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial

from benchlib import (
    Report,
    Stats,
    fmt,
    in_unit,
    parse_args,
    print_header,
    profile_calls,
    table,
    time_calls,
)

from crewgate.planners.exemplar.cues import Cues
from crewgate.planners.exemplar.phrases import delexicalize, sentences
from crewgate.spec import Crew, load_crew
from crewgate.text.phrases import DEST, OBJECT, SOURCE, attached_number, candidates, quote
from crewgate.text.request import RequestFacts, forget_readings

TARGET_MS = 1000.0
TARGET_LENGTH = 100_000
LENGTHS = (1_000, 10_000, 100_000, 1_000_000)


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


KINDS: dict[str, Callable[[int], str]] = {
    "x and spaces": lambda n: "x" + " " * (n - 1),
    "digits": _repeat("1"),
    '"x "': _repeat("x "),
    '"from 1 to "': _repeat("from 1 to "),
    '"(1,"': _repeat("(1,"),
    "punctuation": _repeat(",.;:!?-–—…=∈"),
    "numbers and signs": _repeat("1 -.+1.2.. "),
    "non-ASCII letters": _repeat("会议室 Café "),
    "combining marks": _repeat("कमरा "),
    # what a request reads past or maps (crewgate.text.words.clean): en dashes and minus signs
    # written for a minus, zero-width spaces, soft hyphens, curly apostrophes, fullwidth commas
    "negations and retractions": _repeat("don't send the rover, no wait, never mind "),
    "negated points": _repeat("avoid (1, 2) and not x 3, y 4; "),
    "robots, actions and places": _repeat("send the dog and the drone to the charger "),
    "actions and quantities": _repeat("take off to 3 m and land "),
    # a whole that stays but for an exception (each robot's exception is looked up, not scanned)
    "a whole and its exception": _repeat("all robots except the drone stay; "),
    # subjects dropped by what follows them, and actions passed over (each a scope of its own)
    "dropped and passed over": _repeat("searching x 1 to 2, y 3 is not needed, skip landing; "),
    "questions": _repeat("is the rover able to? what if, rover, can you tell me "),
    "what happened and for later": _repeat(
        "the rover drove there yesterday and send it tomorrow at 3 pm in 10 minutes "
        "after the meeting, once our today's storm "),
    # who else does it: a reflexive far from its subject, people told and moving, in one
    # sentence (each part ends at the imperative after it)
    "left to someone else": _repeat(
        "we land it myself, search tell the medics to go, drive the visitors are walking "),
    # states kept and let go ("stay airborne", "don't stay airborne"), each verb looked at once
    "states kept and let go": _repeat("don't stay airborne, keep hovering, do not remain aloft "),
    # questions said as statements, of what may have been, and bare prohibitions after
    # interjections (each looked back over once)
    "wondering and bare prohibitions": _repeat(
        "i wonder if you could have reached no wait no no don't. could it have gone "),
    # corrections, dismissals, robots kept out of places, bounds before points, plans then run
    # (each cue looked at over a few words)
    "corrections and dismissals": _repeat(
        "room_a... actually, room_b. rover? leave it. keep the dog out of room_a, no further "
        "than x 2, y 3, make a plan then execute it when i give the word. no. rover? "
        "absolutely not. y minus 3, avoid x 0 to 5, y 0 to 5, max altitude 4 m. take off to "
        "3 m, no, 4 m. cancel! forget the rover. no, don't stop the drone. "),
    # coordinates spelled in words, each written in digits once
    "spelled coordinates": _repeat("x two, y minus three point five, x from zero to five "),
    "typographic marks": _repeat("x \u20131\uff0c y \u22122 \u200bdon\u2019t ro\u00adver "),
    "nested brackets": lambda n: "([" * (n // 4) + "])" * (n // 4),
    "phrase triggers": _repeat("bring me the to the "),
    "ranges (reference)": _repeat("x from 1 to 2, y in [3, 4]; "),
    "points (reference)": _repeat("(7.5, 4.0) "),
}


def repetitions(length: int, quick: bool) -> int:
    full = {1_000: 300, 10_000: 60, 100_000: 10, 1_000_000: 3}[length]
    return max(1, full // 10) if quick else full


def other_readers() -> dict[str, Callable[[str], object]]:
    sar, g1 = load_crew("sar"), load_crew("g1_go2")
    places, things = g1.context.locations, g1.context.objects

    def mentions(text: str) -> object:
        facts = RequestFacts.read(text)
        return [v.named_in(facts) for v in (places, things)]

    return {
        "read + name mentions (g1_go2)": mentions,
        "candidates(DEST)": lambda t: list(candidates(DEST, t)),
        "quote(SOURCE), quote(OBJECT)": lambda t: (
            quote(SOURCE, t, places, known_only=True), quote(OBJECT, t, places)),
        "attached_number": lambda t: attached_number("altitude", t),
        "Cues.read (sar)": lambda t: Cues.read(sar, t),
        "Cues.read (g1_go2)": lambda t: Cues.read(g1, t),
        "delexicalize (g1_go2)": lambda t: delexicalize(t, places, things),
        "sentences": sentences,
    }


def intent_table(report: Report) -> None:
    """``Intent.read`` at growing lengths, each kind of request, both crews (one reading each
    at 100 k, the median of several below)."""
    lengths = LENGTHS[:3]
    crews = [load_crew("sar"), load_crew("g1_go2")]
    for crew in crews:
        crew.intent.read("warm up: don't send the dog to the charger; take off to 6 m")
    print(f"\nIntent.read (issue 10), {', '.join(f'{n:,}' for n in lengths)} characters")
    rows, worst, steepest = [], ("", 0.0), ("", 0.0)
    for kind, make in KINDS.items():
        for crew in crews:
            per_char, cells = {}, []
            for n in lengths:
                text = make(n)
                stats = Stats.of(time_calls(partial(cold_intent, crew, text), warmup=0,
                                            repeat={1_000: 20, 10_000: 5, 100_000: 1}[n]))
                per_char[n] = stats.median_ns / n
                cells.append(fmt(in_unit(stats.median_ns, "ms"), 1))
            at = in_unit(per_char[lengths[-1]] * lengths[-1], "ms")
            ratio = per_char[lengths[-1]] / per_char[lengths[0]]
            worst = max(worst, (f"{kind} ({crew.name})", at), key=lambda r: r[1])
            steepest = max(steepest, (f"{kind} ({crew.name})", ratio), key=lambda r: r[1])
            rows.append([kind, crew.name, *cells, fmt(ratio, 2)])
    print(table(["request", "crew", *(f"{n:,} ms" for n in lengths), "100k/1k"], rows))
    report.figure(f"Intent.read per-char time 100k / 1k, highest ({steepest[0]})",
                  steepest[1], "x")
    report.target(f"Intent.read of {TARGET_LENGTH:,} characters, slowest ({worst[0]})",
                  worst[1], "ms", "<=", TARGET_MS)


def cold_intent(crew: Crew, text: str) -> object:
    """One ``Intent.read`` of the text with no request facts kept (a short request's are, and
    a repeated timing would measure the cache)."""
    forget_readings()
    return crew.intent.read(text)


def cold_read(text: str) -> RequestFacts:
    """One reading of the text from nothing kept (``forget_readings`` is a dictionary clear)."""
    forget_readings()
    return RequestFacts.read(text)


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    print_header("bench_request: RequestFacts.read on adversarial requests",
                 "median of " + ", ".join(f"{repetitions(n, args.quick):,} at {n:,}"
                                          for n in LENGTHS) + " characters, after warm-up.")
    report = Report("request")
    RequestFacts.read("warm up: x from 1 to 2, y in [3, 4]; (1, 2) on both axes")
    rows: list[list[str]] = []
    at_target: dict[str, float] = {}
    ratios: dict[str, float] = {}
    for kind, make in KINDS.items():
        per_char: dict[int, float] = {}
        cells = []
        for n in LENGTHS:
            text = make(n)
            reps = repetitions(n, args.quick)
            stats = Stats.of(time_calls(partial(cold_read, text), warmup=1, repeat=reps))
            per_char[n] = stats.median_ns / n
            cells.append(fmt(in_unit(stats.median_ns, "ms"), 2))
            if n == TARGET_LENGTH:
                at_target[kind] = in_unit(stats.median_ns, "ms")
        report.figure(f"read 1M chars of {kind}, median", in_unit(stats.median_ns, "ms"), "ms")
        shortest, longest = per_char[LENGTHS[0]], per_char[LENGTHS[-1]]
        ratio = longest / shortest
        ratios[kind] = ratio
        rows.append([kind, *cells, fmt(longest, 0), fmt(ratio, 2),
                     fmt(longest / per_char[TARGET_LENGTH], 2)])
    print(table(["request", *(f"{n:,} ms" for n in LENGTHS), "ns/char 1M", "1M/1k",
                 "1M/100k"], rows))
    steepest = max(ratios, key=lambda k: ratios[k])
    report.figure(f"per-char time 1M / 1k, highest ({steepest})", ratios[steepest], "x")
    slowest = max(at_target, key=lambda k: at_target[k])
    report.target(f"read {TARGET_LENGTH:,}-character request, slowest ({slowest})",
                  at_target[slowest], "ms", "<=", TARGET_MS)

    intent_table(report)

    size = LENGTHS[-2] if args.quick else LENGTHS[-1]
    print(f"\nOther readers of a request (informational), {size:,} characters, one reading each")
    readers = other_readers()
    for reader in readers.values():
        reader("warm up: to the charger, bring me the cube, altitude 5")
    texts = {kind: make(size) for kind, make in KINDS.items()}
    other_rows = []
    slowest_other = ("", 0.0)
    for name, reader in readers.items():
        times = {kind: Stats.of(time_calls(partial(reader, text), warmup=0, repeat=1))
                 for kind, text in texts.items()}
        worst = max(times, key=lambda k: times[k].median_ns)
        seconds = in_unit(times[worst].median_ns, "s")
        other_rows.append([name, fmt(seconds, 2), worst])
        slowest_other = max(slowest_other, (f"{name} on {worst}", seconds), key=lambda r: r[1])
    print(table(["reader", "slowest s", "on"], other_rows))
    report.figure(f"other readers, {size:,} chars, slowest: {slowest_other[0]}",
                  slowest_other[1], "s")

    if args.profile:
        text = KINDS['"(1,"'](TARGET_LENGTH)
        profile_calls(f'RequestFacts.read of {TARGET_LENGTH:,} chars of "(1,"',
                      lambda: RequestFacts.read(text), 5)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
