// The Geek replay, the sketch and the median pages in a real browser,
// checked against the `arcade` binary.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { launch, onPage } = require("./harness");

const BIN = process.env.ARCADE_BIN || "target/release/arcade";
let chrome, dir;
before(async () => { chrome = await launch(); dir = fs.mkdtempSync(path.join(os.tmpdir(), "arcade-tools-")); });
after(async () => { await chrome.close(); fs.rmSync(dir, { recursive: true, force: true }); });

test("replay the published Geek record to 1,378,178 and scrub", async (t) => {
  await onPage(chrome.browser, t, "/geek", async (page) => {
    await page.click("#published");
    await page.waitForFunction(() => document.querySelector("#board").dataset.final === "1378178", null, { timeout: 30000 });
    assert.equal(await page.getAttribute("#board", "data-piece"), "10000");
    assert.equal(await page.textContent("#score"), "1,378,178");
    // Scrub to piece 5,000, then step back and forth with the keys.
    await page.$eval("#scrub", (el) => { el.value = "4999"; el.dispatchEvent(new Event("input")); });
    assert.equal(await page.getAttribute("#board", "data-piece"), "5000");
    const at5000 = Number(await page.getAttribute("#board", "data-score"));
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.getAttribute("#board", "data-piece"), "5001");
    assert.ok(Number(await page.getAttribute("#board", "data-score")) >= at5000);
    assert.ok(at5000 > 0 && at5000 < 1378178);
  });
});

test("the page opens on arcade's record; the newest record asked for wins", async (t) => {
  await onPage(chrome.browser, t, "/geek", async (page) => {
    await page.waitForFunction(() => document.querySelector("#board").dataset.final === "1428236", null, { timeout: 30000 });
    assert.equal(await page.getAttribute("#board", "data-piece"), "10000");
    // The record's last piece completes two rows, which the rules do not score.
    assert.equal(await page.textContent("#points"), "2 rows, +0 (the last piece scores nothing)");
    assert.match(await page.getAttribute("#arcade", "class"), /primary/);
    // Two quick clicks: the published record is the one shown, whichever answer comes last.
    await page.click("#arcade");
    await page.click("#published");
    await page.waitForFunction(() => document.querySelector("#board").dataset.final === "1378178", null, { timeout: 30000 });
    await page.waitForTimeout(500);
    assert.equal(await page.getAttribute("#board", "data-final"), "1378178");
    assert.match(await page.getAttribute("#published", "class"), /primary/);
    assert.doesNotMatch(await page.getAttribute("#arcade", "class") || "", /primary/);
  });
});

test("an invalid record says where it fails", async (t) => {
  const file = path.join(dir, "bad.txt");
  fs.writeFileSync(file, "N,R1,D19,N,C1,L1,Q18");
  await onPage(chrome.browser, t, "/geek", async (page) => {
    // Over arcade's record, which the page opens on: the failed upload must
    // not leave that record's name, score and field on the board.
    await page.waitForFunction(() => document.querySelector("#board").dataset.final === "1428236", null, { timeout: 30000 });
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => document.querySelector("#msg").className.includes("bad"));
    assert.match(await page.textContent("#msg"), /piece 2, token 7 \("Q18"\)/);
    assert.equal(await page.getAttribute("#board", "data-final"), null);
    assert.equal(await page.textContent("#name"), "–");
    assert.equal(await page.textContent("#score"), "0");
    assert.equal(await page.textContent("#total"), "0");
    assert.match(await page.textContent("#play"), /^Play/);
    // The same file again, fixed: the page reads it (the input was emptied).
    fs.writeFileSync(file, "N,R1,D19,N,C1,L1,D18");
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => document.querySelector("#board").dataset.final === "0");
    assert.equal(await page.textContent("#total"), "2");
  });
});

/** The grey levels of a PNG, decoded by the page's canvas. */
async function greys(page, url) {
  return page.evaluate(async (u) => {
    const img = new Image();
    img.src = u;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < d.length; i += 4) out.push(d[i]);
    return { w: c.width, h: c.height, px: out };
  }, url);
}

test("a PNG's sketch equals arcade sketch within 1", async (t) => {
  await onPage(chrome.browser, t, "/sketch", async (page) => {
    // The input: a small gradient PNG drawn by the page itself.
    const png = Buffer.from(await page.evaluate(async () => {
      const c = document.createElement("canvas");
      c.width = 61; c.height = 43;
      const g = c.getContext("2d");
      const grad = g.createLinearGradient(0, 0, 61, 43);
      grad.addColorStop(0, "#123456"); grad.addColorStop(1, "#f0e0a0");
      g.fillStyle = grad; g.fillRect(0, 0, 61, 43);
      g.fillStyle = "#222"; g.beginPath(); g.arc(30, 21, 12, 0, 7); g.fill();
      const blob = await new Promise((r) => c.toBlob(r, "image/png"));
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    }));
    const input = path.join(dir, "in.png"), expected = path.join(dir, "cli.png");
    fs.writeFileSync(input, png);
    execFileSync(BIN, ["sketch", input, expected, "--depth", "25"]);
    await page.$eval("#depth", (el) => { el.value = "25"; el.dispatchEvent(new Event("input")); });
    await page.setInputFiles("#file", input);
    await page.waitForSelector("#download:not(.hidden)");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const got = path.join(dir, "page.png");
    await download.saveAs(got);
    const a = await greys(page, "data:image/png;base64," + fs.readFileSync(got).toString("base64"));
    const b = await greys(page, "data:image/png;base64," + fs.readFileSync(expected).toString("base64"));
    assert.equal(a.w, 61); assert.equal(a.h, 43);
    assert.equal(b.w, a.w); assert.equal(b.h, a.h);
    const worst = a.px.reduce((m, v, i) => Math.max(m, Math.abs(v - b.px[i])), 0);
    assert.ok(worst <= 1, `largest difference ${worst}`);
    assert.ok(new Set(a.px).size > 5, "the sketch is not flat");
  });
});

test("an oversized or malformed image gets a clear message", async (t) => {
  const junk = path.join(dir, "junk.png");
  fs.writeFileSync(junk, "this is not a picture");
  await onPage(chrome.browser, t, "/sketch", async (page) => {
    await page.setInputFiles("#file", junk);
    await page.waitForFunction(() => document.querySelector("#msg").className.includes("bad"));
    assert.match(await page.textContent("#msg"), /not a PNG or JPEG|cannot read the image/);
  });
});

test("a pasted series' medians equal arcade median", async (t) => {
  const values = Array.from({ length: 300 }, (_, i) => (Math.sin(i / 7) * 50 + ((i * 37) % 23)).toFixed(3));
  values[40] = "nan";
  const text = values.join("\n") + "\n";
  const file = path.join(dir, "series.txt");
  fs.writeFileSync(file, text);
  const cli = execFileSync(BIN, ["median", "-k", "9", "--input", file, "--quiet"]).toString();
  const other = path.join(dir, "other.txt");
  fs.writeFileSync(other, values.slice(0, 100).join("\n") + "\n");
  await onPage(chrome.browser, t, "/median", async (page) => {
    await page.fill("#window", "9");
    await page.setInputFiles("#file", other);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#chart").dataset.medians === "92");
    // Text typed after a file was chosen is what runs (the file was used).
    await page.fill("#text", text);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#chart").dataset.medians === "292");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const got = path.join(dir, "medians.txt");
    await download.saveAs(got);
    assert.equal(fs.readFileSync(got, "utf8"), cli);
  });
});

test("the median page's example draws a wave whose medians skip the spikes", async (t) => {
  await onPage(chrome.browser, t, "/median", async (page) => {
    await page.click("#example");
    await page.waitForSelector("#download:not(.hidden)");
    assert.equal(await page.getAttribute("#chart", "data-medians"), "386");
    const text = await page.inputValue("#text");
    const values = text.trim().split("\n").map(Number);
    assert.equal(values.length, 400);
    // The example is the same each time, and its spikes are really there.
    await page.fill("#text", "");
    await page.click("#example");
    await page.waitForFunction(() => document.querySelector("#text").value !== "");
    assert.equal(await page.inputValue("#text"), text);
    const spikes = values.filter((v, i) => Math.abs(v - 10 * Math.sin(i / 40)) > 10).length;
    assert.ok(spikes >= 5, `${spikes} spikes`);
    const cli = execFileSync(BIN, ["median", "-k", "15", "--quiet"], { input: text }).toString();
    const medians = cli.trim().split("\n").map(Number);
    assert.ok(medians.every((m, i) => Math.abs(m - 10 * Math.sin((i + 14) / 40)) < 5), "a median strayed from the wave");
  });
});

test("an empty median window is named on the page", async (t) => {
  await onPage(chrome.browser, t, "/median", async (page) => {
    await page.fill("#text", "1\n2\n3\n");
    await page.fill("#window", "");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#msg").textContent.startsWith("window is empty"));
  });
});
