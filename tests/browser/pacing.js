// Frame pacing in Chromium (a measuring script, not a test; docs/results/web.md):
//   ARCADE_URL=http://127.0.0.1:8080/ node tests/browser/pacing.js [seconds]
// Records requestAnimationFrame timestamps for 10 s while an AI plays Tetris
// at full speed and while a person's flaps (the heuristic's, pressed on
// their frames through the page's own flap()) play Flappy Bird, and prints
// frames per second, the worst gap and the gap percentiles.
"use strict";

const { BASE, launch } = require("./harness");
const SECONDS = Number(process.argv[2] || 10);

/** Timestamps of every animation frame for `seconds`, measured in the page. */
function record(page, seconds) {
  return page.evaluate((ms) => new Promise((done) => {
    const stamps = [];
    const t0 = performance.now();
    function f(now) {
      stamps.push(now);
      if (now - t0 < ms) requestAnimationFrame(f); else done(stamps);
    }
    requestAnimationFrame(f);
  }), seconds * 1000);
}

function summary(name, stamps, extra) {
  const gaps = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
  const span = (stamps[stamps.length - 1] - stamps[0]) / 1000;
  const q = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))].toFixed(1);
  console.log(`${name}: ${(gaps.length / span).toFixed(1)} fps over ${span.toFixed(1)} s, ` +
    `worst gap ${gaps[gaps.length - 1].toFixed(1)} ms, median ${q(0.5)} ms, p99 ${q(0.99)} ms` +
    (extra ? `; ${extra}` : ""));
}

async function main() {
  const chrome = await launch();
  const page = await chrome.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  const go = (route) => page.goto(BASE.replace(/\/$/, "") + route);

  await go("/tetris");
  await page.selectOption("#mode", "watch");
  await page.selectOption("#ai", "el-tetris");
  await page.selectOption("#speed", "max");
  await page.fill("#seed", "1");
  await page.click("#new");
  await page.waitForTimeout(1000);
  const p0 = Number(await page.getAttribute("#board", "data-pieces"));
  const tetris = await record(page, SECONDS);
  const p1 = Number(await page.getAttribute("#board", "data-pieces"));
  summary("tetris, el-tetris watched at full speed", tetris,
    `${Math.round((p1 - p0) / SECONDS).toLocaleString("en")} pieces/s drawn live`);

  await go("/flappy");
  const frames = SECONDS * 30 + 90;
  const flaps = await page.evaluate(async (n) => {
    const s = await api("/api/flappy/new", { mode: "watch", seed: 1, policy: "heuristic" });
    return (await api(`/api/flappy/${s.session}/tick`, { to: n })).flapped;
  }, frames);
  await page.fill("#seed", "1");
  await page.click("#new");
  await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
  // Press flap on the frames the heuristic flapped on, by the page's clock.
  await page.evaluate((list) => {
    const queue = list.slice();
    flap();
    queue.shift();
    function f(now) {
      while (queue.length && clock.tick(now) + 1 >= queue[0]) { flap(); queue.shift(); }
      if (queue.length) requestAnimationFrame(f);
    }
    requestAnimationFrame(f);
  }, flaps);
  const flappy = await record(page, SECONDS);
  const passed = await page.getAttribute("#screen", "data-passed");
  const status = await page.getAttribute("#screen", "data-status");
  summary("flappy, played (flaps on their frames)", flappy, `${passed} pipes, ${status}`);
  await page.close();
  await chrome.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
