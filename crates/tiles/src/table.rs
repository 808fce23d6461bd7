//! A set of 128-bit position keys known to be lost, for the exact search.
//!
//! Open addressing with short linear probes. The table doubles while it is
//! less than [`DeadTable::max_slots`]; after that a new key overwrites one in
//! its probe window. Forgetting a key is always sound (the position is just
//! searched again), so a full table costs time, never correctness.

const PROBES: usize = 8;

pub struct DeadTable {
    slots: Vec<u128>,
    len: usize,
    max_slots: usize,
    evicted: u64,
}

impl DeadTable {
    /// An empty table that will grow to at most `max_slots` keys (rounded up
    /// to a power of two, at least 1024).
    pub fn new(max_slots: usize) -> DeadTable {
        DeadTable {
            slots: vec![0; 1024],
            len: 0,
            max_slots: max_slots.next_power_of_two().max(1024),
            evicted: 0,
        }
    }

    /// Key 0 marks an empty slot, so keys have their low bit forced on.
    #[inline]
    fn norm(key: u128) -> u128 {
        key | 1
    }

    #[inline]
    fn home(&self, key: u128) -> usize {
        ((key >> 64) as usize) & (self.slots.len() - 1)
    }

    pub fn contains(&self, key: u128) -> bool {
        let key = Self::norm(key);
        let mask = self.slots.len() - 1;
        let home = self.home(key);
        for p in 0..PROBES {
            match self.slots[(home + p) & mask] {
                0 => return false,
                k if k == key => return true,
                _ => {}
            }
        }
        false
    }

    pub fn insert(&mut self, key: u128) {
        if 2 * (self.len + 1) > self.slots.len() && self.slots.len() < self.max_slots {
            self.grow();
        }
        let key = Self::norm(key);
        loop {
            let mask = self.slots.len() - 1;
            let home = self.home(key);
            for p in 0..PROBES {
                let slot = &mut self.slots[(home + p) & mask];
                if *slot == key {
                    return;
                }
                if *slot == 0 {
                    *slot = key;
                    self.len += 1;
                    return;
                }
            }
            if self.slots.len() < self.max_slots {
                self.grow();
                continue;
            }
            // Window full: replace a slot picked by the key's low bits.
            self.slots[(home + (key as usize >> 1) % PROBES) & mask] = key;
            self.evicted += 1;
            return;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for key in old.into_iter().filter(|&k| k != 0) {
            self.insert(key);
        }
    }

    /// Keys stored.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Keys overwritten since the table stopped growing.
    #[cfg(test)]
    pub fn evicted(&self) -> u64 {
        self.evicted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::Rng;

    #[test]
    fn remembers_what_fits_and_never_invents_keys() {
        let mut rng = Rng::new(1);
        let keys: Vec<u128> = (0..5000)
            .map(|_| (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64()))
            .collect();
        let mut t = DeadTable::new(1 << 16);
        for &k in &keys[..2500] {
            t.insert(k);
        }
        assert!(keys[..2500].iter().all(|&k| t.contains(k)));
        assert!(!keys[2500..].iter().any(|&k| t.contains(k)));
        assert_eq!(t.len(), 2500);
        // A tiny table forgets but never claims a key it was not given.
        let mut small = DeadTable::new(1024);
        for &k in &keys[..2500] {
            small.insert(k);
        }
        assert!(small.evicted() > 0);
        assert!(!keys[2500..].iter().any(|&k| small.contains(k)));
        assert!(
            keys[2400..2500]
                .iter()
                .filter(|&&k| small.contains(k))
                .count()
                > 50
        );
    }
}
