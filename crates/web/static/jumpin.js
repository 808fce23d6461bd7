// Jump In' page: challenges and generated puzzles, moves, hints, watch.
"use strict";

const J = { id: null, view: null, selected: null, targets: [], hint: null, cursor: [2, 2], watching: false, busy: false };
const msg = $("#msg");
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

async function loadChallenges() {
  const list = await reach("/api/jumpin/challenges").then((r) => r.json());
  const sel = $("#challenge");
  for (const c of list) {
    const o = document.createElement("option");
    o.value = c.number;
    o.textContent = `${c.number} (${c.minimum} moves)`;
    sel.appendChild(o);
  }
}

async function start(body, title) {
  J.watching = false;
  try {
    const st = await api("/api/jumpin/new", body);
    $("#title").textContent = title;
    J.selected = null; J.targets = []; J.hint = null;
    show(st);
    say(msg, "");
  } catch (e) { say(msg, e.message, "bad"); }
}

async function send(action, body) {
  if (!J.id || J.busy) return null;
  J.busy = true;
  try {
    const st = await api(`/api/jumpin/${J.id}/${action}`, body || {});
    show(st);
    return st;
  } catch (e) { say(msg, e.message, "bad"); J.watching = false; return null; }
  finally { J.busy = false; }
}

function build() {
  buildGrid($("#board"), 5, 5, "jcell");
}

/** What a screen reader says of a cell: its coordinates (as the hints give
 *  them), the piece or hole on it, and its marks. */
function jumpinLabel(x, y, piece, hole, marks) {
  const what = { rabbit: hole ? "rabbit in a hole" : "rabbit", mush: "mushroom", fox: "fox" }[piece] || (hole ? "empty hole" : "empty");
  return `${x},${y}: ${what}` + marks.map((m) => ", " + m).join("");
}

function show(st) {
  J.id = st.session;
  const v = st.view;
  J.view = v;
  if (st.hint !== undefined && st.hint !== null) J.hint = st.hint;
  const board = $("#board");
  if ((board.cells || []).length !== 25) build();
  const kind = (x, y) => {
    if (v.rabbits.some((c) => same(c, [x, y]))) return "rabbit";
    if (v.mushrooms.some((c) => same(c, [x, y]))) return "mush";
    if (v.foxes.some((f) => same(f[0], [x, y]) || same(f[1], [x, y]))) return "fox";
    return null;
  };
  // A fox is one piece over two cells (the server lists its top or left
  // cell first): the two are drawn joined, along the line it slides on.
  const foxPart = (x, y) => {
    for (const [a, b] of v.foxes) {
      const axis = a[1] === b[1] ? "h" : "v";
      if (same(a, [x, y])) return `fox-${axis} fox-start`;
      if (same(b, [x, y])) return `fox-${axis} fox-end`;
    }
    return "";
  };
  const hint = J.hint && J.hint.next;
  for (let y = 0; y < 5; y++) for (let x = 0; x < 5; x++) {
    const c = board.cells[y * 5 + x];
    const k = kind(x, y);
    const hole = v.holes.some((h) => same(h, [x, y]));
    let cls = "jcell";
    if (hole) cls += " hole";
    if (k) cls += " " + k;
    if (k === "fox") cls += " " + foxPart(x, y);
    if (same(J.selected, [x, y])) cls += " selected";
    if (J.targets.some((m) => same(m.target, [x, y]))) cls += " target";
    if (hint && same(hint.from, [x, y])) cls += " hintfrom";
    if (hint && same(hint.target, [x, y])) cls += " hintto";
    if (same(J.cursor, [x, y])) cls += " cursor";
    c.className = cls;
    c.dataset.piece = k || "";
    c.innerHTML = k ? `<div class="piece">${{ rabbit: "R", mush: "M", fox: "F" }[k]}</div>` : "";
    // A rabbit in a hole is safe (the goal): drawn smaller, inside the hole's rim.
    c.title = k === "rabbit" && hole ? "rabbit in a hole" : k === "fox" ? "fox (slides along its length)" : hole ? "hole" : "";
    const marks = [];
    if (same(J.selected, [x, y])) marks.push("selected");
    if (J.targets.some((m) => same(m.target, [x, y]))) marks.push("it can move here");
    if (hint && same(hint.from, [x, y])) marks.push("hint: move this piece");
    if (hint && same(hint.target, [x, y])) marks.push("hint: to here");
    c.setAttribute("aria-label", jumpinLabel(x, y, k, hole, marks));
    c.setAttribute("aria-selected", same(J.selected, [x, y]) ? "true" : "false");
  }
  activeCell(board, J.cursor);
  $("#moves").textContent = String(v.moves);
  $("#optimal").textContent = v.optimal === null ? "none" : String(v.optimal);
  // Challenge codes name at most three rabbits (C, B, G).
  $("#code").textContent = v.code || "none (a code names at most 3 rabbits)";
  board.dataset.solved = String(v.solved);
  board.dataset.moves = String(v.moves);
  if (v.solved) {
    const best = v.moves === v.optimal;
    say(msg, best ? `Solved in ${v.moves} moves — optimal!` : `Solved in ${v.moves} moves (optimal: ${v.optimal}).`, "good");
  } else if (st.hint && st.hint.next) {
    const n = st.hint.next;
    say(msg, `Next: ${n.piece} (${n.from[0]},${n.from[1]}) → (${n.target[0]},${n.target[1]}); ${st.hint.moves_left} moves left from here.`);
  } else if (st.hint && st.hint.moves_left === null) {
    say(msg, "No solution from here: undo or restart.", "bad");
  } else {
    say(msg, ""); // a move or an undo: the last message was about another position
  }
}

async function clickCell(x, y) {
  if (!J.view || J.view.solved) return;
  const move = J.targets.find((m) => same(m.target, [x, y]));
  if (J.selected && move) {
    const from = J.selected;
    J.selected = null; J.targets = []; J.hint = null;
    await send("move", { from, to: [x, y] });
    return;
  }
  const piece = $("#board").cells[y * 5 + x].dataset.piece;
  if (piece === "rabbit" || piece === "fox") {
    J.selected = [x, y];
    const st = await send("moves", { x, y });
    J.targets = st ? st.moves : [];
    if (st) show(st);
    if (st && J.targets.length === 0) say(msg, "That piece cannot move.");
  } else {
    J.selected = null; J.targets = [];
    show({ session: J.id, view: J.view });
  }
}

$("#board").addEventListener("click", (ev) => {
  const c = ev.target.closest(".jcell");
  if (c) { J.cursor = [Number(c.dataset.x), Number(c.dataset.y)]; clickCell(J.cursor[0], J.cursor[1]); }
});
$("#board").addEventListener("keydown", (ev) => {
  const moved = movedCursor(ev, J.cursor, 5, 5);
  if (moved) {
    ev.preventDefault();
    J.cursor = moved;
    show({ session: J.id, view: J.view });
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    clickCell(J.cursor[0], J.cursor[1]);
  }
});
document.addEventListener("keydown", (ev) => {
  if (typing(ev.target)) return;
  if (letterKey(ev, "h")) $("#hint").click();
  if (letterKey(ev, "u")) $("#undo").click();
});

$("#load").addEventListener("click", () => {
  const n = Number($("#challenge").value);
  start({ challenge: n }, `challenge ${n}`);
});
$("#generate").addEventListener("click", () => {
  let g;
  try {
    g = {
      moves: wholeValue($("#gmoves"), "moves"), rabbits: wholeValue($("#grabbits"), "rabbits"),
      foxes: wholeValue($("#gfoxes"), "foxes"), mushrooms: wholeValue($("#gmush"), "mushrooms"),
      seed: seedValue($("#gseed")) ?? 0,
    };
  } catch (e) { say(msg, e.message, "bad"); return; }
  start({ generate: g }, `generated (seed ${g.seed})`);
});
$("#hint").addEventListener("click", () => { J.selected = null; J.targets = []; send("hint"); });
$("#undo").addEventListener("click", () => { J.selected = null; J.targets = []; J.hint = null; send("undo"); });
$("#restart").addEventListener("click", () => { J.selected = null; J.targets = []; J.hint = null; send("restart"); });
let watchRun = 0;
$("#watch").addEventListener("click", async () => {
  if (J.watching) { J.watching = false; return; }
  // Each watch has its own number: one stopped and started again during a
  // step's pause must end, not go on beside the new one (moves two at a time).
  const run = ++watchRun;
  const current = () => J.watching && run === watchRun;
  J.watching = true;
  $("#watch").textContent = "Stop watching";
  await send("restart");
  while (current() && J.view && !J.view.solved) {
    J.selected = null; J.targets = [];
    await send("step");
    await new Promise((r) => setTimeout(r, 600));
  }
  if (run !== watchRun) return;
  J.watching = false;
  $("#watch").textContent = "Watch the optimal solution";
});

loadChallenges().then(() => start({ challenge: 1 }, "challenge 1"));
