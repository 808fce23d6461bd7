// Takes the screenshots in docs/img (run by hand, see docs/web.md):
//   ARCADE_URL=http://127.0.0.1:8080/ node tests/browser/screenshots.js
"use strict";

const path = require("node:path");
const { BASE, launch } = require("./harness");

const OUT = path.join(__dirname, "..", "..", "docs", "img");

async function shot(page, name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
}

async function main() {
  const chrome = await launch();
  const page = await chrome.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  const go = (route) => page.goto(BASE.replace(/\/$/, "") + route);

  await go("/");
  await shot(page, "web-home");

  await go("/mines");
  await page.selectOption("#level", "expert");
  await page.selectOption("#rule", "snr");
  await page.fill("#seed", "11");
  await page.click("#new");
  await page.waitForFunction(() => document.querySelector("#shown-seed").textContent === "11");
  for (let i = 0; i < 12; i++) {
    const before = await page.getAttribute("#board", "data-position");
    await page.click("#step");
    await page.waitForFunction((b) => document.querySelector("#board").dataset.position !== b, before);
  }
  await page.check("#overlay");
  await page.waitForSelector("#board .mcell[data-p]");
  await page.evaluate(() => window.scrollTo(0, 250));
  await shot(page, "web-mines");

  await go("/");
  await go("/mines#p=" + encodeURIComponent("6 4 5\n001...\n012...\n1.....\n......\n"));
  await page.waitForSelector("#abest");
  await shot(page, "web-mines-analyze");

  await go("/jumpin");
  await page.waitForSelector('#challenge option[value="40"]', { state: "attached" });
  await page.selectOption("#challenge", "40");
  await page.click("#load");
  await page.waitForFunction(() => document.querySelector("#title").textContent === "challenge 40");
  await page.click("#hint");
  await page.waitForSelector("#board .jcell.hintfrom");
  await page.evaluate(() => window.scrollTo(0, 150));
  await shot(page, "web-jumpin");

  await go("/tiles");
  await page.waitForFunction(() => document.querySelectorAll("#board .tile").length === 360);
  for (let k = 1; k <= 25; k++) {
    await page.click("#hint");
    await page.click("#board .tile.hinted");
    await page.waitForFunction((n) => document.querySelector("#board").dataset.clicks === String(n), k);
  }
  await page.click("#hint");
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-tiles");

  await go("/battle");
  await page.selectOption("#mode", "watch");
  await page.fill("#seed", "3");
  await page.$eval("#speed", (el) => { el.value = "20"; });
  await page.click("#new");
  await page.waitForFunction(() => {
    const s = document.querySelectorAll("#board .capA, #board .capB").length;
    return s >= 20;
  }, null, { timeout: 30000 });
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-battle");

  await go("/tetris");
  await page.selectOption("#mode", "watch");
  await page.selectOption("#ai", "bcts");
  await page.selectOption("#moves", "reach");
  await page.selectOption("#speed", "10");
  await page.fill("#seed", "2");
  await page.click("#new");
  await page.waitForFunction(() => Number(document.querySelector("#board").dataset.pieces) >= 40, null, { timeout: 30000 });
  await page.click("#pause");
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-tetris");

  await go("/flappy");
  await page.selectOption("#mode", "watch");
  await page.selectOption("#policy", "oracle");
  await page.selectOption("#speed", "5");
  await page.click("#new");
  await page.waitForFunction(() => Number(document.querySelector("#screen").dataset.passed) >= 3, null, { timeout: 30000 });
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-flappy");

  await go("/geek");
  await page.click("#published");
  await page.waitForFunction(() => document.querySelector("#board").dataset.final === "1378178", null, { timeout: 30000 });
  await page.$eval("#scrub", (el) => { el.value = "4321"; el.dispatchEvent(new Event("input")); });
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-geek");

  await go("/sketch");
  await page.setInputFiles("#file", path.join(__dirname, "..", "..", "docs", "img", "web-geek.png"));
  await page.waitForSelector("#download:not(.hidden)");
  await page.evaluate(() => window.scrollTo(0, 120));
  await shot(page, "web-sketch");

  await go("/median");
  await page.click("#example");
  await page.waitForSelector("#download:not(.hidden)");
  await page.evaluate(() => window.scrollTo(0, 200));
  await shot(page, "web-median");

  await page.close();
  await chrome.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
