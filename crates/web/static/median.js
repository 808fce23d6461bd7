// Rolling median: the server reads the numbers as `arcade median` does and
// answers the series, the medians and the text to download; the chart is a
// canvas (long series are drawn as per-pixel min/max bands).
"use strict";

const chart = $("#chart"), ctx = chart.getContext("2d");
let url = null, shown = null;

async function run() {
  let k;
  try { k = wholeValue($("#window"), "window"); } catch (e) { say($("#msg"), e.message, "bad"); return; }
  const q = new URLSearchParams({ window: k });
  if ($("#column").value) q.set("column", $("#column").value);
  if ($("#column").value && $("#delimiter").value) q.set("delimiter", $("#delimiter").value);
  if ($("#header").checked) q.set("header", "true");
  if ($("#skipbad").checked) q.set("skip_bad", "true");
  const f = $("#file").files[0];
  const body = f || $("#text").value;
  say($("#msg"), "Computing…");
  try {
    const res = await reach("/api/median?" + q, { method: "POST", body });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error(data && data.error ? data.error : `HTTP ${res.status}`);
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([data.text], { type: "text/plain" }));
    $("#download").href = url;
    $("#download").classList.remove("hidden");
    chart.dataset.medians = data.medians.length;
    say($("#msg"), `${data.values.length} values, ${data.medians.length} medians` + (data.notes.length ? "; " + data.notes.join("; ") : ""), "good");
    draw(data);
  } catch (e) {
    $("#download").classList.add("hidden");
    chart.dataset.medians = "";
    say($("#msg"), e.message, "bad");
  }
}

/** Draws `d` at the chart's width on screen (the panel's, not a fixed 1100 px). */
function draw(d) {
  shown = d;
  chart.width = Math.max(200, Math.round(chart.clientWidth));
  const w = chart.width, h = chart.height, pad = 30;
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, w, h);
  const finite = d.values.filter((v) => v !== null && Number.isFinite(v));
  if (!finite.length) return;
  let lo = Infinity, hi = -Infinity;
  for (const v of finite) { if (v < lo) lo = v; if (v > hi) hi = v; }
  if (hi === lo) { hi += 1; lo -= 1; }
  const n = d.values.length;
  const X = (i) => pad + (i / Math.max(1, n - 1)) * (w - 2 * pad);
  const Y = (v) => h - pad - ((v - lo) / (hi - lo)) * (h - 2 * pad);
  ctx.strokeStyle = "#ccc"; ctx.strokeRect(pad, pad, w - 2 * pad, h - 2 * pad);
  ctx.fillStyle = "#666"; ctx.font = "12px system-ui, sans-serif";
  ctx.fillText(String(hi), 2, pad - 6); ctx.fillText(String(lo), 2, h - 8);
  line(d.values, 0, X, Y, "#757575", 1);
  line(d.medians, d.window - 1, X, Y, "#1e63c6", 2);
}

/** Draws `ys` starting at index `offset`: a line, or when there are more
 *  values than pixel columns, each column's min–max bar joined to the next
 *  column (bars alone vanished where a column held one value). */
function line(ys, offset, X, Y, colour, width) {
  ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.beginPath();
  const dense = ys.length > chart.width;
  let drawing = false, col = null, first = 0, last = 0, mn = 0, mx = 0;
  const to = (x, y) => { if (drawing) ctx.lineTo(x, y); else ctx.moveTo(x, y); drawing = true; };
  const flush = () => {
    if (col === null) return;
    to(col, Y(first));
    ctx.moveTo(col, Y(mn)); ctx.lineTo(col, Y(mx)); ctx.moveTo(col, Y(last));
    col = null;
  };
  ys.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) { flush(); drawing = false; return; }
    const x = X(i + offset);
    if (!dense) { to(x, Y(v)); return; }
    const c = Math.round(x);
    if (c !== col) { flush(); col = c; first = mn = mx = v; }
    mn = Math.min(mn, v); mx = Math.max(mx, v); last = v;
  });
  flush();
  ctx.stroke();
}

/** A slow wave with noise and a spike in about one value of 25 (a fixed
 *  Park–Miller sequence, so the example is the same every time): the median
 *  follows the wave and ignores the spikes. */
function example() {
  let seed = 20261127;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const values = [];
  for (let i = 0; i < 400; i++) {
    let v = 10 * Math.sin(i / 40) + (rnd() - 0.5) * 4;
    if (rnd() < 0.04) v += (rnd() < 0.5 ? -1 : 1) * (15 + 15 * rnd());
    values.push(v.toFixed(2));
  }
  $("#text").value = values.join("\n") + "\n";
  $("#file").value = "";
  $("#window").value = "15";
  $("#column").value = "";
  $("#header").checked = false;
  run();
}

// The box and the file are two sources: the one touched last is used (text
// typed after choosing a file was ignored while the file stayed chosen).
$("#text").addEventListener("input", () => { $("#file").value = ""; });
$("#file").addEventListener("change", () => {
  const f = $("#file").files[0];
  if (f) say($("#msg"), `Run uses the file ${f.name}; typing in the box uses the box instead.`);
});
$("#run").addEventListener("click", run);
window.addEventListener("resize", () => { if (shown) draw(shown); });
$("#example").addEventListener("click", example);
