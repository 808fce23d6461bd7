// Tetris in a real browser: key presses clear a row on an explicit piece
// sequence, and following the AI ghost plays exactly the placements of
// `arcade tetris play --placements --json` on the same pieces.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const { launch, onPage } = require("./harness");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

async function start(page, sequence) {
  await page.fill("#sequence", sequence);
  await page.click("#new");
  await page.waitForFunction(() => document.querySelector("#board").dataset.pieces === "0");
  await page.focus("#board");
}

const pieces = (page) => page.getAttribute("#board", "data-pieces").then(Number);

test("a known key sequence places three pieces and clears a row", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await start(page, "IIOT");
    for (const keys of [["ArrowLeft", "ArrowLeft", "ArrowLeft", "Space"], ["ArrowRight", "Space"],
                        ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "Space"]]) {
      const n = await pieces(page);
      for (const k of keys) await page.keyboard.press(k);
      await page.waitForFunction((m) => Number(document.querySelector("#board").dataset.pieces) === m + 1, n);
    }
    assert.equal(await page.getAttribute("#board", "data-lines"), "1");
    assert.equal(await page.textContent("#lines"), "1");
    const rows = (await page.getAttribute("#board", "data-rows")).split("/");
    assert.equal(rows[19], "........OO");
    assert.equal(rows[18], "..........");
  });
});

test("held keys repeat on the game's ticks: ← slides to the wall, ↓ soft-drops its own piece", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await start(page, "IIOT");
    const col = () => page.getAttribute("#board", "data-falling").then((f) => Number(f.split(",")[2]));
    const from = await col();
    assert.ok(from >= 2, `the I spawns at column ${from}`);
    // One key-down event, no operating-system repeats: only the page's own
    // repeats (after 16 ticks, then every 6) can take the piece past one column.
    await page.keyboard.down("ArrowLeft");
    await page.waitForFunction(() => document.querySelector("#board").dataset.falling.split(",")[2] === "0", null, { timeout: 5000 });
    await page.keyboard.up("ArrowLeft");
    // Level 0 gravity takes 48 ticks a row (16 s to the floor); ↓ held drops a row every 2.
    await page.keyboard.down("ArrowDown");
    await page.waitForFunction(() => document.querySelector("#board").dataset.pieces !== "0", null, { timeout: 5000 });
    // Still held, ↓ leaves the next piece to gravity: one press drops one piece.
    await page.waitForTimeout(1000);
    await page.keyboard.up("ArrowDown");
    assert.equal(await pieces(page), 1);
    const rows = (await page.getAttribute("#board", "data-rows")).split("/");
    assert.equal(rows[19], "IIII......");
    // Released: the next piece is left to gravity, one tap moves it one column.
    const next = await col();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((c) => document.querySelector("#board").dataset.falling.split(",")[2] === String(c), next + 1);
    await page.waitForTimeout(500);
    assert.equal(await col(), next + 1);
  });
});

test("a held P pauses once: the key's repeats are not toggles", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await start(page, "IIOT");
    await page.keyboard.down("p");
    // What the operating system sends while the key stays down.
    for (let i = 0; i < 3; i++) {
      await page.evaluate(() => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "p", repeat: true, bubbles: true })));
    }
    await page.keyboard.up("p");
    assert.match(await page.textContent("#pause"), /^Resume/);
    await page.keyboard.press("p");
    assert.match(await page.textContent("#pause"), /^Pause/);
    // Paused, then a new game: it runs, and the button says so.
    await page.keyboard.press("p");
    assert.match(await page.textContent("#pause"), /^Resume/);
    await start(page, "IIOT");
    assert.match(await page.textContent("#pause"), /^Pause/);
  });
});

test("Enter starts a game, leaves one being played alone, and starts another after game over", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    assert.equal(await page.getAttribute("#board", "data-pieces"), null, "no game before one is asked for");
    await page.fill("#sequence", "O".repeat(40));
    await page.click("h1"); // out of the field: Enter there is the page's
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#board").dataset.pieces === "0");
    await page.focus("#board");
    for (let i = 1; i <= 2; i++) {
      await page.keyboard.press("Space");
      await page.waitForFunction((n) => document.querySelector("#board").dataset.pieces === String(n), i);
    }
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    assert.equal(await pieces(page), 2, "Enter during a game does not restart it");
    // O pieces dropped in one column top out.
    for (let i = 0; i < 15 && !(await page.getAttribute("#board", "data-over")); i++) {
      const n = await pieces(page);
      await page.keyboard.press("Space");
      await page.waitForFunction((m) => { const b = document.querySelector("#board").dataset; return b.over || Number(b.pieces) > m; }, n);
    }
    assert.equal(await page.getAttribute("#board", "data-over"), "topped_out");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => { const b = document.querySelector("#board").dataset; return b.pieces === "0" && !b.over; });
    assert.match(await page.textContent("#msg"), /Go!/);
  });
});

test("the touch pad plays like the keys at phone width", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await start(page, "IIOT");
    const centre = async (action) => {
      const box = await page.locator(`#pad [data-action=${action}]`).boundingBox();
      return [box.x + box.width / 2, box.y + box.height / 2];
    };
    const pad = await page.locator("#pad").boundingBox();
    assert.ok(pad.y >= 0 && pad.y + pad.height <= 844, `the pad is on the screen after New game: ${JSON.stringify(pad)}`);
    const board = await page.locator("#board").boundingBox();
    assert.ok(board.y >= 0, `the board's top is on the screen: ${JSON.stringify(board)}`);
    // Held down, ◀ repeats like ←.
    await page.mouse.move(...(await centre("left")));
    await page.mouse.down();
    await page.waitForFunction(() => document.querySelector("#board").dataset.falling.split(",")[2] === "0", null, { timeout: 5000 });
    await page.mouse.up();
    await page.locator("#pad [data-action=drop]").click();
    await page.waitForFunction(() => document.querySelector("#board").dataset.pieces === "1");
    assert.equal((await page.getAttribute("#board", "data-rows")).split("/")[19], "IIII......");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scroll");
  }, { width: 390, height: 844 });
});

/** The "why" panel as shown: its caption, the AI, and each feature's
 *  points, checked to be shown and to add up to the score it prints. */
async function readWhy(page) {
  const why = await page.evaluate(() => {
    const table = document.querySelector("#why-terms");
    const points = [...table.querySelectorAll("tr")].slice(1, -1)
      .map((r) => Number(r.cells[3].textContent.replaceAll(",", "")));
    return { shown: !document.querySelector("#why").classList.contains("hidden"), points,
      score: Number(table.dataset.score), ai: document.querySelector("#why").dataset.ai,
      caption: document.querySelector("#why-caption").textContent };
  });
  assert.ok(why.shown && why.points.length >= 4, JSON.stringify(why));
  const sum = why.points.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - why.score) <= 0.05 * why.points.length + 1e-9, JSON.stringify(why));
  return why;
}

test("the AI ghost agrees with arcade tetris play", async (t) => {
  const sequence = "TSZLJIOTTSZOIJLLJI";
  const cli = JSON.parse(execFileSync(process.env.ARCADE_BIN || "target/release/arcade",
    ["tetris", "play", "--ai", "el-tetris", "--sequence", sequence, "--placements", "--json"]).toString());
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await page.selectOption("#ai", "el-tetris");
    await page.check("#ghost");
    await start(page, sequence);
    const seen = [];
    for (let i = 0; i < sequence.length; i++) {
      await page.waitForFunction(() => document.querySelector("#board").dataset.ghost !== "");
      const [rotation, col, row] = (await page.getAttribute("#board", "data-ghost")).split(",").map(Number);
      seen.push({ rotation, col, row });
      // Why it is there: a row per weighed feature, adding up to the score.
      const why = await readWhy(page);
      assert.equal(why.ai, "el-tetris");
      assert.match(why.caption, /^Why the ghost is there: el-tetris's score/);
      for (let r = 0; r < rotation; r++) await page.keyboard.press("ArrowUp");
      await page.waitForFunction((r) => document.querySelector("#board").dataset.falling.split(",")[1] === String(r), rotation);
      const now = Number((await page.getAttribute("#board", "data-falling")).split(",")[2]);
      const key = col < now ? "ArrowLeft" : "ArrowRight";
      for (let k = 0; k < Math.abs(col - now); k++) await page.keyboard.press(key);
      await page.waitForFunction((c) => document.querySelector("#board").dataset.falling.split(",")[2] === String(c), col);
      await page.keyboard.press("Space");
      await page.waitForFunction((m) => Number(document.querySelector("#board").dataset.pieces) === m, i + 1);
    }
    assert.deepEqual(seen, cli.placements);
    assert.equal(Number(await page.getAttribute("#board", "data-lines")), cli.lines);
    assert.ok(await page.evaluate(() => document.querySelector("#why").classList.contains("hidden")), "no ghost, no why");
  });
});

test("a watch at 30 pieces/s draws every piece where arcade tetris play puts it", async (t) => {
  const n = 60;
  const cli = JSON.parse(execFileSync(process.env.ARCADE_BIN || "target/release/arcade",
    ["tetris", "play", "--ai", "el-tetris", "--seed", "7", "--max-pieces", String(n), "--placements", "--json"]).toString());
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    // Every board drawn: its piece count and the placement outlined.
    await page.evaluate(() => {
      const board = document.querySelector("#board");
      window.drawn = [];
      new MutationObserver(() => {
        const last = window.drawn[window.drawn.length - 1];
        if (!last || last.pieces !== board.dataset.pieces) window.drawn.push({ pieces: board.dataset.pieces, last: board.dataset.last });
      }).observe(board, { attributes: true, attributeFilter: ["data-pieces"] });
    });
    await page.selectOption("#mode", "watch");
    await page.selectOption("#ai", "el-tetris");
    await page.selectOption("#speed", "30");
    await page.fill("#seed", "7");
    await page.click("#new");
    await page.waitForFunction((m) => Number(document.querySelector("#board").dataset.pieces) >= m, n, { timeout: 15000 });
    const drawn = (await page.evaluate(() => window.drawn)).filter((d) => Number(d.pieces) >= 1 && Number(d.pieces) <= n);
    assert.deepEqual(drawn.map((d) => Number(d.pieces)), Array.from({ length: n }, (_, i) => i + 1));
    const placements = drawn.map((d) => { const [rotation, col, row] = d.last.split(",").map(Number); return { rotation, col, row }; });
    assert.deepEqual(placements, cli.placements.slice(0, n));
    // Why the last piece went there, as the watched AI scored it.
    assert.match((await readWhy(page)).caption, /^Why el-tetris put the last piece there/);
  });
});

test("watch an AI at full speed", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.selectOption("#ai", "dellacherie");
    await page.fill("#seed", "3");
    await page.click("#new");
    await page.waitForFunction(() => Number(document.querySelector("#board").dataset.pieces) > 5000, null, { timeout: 20000 });
    const pps = Number((await page.textContent("#pps")).replace(/,/g, ""));
    assert.ok(pps > 1000, `pieces/s shown: ${pps}`);
    // Slowing down mid-flight: an answer asked at full speed lands after the
    // switch, thousands of pieces ahead of the new schedule; the game goes
    // on from it at 10 pieces/s (it froze).
    await page.selectOption("#speed", "10");
    await page.waitForTimeout(700);
    const from = await pieces(page);
    await page.waitForTimeout(2000);
    const gained = (await pieces(page)) - from;
    assert.ok(gained >= 10 && gained <= 40, `pieces in 2 s at 10/s: ${gained}`);
  });
});
