// Jump In' in a real browser: solve a challenge in the optimal number of
// moves by clicking the hinted piece and its hinted destination.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { launch, onPage } = require("./harness");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

async function playChallenge(page, n) {
  await page.waitForSelector(`#challenge option[value="${n}"]`, { state: "attached" });
  await page.selectOption("#challenge", String(n));
  await page.click("#load");
  await page.waitForFunction((t) => document.querySelector("#title").textContent === t, `challenge ${n}`);
  await page.waitForFunction(() => document.querySelector("#board").dataset.moves === "0");
}

test("solve challenge 20 optimally by following the hints", async (t) => {
  await onPage(chrome.browser, t, "/jumpin", async (page) => {
    await playChallenge(page, 20);
    const optimal = Number(await page.textContent("#optimal"));
    assert.ok(optimal > 3);
    for (let k = 0; k < optimal; k++) {
      await page.click("#hint");
      await page.waitForSelector("#board .jcell.hintfrom");
      assert.match(await page.textContent("#msg"), new RegExp(`${optimal - k} moves left`));
      await page.click("#board .jcell.hintfrom");
      await page.waitForSelector("#board .jcell.hintto.target");
      await page.click("#board .jcell.hintto.target");
      await page.waitForFunction((m) => document.querySelector("#board").dataset.moves === String(m), k + 1);
    }
    assert.equal(await page.getAttribute("#board", "data-solved"), "true");
    assert.equal(await page.textContent("#msg"), `Solved in ${optimal} moves — optimal!`);
  });
});

test("a piece's destinations are marked, undo takes a move back", async (t) => {
  await onPage(chrome.browser, t, "/jumpin", async (page) => {
    await playChallenge(page, 20);
    await page.click("#hint");
    await page.click("#board .jcell.hintfrom");
    await page.waitForSelector("#board .jcell.target");
    await page.click("#board .jcell.target");
    await page.waitForFunction(() => document.querySelector("#board").dataset.moves === "1");
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelector("#board").dataset.moves === "0");
  });
});

test("watch the optimal solution of a generated puzzle", async (t) => {
  await onPage(chrome.browser, t, "/jumpin", async (page) => {
    await page.fill("#gmoves", "6");
    await page.fill("#gseed", "4");
    await page.click("#generate");
    await page.waitForFunction(() => document.querySelector("#title").textContent.startsWith("generated"));
    assert.equal(await page.textContent("#optimal"), "6");
    await page.click("#watch");
    await page.waitForFunction(() => document.querySelector("#board").dataset.solved === "true", null, { timeout: 20000 });
    assert.equal(await page.textContent("#moves"), "6");
  });
});

test("a count that is not a whole number is named on the page, not in serde's words", async (t) => {
  await onPage(chrome.browser, t, "/jumpin", async (page) => {
    for (const [field, bad, name] of [["#gmoves", "2.5", "moves"], ["#gfoxes", "", "foxes"], ["#gseed", "-5", "seed"]]) {
      await page.fill("#gmoves", "12"); await page.fill("#gfoxes", "2"); await page.fill("#gseed", "1");
      await page.fill(field, bad);
      await page.click("#generate");
      await page.waitForFunction((n) => document.querySelector("#msg").textContent.startsWith(n), name);
      assert.doesNotMatch(await page.textContent("#msg"), /deserialize/);
    }
  });
});
