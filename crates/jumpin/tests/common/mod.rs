//! Helpers shared by the integration tests.

pub mod naive;

use arcade_jumpin::{Axis, Fox, Position};
use proptest::prelude::*;

/// A random position: a rabbit first, then pieces placed where they fit.
pub fn position(max_pieces: usize) -> impl Strategy<Value = Position> {
    let piece = (0u8..4, 0u8..25, any::<bool>());
    (0u8..25, prop::collection::vec(piece, 0..max_pieces)).prop_map(|(first, pieces)| {
        let (mut rabbits, mut mushrooms, mut foxes, mut taken) =
            (1u32 << first, 0u32, Vec::new(), 1u32 << first);
        for (kind, c, horizontal) in pieces {
            let (x, y) = (c % 5, c / 5);
            match kind {
                0 | 1 if taken & (1 << c) == 0 => {
                    if kind == 0 {
                        rabbits |= 1 << c
                    } else {
                        mushrooms |= 1 << c
                    }
                    taken |= 1 << c;
                }
                2 | 3 => {
                    let fox = if horizontal {
                        Fox {
                            axis: Axis::Horizontal,
                            line: y,
                            offset: x.min(3),
                        }
                    } else {
                        Fox {
                            axis: Axis::Vertical,
                            line: x,
                            offset: y.min(3),
                        }
                    };
                    if taken & fox.mask() == 0 {
                        taken |= fox.mask();
                        foxes.push(fox);
                    }
                }
                _ => {}
            }
        }
        Position::new(rabbits, mushrooms, foxes).expect("pieces placed without overlap")
    })
}
