//! A level: tiles with a type, a layer and a rectangle, and who covers whom.
//!
//! Tile A covers tile B when A lies on a higher layer and their rectangles
//! overlap with positive area (touching edges do not count). A tile can be
//! taken only when no tile still on the board covers it.

use crate::bitset::Bits;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Default tray size of Sheep a Sheep.
pub const DEFAULT_CAPACITY: usize = 7;
/// Smallest tray a level may ask for: below 3, no triple can ever vanish.
pub const MIN_CAPACITY: usize = 3;
/// Largest tray a level may ask for.
pub const MAX_CAPACITY: usize = 64;
/// Largest level accepted.
pub const MAX_TILES: usize = 20_000;
/// Most (covering, covered) pairs a level may hold: the cover graph stores
/// each pair twice (8 bytes), so this bounds its memory at 64 MB. Real levels
/// hold a few per tile; a tall single stack holds n²/2.
pub const MAX_COVER_PAIRS: usize = 8_000_000;

/// An axis-aligned rectangle in game units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    /// True when the rectangles share an area of positive size.
    pub fn overlaps(&self, other: &Rect) -> bool {
        let (ax, ay, bx, by) = (
            i64::from(self.x),
            i64::from(self.y),
            i64::from(other.x),
            i64::from(other.y),
        );
        ax < bx + i64::from(other.w)
            && bx < ax + i64::from(self.w)
            && ay < by + i64::from(other.h)
            && by < ay + i64::from(self.h)
    }
}

/// One tile: its type (any label), its layer (higher is on top) and where it lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub kind: u32,
    pub layer: i32,
    pub rect: Rect,
}

impl Tile {
    /// True when `self` must be taken before `other` can be.
    pub fn covers(&self, other: &Tile) -> bool {
        self.layer > other.layer && self.rect.overlaps(&other.rect)
    }
}

/// Why a set of tiles is not a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error(
        "tray capacity must be from {MIN_CAPACITY} (for a triple to vanish) to {MAX_CAPACITY}, got {0}"
    )]
    Capacity(usize),
    #[error("a level holds at most {MAX_TILES} tiles, got {0}")]
    TooManyTiles(usize),
    #[error("tile {tile}: width and height must be positive, got {w}×{h}")]
    Size { tile: usize, w: i32, h: i32 },
    #[error(
        "more than {MAX_COVER_PAIRS} pairs of tiles cover one another (the tiles are stacked too deep)"
    )]
    TooManyCovers,
}

/// A playable level with its cover graph worked out.
///
/// Tile ids are indices into [`Level::tiles`]; types are also numbered densely
/// (`0..kinds()`, in increasing label order) for the engine's tables.
#[derive(Clone, Debug)]
pub struct Level {
    tiles: Vec<Tile>,
    capacity: usize,
    labels: Vec<u32>,
    kind_of: Vec<u16>,
    graph: Arc<Graph>,
}

/// Who covers whom: depends on positions only, so levels that differ only in
/// types share it.
#[derive(Debug)]
struct Graph {
    covered_by: Lists,
    covers: Lists,
    above: Vec<Bits>,
}

/// A list of tile ids per tile, all in one buffer (compressed rows): two
/// allocations for the whole level, where a `Vec` per tile made a vector
/// environment's thousands of levels hold hundreds of thousands of them.
#[derive(Debug)]
struct Lists {
    /// List `i` is `items[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The lists of `n` owners holding, for each `(owner, item)` pair, the
    /// item, each list in increasing order. Placed by counting, then each
    /// short list sorted: sorting all the pairs took half of `Level::new`.
    fn from_pairs(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Lists {
        let mut starts = vec![0u32; n + 1];
        for (owner, _) in pairs.clone() {
            starts[owner as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut items = vec![0u32; starts[n] as usize];
        for (owner, item) in pairs {
            items[next[owner as usize] as usize] = item;
            next[owner as usize] += 1;
        }
        for i in 0..n {
            items[starts[i] as usize..starts[i + 1] as usize].sort_unstable();
        }
        Lists { starts, items }
    }

    #[inline]
    fn get(&self, i: usize) -> &[u32] {
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

impl Level {
    /// Builds a level, checking sizes and computing who covers whom.
    pub fn new(tiles: Vec<Tile>, capacity: usize) -> Result<Level, LevelError> {
        if !(MIN_CAPACITY..=MAX_CAPACITY).contains(&capacity) {
            return Err(LevelError::Capacity(capacity));
        }
        if tiles.len() > MAX_TILES {
            return Err(LevelError::TooManyTiles(tiles.len()));
        }
        if let Some((tile, t)) = tiles
            .iter()
            .enumerate()
            .find(|(_, t)| t.rect.w <= 0 || t.rect.h <= 0)
        {
            return Err(LevelError::Size {
                tile,
                w: t.rect.w,
                h: t.rect.h,
            });
        }
        let (covered_by, covers) = cover_graph(&tiles)?;
        let above = transitive_above(&tiles, &covered_by);
        let graph = Arc::new(Graph {
            covered_by,
            covers,
            above,
        });
        Ok(Level::labelled(tiles, capacity, graph))
    }

    fn labelled(tiles: Vec<Tile>, capacity: usize, graph: Arc<Graph>) -> Level {
        let mut labels: Vec<u32> = tiles.iter().map(|t| t.kind).collect();
        labels.sort_unstable();
        labels.dedup();
        let kind_of = tiles
            .iter()
            .map(|t| labels.binary_search(&t.kind).expect("label listed") as u16)
            .collect();
        Level {
            tiles,
            capacity,
            labels,
            kind_of,
            graph,
        }
    }

    /// The same positions with other types (`kinds[i]` for tile `i`),
    /// sharing the cover graph.
    ///
    /// # Panics
    /// If `kinds` has not one entry per tile.
    pub fn with_kinds(&self, kinds: &[u32]) -> Level {
        assert_eq!(kinds.len(), self.len(), "one type per tile");
        let tiles = self
            .tiles
            .iter()
            .zip(kinds)
            .map(|(t, &kind)| Tile { kind, ..*t })
            .collect();
        Level::labelled(tiles, self.capacity, Arc::clone(&self.graph))
    }

    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Tray slots: the game is lost when this many tiles sit in the tray.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The same tiles with another tray size.
    pub fn with_capacity(&self, capacity: usize) -> Result<Level, LevelError> {
        if !(MIN_CAPACITY..=MAX_CAPACITY).contains(&capacity) {
            return Err(LevelError::Capacity(capacity));
        }
        Ok(Level {
            capacity,
            ..self.clone()
        })
    }

    /// Number of distinct types.
    pub fn kinds(&self) -> usize {
        self.labels.len()
    }

    /// The label of dense type `k`.
    pub fn label(&self, k: usize) -> u32 {
        self.labels[k]
    }

    /// Dense type of tile `i`.
    #[inline]
    pub fn kind(&self, i: usize) -> usize {
        usize::from(self.kind_of[i])
    }

    /// Tiles that cover tile `i` directly (all of them must go first).
    #[inline]
    pub fn covered_by(&self, i: usize) -> &[u32] {
        self.graph.covered_by.get(i)
    }

    /// Tiles that tile `i` covers.
    #[inline]
    pub fn covers(&self, i: usize) -> &[u32] {
        self.graph.covers.get(i)
    }

    /// Every tile that must be gone before tile `i` can be taken (the
    /// coverers, their coverers, and so on).
    #[inline]
    pub fn above(&self, i: usize) -> &Bits {
        &self.graph.above[i]
    }

    /// Tiles per dense type.
    pub fn kind_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.kinds()];
        for i in 0..self.len() {
            counts[self.kind(i)] += 1;
        }
        counts
    }

    /// The first type (by label) whose tile count is not a multiple of 3, with
    /// that count: such a level can never be cleared.
    pub fn uneven_kind(&self) -> Option<(u32, usize)> {
        self.kind_counts()
            .into_iter()
            .enumerate()
            .find(|&(_, c)| c % 3 != 0)
            .map(|(k, c)| (self.labels[k], c))
    }
}

/// Direct cover relation both ways (who covers each tile, whom each tile
/// covers), each list in increasing tile order. Tiles are swept by left edge
/// so only horizontally overlapping pairs are tested.
fn cover_graph(tiles: &[Tile]) -> Result<(Lists, Lists), LevelError> {
    /// A tile's extent, laid out for the sweep (no lookups in its loop).
    struct Span {
        x: i64,
        right: i64,
        y: i64,
        bottom: i64,
        layer: i32,
        id: u32,
    }
    let mut spans: Vec<Span> = tiles
        .iter()
        .enumerate()
        .map(|(id, t)| Span {
            x: t.rect.x.into(),
            right: i64::from(t.rect.x) + i64::from(t.rect.w),
            y: t.rect.y.into(),
            bottom: i64::from(t.rect.y) + i64::from(t.rect.h),
            layer: t.layer,
            id: id as u32,
        })
        .collect();
    spans.sort_by_key(|s| s.x);
    // (bottom, top) for every tile `top` that covers tile `bottom`.
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (pos, a) in spans.iter().enumerate() {
        for b in &spans[pos + 1..] {
            if b.x >= a.right {
                break;
            }
            if a.layer == b.layer || b.y >= a.bottom || a.y >= b.bottom {
                continue;
            }
            if pairs.len() == MAX_COVER_PAIRS {
                return Err(LevelError::TooManyCovers);
            }
            pairs.push(if a.layer > b.layer {
                (b.id, a.id)
            } else {
                (a.id, b.id)
            });
        }
    }
    let n = tiles.len();
    Ok((
        Lists::from_pairs(n, pairs.iter().copied()),
        Lists::from_pairs(n, pairs.iter().map(|&(bottom, top)| (top, bottom))),
    ))
}

/// For each tile, every tile transitively above it. Coverers sit on strictly
/// higher layers, so visiting tiles from the top layer down sees each
/// coverer's set complete.
///
/// Coverers are merged nearest layer first, and one already in the set is
/// skipped: its own set is then contained already (the sets are closed). In
/// a tall stack only the tile just above is merged, so the work is about one
/// set per tile instead of one per covering pair.
fn transitive_above(tiles: &[Tile], covered_by: &Lists) -> Vec<Bits> {
    let n = tiles.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(tiles[i].layer));
    let mut above = vec![Bits::new(0); n];
    let mut coverers = Vec::new();
    for &i in &order {
        let mut set = Bits::new(n);
        coverers.clear();
        coverers.extend(covered_by.get(i).iter().map(|&c| c as usize));
        coverers.sort_by_key(|&c| tiles[c].layer);
        for &c in &coverers {
            if set.contains(c) {
                continue;
            }
            set.insert(c);
            set.union_with(&above[c]);
        }
        above[i] = set;
    }
    above
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A tile of size `w`×`h` for tests.
    pub fn tile(kind: u32, layer: i32, x: i32, y: i32) -> Tile {
        Tile {
            kind,
            layer,
            rect: Rect { x, y, w: 2, h: 2 },
        }
    }

    /// Small random levels: tiles of size 2 on a few layers of a small
    /// field, so that covering is frequent.
    pub fn arb_tiles(max: usize, kinds: u32) -> impl Strategy<Value = Vec<Tile>> {
        prop::collection::vec((0..kinds, 0i32..4, 0i32..5, 0i32..5), 0..=max)
            .prop_map(|v| v.into_iter().map(|(k, l, x, y)| tile(k, l, x, y)).collect())
    }

    #[test]
    fn touching_edges_do_not_overlap() {
        let a = Rect {
            x: 0,
            y: 0,
            w: 8,
            h: 8,
        };
        assert!(!a.overlaps(&Rect { x: 8, ..a }));
        assert!(!a.overlaps(&Rect { y: -8, ..a }));
        assert!(a.overlaps(&Rect { x: 7, y: 7, ..a }));
        assert!(a.overlaps(&Rect { x: 4, y: -4, ..a }));
        // A side pile: blocks one unit apart overlap.
        assert!(a.overlaps(&Rect { x: 1, ..a }));
    }

    #[test]
    fn cover_needs_a_higher_layer() {
        let low = tile(1, 0, 0, 0);
        let high = tile(1, 1, 1, 1);
        assert!(high.covers(&low));
        assert!(!low.covers(&high));
        assert!(!low.covers(&tile(1, 0, 1, 1)), "same layer never covers");
    }

    #[test]
    fn rejects_bad_sizes_and_capacities() {
        let mut t = tile(1, 0, 0, 0);
        t.rect.w = 0;
        assert_eq!(
            Level::new(vec![tile(1, 0, 0, 0), t], 7).unwrap_err(),
            LevelError::Size {
                tile: 1,
                w: 0,
                h: 2
            }
        );
        for refused in [0, 2, 65] {
            assert_eq!(
                Level::new(vec![], refused).unwrap_err(),
                LevelError::Capacity(refused)
            );
        }
        assert!(Level::new(vec![], 3).is_ok() && Level::new(vec![], 64).is_ok());
        assert!(Level::new(vec![], 7).unwrap().is_empty());
    }

    #[test]
    fn uneven_kinds_are_found() {
        let tiles = vec![
            tile(5, 0, 0, 0),
            tile(5, 0, 3, 0),
            tile(5, 0, 6, 0),
            tile(9, 1, 0, 0),
        ];
        let level = Level::new(tiles, 7).unwrap();
        assert_eq!(level.kinds(), 2);
        assert_eq!(level.label(1), 9);
        assert_eq!(level.uneven_kind(), Some((9, 1)));
    }

    /// A single stack of `n` tiles on layers 0..n.
    fn stack(n: usize) -> Vec<Tile> {
        (0..n).map(|i| tile(i as u32 / 3, i as i32, 0, 0)).collect()
    }

    /// Issue 30: a 20,000-tile stack took 57 s and 1.9 GB to load (its
    /// closure merged one set per covering pair). A tall stack under the pair
    /// limit now loads at once, and one over it is refused at once.
    #[test]
    fn tall_stacks_load_fast_or_are_refused() {
        let start = std::time::Instant::now();
        let level = Level::new(stack(3_000), 7).unwrap();
        assert_eq!(level.above(0).iter().count(), 2_999);
        assert_eq!(level.covered_by(0).len(), 2_999);
        assert_eq!(
            Level::new(stack(20_000), 7).unwrap_err(),
            LevelError::TooManyCovers
        );
        let seconds = start.elapsed().as_secs_f64();
        assert!(seconds < 5.0, "{seconds:.1} s");
    }

    proptest! {
        /// The swept cover graph and the transitive sets agree with pairwise
        /// geometry and a naive closure.
        #[test]
        fn cover_graph_matches_pairwise_geometry(tiles in arb_tiles(40, 4)) {
            let level = Level::new(tiles.clone(), 7).unwrap();
            let n = tiles.len();
            for b in 0..n {
                let naive: Vec<u32> = (0..n).filter(|&a| tiles[a].covers(&tiles[b])).map(|a| a as u32).collect();
                prop_assert_eq!(level.covered_by(b), &naive[..]);
                let below: Vec<u32> = (0..n).filter(|&c| tiles[b].covers(&tiles[c])).map(|c| c as u32).collect();
                prop_assert_eq!(level.covers(b), &below[..]);
                // Naive closure by repeated expansion.
                let mut set: std::collections::BTreeSet<usize> = naive.iter().map(|&a| a as usize).collect();
                loop {
                    let tiles = &tiles;
                    let more: Vec<usize> = set.iter().flat_map(|&a| (0..n).filter(move |&c| tiles[c].covers(&tiles[a]))).collect();
                    let before = set.len();
                    set.extend(more);
                    if set.len() == before { break; }
                }
                prop_assert_eq!(level.above(b).iter().collect::<Vec<_>>(), set.into_iter().collect::<Vec<_>>());
            }
        }
    }
}
