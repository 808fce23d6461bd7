//! Large windows: Suomela's sort-based block algorithm ("Median filtering is
//! equivalent to sorting", J. Suomela, 2014, arXiv:1406.1717).
//!
//! The input is cut into blocks of `window` values. Every window is the tail
//! of one block (`A`) plus the head of the next (`B`). Each block is sorted
//! once and kept as a doubly-linked list in sorted order; sliding the window
//! deletes the oldest value from `A`'s list and inserts the newest into `B`'s.
//! The insertion is O(1) because `B`'s list is first emptied in reverse input
//! order ("unwound"): every removed node keeps its neighbour links, which are
//! exactly its neighbours when it is re-inserted in input order (the "dancing
//! links" trick). Two cursors, one per list, mark the boundary between the
//! smallest `r` values of the window and the rest; the window changes by one
//! value per step, so they move O(1) nodes per step amortised. The cost is
//! dominated by sorting each block once: O(n log k) with a small constant and
//! few cache misses.
//!
//! Monotone stretches skip the lists: when both blocks came in key order, in
//! the same direction and without a step back where they meet, every window
//! of the slide is a sorted slice of the input and its median is read off by
//! position ([`Slider::slide_monotone`]). Sorted or reverse-sorted data then
//! costs one pass to build each block's (already sorted) list, which the
//! general slide needs should the next block break the order.

use crate::key::{NAN_KEY, key, mean2, value};
use crate::radix::Sorter;
use std::hint::select_unpredictable;

/// A list node: the key at this rank of the block and its neighbours.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    key: u64,
    prev: u32,
    next: u32,
}

/// One block: its values as a sorted linked list. Node 0 is the head
/// sentinel (key 0, below every real key), nodes `1..=len` hold the block's
/// values in sorted order, node `len + 1` is the tail sentinel (key
/// `u64::MAX`, above every real key and NaN). So node indices compare like
/// the values they hold.
#[derive(Default)]
struct Block {
    nodes: Vec<Node>,
    /// Position in the block → node index.
    rank_of: Vec<u32>,
    /// Position in the block → key.
    keys: Vec<u64>,
    sorter: Sorter,
    /// The block's keys came in non-decreasing order.
    ascending: bool,
    /// The block's keys came in non-increasing order.
    descending: bool,
}

const HEAD: u32 = 0;

/// The key order of a monotone run of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Ascending,
    Descending,
}

/// How many steps ahead nodes are prefetched.
const PREFETCH_AHEAD: usize = 16;
/// Smaller blocks stay in L1/L2 cache, where prefetching only costs.
const PREFETCH_MIN_WINDOW: usize = 4096;

impl Block {
    fn with_capacity(k: usize) -> Block {
        Block {
            nodes: Vec::with_capacity(k + 2),
            rank_of: Vec::with_capacity(k),
            keys: Vec::with_capacity(k),
            sorter: Sorter::default(),
            ascending: false,
            descending: false,
        }
    }

    fn tail(&self) -> u32 {
        (self.nodes.len() - 1) as u32
    }

    /// Whether this block, then `next`, is one monotone run of keys: then
    /// every window that spans the two is sorted (one way or the other).
    fn runs_into(&self, next: &Block) -> Option<Direction> {
        let (&last, &first) = (self.keys.last()?, next.keys.first()?);
        if self.ascending && next.ascending && last <= first {
            Some(Direction::Ascending)
        } else if self.descending && next.descending && last >= first {
            Some(Direction::Descending)
        } else {
            None
        }
    }

    /// Sorts `values` and links them, all present.
    fn build(&mut self, values: &[f64]) {
        let len = values.len();
        self.keys.clear();
        self.keys.extend(values.iter().map(|&x| key(x)));
        let mask = self.sorter.sort_positions(&self.keys);
        self.ascending = self.keys.is_sorted();
        self.descending = self.keys.is_sorted_by(|x, y| x >= y);
        self.rank_of.clear();
        self.rank_of.resize(len, 0);
        self.nodes.clear();
        self.nodes.push(Node {
            key: 0,
            prev: HEAD,
            next: 1,
        });
        for (r, &word) in self.sorter.words.iter().enumerate() {
            let pos = (word & mask) as usize;
            let node = r as u32 + 1;
            self.rank_of[pos] = node;
            self.nodes.push(Node {
                key: self.keys[pos],
                prev: node - 1,
                next: node + 1,
            });
        }
        self.nodes.push(Node {
            key: u64::MAX,
            prev: len as u32,
            next: len as u32 + 1, // itself: `next` of the tail stays in bounds
        });
    }

    /// Removes every value, last position first, leaving each node's links
    /// ready for [`Block::relink`] in position order.
    fn unwind(&mut self) {
        for pos in (0..self.rank_of.len()).rev() {
            if let Some(&ahead) = self.rank_of.get(pos.wrapping_sub(PREFETCH_AHEAD)) {
                self.prefetch(ahead);
            }
            self.unlink(self.rank_of[pos]);
        }
    }

    /// Asks for node `i`'s cache line ahead of use: list nodes sit at random
    /// ranks, and waiting on these loads is most of the time for large
    /// windows otherwise.
    #[inline(always)]
    fn prefetch(&self, i: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.nodes.as_ptr().wrapping_add(i as usize);
            // SAFETY: a prefetch is only a hint: it never faults and has no
            // visible effect, whatever the address (SSE is baseline on x86_64).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    #[inline(always)]
    fn unlink(&mut self, i: u32) {
        let Node { prev, next, .. } = self.nodes[i as usize];
        self.nodes[prev as usize].next = next;
        self.nodes[next as usize].prev = prev;
    }

    #[inline(always)]
    fn relink(&mut self, i: u32) {
        let Node { prev, next, .. } = self.nodes[i as usize];
        self.nodes[prev as usize].next = i;
        self.nodes[next as usize].prev = i;
    }

    #[inline(always)]
    fn key(&self, i: u32) -> u64 {
        self.nodes[i as usize].key
    }

    #[inline(always)]
    fn next(&self, i: u32) -> u32 {
        self.nodes[i as usize].next
    }

    #[inline(always)]
    fn prev(&self, i: u32) -> u32 {
        self.nodes[i as usize].prev
    }
}

/// The boundary in each list: the values before `ca` in `A` and before `cb`
/// in `B` ("small", `sa + sb` of them) are all below the cursors' values.
/// Values compare by key, an `A` value before a `B` value on equal keys.
struct Cursors {
    ca: u32,
    sa: usize,
    cb: u32,
    sb: usize,
}

/// The sliding state: the window is `A`'s present values plus `B`'s.
struct Slider {
    a: Block,
    b: Block,
    c: Cursors,
    /// NaNs in the window.
    nans: usize,
    window: usize,
}

/// Batch sliding median for large windows (see [`crate::Algorithm::Blocks`]);
/// appends to `out`.
pub fn rolling_median_blocks(data: &[f64], window: usize, out: &mut Vec<f64>) {
    assert!(window > 0, "window must be at least 1");
    assert!(window < u32::MAX as usize - 2, "window must fit in u32");
    let n = data.len();
    if n < window {
        return;
    }
    out.reserve(n - window + 1);
    let mut a = Block::with_capacity(window);
    let mut b = Block::with_capacity(window);
    a.build(&data[..window]);
    b.build(&[]);
    let mut s = Slider {
        c: Cursors {
            ca: a.next(HEAD),
            sa: 0,
            cb: b.tail(),
            sb: 0,
        },
        a,
        b,
        nans: data[..window].iter().filter(|x| x.is_nan()).count(),
        window,
    };
    out.push(s.median::<false>());
    for (i, chunk) in data[window..].chunks(window).enumerate() {
        s.b.build(chunk);
        if let Some(direction) = s.a.runs_into(&s.b) {
            // From `A`'s second value to `B`'s last: every window of the slide.
            let span = &data[i * window + 1..(i + 1) * window + chunk.len()];
            s.slide_monotone(span, direction, out);
        } else {
            s.b.unwind();
            s.c.cb = s.b.tail();
            s.c.sb = 0;
            let ordered = s.a.ascending && s.b.ascending;
            match (window >= PREFETCH_MIN_WINDOW, ordered) {
                (true, true) => s.slide_block::<true, true>(out),
                (true, false) => s.slide_block::<true, false>(out),
                (false, true) => s.slide_block::<false, true>(out),
                (false, false) => s.slide_block::<false, false>(out),
            }
        }
        // `B` is full: it becomes the next `A`, its cursor with it.
        std::mem::swap(&mut s.a, &mut s.b);
        s.c.ca = s.c.cb;
        s.c.sa = s.c.sb;
    }
}

impl Slider {
    /// Slides the window across block `B` (all of it unwound), emptying `A`.
    /// `PREFETCH` for blocks too large for the L2 cache; `ORDERED` when both
    /// blocks came in sorted order: then every cursor decision repeats, and
    /// branches (predicted perfectly) beat selects (which lengthen the
    /// dependency chains). On other data the branches mispredict half the
    /// time and selects win.
    #[inline(always)]
    fn slide_block<const PREFETCH: bool, const ORDERED: bool>(&mut self, out: &mut Vec<f64>) {
        for j in 0..self.b.rank_of.len() {
            if PREFETCH {
                let ahead = j + PREFETCH_AHEAD;
                if let (Some(&x), Some(&y)) = (self.a.rank_of.get(ahead), self.b.rank_of.get(ahead))
                {
                    self.a.prefetch(x);
                    self.b.prefetch(y);
                }
            }
            let x = self.a.rank_of[j];
            let y = self.b.rank_of[j];
            self.nans = self.nans + usize::from(self.b.key(y) == NAN_KEY)
                - usize::from(self.a.key(x) == NAN_KEY);
            self.delete_oldest::<ORDERED>(x);
            self.insert_newest::<ORDERED>(y);
            out.push(self.median::<ORDERED>());
        }
    }

    /// Slides the window across block `B` when `A` runs into it in
    /// `direction` (see [`Block::runs_into`]): each window of `span` is
    /// sorted, so its median is at a fixed position, and no list is touched.
    /// `B` stays fully linked (as the general slide leaves it); its cursor
    /// is placed on the last window's lower middle.
    fn slide_monotone(&mut self, span: &[f64], direction: Direction, out: &mut Vec<f64>) {
        let (a, b) = (&self.a.keys, &self.b.keys);
        let windows = span.windows(self.window).zip(a.iter().zip(b));
        let mut nans = self.nans;
        match direction {
            Direction::Ascending => out.extend(windows.map(|(w, (&old, &new))| {
                nans = nans + usize::from(new == NAN_KEY) - usize::from(old == NAN_KEY);
                median_of_run(w, nans, |i| i)
            })),
            Direction::Descending => out.extend(windows.map(|(w, (&old, &new))| {
                nans = nans + usize::from(new == NAN_KEY) - usize::from(old == NAN_KEY);
                median_of_run(w, nans, |i| w.len() - 1 - i)
            })),
        }
        self.nans = nans;
        // `A` is spent; in `B` (sorted, all present) the values below node
        // `r + 1` are the smallest `r`. A short `B`, the input's last, may
        // hold fewer than `r`: then all of them are small, still a valid split.
        let r = ((self.window - nans).saturating_sub(1) / 2).min(self.b.rank_of.len());
        self.c.cb = r as u32 + 1;
        self.c.sb = r;
    }

    /// Removes node `x` from `A`, keeping the cursor on a present node.
    #[inline(always)]
    fn delete_oldest<const BRANCHY: bool>(&mut self, x: u32) {
        let (a, c) = (&mut self.a, &mut self.c);
        if BRANCHY {
            if x == c.ca {
                c.ca = a.next(x);
            } else if x < c.ca {
                c.sa -= 1;
            }
        } else {
            let next = a.next(x);
            c.sa -= usize::from(x < c.ca);
            c.ca = select_unpredictable(x == c.ca, next, c.ca);
        }
        a.unlink(x);
    }

    /// Re-inserts node `y` into `B`, counting it as small when it is below
    /// both cursors. A non-small `y` inserted before `cb` must sit right
    /// before it (everything between them would be small, hence below
    /// `ca < y`), so it becomes the new cursor.
    #[inline(always)]
    fn insert_newest<const BRANCHY: bool>(&mut self, y: u32) {
        let (a, b, c) = (&self.a, &mut self.b, &mut self.c);
        b.relink(y);
        if BRANCHY {
            if y < c.cb {
                if b.key(y) < a.key(c.ca) {
                    c.sb += 1;
                } else {
                    c.cb = y;
                }
            }
        } else {
            let before = y < c.cb;
            let small = before & (b.key(y) < a.key(c.ca));
            c.sb += usize::from(small);
            c.cb = select_unpredictable(before & !small, y, c.cb);
        }
    }

    /// Moves the cursors until exactly `r` values are small. One step per
    /// slide is the rule (the count of small values and `r` each move by at
    /// most one); longer walks happen only when NaNs enter or leave.
    #[inline(always)]
    fn balance<const BRANCHY: bool>(&mut self, r: usize) {
        let (a, b, c) = (&self.a, &self.b, &mut self.c);
        let s = c.sa + c.sb;
        if BRANCHY || s.abs_diff(r) > 1 {
            while c.sa + c.sb < r {
                if a.key(c.ca) <= b.key(c.cb) {
                    c.ca = a.next(c.ca);
                    c.sa += 1;
                } else {
                    c.cb = b.next(c.cb);
                    c.sb += 1;
                }
            }
            while c.sa + c.sb > r {
                let (pa, pb) = (a.prev(c.ca), b.prev(c.cb));
                if a.key(pa) <= b.key(pb) {
                    c.cb = pb;
                    c.sb -= 1;
                } else {
                    c.ca = pa;
                    c.sa -= 1;
                }
            }
            return;
        }
        // At most one step, taken with selects. Going up, the smaller cursor
        // value becomes small; going down, the larger of the two last small
        // values stops being small.
        let (up, down) = (s < r, s > r);
        let (pa, pb) = (a.prev(c.ca), b.prev(c.cb));
        let a_next = a.key(c.ca) <= b.key(c.cb);
        let b_last = a.key(pa) <= b.key(pb);
        let (a_up, b_up) = (up & a_next, up & !a_next);
        let (a_down, b_down) = (down & !b_last, down & b_last);
        c.ca = select_unpredictable(a_up, a.next(c.ca), select_unpredictable(a_down, pa, c.ca));
        c.cb = select_unpredictable(b_up, b.next(c.cb), select_unpredictable(b_down, pb, c.cb));
        c.sa = c.sa + usize::from(a_up) - usize::from(a_down);
        c.sb = c.sb + usize::from(b_up) - usize::from(b_down);
    }

    /// The median of the window's numbers (NaNs sort last, so the lowest
    /// `valid` values are the numbers), after balancing the cursors on it.
    #[inline(always)]
    fn median<const BRANCHY: bool>(&mut self) -> f64 {
        let valid = self.window - self.nans;
        if valid == 0 {
            return f64::NAN;
        }
        self.balance::<BRANCHY>((valid - 1) / 2);
        let (a, b, c) = (&self.a, &self.b, &self.c);
        let (ka, kb) = (a.key(c.ca), b.key(c.cb));
        let lo = ka.min(kb);
        if valid % 2 == 1 {
            return value(lo);
        }
        let after_a = a.key(a.next(c.ca)).min(kb);
        let after_b = ka.min(b.key(b.next(c.cb)));
        mean2(
            value(lo),
            value(select_unpredictable(ka <= kb, after_a, after_b)),
        )
    }
}

/// The median of a window sorted by key (NaNs, the largest keys, at the
/// top), where `at(i)` is the position of its `i`-th smallest value.
#[inline(always)]
fn median_of_run(w: &[f64], nans: usize, at: impl Fn(usize) -> usize) -> f64 {
    let valid = w.len() - nans;
    if valid == 0 {
        return f64::NAN;
    }
    let r = (valid - 1) / 2;
    if valid % 2 == 1 {
        w[at(r)]
    } else {
        mean2(w[at(r)], w[at(r + 1)])
    }
}
