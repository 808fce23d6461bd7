"""Train sb3-contrib's MaskablePPO on Tetris-v0 with the action mask, and
compare with random legal placements. Not run in CI: stable-baselines3 needs
PyTorch, whose Linux wheel on PyPI brings the CUDA libraries (about 5 GB).

    pip install stable-baselines3 sb3-contrib
    python examples/sb3_maskable_ppo_tetris.py [--steps 50000]
"""

import argparse

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import arcadekit as ak


def make(seed=None):
    env = ak.TetrisEnv(width=6, height=10, max_pieces=300)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def evaluate(policy, games=20):
    lines = []
    for seed in range(10_000, 10_000 + games):
        env = make()
        obs, info = env.reset(seed=seed)
        total, done = 0, False
        while not done:
            action = policy(env, obs)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        lines.append(total)
    return float(np.mean(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50_000)
    steps = ap.parse_args().steps
    rng = np.random.default_rng(0)
    random_lines = evaluate(lambda env, obs: int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
    model = MaskablePPO("MultiInputPolicy", make(), seed=0, verbose=0, n_steps=1024, batch_size=256)
    model.learn(total_timesteps=steps)
    ppo_lines = evaluate(
        lambda env, obs: int(model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)[0])
    )
    print(f"6x10 board, 300-piece cap, 20 unseen games: random legal {random_lines:.1f} lines, "
          f"MaskablePPO after {steps:,} steps {ppo_lines:.1f} lines")


if __name__ == "__main__":
    main()
