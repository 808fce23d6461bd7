"""Action masks: play Tetris-v0 with random *legal* placements, then with the
built-in BCTS AI, and compare. Every step's ``info["action_mask"]`` marks
the placements the current piece can take; sampling through the mask never
picks an illegal one.

    python examples/tetris_action_mask.py [--games 20]
"""

import argparse

import gymnasium as gym
import numpy as np

import arcadekit  # noqa: F401  (registers the arcadekit/ environments)


def play(env, choose, seed):
    obs, info = env.reset(seed=seed)
    lines, done = 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(choose(env, info))
        lines += reward
        done = terminated or truncated
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    games = ap.parse_args().games
    env = gym.make("arcadekit/Tetris-v0", width=10, height=20, max_pieces=500)

    def random_legal(env, info):
        return env.action_space.sample(mask=info["action_mask"])

    def bcts(env, info):
        action = env.unwrapped.ai_action("bcts")
        assert info["action_mask"][action] == 1
        return action

    for name, choose in [("random legal", random_legal), ("bcts", bcts)]:
        lines = [play(env, choose, seed) for seed in range(games)]
        print(f"{name:>12}: mean {np.mean(lines):7.1f} lines over {games} games (max 500 pieces)")


if __name__ == "__main__":
    main()
