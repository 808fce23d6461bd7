// Shared helpers: the JSON API and small DOM utilities.
"use strict";

/** `fetch`, with a request that never reached the server (it was stopped)
 *  told in words: the browser's own message is "Failed to fetch". */
async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error("the arena server is not answering: is `arcade serve` still running? Start it again, then reload the page");
  }
}

/** The Tetris pieces' colours (the Tetris and Geek boards), each at least
 *  3:1 against the dark board (WCAG 1.4.11). */
const PIECE_COLOURS = { I: "#29b6f6", O: "#fdd835", T: "#ab47bc", S: "#43a047", Z: "#e53935", J: "#3d7fe0", L: "#fb8c00" };

/** Whether a key pressed in `target` is typing, which the game keys leave
 *  alone: a text field, a list or a file chooser. A checkbox or slider the
 *  player clicked keeps the focus, and the keys it advertises (P for
 *  "Show probabilities") must still reach the game. */
function typing(target) {
  if (target.matches("textarea, select")) return true;
  return target.matches("input") && !target.matches("[type=checkbox], [type=radio], [type=range], [type=button], [type=color]");
}

/** The page's one-letter shortcuts can be turned off (WCAG 2.1.4: speech
 *  input types letters) by the header's "Letter keys" switch; the choice is
 *  kept for every page. True if `e` is the letter `key` and they are on. */
function letterKey(e, key) {
  if (e.ctrlKey || e.altKey || e.metaKey || e.key.toLowerCase() !== key) return false;
  const box = document.getElementById("letter-keys");
  return !box || box.checked;
}
(() => {
  const box = document.getElementById("letter-keys");
  if (!box) return;
  // Storage may be refused (a private window's policy): the switch still works for the page.
  try { box.checked = localStorage.getItem("arcade.letterKeys") !== "off"; } catch (_) { /* kept on */ }
  box.addEventListener("change", () => {
    try { localStorage.setItem("arcade.letterKeys", box.checked ? "on" : "off"); } catch (_) { /* this page only */ }
  });
})();

/** True for Space or Enter on a control they press (a button, a link, a
 *  checkbox): the browser's own action, which a game key must not take. */
function pressesControl(e) {
  return (e.key === " " || e.key === "Enter")
    && e.target.matches("button, a[href], summary, input[type=checkbox], input[type=radio]");
}

/** POSTs `body` as JSON to `path`; resolves to the answer or throws an Error
 *  carrying the server's one-line message. */
async function api(path, body) {
  const res = await reach(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const msg = data && data.error ? data.error : `HTTP ${res.status}`;
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** Tells the answer to the last request of one kind from older ones still
 *  in flight (a page's first game, then a quick click on New): each call
 *  starts a request and returns a check that stays true while no later
 *  request of the kind has started. */
function lastAsked() {
  let asked = 0;
  return () => {
    const mine = ++asked;
    return () => mine === asked;
  };
}

/** Draws `lines` centred on a dark band across the canvas context `c`, its
 *  middle at `at` (a fraction of the height, a half by default): what to
 *  press when no game is running. */
function banner(c, lines, at = 0.5) {
  const { width, height } = c.canvas, top = height * at - 14 * lines.length - 8;
  c.save();
  c.fillStyle = "rgba(0, 0, 0, 0.62)";
  c.fillRect(0, top, width, 28 * lines.length + 16);
  c.fillStyle = "#fff";
  c.textAlign = "center";
  c.textBaseline = "middle";
  lines.forEach((text, i) => {
    c.font = (i === 0 ? "bold 18px" : "14px") + " system-ui, sans-serif";
    c.fillText(text, width / 2, top + 22 + 28 * i);
  });
  c.restore();
}

/** True for the Enter key pressed outside the page's controls (where Enter
 *  already means something): the games' "new game" key. */
function isNewGameKey(e) {
  return e.key === "Enter" && !e.repeat && !e.target.matches("input, select, textarea, button, a");
}

function $(sel, root) { return (root || document).querySelector(sel); }
function $$(sel, root) { return Array.from((root || document).querySelectorAll(sel)); }

/** The whole number typed into the input `el`, named `name` in errors:
 *  `undefined` when empty (an error unless `optional`), else a number a JSON
 *  number carries exactly (past 2^53 − 1 JavaScript would send a nearby one
 *  instead); anything else (2.5, −5) throws a one-line Error, where the
 *  server would answer serde's wording. */
function wholeValue(el, name, optional = false) {
  const text = el.value.trim();
  if (text === "") {
    if (optional) return undefined;
    throw new Error(`${name} is empty: give a whole number`);
  }
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw new Error(`${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got "${text.slice(0, 40)}"`);
  }
  return n;
}

/** The seed typed into the input `el`, or `undefined` when empty. */
function seedValue(el) { return wholeValue(el, "seed", true); }

/** Shows `text` in the element `el` as a good, bad or plain message. */
function say(el, text, kind) {
  // A live region: screen readers announce the message, an error at once.
  el.setAttribute("aria-live", kind === "bad" ? "assertive" : "polite");
  el.textContent = text || "";
  el.className = "message" + (kind ? " " + kind : "");
}

/** A redraw gate for fast playback (Geek at 600 pieces a second, Flappy
 *  Bird watched at 20×), which repaints most of its canvas every frame: when
 *  the system asks for reduced motion, at most three redraws a second (under
 *  WCAG's three flashes a second); otherwise every frame. */
class RedrawGate {
  constructor() { this.last = -Infinity; this.reduce = matchMedia("(prefers-reduced-motion: reduce)"); }
  /** Whether to redraw at time `now` (ms), playing `fast`. */
  open(now, fast) {
    if (!fast || !this.reduce.matches) return true;
    if (now - this.last < 1000 / 3) return false;
    this.last = now;
    return true;
  }
}

/** A timer element that counts seconds from start() until stop(). */
class Timer {
  constructor(el) { this.el = el; this.t0 = null; this.id = null; this.el.textContent = "0"; }
  start() {
    if (this.id !== null) return;
    this.t0 = performance.now();
    this.id = setInterval(() => this.show(), 250);
  }
  show() { if (this.t0 !== null) this.el.textContent = String(Math.floor((performance.now() - this.t0) / 1000)); }
  stop() { this.show(); if (this.id !== null) clearInterval(this.id); this.id = null; }
  reset() { this.stop(); this.t0 = null; this.el.textContent = "0"; }
}

/** Builds `el` as an ARIA grid of `w`×`h` cells of class `cellClass`, for
 *  screen readers: rows (laid out by `display: contents`, so the board's CSS
 *  grid still places the cells) of gridcells whose ids `activeCell` points
 *  the grid's cursor at. Returns the cells, row by row (also `el.cells`). */
function buildGrid(el, w, h, cellClass) {
  el.innerHTML = "";
  el.setAttribute("role", "grid");
  const cells = [];
  for (let y = 0; y < h; y++) {
    const row = document.createElement("div");
    row.className = "grow";
    row.setAttribute("role", "row");
    for (let x = 0; x < w; x++) {
      const c = document.createElement("div");
      c.className = cellClass;
      c.id = `${el.id}-${x}-${y}`;
      c.setAttribute("role", "gridcell");
      c.dataset.x = x; c.dataset.y = y;
      row.appendChild(c);
      cells.push(c);
    }
    el.appendChild(row);
  }
  el.cells = cells;
  return cells;
}

/** What a screen reader says of a Minesweeper or battle cell: its
 *  coordinates (as the hints give them), what it shows (`ch`, the server's
 *  character), its mine `chance` (text) if shown, and its marks. */
function mineCellLabel(x, y, ch, chance, marks) {
  const shows = { F: "flagged", "*": "mine", "!": "exploded mine", x: "wrong flag", ".": "hidden", A: "mine captured by A", B: "mine captured by B" };
  let text = `${x},${y}: ` + (ch >= "0" && ch <= "8" ? ch : shows[ch] || "hidden");
  if (chance !== null && ch !== "F") text += `, ${chance} mine`;
  const said = { best: "best move", hinted: "hint", fifty: "forced 50/50", last: "just played", played: "AI played" };
  for (const m of marks) if (said[m]) text += ", " + said[m];
  return text;
}

/** Tells screen readers the grid `el`'s cursor cell (`aria-activedescendant`). */
function activeCell(el, [x, y]) {
  el.setAttribute("aria-activedescendant", `${el.id}-${x}-${y}`);
}

/** The board cursor `[x, y]` moved one cell by the arrow key of `ev`, kept
 *  on a `w`×`h` board, or null when `ev` is not an arrow key. */
function movedCursor(ev, [x, y], w, h) {
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
  if (!d) return null;
  return [Math.min(w - 1, Math.max(0, x + d[0])), Math.min(h - 1, Math.max(0, y + d[1]))];
}
