// Sheep a Sheep page: layered tiles, the tray, the solver's verdict.
"use strict";

const T = { id: null, view: null, verdict: null, hint: null, solving: false, busy: false };
const askLevel = lastAsked();
const msg = $("#msg");
const UNIT = 6; // pixels per level unit (a classic tile is 8 units)

function colour(kind) { return `hsl(${(kind * 67) % 360}, 70%, 72%)`; }

/** Lays out every tile of a level once (its bounding box fixes the scale). */
function build(board, tiles) {
  board.innerHTML = "";
  T.els = new Map();
  if (!tiles.length) { board.style.height = "40px"; return; }
  const minX = Math.min(...tiles.map((t) => t.x)), minY = Math.min(...tiles.map((t) => t.y));
  const maxX = Math.max(...tiles.map((t) => t.x + t.w)), maxY = Math.max(...tiles.map((t) => t.y + t.h));
  const avail = Math.max(280, Math.min(board.parentElement.clientWidth || 800, 900) - 16);
  const unit = Math.min(UNIT, avail / (maxX - minX));
  board.style.width = `${(maxX - minX) * unit + 16}px`;
  board.style.height = `${(maxY - minY) * unit + 16}px`;
  for (const t of tiles) {
    const el = document.createElement("button");
    el.style.left = `${(t.x - minX) * unit + 8}px`;
    el.style.top = `${(t.y - minY) * unit + 8}px`;
    el.style.width = `${t.w * unit - 2}px`;
    el.style.height = `${t.h * unit - 2}px`;
    el.style.zIndex = String(t.layer + 1);
    el.style.background = colour(t.kind);
    el.textContent = String(t.kind);
    el.dataset.id = t.id;
    el.dataset.kind = t.kind;
    board.appendChild(el);
    T.els.set(t.id, el);
  }
}

/** Starts a level; when several are asked for at once (the page's first
 *  level, then a quick click on New level), only the last one asked shows. */
async function newLevel() {
  T.solving = false;
  const latest = askLevel();
  const body = { source: $("#source").value };
  if (body.source === "generate") {
    body.difficulty = Number($("#difficulty").value);
    body.layers = Number($("#layers").value);
  }
  try {
    if (body.source === "generate") body.seed = seedValue($("#seed")) ?? 0;
    const st = await api("/api/tiles/new", body);
    if (!latest()) return;
    T.hint = null;
    show(st);
    say(msg, "");
  } catch (e) { if (latest()) say(msg, e.message, "bad"); }
}

async function send(action, body) {
  if (!T.id || T.busy) return null;
  T.busy = true;
  try {
    const st = await api(`/api/tiles/${T.id}/${action}`, body || {});
    show(st);
    return st;
  } catch (e) { say(msg, e.message, "bad"); T.solving = false; return null; }
  finally { T.busy = false; }
}

/** The view after a click, undo or step: the last view with the answer's
 *  change applied (tiles gone, tiles back, free flags, tray, counters). */
function applyChange(view, c) {
  const gone = new Set(c.gone);
  const free = new Map(c.free);
  const tiles = view.tiles.filter((t) => !gone.has(t.id)).concat(c.back);
  for (const t of tiles) if (free.has(t.id)) t.free = free.get(t.id);
  return { ...view, tiles, tray: c.tray, clicks: c.clicks, status: c.status };
}

function show(st) {
  const fresh = T.id !== st.session || !T.els;
  T.id = st.session;
  T.view = st.view || applyChange(T.view, st.change);
  T.verdict = st.verdict;
  const v = T.view;
  const board = $("#board");
  if (fresh || v.tiles.length > T.els.size) build(board, v.tiles);
  // Update the tiles in place: drop the gone ones, refresh free and hint.
  const present = new Set(v.tiles.map((t) => t.id));
  for (const [id, el] of T.els) {
    if (!present.has(id)) { el.remove(); T.els.delete(id); }
  }
  for (const t of v.tiles) {
    const el = T.els.get(t.id);
    el.className = "tile" + (t.free ? "" : " covered") + (T.hint === t.id ? " hinted" : "");
    el.dataset.free = String(t.free);
    el.tabIndex = t.free ? 0 : -1;
    el.setAttribute("aria-label", `tile ${t.kind}${T.hint === t.id ? ", the hint" : ""}`);
    // Covered tiles cannot be taken: out of a screen reader's way.
    el.setAttribute("aria-hidden", String(!t.free));
  }
  const tray = $("#tray");
  tray.innerHTML = "";
  for (let i = 0; i < v.capacity; i++) {
    const s = document.createElement("div");
    s.className = "slot";
    const k = v.tray[i];
    if (k !== undefined) { s.textContent = String(k); s.style.background = colour(k); s.dataset.kind = k; }
    s.setAttribute("aria-hidden", "true");
    tray.appendChild(s);
  }
  tray.setAttribute("aria-label", `tray, ${v.tray.length} of ${v.capacity} slots used` + (v.tray.length ? ": tiles " + v.tray.join(", ") : ""));
  $("#left").textContent = `${v.tiles.length} / ${v.total}`;
  $("#clicks").textContent = String(v.clicks);
  const d = st.verdict;
  const el = $("#verdict");
  el.className = "verdict " + d.verdict;
  el.textContent = verdictText(d);
  board.dataset.session = st.session;
  board.dataset.status = v.status;
  board.dataset.verdict = d.verdict;
  board.dataset.clicks = String(v.clicks);
  if (v.status === "won") say(msg, "Cleared!", "good");
  else if (v.status === "lost") say(msg, "The tray is full: lost. Undo to take the click back.", "bad");
  else say(msg, ""); // playing again after an undo: no stale "Cleared!" or "lost"
}

function verdictText(d) {
  switch (d.verdict) {
    case "winnable": return `still winnable (a winning line of ${d.solution.length} clicks)`;
    case "won": return "won";
    case "lost": return {
      "tray-full": "lost: the tray is full",
      "search": "lost: every line of play is refuted",
      "tile-counts": "lost: a type's tile count is not a multiple of 3",
    }[d.proof] || "lost";
    default: return `unknown (the solver's ${d.limit} budget ran out)`;
  }
}

$("#board").addEventListener("click", async (ev) => {
  const t = ev.target.closest(".tile");
  if (!t || t.dataset.free !== "true" || !T.view || T.view.status !== "playing") return;
  T.hint = null;
  // The clicked tile leaves the board: keep the keyboard on the board, at the
  // free tile that took its place in the tab order.
  const free = () => $$("#board .tile[data-free=true]");
  const focused = document.activeElement === t ? free().indexOf(t) : -1;
  await send("click", { tile: Number(t.dataset.id) });
  if (focused >= 0 && !document.activeElement.closest("#board")) {
    const left = free();
    if (left.length) left[Math.min(focused, left.length - 1)].focus();
  }
});
$("#hint").addEventListener("click", () => {
  if (!T.verdict) return;
  if (T.verdict.hint === null) { say(msg, "No hint: " + verdictText(T.verdict), "bad"); return; }
  T.hint = T.verdict.hint;
  show({ session: T.id, view: T.view, verdict: T.verdict });
  const tile = T.view.tiles.find((t) => t.id === T.hint);
  say(msg, `Hint: the highlighted tile${tile ? " " + tile.kind : ""}, focused: Enter takes it.`);
  const el = T.els.get(T.hint);
  if (el) el.focus();
});
$("#undo").addEventListener("click", () => { T.hint = null; send("undo"); });
$("#solve").addEventListener("click", async () => {
  if (T.solving) { T.solving = false; return; }
  T.solving = true;
  $("#solve").textContent = "Stop";
  while (T.solving && T.view && T.view.status === "playing" && T.verdict.verdict === "winnable") {
    T.hint = null;
    await send("step");
    await new Promise((r) => setTimeout(r, 150));
  }
  T.solving = false;
  $("#solve").textContent = "Solve it for me";
});
$("#new").addEventListener("click", newLevel);
$("#difficulty").addEventListener("input", () => {
  $("#difficulty-v").textContent = Number($("#difficulty").value).toFixed(2);
});
$("#source").addEventListener("change", () => {
  const gen = $("#source").value === "generate";
  for (const id of ["#difficulty", "#layers", "#seed"]) $(id).disabled = !gen;
});
document.addEventListener("keydown", (ev) => {
  if (typing(ev.target)) return;
  if (letterKey(ev, "h")) $("#hint").click();
  if (letterKey(ev, "u")) $("#undo").click();
});

newLevel();
