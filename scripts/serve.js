#!/usr/bin/env node
// A zero-dependency static server for the PE Lab page (web/), bound to 127.0.0.1.
// It answers only requests addressed to this machine by name (the Host header: 127.0.0.1,
// localhost or [::1] with its port), so a web page that rebinds its own domain to 127.0.0.1
// cannot read what it serves; and it sends text, scripts and WebAssembly compressed (brotli or
// gzip, as the browser accepts), each file compressed once and kept while it is unchanged.
// Files are cached by the browser but revalidated on every use (Cache-Control: no-cache with an
// ETag of the file's size and mtime): a rebuilt file is never served stale, and an unchanged one
// costs a 304 and keeps the browser's compiled code (V8's code cache, WebAssembly's compiled
// module cache), which the browser keeps only for cacheable responses. The bundle's chunks,
// named by their content hash, are kept without revalidation (HASHED below).
//
//   node scripts/serve.js            # port from $PORT or 8080; a free port if that one is taken
//   PORT=9000 node scripts/serve.js
//
// In-process use (tests):
//   import { startServer } from './scripts/serve.js';
//   const { url, port, close } = await startServer({ port: 0, root: 'web' });

import { createServer } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { promises as fsp, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_ROOT = path.resolve(HERE, '..', 'web');
export const HOST = '127.0.0.1';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.npy': 'application/octet-stream',
  '.safetensors': 'application/octet-stream',
};

/** Only same-origin resources; WebAssembly compilation needs 'wasm-unsafe-eval'. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page's ?embed mode is made to sit in other sites' iframes: its HTML may be framed by any
 * page (frame-ancestors *); everything else in the policy stays the same.
 */
export const EMBED_CSP = CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');

const BASE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Browser caching of files: kept, but revalidated with the ETag each time (never stale). */
const FILE_CACHE = 'no-cache';

/**
 * Files named by their content: the bundle's chunks, dist/<name>-<hash>.js (Rollup's content
 * hash, 8 characters, scripts/bundle.js) and their source maps. A change makes a new name, so
 * the browser may keep them for a year without asking: a reload then revalidates only
 * index.html, app.js, the style sheets and the module.
 */
export const HASHED = /^\/dist\/[\w-]+-[A-Za-z0-9]{8}\.js(\.map)?$/;
const HASHED_CACHE = 'public, max-age=31536000, immutable';

/** The validator of a file as sent: its size, modification time and content encoding. */
const etagOf = (stat, encoding) => `"${stat.size.toString(36)}-${Math.round(stat.mtimeMs).toString(36)}${encoding ? `-${encoding}` : ''}"`;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /^(text\/|application\/(json|wasm|javascript)|image\/svg)/;

/** Compressed bodies, by file and encoding; an entry is reused while the file's mtime and size hold. */
const packed = new Map();
async function compressed(file, stat, body, encoding) {
  const key = `${encoding}:${file}`;
  const hit = packed.get(key);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.data;
  const data = encoding === 'br'
    ? await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : await gzip(body, { level: 9 });
  packed.set(key, { mtimeMs: stat.mtimeMs, size: stat.size, data });
  return data;
}

/** The encoding to send: brotli, else gzip, when the request accepts it (q=0 refuses). */
function pickEncoding(accept = '') {
  const ok = (name) => new RegExp(`(^|,)\\s*${name}\\s*(;\\s*q=(?!0(\\.0*)?\\s*(,|$))[0-9.]+)?\\s*(,|$)`).test(accept);
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** Whether a Host header names this server: 127.0.0.1, localhost or [::1], with our port. */
export function allowedHost(host, port) {
  if (typeof host !== 'string') return false;
  const m = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d+))?$/i.exec(host.trim());
  return !!m && (m[2] === undefined ? port === 80 : Number(m[2]) === port);
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { ...BASE_HEADERS, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

/** Map a request path to a file inside root, or null if it would leave root. */
async function resolveFile(root, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  // Normalise as a POSIX URL path first, then join below root and check containment.
  rel = path.posix.normalize('/' + rel.replace(/\\/g, '/'));
  let file = path.resolve(root, '.' + rel);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  let stat;
  try {
    stat = await fsp.stat(file);
    if (stat.isDirectory()) {
      file = path.join(file, 'index.html');
      stat = await fsp.stat(file);
    }
  } catch {
    return { file: null };
  }
  if (!stat.isFile()) return { file: null };
  // Refuse symlinks that point outside root.
  const real = await fsp.realpath(file);
  if (real !== root && !real.startsWith(root + path.sep)) return null;
  return { file, size: stat.size, stat };
}

function handler(root, portOf) {
  return async (req, res) => {
    try {
      if (!allowedHost(req.headers.host, portOf())) {
        send(res, 421, 'Misdirected Request: this server answers only to 127.0.0.1, localhost and [::1]\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(res, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
        return;
      }
      const urlPath = (req.url || '/').split(/[?#]/)[0];
      const query = new URLSearchParams((req.url || '').split('#')[0].split('?')[1] ?? '');
      const found = await resolveFile(root, urlPath);
      if (found === null) {
        send(res, 403, 'Forbidden\n');
        return;
      }
      if (!found.file) {
        send(res, 404, 'Not Found\n');
        return;
      }
      const type = MIME[path.extname(found.file).toLowerCase()] || 'application/octet-stream';
      const embed = query.has('embed') && type.startsWith('text/html');
      const headers = { ...BASE_HEADERS, ...(embed ? { 'Content-Security-Policy': EMBED_CSP } : {}), 'Content-Type': type };
      const encoding = COMPRESSIBLE.test(type) && found.size > 512 ? pickEncoding(req.headers['accept-encoding']) : null;
      if (COMPRESSIBLE.test(type)) headers.Vary = 'Accept-Encoding';
      headers['Cache-Control'] = HASHED.test(urlPath) ? HASHED_CACHE : FILE_CACHE;
      headers.ETag = etagOf(found.stat, encoding);
      const match = req.headers['if-none-match'];
      if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === headers.ETag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      let body = await fsp.readFile(found.file);
      if (encoding) {
        body = await compressed(found.file, found.stat, body, encoding);
        headers['Content-Encoding'] = encoding;
      }
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? null : body);
    } catch (err) {
      send(res, 500, 'Internal Server Error\n');
      console.error(err);
    }
  };
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, HOST);
  });
}

/**
 * Start the static server. `port` 0 picks a free port; if the asked-for port is taken, a free one is used.
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>}>}
 */
export async function startServer({ port = 8080, root = DEFAULT_ROOT } = {}) {
  const absRoot = await fsp.realpath(path.resolve(root));
  let actual;
  const server = createServer(handler(absRoot, () => actual));
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  try {
    actual = await listen(server, Number(port) || 0);
  } catch (err) {
    if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
    actual = await listen(server, 0);
  }
  const url = `http://${HOST}:${actual}/`;
  const close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return { url, port: actual, close };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const port = process.env.PORT !== undefined && process.env.PORT !== '' ? Number(process.env.PORT) : 8080;
  for (const f of ['dist/app.js', 'wasm/pe_simd.wasm', 'wasm/pe_scalar.wasm']) {
    if (!existsSync(path.join(DEFAULT_ROOT, f))) console.warn(`warning: web/${f} is missing; run \`bash build.sh\` first`);
  }
  const { url, port: actual } = await startServer({ port });
  if (port && actual !== port) console.log(`Port ${port} is taken; using ${actual} instead.`);
  console.log(`PE Lab running at ${url}`);
}
