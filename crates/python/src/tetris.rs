//! Tetris: the single-game core, the vector core and the AIs' best placement.

use crate::replay::{self, Reduced, Replay, Saved};
use crate::solvers::with_progress;
use crate::vector::{Game, Outputs, Slots, StepArrays, check_num_envs};
use crate::{to_json, value_error};
use arcade_core::Rng;
use arcade_core::progress::Progress;
use arcade_core::rng::derive_seed;
use arcade_tetris::env::{Env, EnvConfig, EnvError, Pieces, ROTATIONS, Variant};
use arcade_tetris::{
    Board, Feature, MoveMode, Piece, PieceSource, Player, Randomizer, Rules, Weights,
};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;

/// "None" in the next-piece observation (an explicit sequence ran out).
const NO_PIECE: i64 = 7;

/// The configuration the Python options name: pieces are "uniform", "bag",
/// "geek" (the challenge's sequence under classic rules) or piece letters;
/// scoring "lines" or "geek" (the whole challenge: its rules and points).
fn config(
    width: usize,
    height: usize,
    pieces: &str,
    scoring: &str,
    max_pieces: Option<u64>,
) -> PyResult<EnvConfig> {
    let variant = match scoring {
        "lines" => Variant::Classic {
            pieces: match pieces {
                "uniform" => Pieces::Random(Randomizer::Uniform),
                "bag" | "7-bag" => Pieces::Random(Randomizer::Bag),
                "geek" => {
                    Pieces::Sequence(arcade_tetris::geek::sequence(arcade_tetris::geek::PIECES))
                }
                letters if letters.len() as u64 > arcade_core::input::MAX_INPUT_BYTES => {
                    return Err(value_error(format!(
                        "pieces: a sequence of {} is longer than {}, as the CLI reads a file",
                        arcade_core::text::bytes(letters.len() as u64),
                        arcade_core::text::bytes(arcade_core::input::MAX_INPUT_BYTES)
                    )));
                }
                letters => Pieces::Sequence(
                    PieceSource::parse_sequence(letters)
                        .map_err(|e| value_error(format!("pieces: {e} (or uniform, bag, geek)")))?,
                ),
            },
        },
        "geek" => Variant::Geek,
        other => {
            return Err(value_error(format!(
                "unknown scoring {other:?} (expected lines or geek)"
            )));
        }
    };
    let cfg = EnvConfig {
        width,
        height,
        variant,
        max_pieces,
    };
    Env::new(cfg.clone(), 0).map_err(value_error)?;
    Ok(cfg)
}

/// One step of a game: an illegal placement ends the episode as a loss
/// (so random actions, as `check_env` sends, never raise); an action outside
/// the action space is an error.
fn play(env: &mut Env, illegal: &mut bool, action: i64) -> Result<(f64, bool, bool), String> {
    if env.is_over() || *illegal {
        return Err(EnvError::Over.to_string());
    }
    let a = usize::try_from(action).map_err(|_| {
        let last = env.actions() - 1;
        format!("action {action} is out of range (0 to {last})")
    })?;
    match env.step(a) {
        Ok(s) => Ok((
            s.reward as f64,
            env.is_over() && !env.is_truncated(),
            env.is_truncated(),
        )),
        Err(EnvError::Illegal { .. }) => {
            *illegal = true;
            Ok((0.0, true, false))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn piece_index(p: Option<Piece>) -> i64 {
    p.map_or(NO_PIECE, |p| p.index() as i64)
}

/// One Tetris game (the `Tetris-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct TetrisCore {
    env: Env,
    illegal: bool,
    /// The constructor's arguments, for pickling.
    args: TetrisArgs,
    replay: Replay<u64>,
}

/// `TetrisCore(width, height, pieces, scoring, max_pieces)`.
type TetrisArgs = (usize, usize, String, String, Option<u64>);

#[pymethods]
impl TetrisCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    #[new]
    #[pyo3(signature = (width=10, height=20, pieces="uniform", scoring="lines", max_pieces=None))]
    fn new(
        width: usize,
        height: usize,
        pieces: &str,
        scoring: &str,
        max_pieces: Option<u64>,
    ) -> PyResult<TetrisCore> {
        let cfg = config(width, height, pieces, scoring, max_pieces)?;
        Ok(TetrisCore {
            env: Env::new(cfg, 0).map_err(value_error)?,
            illegal: false,
            args: (width, height, pieces.into(), scoring.into(), max_pieces),
            replay: Replay::new(0),
        })
    }

    /// Pickles the game as its arguments, seed and moves (`replay`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, TetrisArgs, u64>> {
        let this = slf.borrow();
        this.replay.reduce(slf, this.args.clone())
    }

    /// Unpickles: the same game, replayed.
    fn __setstate__(&mut self, state: Saved<'_, u64>) -> PyResult<()> {
        let (start, moves) = state;
        self.reset(start);
        replay::play_back(&moves, |mv| self.step(mv.into()).map(drop))
    }

    /// Starts a new game; `seed` seeds the pieces as `arcade tetris play --seed`.
    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
        self.illegal = false;
        self.replay.restart(seed);
    }

    /// Places the current piece: (reward, terminated, truncated, illegal).
    fn step(&mut self, action: i64) -> PyResult<(f64, bool, bool, bool)> {
        let (r, term, trunc) =
            play(&mut self.env, &mut self.illegal, action).map_err(value_error)?;
        self.replay
            .record(u32::try_from(action).unwrap_or(u32::MAX));
        Ok((r, term, trunc, self.illegal))
    }

    #[getter]
    fn actions(&self) -> usize {
        self.env.actions()
    }

    /// The field, `height × width`, 1 = filled, top row first.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let c = self.env.config();
        let mut cells = vec![0u8; c.width * c.height];
        self.env.write_board(&mut cells);
        PyArray1::from_vec(py, cells).reshape([c.height, c.width])
    }

    /// 1 for each legal action.
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut m = vec![0u8; self.env.actions()];
        if !self.illegal {
            self.env.action_mask(&mut m);
        }
        PyArray1::from_vec(py, m.into_iter().map(|b| b as i8).collect())
    }

    /// Current piece 0–6 (I O T S Z J L), 7 when there is none.
    #[getter]
    fn piece(&self) -> i64 {
        piece_index(self.env.current())
    }

    #[getter]
    fn next_piece(&self) -> i64 {
        piece_index(self.env.next_piece())
    }

    #[getter]
    fn lines(&self) -> u64 {
        self.env.lines()
    }

    #[getter]
    fn pieces(&self) -> u64 {
        self.env.pieces()
    }

    #[getter]
    fn score(&self) -> u64 {
        self.env.score()
    }

    /// The field as text (`#` filled), top row first.
    fn text(&self) -> String {
        self.env.board().to_string()
    }

    /// The features of the field each action leaves, `(actions, 12)`
    /// (`Env::afterstate_features`; zeros for illegal actions).
    fn afterstate_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let n = self.env.actions();
        let mut out = vec![0.0; n * FEATURES];
        if !self.illegal {
            self.env.afterstate_features(&mut out);
        }
        PyArray1::from_vec(py, out).reshape([n, FEATURES])
    }

    /// The action a classic AI (`bcts`, `dellacherie`, … or a weights file)
    /// plays now, or `None` when the game is over.
    #[pyo3(signature = (ai="bcts", preview=false))]
    fn ai_action(&self, ai: &str, preview: bool) -> PyResult<Option<usize>> {
        let mut player = ai_player(&self.env, ai, preview)?;
        Ok(ai_move(&self.env, self.illegal, &mut player))
    }
}

/// A classic AI (`bcts`, … or a weights file) choosing drops in `env`'s rules.
fn ai_player(env: &Env, ai: &str, preview: bool) -> PyResult<Player> {
    let weights = Weights::resolve(ai).map_err(value_error)?;
    let height = env.board().height();
    arcade_tetris::player::check_options(&weights, preview, None, height)
        .map_err(|e| value_error(format!("preview: {e}; use ai=\"bcts\", preview=True")))?;
    Ok(Player::new(
        env.rules().clone(),
        weights,
        MoveMode::Drop,
        preview,
    ))
}

/// The action `player` plays in a game, or `None` when the game is over.
fn ai_move(env: &Env, illegal: bool, player: &mut Player) -> Option<usize> {
    let piece = env.current()?;
    if env.is_over() || illegal {
        return None;
    }
    let placement = player.choose(env.board(), piece, env.next_piece())?;
    env.action_of(placement)
}

/// One sub-environment of the vector core.
struct TetrisGame {
    env: Env,
    illegal: bool,
}

impl Game for TetrisGame {
    type Config = EnvConfig;
    /// A placement with its observation is about 0.4 µs: at 64 to 256 games
    /// two rayon threads stepped slower than one, in wall time too, on the
    /// shared 2-core machine (docs/results/python.md); from 256 the step is
    /// ~100 µs, enough to outweigh handing it over.
    const PARALLEL_MIN: usize = 256;

    fn start(config: &EnvConfig, seed: u64) -> TetrisGame {
        TetrisGame {
            env: Env::new(config.clone(), seed).expect("checked when the vector was made"),
            illegal: false,
        }
    }

    fn check(config: &EnvConfig, action: i64) -> Result<(), String> {
        let n = (ROTATIONS * config.width) as i64;
        if (0..n).contains(&action) {
            Ok(())
        } else {
            Err(format!("action {action} is out of range (0 to {})", n - 1))
        }
    }

    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String> {
        play(&mut self.env, &mut self.illegal, action)
    }
}

/// N Tetris games stepped together (the engine of `TetrisVectorEnv`).
#[pyclass(module = "arcadekit._arcadekit")]
pub struct TetrisVectorCore {
    config: EnvConfig,
    slots: Slots<TetrisGame>,
    /// Each game's legal placements as of its last observation, as bits
    /// ([`legal_words`] words a game): what `sample_legal` draws from.
    legal: Vec<u64>,
    /// Each game's own generator for `sample_legal`, so sub-environment `i`
    /// draws the same actions whatever `num_envs` is.
    samplers: Vec<Rng>,
}

/// Afterstate features an action: `Feature::ALL`.
const FEATURES: usize = arcade_tetris::features::COUNT;

/// Fewest games per rayon task of `ai_actions` and `afterstate_features`: a
/// game's choice or features take a few microseconds, so a task of 8
/// outweighs handing it over.
const GAMES_PER_TASK: usize = 8;

/// Words of legal-placement bits per game for `actions` actions.
fn legal_words(actions: usize) -> usize {
    actions.div_ceil(64)
}

/// The generator `sample_legal` uses for sub-environment `env` after a
/// reset with `master`: a stream apart from every episode seed
/// (`episode_seed(master, env, e)` for the episodes `e` a game can reach).
fn sampler(master: u64, env: u64) -> Rng {
    Rng::new(derive_seed(derive_seed(master, env), u64::MAX))
}

/// A uniformly random set bit of `bits` (0 when none is set).
fn random_legal(bits: &[u64], rng: &mut Rng) -> i64 {
    let count: u32 = bits.iter().map(|w| w.count_ones()).sum();
    if count == 0 {
        return 0;
    }
    let mut k = rng.index(count as usize) as u32;
    for (i, &word) in bits.iter().enumerate() {
        let ones = word.count_ones();
        if k < ones {
            let mut w = word;
            for _ in 0..k {
                w &= w - 1;
            }
            return (i * 64) as i64 + i64::from(w.trailing_zeros());
        }
        k -= ones;
    }
    unreachable!("k is below the count of set bits")
}

/// Sets `bits` to the nonzero entries of `mask`.
fn mask_bits(mask: &[u8], bits: &mut [u64]) {
    bits.fill(0);
    for (j, &m) in mask.iter().enumerate() {
        // No branch: every step of every game passes here.
        bits[j / 64] |= u64::from(m != 0) << (j % 64);
    }
}

/// Observation arrays: boards (N, H, W), pieces (N,), next pieces (N,), masks (N, A).
type TetrisObs<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i8>>,
);

/// What a fused step returns: boards, pieces, next pieces, masks, rewards,
/// terminated, truncated, scores.
type StepObs<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u64>>,
);

/// One sub-environment's places in the fused step's output arrays.
struct TetrisPlace<'a> {
    board: &'a mut [u8],
    mask: &'a mut [i8],
    piece: &'a mut i64,
    next: &'a mut i64,
    score: &'a mut u64,
    legal: &'a mut [u64],
}

/// Writes one game's observation, mask and score into its places.
fn observe_into(g: &TetrisGame, o: TetrisPlace<'_>) {
    g.env.write_board(o.board);
    let mut mask = [0u8; ROTATIONS * arcade_tetris::board::MAX_WIDTH];
    let mask = &mut mask[..o.mask.len()];
    if !g.illegal {
        g.env.action_mask(mask);
    }
    for (m, &b) in o.mask.iter_mut().zip(mask.iter()) {
        *m = b as i8;
    }
    mask_bits(mask, o.legal);
    *o.piece = piece_index(g.env.current());
    *o.next = piece_index(g.env.next_piece());
    *o.score = g.env.score();
}

#[pymethods]
impl TetrisVectorCore {
    #[new]
    #[pyo3(signature = (num_envs, seed, width=10, height=20, pieces="uniform", scoring="lines", max_pieces=None))]
    fn new(
        num_envs: usize,
        seed: u64,
        width: usize,
        height: usize,
        pieces: &str,
        scoring: &str,
        max_pieces: Option<u64>,
    ) -> PyResult<TetrisVectorCore> {
        let config = config(width, height, pieces, scoring, max_pieces)?;
        check_num_envs(num_envs, width * height).map_err(value_error)?;
        let slots = Slots::new(&config, num_envs, seed);
        let legal = vec![0; num_envs * legal_words(ROTATIONS * width)];
        let samplers = (0..num_envs as u64).map(|i| sampler(seed, i)).collect();
        Ok(TetrisVectorCore {
            config,
            slots,
            legal,
            samplers,
        })
    }

    fn reset(&mut self, py: Python<'_>, seed: u64) {
        self.slots.reset_py(py, &self.config, seed);
        for (i, rng) in self.samplers.iter_mut().enumerate() {
            *rng = sampler(seed, i as u64);
        }
    }

    /// Every game's [`ai_move`] by one AI, 0 for a game that is over (the
    /// next step resets it and ignores its action), chosen on Rust threads
    /// with the GIL released.
    #[pyo3(signature = (ai="bcts", preview=false))]
    fn ai_actions<'py>(
        &self,
        py: Python<'py>,
        ai: &str,
        preview: bool,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let games = &self.slots.slots;
        let player = ai_player(&games[0].game.env, ai, preview)?;
        let actions: Vec<i64> = crate::pool::detach(py, || {
            games
                .par_iter()
                .with_min_len(GAMES_PER_TASK)
                .map_init(
                    || player.clone(),
                    |player, s| {
                        let g = &s.game;
                        ai_move(&g.env, g.illegal, player).map_or(0, |a| a as i64)
                    },
                )
                .collect()
        });
        Ok(PyArray1::from_vec(py, actions))
    }

    /// Every game's afterstate features, `(num_envs, actions, 12)`, on Rust
    /// threads with the GIL released (zeros for a game that is over).
    fn afterstate_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f64>>> {
        let games = &self.slots.slots;
        let actions = ROTATIONS * self.config.width;
        let mut out = vec![0.0; games.len() * actions * FEATURES];
        crate::pool::detach(py, || {
            out.par_chunks_mut(actions * FEATURES)
                .zip(games.par_iter())
                .with_min_len(GAMES_PER_TASK)
                .for_each(|(out, s)| {
                    if !s.game.illegal {
                        s.game.env.afterstate_features(out);
                    }
                })
        });
        PyArray1::from_vec(py, out).reshape([games.len(), actions, FEATURES])
    }

    /// A uniformly random legal placement for every game, as of the last
    /// observation (0 for a game without one), each drawn from that
    /// sub-environment's own generator, which `reset(seed)` seeds.
    fn sample_legal<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let words = legal_words(ROTATIONS * self.config.width);
        let actions = PyArray1::<i64>::zeros(py, self.samplers.len(), false);
        // SAFETY: the array was just made here and nothing else holds it.
        let out = unsafe { actions.as_slice_mut() }.expect("a fresh 1-D array is contiguous");
        for ((act, bits), rng) in out
            .iter_mut()
            .zip(self.legal.chunks(words))
            .zip(&mut self.samplers)
        {
            *act = random_legal(bits, rng);
        }
        actions
    }

    /// Steps every sub-environment: (reward, terminated, truncated).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        self.slots.step_arrays(py, &self.config, actions)
    }

    /// Steps every sub-environment and observes it in the same pass, into
    /// fresh arrays (callers may keep what a step returned): boards, pieces,
    /// next pieces, masks, rewards, terminated, truncated, scores.
    fn step_observe<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepObs<'py>> {
        // A contiguous 1-D int64 array is read as it is (the caller converts
        // anything else): cheaper than a tracked borrow, and copied so no
        // Python code can change it while the GIL is released.
        let actions: Vec<i64> = actions
            .cast::<PyArray1<i64>>()
            .ok()
            // SAFETY: read while holding the GIL, and copied at once.
            .and_then(|a| unsafe { a.as_slice() }.ok().map(<[i64]>::to_vec))
            .ok_or_else(|| {
                pyo3::exceptions::PyTypeError::new_err(
                    "actions must be a contiguous 1-D int64 array",
                )
            })?;
        let (w, h) = (self.config.width, self.config.height);
        let n = self.slots.slots.len();
        let a = ROTATIONS * w;
        let boards = PyArray3::<u8>::zeros(py, [n, h, w], false);
        let masks = PyArray2::<i8>::zeros(py, [n, a], false);
        let pieces = PyArray1::<i64>::zeros(py, n, false);
        let next = PyArray1::<i64>::zeros(py, n, false);
        let scores = PyArray1::<u64>::zeros(py, n, false);
        let reward = PyArray1::<f64>::zeros(py, n, false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        {
            // SAFETY: the arrays were just made here and nothing else holds them.
            let (bs, ms, ps, ns, ss, rs, tes, trs) = unsafe {
                (
                    boards.as_slice_mut(),
                    masks.as_slice_mut(),
                    pieces.as_slice_mut(),
                    next.as_slice_mut(),
                    scores.as_slice_mut(),
                    reward.as_slice_mut(),
                    terminated.as_slice_mut(),
                    truncated.as_slice_mut(),
                )
            };
            let places = Outlets {
                boards: bs.map_err(value_error)?,
                masks: ms.map_err(value_error)?,
                pieces: ps.map_err(value_error)?,
                next: ns.map_err(value_error)?,
                scores: ss.map_err(value_error)?,
                legal: &mut self.legal,
            }
            .places(w * h, a);
            let out = Outputs {
                reward: rs.map_err(value_error)?,
                terminated: tes.map_err(value_error)?,
                truncated: trs.map_err(value_error)?,
                places,
            };
            let (config, slots) = (&self.config, &mut self.slots);
            crate::pool::detach(py, || slots.step_each(config, &actions, out, observe_into))
                .map_err(value_error)?;
        }
        Ok((
            boards, pieces, next, masks, reward, terminated, truncated, scores,
        ))
    }

    /// The observation of every sub-environment.
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<TetrisObs<'py>> {
        let (w, h) = (self.config.width, self.config.height);
        let n = self.slots.slots.len();
        let a = ROTATIONS * w;
        let mut boards = vec![0u8; n * w * h];
        let mut masks = vec![0u8; n * a];
        let mut pieces = vec![0i64; n];
        let mut next = vec![0i64; n];
        observe_all(
            &self.slots,
            &self.config,
            &mut boards,
            &mut pieces,
            &mut next,
            &mut masks,
        );
        for (mask, bits) in masks.chunks(a).zip(self.legal.chunks_mut(legal_words(a))) {
            mask_bits(mask, bits);
        }
        let masks: Vec<i8> = masks.into_iter().map(|b| b as i8).collect();
        Ok((
            PyArray1::from_vec(py, boards).reshape([n, h, w])?,
            PyArray1::from_vec(py, pieces),
            PyArray1::from_vec(py, next),
            PyArray1::from_vec(py, masks).reshape([n, a])?,
        ))
    }

    /// Rows cleared (or Geek points) so far in each sub-environment's episode.
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(
            py,
            self.slots
                .slots
                .iter()
                .map(|s| s.game.env.score())
                .collect(),
        )
    }
}

/// Writes the observation of every game: boards `(N, H, W)`, current and
/// next pieces, masks `(N, A)` (the vector environment's `observe`).
fn observe_all(
    slots: &Slots<TetrisGame>,
    config: &EnvConfig,
    boards: &mut [u8],
    pieces: &mut [i64],
    next: &mut [i64],
    masks: &mut [u8],
) {
    let cells = config.width * config.height;
    let a = ROTATIONS * config.width;
    for (i, s) in slots.slots.iter().enumerate() {
        let g = &s.game;
        g.env.write_board(&mut boards[i * cells..(i + 1) * cells]);
        let mask = &mut masks[i * a..(i + 1) * a];
        mask.fill(0);
        if !g.illegal {
            g.env.action_mask(mask);
        }
        pieces[i] = piece_index(g.env.current());
        next[i] = piece_index(g.env.next_piece());
    }
}

/// The engine benchmark's output buffers: what `step_observe` writes into
/// NumPy arrays, held in `Vec`s.
struct Buffers {
    cells: usize,
    actions: usize,
    boards: Vec<u8>,
    masks: Vec<i8>,
    pieces: Vec<i64>,
    next: Vec<i64>,
    scores: Vec<u64>,
    legal: Vec<u64>,
}

impl Buffers {
    /// Room for `n` games of `cells` board cells and `actions` actions.
    fn new(n: usize, cells: usize, actions: usize) -> Buffers {
        Buffers {
            cells,
            actions,
            boards: vec![0; n * cells],
            masks: vec![0; n * actions],
            pieces: vec![0; n],
            next: vec![0; n],
            scores: vec![0; n],
            legal: vec![0; n * legal_words(actions)],
        }
    }

    /// Each game's places in the buffers.
    fn places(&mut self) -> Vec<TetrisPlace<'_>> {
        Outlets {
            boards: &mut self.boards,
            masks: &mut self.masks,
            pieces: &mut self.pieces,
            next: &mut self.next,
            scores: &mut self.scores,
            legal: &mut self.legal,
        }
        .places(self.cells, self.actions)
    }
}

/// Every game's outputs, one slice each (NumPy arrays' or [`Buffers`]').
struct Outlets<'a> {
    boards: &'a mut [u8],
    masks: &'a mut [i8],
    pieces: &'a mut [i64],
    next: &'a mut [i64],
    scores: &'a mut [u64],
    legal: &'a mut [u64],
}

impl<'a> Outlets<'a> {
    /// Cut into each game's places: `cells` board cells and `actions`
    /// mask entries a game.
    fn places(self, cells: usize, actions: usize) -> Vec<TetrisPlace<'a>> {
        self.boards
            .chunks_mut(cells)
            .zip(self.masks.chunks_mut(actions))
            .zip(self.pieces.iter_mut())
            .zip(self.next.iter_mut())
            .zip(self.scores.iter_mut())
            .zip(self.legal.chunks_mut(legal_words(actions)))
            .map(
                |(((((board, mask), piece), next), score), legal)| TetrisPlace {
                    board,
                    mask,
                    piece,
                    next,
                    score,
                    legal,
                },
            )
            .collect()
    }
}

/// The Rust engine's own speed at the vector environment's work, for
/// benchmarks: `num_envs` 10 × 20 games stepped `steps` times, each step a
/// uniformly random legal placement per game (drawn as `sample_legal` draws
/// it, from the legal bits and each game's generator), then each game played, observed and scored into the buffers
/// in the same pass as `TetrisVectorCore.step_observe` does, ended games
/// reset, all without Python. Returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (num_envs, steps, seed=0))]
fn tetris_engine_seconds(py: Python<'_>, num_envs: usize, steps: u64, seed: u64) -> PyResult<f64> {
    if num_envs == 0 {
        return Err(value_error("num_envs must be at least 1"));
    }
    let config = config(10, 20, "uniform", "lines", None)?;
    crate::pool::detach(py, || {
        let mut slots: Slots<TetrisGame> = Slots::new(&config, num_envs, seed);
        let (cells, a) = (config.width * config.height, ROTATIONS * config.width);
        let mut buffers = Buffers::new(num_envs, cells, a);
        let mut reward = vec![0.0; num_envs];
        let mut terminated = vec![false; num_envs];
        let mut truncated = vec![false; num_envs];
        let mut actions = vec![0i64; num_envs];
        let mut samplers: Vec<Rng> = (0..num_envs as u64).map(|i| sampler(seed, i)).collect();
        let start = std::time::Instant::now();
        let first = buffers.places();
        for (s, place) in slots.slots.iter().zip(first) {
            observe_into(&s.game, place);
        }
        for _ in 0..steps {
            for ((act, bits), rng) in actions
                .iter_mut()
                .zip(buffers.legal.chunks(legal_words(a)))
                .zip(&mut samplers)
            {
                *act = random_legal(bits, rng);
            }
            let out = Outputs {
                reward: &mut reward,
                terminated: &mut terminated,
                truncated: &mut truncated,
                places: buffers.places(),
            };
            slots
                .step_each(&config, &actions, out, observe_into)
                .map_err(value_error)?;
            std::hint::black_box((&buffers.boards, &reward));
        }
        Ok(start.elapsed().as_secs_f64())
    })
}

/// Refuses a board of `height` × `width` the engine cannot hold, before
/// Python converts and checks every cell of a huge array.
#[pyfunction]
fn tetris_check_size(height: usize, width: usize) -> PyResult<()> {
    Board::new(width, height).map(|_| ()).map_err(value_error)
}

/// The placement a classic AI chooses for `piece` on `board` (0/1 cells,
/// top row first): `(rotation, column, row)` or `None` when it has none.
#[pyfunction]
#[pyo3(signature = (board, piece, next=None, ai="bcts"))]
fn tetris_best_placement(
    board: PyReadonlyArray2<'_, u8>,
    piece: &str,
    next: Option<&str>,
    ai: &str,
) -> PyResult<Option<(u8, u8, u8)>> {
    let cells = board.as_array();
    let (h, w) = cells.dim();
    let mut b = Board::new(w, h).map_err(value_error)?;
    for y in 0..h {
        for x in 0..w {
            match cells[[y, x]] {
                0 => {}
                1 => b.set(x, h - 1 - y),
                v => {
                    return Err(value_error(format!(
                        "board cell ({x},{y}) is {v}, expected 0 or 1"
                    )));
                }
            }
        }
    }
    let letter = |name: &str, s: &str| -> PyResult<Piece> {
        let mut c = s.chars();
        match (c.next().and_then(Piece::from_letter), c.next()) {
            (Some(p), None) => Ok(p),
            _ => Err(value_error(format!(
                "{name} {s:?} is not one of I O T S Z J L"
            ))),
        }
    };
    let piece = letter("piece", piece)?;
    let next = next.map(|s| letter("next", s)).transpose()?;
    let weights = Weights::resolve(ai).map_err(value_error)?;
    let mut player = Player::new(Rules::classic(), weights, MoveMode::Drop, next.is_some());
    Ok(player
        .choose(&b, piece, next)
        .map(|p| (p.rotation, p.col, p.row)))
}

/// The names of the shipped AI weights.
#[pyfunction]
fn tetris_ais() -> Vec<&'static str> {
    arcade_tetris::eval::BUILTINS.to_vec()
}

/// The afterstate features' names, in their order.
#[pyfunction]
fn tetris_features() -> Vec<&'static str> {
    Feature::ALL.iter().map(|f| f.name()).collect()
}

/// An AI's weights (a shipped name or a weights file), in the order of
/// `tetris_features`.
#[pyfunction]
fn tetris_weights(ai: &str) -> PyResult<Vec<f64>> {
    let w = Weights::resolve(ai).map_err(value_error)?;
    Ok(Feature::ALL.iter().map(|&f| w.get(f)).collect())
}

/// Plays one game with an AI, as `arcade tetris play --json` reports it.
#[pyfunction]
#[pyo3(signature = (ai="bcts", width=10, height=20, seed=1, pieces="uniform", max_pieces=None))]
fn tetris_play(
    py: Python<'_>,
    ai: &str,
    width: usize,
    height: usize,
    seed: u64,
    pieces: &str,
    max_pieces: Option<u64>,
) -> PyResult<String> {
    let weights = Weights::resolve(ai).map_err(value_error)?;
    let kind: Randomizer = pieces.parse().map_err(value_error)?;
    let board = Board::new(width, height).map_err(value_error)?;
    if max_pieces == Some(0) {
        // As `Tetris-v0(max_pieces=0)` and `--max-pieces 0`: a game of no piece.
        return Err(value_error("max_pieces must be at least 1"));
    }
    let limits = arcade_tetris::Limits {
        max_pieces,
        max_lines: None,
    };
    let start = std::time::Instant::now();
    // A 10×20 game runs for minutes: Ctrl-C stops it within a piece.
    let bar = Progress::hidden();
    let result = with_progress(py, &bar, None, || {
        let mut player = Player::new(Rules::classic(), weights.clone(), MoveMode::Drop, false);
        let mut source = PieceSource::random(kind, seed);
        arcade_tetris::game::play_while(&mut player, board, &mut source, limits, |_| {
            !bar.is_cancelled()
        })
    })?;
    to_json(&arcade_tetris::game::PlayReport::new(
        &weights.name,
        &board,
        seed,
        &result,
        start.elapsed().as_secs_f64(),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TetrisCore>()?;
    m.add_class::<TetrisVectorCore>()?;
    m.add_function(wrap_pyfunction!(tetris_best_placement, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_check_size, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_ais, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_features, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_weights, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_play, m)?)?;
    m.add_function(wrap_pyfunction!(tetris_engine_seconds, m)?)?;
    Ok(())
}
