//! Where pieces come from.

use crate::piece::Piece;
use arcade_core::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The kinds of random piece streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Randomizer {
    /// Each piece independent and uniform over the seven: the classic AI
    /// benchmark (Fahey; Thiery & Scherrer).
    Uniform,
    /// The modern 7-bag: every run of seven is a shuffled permutation.
    Bag,
}

impl FromStr for Randomizer {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "uniform" => Ok(Randomizer::Uniform),
            "bag" | "7-bag" => Ok(Randomizer::Bag),
            _ => Err(format!(
                "unknown randomizer {s:?} (expected uniform or bag)"
            )),
        }
    }
}

impl fmt::Display for Randomizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Randomizer::Uniform => "uniform",
            Randomizer::Bag => "bag",
        })
    }
}

/// A stream of pieces: seeded random, or an explicit sequence that ends.
#[derive(Clone, Debug)]
pub enum PieceSource {
    Uniform(Rng),
    Bag {
        rng: Rng,
        bag: [Piece; 7],
        next: usize,
    },
    Sequence {
        pieces: Vec<Piece>,
        next: usize,
    },
}

impl PieceSource {
    pub fn random(kind: Randomizer, seed: u64) -> PieceSource {
        let rng = Rng::new(seed);
        match kind {
            Randomizer::Uniform => PieceSource::Uniform(rng),
            Randomizer::Bag => PieceSource::Bag {
                rng,
                bag: Piece::ALL,
                next: 7,
            },
        }
    }

    pub fn sequence(pieces: Vec<Piece>) -> PieceSource {
        PieceSource::Sequence { pieces, next: 0 }
    }

    /// Parses a sequence of piece letters such as `"IOTSZJL"` (spaces and
    /// commas ignored); a sequence without a piece is an error, since a game
    /// of it would end before it began.
    pub fn parse_sequence(text: &str) -> Result<Vec<Piece>, String> {
        let pieces: Vec<Piece> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
            .map(|(i, c)| {
                Piece::from_letter(c).ok_or_else(|| {
                    format!("piece {} is {c:?}, expected one of I O T S Z J L", i + 1)
                })
            })
            .collect::<Result<_, _>>()?;
        if pieces.is_empty() {
            return Err("no pieces: expected letters among I O T S Z J L".into());
        }
        Ok(pieces)
    }
}

impl Iterator for PieceSource {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        match self {
            PieceSource::Uniform(rng) => Some(Piece::from_index(rng.index(7))),
            PieceSource::Bag { rng, bag, next } => {
                if *next == 7 {
                    rng.shuffle(bag);
                    *next = 0;
                }
                *next += 1;
                Some(bag[*next - 1])
            }
            PieceSource::Sequence { pieces, next } => {
                let p = pieces.get(*next).copied();
                *next += 1;
                p
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bag_deals_permutations() {
        let pieces: Vec<Piece> = PieceSource::random(Randomizer::Bag, 3).take(70).collect();
        for chunk in pieces.chunks(7) {
            let mut c = chunk.to_vec();
            c.sort();
            assert_eq!(c, Piece::ALL.to_vec());
        }
    }

    #[test]
    fn uniform_is_seeded_and_covers_all_pieces() {
        let a: Vec<Piece> = PieceSource::random(Randomizer::Uniform, 9)
            .take(700)
            .collect();
        let b: Vec<Piece> = PieceSource::random(Randomizer::Uniform, 9)
            .take(700)
            .collect();
        assert_eq!(a, b);
        for p in Piece::ALL {
            let n = a.iter().filter(|&&q| q == p).count();
            assert!((60..140).contains(&n), "{p}: {n}");
        }
    }

    #[test]
    fn sequences_parse_and_end() {
        let seq = PieceSource::parse_sequence("I O, t").unwrap();
        assert_eq!(seq, vec![Piece::I, Piece::O, Piece::T]);
        assert_eq!(PieceSource::sequence(seq).count(), 3);
        assert_eq!(
            PieceSource::parse_sequence("IOX").unwrap_err(),
            "piece 3 is 'X', expected one of I O T S Z J L"
        );
        for empty in ["", " , "] {
            assert_eq!(
                PieceSource::parse_sequence(empty).unwrap_err(),
                "no pieces: expected letters among I O T S Z J L"
            );
        }
    }
}
