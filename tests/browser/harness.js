// Shared set-up for the browser tests: Debian's Chromium through
// playwright-core (never a downloaded browser), the server's URL from
// ARCADE_URL, screenshots of failing pages under ARCADE_FAILURES.
"use strict";

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

const BASE = process.env.ARCADE_URL;
if (!BASE) throw new Error("set ARCADE_URL to a running `arcade serve` (scripts/test-browser.sh does)");
const FAILURES = process.env.ARCADE_FAILURES || path.join(__dirname, "..", "..", "target", "browser-failures");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "arcade-chromium-"));
  // A persistent context is how playwright takes a fresh --user-data-dir.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Runs `body(page)` on a fresh page at `route`; on failure saves a
 *  screenshot named after the test, then rethrows. */
async function onPage(browser, t, route, body, viewport) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport || { width: 1280, height: 720 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await page.goto(BASE.replace(/\/$/, "") + route);
    await body(page);
    if (errors.length) throw new Error("script errors on the page: " + errors.join("; "));
  } catch (e) {
    fs.mkdirSync(FAILURES, { recursive: true });
    const name = t.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
    await page.screenshot({ path: path.join(FAILURES, `${name}.png`), fullPage: true }).catch(() => {});
    throw e;
  } finally {
    await page.close();
  }
}

module.exports = { BASE, launch, onPage };
