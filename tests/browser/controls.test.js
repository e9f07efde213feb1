// The schema-driven control generator (web/app/controls.js) on a made-up schema that has every field
// type it understands, including nested objects with a discriminator (like rope_scaling) and with
// `when` rules, in Chromium. The page's own kinds are tested in page.test.js.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage } from '../helpers/browser.js';

const avail = suiteAvailability('controls.test');

describe.skipIf(avail.skip)('controls generated from a schema', () => {
  let server;
  let page;
  let close;

  beforeAll(async () => {
    ({ server, page, close } = await openPage({ avail }));
    await page.goto(`${server.url}style.css`); // any same-origin document will do
    // A string, so Vitest does not rewrite the dynamic imports meant for the browser.
    await page.evaluate(`(async () => {
      const { buildControls } = await import('/app/controls.js');
      const { translator } = await import('/i18n/index.js');
      const fields = {
        n: { type: 'int', default: 8, min: 1, max: 1024, label: { en: 'N', ko: 'N' }, help: { en: 'how many' } },
        scale: { type: 'number', default: 1.5, min: 0, exclusiveMin: true, max: 10, label: { en: 'Scale' } },
        mode: { type: 'enum', default: 'a', values: ['a', 'b'], label: { en: 'Mode' } },
        flag: { type: 'bool', default: false, label: { en: 'Flag' } },
        limit: { type: 'int', default: null, min: 1, max: 100, label: { en: 'Limit' } },
        section: { type: 'list', item: { type: 'int' }, minItems: 1, maxItems: 8, default: [1, 2, 3], label: { en: 'Section' } },
        text: { type: 'string', default: 'hello', label: { en: 'Text' } },
        extra: { type: 'mystery', default: { k: 1 }, label: { en: 'Extra' } },
        scaling: {
          type: 'object', nullable: true, default: null, discriminator: 'kind', label: { en: 'Scaling' },
          fields: {
            kind: { type: 'enum', default: 'plain', values: ['plain', 'linear', 'fancy'], label: { en: 'Kind' } },
            factor: { type: 'number', default: 2, min: 0, label: { en: 'Factor' } },
            beta: { type: 'number', default: 32, min: 0, label: { en: 'Beta' } },
            auto: { type: 'number', default: null, min: 0, label: { en: 'Auto' } },
          },
          variants: { plain: {}, linear: { required: ['factor'] }, fancy: { required: ['factor'], optional: ['beta', 'auto'] } },
          examples: { fancy: { kind: 'fancy', factor: 4 } },
        },
        opt: {
          type: 'object', default: null, label: { en: 'Optional' },
          fields: {
            on: { type: 'bool', default: true, label: { en: 'On' } },
            width: { type: 'int', default: 3, min: 1, max: 9, label: { en: 'Width' }, when: { on: [true] } },
          },
        },
      };
      const spec = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.default]));
      window.changes = [];
      const box = document.createElement('div');
      document.body.replaceChildren(box);
      window.c = buildControls(box, {
        fields, spec, t: translator('en'), idPrefix: 'x', onChange: (values, p) => window.changes.push({ values, path: p }),
      });
    })()`);
  });

  afterAll(async () => {
    await close?.();
  });

  const last = () => page.evaluate(() => window.changes[window.changes.length - 1]);

  it('makes a labelled input per field, with sliders for ranges', async () => {
    for (const id of ['x-n', 'x-scale', 'x-mode', 'x-flag', 'x-limit', 'x-section', 'x-text', 'x-extra', 'x-scaling-kind']) {
      expect(await page.locator(`#${id}`).count(), id).toBe(1);
      const label = await page.evaluate((i) => document.querySelector(`label[for="${i}"]`)?.textContent, id);
      expect(label, id).toBeTruthy();
    }
    expect(await page.locator('[data-field="n"] input[type=range]').count()).toBe(1);
    expect(await page.getAttribute('#x-limit', 'placeholder')).toBe('auto');
  });

  it('reports each change with the whole spec', async () => {
    await page.fill('#x-n', '16');
    expect(await last()).toMatchObject({ path: 'n', values: { n: 16, mode: 'a' } });
    await page.selectOption('#x-mode', 'b');
    expect((await last()).values.mode).toBe('b');
    await page.check('#x-flag');
    expect((await last()).values.flag).toBe(true);
    await page.fill('#x-limit', '5');
    expect((await last()).values.limit).toBe(5);
    await page.fill('#x-limit', '');
    expect('limit' in (await last()).values).toBe(false); // left out: the kernel's "auto"
    await page.fill('#x-section', '16, 24, 24');
    expect((await last()).values.section).toEqual([16, 24, 24]);
    await page.fill('#x-extra', '{"k": 2}');
    expect((await last()).values.extra).toEqual({ k: 2 });
    await page.fill('#x-extra', '{oops');
    expect(await page.isVisible('[data-field="extra"] .field-error')).toBe(true);
  });

  it('switches a nested object through its discriminator, showing the fields of each variant', async () => {
    const visible = (f) => page.isVisible(`[data-field="scaling.${f}"]`);
    expect(await visible('factor')).toBe(false);
    await page.selectOption('#x-scaling-kind', 'linear');
    expect((await last()).values.scaling).toEqual({ kind: 'linear', factor: 2 });
    expect(await visible('factor')).toBe(true);
    expect(await visible('beta')).toBe(false);
    await page.selectOption('#x-scaling-kind', 'fancy');
    expect((await last()).values.scaling).toEqual({ kind: 'fancy', factor: 4, beta: 32 }); // the example, plus defaults
    expect(await visible('beta')).toBe(true);
    expect(await visible('auto')).toBe(true);
    await page.fill('#x-scaling-factor', '6');
    expect((await last()).values.scaling).toEqual({ kind: 'fancy', factor: 6, beta: 32 });
    expect((await last()).path).toBe('scaling.factor');
    await page.selectOption('#x-scaling-kind', '');
    expect((await last()).values.scaling).toBe(null);
    expect(await visible('factor')).toBe(false);
  });

  it('turns an optional object on and off, and follows `when`', async () => {
    await page.check('#x-opt--enabled');
    expect((await last()).values.opt).toEqual({ on: true, width: 3 });
    expect(await page.isVisible('[data-field="opt.width"]')).toBe(true);
    await page.uncheck('#x-opt--enabled');
    expect((await last()).values.opt).toBe(null);
    await page.check('#x-opt--enabled');
    await page.uncheck('#x-opt-on');
    expect((await last()).values.opt).toEqual({ on: false });
    expect(await page.isVisible('[data-field="opt.width"]')).toBe(false);
  });

  it('puts an error at the field a PEError names, nested paths included', async () => {
    await page.selectOption('#x-scaling-kind', 'fancy');
    expect(await page.evaluate(() => window.c.showError('scaling.factor', 'factor must be > 0'))).toBe(true);
    expect(await page.textContent('[data-field="scaling.factor"] .field-error')).toBe('factor must be > 0');
    expect(await page.getAttribute('#x-scaling-factor', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => window.c.showError('beta', 'bare sub-field name'))).toBe(true);
    expect(await page.evaluate(() => window.c.showError('nonsense', 'x'))).toBe(false);
    await page.evaluate(() => window.c.clearErrors());
    expect(await page.isVisible('[data-field="scaling.factor"] .field-error')).toBe(false);
  });

  it('shows a whole spec set from outside', async () => {
    await page.evaluate(() => window.c.setValues({ n: 3, scale: 2, mode: 'a', flag: false, section: [1], text: 'x', extra: null, scaling: { kind: 'linear', factor: 9 }, opt: null }));
    expect(await page.inputValue('#x-n')).toBe('3');
    expect(await page.inputValue('#x-scaling-kind')).toBe('linear');
    expect(await page.inputValue('#x-scaling-factor')).toBe('9');
    expect(await page.isVisible('[data-field="scaling.beta"]')).toBe(false);
  });
});

describe.skipIf(avail.skip)('the structured editor of a nested spec (the attention\'s encoding)', () => {
  let server;
  let page;
  let close;

  beforeAll(async () => {
    ({ server, page, close } = await openPage({ avail }));
    await page.goto(`${server.url}style.css`);
    // The real schema and the real validation: an error comes from pe.compute's PEError.
    await page.evaluate(`(async () => {
      const { buildControls } = await import('/app/controls.js');
      const { translator } = await import('/i18n/index.js');
      const { SCHEMA } = await import('/api/schema/index.js');
      const { createPE } = await import('/pe.js');
      window.pe = await createPE();
      window.changes = [];
      const box = document.createElement('div');
      document.body.replaceChildren(box);
      window.c = buildControls(box, {
        fields: SCHEMA.attention.fields, spec: window.pe.defaults('attention'), t: translator('en'), idPrefix: 'a', schemas: SCHEMA,
        onChange: (values, p) => window.changes.push({ values, path: p }),
      });
      /** Computes the latest spec and puts its error (if any) where it names, as the page does. */
      window.check = () => {
        window.c.clearErrors();
        const values = window.changes[window.changes.length - 1].values;
        try {
          window.pe.compute(values);
          return null;
        } catch (e) {
          window.c.showError(e.param, e.message);
          return e.param;
        }
      };
    })()`);
  });

  afterAll(async () => {
    await close?.();
  });

  const last = () => page.evaluate(() => window.changes[window.changes.length - 1]);

  it('offers the kinds, and the chosen kind\'s own fields without length and dim', async () => {
    expect(await page.inputValue('#a-encoding-kind')).toBe('rope');
    const kinds = await page.$$eval('#a-encoding-kind option', (os) => os.map((o) => o.value));
    expect(kinds).toEqual(['', 'sinusoidal', 'sinusoidal2d', 'sinusoidal3d', 'integer', 'binary', 'learned', 'rope', 'mrope', 'alibi', 't5', 'shaw', 'distance']);
    expect(await page.isVisible('#a-encoding-base')).toBe(true);
    expect(await page.locator('#a-encoding-length').count()).toBe(0);
    expect(await page.locator('#a-encoding-dim').count()).toBe(0);
    expect(await page.isVisible('#a-encoding')).toBe(false); // the JSON box, folded away
  });

  it('changes the kind, then a nested field: the spec follows', async () => {
    await page.selectOption('#a-encoding-kind', 'alibi');
    let c = await last();
    expect(c.path).toBe('encoding.kind');
    expect(c.values.encoding).toMatchObject({ kind: 'alibi', mode: 'causal' });
    expect(await page.locator('#a-encoding-heads').count()).toBe(0); // alibi's heads follow the attention's
    expect(await page.isVisible('#a-encoding-base')).toBe(false);
    await page.selectOption('#a-encoding-kind', 'rope');
    await page.fill('#a-encoding-base', '20000');
    c = await last();
    expect(c.path).toBe('encoding.base');
    expect(c.values.encoding).toMatchObject({ kind: 'rope', base: 20000 });
    expect(c.values.length).toBe(64);
    expect(await page.evaluate(() => window.check())).toBe(null);
    await page.selectOption('#a-encoding-kind', '');
    expect((await last()).values.encoding).toBe(null);
    expect(await page.locator('#a-encoding-base').count()).toBe(0);
  });

  it('shows a bad nested value\'s PEError at that nested field', async () => {
    await page.selectOption('#a-encoding-kind', 'rope');
    await page.fill('#a-encoding-base', '-3');
    expect(await page.evaluate(() => window.check())).toBe('encoding.base');
    expect(await page.textContent('[data-field="base"] .field-error')).toMatch(/encoding\.base/);
    expect(await page.getAttribute('#a-encoding-base', 'aria-invalid')).toBe('true');
    expect(await page.isVisible('[data-field="encoding"] > .field-error')).toBe(false);
    await page.fill('#a-encoding-base', '10000');
    expect(await page.evaluate(() => window.check())).toBe(null);
    expect(await page.isVisible('[data-field="base"] .field-error')).toBe(false);
  });

  it('round-trips through the JSON toggle', async () => {
    await page.click('[data-field="encoding"] .spec-json-toggle');
    expect(await page.isVisible('#a-encoding')).toBe(true);
    expect(JSON.parse(await page.inputValue('#a-encoding'))).toMatchObject({ kind: 'rope', base: 10000 });
    await page.fill('#a-encoding', '{"kind": "t5", "num_buckets": 16}');
    expect((await last()).values.encoding).toEqual({ kind: 't5', num_buckets: 16 });
    await page.click('[data-field="encoding"] .spec-json-toggle');
    expect(await page.isVisible('#a-encoding')).toBe(false);
    expect(await page.inputValue('#a-encoding-kind')).toBe('t5');
    expect(await page.inputValue('#a-encoding-num_buckets')).toBe('16');
    await page.fill('#a-encoding-num_buckets', '24');
    expect((await last()).values.encoding).toMatchObject({ kind: 't5', num_buckets: 24 });
    await page.click('[data-field="encoding"] .spec-json-toggle');
    expect(JSON.parse(await page.inputValue('#a-encoding'))).toMatchObject({ kind: 't5', num_buckets: 24 });
    await page.click('[data-field="encoding"] .spec-json-toggle');
  });
});
