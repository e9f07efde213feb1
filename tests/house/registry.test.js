// The registries that list the families: the schema (web/api/schema/index.js), the kernel
// bindings (web/api/kernels/index.js) and the code export (web/share/codegen.js) name the same
// kinds, so a family added to one and forgotten in another fails here rather than in the page.
import { describe, it, expect } from 'vitest';
import { KINDS } from '../../web/api/schema/index.js';
import { KERNELS } from '../../web/api/kernels/index.js';
import { hasCode, TOLERANCE } from '../../web/share/codegen.js';

describe('family registries', () => {
  it('every schema kind has exactly one kernel binding, and every binding a schema kind', () => {
    expect(Object.keys(KERNELS).sort()).toEqual([...KINDS].sort());
    for (const kind of KINDS) {
      expect(Array.isArray(KERNELS[kind].args), `${kind}: args`).toBe(true);
      expect(typeof KERNELS[kind].compute, `${kind}: compute`).toBe('function');
    }
  });

  it('the colour maps and the heatmap path are bindings but not kinds', () => {
    expect(typeof KERNELS.colorize).toBe('object');
    expect(typeof KERNELS.heatmap).toBe('object');
    expect(Object.keys(KERNELS)).not.toContain('colorize');
    expect(Object.keys(KERNELS)).not.toContain('heatmap');
  });

  it('the code export covers schema kinds only, each with a tolerance', () => {
    for (const kind of Object.keys(TOLERANCE)) {
      expect(KINDS, kind).toContain(kind);
      expect(hasCode(kind)).toBe(true);
    }
    expect(hasCode('colorize')).toBe(false);
  });
});
