// Flappy Bird in a real browser, frame by frame: the heuristic's flaps
// (watched on the page) played by key presses pass the pipes at the frame
// `arcade flappy play` reports, and not flapping crashes.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const { launch, onPage } = require("./harness");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

const attr = (page, name) => page.getAttribute("#screen", `data-${name}`);

test("flap through the first pipes by a known input sequence", async (t) => {
  const cli = JSON.parse(execFileSync(process.env.ARCADE_BIN || "target/release/arcade",
    ["flappy", "play", "--policy", "heuristic", "--seed", "4", "--max-pipes", "3", "--json"]).toString());
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    // The known inputs: the flaps the heuristic makes in this game.
    const flaps = await page.evaluate(async (frames) => {
      const s = await api("/api/flappy/new", { mode: "watch", seed: 4, policy: "heuristic" });
      const r = await api(`/api/flappy/${s.session}/tick`, { to: frames });
      return r.flapped;
    }, cli.frames);
    assert.ok(flaps.length > 10);
    await page.fill("#seed", "4");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
    await page.check("#stepmode");
    await page.focus("#screen");
    const set = new Set(flaps);
    for (let f = 1; f <= cli.frames; f++) {
      if (set.has(f)) await page.keyboard.press("Space");
      await page.keyboard.press("n");
    }
    await page.waitForFunction((n) => document.querySelector("#screen").dataset.frame === String(n), cli.frames);
    assert.equal(await attr(page, "passed"), "3");
    assert.equal(await attr(page, "status"), "running");
  });
});

test("not flapping crashes on the ground", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.fill("#seed", "4");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
    await page.check("#stepmode");
    await page.focus("#screen");
    for (let f = 0; f < 25; f++) await page.keyboard.press("n");
    await page.waitForFunction(() => document.querySelector("#screen").dataset.status === "crashed");
    assert.equal(await attr(page, "frame"), "18");
    assert.equal(await attr(page, "passed"), "0");
    assert.match(await page.textContent("#msg"), /Crashed into the ground at frame 18/);
  });
});

test("a held Space flaps once: the key's repeats are not flaps", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    // The game with one flap at frame 1, from the API.
    const once = await page.evaluate(async () => {
      const s = await api("/api/flappy/new", { mode: "play", seed: 4 });
      return api(`/api/flappy/${s.session}/tick`, { to: 60, flaps: [1] });
    });
    assert.equal(once.status, "crashed");
    await page.fill("#seed", "4");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
    await page.check("#stepmode");
    await page.focus("#screen");
    await page.keyboard.down("Space");
    for (let f = 0; f < 60 && (await attr(page, "status")) === "running"; f++) {
      // What the operating system sends while the key stays down.
      await page.evaluate(() => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: " ", repeat: true, bubbles: true })));
      await page.keyboard.press("n");
      await page.waitForFunction((n) => document.querySelector("#screen").dataset.frame === String(n), f + 1);
    }
    await page.keyboard.up("Space");
    assert.equal(await attr(page, "status"), "crashed");
    assert.equal(await attr(page, "frame"), String(once.frame));
  });
});

test("the page starts a game that waits for its first flap; Enter plays again after a crash", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    // No click on New game: the page's own game, waiting at frame 0.
    await page.waitForFunction(() => document.querySelector("#screen").dataset.status === "running");
    await page.waitForTimeout(400);
    assert.equal(await attr(page, "frame"), "0", "the game waits for the first flap");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => Number(document.querySelector("#screen").dataset.frame) >= 5);
    await page.keyboard.press("Enter");
    await page.waitForTimeout(200);
    assert.notEqual(await attr(page, "frame"), "0", "Enter during a game does not restart it");
    // No more flaps: the bird falls to the ground.
    await page.waitForFunction(() => document.querySelector("#screen").dataset.status === "crashed", null, { timeout: 10000 });
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => { const d = document.querySelector("#screen").dataset; return d.status === "running" && d.frame === "0"; });
  });
});

test("watch the oracle play in real time", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.selectOption("#policy", "oracle");
    await page.selectOption("#speed", "20");
    await page.click("#new");
    // The server computes the oracle's kernels when it starts; the page retries until they are ready.
    await page.waitForFunction(() => Number(document.querySelector("#screen").dataset.passed) >= 5, null, { timeout: 100000 });
    assert.equal(await attr(page, "status"), "running");
    assert.match(await page.textContent("#depth"), /^\d+ px$/);
  });
});

test("a watch changes speed at once when the speed is changed", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.selectOption("#policy", "heuristic");
    await page.selectOption("#speed", "1");
    await page.click("#new");
    const frame = async () => Number(await attr(page, "frame"));
    await page.waitForFunction(() => Number(document.querySelector("#screen").dataset.frame) > 5);
    let from = await frame();
    await page.waitForTimeout(1000);
    const slow = (await frame()) - from;
    assert.ok(slow >= 15 && slow <= 45, `${slow} frames in a second at 1×`);
    await page.selectOption("#speed", "20");
    from = await frame();
    await page.waitForTimeout(1000);
    const fast = (await frame()) - from;
    // 600 a second at 20×; it stayed at 30 until a new game.
    assert.ok(fast >= 150, `${fast} frames in a second at 20×`);
  });
});

test("frames stepped one by one before the first flap do not freeze the bird after", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
    await page.check("#stepmode");
    await page.focus("#screen");
    // 15 frames of falling (the bird reaches the ground at 18).
    for (let i = 0; i < 15; i++) await page.keyboard.press("n");
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "15");
    await page.uncheck("#stepmode");
    await page.focus("#screen");
    await page.keyboard.press("Space");
    // The clock starts at frame 15: the game moves on at once (it froze for
    // half a second, 15 frames, while the clock caught up).
    await page.waitForFunction(() => Number(document.querySelector("#screen").dataset.frame) > 16, null, { timeout: 350 });
    assert.equal(await attr(page, "status"), "running");
  });
});

test("a game the server no longer has stops asking for frames", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.waitForFunction(() => document.querySelector("#screen").dataset.frame === "0");
    // As when the session expired: every tick is refused.
    let refused = 0;
    await page.route("**/api/flappy/*/tick", (route) => {
      refused += 1;
      route.fulfill({ status: 404, contentType: "application/json",
        body: JSON.stringify({ error: "no such session (it may have expired; start a new game)" }) });
    });
    await page.focus("#screen");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("#msg").textContent.includes("no such session"));
    await page.waitForTimeout(1000);
    assert.equal(refused, 1);
    assert.match(await page.textContent("#msg"), /New game to play again/);
    // Enter does start a new game, as the message says.
    await page.unroute("**/api/flappy/*/tick");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#msg").textContent === "Flap to start");
  });
});
