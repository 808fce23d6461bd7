// Battle in a real browser: win against `rule` by the hints, lose against
// `ev` by clicking blindly (seed 1; the Rust tests play the same games).
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { launch, onPage } = require("./harness");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

async function start(page, opponent) {
  await page.selectOption("#mode", "play");
  await page.selectOption("#opponent", opponent);
  await page.check("#first");
  await page.fill("#seed", "1");
  await page.$eval("#speed", (el) => { el.value = "20"; });
  await page.click("#new");
  // The page's first battle (a random seed) may name the same opponent.
  await page.waitForFunction((o) => document.querySelector("#nameB").textContent === o
    && document.querySelector("#gameseed").textContent === "1", opponent);
}

/** Plays the person's turns with `pick` until the game ends. */
async function play(page, pick) {
  for (let turn = 0; turn < 300; turn++) {
    await page.waitForFunction(() => {
      const b = document.querySelector("#board").dataset;
      return b.over === "true" || b.turn === "human";
    }, null, { timeout: 30000 });
    if ((await page.getAttribute("#board", "data-over")) === "true") return;
    const before = await page.getAttribute("#board", "data-moves");
    await (await pick(page)).click();
    await page.waitForFunction((b) => document.querySelector("#board").dataset.moves !== b, before);
  }
  throw new Error("the battle did not end");
}

test("win a battle against rule by following the hints", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await start(page, "rule");
    await play(page, async (p) => {
      await p.click("#hint");
      const cell = p.locator("#board .mcell.hinted");
      await cell.waitFor();
      return cell;
    });
    assert.equal(await page.getAttribute("#board", "data-result"), "won");
    assert.match(await page.textContent("#msg"), /^You win!/);
    assert.equal(await page.textContent("#scoreA"), "26");
  });
});

test("lose a battle against ev by clicking blindly", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await start(page, "ev");
    await play(page, async (p) => p.locator('#board .mcell[data-c="."]').first());
    assert.equal(await page.getAttribute("#board", "data-result"), "lost");
    assert.match(await page.textContent("#msg"), /^You lose\./);
    assert.equal(await page.textContent("#scoreB"), "26");
  });
});

test("a watched battle pauses, steps one move at a time and resumes", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.fill("#seed", "3");
    await page.$eval("#speed", (el) => { el.value = "4"; });
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#nameA").textContent === "ev");
    await page.keyboard.press("p");
    assert.match(await page.textContent("#pause"), /^Resume/);
    await page.waitForTimeout(400); // a move already asked for may still land
    const paused = await page.getAttribute("#board", "data-moves");
    await page.waitForTimeout(1200); // at 4 moves a second, about 5 would have come
    assert.equal(await page.getAttribute("#board", "data-moves"), paused, "moved while paused");
    await page.keyboard.press("s");
    await page.waitForFunction((b) => document.querySelector("#board").dataset.moves !== b, paused);
    const stepped = await page.getAttribute("#board", "data-moves");
    await page.waitForTimeout(800);
    assert.equal(await page.getAttribute("#board", "data-moves"), stepped, "a step made more than one move");
    await page.click("#pause");
    assert.equal(await page.isDisabled("#step"), true);
    await page.$eval("#speed", (el) => { el.value = "20"; });
    await page.waitForFunction(() => document.querySelector("#board").dataset.over === "true", null, { timeout: 60000 });
    assert.equal(await page.getAttribute("#board", "data-result"), "watched");
  });
});

test("the keyboard plays: arrows move the cursor, Enter clicks; the seed is shown", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await start(page, "ev");
    assert.equal(await page.textContent("#gameseed"), "1");
    await page.focus("#board");
    const before = await page.getAttribute("#board", "data-moves");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.getAttribute('#board .mcell[data-x="1"][data-y="1"]', "class").then((c) => c.includes("cursor")), true);
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => document.querySelector("#board").dataset.moves !== b, before);
    assert.notEqual(await page.getAttribute('#board .mcell[data-x="1"][data-y="1"]', "data-c"), ".");
  });
});

test("a late answer about a replaced battle does not bring it back", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.fill("#seed", "3");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#gameseed").textContent === "3");
    const old = await page.evaluate(() => B.id);
    // The old battle's next AI move answers only after the new battle shows.
    await page.route(`**/api/battle/${old}/ai`, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.waitForTimeout(400); // an /ai request of the old battle is now held
    await page.fill("#seed", "11");
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#gameseed").textContent === "11");
    await page.waitForTimeout(2000);
    assert.equal(await page.textContent("#gameseed"), "11");
    assert.notEqual(await page.evaluate(() => B.id), old);
  });
});
