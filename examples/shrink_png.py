"""Shrink PNG figures before committing them: a 256-colour palette, in place.

    python examples/shrink_png.py examples/manet-dsr/manet.png [more.png ...]

`hopsim show` writes full-colour PNGs at 130 dpi (a busy network is 300 KB or more); the
palette keeps every colour of the figure that matters and makes them 3 to 5 times smaller.
Pillow comes with matplotlib, which hopsim installs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image


def shrink(path: Path) -> tuple[int, int]:
    """Quantise ``path`` to 256 colours (no dithering) in place; (bytes before, after)."""
    before = path.stat().st_size
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    pal = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal.save(path, optimize=True)
    return before, path.stat().st_size


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for name in argv:
        before, after = shrink(Path(name))
        print(f"{name}: {before // 1024} KB -> {after // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
