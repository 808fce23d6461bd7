//! One half of the double heap: a binary heap of `(value, slot)` entries that
//! keeps every slot's heap index up to date, so the streaming median can find
//! the entry of the oldest value and replace it in place.

/// A value in the window and the ring slot it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub v: f64,
    pub slot: u32,
}

/// `loc[slot]` marks a slot whose value (a NaN) is in neither heap.
pub(crate) const ABSENT: u32 = u32::MAX;
/// `loc[slot]` bit for "in the upper half"; the other bits are the heap index.
pub(crate) const UPPER_BIT: u32 = 1 << 31;

/// A max-heap (`UPPER = false`, the lower half of the window) or a min-heap
/// (`UPPER = true`, the upper half).
#[derive(Clone, Debug, Default)]
pub(crate) struct Half<const UPPER: bool> {
    pub e: Vec<Entry>,
}

impl<const UPPER: bool> Half<UPPER> {
    const TAG: u32 = if UPPER { UPPER_BIT } else { 0 };

    /// Whether `a` belongs nearer the root than `b`.
    #[inline(always)]
    fn above(a: f64, b: f64) -> bool {
        if UPPER { a < b } else { a > b }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.e.len()
    }

    #[inline(always)]
    pub fn top(&self) -> Option<f64> {
        self.e.first().map(|e| e.v)
    }

    #[inline(always)]
    fn place(&mut self, loc: &mut [u32], i: usize, entry: Entry) {
        loc[entry.slot as usize] = Self::TAG | i as u32;
        self.e[i] = entry;
    }

    /// Moves entry `i` towards the root while it beats its parent; returns
    /// where it ends.
    #[inline]
    pub fn sift_up(&mut self, loc: &mut [u32], mut i: usize) -> usize {
        let entry = self.e[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.e[parent];
            if !Self::above(entry.v, p.v) {
                break;
            }
            self.place(loc, i, p);
            i = parent;
        }
        self.place(loc, i, entry);
        i
    }

    /// Moves entry `i` towards the leaves while a child beats it.
    #[inline]
    pub fn sift_down(&mut self, loc: &mut [u32], mut i: usize) {
        let n = self.e.len();
        let entry = self.e[i];
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && Self::above(self.e[right].v, self.e[left].v) {
                right
            } else {
                left
            };
            let c = self.e[child];
            if !Self::above(c.v, entry.v) {
                break;
            }
            self.place(loc, i, c);
            i = child;
        }
        self.place(loc, i, entry);
    }

    /// Restores the heap after entry `i` changed in either direction.
    #[inline]
    pub fn fix(&mut self, loc: &mut [u32], i: usize) {
        if self.sift_up(loc, i) == i {
            self.sift_down(loc, i);
        }
    }

    pub fn push(&mut self, loc: &mut [u32], entry: Entry) {
        self.e.push(entry);
        self.sift_up(loc, self.e.len() - 1);
    }

    /// Removes and returns entry `i` (the caller marks its slot).
    pub fn remove_at(&mut self, loc: &mut [u32], i: usize) -> Entry {
        let removed = self.e[i];
        let last = self.e.pop().expect("remove from a non-empty heap");
        if i < self.e.len() {
            self.place(loc, i, last);
            self.fix(loc, i);
        }
        removed
    }
}
