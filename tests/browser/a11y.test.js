// Accessibility in a real browser: axe-core finds no serious or critical
// violation on any page; results are announced (live regions); the boards
// are ARIA grids whose cursor a screen reader follows; Space and Enter press
// the control they are on rather than a game key; fast replays honour
// prefers-reduced-motion.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { launch, onPage } = require("./harness");

const AXE = require.resolve("axe-core/axe.min.js");
let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome.close(); });

/** axe's serious and critical violations on the page, one line each. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => (await axe.run(document)).violations);
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

// Each page, and what starts its game (the state axe sees next).
const PAGES = {
  "/": null,
  "/mines": async (p) => { await p.click("#new"); await p.click('#board .mcell[data-x="4"][data-y="4"]'); },
  "/battle": async (p) => { await p.waitForSelector("#board .mcell"); },
  "/tiles": async (p) => { await p.waitForSelector("#board .tile[data-free=true]"); },
  "/jumpin": async (p) => { await p.waitForSelector("#board .jcell.rabbit"); },
  "/tetris": async (p) => { await p.click("#new"); },
  "/flappy": async (p) => { await p.click("#new"); },
  "/geek": async (p) => { await p.waitForFunction(() => document.querySelector("#board").dataset.piece); },
  "/sketch": null,
  "/median": async (p) => { await p.click("#example"); },
};

for (const [route, start] of Object.entries(PAGES)) {
  test(`axe finds no serious violation on ${route}`, async (t) => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await onPage(chrome.browser, t, route, async (page) => {
        assert.deepEqual(await violations(page), [], `${route} at ${viewport.width} px, loaded`);
        if (start) {
          await start(page);
          await page.waitForTimeout(300);
          assert.deepEqual(await violations(page), [], `${route} at ${viewport.width} px, started`);
        }
      }, viewport);
    }
  });
}

test("every page's messages are live regions", async (t) => {
  for (const route of ["/mines", "/battle", "/tiles", "/jumpin", "/tetris", "/flappy", "/geek", "/sketch", "/median"]) {
    await onPage(chrome.browser, t, route, async (page) => {
      assert.equal(await page.getAttribute("#msg", "role"), "status", route);
      assert.equal(await page.getAttribute("#msg", "aria-live"), "polite", route);
    });
  }
});

test("the Minesweeper board is a grid whose cursor a screen reader follows", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    await page.selectOption("#level", "beginner");
    await page.click("#new");
    await page.waitForSelector("#board [role=row] [role=gridcell]");
    assert.equal(await page.getAttribute("#board", "role"), "grid");
    await page.focus("#board");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.getAttribute("#board", "aria-activedescendant"), "board-1-1");
    assert.equal(await page.getAttribute("#board-1-1", "aria-label"), "1,1: hidden");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("#board-1-1").dataset.c !== ".");
    const label = await page.getAttribute("#board-1-1", "aria-label");
    assert.match(label, /^1,1: [0-8]$/);
    // An error is announced at once.
    await page.evaluate(() => say($("#msg"), "a test error", "bad"));
    assert.equal(await page.getAttribute("#msg", "aria-live"), "assertive");
  });
});

test("Space on a focused checkbox or button presses it, not a game key", async (t) => {
  await onPage(chrome.browser, t, "/flappy", async (page) => {
    await page.focus("#stepmode");
    await page.keyboard.press("Space");
    assert.equal(await page.isChecked("#stepmode"), true);
    await page.keyboard.press("Space");
    assert.equal(await page.isChecked("#stepmode"), false);
  });
  await onPage(chrome.browser, t, "/geek", async (page) => {
    // The page opens on arcade's record, at its last piece.
    await page.waitForFunction(() => document.querySelector("#board").dataset.piece === "10000");
    assert.equal(await page.getAttribute("#scrub", "aria-valuetext"), "piece 10,000 of 10,000, score 1,428,236");
    await page.focus("#start");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("#board").dataset.piece === "1");
    await page.waitForTimeout(300);
    assert.equal(await page.getAttribute("#board", "data-piece"), "1"); // the replay did not start
  });
});

test("a Tetris pad button works from the keyboard", async (t) => {
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await page.click("#new");
    await page.waitForFunction(() => document.querySelector("#board").dataset.falling);
    const [piece, rotation, col] = (await page.getAttribute("#board", "data-falling")).split(",");
    await page.focus('#pad button[data-action="left"]');
    await page.keyboard.press("Enter");
    await page.waitForFunction((want) => document.querySelector("#board").dataset.falling === want,
      `${piece},${rotation},${Number(col) - 1}`);
  });
});

test("after taking a tile from the keyboard, the focus stays on the board", async (t) => {
  await onPage(chrome.browser, t, "/tiles", async (page) => {
    await page.waitForSelector("#board .tile[data-free=true]");
    await page.focus("#board .tile[data-free=true]");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#board").dataset.clicks === "1");
    assert.equal(await page.evaluate(() => document.activeElement.matches("#board .tile[data-free=true]")), true);
    assert.match(await page.getAttribute("#tray", "aria-label"), /^tray, 1 of 7 slots used: tiles \d+$/);
  });
});

test("with reduced motion asked for, a fast replay redraws at most 3 times a second", async (t) => {
  for (const reduce of [true, false]) {
    await onPage(chrome.browser, t, "/geek", async (page) => {
      await page.emulateMedia({ reducedMotion: reduce ? "reduce" : "no-preference" });
      await page.waitForFunction(() => document.querySelector("#board").dataset.piece === "10000");
      await page.click("#start");
      await page.selectOption("#speed", "6000");
      await page.evaluate(() => {
        window.draws = 0;
        const original = draw;
        draw = () => { window.draws++; original(); };
      });
      await page.click("#play");
      await page.waitForTimeout(2000);
      const draws = await page.evaluate(() => window.draws);
      const piece = Number(await page.getAttribute("#board", "data-piece"));
      assert.ok(piece > 2000, `the replay went on (piece ${piece})`);
      if (reduce) assert.ok(draws <= 8, `${draws} redraws in 2 s`);
      else assert.ok(draws >= 30, `${draws} redraws in 2 s without the preference`);
    });
  }
});

test("the battle says each AI move in words", async (t) => {
  await onPage(chrome.browser, t, "/battle", async (page) => {
    await page.selectOption("#mode", "watch");
    await page.click("#new");
    await page.waitForFunction(() => /played/.test(document.querySelector("#msg").textContent));
    assert.match(await page.textContent("#msg"), /^[AB] \((ev|greedy|rule)\) played \(\d+,\d+\): (safe|a mine, and moves again)\.$/);
  });
});

test("at 320 px wide (400 % zoom) no page scrolls sideways", async (t) => {
  for (const route of Object.keys(PAGES)) {
    await onPage(chrome.browser, t, route, async (page) => {
      await page.waitForTimeout(300);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(over, 0, `${route} is ${over} px too wide`);
    }, { width: 320, height: 640 });
  }
});

test("the first Tab offers to skip the page links", async (t) => {
  await onPage(chrome.browser, t, "/mines", async (page) => {
    assert.equal(await page.locator("nav[aria-label=pages] a").count(), 10);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.textContent), "Skip to the page");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement.id), "main");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "tab-play");
  });
});

test("the header's switch turns the one-letter shortcuts off, on every page", async (t) => {
  const ghost = (page) => page.isChecked("#ghost");
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    await page.waitForSelector("#letter-keys");
    const before = await ghost(page);
    await page.keyboard.press("g");
    assert.equal(await ghost(page), !before);
    await page.uncheck("#letter-keys");
    try {
      await page.locator("main h1").click(); // the focus leaves the switch
      await page.keyboard.press("g");
      await page.keyboard.press("G");
      assert.equal(await ghost(page), !before, "G acted with letter keys off");
      await onPage(chrome.browser, t, "/mines", async (other) => {
        assert.equal(await other.isChecked("#letter-keys"), false, "the choice is kept for other pages");
      });
    } finally {
      await page.check("#letter-keys");
    }
    await page.reload();
    await page.waitForSelector("#letter-keys");
    assert.equal(await page.isChecked("#letter-keys"), true);
    const now = await ghost(page);
    await page.keyboard.press("g");
    assert.equal(await ghost(page), !now);
  });
  // A page with no letter shortcuts has no switch.
  await onPage(chrome.browser, t, "/geek", async (page) => {
    await page.waitForSelector("#board");
    assert.equal(await page.locator("#letter-keys").count(), 0);
  });
});

test("the home page's cards are named by their titles, and Tetris names its next piece", async (t) => {
  await onPage(chrome.browser, t, "/", async (page) => {
    // Named by the whole card, a link read about 150 characters.
    assert.equal(await page.getByRole("link", { name: "Minesweeper battle", exact: true }).count(), 1);
    assert.equal(await page.getByRole("link", { name: "Jump In'", exact: true }).count(), 2); // the card and the page link
    // The whole card still takes the click.
    await page.locator(".card", { hasText: "Minesweeper battle" }).click({ position: { x: 20, y: 70 } });
    await page.waitForURL(/\/battle$/);
  });
  await onPage(chrome.browser, t, "/tetris", async (page) => {
    assert.equal(await page.getAttribute("#next", "aria-label"), "no next piece");
    await page.click("#new");
    await page.waitForFunction(() => /^next piece: [IOTSZJL]$/.test(document.querySelector("#next").getAttribute("aria-label")));
  });
});
