// Battle page: a person against an AI, or two AIs, on one shared board.
"use strict";

const B = { id: null, view: null, hint: null, gen: 0, busy: false, paused: false, resume: null, cursor: [0, 0] };
const msg = $("#msg");

function players() {
  if ($("#mode").value === "watch") return [$("#aiA").value, $("#aiB").value];
  const ai = $("#opponent").value;
  return $("#first").checked ? ["human", ai] : [ai, "human"];
}

async function newBattle() {
  const body = { players: players() };
  const gen = ++B.gen;
  setPaused(false); // a new battle plays; the old loop, if waiting, ends
  try {
    body.seed = seedValue($("#seed"));
    const st = await api("/api/battle/new", body);
    // Of several battles asked for at once, only the last one asked shows.
    if (gen !== B.gen) return;
    B.hint = null;
    show(st);
    say(msg, "");
    aiLoop(gen);
  } catch (e) { if (gen === B.gen) say(msg, e.message, "bad"); }
}

async function send(action, body) {
  if (!B.id) return null;
  // An answer about a battle that "New battle" has since replaced is dropped:
  // showing it would bring the old game back.
  const gen = B.gen;
  try {
    const st = await api(`/api/battle/${B.id}/${action}`, body || {});
    if (gen !== B.gen) return null;
    show(st);
    return st;
  } catch (e) { if (gen === B.gen) say(msg, e.message, "bad"); return null; }
}

const humanTurn = () => B.view && !B.view.over && B.view.players[B.view.to_move] === "human";

/** Lets the AIs move, one move per tick, until a person is to move;
 *  while paused it waits. */
async function aiLoop(gen) {
  while (gen === B.gen && B.view && !B.view.over && !humanTurn()) {
    await new Promise((r) => setTimeout(r, 1000 / Number($("#speed").value)));
    if (B.paused) {
      await new Promise((r) => { B.resume = r; });
      continue; // steps may have moved meanwhile: look again
    }
    if (gen !== B.gen) return;
    if (!(await send("ai"))) return;
  }
}

/** Pauses or resumes the AIs' moves; resuming wakes a waiting loop. */
function setPaused(paused) {
  B.paused = paused;
  $("#pause").textContent = paused ? "Resume" : "Pause";
  $("#pause").append(" ", Object.assign(document.createElement("kbd"), { textContent: "P" }));
  $("#step").disabled = !paused;
  if (!paused && B.resume) { const wake = B.resume; B.resume = null; wake(); }
}

/** One AI move while paused. */
async function stepOnce() {
  if (!B.paused || B.busy || !B.view || B.view.over || humanTurn()) return;
  B.busy = true;
  await send("ai");
  B.busy = false;
}

function show(st) {
  const v = st.view;
  const board = $("#board");
  if (B.id !== st.session || (board.cells || []).length !== v.width * v.height) {
    buildBoard(board, v.width, v.height);
    B.cursor = [0, 0];
  }
  B.id = st.session; B.view = v;
  if (st.hint) B.hint = st.hint;
  const last = (x, y) => v.last.some((m) => m.cell[0] === x && m.cell[1] === y);
  for (let y = 0; y < v.height; y++) for (let x = 0; x < v.width; x++) {
    const c = board.cells[y * v.width + x];
    const ch = v.rows[y][x];
    const marks = [];
    if (last(x, y)) marks.push("last");
    if (B.cursor[0] === x && B.cursor[1] === y) marks.push("cursor");
    if (B.hint && B.hint[0] === x && B.hint[1] === y) marks.push("hinted");
    if (ch === "A" || ch === "B") {
      drawCell(c, ".", null, marks);
      c.className += " open cap" + ch;
      c.dataset.c = ch;
      c.setAttribute("aria-label", mineCellLabel(x, y, ch, null, marks));
    } else drawCell(c, ch, null, marks);
  }
  activeCell(board, B.cursor);
  $("#nameA").textContent = v.players[0]; $("#nameB").textContent = v.players[1];
  $("#scoreA").textContent = String(v.scores[0]); $("#scoreB").textContent = String(v.scores[1]);
  $("#target").textContent = String(v.target);
  // The seed replays the game: `arcade mines battle --seed S` plays it first.
  $("#gameseed").textContent = String(v.seed);
  $("#turn").textContent = v.over ? "–" : `${"AB"[v.to_move]} (${v.players[v.to_move]})`;
  board.dataset.over = String(v.over);
  // Nothing to hint or pause once the battle is over.
  $("#hint").disabled = v.over || !v.players.includes("human");
  $("#pause").disabled = v.over;
  board.dataset.turn = v.over ? "" : v.players[v.to_move];
  board.dataset.moves = String(v.scores[0] + v.scores[1]) + ":" + v.rows.join("").replace(/[^.]/g, "").length;
  if (v.over) {
    const human = v.players.indexOf("human");
    let text = v.winner === null ? "A draw." : `${"AB"[v.winner]} (${v.players[v.winner]}) wins ${v.scores[v.winner]}–${v.scores[1 - v.winner]}.`;
    if (human >= 0 && v.winner !== null) text = (v.winner === human ? "You win! " : "You lose. ") + text;
    say(msg, text, human >= 0 && v.winner === human ? "good" : (human >= 0 ? "bad" : ""));
    board.dataset.result = human < 0 ? "watched" : v.winner === human ? "won" : "lost";
  } else {
    delete board.dataset.result;
    // In words too, for a screen reader: the hint, or the move just played.
    if (st.hint) say(msg, `Hint: (${st.hint[0]},${st.hint[1]})`);
    else if (st.played) {
      // A capture shows the mover's letter and keeps the turn; a safe click passes it.
      const [x, y] = st.played, cell = v.rows[y][x];
      const captured = cell === "A" || cell === "B";
      const seat = captured ? "AB".indexOf(cell) : 1 - v.to_move;
      say(msg, `${"AB"[seat]} (${v.players[seat]}) played (${x},${y}): ${captured ? "a mine, and moves again" : "safe"}.`);
    }
  }
}

/** Draws one cell (from mines.js's conventions). */
function drawCell(c, ch, _p, marks) {
  let cls = "mcell";
  let text = "";
  if (ch >= "0" && ch <= "8") { cls += ` open n${ch}`; text = ch; }
  else if (ch === "*") cls += " open mine";
  for (const m of marks) cls += " " + m;
  c.className = cls;
  c.textContent = text;
  c.dataset.c = ch;
  c.setAttribute("aria-label", mineCellLabel(Number(c.dataset.x), Number(c.dataset.y), ch, null, marks));
}

function buildBoard(el, w, h) {
  el.innerHTML = "";
  el.style.gridTemplateColumns = `repeat(${w}, var(--cell))`;
  // Smaller cells (down to 18 px) when the board would not fit the width
  // (the 16×16 contest on a phone), rather than a sideways scroll.
  el.style.removeProperty("--cell");
  const room = el.parentElement.clientWidth - 4 - (w - 1);
  const cell = Math.floor(room / w);
  if (cell >= 18 && cell < parseFloat(getComputedStyle(el).getPropertyValue("--cell"))) {
    el.style.setProperty("--cell", `${cell}px`);
  }
  buildGrid(el, w, h, "mcell");
}

/** A person's click on (x, y), when it is their turn and the cell hidden. */
async function play(x, y) {
  if (!humanTurn() || B.view.rows[y][x] !== "." || B.busy) return;
  B.busy = true;
  B.hint = null;
  B.cursor = [x, y];
  const st = await send("click", { x, y });
  B.busy = false;
  if (st) aiLoop(B.gen);
}

$("#board").addEventListener("click", (ev) => {
  const c = ev.target.closest(".mcell");
  if (c) play(Number(c.dataset.x), Number(c.dataset.y));
});
$("#board").addEventListener("keydown", (ev) => {
  if (!B.view) return;
  const moved = movedCursor(ev, B.cursor, B.view.width, B.view.height);
  if (moved) {
    ev.preventDefault();
    B.cursor = moved;
    show({ session: B.id, view: B.view });
  } else if (ev.key === " " || ev.key === "Enter") {
    ev.preventDefault();
    play(B.cursor[0], B.cursor[1]);
  }
});
$("#hint").addEventListener("click", () => { if (humanTurn()) send("hint"); });
document.addEventListener("keydown", (ev) => {
  if (typing(ev.target)) return;
  if (letterKey(ev, "h")) $("#hint").click();
  if (letterKey(ev, "p")) $("#pause").click();
  if (letterKey(ev, "s") && !$("#step").disabled) $("#step").click();
});
$("#pause").addEventListener("click", () => setPaused(!B.paused));
$("#step").addEventListener("click", stepOnce);
$("#new").addEventListener("click", newBattle);
$("#mode").addEventListener("change", () => {
  const watch = $("#mode").value === "watch";
  $("#play-opts").classList.toggle("hidden", watch);
  $("#watch-opts").classList.toggle("hidden", !watch);
  $("#hint").disabled = watch;
});
$("#speed").addEventListener("input", () => { $("#speed-v").textContent = $("#speed").value; });

newBattle();
