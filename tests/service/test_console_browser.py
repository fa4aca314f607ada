"""The web console in a real browser: Debian's Chromium driven by Playwright, against
``crewgate serve`` run as a separate process (the way an operator starts it), with users from a
token file.

What an operator does on the console, end to end: submit a request, read the plan with each
step's verdict and reason, approve, watch the rover reach the victim fix on the map, see the
mission complete; write one's own plan, read the gate's reasons for refusing it, send the
corrected one, withdraw it; a viewer cannot approve (the button says why, the API says 403); the
e-stop halts a running mission and the drone lands, an admin releases it; a step refused at its
dispatch shows its code in the plan and the safe fallback in the timeline.

Waits are Playwright's (generous timeouts, never a sleep); values are asserted exactly where the
server states them. ``CREWGATE_SCREENSHOTS=1`` also writes the documentation images
``docs/img/console-plan.png`` and ``docs/img/console-map.png``.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from crewgate.service.auth import token_line
from tests.conftest import SAD

try:
    from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the browser tests need Playwright: pip install 'crewgate[browser]'",
                allow_module_level=True)

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:  # pragma: no cover - depends on the machine
    pytest.skip("the browser tests need Debian's chromium: apt-get install -y chromium",
                allow_module_level=True)

pytest.importorskip("uvicorn", reason="crewgate serve needs uvicorn: pip install 'crewgate[serve]'")

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
USERS = {"alice": "operator", "bob": "operator", "vic": "viewer", "ada": "admin"}
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SCREENSHOTS = os.environ.get("CREWGATE_SCREENSHOTS") == "1"
VIEWPORT: ViewportSize = {"width": 1280, "height": 1000}  # a laptop, a tablet on its side
PORTRAIT: ViewportSize = {"width": 800, "height": 1280}  # a tablet, upright
START_S = 60.0  # the server's start (the planner loads), on a busy machine
WAIT_MS = 60_000  # Playwright's waits: generous, they return as soon as the page is right
ARRIVAL_M = 0.5  # navigate_to arrives within 0.5 m of its goal
DISPATCH = "Move the ground robot to x 8, y -4."  # dispatch_only: accepted in any world state
DISPATCH_PLAN = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 8, "y": -4}}]}
# the wrong point, and a step for a robot the workflow and the request leave out
WRONG_PLAN = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 8, "y": 40}},
    {"robot": "iris", "skill": "land", "args": {}}]}
WRONG_REASONS = [
    ["tb3.navigate_to: goal (8, 40) is outside the operational area x [-6, 10] y [-6, 10]",
     "tb3.navigate_to: goal (8, 40) is not what the request states"],
    ["iris.land: robot 'iris' takes no part in workflow 'dispatch_only' (its robots: tb3)",
     "nothing in the request asks for iris.land: it names neither iris nor this action, and no "
     "value it states goes into it"]]


@dataclass
class Server:
    """``crewgate serve sar`` in a subprocess, and the users of its token file."""

    url: str  # http://127.0.0.1:PORT/
    tokens: dict[str, str]  # user -> token
    log: list[str]  # what it printed on stderr

    def console(self, user: str) -> str:
        return f"{self.url}#token={self.tokens[user]}"

    def api(self, method: str, path: str, user: str,
            body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url.rstrip("/") + path, data=data, method=method,
            headers={"Authorization": f"Bearer {self.tokens[user]}",
                     "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


def _serve(tmp: Path, *args: str) -> Iterator[Server]:
    tmp.mkdir(parents=True, exist_ok=True)
    tokens = {name: f"{name}-token-{os.urandom(16).hex()}" for name in USERS}
    token_file = tmp / "tokens"
    token_file.write_text("".join(token_line(n, r, tokens[n]) for n, r in USERS.items()),
                          encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CREWGATE_TOKENS",
                                                             "CREWGATE_JOURNAL")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "crewgate", "serve", "sar", "--port", "0", "--tokens",
         str(token_file), "--journal", str(tmp / "journal.sqlite3"), *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env)
    lines: queue.Queue[str | None] = queue.Queue()
    log: list[str] = []

    def drain() -> None:  # keeps reading, so that the server never blocks on a full pipe
        assert proc.stderr is not None
        for line in proc.stderr:
            log.append(line)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=drain, daemon=True).start()
    url = None
    try:
        while url is None:
            try:
                line = lines.get(timeout=START_S)
            except queue.Empty:
                pytest.fail(f"crewgate serve printed no URL within {START_S:g} s: {log}")
            if line is None:
                pytest.fail(f"crewgate serve ended before it listened: {''.join(log)}")
            found = re.search(r"console: (http://\S+/) ", line)
            url = found.group(1) if found else None
        yield Server(url, tokens, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def approving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Every mission waits for an operator's approval; 10 simulated seconds per second (the
    service's dispatch window, 0.5 simulated seconds, is 50 ms of wall time at this pace: faster
    paces risk authorization_expired when the machine is busy)."""
    yield from _serve(tmp_path_factory.mktemp("approving"), "--speed", "10",
                      "--approval", "required")


@pytest.fixture
def unattended(tmp_path: Path) -> Iterator[Server]:
    """Missions start at once, on a fresh world; 5 simulated seconds per second (slow enough
    to press the e-stop while the drone searches)."""
    yield from _serve(tmp_path, "--speed", "5")


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[Server]:
    """The rover drops out while the drone searches (the README's fault), 10 simulated seconds
    per second."""
    yield from _serve(tmp_path, "--speed", "10", "--fault", "robot_unavailable:tb3@search_target")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORT)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    opened.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
              if m.type == "error" else None)
    yield opened
    context.close()
    # a 4xx the test provoked on purpose shows as a failed resource load; nothing else may fail
    assert [p for p in problems if "status of 403" not in p and "status of 401" not in p] == []


def _sign_in(page: Page, server: Server, user: str) -> None:
    page.goto(server.console(user))
    expect(page.locator("#whoami")).to_have_text(f"{user} · {USERS[user]}", timeout=WAIT_MS)
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live",
                                                            timeout=WAIT_MS)


def _status(page: Page, status: str, server: Server | None = None, mission: str = "") -> None:
    """Wait until the console shows the mission in ``status``; if it does not, say why the
    server has it otherwise (its reason and codes)."""
    try:
        expect(page.locator("#mission-status")).to_have_attribute("data-status", status,
                                                                  timeout=WAIT_MS)
    except AssertionError:
        if server is None:
            raise
        _, detail = server.api("GET", f"/api/missions/{mission}", "alice")
        raise AssertionError(f"mission {mission} is {detail.get('status')}, not {status}: "
                             f"{detail.get('reason')} {detail.get('codes')}") from None


def _marker(page: Page, selector: str) -> tuple[float, float]:
    x, y = page.eval_on_selector(selector, "g => [g.dataset.x, g.dataset.y]")
    return float(x), float(y)


def _screenshot(page: Page, name: str, height: int = VIEWPORT["height"]) -> None:
    if SCREENSHOTS:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": VIEWPORT["width"], "height": height})
        page.screenshot(path=str(DOCS_IMG / name))
        page.set_viewport_size(VIEWPORT)


def test_submit_approve_and_watch_the_rover_reach_the_victim(approving: Server,
                                                             page: Page) -> None:
    _sign_in(page, approving, "alice")
    # the token left the address bar; the tab keeps it
    assert "token" not in page.url
    assert page.evaluate("sessionStorage.getItem('crewgate.token')") == approving.tokens["alice"]
    options = page.locator("#planner option")
    assert options.all_text_contents() == ["exemplar", "my own plan (JSON)"]

    page.fill("#request", SAD)
    page.click("#submit")
    _status(page, "awaiting_approval")
    mission = page.locator("#mission-id").inner_text()
    expect(page.locator("#mission-status")).to_have_text("AWAITING APPROVAL")
    expect(page.locator("#plan-caption")).to_have_text(
        "Attempt 1 · workflow search_and_dispatch · the gate accepted the plan")
    rows = page.locator("#plan-rows tr")
    expect(rows).to_have_count(3)
    assert rows.locator("td.step").all_text_contents() == [
        "iris.takeoff", "iris.search_target", "tb3.navigate_to"]
    assert rows.locator("td:nth-child(3)").all_text_contents() == [
        "", "x_min=-5.5x_max=5.5y_min=-5.5y_max=5.5", "target=victim"]
    assert rows.locator("td:nth-child(4)").all_text_contents() == ["✔ ok"] * 3
    assert rows.locator("td:nth-child(5)").all_text_contents() == ["accepted"] * 3
    expect(page.locator("[data-fact='submitted by']")).to_have_text("alice")
    expect(page.locator("[data-fact='approval']")).to_have_text("required")
    expect(page.locator("#approve")).to_be_enabled()
    expect(page.locator("#layer-plan rect.zone")).to_have_count(1)  # the search zone, drawn
    _screenshot(page, "console-plan.png")

    page.click("#approve")
    expect(page.locator("#decisions li.decision")).to_have_text(
        re.compile(r"^approved by alice at "), timeout=WAIT_MS)
    # the stream drops while the mission's events flow; it resumes from the last event it
    # saw: none lost, none twice
    page.evaluate("window.crewgate.dropStream()")
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live",
                                                            timeout=WAIT_MS)
    _status(page, "completed", approving, mission)
    expect(page.locator("#mission-status")).to_have_text("COMPLETED")
    expect(page.locator("#plan-rows td:nth-child(6)")).to_have_text(["succeeded"] * 3)

    # the map: the rover where the journal says it arrived, within 0.5 m of the victim fix
    status, events = approving.api("GET", f"/api/missions/{mission}/events", "alice")
    assert status == 200
    arrived = next(e["data"]["result"]["arrived"] for e in events
                   if e["kind"] == "result" and e["skill"] == "navigate_to")
    fix = next(e["data"]["result"]["fix"] for e in events
               if e["kind"] == "result" and e["skill"] == "search_target")
    page.wait_for_function(
        "([x, y]) => { const g = document.querySelector('[data-robot=tb3]');"
        " return g && Number(g.dataset.x) === x && Number(g.dataset.y) === y; }",
        arg=arrived, timeout=WAIT_MS)
    rover = _marker(page, "#layer-robots [data-robot=tb3]")
    victim = _marker(page, "#layer-bindings [data-binding=victim]")
    assert victim == (round(fix[0], 3), round(fix[1], 3))
    assert math.dist(rover, victim) <= ARRIVAL_M + 0.01
    expect(page.locator("#bindings li")).to_have_text(re.compile(
        r"^victim at \(5\.01, 4\.84\), published by iris, confidence 90%"))
    trail = page.get_attribute("#layer-trails [data-trail=tb3]", "points") or ""
    assert len(trail.split()) > 10  # the rover's path is drawn

    # the timeline holds exactly the mission's journal events, in order
    timeline = page.locator("#timeline li")
    expect(timeline).to_have_count(len(events), timeout=WAIT_MS)
    assert [int(i) for i in timeline.evaluate_all("els => els.map(e => e.dataset.id)")] == [
        e["id"] for e in events]
    assert timeline.evaluate_all("els => els.map(e => e.dataset.kind)") == [
        e["kind"] for e in events]
    streamed: list[int] = page.evaluate("window.crewgate.streamLog()")
    assert streamed == sorted(set(streamed))  # none twice, in the journal's order
    assert {e["id"] for e in events} <= set(streamed)  # none lost across the drop

    row = page.locator(f"#history-rows tr[data-mission='{mission}']")
    expect(row.locator(".status")).to_have_text("COMPLETED")
    expect(row.locator("td.by")).to_have_text("alice")
    _screenshot(page, "console-map.png", height=1420)  # the map and the whole timeline


def test_my_own_plan_refused_with_reasons_then_corrected(approving: Server,
                                                         page: Page) -> None:
    _sign_in(page, approving, "alice")
    page.fill("#request", DISPATCH)
    page.select_option("#planner", "__own__")
    expect(page.locator("#plan-json")).to_be_visible()
    page.fill("#plan-json", "{not json")
    page.click("#submit")
    expect(page.locator("#error-text")).to_contain_text("Submitting failed: the plan is not JSON")
    page.fill("#plan-json", json.dumps(WRONG_PLAN))

    # the gate's verdict without moving anything
    page.click("#check")
    expect(page.locator("#check-result strong")).to_have_text("The gate would refuse this plan:",
                                                              timeout=WAIT_MS)
    expect(page.locator("#check-result li code")).to_have_text(
        ["out_of_bounds", "substituted_value", "bad_assignment", "unrequested_step"])

    page.click("#submit")
    _status(page, "refused")
    mission = page.locator("#mission-id").inner_text()
    expect(page.locator("[data-fact='planner']")).to_have_text("client")
    expect(page.locator("#plan-caption")).to_have_text(
        "Attempt 1 · workflow dispatch_only · the gate refused the plan")
    rows = page.locator("#plan-rows tr")
    expect(rows).to_have_count(2)
    assert rows.locator("td:nth-child(4)").all_text_contents() == [
        "✖ out_of_bounds, substituted_value", "✖ bad_assignment, unrequested_step"]
    for index, reasons in enumerate(WRONG_REASONS):
        assert rows.nth(index).locator("td:nth-child(5) div").all_text_contents() == reasons
    assert rows.locator("td:nth-child(6)").all_text_contents() == ["", ""]  # nothing moved
    expect(page.locator("#mission-reason")).to_have_text(
        "the gate refused the plan; fix what the feedback names and submit again with "
        f"mission={mission!r} (1 attempt left)")

    # the corrected plan, as the mission's second attempt
    page.fill("#plan-json", json.dumps(DISPATCH_PLAN))
    expect(page.locator("#resubmit")).to_have_text(f"Send as next attempt for {mission} (1 left)")
    page.click("#resubmit")
    _status(page, "awaiting_approval")
    expect(page.locator("#plan-caption")).to_have_text(
        "Attempt 2 · workflow dispatch_only · the gate accepted the plan")
    expect(page.locator("#plan-rows td:nth-child(5)")).to_have_text(["accepted"])

    # withdrawn before anyone approved it: nothing moves, and it says who
    page.click("#cancel")
    _status(page, "cancelled")
    expect(page.locator("#mission-reason")).to_have_text("withdrawn by alice before approval")
    expect(page.locator("#cancel")).to_be_hidden()


def test_a_viewer_cannot_approve(approving: Server, page: Page) -> None:
    status, submitted = approving.api("POST", "/api/missions", "bob",
                                      {"request": DISPATCH, "wait_s": 30})
    assert (status, submitted["status"]) == (202, "awaiting_approval")
    mission = submitted["mission"]
    hostile = '<img src=x onerror="window.owned=1"> & <b>bold</b>'
    status, _ = approving.api("POST", "/api/missions", "bob", {"request": hostile})
    assert status == 202

    page.set_viewport_size(PORTRAIT)  # on a tablet, upright
    # no token in the URL: the console asks for one, and says what is wrong with a bad one
    page.goto(approving.url)
    expect(page.locator("#signin")).to_be_visible(timeout=WAIT_MS)
    page.fill("#signin-token", "not-a-token")
    page.click("#signin-go")
    expect(page.locator("#signin-error")).to_have_text("the token is not known here",
                                                       timeout=WAIT_MS)
    page.fill("#signin-token", approving.tokens["vic"])
    page.click("#signin-go")
    expect(page.locator("#whoami")).to_have_text("vic · viewer", timeout=WAIT_MS)
    expect(page.locator("#submit")).to_be_disabled()
    expect(page.locator("#submit")).to_have_attribute(
        "title", "vic is a viewer: submitting needs the operator role")
    expect(page.locator("#estop")).to_be_enabled()  # every role may stop the robots
    expect(page.locator("#release")).to_be_hidden()

    # text from the server is text: the hostile request is shown as written, and runs nothing
    expect(page.locator("#history-rows td.clip", has_text="onerror")).to_have_text(
        hostile, timeout=WAIT_MS)
    assert page.locator("#app img, #app b").count() == 0
    assert page.evaluate("window.owned") is None

    page.click(f"#history-rows tr[data-mission='{mission}']")
    _status(page, "awaiting_approval")
    expect(page.locator("[data-fact='submitted by']")).to_have_text("bob")
    why = "vic is a viewer: approving and rejecting need the operator role"
    for button in ("#approve", "#reject"):
        expect(page.locator(button)).to_be_visible()
        expect(page.locator(button)).to_be_disabled()
        expect(page.locator(button)).to_have_attribute("title", why)
    expect(page.locator("#action-note")).to_contain_text("you cannot approve")

    # the page fits the tablet's width, and the e-stop stays on screen wherever it scrolls
    assert page.evaluate("document.documentElement.scrollWidth") <= PORTRAIT["width"]
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    box = page.locator("#estop").bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= PORTRAIT["height"]

    # the API refuses it too, and the console says so when forced to try
    status, answer = approving.api("POST", f"/api/missions/{mission}/approve", "vic")
    assert (status, answer) == (403, {"error": {
        "code": "forbidden", "detail": "vic is a viewer; this needs the operator role"}})
    page.eval_on_selector("#approve", "b => { b.disabled = false; }")
    page.click("#approve")
    expect(page.locator("#error-text")).to_have_text(
        f"Approving {mission} failed: 403 forbidden: vic is a viewer; this needs the operator "
        "role", timeout=WAIT_MS)

    # who decided is shown, live: bob's colleague alice rejects it
    status, _ = approving.api("POST", f"/api/missions/{mission}/reject", "alice")
    assert status == 200
    _status(page, "denied")
    expect(page.locator("#decisions li.decision")).to_have_text(
        re.compile(r"^denied by alice at "), timeout=WAIT_MS)
    expect(page.locator("#mission-reason")).to_have_text("denied by alice: nothing moved")


def test_the_estop_halts_the_mission_and_lands_the_drone(unattended: Server, page: Page,
                                                        browser: Browser) -> None:
    _sign_in(page, unattended, "alice")
    page.fill("#request", SAD)
    page.click("#submit")
    _status(page, "running")
    mission = page.locator("#mission-id").inner_text()
    iris = page.locator("#layer-robots [data-robot=iris]")
    expect(iris).to_have_attribute("data-airborne", "true", timeout=WAIT_MS)

    page.click("#estop")
    _status(page, "halted", unattended, mission)
    expect(page.locator("#estop-banner")).to_have_text(
        "E-STOP ENGAGED for the whole crew: e-stop engaged by alice — an admin must release it.",
        timeout=WAIT_MS)
    expect(page.locator("#estop")).to_have_text("E-STOP ENGAGED")
    expect(page.locator("#release")).to_be_hidden()  # alice is an operator
    # the drone runs its own safe stop: it lands where it is
    expect(iris).to_have_attribute("data-airborne", "false", timeout=WAIT_MS)
    expect(iris.locator(".robot-label")).to_have_text("iris · landed")
    expect(page.locator("#robot-rows tr[data-robot=iris] .robot-state")).to_contain_text(
        "landed")
    expect(page.locator("#timeline li[data-kind=halt]")).to_contain_text(
        "e-stop engaged by alice", timeout=WAIT_MS)
    expect(page.locator("#timeline li[data-kind=mission_ended]")).to_contain_text("halted")
    status, robots = unattended.api("GET", "/api/robots", "alice")
    assert status == 200
    assert robots["robots"]["iris"]["airborne"] is False
    assert robots["estop"]["crew"] == "e-stop engaged by alice"

    # one robot's own stop, from its row on the map panel
    page.click("#robot-rows button.estop[data-robot=tb3]")
    expect(page.locator("#estop-banner")).to_have_text(
        "E-STOP ENGAGED for the whole crew: e-stop engaged by alice · tb3 stopped: e-stop "
        "engaged by alice for tb3 — an admin must release it.", timeout=WAIT_MS)
    release_tb3 = page.locator("#robot-rows tr[data-robot=tb3] button.release")
    expect(release_tb3).to_be_disabled()
    expect(release_tb3).to_have_attribute("title", "Releasing the e-stop needs the admin role")

    # an admin releases it, from the console
    context = browser.new_context(viewport=VIEWPORT)
    try:
        admin = context.new_page()
        _sign_in(admin, unattended, "ada")
        expect(admin.locator("#release")).to_be_visible(timeout=WAIT_MS)
        admin.click("#release")
        expect(admin.locator("#estop-banner")).to_be_hidden(timeout=WAIT_MS)
        expect(admin.locator("#estop")).to_have_text("E-STOP")
    finally:
        context.close()
    expect(page.locator("#estop-banner")).to_be_hidden(timeout=WAIT_MS)
    status, robots = unattended.api("GET", "/api/robots", "alice")
    assert robots["estop"] == {"crew": None, "robots": {}}  # the crew's and tb3's


def test_a_step_refused_at_its_dispatch_and_the_fallback(faulty: Server, page: Page) -> None:
    _sign_in(page, faulty, "alice")
    page.fill("#request", SAD)
    page.click("#submit")
    _status(page, "running")
    mission = page.locator("#mission-id").inner_text()
    _status(page, "halted", faulty, mission)
    # the plan was accepted whole; its last step was refused when it was to be dispatched
    expect(page.locator("#plan-rows td:nth-child(5)")).to_have_text(["accepted"] * 3)
    expect(page.locator("#plan-rows td:nth-child(6)")).to_have_text(
        ["succeeded", "succeeded", "refused at dispatch: robot_unavailable"], timeout=WAIT_MS)
    expect(page.locator("#mission-reason")).to_have_text(
        "step 2 tb3.navigate_to was refused at its dispatch")
    expect(page.locator("[data-fact='codes']")).to_have_text("robot_unavailable")
    # the safe fallback landed the drone, and says so
    fallback = page.locator("#timeline li[data-kind=fallback]")
    expect(fallback.locator(".ev-step")).to_have_text("iris.land", timeout=WAIT_MS)
    expect(fallback.locator(".ev-detail")).to_have_text("dispatched")
    expect(page.locator("#decisions li")).to_have_text([
        "dispatched iris.takeoff: succeeded", "dispatched iris.search_target: succeeded",
        "fallback iris.land: succeeded"], timeout=WAIT_MS)
    expect(page.locator("#layer-robots [data-robot=iris]")).to_have_attribute(
        "data-airborne", "false", timeout=WAIT_MS)
    expect(page.locator("#layer-robots [data-robot=tb3]")).to_have_class(
        re.compile(r"\bdown\b"), timeout=WAIT_MS)
    expect(page.locator("#robot-rows tr[data-robot=tb3] .robot-state")).to_have_text(
        "unavailable · down")
