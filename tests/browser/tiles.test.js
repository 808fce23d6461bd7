// Sheep a Sheep in a real browser: win a level by the hints, and see the
// solver's "lost" verdict after a bad click on a hard level.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { launch, onPage } = require("./harness");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

/** Asks for a generated level and waits for it, not for the level the page
 *  started with (both have 360 tiles and no clicks). */
async function newLevel(page, difficulty, layers, seed) {
  await page.waitForFunction(() => document.querySelector("#board").dataset.session);
  const before = await page.getAttribute("#board", "data-session");
  await page.selectOption("#source", "generate");
  await page.fill("#layers", String(layers));
  await page.fill("#seed", String(seed));
  await page.$eval("#difficulty", (el, d) => { el.value = d; }, String(difficulty));
  await page.click("#new");
  await page.waitForFunction((old) => document.querySelector("#board").dataset.session !== old
    && document.querySelector("#board").dataset.clicks === "0"
    && document.querySelectorAll("#board .tile").length === 360, before);
}

/** Clicks the hinted tile and waits for the server's answer. */
async function clickHint(page, k) {
  await page.click("#hint");
  await page.click("#board .tile.hinted");
  await page.waitForFunction((n) => document.querySelector("#board").dataset.clicks === String(n), k);
}

test("win a generated level by following the hints", async (t) => {
  await onPage(chrome.browser, t, "/tiles", async (page) => {
    await newLevel(page, 0.5, 12, 3);
    for (let k = 1; k <= 360; k++) {
      await clickHint(page, k);
      const verdict = await page.getAttribute("#board", "data-verdict");
      assert.equal(verdict, k === 360 ? "won" : "winnable", `after click ${k}`);
    }
    assert.equal(await page.getAttribute("#board", "data-status"), "won");
    assert.equal(await page.textContent("#msg"), "Cleared!");
  });
});

test("a bad click on a hard level is shown as lost, and undo takes it back", async (t) => {
  await onPage(chrome.browser, t, "/tiles", async (page) => {
    await newLevel(page, 1, 12, 0);
    for (let k = 1; k <= 38; k++) await clickHint(page, k);
    assert.match(await page.textContent("#verdict"), /still winnable/);
    await page.click('#board .tile[data-id="302"]');
    await page.waitForFunction(() => document.querySelector("#board").dataset.clicks === "39");
    assert.equal(await page.getAttribute("#board", "data-verdict"), "lost");
    assert.equal(await page.textContent("#verdict"), "lost: every line of play is refuted");
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelector("#board").dataset.clicks === "38");
    assert.match(await page.textContent("#verdict"), /still winnable/);
  });
});

test("covered tiles are dimmed and cannot be clicked", async (t) => {
  await onPage(chrome.browser, t, "/tiles", async (page) => {
    await newLevel(page, 0.5, 12, 1);
    const covered = page.locator('#board .tile.covered').first();
    await covered.click({ force: true });
    await page.waitForTimeout(200);
    assert.equal(await page.getAttribute("#board", "data-clicks"), "0");
    const dim = await covered.evaluate((el) => getComputedStyle(el).filter);
    assert.match(dim, /brightness/);
  });
});
