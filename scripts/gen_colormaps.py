#!/usr/bin/python3
"""Regenerate the colour-map tables in c/colormap.c from matplotlib's published colour maps.

Every map is sampled at 256 points (index 0 = low end) and written as RGBA bytes between the
markers `// BEGIN GENERATED TABLES` and `// END GENERATED TABLES` in c/colormap.c; the rest of
the file is left alone.

    viridis    matplotlib 'viridis' (van der Walt & Smith): perceptually uniform, colour-blind safe
    cividis    matplotlib 'cividis' (Nuñez, Anderton & Renslow 2018): optimised for colour-vision
               deficiency, near-identical for deuteranopes and protanopes
    diverging  matplotlib 'RdBu_r' (ColorBrewer RdBu reversed): blue (low), white (0), red (high);
               ColorBrewer marks RdBu colour-blind safe

Run with the system Python that has matplotlib (apt-get install -y python3-matplotlib):
    /usr/bin/python3 scripts/gen_colormaps.py            # rewrites the block in c/colormap.c
    /usr/bin/python3 scripts/gen_colormaps.py --stdout   # prints the block only
"""
import os
import sys

import matplotlib
from matplotlib import cm

# (C enum suffix, matplotlib name). The order is the C enum order (pe_colormap in c/colormap.h).
MAPS = [
    ('VIRIDIS', 'viridis'),
    ('CIVIDIS', 'cividis'),
    ('DIVERGING', 'RdBu_r'),
]

BEGIN = '// BEGIN GENERATED TABLES'
END = '// END GENERATED TABLES'
HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, '..', 'c', 'colormap.c')


def lut(name):
    cmap = matplotlib.colormaps[name] if hasattr(matplotlib, 'colormaps') else cm.get_cmap(name)
    out = []
    for i in range(256):
        r, g, b, _ = cmap(i / 255.0)
        out.append(tuple(int(round(c * 255)) for c in (r, g, b)) + (255,))
    return out


def block():
    lines = [
        BEGIN,
        '// Written by scripts/gen_colormaps.py from matplotlib %s; do not edit by hand.' % matplotlib.__version__,
        '// RGBA bytes, 256 entries per map, index 0 = the low end.',
        'static const uint8_t PE_COLORMAP_LUTS[PE_COLORMAP_COUNT][256][4] = {',
    ]
    for key, name in MAPS:
        lines.append('    [PE_COLORMAP_%s] = {   // matplotlib %s' % (key, name))
        entries = lut(name)
        for i in range(0, 256, 4):
            lines.append('        ' + ' '.join('{%d, %d, %d, %d},' % e for e in entries[i:i + 4]))
        lines.append('    },')
    lines.append('};')
    lines.append(END)
    return '\n'.join(lines) + '\n'


def main():
    text = block()
    if '--stdout' in sys.argv:
        sys.stdout.write(text)
        return
    with open(TARGET, encoding='utf-8') as f:
        source = f.read()
    start = source.index(BEGIN)
    stop = source.index(END) + len(END) + 1
    with open(TARGET, 'w', encoding='utf-8') as f:
        f.write(source[:start] + text + source[stop:])
    print('wrote the tables of %s' % ', '.join(name for _, name in MAPS))


if __name__ == '__main__':
    main()
