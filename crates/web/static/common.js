// Shared helpers: the JSON API and small DOM utilities.
"use strict";

/** POSTs `body` as JSON to `path`; resolves to the answer or throws an Error
 *  carrying the server's one-line message. */
async function api(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const msg = data && data.error ? data.error : `HTTP ${res.status}`;
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** Tells the answer to the last request of one kind from older ones still
 *  in flight (a page's first game, then a quick click on New): each call
 *  starts a request and returns a check that stays true while no later
 *  request of the kind has started. */
function lastAsked() {
  let asked = 0;
  return () => {
    const mine = ++asked;
    return () => mine === asked;
  };
}

function $(sel, root) { return (root || document).querySelector(sel); }
function $$(sel, root) { return Array.from((root || document).querySelectorAll(sel)); }

/** Shows `text` in the element `el` as a good, bad or plain message. */
function say(el, text, kind) {
  el.textContent = text || "";
  el.className = "message" + (kind ? " " + kind : "");
}

/** A timer element that counts seconds from start() until stop(). */
class Timer {
  constructor(el) { this.el = el; this.t0 = null; this.id = null; this.el.textContent = "0"; }
  start() {
    if (this.id !== null) return;
    this.t0 = performance.now();
    this.id = setInterval(() => this.show(), 250);
  }
  show() { if (this.t0 !== null) this.el.textContent = String(Math.floor((performance.now() - this.t0) / 1000)); }
  stop() { this.show(); if (this.id !== null) clearInterval(this.id); this.id = null; }
  reset() { this.stop(); this.t0 = null; this.el.textContent = "0"; }
}
