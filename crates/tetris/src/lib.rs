//! A bitboard Tetris engine and the classic one-piece AIs.
//!
//! Rules ([`rules`], [`board`], [`source`]) are kept apart from the AI
//! ([`movegen`] finds where a piece can go, [`features`] describes a board,
//! [`eval`] weighs the features, [`player`] picks a placement). [`game`] plays
//! a whole game; [`bench`](mod@bench) and [`tune`] run many in parallel; [`env`](mod@env) steps a
//! game one placement at a time for an agent outside. [`piece`] holds the
//! seven tetrominoes, [`colours`] a board that remembers them for drawing,
//! [`live`] a game played in real time by key presses, and [`geek`] the 2021
//! Tencent Geek Challenge (its rules, records and beam search).

pub mod bench;
pub mod board;
pub mod colours;
pub mod env;
pub mod eval;
pub mod features;
pub mod game;
pub mod geek;
pub mod live;
pub mod movegen;
pub mod piece;
pub mod player;
pub mod rules;
pub mod source;
pub mod tune;

pub use board::{Board, BoardError, Lock};
pub use eval::Weights;
pub use features::{Feature, FeatureSet};
pub use game::{End, GameResult, Limits};
pub use movegen::{MoveMode, Placement};
pub use piece::Piece;
pub use player::Player;
pub use rules::{Rotation, Rules, Shape};
pub use source::{PieceSource, Randomizer};
