//! The session store: each open game lives here under a random id, expires
//! after an idle time, and the number of sessions is capped (the least
//! recently used is evicted), so memory stays bounded however many tabs open.

use crate::error::ApiError;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The games a session can hold.
pub enum Game {
    Mines(arcade_mines::human::HumanGame),
    Jumpin(arcade_jumpin::play::JumpinGame),
    Tiles(arcade_tiles::play::TilesGame),
    Battle(arcade_mines::battle::live::LiveBattle),
    Tetris(Box<crate::tetris::TetrisSession>),
    Flappy(Box<crate::flappy::FlappySession>),
}

impl Game {
    pub fn name(&self) -> &'static str {
        match self {
            Game::Mines(_) => arcade_mines::human::HumanGame::NAME,
            Game::Jumpin(_) => arcade_jumpin::play::JumpinGame::NAME,
            Game::Tiles(_) => arcade_tiles::play::TilesGame::NAME,
            Game::Battle(_) => arcade_mines::battle::live::LiveBattle::NAME,
            Game::Tetris(_) => crate::tetris::TetrisSession::NAME,
            Game::Flappy(_) => crate::flappy::FlappySession::NAME,
        }
    }
}

/// A game a session can hold: lets a handler ask a session for its own kind
/// of game and name it when the session holds another.
pub trait SessionGame: Send + 'static {
    /// The name [`Game::name`] gives this kind.
    const NAME: &'static str;
    fn of(game: &mut Game) -> Option<&mut Self>;
}

macro_rules! session_game {
    ($ty:ty, $variant:ident, $name:literal) => {
        impl SessionGame for $ty {
            const NAME: &'static str = $name;
            fn of(game: &mut Game) -> Option<&mut Self> {
                match game {
                    Game::$variant(g) => Some(g),
                    _ => None,
                }
            }
        }
    };
}

session_game!(arcade_mines::human::HumanGame, Mines, "mines");
session_game!(arcade_jumpin::play::JumpinGame, Jumpin, "jumpin");
session_game!(arcade_tiles::play::TilesGame, Tiles, "tiles");
session_game!(arcade_mines::battle::live::LiveBattle, Battle, "battle");
session_game!(crate::tetris::TetrisSession, Tetris, "tetris");
session_game!(crate::flappy::FlappySession, Flappy, "flappy");

/// One game shared between the store and the request working on it.
pub type Shared = Arc<Mutex<Game>>;

/// Locks a session, recovering it if a request panicked while holding it.
pub fn lock(game: &Shared) -> MutexGuard<'_, Game> {
    game.lock().unwrap_or_else(|e| e.into_inner())
}

struct Entry {
    last_used: Instant,
    game: Shared,
}

/// Sessions by id, with an idle time-to-live and a cap.
pub struct Store {
    ttl: Duration,
    cap: usize,
    map: Mutex<HashMap<String, Entry>>,
    ids: IdSource,
}

impl Store {
    pub fn new(ttl: Duration, cap: usize) -> Store {
        Store {
            ttl,
            cap: cap.max(1),
            map: Mutex::new(HashMap::new()),
            ids: IdSource::new(),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new game and returns its id, evicting the least recently
    /// used session when the store is full.
    pub fn insert(&self, game: Game) -> String {
        let id = self.ids.next();
        let now = Instant::now();
        let mut map = self.map();
        if map.len() >= self.cap {
            let ttl = self.ttl;
            map.retain(|_, e| now.duration_since(e.last_used) < ttl);
        }
        if map.len() >= self.cap
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        map.insert(
            id.clone(),
            Entry {
                last_used: now,
                game: Arc::new(Mutex::new(game)),
            },
        );
        id
    }

    /// The session `id`, marked as used now; an expired one is removed.
    pub fn get(&self, id: &str) -> Result<Shared, ApiError> {
        let now = Instant::now();
        let mut map = self.map();
        let unknown = || ApiError::UnknownSession(id.chars().take(40).collect());
        let entry = map.get_mut(id).ok_or_else(unknown)?;
        if now.duration_since(entry.last_used) >= self.ttl {
            map.remove(id);
            return Err(unknown());
        }
        entry.last_used = now;
        Ok(entry.game.clone())
    }

    /// Removes every expired session; the server calls this periodically.
    pub fn sweep(&self) -> usize {
        let now = Instant::now();
        let ttl = self.ttl;
        let mut map = self.map();
        let before = map.len();
        map.retain(|_, e| now.duration_since(e.last_used) < ttl);
        let after = map.len();
        map.shrink_to(after.max(16));
        before - after
    }

    pub fn len(&self) -> usize {
        self.map().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }
}

/// Unguessable-enough session ids: a counter hashed with two per-process
/// random keys (std's `RandomState`), 128 bits in hex.
struct IdSource {
    counter: AtomicU64,
    keys: [RandomState; 2],
}

impl IdSource {
    fn new() -> IdSource {
        IdSource {
            counter: AtomicU64::new(0),
            keys: [RandomState::new(), RandomState::new()],
        }
    }

    fn next(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let [a, b] = &self.keys;
        format!("{:016x}{:016x}", a.hash_one(n), b.hash_one(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_mines::human::HumanGame;
    use arcade_mines::{Level, Rule};

    fn mines() -> Game {
        Game::Mines(HumanGame::new(Level::BEGINNER, Rule::Sfar, 0))
    }

    #[test]
    fn the_cap_evicts_the_least_recently_used() {
        let store = Store::new(Duration::from_secs(60), 3);
        let ids: Vec<String> = (0..3).map(|_| store.insert(mines())).collect();
        std::thread::sleep(Duration::from_millis(2));
        store.get(&ids[0]).unwrap();
        let d = store.insert(mines());
        assert_eq!(store.len(), 3);
        assert!(store.get(&ids[1]).is_err());
        for id in [&ids[0], &ids[2], &d] {
            assert!(store.get(id).is_ok());
        }
    }

    #[test]
    fn idle_sessions_expire() {
        let store = Store::new(Duration::from_millis(20), 10);
        let id = store.insert(mines());
        assert!(store.get(&id).is_ok());
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(store.sweep(), 1);
        assert!(matches!(store.get(&id), Err(ApiError::UnknownSession(_))));
    }

    #[test]
    fn ids_are_distinct() {
        let s = IdSource::new();
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| s.next()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(ids.iter().all(|i| i.len() == 32));
    }
}

/// Who plays a real-time game (Tetris, Flappy Bird): a person, or an AI the
/// page watches.
#[derive(serde::Deserialize, serde::Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Play,
    Watch,
}

/// A seed for a game started without one (below 2^32 so a browser's
/// numbers hold it exactly).
pub fn random_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8) & 0xffff_ffff
}
