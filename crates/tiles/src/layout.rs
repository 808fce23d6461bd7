//! The classic two-grid layout used in studies of the game: even layers are
//! a 6×6 grid of tiles, odd layers a 5×5 grid shifted by half a tile, so each
//! odd-layer tile rests on four even-layer tiles. A level places `types` ×
//! `groups` triples of tiles on a seeded random choice of these positions.

use crate::capture::BLOCK;
use crate::level::{DEFAULT_CAPACITY, Level, Rect, Tile};
use arcade_core::Rng;
use serde::{Deserialize, Serialize};

/// The shape of a classic level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classic {
    /// Layers of the grid stack.
    pub layers: usize,
    /// Tile types.
    pub types: usize,
    /// Triples of each type.
    pub groups: usize,
}

/// Most layers of a classic level: 6,100 positions, so a level is bounded.
pub const MAX_LAYERS: usize = 200;

/// Why a classic level cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error(
        "{tiles} tiles do not fit in the {positions} positions of {}",
        arcade_core::text::counted(layers, "layer")
    )]
    TooManyTiles {
        tiles: usize,
        positions: usize,
        layers: usize,
    },
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    #[error("layers {0} is out of range (1 to {MAX_LAYERS})")]
    Layers(usize),
}

impl Classic {
    /// 12 types × 10 groups = 360 tiles, the size of the published study.
    pub fn new(layers: usize) -> Classic {
        Classic {
            layers,
            types: 12,
            groups: 10,
        }
    }

    /// Tiles of the level (saturating, so that absurd counts fail
    /// [`Classic::validate`] instead of overflowing).
    pub fn tiles(&self) -> usize {
        self.types.saturating_mul(self.groups).saturating_mul(3)
    }

    /// Checks that the tiles fit.
    pub fn validate(&self) -> Result<(), LayoutError> {
        if !(1..=MAX_LAYERS).contains(&self.layers) {
            return Err(LayoutError::Layers(self.layers));
        }
        if self.types == 0 {
            return Err(LayoutError::Zero("types"));
        }
        if self.groups == 0 {
            return Err(LayoutError::Zero("groups"));
        }
        let positions = positions(self.layers).len();
        if self.tiles() > positions {
            return Err(LayoutError::TooManyTiles {
                tiles: self.tiles(),
                positions,
                layers: self.layers,
            });
        }
        Ok(())
    }

    /// Seeded random positions for the tiles, each `(layer, rect)`, sorted
    /// bottom layer first, then by row and column.
    pub fn place(&self, rng: &mut Rng) -> Result<Vec<(i32, Rect)>, LayoutError> {
        self.validate()?;
        let mut all = positions(self.layers);
        rng.shuffle(&mut all);
        all.truncate(self.tiles());
        all.sort_by_key(|&(layer, r)| (layer, r.y, r.x));
        Ok(all)
    }

    /// The type labels (`1..=types`, each `3 × groups` times) in seeded
    /// random order.
    pub fn deal(&self, rng: &mut Rng) -> Vec<u32> {
        let mut kinds: Vec<u32> = (1..=self.types as u32)
            .flat_map(|k| std::iter::repeat_n(k, 3 * self.groups))
            .collect();
        rng.shuffle(&mut kinds);
        kinds
    }

    /// A random level: random positions, random types.
    pub fn random_level(&self, seed: u64) -> Result<Level, LayoutError> {
        let mut rng = Rng::new(seed);
        let places = self.place(&mut rng)?;
        let kinds = self.deal(&mut rng);
        Ok(assemble(&places, &kinds))
    }
}

/// Tiles from positions and the type of each.
pub fn assemble(places: &[(i32, Rect)], kinds: &[u32]) -> Level {
    let tiles = places
        .iter()
        .zip(kinds)
        .map(|(&(layer, rect), &kind)| Tile { kind, layer, rect })
        .collect();
    Level::new(tiles, DEFAULT_CAPACITY).expect("grid tiles are valid")
}

/// Every position of an `layers`-layer stack, bottom layer first.
pub fn positions(layers: usize) -> Vec<(i32, Rect)> {
    let mut out = Vec::new();
    for layer in 0..layers {
        let (side, offset) = if layer % 2 == 0 {
            (6, 0)
        } else {
            (5, BLOCK / 2)
        };
        for row in 0..side {
            for col in 0..side {
                out.push((
                    layer as i32,
                    Rect {
                        x: offset + col * BLOCK,
                        y: offset + row * BLOCK,
                        w: BLOCK,
                        h: BLOCK,
                    },
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_interlock() {
        let p = positions(3);
        assert_eq!(p.len(), 36 + 25 + 36);
        let level = Level::new(
            p.iter()
                .map(|&(layer, rect)| Tile {
                    kind: 1,
                    layer,
                    rect,
                })
                .collect(),
            7,
        )
        .unwrap();
        // An odd-layer tile rests on 4 even tiles and is under the 4 above it.
        let middle = 36;
        assert_eq!(level.covers(middle).len(), 4);
        assert_eq!(level.covered_by(middle).len(), 4);
        // A bottom corner is under its twin on layer 2 and one odd tile.
        assert_eq!(level.covered_by(0).len(), 2);
    }

    #[test]
    fn random_levels_are_reproducible_and_complete() {
        let spec = Classic::new(12);
        assert_eq!(positions(12).len(), 366);
        let a = spec.random_level(5).unwrap();
        let b = spec.random_level(5).unwrap();
        let c = spec.random_level(6).unwrap();
        assert_eq!(a.tiles(), b.tiles());
        assert_ne!(a.tiles(), c.tiles());
        assert_eq!(a.len(), 360);
        assert_eq!(a.kind_counts(), vec![30; 12]);
        assert_eq!(a.uneven_kind(), None);
        assert!(Classic::new(11).validate().is_err());
        let shape = |layers, types, groups| Classic {
            layers,
            types,
            groups,
        };
        assert_eq!(shape(3, 0, 1).validate(), Err(LayoutError::Zero("types")));
        assert_eq!(shape(3, 1, 0).validate(), Err(LayoutError::Zero("groups")));
        assert_eq!(shape(0, 1, 1).validate(), Err(LayoutError::Layers(0)));
    }

    #[test]
    fn absurd_shapes_are_errors_not_allocations() {
        assert!(Classic::new(MAX_LAYERS).validate().is_ok());
        assert_eq!(
            Classic::new(MAX_LAYERS + 1).validate(),
            Err(LayoutError::Layers(MAX_LAYERS + 1))
        );
        assert_eq!(
            Classic::new(usize::MAX).validate(),
            Err(LayoutError::Layers(usize::MAX))
        );
        // 3 × types × groups would overflow: it saturates and does not fit.
        let huge = Classic {
            layers: 10,
            types: usize::MAX / 2,
            groups: 3,
        };
        assert_eq!(huge.tiles(), usize::MAX);
        assert!(matches!(
            huge.validate(),
            Err(LayoutError::TooManyTiles { .. })
        ));
    }
}
