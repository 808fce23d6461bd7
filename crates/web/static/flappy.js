// Flappy Bird: the server's engine advances frame by frame to the frame the
// page's clock has reached, with the frames the player flapped on.
"use strict";

const screen = $("#screen"), ctx = screen.getContext("2d");
let state = null, geo = null, session = null, mode = "play", dirty = true;
let clock = new TickClock(30), stepTarget = 0, halted = false;
const askGame = lastAsked();
// What the bird crashed into, for the message and the banner (the ceiling is
// deadly here, unlike in FlapPyBird).
const INTO = { ceiling: "the ceiling", ground: "the ground", pipe: "a pipe" };

const step = new Lockstep(async (to, inputs) => {
  const flaps = [...new Set(inputs.map((i) => i[0]))];
  return api(`/api/flappy/${session}/tick`, { to, flaps, margin: $("#margin").checked });
});

function showModeControls() {
  const m = $("#mode").value;
  $$(".playonly").forEach((e) => e.classList.toggle("hidden", m !== "play"));
  $$(".watchonly").forEach((e) => e.classList.toggle("hidden", m !== "watch"));
}

async function newGame() {
  mode = $("#mode").value;
  const body = { mode };
  if (mode === "watch") body.policy = $("#policy").value;
  const latest = askGame();
  try {
    body.seed = seedValue($("#seed")) ?? 0;
    step.reset();
    session = null;
    halted = false;
    // Until the new game arrives the screen's data describe none.
    screen.dataset.frame = screen.dataset.status = "";
    say($("#msg"), "");
    const s = await api("/api/flappy/new", body);
    if (!latest()) return;
    session = s.session;
    geo = s.geometry;
    stepTarget = 0;
    clock = new TickClock(30 * (mode === "watch" ? Number($("#speed").value) : 1));
    if (mode === "watch") clock.start(performance.now());
    show(s);
    say($("#msg"), mode === "play" ? "Flap to start" : `${body.policy} is playing`);
    screen.focus();
  } catch (e) {
    if (!latest()) return;
    say($("#msg"), e.message, "bad");
    // The oracle waits for the server's kernels: try again in a second,
    // unless another game was asked for meanwhile.
    if (/still being computed/.test(e.message)) setTimeout(() => { if (latest()) newGame(); }, 1000);
  }
}

function show(s) {
  state = s;
  dirty = true;
  $("#passed").textContent = s.passed;
  $("#frame").textContent = s.frame;
  const best = s.depth ? Math.max(s.depth[0], s.depth[1]) : null;
  $("#depth").textContent = best !== null ? `${best} px` : s.margin_ready ? "–" : "computing…";
  screen.dataset.frame = s.frame;
  screen.dataset.passed = s.passed;
  screen.dataset.status = s.status;
  screen.dataset.y = s.y;
  if (s.status === "crashed") say($("#msg"), `Crashed into ${INTO[s.crashed_into] || "something"} at frame ${s.frame} after ${s.passed} pipes`, "bad");
}

/** Text in the current fill, outlined in ink so that white reads on the
 *  sky (2:1 alone) and on the pipes alike. */
function outlinedText(text, x, y) {
  ctx.save();
  ctx.lineJoin = "round"; ctx.lineWidth = 4; ctx.strokeStyle = "#1d1c1a";
  ctx.strokeText(text, x, y);
  ctx.restore();
  ctx.fillText(text, x, y);
}

function draw() {
  dirty = false;
  if (!geo) { ctx.fillStyle = "#70c5ce"; ctx.fillRect(0, 0, screen.width, screen.height); return; }
  const [w, h] = geo.screen;
  ctx.fillStyle = "#70c5ce"; ctx.fillRect(0, 0, w, h);
  for (const [x, top] of state.pipes) {
    ctx.fillStyle = "#5ca53b";
    ctx.fillRect(x, 0, geo.pipe_w, top);
    ctx.fillRect(x, top + geo.gap, geo.pipe_w, geo.ground_y - top - geo.gap);
    ctx.strokeStyle = "#2e5e1e"; ctx.lineWidth = 2;
    ctx.strokeRect(x, -2, geo.pipe_w, top + 2);
    ctx.strokeRect(x, top + geo.gap, geo.pipe_w, geo.ground_y - top - geo.gap);
  }
  ctx.fillStyle = "#ded895"; ctx.fillRect(0, geo.ground_y, w, h - geo.ground_y);
  ctx.fillStyle = "#c9a95b"; ctx.fillRect(0, geo.ground_y, w, 6);
  const [bx, bw, bh] = geo.bird;
  ctx.fillStyle = state.status === "crashed" ? "#e53935" : "#fdd835";
  ctx.fillRect(bx, state.y, bw, bh);
  ctx.strokeStyle = "#333"; ctx.lineWidth = 2; ctx.strokeRect(bx, state.y, bw, bh);
  ctx.fillStyle = "#fff"; ctx.fillRect(bx + 22, state.y + 4, 8, 8);
  if ($("#margin").checked && state.depth) {
    const best = Math.max(state.depth[0], state.depth[1]);
    const colour = best < 0 ? "#c62828" : best < 4 ? "#f9a825" : "#2e7d32";
    const len = Math.max(3, (best + 1) * 4);
    ctx.fillStyle = colour;
    ctx.fillRect(bx - 12, state.y + bh / 2 - len / 2, 6, len);
    // The number in ink (the bar carries the colour): amber on the sky was 1:1.
    ctx.fillStyle = "#1d1c1a"; ctx.font = "bold 13px system-ui, sans-serif";
    ctx.fillText(`${best}`, bx - 30, state.y + bh / 2 + 5);
  }
  ctx.fillStyle = "#fff"; ctx.font = "bold 28px system-ui, sans-serif";
  ctx.textAlign = "center"; // 10 and 100 stay centred like 1
  outlinedText(String(state.passed), w / 2, 50);
  ctx.textAlign = "left";
  // Above the bird's starting height, clear of the score.
  if (halted) banner(ctx, ["Stopped", "Enter or New game: play again"], 0.28);
  else if (state.status === "crashed") banner(ctx, [state.crashed_into ? `Hit ${INTO[state.crashed_into]}` : "Crashed", "Enter or New game: play again"], 0.28);
  else if (mode === "play" && state.frame === 0 && !$("#stepmode").checked) banner(ctx, ["Get ready", "Space, click or tap to flap"], 0.28);
}

const gate = new RedrawGate();

function frame(now) {
  requestAnimationFrame(frame);
  if (session && state && state.status === "running") {
    const target = $("#stepmode").checked && mode === "play" ? stepTarget : clock.tick(now);
    step.pump(target).then((s) => { if (s) show(s); }).catch(halt);
  }
  if (dirty && gate.open(now, mode === "watch" && Number($("#speed").value) >= 5)) draw();
}

/** A tick the server refused (the game expired, the server went away):
 *  this game stops asking, instead of failing sixty times a second. */
function halt(e) {
  session = null;
  halted = dirty = true;
  say($("#msg"), `${e.message} — Enter or New game to play again`, "bad");
}

function flap() {
  if (mode !== "play" || !session || !state || state.status !== "running") return;
  if ($("#stepmode").checked) {
    step.press(stepTarget, "flap");
    return;
  }
  const now = performance.now();
  // The first flap starts the clock where the game is: frames stepped one
  // by one before it are already played, and the bird must not wait for them.
  if (!clock.running) startClockAt(now, step.sent);
  step.press(clock.tick(now), "flap");
}

function startClockAt(now, tick) {
  clock.start(now);
  clock.t0 = now - tick * 1000 / clock.rate;
}

document.addEventListener("keydown", (e) => {
  // Enter starts a game unless one is being played (a stray Enter would
  // throw it away); a watch restarts.
  if (isNewGameKey(e)) {
    e.preventDefault();
    if (!state || halted || mode === "watch" || state.status === "crashed" || state.frame === 0) newGame();
    return;
  }
  if (typing(e.target) || pressesControl(e)) return;
  // One flap per press, as in the original: a held key's repeats are ignored.
  if (e.key === " " || e.key === "ArrowUp") { e.preventDefault(); if (!e.repeat) flap(); }
  if (letterKey(e, "n") && $("#stepmode").checked) stepTarget += 1;
});
screen.addEventListener("pointerdown", (e) => { e.preventDefault(); flap(); });
document.addEventListener("visibilitychange", () => {
  if (document.hidden) clock.pause(performance.now()); else clock.resume(performance.now());
});
$("#new").addEventListener("click", newGame);
$("#mode").addEventListener("change", showModeControls);
$("#margin").addEventListener("change", () => { dirty = true; });
// A watch speeds up or slows down at once, not from the next game on.
$("#speed").addEventListener("change", () => {
  if (mode === "watch") clock.setRate(30 * Number($("#speed").value), performance.now());
});
$("#stepmode").addEventListener("change", () => {
  // Frame by frame continues from where the clock is, and back.
  const now = performance.now();
  dirty = true;
  if ($("#stepmode").checked) { stepTarget = Math.max(step.sent, clock.tick(now)); clock.pause(now); }
  else if (clock.t0 !== null) startClockAt(now, stepTarget);
});
showModeControls();
requestAnimationFrame(frame);
// A game waits for its first flap, so the page can start one: Space plays.
newGame();
