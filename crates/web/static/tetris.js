// Tetris: play on the server's tick-driven game, or watch an AI. The board
// is drawn on a canvas at most once per animation frame.
"use strict";

const CELL = 24, HIDDEN = 2, W = 10, H = 20;
const board = $("#board"), ctx = board.getContext("2d");
const nextCtx = $("#next").getContext("2d");
const clock = new TickClock(60);
// Held keys repeat as on the NES: ← → after 16 ticks, then every 6; ↓ every
// 2 ticks, as `down_held`, which the server ignores once the piece ↓ was
// pressed on has locked.
const held = new HeldKeys({
  left: { delay: 16, interval: 6 }, right: { delay: 16, interval: 6 },
  down: { delay: 2, interval: 2, as: "down_held" },
});
let state = null, session = null, mode = "play", dirty = true, paused = false;
let ppsWindow = [];
const askGame = lastAsked();

// Watching: at most one request every REQUEST_MS asks for the pieces due
// within LEAD_MS at the chosen speed, with the board after every `every`-th
// piece; each animation frame shows the next board whose piece is due.
const REQUEST_MS = 50, LEAD_MS = 250, CATCH_UP_MS = 250, FULL_BUDGET_MS = 30, MAX_FRAMES = 256;
const feed = {
  t0: 0, p0: 0,      // the schedule: piece p0 is due at time t0
  have: 0,           // pieces the server has played
  queue: [],         // boards received, not yet shown, oldest first
  busy: false, sentAt: -Infinity, played: 0, over: false,
  epoch: 0,          // bumped by a speed change: answers asked before it are late
  restart(now, pieces) { this.t0 = now; this.p0 = pieces; },
};

const step = new Lockstep(async (to, inputs) => {
  const body = { to, inputs };
  if ($("#ghost").checked) body.ghost = aiChoice();
  return api(`/api/tetris/${session}/tick`, body);
});

function aiChoice() { return { name: $("#ai").value, moves: $("#moves").value }; }

function showModeControls() {
  const m = $("#mode").value;
  $$(".playonly").forEach((e) => e.classList.toggle("hidden", m !== "play"));
  $$(".watchonly").forEach((e) => e.classList.toggle("hidden", m !== "watch"));
}

async function newGame() {
  mode = $("#mode").value;
  const body = { mode, pieces: $("#pieces").value, level: Number($("#level").value) || 0 };
  const seq = $("#sequence").value.trim();
  if (mode === "watch") body.ai = aiChoice();
  const latest = askGame();
  try {
    if (seq) body.sequence = seq; else body.seed = seedValue($("#seed")) ?? 0;
    step.reset();
    held.clear();
    session = null;
    // Until the new game arrives the board's data describe none.
    board.dataset.pieces = "";
    const s = await api("/api/tetris/new", body);
    if (!latest()) return;
    session = s.session;
    paused = false;
    labelPause();
    clock.start(performance.now());
    Object.assign(feed, { have: s.pieces, queue: [], busy: false, sentAt: -Infinity, played: 0, over: !!s.end });
    feed.restart(performance.now(), s.pieces);
    // The first sample is the start, so the rate shows after one board.
    ppsWindow = [[performance.now(), s.pieces]];
    show(s);
    say($("#msg"), mode === "play" ? "Go!" : `${body.ai.name} is playing`);
    board.focus({ preventScroll: true });
    // The whole board and, when playing, the pad under it in view (a phone's
    // screen holds them only when scrolled there).
    board.parentElement.scrollIntoView({ block: "nearest" });
  } catch (e) { if (latest()) say($("#msg"), e.message, "bad"); }
}

function show(s) {
  state = s;
  dirty = true;
  $("#lines").textContent = s.lines;
  $("#level-now").textContent = s.level;
  $("#score").textContent = s.score;
  $("#npieces").textContent = s.pieces;
  board.dataset.lines = s.lines;
  board.dataset.pieces = s.pieces;
  board.dataset.tick = s.tick === undefined ? board.dataset.tick : s.tick;
  board.dataset.last = s.last ? `${s.last.placement.rotation},${s.last.placement.col},${s.last.placement.row}` : "";
  board.dataset.over = s.end || "";
  board.dataset.rows = s.rows.join("/");
  board.dataset.falling = s.falling ? `${s.falling.piece},${s.falling.rotation},${s.falling.col}` : "";
  board.dataset.ghost = s.ghost ? `${s.ghost.placement.rotation},${s.ghost.placement.col},${s.ghost.placement.row}` : "";
  if (s.ghost) showWhy(s.ghost.why, (ai) => `Why the ghost is there: ${ai}'s score of the field it leaves`);
  else showWhy(s.last && s.last.why, (ai) => `Why ${ai} put the last piece there: its score of the field it left`);
  if (s.end) say($("#msg"), `Game over: ${s.end.replace("_", " ")} after ${s.pieces} pieces, ${s.lines} lines`, s.end === "topped_out" ? "bad" : "good");
}

/** An AI's score of the field its placement leaves, a row per feature it
 *  weighs, under the caption `caption(ai)`. */
function showWhy(why, caption) {
  $("#why").classList.toggle("hidden", !why);
  if (!why) return;
  $("#why-caption").textContent = caption(why.ai);
  $("#why").dataset.ai = why.ai;
  const num = (x, digits) => x.toLocaleString("en", { maximumFractionDigits: digits });
  const cell = (tag, text) => { const c = document.createElement(tag); c.textContent = text; return c; };
  const row = (cells, tag, cls) => {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    for (const text of cells) tr.append(cell(tag, text));
    return tr;
  };
  const table = $("#why-terms");
  table.replaceChildren(row(["feature", "value", "× weight", "= points"], "th"));
  for (const t of why.terms) {
    table.append(row([t.feature.replaceAll("_", " "), num(t.value, 2), num(t.weight, 2), num(t.value * t.weight || 0, 1)], "td"));
  }
  table.append(row(["score", "", "", num(why.score, 1)], "td", "total"));
  table.dataset.score = why.score;
}

// --- drawing ---------------------------------------------------------------

function cellRect(x, y) { return [x * CELL, (H + HIDDEN - 1 - y) * CELL]; }

function fillCell(c, x, y, colour, alpha) {
  if (y >= H + HIDDEN || x < 0 || x >= W || y < 0) return;
  const [px, py] = cellRect(x, y);
  c.globalAlpha = alpha === undefined ? 1 : alpha;
  c.fillStyle = colour;
  c.fillRect(px + 1, py + 1, CELL - 2, CELL - 2);
  c.globalAlpha = 1;
}

function outline(c, cells, colour, dashed) {
  c.save();
  c.strokeStyle = colour; c.lineWidth = 3;
  if (dashed) c.setLineDash([5, 4]);
  for (const [x, y] of cells) {
    if (y >= H + HIDDEN) continue;
    const [px, py] = cellRect(x, y);
    c.strokeRect(px + 2.5, py + 2.5, CELL - 5, CELL - 5);
  }
  c.restore();
}

function route(c, points, colour) {
  if (!points || points.length < 2) return;
  c.save();
  c.strokeStyle = colour; c.lineWidth = 3; c.beginPath();
  points.forEach(([x, y], i) => {
    const px = (x + 0.5) * CELL, py = (H + HIDDEN - 1 - y + 0.5) * CELL;
    if (i === 0) c.moveTo(px, py); else c.lineTo(px, py);
  });
  c.stroke(); c.restore();
}

function draw() {
  dirty = false;
  ctx.fillStyle = "#1d1c1a"; ctx.fillRect(0, 0, board.width, board.height);
  ctx.fillStyle = "#37352f"; ctx.fillRect(0, 0, board.width, HIDDEN * CELL);
  if (!state) {
    banner(ctx, ["Tetris", "Enter or New game to start"]);
    return;
  }
  state.rows.forEach((row, i) => {
    const y = H - 1 - i;
    for (let x = 0; x < W; x++) if (row[x] !== ".") fillCell(ctx, x, y, PIECE_COLOURS[row[x]]);
  });
  if (state.falling) {
    for (const [x, y] of state.falling.landing) fillCell(ctx, x, y, PIECE_COLOURS[state.falling.piece], 0.25);
    for (const [x, y] of state.falling.cells) fillCell(ctx, x, y, PIECE_COLOURS[state.falling.piece]);
  }
  if (state.ghost) {
    outline(ctx, state.ghost.cells, "#ffffff", true);
    route(ctx, state.ghost.route, "#f9a825");
  }
  if (state.last) {
    outline(ctx, state.last.cells, state.last.tuck ? "#f9a825" : "#ffffff", false);
    route(ctx, state.last.route, "#f9a825");
  }
  if (state.end) banner(ctx, ["Game over", "Enter or New game: play again"]);
  nextCtx.fillStyle = "#1d1c1a"; nextCtx.fillRect(0, 0, 96, 64);
  $("#next").setAttribute("aria-label", state.next ? `next piece: ${state.next}` : "no next piece");
  if (state.next) {
    for (const [dx, dy] of state.next_cells) {
      nextCtx.fillStyle = PIECE_COLOURS[state.next];
      nextCtx.fillRect(36 + dx * 16, 28 - dy * 16, 14, 14);
    }
  }
}

// --- the loop ----------------------------------------------------------------

function frame(now) {
  requestAnimationFrame(frame);
  if (session && state && !paused) {
    if (mode === "play") {
      if (!state.end) {
        const tick = clock.tick(now);
        for (const [t, action] of held.due(tick + 1)) step.press(t - 1, action);
        step.pump(tick).then((s) => { if (s) show(s); }).catch(fail);
      }
    } else {
      watchPump(now);
      watchShow(now);
    }
  }
  if (dirty) draw();
}

/** The piece count due by time `now` at `rate` pieces/s. */
function dueBy(now, rate) { return feed.p0 + Math.floor((now - feed.t0) * rate / 1000); }

/** Asks for the next pieces, unless a request is out or went out recently. */
function watchPump(now) {
  if (feed.busy || feed.over || now - feed.sentAt < REQUEST_MS) return;
  const speed = $("#speed").value;
  let body;
  if (speed === "max") {
    // About three boards per answer: one per frame until the next.
    const every = Math.max(Math.ceil(100000 / MAX_FRAMES), Math.ceil(feed.played / 3));
    body = { pieces: 100000, budget_ms: FULL_BUDGET_MS, every };
  } else {
    const rate = Number(speed), every = Math.ceil(rate / 60);
    // Fallen behind by over a second (a slow machine): forget the backlog.
    if (feed.queue.length === 0 && dueBy(now, rate) - feed.have > rate) feed.restart(now, feed.have);
    const pieces = Math.min(dueBy(now + LEAD_MS, rate) - feed.have, every * MAX_FRAMES, 100000);
    if (pieces < 1) return;
    body = { pieces, budget_ms: 10, every };
  }
  feed.busy = true;
  feed.sentAt = now;
  const id = session, epoch = feed.epoch;
  api(`/api/tetris/${id}/watch`, body).then((s) => {
    if (id !== session) return;
    const frames = s.frames;
    delete s.frames;
    if (epoch !== feed.epoch) {
      // Asked at the old speed (full speed: thousands of pieces ahead of
      // the new schedule, never due): show where it got and go on from there.
      feed.queue = [];
      show(s);
      feed.restart(performance.now(), s.pieces);
    } else {
      feed.queue.push(...frames, s);
    }
    feed.have = s.pieces;
    feed.played = s.played;
    feed.over = !!s.end;
  }).catch(fail).finally(() => { if (id === session) feed.busy = false; });
}

/** Shows the next board that is due (at most one per frame), or the latest
 *  one due when behind: over two boards at full speed, over CATCH_UP_MS late
 *  at a set speed. */
function watchShow(now) {
  const speed = $("#speed").value, rate = Number(speed), q = feed.queue;
  let due = 0;
  if (speed === "max") due = q.length;
  else while (due < q.length && q[due].pieces <= dueBy(now, rate)) due++;
  if (due === 0) return;
  const behind = speed === "max" ? due > 2
    : now - (feed.t0 + (q[0].pieces - feed.p0) * 1000 / rate) > CATCH_UP_MS;
  const s = q.splice(0, behind ? due : 1).pop();
  ppsWindow.push([now, s.pieces]);
  while (ppsWindow.length > 2 && ppsWindow[ppsWindow.length - 1][0] - ppsWindow[0][0] > 1000) ppsWindow.shift();
  const [t0, p0] = ppsWindow[0];
  if (now > t0) $("#pps").textContent = Math.round((s.pieces - p0) * 1000 / (now - t0)).toLocaleString("en");
  show(s);
}

function fail(e) { say($("#msg"), e.message, "bad"); paused = true; labelPause(); }

function togglePause() {
  const now = performance.now();
  paused = !paused;
  held.clear();
  if (paused) clock.pause(now); else { clock.resume(now); feed.restart(now, state ? state.pieces : 0); }
  labelPause();
}

/** The pause button says what it will do: Resume only while paused. */
function labelPause() {
  $("#pause").textContent = paused ? "Resume" : "Pause";
  $("#pause").append(" ", Object.assign(document.createElement("kbd"), { textContent: "P" }));
}

const KEYS = {
  ArrowLeft: "left", ArrowRight: "right", ArrowDown: "down", ArrowUp: "cw", Control: "ccw", " ": "drop",
};
/** The letters that turn the piece, which the "Letter keys" switch turns off. */
const LETTERS = { x: "cw", z: "ccw" };

document.addEventListener("keydown", (e) => {
  // Enter starts a game unless one is being played (a stray Enter would
  // throw it away); a watch restarts.
  if (isNewGameKey(e)) {
    e.preventDefault();
    if (!session || mode === "watch" || (state && state.end)) newGame();
    return;
  }
  if (typing(e.target) || pressesControl(e)) return;
  // Toggles act once per press, whatever the key's repeats.
  if (letterKey(e, "p")) { if (!e.repeat) togglePause(); return; }
  if (letterKey(e, "g")) { if (!e.repeat) $("#ghost").checked = !$("#ghost").checked; return; }
  const letter = Object.keys(LETTERS).find((k) => letterKey(e, k));
  const action = letter ? LETTERS[letter] : KEYS[e.key];
  if (!action || !playing()) return;
  e.preventDefault();
  // The operating system's repeats are ignored: HeldKeys repeats on ticks.
  if (!e.repeat) hold(e.code, action);
});

document.addEventListener("keyup", (e) => held.up(e.code));
window.addEventListener("blur", () => held.clear());

function playing() { return mode === "play" && session && !paused && !(state && state.end); }

/** A key or pad button `id` went down: `action` now, repeated while held. */
function hold(id, action) {
  if (!playing() || held.has(id)) return;
  // The later of ← and → wins while both are held.
  if (action === "left" || action === "right") held.stop(action === "left" ? "right" : "left");
  held.down(id, action, step.press(clock.tick(performance.now()), action));
}

// The touch pad: each button is a key, held while the finger (or mouse) stays down.
for (const button of $$("#pad button")) {
  const id = "pad-" + button.dataset.action;
  button.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    button.setPointerCapture(e.pointerId);
    hold(id, button.dataset.action);
  });
  for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) button.addEventListener(end, () => held.up(id));
  // Focused from the keyboard, Enter or Space is the button's key, held likewise.
  button.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    if (!e.repeat) hold(id, button.dataset.action);
  });
  button.addEventListener("keyup", (e) => { if (e.key === "Enter" || e.key === " ") held.up(id); });
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden && !paused && session && mode === "play") togglePause();
});

$("#new").addEventListener("click", newGame);
$("#pause").addEventListener("click", togglePause);
$("#mode").addEventListener("change", showModeControls);
$("#ghost").addEventListener("change", () => { board.focus(); });
$("#speed").addEventListener("change", () => {
  // The new speed starts from the latest board received.
  feed.epoch++;
  if (feed.queue.length) show(feed.queue.splice(0).pop());
  feed.restart(performance.now(), state ? state.pieces : 0);
});
showModeControls();
requestAnimationFrame(frame);
