//! A battle played move by move with people and AIs in the seats, as a
//! front end drives it: a person's click, then the AI's moves one at a
//! time, the view with who owns which mine and the last moves. The game is
//! game 0 of an arena match with the same seed (same layout, same AI
//! streams), as in the CLI's interactive battle.

use super::ai::Ai;
use super::arena::{layout_seed, seat_rngs};
use super::rules::{Battle, MoveError, Rules, Turn};
use crate::frontier::SolveError;
use crate::report::Xy;
use arcade_core::input::quote;
use arcade_core::{Rng, derive_seed};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Ai(Ai),
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Ai(ai) => ai.name(),
        }
    }

    /// `human`, `rule`, `greedy` or `ev`.
    pub fn parse(s: &str) -> Result<Player, String> {
        if s.eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        s.parse::<Ai>().map(Player::Ai).map_err(|_| {
            let names = ["human", "rule", "greedy", "ev"];
            let hint = arcade_core::text::did_you_mean(&s.trim().to_ascii_lowercase(), names);
            format!(
                "unknown player {}{hint} (expected human, rule, greedy or ev)",
                quote(s)
            )
        })
    }
}

/// A move out of turn, on a bad cell, or an AI that failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LiveError {
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("it is {0}'s turn, not a person's")]
    NotHuman(&'static str),
    #[error("it is a person's turn, not an AI's")]
    NotAi,
    #[error("the AI failed: {0}")]
    Ai(#[from] SolveError),
}

/// One move, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    pub seat: usize,
    pub cell: Xy,
    pub captured: bool,
}

/// What both players see. `rows[y]`: `.` hidden, `0`–`8` numbers, `A`/`B`
/// mines captured by seat 0/1; once the game is over, uncaptured mines `*`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleView {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub target: usize,
    pub seed: u64,
    pub players: [String; 2],
    pub rows: Vec<String>,
    pub scores: [usize; 2],
    pub to_move: usize,
    pub over: bool,
    /// The seat that reached the target (`null` while playing or for a draw).
    pub winner: Option<usize>,
    /// The moves since the seat to move last moved (the opponent's turn).
    pub last: Vec<LastMove>,
}

/// A battle in progress.
#[derive(Clone, Debug)]
pub struct LiveBattle {
    battle: Battle,
    players: [Player; 2],
    rngs: [Rng; 2],
    seed: u64,
    history: Vec<LastMove>,
}

impl LiveBattle {
    /// Game 0 of a match with master `seed`: seat 0 moves first.
    pub fn new(rules: Rules, players: [Player; 2], seed: u64) -> LiveBattle {
        let layout = layout_seed(seed, 0);
        LiveBattle {
            battle: Battle::new(rules, rules.board(layout)),
            players,
            rngs: seat_rngs(layout),
            seed,
            history: Vec::new(),
        }
    }

    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// The player whose turn it is (`None` once over).
    pub fn to_move(&self) -> Option<Player> {
        (!self.battle.is_over()).then(|| self.players[self.battle.to_move()])
    }

    fn play(&mut self, cell: usize) -> Result<Turn, LiveError> {
        let seat = self.battle.to_move();
        let turn = self.battle.play(cell)?;
        let (x, y) = self.battle.view().grid().coords(cell);
        self.history.push(LastMove {
            seat,
            cell: [x, y],
            captured: turn == Turn::Captured,
        });
        Ok(turn)
    }

    /// A person's click at `(x, y)` on their turn.
    pub fn human_move(&mut self, x: usize, y: usize) -> Result<Turn, LiveError> {
        match self.to_move() {
            None => Err(MoveError::GameOver.into()),
            Some(Player::Ai(ai)) => Err(LiveError::NotHuman(ai.name())),
            Some(Player::Human) => {
                let cell = self.battle.cell_at(x, y)?;
                self.play(cell)
            }
        }
    }

    /// One move of the AI whose turn it is; returns the cell it clicked.
    pub fn ai_move(&mut self) -> Result<Xy, LiveError> {
        self.ai_turn().map(|(cell, _)| cell)
    }

    /// One move of the AI whose turn it is: the cell it clicked and what
    /// the click did.
    pub fn ai_turn(&mut self) -> Result<(Xy, Turn), LiveError> {
        match self.to_move() {
            None => Err(MoveError::GameOver.into()),
            Some(Player::Human) => Err(LiveError::NotAi),
            Some(Player::Ai(ai)) => {
                let seat = self.battle.to_move();
                let cell = ai.choose(self.battle.view(), &mut self.rngs[seat])?;
                let turn = self.play(cell)?;
                let (x, y) = self.battle.view().grid().coords(cell);
                Ok(([x, y], turn))
            }
        }
    }

    /// The move `ev` would make for the seat to move (its own random
    /// stream, so asking does not change the AIs' games).
    pub fn hint(&self) -> Result<Option<Xy>, SolveError> {
        if self.battle.is_over() {
            return Ok(None);
        }
        let mut rng = Rng::new(derive_seed(self.seed, 3 + self.history.len() as u64));
        let cell = Ai::Ev.choose(self.battle.view(), &mut rng)?;
        let (x, y) = self.battle.view().grid().coords(cell);
        Ok(Some([x, y]))
    }

    pub fn view(&self) -> BattleView {
        let b = &self.battle;
        let rules = b.rules();
        let to_move = b.to_move();
        let since = self
            .history
            .iter()
            .rposition(|m| m.seat == to_move)
            .map_or(0, |i| i + 1);
        BattleView {
            width: rules.level.width,
            height: rules.level.height,
            mines: rules.level.mines,
            target: rules.target,
            seed: self.seed,
            players: self.players.map(|p| p.name().to_string()),
            rows: b.to_text(b.is_over()).lines().map(str::to_string).collect(),
            scores: b.scores(),
            to_move,
            over: b.is_over(),
            winner: b.winner(),
            last: self.history[since..].to_vec(),
        }
    }
}
