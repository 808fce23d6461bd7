// Minesweeper page: play (server-held game), overlay, hint, AI, analyse mode.
"use strict";

const S = { id: null, view: null, analysis: null, overlay: false, cursor: [0, 0], running: false, busy: false };
const askGame = lastAsked();
const timer = new Timer($("#timer"));
const msg = $("#msg");

/** A probability as a whole percentage, never rounding an uncertain cell to 0 or 100
 *  (as `arcade mines analyze` prints it). */
function percent(p) {
  if (p === 0 || p === 1) return String(p * 100);
  return String(Math.min(99, Math.max(1, Math.round(p * 100))));
}

function levelString() {
  const v = $("#level").value;
  if (v !== "custom") return v;
  return `${$("#cw").value}x${$("#ch").value}/${$("#cm").value}`;
}

/** Starts a game; of several asked for at once, only the last one asked shows. */
async function newGame() {
  stopAi();
  const latest = askGame();
  const body = { level: levelString(), rule: $("#rule").value, analyze: S.overlay };
  try {
    body.seed = seedValue($("#seed"));
    const st = await api("/api/mines/new", body);
    if (!latest()) return;
    timer.reset();
    S.cursor = [0, 0];
    show(st);
    say(msg, "");
  } catch (e) { if (latest()) say(msg, e.message, "bad"); }
}

/** Sends one action and shows the answer; actions are serialised. */
async function send(action, body) {
  if (!S.id || S.busy) return null;
  S.busy = true;
  try {
    const st = await api(`/api/mines/${S.id}/${action}`, Object.assign({ analyze: S.overlay }, body || {}));
    show(st);
    return st;
  } catch (e) {
    say(msg, e.message, "bad");
    if (e.status === 404) stopAi();
    return null;
  } finally { S.busy = false; }
}

function buildBoard(el, w, h) {
  el.style.gridTemplateColumns = `repeat(${w}, var(--cell))`;
  buildGrid(el, w, h, "mcell");
  el.dataset.w = w; el.dataset.h = h;
}


/** Draws one cell from its character and, if any, its analysis. */
function drawCell(c, ch, p, marks) {
  let cls = "mcell";
  let html = "";
  if (ch >= "0" && ch <= "8") { cls += ` open n${ch}`; html = ch; }
  else if (ch === "F") cls += " flag";
  else if (ch === "*") cls += " open mine";
  else if (ch === "!") cls += " boom";
  else if (ch === "x") cls += " wrong";
  if (p !== null && p !== undefined && ch !== "F") {
    html = `<span class="p">${percent(p)}</span>`;
    c.dataset.p = String(p);
  } else delete c.dataset.p;
  if (p !== null && p !== undefined) {
    if (p === 0) cls += " safe";
    if (p === 1) cls += " certain";
  }
  for (const m of marks) cls += " " + m;
  c.className = cls;
  c.innerHTML = html;
  c.dataset.c = ch;
  c.setAttribute("aria-label", mineCellLabel(Number(c.dataset.x), Number(c.dataset.y), ch, p === null || p === undefined ? null : `${percent(p)}%`, marks));
}

function marksFor(x, y, a, extra) {
  const m = [];
  const at = (xy) => xy && xy[0] === x && xy[1] === y;
  if (a) {
    if (at(a.best)) m.push("best");
    if (a.forced_fifty_fifty && a.forced_fifty_fifty.some(at)) m.push("fifty");
  }
  if (extra && at(extra.hint)) m.push("hinted");
  if (extra && at(extra.played)) m.push("played");
  if (at(S.cursor)) m.push("cursor");
  return m;
}

function show(st) {
  const v = st.view;
  const board = $("#board");
  if (S.id !== st.session || !S.view || S.view.width !== v.width || S.view.height !== v.height) {
    buildBoard(board, v.width, v.height);
  }
  S.id = st.session; S.view = v; S.analysis = st.analysis; S.extra = st;
  const a = S.overlay ? st.analysis : null;
  const cells = board.cells;
  for (let y = 0; y < v.height; y++) for (let x = 0; x < v.width; x++) {
    const ch = v.rows[y][x];
    const p = a ? a.probabilities[y][x] : null;
    drawCell(cells[y * v.width + x], ch, p, marksFor(x, y, a, st));
  }
  activeCell(board, S.cursor);
  board.dataset.position = positionText(v);
  board.dataset.status = v.status;
  $("#counter").textContent = String(v.mines_left);
  $("#status").textContent = v.status;
  $("#shown-seed").textContent = String(v.seed);
  if (v.status === "playing") timer.start();
  if (v.status === "won" || v.status === "lost") {
    timer.stop();
    stopAi();
    say(msg, v.status === "won" ? "You won!" : "Boom — you lost.", v.status === "won" ? "good" : "bad");
  } else if (st.hint) {
    say(msg, `Hint: (${st.hint[0]},${st.hint[1]})` + probText(st.hint));
  } else if (st.played) {
    say(msg, `AI played (${st.played[0]},${st.played[1]})` + probText(st.played));
  } else if (S.overlay && a) {
    say(msg, a.forced_fifty_fifty ? "A forced 50/50: no later reveal can tell these cells apart." : "");
  }
}

function probText(xy) {
  const a = S.analysis;
  if (!a) return "";
  const p = a.probabilities[xy[1]][xy[0]];
  return p === null ? "" : `, mine probability ${percent(p)}%`;
}

/** The position the player sees, in the analyse text format (flags are the
 *  player's guesses, so they count as hidden). */
function positionText(v) {
  const rows = v.rows.map((r) => r.replace(/[^0-8]/g, "."));
  return `${v.width} ${v.height} ${v.mines}\n` + rows.join("\n") + "\n";
}

function cellAt(ev) {
  const c = ev.target.closest(".mcell");
  return c ? [Number(c.dataset.x), Number(c.dataset.y), c.dataset.c] : null;
}

function click(x, y, ch) {
  S.cursor = [x, y];
  if (ch >= "1" && ch <= "8") return send("chord", { x, y });
  return send("reveal", { x, y });
}

$("#board").addEventListener("click", (ev) => {
  const c = cellAt(ev);
  if (!c) return;
  // A phone has no right click: with "Taps flag" ticked a tap flags.
  if ($("#flagmode").checked) { S.cursor = [c[0], c[1]]; send("flag", { x: c[0], y: c[1] }); }
  else click(c[0], c[1], c[2]);
});
$("#board").addEventListener("contextmenu", (ev) => {
  ev.preventDefault();
  const c = cellAt(ev);
  if (c) { S.cursor = [c[0], c[1]]; send("flag", { x: c[0], y: c[1] }); }
});
$("#board").addEventListener("keydown", (ev) => {
  if (!S.view) return;
  const [x, y] = S.cursor;
  const moved = movedCursor(ev, S.cursor, S.view.width, S.view.height);
  if (moved) {
    ev.preventDefault();
    S.cursor = moved;
    show(S.extra);
  } else if (ev.key === " " || ev.key === "Enter") {
    ev.preventDefault();
    click(x, y, S.view.rows[y][x]);
  } else if (letterKey(ev, "f") && !ev.repeat) {
    // A toggle acts once per press: a held key's repeats would flicker it.
    send("flag", { x, y });
  }
});
document.addEventListener("keydown", (ev) => {
  if (typing(ev.target)) return;
  // The play keys belong to the play tab: in Analyse they acted on the hidden game.
  if ($("#play").classList.contains("hidden")) return;
  if (letterKey(ev, "h")) send("hint");
  else if (letterKey(ev, "s")) send("step");
  else if (letterKey(ev, "p") && !ev.repeat) { $("#overlay").click(); }
});

$("#new").addEventListener("click", newGame);
$("#level").addEventListener("change", () => {
  $("#custom").classList.toggle("hidden", $("#level").value !== "custom");
});
$("#overlay").addEventListener("change", () => {
  S.overlay = $("#overlay").checked;
  send("state");
});
$("#hint").addEventListener("click", () => send("hint"));
$("#step").addEventListener("click", () => send("step"));
$("#speed").addEventListener("input", () => { $("#speed-v").textContent = $("#speed").value; });
$("#run").addEventListener("click", () => (S.running ? stopAi() : runAi()));

function stopAi() {
  S.running = false;
  $("#run").textContent = "AI: play";
}

async function runAi() {
  if (!S.view || S.view.status === "won" || S.view.status === "lost") return;
  S.running = true;
  $("#run").textContent = "AI: stop";
  while (S.running) {
    const t0 = performance.now();
    // A hint or click of the player's may be out (send would skip the step
    // and the AI stop): wait for it, then step.
    while (S.busy && S.running) await new Promise((r) => setTimeout(r, 20));
    if (!S.running) break;
    const st = await send("step");
    if (!st || st.view.status === "won" || st.view.status === "lost") break;
    const wait = 1000 / Number($("#speed").value) - (performance.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  stopAi();
}

// ---- analyse mode ----

// The editor's position, its keyboard cursor, and the analysis drawn on it.
const A = { w: 9, h: 9, mines: 10, cells: [], cursor: [0, 0], report: null };

function tab(which) {
  for (const name of ["play", "analyze"]) {
    const on = name === which;
    $("#" + name).classList.toggle("hidden", !on);
    $("#tab-" + name).classList.toggle("primary", on);
    $("#tab-" + name).setAttribute("aria-selected", String(on));
    $("#tab-" + name).tabIndex = on ? 0 : -1;
  }
}
$("#tab-play").addEventListener("click", () => tab("play"));
$("#tab-analyze").addEventListener("click", () => tab("analyze"));
// The tabs pattern: the arrows move between the two tabs.
$("[role=tablist]").addEventListener("keydown", (ev) => {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
  ev.preventDefault();
  const next = $("#play").classList.contains("hidden") ? "play" : "analyze";
  tab(next);
  $("#tab-" + next).focus();
});

function editorText() {
  const rows = [];
  for (let y = 0; y < A.h; y++) rows.push(A.cells.slice(y * A.w, (y + 1) * A.w).join(""));
  return `${A.w} ${A.h} ${A.mines}\n` + rows.join("\n") + "\n";
}

/** Loads the editor from the text box; false (with a message) if it does not parse. */
function loadText(text) {
  const lines = text.split("\n").map((l) => l.split("#")[0].trim()).filter((l) => l !== "");
  if (lines.length === 0) return false;
  const head = lines[0].split(/\s+/).map(Number);
  if (head.length !== 3 || head.some((n) => !Number.isInteger(n) || n < 0)) return false;
  const [w, h, m] = head;
  if (w > 64 || h > 64 || lines.length - 1 !== h || lines.slice(1).some((l) => l.length !== w)) return false;
  A.w = w; A.h = h; A.mines = m;
  A.cells = lines.slice(1).join("").split("");
  A.cursor = [Math.min(A.cursor[0], w - 1), Math.min(A.cursor[1], h - 1)];
  $("#aw").value = w; $("#ah").value = h; $("#am").value = m;
  return true;
}

function drawEditor(report) {
  A.report = report;
  const el = $("#aboard");
  if (Number(el.dataset.w) !== A.w || Number(el.dataset.h) !== A.h) buildBoard(el, A.w, A.h);
  const cells = el.cells;
  for (let y = 0; y < A.h; y++) for (let x = 0; x < A.w; x++) {
    let ch = A.cells[y * A.w + x];
    const p = report ? report.probabilities[y][x] : null;
    const marks = [];
    if (report) {
      const at = (xy) => xy[0] === x && xy[1] === y;
      if (report.best && at(report.best)) marks.push("best");
      if (report.forced_fifty_fifty && report.forced_fifty_fifty.some(at)) marks.push("fifty");
    }
    if (x === A.cursor[0] && y === A.cursor[1]) marks.push("cursor");
    drawCell(cells[y * A.w + x], ch, p, marks);
  }
  activeCell(el, A.cursor);
}

/** The arrangements whose natural log is `ln`, as `arcade mines analyze`
 *  says them: counted when few, else a power of ten. */
function arrangements(ln) {
  const log10 = ln / Math.LN10;
  if (log10 >= 6) return `about 10^${log10.toFixed(1)} arrangements`;
  const n = Math.round(Math.exp(ln));
  return `${n} arrangement${n === 1 ? "" : "s"}`;
}

async function analyzeNow() {
  const text = $("#ptext").value;
  const amsg = $("#amsg");
  if (loadText(text)) drawEditor(null);
  try {
    const r = await api("/api/mines/analyze", { position: text });
    loadText(text);
    drawEditor(r);
    say(amsg, "");
    const best = r.best ? `(${r.best[0]},${r.best[1]}) at ${percent(r.best_probability)}%` : "none";
    $("#asummary").innerHTML =
      `<p>Best move <b id="abest">${best}</b>; ${r.safe.length} safe, ${r.mines_certain.length} certain mines` +
      (r.forced_fifty_fifty ? `; forced 50/50: ${r.forced_fifty_fifty.map((c) => `(${c[0]},${c[1]})`).join(" ")}` : "") +
      `; ${arrangements(r.arrangements_ln)}.</p>`;
  } catch (e) {
    $("#asummary").innerHTML = "";
    say(amsg, e.message, "bad");
  }
}

$("#analyze-btn").addEventListener("click", analyzeNow);
$("#blank").addEventListener("click", () => {
  A.w = Math.min(64, Math.max(1, Number($("#aw").value)));
  A.h = Math.min(64, Math.max(1, Number($("#ah").value)));
  A.mines = Math.max(0, Number($("#am").value));
  A.cells = new Array(A.w * A.h).fill(".");
  $("#ptext").value = editorText();
  drawEditor(null);
});
/** Sets the editor's cell `[x, y]` to what `change` makes of its character,
 *  and analyses the new position. */
function editCell([x, y], change) {
  A.cursor = [x, y];
  const i = y * A.w + x;
  A.cells[i] = change(A.cells[i]);
  $("#ptext").value = editorText();
  analyzeNow();
}
const cycled = (ch) => { const order = ".012345678"; return order[(order.indexOf(ch) + 1) % order.length]; };
const mineToggled = (ch) => (ch === "*" ? "." : "*");
$("#aboard").addEventListener("click", (ev) => {
  const c = cellAt(ev);
  if (c) editCell(c, cycled);
});
$("#aboard").addEventListener("contextmenu", (ev) => {
  ev.preventDefault();
  const c = cellAt(ev);
  if (c) editCell(c, mineToggled);
});
$("#aboard").addEventListener("keydown", (ev) => {
  if (A.cells.length === 0) return;
  const moved = movedCursor(ev, A.cursor, A.w, A.h);
  let change = null;
  if (/^[0-8]$/.test(ev.key)) change = () => ev.key;
  else if (ev.key === "." || ev.key === "Delete" || ev.key === "Backspace") change = () => ".";
  else if ((letterKey(ev, "m") || ev.key === "*") && !ev.repeat) change = mineToggled;
  else if (ev.key === " " || ev.key === "Enter") change = cycled;
  if (!moved && !change) return;
  ev.preventDefault();
  if (moved) { A.cursor = moved; drawEditor(A.report); } else editCell(A.cursor, change);
});
$("#share").addEventListener("click", async () => {
  const url = `${location.origin}/mines#p=${encodeURIComponent($("#ptext").value)}`;
  history.replaceState(null, "", url);
  try { await navigator.clipboard.writeText(url); say($("#amsg"), "Link copied: " + url, "good"); }
  catch (_) { say($("#amsg"), "Link: " + url); }
});
$("#to-analyze").addEventListener("click", () => {
  if (!S.view) return;
  $("#ptext").value = positionText(S.view);
  tab("analyze");
  analyzeNow();
});

// A shared position (`#p=…`) opens the analyser: at the start, and when a
// link is pasted into an open page. A link cut short is said so, not thrown.
function openSharedPosition() {
  if (!location.hash.startsWith("#p=")) return;
  tab("analyze");
  try {
    $("#ptext").value = decodeURIComponent(location.hash.slice(3));
  } catch (_) {
    say($("#amsg"), "This link's position is damaged (cut short?): paste the position instead", "bad");
    return;
  }
  analyzeNow();
}
window.addEventListener("hashchange", openSharedPosition);
openSharedPosition();
newGame();
