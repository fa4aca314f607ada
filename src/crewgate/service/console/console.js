// The operator console of `crewgate serve`: one page over the service's HTTP API.
//
// It owns nothing the server does not: every action is an API call, every state shown comes
// from an API answer or the journal's event stream. Rules kept throughout:
// - text from the server is inserted as text (textContent, createTextNode), never as markup;
// - the token lives in sessionStorage (taken from the URL's #token=..., which is then removed
//   from the address bar), and goes out only in the Authorization header;
// - the event stream is read with fetch() (EventSource cannot send a header) and resumes after
//   a drop from the last event id it saw, so no event is lost and none is shown twice;
// - a button the user's role cannot use is disabled and says why (title and a note).

const TOKEN_KEY = "crewgate.token";
const ROBOTS_EVERY_MS = 250;
const MISSIONS_EVERY_MS = 5000;
const TRAIL_POINTS = 240;
const RANK = { viewer: 0, operator: 1, admin: 2 };
const ENDED = new Set(["denied", "cancelled", "completed", "halted", "crashed", "interrupted",
  "refused"]);
const OWN_PLAN = "__own__";
const SVG_NS = "http://www.w3.org/2000/svg";

const state = {
  token: null,
  me: null, // {user, role}
  crew: null,
  robots: null, // the last /api/robots answer
  missions: [],
  selected: null, // mission id
  detail: null,
  detailText: "",
  events: new Map(), // the selected mission's events by id
  lastEventId: null, // the stream's resume point
  streamLog: [], // every event id the stream delivered, in order (diagnostics, tests)
  streamCtl: null,
  streaming: false,
  retryMs: 1000,
  refreshTimer: null,
  session: 0, // one more at each sign-in: the loops of an earlier one stop
  map: null, // the map's fixed geometry
};

const $ = (id) => document.getElementById(id);

// -- small DOM helpers (text only) ---------------------------------------------------------

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function num(value) {
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

function fmt(value, digits = 2) {
  if (typeof value !== "number" && typeof value !== "string") return String(value);
  const n = num(value);
  return n === null ? String(value) : String(Number(n.toFixed(digits)));
}

function valueText(value) {
  // a value for people: numbers rounded, lists and objects compact, text as it is
  if (Array.isArray(value)) return `[${value.map(valueText).join(", ")}]`;
  if (value && typeof value === "object") return JSON.stringify(value);
  if (typeof value === "number") return fmt(value, 3);
  return String(value);
}

function wallTime(seconds) {
  const n = num(seconds);
  if (n === null) return "";
  const d = new Date(n * 1000);
  const today = new Date();
  const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return d.toDateString() === today.toDateString() ? time : `${d.toLocaleDateString()} ${time}`;
}

function argsText(args) {
  if (!args || typeof args !== "object") return args === undefined ? "" : String(args);
  return Object.entries(args).map(([k, v]) => `${k}=${valueText(v)}`).join(", ");
}

function may(role) {
  return state.me !== null && RANK[state.me.role] >= RANK[role];
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// -- the API -------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${state.token}` };
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (exc) {
    throw new ApiError(0, "network", `the service did not answer (${exc.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {
      code: String(response.status), detail: text.slice(0, 300) || response.statusText };
    const exc = new ApiError(response.status, error.code, String(error.detail));
    if (response.status === 401) signOut(`Signed out: ${exc.detail}`);
    throw exc;
  }
  return data;
}

function showError(what, exc) {
  const detail = exc instanceof ApiError
    ? `${exc.status ? exc.status + " " : ""}${exc.code}: ${exc.detail}` : String(exc.message || exc);
  $("error-text").textContent = `${what} failed: ${detail}`;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

// -- signing in ----------------------------------------------------------------------------

function tokenFromHash() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search); // out of the address bar
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

async function signIn(token) {
  state.token = token;
  let me;
  try {
    me = await api("GET", "/api/me");
  } catch (exc) {
    if (exc.status === 401) sessionStorage.removeItem(TOKEN_KEY); // not when the server is away
    state.token = null;
    showSignIn(exc instanceof ApiError ? exc.detail : String(exc));
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  state.me = me;
  state.session += 1;
  try {
    state.crew = await api("GET", "/api/crew");
  } catch (exc) {
    showError("Reading the crew", exc);
    return;
  }
  $("signin").hidden = true;
  $("app").hidden = false;
  $("signout").hidden = false;
  $("whoami").textContent = `${me.user} · ${me.role}`;
  $("whoami").dataset.role = me.role;
  setUpCrew();
  applyRole();
  startStream();
  pollRobots(state.session);
  pollMissions(state.session);
}

function showSignIn(message) {
  $("app").hidden = true;
  $("signout").hidden = true;
  $("signin").hidden = false;
  $("whoami").textContent = "";
  $("signin-error").hidden = !message;
  $("signin-error").textContent = message || "";
  $("signin-token").focus();
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  state.token = null;
  state.me = null;
  stopStream();
  showSignIn(message);
}

// -- the crew and the roles ----------------------------------------------------------------

function setUpCrew() {
  const crew = state.crew;
  $("crew-title").textContent = `${crew.name}${crew.title ? " · " + crew.title : ""}`;
  $("map-where").textContent = crew.backend ? `· ${crew.backend}` : "";
  document.title = `crewgate · ${crew.name}`;
  const planner = $("planner");
  planner.replaceChildren();
  for (const name of crew.planners) planner.append(el("option", { value: name, text: name }));
  planner.append(el("option", { value: OWN_PLAN, text: "my own plan (JSON)" }));
  const template = $("plan-template");
  template.replaceChildren(el("option", { value: "", text: "a workflow…" }));
  for (const name of Object.keys(crew.workflows)) {
    template.append(el("option", { value: name, text: name }));
  }
  ownPlanShown();
  buildMap();
}

function applyRole() {
  const operator = may("operator");
  const submit = $("submit");
  submit.disabled = !operator;
  submit.title = operator ? "Submit the request: the gate checks the plan before anything moves"
    : `${state.me.user} is a ${state.me.role}: submitting needs the operator role`;
  const note = $("submit-note");
  note.hidden = operator;
  note.textContent = operator ? "" : `You are signed in as a ${state.me.role}: you can watch, `
    + "check plans and engage the e-stop; submitting, approving and cancelling need an operator.";
  $("release").title = may("admin") ? "Release the e-stop (admin)"
    : "Releasing the e-stop needs the admin role";
}

function ownPlanShown() {
  const own = $("planner").value === OWN_PLAN;
  $("own-plan").hidden = !own;
  $("check").hidden = !own;
  updateResubmit();
}

function fillTemplate() {
  const name = $("plan-template").value;
  const wf = state.crew.workflows[name];
  if (!wf) return;
  const steps = wf.steps.map((s) => {
    const [robot, skill] = String(s).split(".");
    return { robot, skill, args: {} };
  });
  $("plan-json").value = JSON.stringify({ workflow: name, steps }, null, 2);
  $("plan-template").value = "";
}

// -- submitting, checking, deciding --------------------------------------------------------

function readOwnPlan() {
  const text = $("plan-json").value.trim();
  if (!text) throw new Error("write the plan as JSON: {\"workflow\": ..., \"steps\": [...]}");
  let plan;
  try {
    plan = JSON.parse(text);
  } catch (exc) {
    throw new Error(`the plan is not JSON: ${exc.message}`);
  }
  if (!plan || typeof plan !== "object" || Array.isArray(plan)) {
    throw new Error("the plan must be a JSON object with workflow and steps");
  }
  return plan;
}

async function submitMission(event) {
  event.preventDefault();
  clearError();
  const request = $("request").value.trim();
  if (!request) {
    showError("Submitting", new Error("write the request first"));
    return;
  }
  const body = { request, wait_for_robots: $("wait-robots").checked, wait_s: 0 };
  try {
    if ($("planner").value === OWN_PLAN) body.plan = readOwnPlan();
    else body.planner = $("planner").value;
  } catch (exc) {
    showError("Submitting", exc);
    return;
  }
  const button = $("submit");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/missions", body);
    $("check-result").hidden = true;
    await select(answer.mission);
    refreshMissions();
  } catch (exc) {
    showError("Submitting", exc);
  } finally {
    button.disabled = !may("operator");
  }
}

async function resubmit() {
  clearError();
  const mission = state.selected;
  let plan;
  try {
    plan = readOwnPlan();
  } catch (exc) {
    showError("Sending the next plan", exc);
    return;
  }
  try {
    await api("POST", `/api/missions/${encodeURIComponent(mission)}/plans`, { plan, wait_s: 0 });
    await refreshDetail();
  } catch (exc) {
    showError("Sending the next plan", exc);
  }
}

async function checkPlan() {
  clearError();
  const out = $("check-result");
  let plan;
  try {
    plan = readOwnPlan();
  } catch (exc) {
    showError("Checking", exc);
    return;
  }
  const request = $("request").value.trim();
  try {
    const verdict = await api("POST", "/api/check", { request, plan });
    out.replaceChildren(el("strong", {
      class: verdict.accepted ? "ok" : "bad",
      text: verdict.accepted ? "The gate would accept this plan." : "The gate would refuse this plan:",
    }));
    const list = el("ul", { class: "problems" });
    for (const p of verdict.feedback || []) {
      const where = p.index === null || p.index === undefined ? "plan" : `step ${p.index}`;
      list.append(el("li", {}, el("code", { text: p.code }), ` ${where}: ${p.detail}`));
    }
    if (list.childElementCount) out.append(list);
    out.hidden = false;
  } catch (exc) {
    showError("Checking", exc);
  }
}

async function decide(verb) {
  clearError();
  const mission = state.selected;
  if (!mission) return;
  const button = $(verb === "cancel" ? "cancel" : verb);
  button.disabled = true;
  try {
    await api("POST", `/api/missions/${encodeURIComponent(mission)}/${verb}`);
  } catch (exc) {
    const what = { approve: "Approving", reject: "Rejecting", cancel: "Cancelling" }[verb];
    showError(`${what} ${mission}`, exc);
  } finally {
    await refreshDetail();
    updateActions(); // the button again, as the mission now stands
    refreshMissions();
  }
}

async function estop(robot) {
  clearError();
  try {
    await api("POST", "/api/estop", robot ? { robot } : {});
  } catch (exc) {
    showError(robot ? `The e-stop of ${robot}` : "The e-stop", exc);
  }
  refreshRobotsSoon();
}

async function release(robot) {
  clearError();
  try {
    await api("POST", "/api/estop/release", robot ? { robot } : {});
  } catch (exc) {
    showError(robot ? `Releasing the e-stop of ${robot}` : "Releasing the e-stop", exc);
  }
  refreshRobotsSoon();
}

// -- missions: the history and the selected one --------------------------------------------

async function pollMissions(session) {
  if (!state.token || session !== state.session) return;
  await refreshMissions();
  setTimeout(() => pollMissions(session), MISSIONS_EVERY_MS);
}

async function refreshMissions() {
  if (!state.token) return;
  try {
    state.missions = await api("GET", "/api/missions?limit=100");
  } catch (exc) {
    if (exc.status !== 401) showError("Reading the missions", exc);
    return;
  }
  renderHistory();
}

function statusBadge(status) {
  return el("span", { class: `status st-${status}`, "data-status": status,
    text: String(status).replace(/_/g, " ").toUpperCase() });
}

function renderHistory() {
  // rows are kept by mission and redrawn only when they change: a tap is never lost to a redraw
  const rows = $("history-rows");
  const kept = new Map([...rows.children].filter((tr) => tr.dataset.mission)
    .map((tr) => [tr.dataset.mission, tr]));
  const order = [];
  for (const m of state.missions) {
    let row = kept.get(m.mission);
    if (!row) {
      row = el("tr", { "data-mission": m.mission, tabindex: "0",
        onclick: () => select(m.mission),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") select(m.mission); } });
    }
    const key = JSON.stringify([m.status, m.request, m.submitted_by, m.submitted_wall]);
    if (row.dataset.key !== key) {
      row.dataset.key = key;
      row.replaceChildren(
        el("td", {}, statusBadge(m.status)),
        el("td", { class: "mono", text: m.mission }),
        el("td", { class: "clip", title: m.request || "", text: m.request || "" }),
        el("td", { class: "by", text: m.submitted_by || "" }),
        el("td", { class: "when", text: wallTime(m.submitted_wall) }));
    }
    row.classList.toggle("selected", m.mission === state.selected);
    order.push(row);
  }
  if (!order.length) {
    order.push(el("tr", {}, el("td", { colspan: "5", class: "hint", text: "No missions yet." })));
  }
  const same = order.length === rows.children.length
    && order.every((row, i) => rows.children[i] === row);
  if (!same) rows.replaceChildren(...order);
}

async function select(mission) {
  if (state.selected !== mission) {
    state.selected = mission;
    state.detail = null;
    state.detailText = "";
    state.events = new Map();
    $("timeline").replaceChildren();
  }
  renderHistory();
  await Promise.all([refreshDetail(), loadEvents(mission)]);
}

async function refreshDetail() {
  const mission = state.selected;
  if (!mission) return;
  let detail;
  try {
    detail = await api("GET", `/api/missions/${encodeURIComponent(mission)}`);
  } catch (exc) {
    if (exc.status !== 401) showError(`Reading mission ${mission}`, exc);
    return;
  }
  if (mission !== state.selected) return;
  const text = JSON.stringify(detail);
  if (text === state.detailText) return;
  state.detail = detail;
  state.detailText = text;
  renderMission();
  drawPlanOnMap();
}

function latestVerdict(detail) {
  const verdicts = detail.verdicts || [];
  return verdicts.length ? verdicts[verdicts.length - 1] : null;
}

function shownPlan(detail) {
  if (detail.plan) return detail.plan;
  const attempts = detail.attempt_plans || [];
  if (attempts.length) return attempts[attempts.length - 1];
  // a mission from the journal: its last proposed plan is in the events
  const proposed = [...state.events.values()].filter((e) => e.kind === "plan_proposed");
  const last = proposed[proposed.length - 1];
  return last && last.data && last.data.plan ? last.data.plan : null;
}

function stepRuns() {
  // each step's progress at dispatch, from the mission's events
  const runs = new Map();
  for (const e of [...state.events.values()].sort((a, b) => a.id - b.id)) {
    if (e.step === null || e.step === undefined || (e.data && e.data.fallback)) continue;
    const prev = runs.get(e.step) || {};
    if (e.kind === "authorization") {
      const refused = (e.codes || []).length > 0 || /refused/.test(e.detail || "");
      runs.set(e.step, { ...prev, text: refused ? `refused at dispatch: ${(e.codes || []).join(", ")}`
        : "authorized", cls: refused ? "bad" : "" });
    } else if (e.kind === "dispatch") {
      runs.set(e.step, { ...prev, text: "running", cls: "run" });
    } else if (e.kind === "result") {
      const ok = e.data && e.data.succeeded;
      runs.set(e.step, { ...prev, text: ok ? "succeeded" : `failed: ${e.detail || ""}`,
        cls: ok ? "ok" : "bad" });
    } else if (e.kind === "refusal") {
      const codes = (e.codes || []).join(", ");
      runs.set(e.step, { ...prev, text: `refused at dispatch: ${codes || e.detail || ""}`,
        cls: "bad" });
    }
  }
  return runs;
}

function renderMission() {
  const d = state.detail;
  $("mission-empty").hidden = Boolean(d);
  $("mission-body").hidden = !d;
  if (!d) return;
  $("mission-id").textContent = d.mission;
  const status = $("mission-status");
  status.textContent = String(d.status).replace(/_/g, " ").toUpperCase();
  status.dataset.status = d.status;
  status.className = `status st-${d.status}`;
  $("mission-request").textContent = d.request || "";

  const facts = $("mission-facts");
  facts.replaceChildren();
  const fact = (name, value) => {
    if (value === undefined || value === null || value === "") return;
    facts.append(el("dt", { text: name }), el("dd", { text: value, "data-fact": name }));
  };
  // a mission of an earlier run: who submitted it is in the list and in its first event
  const listed = state.missions.find((m) => m.mission === d.mission);
  const started = [...state.events.values()].find((e) => e.kind === "mission_started");
  fact("submitted by", d.submitted_by ?? (listed && listed.submitted_by)
    ?? (started && started.data && started.data.submitted_by));
  fact("submitted", wallTime(d.submitted_wall));
  fact("planner", d.planner);
  fact("approval", d.approval && d.approval !== "none" ? d.approval.replace("_", "-") : "");
  fact("robots", (d.robots || []).join(", "));
  fact("attempts", d.attempts);
  if ((d.codes || []).length) fact("codes", d.codes.join(", "));

  const reason = $("mission-reason");
  reason.hidden = !d.reason;
  reason.textContent = d.reason || "";

  const verdict = latestVerdict(d);
  const plan = shownPlan(d);
  const problems = $("plan-problems");
  problems.replaceChildren();
  for (const p of (verdict && verdict.problems) || []) {
    problems.append(el("li", {}, el("code", { text: p.code }), ` ${p.detail}`));
  }
  problems.hidden = !problems.childElementCount;

  const caption = $("plan-caption");
  if (!verdict) caption.textContent = plan ? "Proposed plan (the gate has not answered yet)"
    : "No plan yet: the planner is writing it";
  else caption.textContent = `Attempt ${verdict.attempt || (d.verdicts || []).length}`
    + `${verdict.workflow ? " · workflow " + verdict.workflow : ""} · the gate `
    + `${verdict.accepted ? "accepted" : "refused"} the plan`;
  caption.className = `caption ${verdict ? (verdict.accepted ? "ok" : "bad") : ""}`;

  const rows = $("plan-rows");
  rows.replaceChildren();
  const raw = $("plan-raw");
  raw.hidden = true;
  const steps = plan && Array.isArray(plan.steps) ? plan.steps
    : (verdict ? verdict.steps : []);
  if (plan && plan.raw !== undefined) {
    raw.hidden = false;
    raw.textContent = String(plan.raw);
  }
  const byIndex = new Map(((verdict && verdict.steps) || []).map((s) => [s.index, s]));
  const runs = stepRuns();
  steps.forEach((step, index) => {
    const v = byIndex.get(index);
    const stepProblems = (v && v.problems) || [];
    let verdictCell;
    let reasonCell;
    if (!v) {
      verdictCell = el("td", { class: "pending", text: verdict ? "—" : "pending" });
      reasonCell = el("td", { class: "reason", text: verdict ? "not checked" : "" });
    } else if (stepProblems.length || (v.codes || []).length) {
      verdictCell = el("td", { class: "bad", text: `✖ ${(v.codes || []).join(", ")}` });
      reasonCell = el("td", { class: "reason" });
      for (const p of stepProblems) reasonCell.append(el("div", { text: p.detail }));
    } else {
      verdictCell = el("td", { class: "ok", text: "✔ ok" });
      reasonCell = el("td", { class: "reason", text: v.skip ? "accepted (skipped: robot unavailable)" : "accepted" });
    }
    const run = runs.get(index);
    rows.append(el("tr", { "data-step": String(index) },
      el("td", { text: String(index) }),
      el("td", { class: "step" }, `${step.robot ?? "?"}.`, el("wbr"), `${step.skill ?? "?"}`),
      el("td", { class: "mono args" }, ...Object.entries(step.args || {}).map(([k, v]) =>
        el("div", { text: `${k}=${valueText(v)}` }))),
      verdictCell, reasonCell,
      el("td", { class: run ? run.cls : "", text: run ? run.text : "" })));
  });
  if (!steps.length) {
    rows.append(el("tr", {}, el("td", { colspan: "6", class: "hint",
      text: verdict ? "The plan has no steps." : "…" })));
  }

  const decisions = $("decisions");
  decisions.replaceChildren();
  for (const dec of d.decisions || []) {
    decisions.append(el("li", { class: `decision ${dec.decision}` },
      el("strong", { text: dec.decision }), ` by ${dec.by} at ${wallTime(dec.wall)}`));
  }
  for (const dsp of d.dispatched || []) {
    decisions.append(el("li", { class: dsp.succeeded ? "ok" : "bad" },
      `${dsp.kind === "step" ? "dispatched" : dsp.kind} ${dsp.step}: `
      + `${dsp.succeeded ? "succeeded" : "failed"}${dsp.message ? " (" + dsp.message + ")" : ""}`));
  }
  updateActions();
  updateResubmit();
}

function updateActions() {
  const d = state.detail;
  const approve = $("approve");
  const reject = $("reject");
  const cancel = $("cancel");
  const note = $("action-note");
  const reasons = [];
  const waiting = Boolean(d) && d.status === "awaiting_approval";
  const operator = may("operator");
  const me = state.me ? state.me.user : "";
  let approveWhy = "";
  let decideWhy = "";
  if (!operator) {
    decideWhy = `${me} is a ${state.me ? state.me.role : "viewer"}: approving and rejecting need `
      + "the operator role";
    approveWhy = decideWhy;
    if (waiting) {
      reasons.push(`You are a ${state.me ? state.me.role : "viewer"}: you cannot approve, `
        + "reject or cancel missions (that needs the operator role).");
    }
  } else if (!waiting) {
    decideWhy = d ? `mission ${d.mission} is ${String(d.status).replace(/_/g, " ")}, not awaiting approval`
      : "no mission selected";
    approveWhy = decideWhy;
  } else if (d.approval === "two_person" && d.submitted_by === me) {
    approveWhy = `two-person approval: ${me} submitted this mission, someone else must approve it`;
    reasons.push(approveWhy);
  }
  approve.disabled = Boolean(approveWhy);
  approve.title = approveWhy || "Approve the plan: it still goes through the gate step by step";
  reject.disabled = Boolean(decideWhy);
  reject.title = decideWhy || "Reject the plan: nothing moves";
  approve.hidden = reject.hidden = Boolean(d) && !waiting; // shown (maybe disabled) while it waits
  // a refused mission of the client's plans stays open while it has an attempt left
  const open = Boolean(d) && (!ENDED.has(d.status) || (d.attempts_left || 0) > 0);
  cancel.hidden = !open;
  cancel.disabled = !operator;
  cancel.title = operator ? "Withdraw the mission, or stop it before its next step (the safe "
    + "fallback runs)" : "Cancelling needs the operator role";
  note.hidden = !reasons.length;
  note.textContent = reasons.join(" ");
}

function updateResubmit() {
  const d = state.detail;
  const can = Boolean(d) && d.status === "refused" && d.planner === "client"
    && (d.attempts_left || 0) > 0 && may("operator") && $("planner").value === OWN_PLAN;
  const button = $("resubmit");
  button.hidden = !can;
  if (can) button.textContent = `Send as next attempt for ${d.mission} (${d.attempts_left} left)`;
}

// -- the timeline --------------------------------------------------------------------------

async function loadEvents(mission) {
  let events;
  try {
    events = await api("GET", `/api/missions/${encodeURIComponent(mission)}/events`);
  } catch (exc) {
    if (exc.status !== 401) showError(`Reading the events of ${mission}`, exc);
    return;
  }
  if (mission !== state.selected) return;
  for (const e of events) addEvent(e, false);
  renderTimeline();
  if (state.detail) {
    renderMission();
    drawPlanOnMap(); // a mission of an earlier run: its plan comes from its events
  }
}


const ICONS = {
  mission_started: "●", plan_proposed: "✎", verdict: "⚖", approval: "◆", lease: "▣",
  authorization: "✔", dispatch: "→", sent: "↗", result: "■", refusal: "✖", halt: "◼",
  fallback: "⚠", mission_ended: "●",
};

function eventText(e) {
  const d = e.data || {};
  if (e.kind === "plan_proposed" && d.plan && Array.isArray(d.plan.steps)) {
    const steps = d.plan.steps.map((s) => `${s.robot}.${s.skill}`).join(", ");
    return `attempt ${d.attempt ?? ""}: ${d.plan.workflow ?? "?"}: ${steps || "no steps"}`;
  }
  if (e.kind === "plan_proposed") return `attempt ${d.attempt ?? ""}: ${String(e.detail).slice(0, 160)}`;
  if (e.kind === "verdict") {
    return `attempt ${d.attempt ?? ""}: ${d.accepted ? "accepted" : "refused"}`;
  }
  if (e.kind === "result" && d.result && typeof d.result === "object"
      && Object.keys(d.result).length) {
    return `${e.detail} (${argsText(d.result)})`;
  }
  if (e.kind === "dispatch" && d.args) return `(${argsText(d.args)})`;
  return e.detail || "";
}

function addEvent(e, live) {
  if (e.mission_id !== state.selected || state.events.has(e.id)) return false;
  state.events.set(e.id, e);
  if (live) appendTimeline(e);
  return true;
}

function timelineItem(e) {
  // a plan step's index, and the robot's skill (a fallback's has no index)
  const index = e.step !== null && e.step !== undefined ? `[${e.step}] ` : "";
  const step = `${index}${e.robot ? e.robot + (e.skill ? "." + e.skill : "") : ""}`;
  return el("li", { class: `ev ev-${e.kind}`, "data-kind": e.kind, "data-id": String(e.id) },
    el("span", { class: "ev-t", text: `${fmt(e.t, 2)} s` }),
    el("span", { class: "ev-icon", "aria-hidden": "true", text: ICONS[e.kind] || "·" }),
    el("span", { class: "ev-kind", text: e.kind.replace(/_/g, " ") }),
    el("span", { class: "ev-body" },
      step ? el("span", { class: "ev-step", text: step }) : null,
      el("span", { class: "ev-detail", text: eventText(e) }),
      (e.codes || []).length ? el("span", { class: "ev-codes", text: e.codes.join(", ") }) : null));
}

function renderTimeline() {
  const list = $("timeline");
  list.replaceChildren(...[...state.events.values()].sort((a, b) => a.id - b.id)
    .map(timelineItem));
  list.scrollTop = list.scrollHeight;
}

function appendTimeline(e) {
  const list = $("timeline");
  const last = list.lastElementChild;
  if (last && Number(last.dataset.id) > e.id) {
    renderTimeline(); // out of order (a page fetched meanwhile): redraw in order
    return;
  }
  const near = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.append(timelineItem(e));
  if (near) list.scrollTop = list.scrollHeight;
}

// -- the event stream (fetch + a server-sent-events parser) --------------------------------

function setStream(text, cls) {
  const pill = $("stream-state");
  pill.textContent = `events: ${text}`;
  pill.className = `pill ${cls}`;
  pill.dataset.state = text;
}

function startStream() {
  if (state.streaming) return;
  state.streaming = true;
  streamLoop(state.session);
}

function stopStream() {
  state.streaming = false;
  if (state.streamCtl) state.streamCtl.abort();
  setStream("off", "pill-off");
}

function dropStream() {
  // drops the connection (as a network hiccup would); the loop reconnects with Last-Event-ID
  if (state.streamCtl) state.streamCtl.abort();
}

async function streamLoop(session) {
  const mine = () => state.streaming && state.token && session === state.session;
  while (mine()) {
    const ctl = new AbortController();
    state.streamCtl = ctl;
    try {
      const headers = { Authorization: `Bearer ${state.token}`, Accept: "text/event-stream" };
      if (state.lastEventId !== null) headers["Last-Event-ID"] = String(state.lastEventId);
      const response = await fetch("/api/events", { headers, cache: "no-store", signal: ctl.signal });
      if (!response.ok) {
        let detail = response.statusText;
        try {
          detail = (await response.json()).error.detail;
        } catch { /* not JSON */ }
        if (response.status === 401) {
          signOut(`Signed out: ${detail}`);
          return;
        }
        throw new Error(`${response.status}: ${detail}`);
      }
      setStream("live", "pill-live");
      await readStream(response.body, ctl);
    } catch (exc) {
      if (!mine()) return;
      if (!ctl.signal.aborted) console.warn("event stream:", exc);
    }
    if (!mine()) return;
    setStream("reconnecting", "pill-wait");
    await sleep(state.retryMs);
  }
}

async function readStream(body, ctl) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  ctl.signal.addEventListener("abort", () => reader.cancel().catch(() => {}));
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    // a block ends at a blank line; a \r at the very end may be half of \r\n: keep it
    let normal = buffer.replace(/\r\n|\r(?!$)/g, "\n");
    let end;
    while ((end = normal.indexOf("\n\n")) >= 0) {
      sseBlock(normal.slice(0, end));
      normal = normal.slice(end + 2);
    }
    buffer = normal;
  }
}

function sseBlock(block) {
  let id = null;
  let kind = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue; // a comment: the keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "event") kind = value;
    else if (field === "data") data.push(value);
    else if (field === "retry" && /^\d+$/.test(value)) state.retryMs = Math.max(250, Number(value));
  }
  if (id !== null && /^\d+$/.test(id)) {
    const n = Number(id);
    if (state.lastEventId !== null && n <= state.lastEventId) return; // seen: not twice
    state.lastEventId = n;
  }
  if (!data.length) return;
  let event;
  try {
    event = JSON.parse(data.join("\n"));
  } catch {
    return;
  }
  if (event && typeof event === "object") heard(kind, event);
}

function heard(kind, event) {
  state.streamLog.push(event.id);
  if (state.streamLog.length > 5000) state.streamLog.splice(0, 1000);
  if (event.mission_id && event.mission_id === state.selected) {
    if (addEvent(event, true) && state.detail && event.step !== null && event.step !== undefined) {
      renderMission(); // the plan table's run column
    }
  }
  scheduleRefresh(event.mission_id === state.selected);
}

function scheduleRefresh(detail) {
  state.refreshDetailToo = state.refreshDetailToo || detail;
  if (state.refreshTimer) return;
  state.refreshTimer = setTimeout(async () => {
    const both = state.refreshDetailToo;
    state.refreshTimer = null;
    state.refreshDetailToo = false;
    await Promise.all([refreshMissions(), both ? refreshDetail() : null]);
  }, 150);
}

// -- robots: the live map ------------------------------------------------------------------

async function pollRobots(session) {
  if (!state.token || session !== state.session) return;
  try {
    state.robots = await api("GET", "/api/robots");
    renderRobots();
    $("map").classList.remove("stale");
  } catch (exc) {
    $("map").classList.add("stale");
  } finally {
    setTimeout(() => pollRobots(session), document.hidden ? 2000 : ROBOTS_EVERY_MS);
  }
}

let soon = null;
function refreshRobotsSoon() {
  if (soon) return;
  soon = setTimeout(async () => {
    soon = null;
    try {
      state.robots = await api("GET", "/api/robots");
      renderRobots();
    } catch { /* the poll retries */ }
  }, 50);
}

function buildMap() {
  const m = state.crew.map || {};
  const op = m.operational || { x: [-10, 10], y: [-10, 10] };
  const xs = [num(op.x[0]), num(op.x[1])];
  const ys = [num(op.y[0]), num(op.y[1])];
  for (const p of Object.values(m.locations || {})) {
    xs.push(num(p[0]));
    ys.push(num(p[1]));
  }
  const margin = 1;
  const x0 = Math.min(...xs.filter((v) => v !== null)) - margin;
  const x1 = Math.max(...xs.filter((v) => v !== null)) + margin;
  const y0 = Math.min(...ys.filter((v) => v !== null)) - margin;
  const y1 = Math.max(...ys.filter((v) => v !== null)) + margin;
  const k = 600 / Math.max(x1 - x0, y1 - y0); // px per metre
  const geo = { x0, x1, y0, y1, k, w: (x1 - x0) * k, h: (y1 - y0) * k };
  geo.px = (x) => (x - x0) * k;
  geo.py = (y) => (y1 - y) * k;
  state.map = geo;

  const map = $("map");
  map.replaceChildren();
  map.setAttribute("viewBox", `0 0 ${fmt(geo.w, 1)} ${fmt(geo.h, 1)}`);
  const layer = (name) => {
    const g = svg("g", { class: name, id: `layer-${name}` });
    map.append(g);
    return g;
  };
  const grid = layer("grid");
  const step = x1 - x0 > 40 ? 5 : x1 - x0 > 16 ? 2 : 1;
  for (let x = Math.ceil(x0); x <= x1; x += 1) {
    if (x % step) continue;
    grid.append(svg("line", { x1: geo.px(x), y1: 0, x2: geo.px(x), y2: geo.h,
      class: x === 0 ? "axis" : "" }));
    grid.append(svg("text", { x: geo.px(x) + 3, y: geo.h - 4, class: "tick" }, x));
  }
  for (let y = Math.ceil(y0); y <= y1; y += 1) {
    if (y % step) continue;
    grid.append(svg("line", { x1: 0, y1: geo.py(y), x2: geo.w, y2: geo.py(y),
      class: y === 0 ? "axis" : "" }));
    if (geo.py(y) < geo.h - 18) grid.append(svg("text", { x: 3, y: geo.py(y) - 3, class: "tick" }, y));
  }
  const box = (g, b, cls, extra = {}) => {
    const bx = [num(b.x[0]), num(b.x[1])];
    const by = [num(b.y[0]), num(b.y[1])];
    const r = svg("rect", { x: geo.px(bx[0]), y: geo.py(by[1]), width: (bx[1] - bx[0]) * k,
      height: (by[1] - by[0]) * k, class: cls, ...extra });
    g.append(r);
    return r;
  };
  box(layer("operational"), op, "operational");
  const keep = layer("keepout");
  for (const z of m.keep_out || []) {
    box(keep, z, "keepout", { "data-zone": z.name });
    keep.append(svg("text", { x: geo.px(num(z.x[0])) + 4, y: geo.py(num(z.y[1])) + 14,
      class: "label keepout-label" }, `${z.name}${z.description ? ": " + z.description : ""}`));
  }
  const obstacles = layer("obstacles");
  for (const o of m.obstacles || []) box(obstacles, o, "obstacle");
  layer("plan");
  const places = layer("locations");
  for (const [name, p] of Object.entries(m.locations || {})) {
    const x = geo.px(num(p[0]));
    const y = geo.py(num(p[1]));
    const g = svg("g", { class: "location", "data-location": name,
      transform: `translate(${fmt(x, 1)} ${fmt(y, 1)})` });
    g.append(svg("rect", { x: -6, y: -6, width: 12, height: 12, transform: "rotate(45)" }));
    g.append(svg("text", { x: 10, y: 4, class: "label" }, name));
    places.append(g);
  }
  layer("trails");
  layer("bindings");
  layer("robots");
  layer("objects");
  if (state.robots) renderRobots();
  drawPlanOnMap();
}

function drawPlanOnMap() {
  // the selected mission's planned zones and points, dashed
  const g = $("layer-plan");
  const geo = state.map;
  if (!g || !geo) return;
  g.replaceChildren();
  const d = state.detail;
  const plan = d ? shownPlan(d) : null;
  if (!plan || !Array.isArray(plan.steps)) return;
  plan.steps.forEach((step, index) => {
    const a = step && step.args ? step.args : {};
    const zone = ["x_min", "x_max", "y_min", "y_max"].map((key) => num(a[key]));
    if (zone.every((v) => v !== null) && zone[0] < zone[1] && zone[2] < zone[3]) {
      g.append(svg("rect", { x: geo.px(zone[0]), y: geo.py(zone[3]), width: (zone[1] - zone[0]) * geo.k,
        height: (zone[3] - zone[2]) * geo.k, class: "zone", "data-step": index }));
      g.append(svg("text", { x: geo.px(zone[0]) + 4, y: geo.py(zone[2]) - 5, class: "label zone-label" },
        `[${index}] ${step.robot}.${step.skill} zone`));
    }
    const x = num(a.x);
    const y = num(a.y);
    if (x !== null && y !== null) {
      const goal = svg("g", { class: "goal", "data-step": index,
        transform: `translate(${fmt(geo.px(x), 1)} ${fmt(geo.py(y), 1)})` });
      goal.append(svg("circle", { r: 9 }), svg("circle", { r: 3 }));
      goal.append(svg("text", { x: 12, y: -8, class: "label" }, `[${index}] goal`));
      g.append(goal);
    }
  });
}

function robotShape(name, kind) {
  const g = svg("g", { class: `robot ${robotClass(name)}`, "data-robot": name,
    "data-kind": kind || "" });
  const air = /copter|drone|uav|plane|air/i.test(kind || "");
  const wheeled = /rover|ugv|wheel|car|forklift|amr|agv/i.test(kind || "");
  const legged = /humanoid|person|biped/i.test(kind || "");
  g.append(svg("ellipse", { class: "shadow", rx: 12, ry: 5, cy: 14 }));
  if (air) {
    const body = svg("g", { class: "body" });
    for (const [dx, dy] of [[-9, -9], [9, -9], [-9, 9], [9, 9]]) {
      body.append(svg("line", { x1: 0, y1: 0, x2: dx, y2: dy, class: "arm" }));
      body.append(svg("circle", { cx: dx, cy: dy, r: 5, class: "rotor" }));
    }
    body.append(svg("circle", { r: 5, class: "hub" }));
    g.append(body);
  } else if (legged) {
    const body = svg("g", { class: "body" });
    body.append(svg("circle", { r: 10, class: "hull" }));
    body.append(svg("circle", { r: 4, class: "head" }));
    g.append(body);
  } else {
    const body = svg("g", { class: "body" });
    body.append(svg("rect", { x: -10, y: -8, width: 20, height: 16, rx: 4, class: "hull" }));
    if (wheeled) {
      for (const [wx, wy] of [[-12, -10], [6, -10], [-12, 6], [6, 6]]) {
        body.append(svg("rect", { x: wx, y: wy, width: 6, height: 4, class: "wheel" }));
      }
    }
    g.append(body);
  }
  // the drone's label to the left, the others' to the right: a rover under a drone stays legible
  g.append(svg("text", { x: air ? -14 : 14, y: -12, class: "label robot-label",
    "text-anchor": air ? "end" : "start" }, name));
  g.append(svg("title", {}, name));
  return g;
}

function renderRobots() {
  const geo = state.map;
  const s = state.robots;
  if (!geo || !s) return;
  $("sim-time").textContent = num(s.t) !== null ? `simulated time ${fmt(s.t, 1)} s` : "";
  const robots = s.robots || {};
  const down = new Set(s.down || []);
  const stops = (s.estop && s.estop.robots) || {};
  const crewStop = s.estop ? s.estop.crew : null;

  // trails
  const trails = $("layer-trails");
  for (const [name, points] of Object.entries(s.trails || {})) {
    let line = trails.querySelector(`[data-trail="${CSS.escape(name)}"]`);
    if (!line) {
      line = svg("polyline", { class: `trail ${robotClass(name)}`, "data-trail": name });
      trails.append(line);
    }
    const pts = points.slice(-TRAIL_POINTS).map((p) => [num(p[0]), num(p[1])])
      .filter(([x, y]) => x !== null && y !== null)
      .map(([x, y]) => `${fmt(geo.px(x), 1)},${fmt(geo.py(y), 1)}`);
    line.setAttribute("points", pts.join(" "));
  }

  // bindings (runtime values such as the victim fix)
  const bindings = $("layer-bindings");
  const seen = new Set();
  const lines = [];
  for (const [name, b] of Object.entries(s.bindings || {})) {
    const v = b && Array.isArray(b.value) ? b.value : null;
    const x = v ? num(v[0]) : null;
    const y = v ? num(v[1]) : null;
    if (x === null || y === null) continue;
    seen.add(name);
    let g = bindings.querySelector(`[data-binding="${CSS.escape(name)}"]`);
    if (!g) {
      g = svg("g", { class: "binding", "data-binding": name });
      g.append(svg("circle", { r: 11, class: "ring" }));
      g.append(svg("path", { d: "M -7 0 H 7 M 0 -7 V 7", class: "cross" }));
      g.append(svg("text", { x: -14, y: 26, class: "label binding-label" }, name));
      g.append(svg("title", {}));
      bindings.append(g);
    }
    g.setAttribute("transform", `translate(${fmt(geo.px(x), 1)} ${fmt(geo.py(y), 1)})`);
    g.dataset.x = fmt(x, 3);
    g.dataset.y = fmt(y, 3);
    const conf = num(b.confidence);
    const text = `${name} at (${fmt(x, 2)}, ${fmt(y, 2)})${b.source ? ", published by " + b.source : ""}`
      + `${conf !== null ? ", confidence " + Math.round(conf * 100) + "%" : ""}`
      + `${num(b.stamp) !== null ? ", t = " + fmt(b.stamp, 1) + " s" : ""}`;
    g.querySelector("title").textContent = text;
    lines.push(text);
  }
  for (const g of [...bindings.children]) if (!seen.has(g.dataset.binding)) g.remove();
  for (const [object, place] of Object.entries(s.objects || {})) {
    const where = place in robots ? `on ${place}` : place === "requester" ? "with the person"
      : `at ${place}`;
    lines.push(`${object} ${where}`);
  }
  const list = $("bindings");
  if (list.dataset.key !== lines.join("\n")) {
    list.dataset.key = lines.join("\n");
    list.replaceChildren(...lines.map((line, i) => el("li", {
      class: i < seen.size ? "binding-line" : "object-line", text: line })));
  }

  // robots
  const layer = $("layer-robots");
  for (const [name, r] of Object.entries(robots)) {
    const kind = state.crew.robots[name] ? state.crew.robots[name].kind : "";
    let g = layer.querySelector(`[data-robot="${CSS.escape(name)}"]`);
    if (!g) {
      g = robotShape(name, kind);
      layer.append(g);
    }
    const pose = Array.isArray(r.pose) ? r.pose : [];
    const x = num(pose[0]);
    const y = num(pose[1]);
    if (x === null || y === null) continue;
    const z = num(pose[2]);
    g.setAttribute("transform", `translate(${fmt(geo.px(x), 1)} ${fmt(geo.py(y), 1)})`);
    g.dataset.x = fmt(x, 3);
    g.dataset.y = fmt(y, 3);
    const airborne = r.airborne === true;
    if ("airborne" in r) g.dataset.airborne = String(airborne);
    g.dataset.available = String(r.available !== false);
    g.classList.toggle("airborne", airborne);
    g.classList.toggle("unavailable", r.available === false);
    g.classList.toggle("down", down.has(name));
    g.classList.toggle("stopped", Boolean(crewStop || stops[name]));
    const body = g.querySelector(".body");
    body.setAttribute("transform", airborne ? "translate(0 -8)" : "");
    let label = name;
    if ("airborne" in r) label += airborne ? ` ↑ ${z !== null ? fmt(z, 1) + " m" : "airborne"}` : " · landed";
    if (down.has(name)) label += " · down";
    g.querySelector(".robot-label").textContent = label;
  }
  renderObjects(s.objects || {}, robots);
  renderRobotTable(robots, down, stops);
  renderStop(crewStop, stops);
}

function renderObjects(objects, robots) {
  // each tracked object beside the place or the robot it is at, stacked when several share one
  const geo = state.map;
  const layer = $("layer-objects");
  const key = JSON.stringify([objects, Object.entries(robots).filter(([n]) =>
    Object.values(objects).includes(n)).map(([n, r]) => [n, r.pose])]);
  if (layer.dataset.key === key) return;
  layer.dataset.key = key;
  layer.replaceChildren();
  const stacked = new Map();
  const locations = (state.crew.map && state.crew.map.locations) || {};
  for (const [object, place] of Object.entries(objects)) {
    const at = place in robots ? robots[place].pose : locations[place];
    const x = at ? num(at[0]) : null;
    const y = at ? num(at[1]) : null;
    if (x === null || y === null) continue;
    const n = stacked.get(place) || 0;
    stacked.set(place, n + 1);
    const g = svg("g", { class: "object", "data-object": object, "data-place": place,
      transform: `translate(${fmt(geo.px(x) + 10, 1)} ${fmt(geo.py(y) + 18 + n * 16, 1)})` });
    g.append(svg("rect", { x: -4, y: -9, width: 8, height: 8 }));
    g.append(svg("text", { x: 8, y: -1, class: "label object-label" }, object));
    layer.append(g);
  }
}

function robotClass(name) {
  const names = Object.keys(state.crew.robots);
  return `c${Math.max(0, names.indexOf(name)) % 6}`;
}

function robotRow(name) {
  // one row per robot, made once: its stop button stays the same element while the robot moves
  const kind = state.crew.robots[name] ? state.crew.robots[name].kind : "";
  return el("tr", { "data-robot": name },
    el("td", {}, el("strong", { text: name }), kind ? el("span", { class: "hint", text: ` ${kind}` }) : null),
    el("td", { class: "mono pose" }),
    el("td", { class: "robot-state" }),
    el("td", { class: "robot-actions" },
      el("button", { type: "button", class: "estop small", "data-robot": name,
        title: `Stop ${name} only: its missions halt, it runs its own safe stop`,
        text: `Stop ${name}`, onclick: () => estop(name) }),
      el("button", { type: "button", class: "release small", hidden: true, text: "Release",
        onclick: () => release(name) })));
}

function renderRobotTable(robots, down, stops) {
  const rows = $("robot-rows");
  const admin = may("admin");
  for (const [name, r] of Object.entries(robots)) {
    let row = rows.querySelector(`tr[data-robot="${CSS.escape(name)}"]`);
    if (!row) {
      row = robotRow(name);
      rows.append(row);
    }
    const bits = [];
    if (r.available === false) bits.push("unavailable");
    if (down.has(name)) bits.push("down");
    if ("airborne" in r) bits.push(r.airborne ? "airborne" : "landed");
    if (r.moving) bits.push("moving");
    if (num(r.battery) !== null) bits.push(`battery ${Math.round(num(r.battery) * 100)}%`);
    for (const [field, value] of Object.entries(r)) { // the crew's own state fields
      if (["available", "pose", "airborne", "battery", "moving"].includes(field)) continue;
      if (value === null || value === false || typeof value === "object") continue;
      bits.push(value === true ? field.replace(/_/g, " ") : `${field.replace(/_/g, " ")} ${valueText(value)}`);
    }
    if (stops[name]) bits.push(`e-stopped: ${stops[name]}`);
    setText(row.querySelector(".pose"), (r.pose || []).map((v) => fmt(v, 2)).join(", "));
    setText(row.querySelector(".robot-state"), bits.join(" · "));
    const [stop, rel] = row.querySelectorAll("button");
    stop.hidden = Boolean(stops[name]);
    rel.hidden = !stops[name];
    rel.disabled = !admin;
    rel.title = admin ? `Release the e-stop of ${name}` : "Releasing the e-stop needs the admin role";
  }
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function renderStop(crewStop, stops) {
  const banner = $("estop-banner");
  const lines = [];
  if (crewStop) lines.push(`E-STOP ENGAGED for the whole crew: ${crewStop}`);
  for (const [robot, why] of Object.entries(stops)) lines.push(`${robot} stopped: ${why}`);
  const engaged = lines.length > 0;
  const text = lines.join(" · ") + (engaged && !may("admin") ? " — an admin must release it." : "");
  if (banner.textContent !== text) banner.textContent = text;
  banner.hidden = !engaged;
  document.body.classList.toggle("stopped", Boolean(crewStop));
  const estopButton = $("estop");
  estopButton.textContent = crewStop ? "E-STOP ENGAGED" : "E-STOP";
  estopButton.classList.toggle("engaged", Boolean(crewStop));
  const rel = $("release");
  rel.hidden = !engaged || !may("admin");
}

// -- wiring --------------------------------------------------------------------------------

function wire() {
  $("signin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("signin-token").value.trim();
    $("signin-token").value = "";
    if (token) signIn(token);
  });
  $("signout").addEventListener("click", () => signOut(""));
  $("error-close").addEventListener("click", clearError);
  $("estop").addEventListener("click", () => estop(null));
  $("release").addEventListener("click", () => release(null));
  $("submit-form").addEventListener("submit", submitMission);
  $("planner").addEventListener("change", ownPlanShown);
  $("plan-template").addEventListener("change", fillTemplate);
  $("check").addEventListener("click", checkPlan);
  $("resubmit").addEventListener("click", resubmit);
  $("approve").addEventListener("click", () => decide("approve"));
  $("reject").addEventListener("click", () => decide("reject"));
  $("cancel").addEventListener("click", () => decide("cancel"));
  window.addEventListener("hashchange", () => {
    const token = tokenFromHash();
    if (token) {
      stopStream();
      signIn(token);
    }
  });
}

// for diagnostics (and the browser tests): drop the stream to see it resume; the ids it delivered
window.crewgate = Object.freeze({
  dropStream,
  streamLog: () => [...state.streamLog],
  lastEventId: () => state.lastEventId,
});

wire();
const fromHash = tokenFromHash();
const saved = fromHash || sessionStorage.getItem(TOKEN_KEY);
if (saved) signIn(saved);
else showSignIn("");
