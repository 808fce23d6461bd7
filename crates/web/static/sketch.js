// Sketch: the server runs arcade_sketch on the uploaded image with the
// sliders' light; the answer is a PNG shown beside the original.
"use strict";

let file = null, pending = null, busy = false, url = null;

function settings() {
  return { depth: $("#depth").value, elevation: $("#elevation").value, azimuth: $("#azimuth").value };
}

function showValues() {
  const s = settings();
  $("#depth-v").textContent = s.depth;
  $("#elevation-v").textContent = Number(s.elevation).toFixed(2);
  $("#azimuth-v").textContent = Number(s.azimuth).toFixed(2);
}

async function run() {
  if (!file) return;
  if (busy) { pending = true; return; }
  busy = true; pending = false;
  const q = new URLSearchParams(settings());
  say($("#msg"), "Sketching…");
  try {
    const res = await reach("/api/sketch?" + q, { method: "POST", body: file });
    if (!res.ok) {
      const data = await res.json().catch(() => null);
      throw new Error(data && data.error ? data.error : `HTTP ${res.status}`);
    }
    const blob = await res.blob();
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(blob);
    $("#result").src = url;
    $("#download").href = url;
    $("#download").classList.remove("hidden");
    $("#result").dataset.size = res.headers.get("x-sketch-size") || "";
    say($("#msg"), `Sketch ${res.headers.get("x-sketch-size")}`, "good");
  } catch (e) {
    $("#result").removeAttribute("src");
    $("#download").classList.add("hidden");
    say($("#msg"), e.message, "bad");
  } finally {
    busy = false;
    if (pending) run();
  }
}

function choose(f) {
  if (!f) return;
  file = f;
  $("#original").src = URL.createObjectURL(f);
  run();
}

$("#file").addEventListener("change", () => choose($("#file").files[0]));
for (const id of ["depth", "elevation", "azimuth"]) {
  $("#" + id).addEventListener("input", showValues);
  $("#" + id).addEventListener("change", run);
}
const drop = $("#drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.style.borderColor = "var(--accent)"; });
drop.addEventListener("dragleave", () => { drop.style.borderColor = ""; });
drop.addEventListener("drop", (e) => {
  e.preventDefault(); drop.style.borderColor = "";
  choose(e.dataTransfer.files[0]);
});
showValues();
