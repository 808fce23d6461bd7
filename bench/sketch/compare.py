"""Side by side: the NumPy recipe and arcade's sketch filter (the
sketch_bench example) on the golden test images and on a generated
3840x2160 photo; reports pixel differences and megapixels/s. Run through
run.sh."""

import argparse
import os
import subprocess
import tempfile
import time

import numpy as np
from PIL import Image

from make_golden import CASES, main as make_golden
from recipe import pencil_sketch, test_photo


def arcade(binary, src, dst, repeats, light):
    args = [binary, src, dst, str(repeats), *(repr(float(v)) for v in light)]
    w, h, secs, mpx, threads = subprocess.run(
        args, check=True, capture_output=True, text=True).stdout.split()
    return float(mpx), int(threads), np.asarray(Image.open(dst))


def diff_summary(a, b):
    d = np.abs(a.astype(int) - b.astype(int))
    return int(d.max()), int((d > 0).sum())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arcade", required=True)
    p.add_argument("--golden-dir", required=True)
    p.add_argument("--width", type=int, default=3840)
    p.add_argument("--height", type=int, default=2160)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        # 1. The golden images: NumPy remade now vs committed, arcade vs both.
        fresh = os.path.join(tmp, "golden")
        make_golden(fresh)
        for name, w, h, _, light in CASES:
            committed = np.asarray(Image.open(os.path.join(args.golden_dir, f"{name}.sketch.png")))
            remade = np.asarray(Image.open(os.path.join(fresh, f"{name}.sketch.png")))
            _, _, ours = arcade(args.arcade, os.path.join(args.golden_dir, f"{name}.png"),
                                os.path.join(tmp, "ours.png"), 1, light)
            m, k = diff_summary(ours, remade)
            same = np.array_equal(committed, remade)
            print(f"golden {name}: NumPy now {'==' if same else '!='} committed; "
                  f"arcade vs NumPy max diff {m}, {k} of {w * h} pixels differ")
            if m > 1 or not same:
                raise SystemExit("golden image mismatch")

        # 2. Speed on a large generated photo.
        src = os.path.join(tmp, "photo.png")
        photo = test_photo(args.width, args.height, args.seed)
        photo.save(src)
        photo = Image.open(src)
        photo.load()
        best, runs, started = float("inf"), 0, time.perf_counter()
        while runs < args.repeats or time.perf_counter() - started < 0.5:
            runs += 1
            t = time.perf_counter()
            expected = pencil_sketch(photo)
            best = min(best, time.perf_counter() - t)
        np_mpx = args.width * args.height / 1e6 / best
        light = (10.0, np.pi / 2.2, np.pi / 4.0)
        ours_mpx, threads, ours = arcade(args.arcade, src, os.path.join(tmp, "ours.png"), args.repeats, light)
        m, k = diff_summary(ours, expected)
        print(f"{args.width}x{args.height}, best of >= {args.repeats} runs and 0.5 s each "
              "(decode/encode not timed):")
        print(f"  numpy recipe   {np_mpx:8.1f} megapixels/s (1 thread)")
        print(f"  arcade sketch  {ours_mpx:8.1f} megapixels/s ({threads} thread{'s' if threads > 1 else ''})")
        print(f"  ratio          {ours_mpx / np_mpx:8.1f}x")
        print(f"  max pixel difference {m}, {k} of {args.width * args.height} pixels differ")
        if m > 1:
            raise SystemExit("outputs differ by more than 1")


if __name__ == "__main__":
    main()
