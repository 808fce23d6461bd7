// Real-time games (Tetris, Flappy Bird): a clock counting the game's own
// ticks, key presses stamped with the tick they happen on, and at most one
// request in flight. The server's engine advances by ticks only, so a late
// answer delays the picture, never changes the game (docs/web.md).
"use strict";

/** Counts ticks of `rate` per second from start(), pausable. */
class TickClock {
  constructor(rate) { this.rate = rate; this.t0 = null; this.pausedAt = null; }
  start(now) { this.t0 = now; this.pausedAt = null; }
  get running() { return this.t0 !== null && this.pausedAt === null; }
  /** Ticks completed by time `now` (0 before start). */
  tick(now) {
    if (this.t0 === null) return 0;
    const t = (this.pausedAt !== null ? this.pausedAt : now) - this.t0;
    return Math.max(0, Math.floor(t * this.rate / 1000));
  }
  pause(now) { if (this.t0 !== null && this.pausedAt === null) this.pausedAt = now; }
  resume(now) { if (this.pausedAt !== null) { this.t0 += now - this.pausedAt; this.pausedAt = null; } }
  stop() { this.t0 = null; this.pausedAt = null; }
  /** Changes the rate from `now` on, keeping the ticks already counted. */
  setRate(rate, now) {
    const done = this.tick(now);
    this.rate = rate;
    if (this.t0 === null) return;
    const at = this.pausedAt !== null ? this.pausedAt : now;
    this.t0 = at - (done * 1000) / rate;
  }
}

/** Inputs stamped with ticks, sent in order with the tick reached: `send(to,
 *  inputs)` returns a promise of the new state; one request at a time. */
class Lockstep {
  constructor(send) { this.send = send; this.reset(); }
  reset() { this.sent = 0; this.inputs = []; this.lastTick = 0; this.busy = false; this.generation = (this.generation || 0) + 1; }
  /** Stamps `what` with the next tick to be played after `clockTick`. */
  press(clockTick, what) {
    const t = Math.max(clockTick + 1, this.sent + 1, this.lastTick);
    this.lastTick = t;
    this.inputs.push([t, what]);
    return t;
  }
  /** Asks the server to reach tick `target` (with the inputs up to it) unless
   *  a request is already out; resolves to the state, or null if nothing was sent. */
  async pump(target) {
    if (this.busy) return null;
    const ready = this.inputs.filter((i) => i[0] <= target);
    if (target <= this.sent && ready.length === 0) return null;
    target = Math.max(target, this.sent);
    this.inputs = this.inputs.filter((i) => i[0] > target);
    this.busy = true;
    const generation = this.generation;
    try {
      const state = await this.send(target, ready);
      if (generation !== this.generation) return null;
      this.sent = target;
      return state;
    } finally {
      if (generation === this.generation) this.busy = false;
    }
  }
}

/** Keys held down, repeated on the game's ticks rather than by the
 *  operating system's key repeat, so a held key moves as fast on every
 *  machine and the repeats are stamped like any press. `timing` maps an
 *  action to `{ delay, interval }` (the NES's delayed auto shift: act on the
 *  press, again `delay` ticks later, then every `interval` ticks), with
 *  `as` naming the repeat's own action when it differs from the press's;
 *  actions without an entry act once per press. */
class HeldKeys {
  constructor(timing) { this.timing = timing; this.held = new Map(); }
  /** A key went down at tick `tick`; false if it was already held. */
  down(key, action, tick) {
    if (this.held.has(key)) return false;
    const t = this.timing[action];
    this.held.set(key, t ? { action, repeat: t.as || action, next: tick + t.delay, interval: t.interval }
      : { action, next: Infinity });
    return true;
  }
  has(key) { return this.held.has(key); }
  up(key) { this.held.delete(key); }
  /** Stops repeating `action` (a newer key for the other way wins). */
  stop(action) { for (const [k, h] of this.held) if (h.action === action) this.held.delete(k); }
  clear() { this.held.clear(); }
  /** The repeats due by tick `upTo`, as `[tick, action]` in tick order. */
  due(upTo) {
    const out = [];
    for (const h of this.held.values()) {
      for (; h.next <= upTo; h.next += h.interval) out.push([h.next, h.repeat]);
    }
    return out.sort((a, b) => a[0] - b[0]);
  }
}
