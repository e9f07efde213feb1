// The plots' highlight shapes (web/plot/highlight.js, issue 29): what a band, a cell, a diagonal,
// a line, a range and a point become in the plot's units, and every bad shape as a PEError naming
// the field. The drawing itself is checked in the browser (tests/browser/learn-marks.test.js).
import { describe, it, expect } from 'vitest';
import { heatShapes, lineShapes } from '../web/plot/highlight.js';
import { expectPEError } from './helpers/pe.js';

describe('heatShapes (cells of a [rows, cols] table)', () => {
  it('a row band spans every column, from its first row to past its last', () => {
    expect(heatShapes({ rows: [3, 5] }, 10, 8)).toEqual([{ type: 'band', x0: 0, x1: 8, y0: 3, y1: 6 }]);
  });

  it('a column band spans every row; rows and columns together are their rectangle', () => {
    expect(heatShapes({ cols: [62, 63] }, 128, 64)).toEqual([{ type: 'band', x0: 62, x1: 64, y0: 0, y1: 128 }]);
    expect(heatShapes({ rows: [0, 6], cols: [0, 1] }, 128, 64)).toEqual([{ type: 'band', x0: 0, x1: 2, y0: 0, y1: 7 }]);
  });

  it('a cell is one cell: [row, col] becomes x = col, y = row', () => {
    expect(heatShapes({ cell: [47, 0] }, 48, 48)).toEqual([{ type: 'cell', x0: 0, x1: 1, y0: 47, y1: 48 }]);
  });

  it('a diagonal row − col = d runs over the cells that have it, clipped to the table', () => {
    // Square 48: d = 10 from (row 10, col 0) to (row 47, col 37).
    expect(heatShapes({ diagonal: 10 }, 48, 48)).toEqual([{ type: 'diagonal', x0: 0, y0: 10, x1: 38, y1: 48 }]);
    // Above the main diagonal, and on a wide table.
    expect(heatShapes({ diagonal: -3 }, 4, 10)).toEqual([{ type: 'diagonal', x0: 3, y0: 0, x1: 7, y1: 4 }]);
    expect(heatShapes({ diagonal: 0 }, 3, 3)).toEqual([{ type: 'diagonal', x0: 0, y0: 0, x1: 3, y1: 3 }]);
  });

  it('takes a list, and null or [] for none', () => {
    expect(heatShapes([{ diagonal: 2 }, { rows: [7, 7], cols: [0, 5] }], 8, 8).map((s) => s.type)).toEqual(['diagonal', 'band']);
    expect(heatShapes(null, 8, 8)).toEqual([]);
    expect(heatShapes([], 8, 8)).toEqual([]);
  });

  it('a shape outside the table or malformed is a PEError naming the field', () => {
    expectPEError(() => heatShapes({ rows: [3, 10] }, 10, 8), 'highlight.rows');
    expectPEError(() => heatShapes({ rows: [5, 3] }, 10, 8), 'highlight.rows');
    expectPEError(() => heatShapes({ cols: [0.5, 2] }, 10, 8), 'highlight.cols');
    expectPEError(() => heatShapes({ cols: 3 }, 10, 8), 'highlight.cols');
    expectPEError(() => heatShapes({ cell: [10, 0] }, 10, 8), 'highlight.cell');
    expectPEError(() => heatShapes({ diagonal: 10 }, 10, 8), 'highlight.diagonal');
    expectPEError(() => heatShapes({ diagonal: -8 }, 10, 8), 'highlight.diagonal');
    expectPEError(() => heatShapes({ band: 1 }, 10, 8), 'highlight');
  });
});

describe('lineShapes (values of a line plot)', () => {
  it('x, y, a range over samples a … b (half a sample beyond each), and a point', () => {
    expect(lineShapes([{ x: 46 }, { y: 8 }, { range: [29, 63] }, { point: [5, 0.25] }])).toEqual([
      { type: 'x', x0: 46, x1: 46 },
      { type: 'y', y: 8 },
      { type: 'range', x0: 28.5, x1: 63.5 },
      { type: 'point', x0: 5, x1: 5, y: 0.25 },
    ]);
    expect(lineShapes(null)).toEqual([]);
  });

  it('a bad shape is a PEError naming the field', () => {
    expectPEError(() => lineShapes({ x: NaN }), 'highlight.x');
    expectPEError(() => lineShapes({ y: '3' }), 'highlight.y');
    expectPEError(() => lineShapes({ range: [5, 2] }), 'highlight.range');
    expectPEError(() => lineShapes({ range: [1] }), 'highlight.range');
    expectPEError(() => lineShapes({ point: [1, Infinity] }), 'highlight.point');
    expectPEError(() => lineShapes({}), 'highlight');
  });
});
