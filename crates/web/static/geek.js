// Geek Challenge: the server replays a record on the official rules and
// answers every piece; the page builds the coloured field of each piece
// once, then scrubs and plays through them.
"use strict";

const W = 10, H = 20, CELL = 24, PIECES = 10000;
const canvas = $("#board"), ctx = canvas.getContext("2d");
let replay = null, fields = [], index = 0, playing = false, last = 0, carry = 0;
const askReplay = lastAsked();

/** Replays a record (`query` names a built-in one, `body` is a file's text);
 *  `button` is the one that asked for it, shown as the record on the board. */
async function load(query, body, button) {
  const latest = askReplay();
  say($("#msg"), "Replaying…");
  playing = false;
  for (const b of [$("#published"), $("#arcade")]) b.classList.toggle("primary", b === button);
  try {
    const res = await reach("/api/geek/replay" + query, { method: "POST", body: body || "" });
    const data = await res.json().catch(() => null);
    if (!latest()) return;
    if (!res.ok) throw new Error(data && data.error ? data.error : `HTTP ${res.status}`);
    replay = data;
    fields = build(data.frames);
    $("#name").textContent = data.name;
    $("#total").textContent = data.frames.length;
    $("#scrub").max = Math.max(0, data.frames.length - 1);
    const r = data.result;
    const ends = { piece_limit: "all 10,000 pieces played", top_out: "a placement left a cell in every row",
      spawn_blocked: "a piece could not appear", record_end: "the record ran out" };
    $("#result").innerHTML = "";
    const p = document.createElement("p");
    p.textContent = `Final score ${r.score.toLocaleString("en")} after ${r.pieces} piece${r.pieces === 1 ? "" : "s"}; ended: ${ends[r.end] || r.end}` +
      `; clears of 1/2/3/4 rows: ${r.clears.join(" / ")}` + (r.unplayed_pieces ? `; ${r.unplayed_pieces} piece${r.unplayed_pieces === 1 ? " of the record was" : "s of the record were"} not placed (the game ended first)` : "");
    $("#result").append(p);
    canvas.dataset.final = r.score;
    canvas.dataset.end = r.end;
    say($("#msg"), r.end === "piece_limit" ? "" : `The replay stops at piece ${r.pieces}: ${ends[r.end] || r.end}.`, r.end === "piece_limit" ? "" : "bad");
    go(data.frames.length - 1);
  } catch (e) {
    if (!latest()) return;
    clearReplay();
    say($("#msg"), e.message, "bad");
  }
}

/** No record on the board: a failed upload must not leave the last one's
 *  name, score and field looking like its own. */
function clearReplay() {
  replay = null;
  fields = [];
  index = 0;
  setPlaying(false);
  $("#name").textContent = $("#points").textContent = "–";
  $("#piece").textContent = $("#total").textContent = $("#score").textContent = "0";
  $("#scrub").max = 0;
  $("#scrub").value = 0;
  $("#result").innerHTML = "";
  for (const key of ["final", "end", "piece", "score"]) delete canvas.dataset[key];
  draw();
}

/** The coloured field after each piece is written (before full rows go),
 *  checked against the server's field. */
function build(frames) {
  const out = [];
  let field = Array.from({ length: H }, () => Array(W).fill("."));
  frames.forEach((f, i) => {
    for (const [x, y] of f.c) field[y][x] = f.p;
    const rows = field.map((r) => r.join(""));
    for (let y = 0; y < H; y++) {
      const bits = parseInt(f.g.substr(3 * y, 3), 16);
      for (let x = 0; x < W; x++) {
        if (((bits >> x) & 1) !== (rows[y][x] !== "." ? 1 : 0)) throw new Error(`field mismatch at piece ${i + 1}`);
      }
    }
    out.push(rows);
    const kept = field.filter((r) => r.includes("."));
    field = Array.from({ length: H - kept.length }, () => Array(W).fill(".")).concat(kept);
  });
  return out;
}

function go(i, paint = true) {
  if (!replay || !replay.frames.length) return;
  index = Math.max(0, Math.min(replay.frames.length - 1, i));
  const f = replay.frames[index];
  const before = index > 0 ? replay.frames[index - 1].s : 0;
  $("#piece").textContent = index + 1;
  $("#score").textContent = f.s.toLocaleString("en");
  // The rules score nothing for the 10,000th piece: it ends the game.
  const note = index === PIECES - 1 ? " (the last piece scores nothing)" : "";
  $("#points").textContent = f.l ? `${f.l} row${f.l > 1 ? "s" : ""}, +${(f.s - before).toLocaleString("en")}${note}` : "–";
  $("#scrub").value = index;
  $("#scrub").setAttribute("aria-valuetext",
    `piece ${(index + 1).toLocaleString("en")} of ${replay.frames.length.toLocaleString("en")}, score ${f.s.toLocaleString("en")}`);
  canvas.dataset.piece = index + 1;
  canvas.dataset.score = f.s;
  if (paint) draw();
}

function draw() {
  ctx.fillStyle = "#1d1c1a"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!replay) return;
  const rows = fields[index], f = replay.frames[index];
  rows.forEach((row, y) => {
    const full = !row.includes(".");
    for (let x = 0; x < W; x++) {
      if (row[x] === ".") continue;
      ctx.fillStyle = PIECE_COLOURS[row[x]];
      ctx.fillRect(x * CELL + 1, y * CELL + 1, CELL - 2, CELL - 2);
    }
    if (full) { ctx.fillStyle = "rgba(255,255,255,.45)"; ctx.fillRect(0, y * CELL, W * CELL, CELL); }
  });
  ctx.strokeStyle = "#fff"; ctx.lineWidth = 3;
  for (const [x, y] of f.c) ctx.strokeRect(x * CELL + 2.5, y * CELL + 2.5, CELL - 5, CELL - 5);
}

const gate = new RedrawGate();

function frame(now) {
  requestAnimationFrame(frame);
  if (!playing || !replay) { last = now; return; }
  carry += (now - last) * Number($("#speed").value) / 1000;
  last = now;
  const n = Math.floor(carry);
  if (n > 0) {
    carry -= n;
    go(index + n, gate.open(now, Number($("#speed").value) > 60));
    if (index >= replay.frames.length - 1) setPlaying(false);
  }
}

function setPlaying(on) {
  playing = on && !!replay;
  if (!playing && replay) draw(); // the piece it stopped at, whatever the gate skipped
  $("#play").firstChild.textContent = playing ? "Pause " : "Play ";
  carry = 0;
}

$("#published").addEventListener("click", () => load("?record=published", "", $("#published")));
$("#arcade").addEventListener("click", () => load("?record=arcade", "", $("#arcade")));
$("#file").addEventListener("change", async () => {
  const f = $("#file").files[0];
  // Emptied so that choosing the same file again (after fixing it) loads it.
  $("#file").value = "";
  if (f) load("", f);
});
$("#scrub").addEventListener("input", () => go(Number($("#scrub").value)));
$("#back").addEventListener("click", () => go(index - 1));
$("#fwd").addEventListener("click", () => go(index + 1));
$("#start").addEventListener("click", () => go(0));
$("#end").addEventListener("click", () => replay && go(replay.frames.length - 1));
$("#play").addEventListener("click", () => {
  if (replay && index >= replay.frames.length - 1) go(0);
  setPlaying(!playing);
});
document.addEventListener("keydown", (e) => {
  if (typing(e.target) || pressesControl(e)) return;
  if (e.key === "ArrowLeft") { e.preventDefault(); go(index - 1); }
  if (e.key === "ArrowRight") { e.preventDefault(); go(index + 1); }
  if (e.key === " ") { e.preventDefault(); if (!e.repeat) $("#play").click(); }
});
draw();
requestAnimationFrame(frame);
load("?record=arcade", "", $("#arcade"));
