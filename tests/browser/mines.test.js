// Minesweeper in a real browser: win by hints, overlay = `arcade mines analyze`.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { launch, onPage } = require("./harness");

const ARCADE = process.env.ARCADE_BIN || path.join(__dirname, "..", "..", "target", "release", "arcade");
let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

async function newGame(page, level, rule, seed) {
  await page.selectOption("#level", level);
  await page.selectOption("#rule", rule);
  await page.fill("#seed", String(seed));
  await page.click("#new");
  await page.waitForFunction((s) => document.querySelector("#shown-seed").textContent === s, String(seed));
  await page.waitForFunction(() => document.querySelector("#status").textContent === "ready");
}

const status = (page) => page.textContent("#status");

test("win a beginner game by following the hints", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "beginner", "sfar", 1);
    for (let i = 0; i < 100 && (await status(page)) !== "won"; i++) {
      assert.notEqual(await status(page), "lost");
      await page.click("#hint");
      const cell = page.locator("#board .mcell.hinted");
      await cell.waitFor();
      const before = await page.getAttribute("#board", "data-position");
      await cell.click();
      await page.waitForFunction((b) => document.querySelector("#board").dataset.position !== b, before);
    }
    assert.equal(await status(page), "won");
    assert.equal(await page.textContent("#msg"), "You won!");
    // Every mine is drawn flagged, and the counter agrees (it said 10).
    assert.equal(await page.textContent("#counter"), "0");
  });
});

test("a right click flags and the counter goes down", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "intermediate", "snr", 2);
    await page.click('#board .mcell[data-x="5"][data-y="6"]', { button: "right" });
    await page.waitForSelector('#board .mcell.flag[data-x="5"][data-y="6"]');
    assert.equal(await page.textContent("#counter"), "39");
  });
});

test("overlay probabilities equal arcade mines analyze --json", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "expert", "snr", 11);
    for (let i = 0; i < 6; i++) {
      const before = await page.getAttribute("#board", "data-position");
      await page.click("#step");
      await page.waitForFunction((b) => document.querySelector("#board").dataset.position !== b, before);
    }
    assert.equal(await status(page), "playing");
    await page.check("#overlay");
    await page.waitForSelector("#board .mcell[data-p]");
    const { position, cells } = await page.evaluate(() => ({
      position: document.querySelector("#board").dataset.position,
      cells: Array.from(document.querySelectorAll("#board .mcell")).map((c) => ({
        x: Number(c.dataset.x), y: Number(c.dataset.y), p: c.dataset.p === undefined ? null : Number(c.dataset.p),
        best: c.classList.contains("best"),
      })),
    }));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arcade-pos-"));
    const file = path.join(dir, "position.txt");
    fs.writeFileSync(file, position);
    let cli;
    try {
      cli = JSON.parse(execFileSync(ARCADE, ["mines", "analyze", file, "--json"], { encoding: "utf8" }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(cells.length, 30 * 16);
    let hidden = 0;
    for (const c of cells) {
      const want = cli.probabilities[c.y][c.x];
      if (want === null) { assert.equal(c.p, null, `(${c.x},${c.y})`); continue; }
      hidden++;
      assert.ok(Math.abs(c.p - want) < 1e-12, `(${c.x},${c.y}): page ${c.p}, cli ${want}`);
    }
    assert.ok(hidden > 300, `${hidden} hidden cells`);
    const best = cells.filter((c) => c.best).map((c) => [c.x, c.y]);
    assert.equal(best.length, 1);
  });
});

test("the keys a checkbox advertises still work once it has been clicked", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "beginner", "sfar", 1);
    // Clicking "Show probabilities (P)" leaves the focus on the checkbox;
    // P, then H, went nowhere from there.
    await page.click("#overlay");
    const on = await page.isChecked("#overlay");
    await page.keyboard.press("p");
    assert.equal(await page.isChecked("#overlay"), !on);
    // A key pressed while the overlay's request is out is dropped (one
    // request at a time), so H is pressed again until its hint shows.
    const hinted = page.locator("#board .mcell.hinted");
    for (let i = 0; i < 20 && (await hinted.count()) === 0; i++) {
      await page.keyboard.press("h");
      await page.waitForTimeout(250);
    }
    assert.equal(await hinted.count(), 1);
    assert.ok(await page.evaluate(() => document.activeElement.id === "overlay"), "the checkbox kept the focus");
    // A server that went away is named as such, not as "Failed to fetch".
    await page.route("**/api/**", (route) => route.abort("connectionrefused"));
    await page.click("#hint");
    await page.waitForFunction(() => /not answering/.test(document.querySelector("#msg").textContent));
    assert.match(await page.textContent("#msg"), /is `arcade serve` still running\?/);
  });
});

test("with Taps flag ticked a tap flags, as a phone needs", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "beginner", "sfar", 1);
    await page.check("#flagmode");
    const cell = page.locator('#board .mcell[data-x="3"][data-y="4"]');
    await cell.click();
    await page.waitForFunction(() => document.querySelector('#board .mcell[data-x="3"][data-y="4"]').classList.contains("flag"));
    assert.equal(await page.textContent("#counter"), "9");
    await page.uncheck("#flagmode");
    await cell.click(); // a flagged cell is not revealed
    await page.waitForTimeout(300);
    assert.equal(await status(page), "ready");
  });
});

test("analyse mode shows a contradiction as a message and a shared URL reopens a position", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await page.waitForFunction(() => document.querySelector("#status").textContent === "ready");
    await page.click("#tab-analyze");
    // The play keys stay with the play tab (S played a move on the hidden game).
    await page.keyboard.press("s");
    await page.waitForTimeout(500);
    assert.equal(await status(page), "ready");
    await page.fill("#ptext", "3 1 1\n11.\n");
    await page.click("#analyze-btn");
    await page.waitForSelector("#amsg.bad");
    assert.match(await page.textContent("#amsg"), /contradiction/);
    await page.fill("#ptext", "3 1 1\n1..\n");
    await page.click("#analyze-btn");
    await page.waitForSelector("#abest");
    assert.equal(await page.textContent("#abest"), "(2,0) at 0%");
    assert.match(await page.textContent("#asummary"), /; 1 arrangement\.$/); // as the CLI says it
    assert.equal(await page.getAttribute('#aboard .mcell[data-x="1"]', "data-p"), "1");
    await page.click("#share");
    const url = page.url();
    assert.match(url, /#p=/);
    const other = await chrome.browser.newPage();
    await other.goto(url);
    await other.waitForSelector("#abest");
    assert.equal(await other.textContent("#abest"), "(2,0) at 0%");
    // A link cut short is said so, and the page still plays (it threw
    // "URI malformed" and started no game).
    const errors = [];
    other.on("pageerror", (e) => errors.push(e.message));
    await other.goto("about:blank");
    await other.goto(url.replace(/#p=.*/, "#p=%E0%A4%A"));
    await other.waitForSelector("#amsg.bad");
    assert.match(await other.textContent("#amsg"), /damaged/);
    assert.deepEqual(errors, []);
    assert.ok(await other.locator("#board .mcell").count() > 0);
    // A second link pasted into the open page opens its position.
    await other.evaluate(() => { location.hash = "#p=" + encodeURIComponent("3 1 1\n1..\n"); });
    await other.waitForSelector("#abest");
    assert.equal(await other.textContent("#abest"), "(2,0) at 0%");
    await other.close();
  });
});

test("the analyse board is edited from the keyboard", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await page.waitForFunction(() => document.querySelector("#status").textContent === "ready");
    await page.click("#tab-analyze");
    await page.fill("#ptext", "3 1 1\n...\n");
    await page.click("#analyze-btn");
    await page.waitForSelector("#abest");
    await page.focus("#aboard");
    await page.keyboard.press("0");
    await page.waitForFunction(() => document.querySelector("#ptext").value === "3 1 1\n0..\n");
    await page.waitForFunction(() => document.querySelector("#abest")?.textContent === "(1,0) at 0%");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight"); // kept on the board
    assert.equal(await page.getAttribute("#aboard", "aria-activedescendant"), "aboard-2-0");
    await page.keyboard.press("m");
    await page.waitForFunction(() => document.querySelector("#ptext").value === "3 1 1\n0.*\n");
    await page.waitForFunction(() => /^2,0: mine/.test(document.querySelector("#aboard-2-0").getAttribute("aria-label")));
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Space"); // cycles hidden -> 0
    await page.waitForFunction(() => document.querySelector("#ptext").value === "3 1 1\n00*\n");
    await page.keyboard.press("Delete");
    await page.waitForFunction(() => document.querySelector("#ptext").value === "3 1 1\n0.*\n");
    await page.waitForFunction(() => document.querySelector("#abest")?.textContent === "(1,0) at 0%");
    // The editor's keys stay on the editor: the hidden game was not played.
    assert.equal(await status(page), "ready");
  });
});

test("the board fits a phone-width window", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await newGame(page, "beginner", "sfar", 3);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 380, `page is ${width}px wide`);
    await page.click('#board .mcell[data-x="4"][data-y="4"]');
    await page.waitForFunction(() => document.querySelector("#status").textContent !== "ready");
  }, { width: 375, height: 740 });
});

test("a seed JavaScript cannot carry exactly is refused, not changed", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await page.waitForSelector("#board .mcell");
    for (const bad of ["12345678901234567890", "-5", "1.5"]) {
      await page.fill("#seed", bad);
      await page.click("#new");
      await page.waitForFunction((b) => document.querySelector("#msg").textContent.includes(`got "${b}"`), bad);
      assert.match(await page.textContent("#msg"), /^seed must be a whole number from 0 to 9007199254740991/);
    }
    await page.fill("#seed", "9007199254740991");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#shown-seed").textContent === "9007199254740991");
  });
});
