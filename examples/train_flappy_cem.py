"""Train a Flappy Bird policy with the cross-entropy method on the Rust
vector environment: a linear policy on the 7 features, each candidate
scored on its own batch of games, all games of a generation stepped
together by ``FlappyVectorEnv`` (NumPy only: no deep-learning framework).

    python examples/train_flappy_cem.py [--generations 30] [--population 64]
"""

import argparse

import numpy as np

import arcadekit as ak

FEATURES = 7
# The features are shares of the screen crowded into a narrow range; shift
# and scale them to order one so one sampling scale suits every weight.
CENTRE = np.array([0.25, 0.4, 0.4, 0.4, 0.0, 0.4, 0.4], np.float32)
SCALE = np.array([0.25, 0.1, 0.1, 0.1, 0.5, 0.1, 0.1], np.float32)


def evaluate(weights, episodes, max_pipes, seed):
    """Mean pipes of each candidate over ``episodes`` games; one vector env
    holds population × episodes games (one episode each: stepping stops once
    every game has ended once)."""
    pop = len(weights)
    env = ak.FlappyVectorEnv(pop * episodes, extended=True, max_pipes=max_pipes)
    obs, _ = env.reset(seed=seed)
    w = np.repeat(weights, episodes, axis=0)  # (n, FEATURES + 1)
    pipes = np.zeros(pop * episodes)
    alive = np.ones(pop * episodes, bool)
    while alive.any():
        x = (obs - CENTRE) / SCALE
        flap = (np.einsum("nf,nf->n", x, w[:, :FEATURES]) + w[:, FEATURES] > 0).astype(np.int64)
        obs, reward, term, trunc, info = env.step(flap)
        pipes += (reward > 0) * alive
        alive &= ~(term | trunc)
    return pipes.reshape(pop, episodes).mean(axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--population", type=int, default=64)
    ap.add_argument("--episodes", type=int, default=8)
    ap.add_argument("--max-pipes", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    mean, std = np.zeros(FEATURES + 1), np.ones(FEATURES + 1)
    elite = max(2, a.population // 8)
    best = 0.0
    for g in range(a.generations):
        cand = mean + std * rng.standard_normal((a.population, FEATURES + 1))
        score = evaluate(cand, a.episodes, a.max_pipes, seed=a.seed * 1000 + g)
        top = cand[np.argsort(score)[-elite:]]
        mean, std = top.mean(axis=0), top.std(axis=0) + 0.05
        best = max(best, score.max())
        print(f"generation {g + 1:3}: best {score.max():5.1f} pipes, mean {score.mean():5.1f}")
    final = evaluate(mean[None, :], 32, a.max_pipes, seed=10**6)[0]
    print(f"mean policy on 32 unseen games: {final:.1f} pipes (cap {a.max_pipes})")
    return final


if __name__ == "__main__":
    main()
