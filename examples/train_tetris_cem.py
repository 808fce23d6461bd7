"""Learn Tetris with the cross-entropy method on the Rust vector environment:
a linear value over the 12 afterstate features (the classic recipe of Szita
& Lőrincz 2006, and of BCTS), each candidate playing its own batch of games,
all games of a generation stepped together by ``TetrisVectorEnv`` (NumPy
only). The learnt weights are then compared with BCTS's on unseen games.

    python examples/train_tetris_cem.py [--generations 20] [--population 32]
"""

import argparse

import numpy as np

import arcadekit as ak

FEATURES = len(ak.tetris_features())


def evaluate(weights, episodes, args, seed):
    """Mean rows cleared by each candidate over ``episodes`` games of at most
    ``args.max_pieces`` pieces; one vector env holds population × episodes
    games, stepped until each has ended once. A game plays the legal action
    of largest ``afterstate_features() @ w``."""
    pop = len(weights)
    n = pop * episodes
    env = ak.TetrisVectorEnv(n, width=args.width, height=args.height, max_pieces=args.max_pieces)
    _, info = env.reset(seed=seed)
    w = np.repeat(weights, episodes, axis=0)  # (n, FEATURES)
    lines = np.zeros(n)
    alive = np.ones(n, bool)
    while alive.any():
        value = np.einsum("naf,nf->na", env.afterstate_features(), w)
        value[info["action_mask"] == 0] = -np.inf
        _, reward, term, trunc, info = env.step(value.argmax(axis=1))
        lines += reward * alive
        alive &= ~(term | trunc)
    return lines.reshape(pop, episodes).mean(axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generations", type=int, default=15)
    ap.add_argument("--population", type=int, default=32)
    ap.add_argument("--episodes", type=int, default=4)
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--height", type=int, default=10)
    ap.add_argument("--max-pieces", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    # Szita & Lőrincz's noisy CEM: wide first, with a noise floor on the
    # spread so the search does not freeze on an early elite.
    mean, std = np.zeros(FEATURES), np.full(FEATURES, 10.0)
    elite = max(2, a.population // 8)
    for g in range(a.generations):
        cand = mean + std * rng.standard_normal((a.population, FEATURES))
        score = evaluate(cand, a.episodes, a, seed=a.seed * 1000 + g)
        top = cand[np.argsort(score)[-elite:]]
        mean, std = top.mean(axis=0), top.std(axis=0) + 1.0
        print(f"generation {g + 1:3}: best {score.max():6.1f} rows, mean {score.mean():6.1f}")
    unseen = 10**6
    final = evaluate(mean[None, :], 32, a, seed=unseen)[0]
    bcts = evaluate(ak.tetris_weights("bcts")[None, :], 32, a, seed=unseen)[0]
    print(f"mean weights on 32 unseen games: {final:.1f} rows (BCTS: {bcts:.1f}; "
          f"at most {a.max_pieces} pieces a game)")
    return final


if __name__ == "__main__":
    main()
