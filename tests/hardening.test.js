// Regression tests for what an outside audit broke (one describe per finding), in Node: each
// failed before its fix. The browser-side findings are in tests/browser/hardening.test.js and
// tests/browser/pe-plot.test.js; random specs and mutations in tests/spec-properties.test.js.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { createPE } from '../web/pe.js';
import { fromHFConfig } from '../web/api/hfconfig.js';
import { decodePermalink } from '../web/share/permalink.js';
import { reasonText } from '../web/share/page.js';
import { translator } from '../web/i18n/index.js';
import { py } from '../web/share/codegen.js';
import { startServer } from '../scripts/serve.js';
import { expectPEError } from './helpers/pe.js';

let pe;
beforeAll(async () => {
  pe = await createPE();
});

describe('2, 5: derived quantities stay finite, and a refusal names the field at fault', () => {
  const rope = (rope_scaling) => ({ kind: 'rope', length: 4096, dim: 128, rope_scaling });
  it.each([
    ['linear factor 1e-40 (gave +Infinity angles)', { rope_type: 'linear', factor: 1e-40 }, 'rope_scaling.factor'],
    ['yarn factor 1e-40', { rope_type: 'yarn', factor: 1e-40 }, 'rope_scaling.factor'],
    ['factor 1e-310 (a generic kernel status)', { rope_type: 'linear', factor: 1e-310 }, 'rope_scaling.factor'],
    ['attention_factor above 3.4e38', { rope_type: 'yarn', factor: 4, attention_factor: 1e39 }, 'rope_scaling.attention_factor'],
    ['tiny yarn betas', { rope_type: 'yarn', factor: 4, beta_fast: 1e-300, beta_slow: 1e-301 }, 'rope_scaling.beta_fast'],
    ['huge mscale (was blamed on factor)', { rope_type: 'yarn', factor: 4, mscale: 1e300, mscale_all_dim: 1 }, 'rope_scaling.mscale'],
  ])('%s', (_, scaling, param) => {
    const e = expectPEError(() => pe.compute(rope(scaling)));
    expect(e.param).toBe(param);
    expect(e.message).not.toMatch(/kernel status/);
    expect(e.message).toMatch(/must be/);
  });

  it('the most a valid factor can do is still finite', () => {
    for (const factor of [1e-6, 1e6]) {
      for (const rope_type of ['linear', 'ntk', 'dynamic', 'yarn']) {
        const r = pe.compute({ kind: 'rope', length: 2 ** 20, dim: 4, rope_scaling: { rope_type, factor }, max_position_embeddings: 4096 });
        expect(r.data.every(Number.isFinite) && r.inv_freq.every(Number.isFinite) && Number.isFinite(r.attention_factor), `${rope_type} ${factor}`).toBe(true);
      }
    }
  });

  it('a link with a factor of 1e-40 opens the kind, drops rope_scaling and says so', () => {
    const d = decodePermalink('#v1/rope?length=64&rope_scaling=(rope_type:linear,factor:1e-40)');
    expect(d.status).toBe('ok');
    expect(d.spec.rope_scaling).toBe(null);
    expect(d.spec.length).toBe(64);
    expect(d.dropped).toEqual([{
      key: 'rope_scaling',
      detail: expect.stringMatching(/rope_scaling\.factor must be/),
      why: { code: 'value', param: 'rope_scaling.factor', expected: expect.objectContaining({ type: 'number', min: 1e-6, max: 1e6 }), got: 1e-40 },
    }]);
  });

  it('hidden_size 1e308 is reported on hidden_size, a key of the config (not on dim)', () => {
    const e = expectPEError(() => fromHFConfig({ hidden_size: 1e308, num_attention_heads: 32 }));
    expect(e.param).toBe('hidden_size');
    expect(e.message).toMatch(/^hidden_size \/ num_attention_heads gives the head dimension/);
  });
});

describe('3: a pasted rope_scaling without rope_type is not applied silently', () => {
  it('applies the rest of the config and says why the scaling was left out', () => {
    const r = fromHFConfig({ hidden_size: 4096, num_attention_heads: 32, rope_theta: 500000, rope_scaling: { factor: 8 } });
    expect(r.spec.rope_scaling).toBe(null);
    expect(r.spec.base).toBe(500000);
    const note = r.notes.find((n) => /rope_type/.test(n.en));
    expect(note.en).toMatch(/gives factor but no rope_type \(or type\), so it is not applied/);
    expect(note.ko).toMatch(/rope_type\(또는 type\)이 없어 적용하지 않았습니다/);
  });
});

describe('4, 6: a spec is read once, and hostile objects give PEErrors', () => {
  it('a getter that answers one kind, then another, is computed as the kind that was validated', () => {
    let reads = 0;
    const spec = { get kind() { reads += 1; return reads === 1 ? 'sinusoidal' : 'alibi'; }, length: 4, dim: 4 };
    const r = pe.compute(spec);
    expect(r.spec.kind).toBe('sinusoidal');
    expect(r.shape).toEqual([4, 4]);
    expect(reads).toBe(1);
  });

  it.each([
    ['a throwing getter', () => pe.compute({ kind: 'sinusoidal', get length() { throw new Error('boom'); }, dim: 4 }), 'length'],
    ['a revoked Proxy as the spec', () => { const r = Proxy.revocable({ kind: 'sinusoidal' }, {}); r.revoke(); return pe.compute(r.proxy); }, 'spec'],
    ['a revoked Proxy as rope_scaling', () => {
      const r = Proxy.revocable({ rope_type: 'linear', factor: 2 }, {});
      r.revoke();
      return pe.compute({ kind: 'rope', length: 4, dim: 8, rope_scaling: r.proxy });
    }, 'rope_scaling'],
    ['a sparse segments list', () => {
      const segments = [{ type: 'text', length: 3 }];
      segments.length = 3;
      return pe.compute({ kind: 'mrope', segments });
    }, 'segments[1]'],
    ['a spec that contains itself', () => { const s = { kind: 'rope', length: 4, dim: 8 }; s.rope_scaling = s; return pe.compute(s); }, 'rope_scaling'],
    ['a detached buffer to loadMatrix', () => { const b = new ArrayBuffer(16); structuredClone(b, { transfer: [b] }); return pe.loadMatrix(b); }, 'bytes'],
    ['a revoked Proxy to applyRope', () => { const r = Proxy.revocable({}, {}); r.revoke(); return pe.applyRope(new Float32Array(8), r.proxy); }, 'spec'],
    ['a throwing getter in colorize options', () => pe.colorize(new Float32Array(4), { get map() { throw new Error('x'); } }), 'options.map'],
  ])('%s', (_, fn, param) => {
    expectPEError(fn, param);
    // The module is still usable afterwards.
    expect(pe.compute({ kind: 'sinusoidal', length: 2, dim: 2 }).data[2]).toBe(Math.fround(Math.sin(1)));
  });
});

describe('7: code export writes U+2028 and U+2029 so that Python reads them back', () => {
  it.skipIf(!existsSync('/usr/bin/python3') || process.env.PE_TEST_QUICK)('round-trips every awkward character through Python', () => {
    const text = 'a\u2028b\u2029c\u0000d\u007f한\'"\\\n\r\t';
    const r = spawnSync('/usr/bin/python3', ['-c', `import sys; s = ${py(text)}; sys.stdout.write(repr([ord(c) for c in s]))`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([...text].map((c) => c.codePointAt(0)));
    expect(py('\u2028')).toBe("'\\u2028'");
  });
});

describe('8: a .safetensors header with a repeated name or overlapping data_offsets is refused', () => {
  /** A .safetensors file in memory: 8-byte little-endian header length, the JSON, the data. */
  function safetensors(entries, dataBytes) {
    const header = new TextEncoder().encode(typeof entries === 'string' ? entries : JSON.stringify(entries));
    const file = new Uint8Array(8 + header.length + dataBytes);
    new DataView(file.buffer).setBigUint64(0, BigInt(header.length), true);
    file.set(header, 8);
    const values = new Float32Array(dataBytes / 4).map((_, k) => k + 1);
    file.set(new Uint8Array(values.buffer), 8 + header.length);
    return file;
  }
  const f32 = (rows, cols, begin) => ({ dtype: 'F32', shape: [rows, cols], data_offsets: [begin, begin + 4 * rows * cols] });

  it('a repeated name: refused as a file error, whether a name is asked or not, and never listed', () => {
    // JSON.stringify cannot write a key twice: the text is written by hand (the second "wpe" escaped).
    const file = safetensors('{"wpe":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]},'
      + '"w\\u0070e":{"dtype":"F32","shape":[1,2],"data_offsets":[8,16]}}', 16);
    for (const options of [undefined, { name: 'wpe' }]) {
      const e = expectPEError(() => pe.loadMatrix(file, options), 'bytes', 'the tensor name "wpe" appears 2 times in the .safetensors header');
      expect(e.names).toBeUndefined();   // no list of names to choose from
    }
  });

  it('overlapping data_offsets: refused, naming both tensors and their ranges', () => {
    const file = safetensors({ a: f32(2, 2, 0), b: f32(2, 2, 8) }, 24);
    for (const options of [undefined, { name: 'a' }, { name: 'b' }]) {
      expectPEError(() => pe.loadMatrix(file, options), 'bytes', 'tensor "b": data_offsets [8, 24] overlap those of tensor "a" [0, 16]');
    }
  });

  it('touching ranges are not an overlap: both tensors load', () => {
    const file = safetensors({ a: f32(1, 2, 0), b: f32(1, 2, 8) }, 16);
    expect([...pe.loadMatrix(file, { name: 'a' }).data]).toEqual([1, 2]);
    expect([...pe.loadMatrix(file, { name: 'b' }).data]).toEqual([3, 4]);
  });

  it('a normal multi-tensor file: lists its names when none is given, loads each by name', () => {
    const file = safetensors({ __metadata__: { format: 'pt' }, 'wte.weight': f32(3, 2, 0), 'wpe.weight': f32(2, 2, 24), 'ln.bias': f32(1, 1, 40) }, 44);
    const e = expectPEError(() => pe.loadMatrix(file), 'name', /holds 3 tensors: pick one by name/);
    expect(e.names).toEqual(['wte.weight', 'wpe.weight', 'ln.bias']);
    const r = pe.loadMatrix(file, { name: 'wpe.weight' });
    expect(r.shape).toEqual([2, 2]);
    expect([...r.data]).toEqual([7, 8, 9, 10]);
    expect(pe.loadMatrix(file, { name: 'ln.bias' }).data[0]).toBe(11);
  });
});

describe('10: one bad field in a link drops that field, not the link', () => {
  it.each([
    ['#v1/rope?dim=abc&base=500000', 'rope', { base: 500000, dim: 128 }, 'dim'],
    ['#v1/sinusoidal?dim=1e999&length=7', 'sinusoidal', { length: 7, dim: 64 }, 'dim'],
    ['#v1/alibi?length=24&heads=0', 'alibi', { length: 24, heads: 8 }, 'heads'],
    ['#v1/rope?length=64&~map=hotpink', 'rope', { length: 64 }, '~map'],
    ['#v1/t5?length=16&nope=3', 't5', { length: 16 }, 'nope'],
  ])('%s', (hash, kind, kept, droppedKey) => {
    const d = decodePermalink(hash);
    expect(d.status).toBe('ok');
    expect(d.kind).toBe(kind);
    expect(d.spec).toMatchObject(kept);
    expect(d.dropped.map((x) => x.key)).toEqual([droppedKey]);
    expect(d.dropped[0].detail.length).toBeGreaterThan(5);
  });

  it('a link whose kind is unknown is still refused whole', () => {
    expect(decodePermalink('#v1/nope?dim=3').status).toBe('error');
  });
});

describe('link notices say why in the page\'s language (the Korean notice quoted the English validator)', () => {
  const ko = translator('ko');
  const en = translator('en');
  const items = (t, hash) => {
    const d = decodePermalink(hash);
    return d.status === 'ok' ? d.dropped.map((x) => t('share.notice.item', x.key, reasonText(t, x))).join('; ') : reasonText(t, d);
  };
  const HANGUL = /[\uac00-\ud7a3]/;
  // English words of the validator and the link reader that must not reach a Korean notice.
  const ENGLISH = /\b(must|got|integer|number|one of|is not|unknown|missing|character|expected|required|field|comparison|link)\b/;

  it('a PEError carries what its field allows and the value given, as data', () => {
    const e = expectPEError(() => pe.compute({ ...pe.defaults('rope'), dim: 'abc' }), 'dim');
    expect(e.expected).toEqual({ type: 'int', nullable: false, min: 2, max: 16384, exclusiveMin: false });
    expect(e.got).toBe('abc');
    expect(e.message).toBe('dim must be an integer in [2, 16384], got "abc" (a string)');   // unchanged
    const f = expectPEError(() => pe.compute({ ...pe.defaults('attention'), encoding: { kind: 'rope', base: 0 } }), 'encoding.base');
    expect(f.expected).toMatchObject({ type: 'number', min: 1, exclusiveMin: true });
    expect(f.got).toBe(0);
  });

  it('the Korean notice composes the reason in Korean; the English one keeps the API message', () => {
    expect(items(ko, '#v1/rope?dim=abc&base=500000')).toBe('dim(2 이상 16384 이하의 정수여야 합니다. 링크의 값은 “abc”입니다)');
    expect(items(en, '#v1/rope?dim=abc&base=500000')).toBe('dim (dim must be an integer in [2, 16384], got "abc" (a string))');
    expect(items(ko, '#v1/rope?rope_scaling=(rope_type:linear,factor:1e-40)'))
      .toBe('rope_scaling(rope_scaling.factor: 0.000001 이상 1000000 이하의 유한한 수여야 합니다. 링크의 값은 1e-40입니다)');
    expect(items(ko, '#v1/rope?layout=zig')).toBe('layout("half", "interleaved" 중 하나여야 합니다. 링크의 값은 “zig”입니다)');
  });

  it.each([
    '#v1/rope?dim=abc', '#v1/rope?base=0', '#v1/rope?layout=zig', '#v1/rope?rope_scaling=5', '#v1/rope?rope_scaling=(rope_type:yarn,factor:1e-40)',
    '#v1/rope?dim=(a:', '#v1/rope?dim=!x', '#v1/rope?dim=1e999', "#v1/rope?dim='abc", '#v1/rope?dim=1)', '#v1/rope?rope_scaling=(__proto__:1)',
    '#v1/rope?nope=3', '#v1/rope?dim', '#v1/rope?~map=pink', '#v1/rope?~tf=x', '#v1/rope?~cols=a', '#v1/rope?~lang=xx', '#v1/rope?~head=-1',
    '#v1/rope?~cols=1&~rows=2', '#v1/rope?~cmp=5', '#v1/rope?~cmp=(nope:1)', '#v1/rope?~cmp=(base:-1)', '#v1/rope?~x.__proto__=1',
    '#v1/attention?encoding=(kind:nope)', '#v1/attention?encoding=(kind:rope,base:0)', '#v1/mrope?segments=!((type:text))',
    '#v1/rope?dim=64&dim=32', '#v1/rope?dim=%zz', '#???', '#sinusoidal?nope=1', '#rope?rope_scaling=%7Bx', `#v1/rope?${'a'.repeat(262145)}`,
  ])('%s: Korean words only', (hash) => {
    const text = items(ko, hash);
    expect(text, hash).toMatch(HANGUL);
    // Quoted text is the link's own (values, names of kinds): the rest must be Korean.
    expect(text.replace(/“[^”]*”|"[^"]*"/g, ''), hash).not.toMatch(ENGLISH);
  });
});

describe('13: the local server answers only to its own names, compressed', () => {
  let server;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
    return () => server.close();
  });
  const get = (path, headers) => new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

  it('refuses a request whose Host is another name (DNS rebinding)', async () => {
    expect((await get('/', { host: 'attacker.example' })).status).toBe(421);
    expect((await get('/', { host: `attacker.example:${server.port}` })).status).toBe(421);
    expect((await get('/', { host: `127.0.0.1:${server.port + 1}` })).status).toBe(421);
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      expect((await get('/', { host })).status, host).toBe(200);
    }
  });

  it('sends brotli or gzip as the browser accepts, and the same bytes once decoded', async () => {
    const host = `127.0.0.1:${server.port}`;
    const plain = await get('/wasm/pe_simd.wasm', { host });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zlib = await import('node:zlib');
    const br = await get('/wasm/pe_simd.wasm', { host, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get('/index.html', { host, 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toMatch(/<html/);
  });

  it('lets the browser keep the content-named chunks, and revalidate every other file', async () => {
    const host = `127.0.0.1:${server.port}`;
    const { readdirSync } = await import('node:fs');
    const chunks = readdirSync(new URL('../web/dist/', import.meta.url)).filter((f) => /^[\w-]+-[A-Za-z0-9]{8}\.js$/.test(f));
    expect(chunks.length).toBeGreaterThan(3);
    for (const f of chunks.slice(0, 4)) {
      const res = await get(`/dist/${f}`, { host });
      expect(res.status, f).toBe(200);
      expect(res.headers['cache-control'], f).toBe('public, max-age=31536000, immutable');
      expect((await get(`/dist/${f}.map`, { host })).headers['cache-control'], `${f}.map`).toMatch(/immutable/);
    }
    // Named by what they are, not by their content: a rebuild changes them in place.
    for (const f of ['/index.html', '/dist/app.js', '/dist/lineplot.js', '/wasm/pe_simd.wasm', '/style.css', '/api/pe.js']) {
      expect((await get(f, { host })).headers['cache-control'], f).toBe('no-cache');
    }
  });
});
