"""The operator service's HTTP API, in process (and over loopback for the event stream): every
resource, role and bad input; missions, approval, concurrency, e-stop."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from crewgate.journal import EventKind
from crewgate.service.desk import SubmitError
from tests.conftest import SAD, SAD_PLAN, plan
from tests.service.conftest import Make, Service, auth

ZONE = {"x_min": -3, "x_max": 3, "y_min": -3, "y_max": 3}
SEARCH = ("Fly the drone over x from -3 to 3, y from -3 to 3 and check for people, then come "
          "back down. Keep the rover parked.")
SEARCH_PLAN = plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", ZONE),
                   ("iris", "land", {}))


def drive(x: float, y: float) -> tuple[str, dict[str, Any]]:
    return (f"Move the ground robot to x {x}, y {y}.",
            plan("dispatch_only", ("tb3", "navigate_to", {"x": x, "y": y})))


def ended(detail: dict[str, Any]) -> bool:
    return detail["status"] in ("completed", "halted", "denied", "cancelled", "refused",
                                "crashed")


# -- who may do what ------------------------------------------------------------------------------

CALLS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/me", None), ("GET", "/api/crew", None), ("GET", "/api/robots", None),
    ("GET", "/api/missions", None), ("POST", "/api/check", {"request": SAD, "plan": SAD_PLAN}),
    ("POST", "/api/missions", {"request": "Move the ground robot to x 1, y 1."}),
    ("POST", "/api/missions/mnone/approve", None), ("POST", "/api/missions/mnone/reject", None),
    ("POST", "/api/missions/mnone/cancel", None), ("POST", "/api/estop", {"robot": "tb3"}),
    ("POST", "/api/estop/release", {"robot": "tb3"}), ("GET", "/api/access", None),
]


def test_every_call_needs_a_token_and_the_role_for_it(make_service: Make) -> None:
    svc = make_service()
    seen: dict[str | None, list[int]] = {}
    for user in (None, "vic", "alice", "ada"):
        seen[user] = [svc.call(method, path, user, json=body).status_code
                      for method, path, body in CALLS]
    # no token: 401 everywhere; a viewer reads, checks and stops; an operator also submits,
    # approves, rejects and cancels (404: no such mission); only an admin releases and audits
    assert seen[None] == [401] * len(CALLS)
    assert seen["vic"] == [200, 200, 200, 200, 200, 403, 403, 403, 403, 200, 403, 403]
    assert seen["alice"] == [200, 200, 200, 200, 200, 422, 404, 404, 404, 200, 403, 403]
    assert seen["ada"] == [200, 200, 200, 200, 200, 422, 404, 404, 404, 200, 200, 200]
    wrong = svc.client.get("/api/me", headers={"Authorization": "Bearer not-a-known-token"})
    assert (wrong.status_code, wrong.json()) == (401, {"error": {
        "code": "unauthorized", "detail": "the token is not known here"}})
    denied = [(a["user"], a["status"], a["path"]) for a in svc.journal.access(200)
              if a["status"] in (401, 403)]
    assert len(denied) == 12 + 6 + 2 + 1
    assert ("vic", 403, "/api/missions") in denied
    assert ("alice", 403, "/api/estop/release") in denied
    assert svc.call("GET", "/api/me", "vic").json() == {"user": "vic", "role": "viewer"}


def test_bad_input_is_a_4xx_naming_what_is_wrong(make_service: Make) -> None:
    svc = make_service()

    def error(body: bytes | dict[str, Any], path: str = "/api/missions",
              **headers: str) -> tuple[int, str, str]:
        kwargs: dict[str, Any] = {"json": body} if isinstance(body, dict) else {"content": body}
        answer = svc.client.post(path, headers={**auth("alice"), **headers}, **kwargs)
        found = answer.json()["error"]
        return answer.status_code, found["code"], found["detail"]

    assert error(b"{not json")[:2] == (400, "bad_request")
    assert error(b"[" * 40 + b"]" * 40) == (400, "bad_request", "the body nests 40 levels "
                                            "deep; at most 32 are read")
    assert error(b'{"request": "go", "wait_s": NaN}') == (
        400, "bad_request", "the body is not JSON: NaN is not a number crewgate reads "
        "(non-finite numbers are errors)")
    assert error(b"\xff\xfe") == (400, "bad_request",
                                  "the body is not UTF-8 (invalid start byte at byte 0)")
    assert error(b"x" * 300_000) == (413, "too_large", "the body is over 262144 bytes")
    assert error(b"[1]") == (422, "invalid", "the body must be a JSON object, not list")
    assert error({"request": "go", "robot": "tb3"}) == (
        422, "invalid", "robot: Extra inputs are not permitted")
    assert error({"request": 5}) == (422, "invalid", "request: Input should be a valid string")
    assert error({"request": "x" * 4001})[:2] == (422, "invalid")
    assert error({"request": "go\x00"}) == (
        422, "invalid", "the request contains a NUL character; give it as plain text")
    assert error({"request": "   "}) == (
        422, "invalid", "the request is empty; say what the crew should do")
    assert error({"request": SAD, "condition": "ro-prompt"})[:2] == (422, "invalid")
    assert error({"request": SAD, "planner": "openai"}) == (
        422, "invalid", "planner 'openai' is not run by this service (it runs: none); or "
        "submit your own plan")
    assert error({"request": SAD}) == (
        422, "invalid", "this server has no planner: submit a plan")
    assert error({"request": SAD, "plan": SAD_PLAN, "wait_s": 61})[:2] == (422, "invalid")
    assert error({"robot": "ufo"}, "/api/estop") == (
        422, "invalid", "no robot 'ufo' in crew sar (robots: iris, tb3)")
    missing = svc.call("GET", "/api/missions/m000000000000")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    stream = svc.client.get("/api/events", headers={**auth("vic"), "Last-Event-ID": "x1"})
    assert (stream.status_code, stream.json()["error"]["detail"]) == (
        400, "Last-Event-ID must be an event id (digits), not 'x1'")
    assert svc.call("DELETE", "/api/missions").status_code == 405
    assert svc.call("GET", "/api/nothing").json()["error"]["code"] == "not_found"
    assert svc.journal.missions() == []  # nothing was submitted, nothing moved


@pytest.mark.parametrize("wait_s", [math.nan, math.inf, -math.inf])
def test_a_wait_that_is_no_finite_number_submits_nothing(make_service: Make,
                                                         wait_s: float) -> None:
    """The agent's (MCP) path takes wait_s as the agent gives it: a NaN deadline ended every
    wait at once, the mission submitted all the same."""
    svc = make_service()
    with pytest.raises(SubmitError) as caught:
        svc.desk.submit(SAD, SAD_PLAN, wait_s=wait_s)
    assert str(caught.value) == (f"wait_s must be a finite number of seconds (0 to 600), not "
                                 f"{wait_s!r}")
    with pytest.raises(SubmitError):
        svc.desk.wait("m000000000000", wait_s)
    assert svc.journal.missions() == []


# -- missions -----------------------------------------------------------------------------------


def test_a_mission_runs_and_shows_its_plan_verdict_and_dispatches(make_service: Make) -> None:
    svc = make_service()
    answer = svc.call("POST", "/api/missions", json={"request": SAD, "plan": SAD_PLAN,
                                                     "wait_s": 30})
    assert answer.status_code == 202
    mission = answer.json()["mission"]
    detail = svc.until(mission, ended)
    assert (detail["status"], detail["submitted_by"], detail["planner"]) == (
        "completed", "alice", "client")
    assert detail["plan"] == SAD_PLAN
    assert detail["robots"] == ["iris", "tb3"]
    assert [v["accepted"] for v in detail["verdicts"]] == [True]
    assert [s["codes"] for s in detail["verdicts"][0]["steps"]] == [[], [], []]
    assert [d["step"] for d in detail["dispatched"]] == [
        "iris.takeoff", "iris.search_target", "tb3.navigate_to"]
    listed = svc.call("GET", "/api/missions", "vic").json()
    assert [(m["mission"], m["status"], m["submitted_by"]) for m in listed] == [
        (mission, "completed", "alice")]
    kinds = [e["kind"] for e in svc.call("GET", f"/api/missions/{mission}/events").json()]
    assert kinds[:4] == ["mission_started", "plan_proposed", "verdict", "lease"]
    assert kinds[-1] == "mission_ended"
    robots = svc.call("GET", "/api/robots", "vic").json()
    victim = robots["bindings"]["victim"]["value"]
    tb3 = robots["robots"]["tb3"]["pose"]
    assert abs(tb3[0] - victim[0]) < 1.0
    assert abs(tb3[1] - victim[1]) < 1.0
    assert len(robots["trails"]["tb3"]) > 2


def test_a_refused_plan_comes_back_with_the_reason_and_a_second_plan_runs(
        make_service: Make) -> None:
    svc = make_service()
    request, good = drive(2.5, -4.0)
    _, wrong = drive(2.5, 4.0)
    first = svc.call("POST", "/api/missions", json={"request": request, "plan": wrong}).json()
    assert (first["status"], first["attempts_left"]) == ("refused", 1)
    assert [(f["index"], f["code"]) for f in first["feedback"]] == [(0, "substituted_value")]
    again = svc.call("POST", f"/api/missions/{first['mission']}/plans",
                     json={"plan": good, "wait_s": 30}).json()
    assert (again["status"], again["attempts"]) == ("completed", 2)
    detail = svc.desk.detail(first["mission"])
    assert [v["accepted"] for v in detail["verdicts"]] == [False, True]
    assert detail["verdicts"][0]["steps"][0]["problems"][0]["code"] == "substituted_value"


def test_approval_is_an_operators_and_never_the_gates(make_service: Make) -> None:
    svc = make_service(approval="required", approval_timeout_s=1.5)
    request, good = drive(2.5, -4.0)
    ids = [svc.call("POST", "/api/missions", json={"request": request, "plan": good}).json()
           for _ in range(3)]
    assert [a["status"] for a in ids] == ["awaiting_approval"] * 3
    approve, reject, left = (a["mission"] for a in ids)
    assert svc.call("POST", f"/api/missions/{approve}/approve", "vic").status_code == 403
    assert svc.call("POST", f"/api/missions/{approve}/approve", "bob").status_code == 200
    assert svc.call("POST", f"/api/missions/{reject}/reject", "bob").json()["status"] == "denied"
    done = [svc.until(m, ended) for m in (approve, reject, left)]
    assert [(d["status"], d["reason"]) for d in done] == [
        ("completed", ""), ("denied", "denied by bob: nothing moved"),
        ("denied", "no decision within 1.5 s: rejected by the approval timeout; nothing "
                   "moved")]
    assert [[(x["decision"], x["by"]) for x in d["decisions"]] for d in done] == [
        [("approved", "bob")], [("denied", "bob")], [("expired", "the approval timeout")]]
    assert [d["dispatched"] for d in done[1:]] == [[], []]
    again = svc.call("POST", f"/api/missions/{reject}/approve", "bob")
    assert (again.status_code, again.json()["error"]["detail"]) == (
        409, f"mission {reject} is denied, not awaiting approval")
    audit = [(a["user"], a["status"], a["detail"]) for a in svc.journal.access(50)]
    assert ("bob", 200, f"approved {approve}") in audit
    assert ("bob", 200, f"rejected {reject}") in audit


def test_two_person_approval_needs_someone_else(make_service: Make) -> None:
    svc = make_service(approval="two_person")
    request, good = drive(-1.0, 4.0)
    mission = svc.call("POST", "/api/missions", json={"request": request, "plan": good}
                       ).json()["mission"]
    own = svc.call("POST", f"/api/missions/{mission}/approve", "alice")
    assert (own.status_code, own.json()["error"]["detail"]) == (
        403, f"mission {mission} needs two-person approval and alice submitted it: another "
        "operator must approve it")
    assert svc.call("POST", f"/api/missions/{mission}/approve", "bob").status_code == 200
    assert svc.until(mission, ended)["status"] == "completed"


def _journaled(svc: Service, mission: str, kind: EventKind, detail: str = "") -> int:
    """The journal id of the mission's first event of ``kind`` whose detail starts so."""
    for event in svc.journal.events(mission):
        if event.kind == kind and event.detail.startswith(detail):
            return event.id
    raise AssertionError(f"{mission} has no {kind} {detail!r}")


def test_missions_on_disjoint_robots_run_together_and_a_busy_robot_waits(
        make_service: Make, loopback: Callable[[FastAPI], str]) -> None:
    """Over a real loopback server."""
    svc = make_service(speed=20.0)
    client = httpx.Client(base_url=loopback(svc.app), headers=auth("alice"), timeout=30)
    request, to_a = drive(2.5, -4.0)
    request_b, to_b = drive(-4.0, 2.0)
    air = client.post("/api/missions", json={"request": SEARCH, "plan": SEARCH_PLAN}
                      ).json()["mission"]
    ground = client.post("/api/missions", json={"request": request, "plan": to_a}
                         ).json()["mission"]
    svc.until(ground, lambda d: d["status"] == "running")
    later = client.post("/api/missions", json={"request": request_b, "plan": to_b}
                        ).json()["mission"]
    refused = client.post("/api/missions", json={"request": request_b, "plan": to_b,
                                                 "wait_for_robots": False}).json()
    client.close()
    done = [svc.until(m, ended) for m in (air, ground, later)]
    assert [d["status"] for d in done] == ["completed"] * 3
    # both leased before either ended: they ran at the same time
    leased = [_journaled(svc, air, EventKind.LEASE, "leased"),
              _journaled(svc, ground, EventKind.LEASE, "leased")]
    assert max(leased) < min(_journaled(svc, m, EventKind.MISSION_ENDED) for m in (air, ground))
    # the third waited for tb3 and got it only once the second had ended
    assert _journaled(svc, later, EventKind.LEASE, f"waiting for tb3 (mission {ground})") < \
        _journaled(svc, ground, EventKind.MISSION_ENDED) < \
        _journaled(svc, later, EventKind.LEASE, "leased tb3")
    assert (refused["status"], refused["reason"]) == (
        "cancelled", f"robots_busy: tb3 (mission {ground}) are leased to other missions; "
        "nothing moved")
    assert svc.desk.detail(refused["mission"])["dispatched"] == []


def test_the_estop_halts_a_running_mission_and_the_drone_lands(make_service: Make) -> None:
    svc = make_service(speed=20.0)
    mission = svc.call("POST", "/api/missions", json={"request": SEARCH, "plan": SEARCH_PLAN}
                       ).json()["mission"]
    svc.until(mission, lambda d: any(x["step"] == "iris.search_target" and x["succeeded"] is None
                                     for x in d.get("dispatched", [])))
    assert svc.call("GET", "/api/robots").json()["robots"]["iris"]["airborne"] is True
    stop = svc.call("POST", "/api/estop", "vic", json={})
    assert stop.json() == {"estop": "e-stop engaged by vic", "safe_stop": ["iris.land",
                                                                            "tb3.stop"]}
    detail = svc.until(mission, ended)
    assert (detail["status"], detail["reason"]) == (
        "halted", "step 1 iris.search_target failed: cancelled: e-stop engaged by vic")
    assert [(d["step"], d["succeeded"]) for d in detail["dispatched"]] == [
        ("iris.takeoff", True), ("iris.search_target", False)]
    deadline = time.monotonic() + 30
    while svc.call("GET", "/api/robots").json()["robots"]["iris"]["airborne"]:
        assert time.monotonic() < deadline, "the drone did not land"
        time.sleep(0.05)
    request, good = drive(-1.0, 4.0)
    held = svc.call("POST", "/api/missions", json={"request": request, "plan": good,
                                                   "wait_s": 30}).json()
    assert (held["status"], held["reason"]) == ("halted", "stopped before planning: e-stop "
                                                "engaged by vic; nothing was planned or sent")
    assert svc.call("POST", "/api/estop/release", "alice", json={}).status_code == 403
    assert svc.call("POST", "/api/estop/release", "ada", json={}).json() == {"estop": None}
    again = svc.call("POST", "/api/missions", json={"request": request, "plan": good,
                                                    "wait_s": 30}).json()
    assert again["status"] == "completed"


def test_one_robots_estop_leaves_the_others_missions_alone(make_service: Make) -> None:
    svc = make_service(speed=20.0)
    request, good = drive(2.5, -4.0)
    assert svc.call("POST", "/api/estop", "vic", json={"robot": "iris"}).json() == {
        "estop": "e-stop engaged by vic for iris", "safe_stop": []}
    air = svc.call("POST", "/api/missions", json={"request": SEARCH, "plan": SEARCH_PLAN,
                                                  "wait_s": 30}).json()
    ground = svc.call("POST", "/api/missions", json={"request": request, "plan": good,
                                                     "wait_s": 30}).json()
    assert (air["status"], air["reason"]) == (
        "halted", "stopped before step 0: e-stop engaged by vic for iris")
    assert ground["status"] == "completed"


def test_cancel_withdraws_a_waiting_mission_and_stops_a_running_one(make_service: Make) -> None:
    svc = make_service(speed=20.0, approval="required")
    request, good = drive(2.5, -4.0)
    waiting = svc.call("POST", "/api/missions", json={"request": request, "plan": good}
                       ).json()["mission"]
    out = svc.call("POST", f"/api/missions/{waiting}/cancel", "bob").json()
    assert (out["status"], out["reason"]) == ("cancelled", "withdrawn by bob before approval")
    running = svc.call("POST", "/api/missions", json={"request": SEARCH, "plan": SEARCH_PLAN}
                       ).json()["mission"]
    svc.call("POST", f"/api/missions/{running}/approve", "bob")
    svc.until(running, lambda d: d["status"] == "running")
    stopped = svc.call("POST", f"/api/missions/{running}/cancel", "alice").json()
    assert stopped["status"] == "halted"
    assert stopped["reason"].startswith("cancelled before step ")
    assert stopped["reason"].endswith(": cancelled by alice")
    assert [d["kind"] for d in stopped["dispatched"]][-1] == "fallback"  # the drone lands


# -- the event stream -----------------------------------------------------------------------------


def _read(base: str, after: int, count: int) -> list[dict[str, Any]]:
    """``count`` events of the stream from after ``after`` (then the connection is dropped)."""
    events: list[dict[str, Any]] = []
    headers = {**auth("vic"), "Last-Event-ID": str(after)}
    with httpx.Client(timeout=30) as client, \
            client.stream("GET", f"{base}/api/events", headers=headers) as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        block: dict[str, str] = {}
        for line in answer.iter_lines():
            if line:
                key, _, value = line.partition(": ")
                block[key] = value
                continue
            if "data" in block:
                event = json.loads(block["data"])
                assert (int(block["id"]), block["event"]) == (event["id"], event["kind"])
                events.append(event)
                if len(events) == count:
                    break
            block = {}
    return events


def test_a_reconnecting_stream_loses_nothing_and_repeats_nothing(
        make_service: Make, loopback: Callable[[FastAPI], str]) -> None:
    svc = make_service()
    base = loopback(svc.app)
    request, good = drive(-1.0, 4.0)
    for _ in range(2):
        svc.call("POST", "/api/missions", json={"request": request, "plan": good, "wait_s": 30})
    total = svc.journal.last_event_id()
    first = _read(base, 0, 7)
    rest = _read(base, first[-1]["id"], total - 7)
    ids = [e["id"] for e in first + rest]
    assert ids == list(range(1, total + 1))
    # a client that stays connected sees what happens next
    later: list[dict[str, Any]] = []
    with httpx.Client(timeout=30) as client, client.stream(
            "GET", f"{base}/api/events?after={total}", headers=auth("vic")) as answer:
        svc.call("POST", "/api/missions", json={"request": request, "plan": good})
        for line in answer.iter_lines():
            if line.startswith("data: "):
                later.append(json.loads(line[6:]))
                if later[-1]["kind"] == "mission_ended":
                    break
    assert later[0]["id"] == total + 1
    assert later[0]["kind"] == "mission_started"


def test_many_readers_and_the_openapi_document(make_service: Make,
                                              loopback: Callable[[FastAPI], str]) -> None:
    svc = make_service()
    base = loopback(svc.app)
    schema = httpx.get(f"{base}/api/openapi.json").json()
    assert sorted(schema["paths"]) == [
        "/api/access", "/api/check", "/api/crew", "/api/estop", "/api/estop/release",
        "/api/events", "/api/me", "/api/missions", "/api/missions/{mission}",
        "/api/missions/{mission}/approve", "/api/missions/{mission}/cancel",
        "/api/missions/{mission}/events", "/api/missions/{mission}/plans",
        "/api/missions/{mission}/reject", "/api/robots"]
    submit = schema["paths"]["/api/missions"]["post"]["requestBody"]["content"]
    assert sorted(submit["application/json"]["schema"]["properties"]) == [
        "condition", "plan", "planner", "request", "wait_for_robots", "wait_s"]
    page = httpx.get(f"{base}/")
    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


@pytest.mark.parametrize("path", ["/console/app.py", "/console/..%2Fhttp.py"])
def test_only_the_consoles_own_files_are_served(make_service: Make, path: str) -> None:
    svc = make_service()
    assert svc.client.get(path).status_code == 404


def test_a_long_running_service_keeps_the_latest_missions_and_the_journal_the_rest(
        make_service: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("crewgate.service.desk.MAX_HELD", 2)
    svc = make_service()
    request, good = drive(-1.0, 4.0)
    ids = [svc.call("POST", "/api/missions", json={"request": request, "plan": good,
                                                   "wait_s": 30}).json()["mission"]
           for _ in range(4)]
    assert [m["mission"] for m in svc.desk.missions()] == ids[:1:-1]  # the two latest
    listed = svc.call("GET", "/api/missions").json()
    assert [(m["mission"], m["held"], m["status"]) for m in listed] == [
        (ids[3], True, "completed"), (ids[2], True, "completed"),
        (ids[1], False, "completed"), (ids[0], False, "completed")]
    old = svc.call("GET", f"/api/missions/{ids[0]}").json()
    assert (old["status"], old["held"], [v["accepted"] for v in old["verdicts"]]) == (
        "completed", False, [True])


def test_a_slow_journal_does_not_spend_the_dispatch_window_of_a_paced_simulator(
        make_service: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100 simulated seconds per second the crew's 0.5 s dispatch window is 5 ms of wall
    time; each journal write here takes 20 ms (a slow disk). The clock stands still while a
    mission decides a step, so the steps are sent, not refused as authorization_expired."""
    svc = make_service(speed=100.0)
    record = svc.journal.record

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.02)
        return record(*args, **kwargs)

    monkeypatch.setattr(svc.journal, "record", slow)
    request, good = drive(2.5, -4.0)
    done = svc.call("POST", "/api/missions", json={"request": request, "plan": good,
                                                   "wait_s": 60}).json()
    assert (done["status"], done["codes"]) == ("completed", [])


def test_a_planner_that_would_answer_the_same_is_asked_once(make_service: Make) -> None:
    from crewgate.planners import ScriptedPlanner

    class SameAnswer(ScriptedPlanner):
        replans = False  # as the exemplar: its answer is the request's alone

    request, _ = drive(2.5, -4.0)
    _, wrong = drive(2.5, 4.0)
    planner = SameAnswer([wrong])
    svc = make_service(planner=planner)
    mission = svc.call("POST", "/api/missions", json={"request": request}).json()["mission"]
    detail = svc.until(mission, lambda d: d["status"] not in ("planning", "waiting", "running"))
    assert detail["status"] == "refused"
    assert [v["accepted"] for v in detail["verdicts"]] == [False]
    assert len(planner.requests) == 1
