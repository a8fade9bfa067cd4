"""Writes the JPEGs the k6 upload scenario sends: phone-sized photos (12 MP, 4000 x 3000
by default) with a phone photo's mix of smooth gradients and sensor grain, at a
camera's quality, so each is 3-5 MB and decodes like a real one. Needs Pillow
(run.sh installs it into .venv when missing).

    python fixtures.py OUT_DIR [COUNT] [WIDTH] [HEIGHT]

Files that already exist with the same size are kept (the run reuses them).
"""

import os
import sys

from PIL import Image


def photo(seed: int, width: int, height: int) -> Image.Image:
    # Gradients differ per channel and per seed; gaussian grain over them keeps the
    # JPEG from compressing far below what a phone writes.
    sky = Image.linear_gradient("L").resize((width, height))
    ground = sky.rotate(90 + 37 * seed, expand=False).resize((width, height))
    mix = Image.blend(sky, ground, 0.35 + 0.1 * (seed % 3))
    channels = []
    for c in range(3):
        grain = Image.effect_noise((width, height), 18 + 4 * ((seed + c) % 3))
        channels.append(Image.blend([sky, ground, mix][(seed + c) % 3], grain, 0.33))
    return Image.merge("RGB", channels)


def main() -> None:
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 4000
    height = int(sys.argv[4]) if len(sys.argv) > 4 else 3000
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        path = os.path.join(out, f"photo-{i + 1}.jpg")
        stamp = path + f".{width}x{height}"
        if os.path.exists(path) and os.path.exists(stamp):
            continue
        photo(i + 1, width, height).save(path, "JPEG", quality=92)
        open(stamp, "w").close()
        print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
