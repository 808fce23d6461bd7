//! Pickling the single-game cores by replay. A core keeps how its game
//! started (a seed, or a puzzle) and the moves since; unpickling starts the
//! same game and plays them again. The engines are deterministic, so the copy
//! is the same game, and nothing of an engine's internals is written out, so
//! a rebuilt game is always a legal one.

use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use std::sync::Arc;

/// Most moves a game keeps for pickling (64 MiB of them); a longer game still
/// plays, but pickling it is an error.
pub(crate) const MAX_MOVES: usize = 1 << 24;

/// How a game started and the moves since, as `u32`s. Copying a game
/// (`copy.deepcopy`, a tree search's every node) copies at most one
/// [`BLOCK`] of moves: the full blocks before it are shared.
#[derive(Clone, Debug)]
pub(crate) struct Replay<S> {
    start: S,
    /// The full blocks, newest first.
    blocks: Option<Arc<Block>>,
    /// The moves after them, fewer than [`BLOCK`].
    tail: Vec<u32>,
    len: usize,
    /// More than [`MAX_MOVES`] were played.
    overflow: bool,
}

/// Moves in a shared block.
const BLOCK: usize = 1024;

/// [`BLOCK`] moves and the blocks before them.
#[derive(Debug)]
struct Block {
    before: Option<Arc<Block>>,
    moves: Box<[u32]>,
}

impl Drop for Block {
    /// Drops a chain of blocks with a loop: recursion could overflow the
    /// stack on a long game.
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(block) = next {
            next = match Arc::try_unwrap(block) {
                Ok(mut only) => only.before.take(),
                Err(_) => None,
            };
        }
    }
}

/// What pickling writes of a game: the start and the moves as little-endian
/// bytes (`__setstate__` gets it back).
pub(crate) type Saved<'py, S> = (S, Bound<'py, PyBytes>);

/// What `__reduce__` returns: the class, its constructor's arguments and the
/// saved game.
pub(crate) type Reduced<'py, A, S> = (Bound<'py, PyType>, A, Saved<'py, S>);

impl<S: Clone> Replay<S> {
    pub fn new(start: S) -> Replay<S> {
        Replay {
            start,
            blocks: None,
            tail: Vec::new(),
            len: 0,
            overflow: false,
        }
    }

    /// A new game from `start`.
    pub fn restart(&mut self, start: S) {
        self.start = start;
        self.blocks = None;
        self.tail.clear();
        self.len = 0;
        self.overflow = false;
    }

    /// Notes a move the game has played.
    pub fn record(&mut self, mv: u32) {
        if self.len == MAX_MOVES {
            self.overflow = true;
            return;
        }
        self.tail.push(mv);
        self.len += 1;
        if self.tail.len() == BLOCK {
            let moves = std::mem::take(&mut self.tail).into_boxed_slice();
            let before = self.blocks.take();
            self.blocks = Some(Arc::new(Block { before, moves }));
        }
    }

    /// `__reduce__` for `core`, made with `args`: or why this game cannot be
    /// pickled.
    pub fn reduce<'py, T, A>(&self, core: &Bound<'py, T>, args: A) -> PyResult<Reduced<'py, A, S>> {
        Ok((core.as_any().get_type(), args, self.save(core.py())?))
    }

    fn save<'py>(&self, py: Python<'py>) -> PyResult<Saved<'py, S>> {
        if self.overflow {
            return Err(value_error(format!(
                "this game is too long to pickle: more than {MAX_MOVES} moves since its start"
            )));
        }
        let bytes: Vec<u8> = self.moves().flat_map(u32::to_le_bytes).collect();
        Ok((self.start.clone(), PyBytes::new(py, &bytes)))
    }

    /// The moves since the start, oldest first.
    fn moves(&self) -> impl Iterator<Item = u32> + '_ {
        let mut blocks = Vec::new();
        let mut next = self.blocks.as_deref();
        while let Some(block) = next {
            blocks.push(&block.moves[..]);
            next = block.before.as_deref();
        }
        let all = blocks.into_iter().rev().chain([&self.tail[..]]);
        all.flatten().copied()
    }
}

/// Plays a pickled game's moves with `play` (after its start).
pub(crate) fn play_back(
    moves: &Bound<'_, PyBytes>,
    play: impl FnMut(u32) -> PyResult<()>,
) -> PyResult<()> {
    decode(moves.as_bytes())?.into_iter().try_for_each(play)
}

/// The moves of a pickled game, or a one-line error for bytes that are not
/// whole `u32`s.
fn decode(bytes: &[u8]) -> PyResult<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return Err(value_error(format!(
            "a pickled game's moves are 4 bytes each, got {} bytes",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
