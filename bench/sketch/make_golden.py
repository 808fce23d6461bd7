"""Writes the golden test images of crates/sketch/tests/data (inputs and the
NumPy recipe's outputs). Run once through make_golden.sh; the files are
committed, and the test in crates/sketch/tests/golden.rs reads them."""

import os
import sys

import numpy as np
from PIL import Image

from recipe import pencil_sketch, test_photo

# name, width, height, seed, (depth, elevation, azimuth)
CASES = [
    ("photo-64x48", 64, 48, 1, (10.0, np.pi / 2.2, np.pi / 4.0)),
    ("photo-37x23-d30", 37, 23, 2, (30.0, 0.8, 2.0)),
    ("noise-16x9-d70", 16, 9, 3, (70.0, 0.3, -1.0)),
]


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name, w, h, seed, (depth, el, az) in CASES:
        img = test_photo(w, h, seed)
        if name.startswith("noise"):
            rng = np.random.default_rng(seed)
            img = Image.fromarray(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), "RGB")
        img.save(os.path.join(out_dir, f"{name}.png"))
        Image.fromarray(pencil_sketch(img, depth, el, az), "L").save(
            os.path.join(out_dir, f"{name}.sketch.png"))
        print(f"{name}: {w}x{h}, depth {depth}, elevation {el:.17g}, azimuth {az:.17g}")


if __name__ == "__main__":
    main(sys.argv[1])
