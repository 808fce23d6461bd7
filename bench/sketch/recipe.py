"""The NumPy pencil-sketch recipe, as popularised in Python tutorials
("hand-drawn effect"): grey relief, numpy.gradient, light from a low angle."""

import numpy as np
from PIL import Image


def pencil_sketch(image, depth=10.0, elevation=np.pi / 2.2, azimuth=np.pi / 4.0):
    """PIL image in, uint8 array of the sketch out."""
    a = np.asarray(image.convert("L")).astype("float")
    grad_x, grad_y = np.gradient(a)  # along rows, along columns
    grad_x = grad_x * depth / 100.0
    grad_y = grad_y * depth / 100.0
    norm = np.sqrt(grad_x**2 + grad_y**2 + 1.0)
    uni_x = grad_x / norm
    uni_y = grad_y / norm
    uni_z = 1.0 / norm
    dx = np.cos(elevation) * np.cos(azimuth)
    dy = np.cos(elevation) * np.sin(azimuth)
    dz = np.sin(elevation)
    b = 255 * (dx * uni_x + dy * uni_y + dz * uni_z)
    return b.clip(0, 255).astype("uint8")


def test_photo(width, height, seed):
    """A deterministic stand-in for a photo: smooth shading, hard-edged
    shapes and sensor noise, so every range of gradients occurs."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(float)
    img = np.empty((height, width, 3))
    for ch in range(3):
        fx, fy = rng.uniform(0.5, 3.0, 2) * 2 * np.pi
        img[..., ch] = 128 + 90 * np.sin(fx * x / width + ch) * np.cos(fy * y / height)
    for _ in range(max(3, width * height // 20000)):
        x0, y0 = rng.integers(0, width), rng.integers(0, height)
        w, h = rng.integers(1, max(2, width // 4)), rng.integers(1, max(2, height // 4))
        img[y0:y0 + h, x0:x0 + w] = rng.integers(0, 256, 3)
    img += rng.normal(0, 12, img.shape)
    return Image.fromarray(img.clip(0, 255).astype("uint8"), "RGB")
