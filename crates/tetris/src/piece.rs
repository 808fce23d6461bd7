//! The seven tetrominoes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A tetromino kind. The discriminant is the index used in shape tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Piece {
    I = 0,
    O = 1,
    T = 2,
    S = 3,
    Z = 4,
    J = 5,
    L = 6,
}

impl Piece {
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::O,
        Piece::T,
        Piece::S,
        Piece::Z,
        Piece::J,
        Piece::L,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// The conventional letter.
    pub fn letter(self) -> char {
        b"IOTSZJL"[self.index()] as char
    }

    /// Parses a letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
            assert_eq!(Piece::from_index(p.index()), p);
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::from_letter('t'), Some(Piece::T));
    }
}
