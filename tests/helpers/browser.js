// Shared helpers for the browser tests (tests/browser/) and the page benchmark (bench/page.js, through
// tests/browser/helpers.js): the system Chromium through playwright-core (never a downloaded
// browser), with everything that could reach the network switched off; the static server on web/;
// startBrowser()/openPage(), the set-up the browser suites share (tests/helpers/browser-suite.js
// runs it in a describe's hooks); and the waits, screenshots and log checks they have in common.
// Functions handed to page.evaluate/waitForFunction run in the page, hence these browser globals:

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.js';

/** The repository root, the served web/ folder, and tests/artifacts/ where suites save screenshots. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB = path.join(ROOT, 'web');
export const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests can run: { run: true } or { run: false, reason }. Without Chromium the
 * tests are skipped, unless CI is set, in which case they fail.
 */
export function browserAvailability() {
  if (existsSync(CHROMIUM)) return { run: true };
  const mustFail = !!process.env.CI;
  const reason = mustFail
    ? `${CHROMIUM} not found and CI is set: the browser tests cannot run (apt-get install chromium)`
    : `${CHROMIUM} not found: browser tests skipped (apt-get install chromium; with CI set this fails)`;
  return { run: false, mustFail, reason };
}

/**
 * browserAvailability() for one suite file, plus `skip` for describe.skipIf: true when Chromium is
 * missing and CI is not set, in which case the reason is printed once, tagged with `name`.
 */
export function suiteAvailability(name) {
  const avail = browserAvailability();
  const skip = !avail.run && !avail.mustFail;
  if (skip) console.warn(`[${name}] ${avail.reason}`);
  return { ...avail, skip };
}

/** The build outputs the page needs (relative to web/); `bash build.sh` writes them. */
export const BUILD_FILES = ['pe.js', 'wasm/pe_simd.wasm', 'wasm/pe_scalar.wasm'];

/** Throws, naming the first missing one, unless every file of `files` (relative to web/) exists. */
export function requireBuild(files = BUILD_FILES) {
  for (const f of files) {
    if (!existsSync(path.join(WEB, f))) throw new Error(`web/${f} is missing: run \`bash build.sh\` first`);
  }
}

/**
 * How long a test waits for a condition the page announces (data-state, data-drawn, …) before it
 * fails. Long on purpose: waits end when the condition holds, so on an idle machine they cost
 * nothing, and on a busy one (load 12 on 2 cores) a view may take many seconds to draw.
 */
export const WAIT_MS = 90_000;

/**
 * The system Chromium; every context it opens (browser.newContext, browser.newPage) waits up to
 * WAIT_MS by default instead of Playwright's 30 s.
 */
export async function launchChromium() {
  return withWaitDefaults(await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: WAIT_MS }));
}

/**
 * Under Vitest, the run's shared Chromium (tests/setup/chromium.js launches it once): a new
 * connection to it, whose close() closes only this connection's contexts. Elsewhere (bench/page.js,
 * PE_TEST_OWN_BROWSER=1) or when the connection fails, a Chromium of its own (launchChromium).
 */
export async function connectChromium() {
  if (process.env.VITEST && !process.env.PE_TEST_OWN_BROWSER) {
    const { inject } = await import('vitest');
    const endpoint = inject('chromiumEndpoint');
    if (endpoint) {
      try {
        return withWaitDefaults(await chromium.connect(endpoint, { timeout: WAIT_MS }));
      } catch (e) {
        console.warn(`the run's shared Chromium did not answer (${e.message.split('\n')[0]}): launching one for this suite`);
      }
    }
  }
  return launchChromium();
}

function withWaitDefaults(browser) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once('close', () => context.close().catch(() => {}));
    return page;
  };
  return browser;
}

/**
 * Loads `url` in `page` and waits until the app has started: until <html data-state> is `state`
 * ('ready' by default), or, with `state` null, until it has any value (the caller checks which).
 */
export async function gotoApp(page, url, { state = 'ready' } = {}) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction((s) => {
    const now = document.documentElement.dataset.state;
    return s === null ? !!now : now === s;
  }, state);
}

/**
 * The set-up every browser suite shares: fails with the reason when Chromium is missing (the suite
 * runs only then when CI is set), checks the build (`files`, see requireBuild), creates
 * tests/artifacts/, starts the static server on web/ (a free port) and connects to Chromium
 * (connectChromium: the run's shared one under Vitest).
 * Returns { server, browser, close }: close() stops the browser and the server. If a step fails,
 * what was started is stopped before the error is thrown.
 */
export async function startBrowser({ avail = browserAvailability(), files = BUILD_FILES } = {}) {
  if (!avail.run) throw new Error(avail.reason);
  requireBuild(files);
  mkdirSync(ARTIFACTS, { recursive: true });
  let server;
  let browser;
  const close = async () => {
    await browser?.close();
    await server?.close();
  };
  try {
    server = await startServer({ port: 0, root: WEB });
    browser = await connectChromium();
    return { server, browser, close };
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
}

/**
 * startBrowser, then a page in a new context (1280 × 900, en-US, light; `context` overrides any
 * option), watched (watchPage). With `url`, a path such as '?lang=en#rope' relative to the server,
 * the page loads it and waits for `state` (see gotoApp).
 * Returns { server, browser, context, page, log, close }; on a failure everything is stopped first.
 */
export async function openPage({ avail = browserAvailability(), url, state = 'ready', context: options = {} } = {}) {
  const session = await startBrowser({ avail });
  try {
    const context = await session.browser.newContext({
      viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', colorScheme: 'light', ...options,
    });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    if (url !== undefined) await gotoApp(page, `${session.server.url}${url}`, { state });
    return { ...session, context, page, log };
  } catch (e) {
    await session.close().catch(() => {});
    throw e;
  }
}

/**
 * Whether screenshot() writes its picture: yes, except under CI=true, where the clone and its
 * tests/artifacts/ are thrown away after the run and the pictures (about a quarter of a browser
 * suite's time) would be made for nobody. PE_TEST_SHOTS=1 or 0 decides instead.
 */
export const SAVE_SHOTS = process.env.PE_TEST_SHOTS ? process.env.PE_TEST_SHOTS !== '0' : !process.env.CI;

/**
 * Saves tests/artifacts/<name>.png: the element `selector`, or the whole page without one; `options`
 * go to Playwright's screenshot (a clip, …). Without SAVE_SHOTS, only what a screenshot would
 * have checked: the element is there, visible and of some size.
 */
export async function screenshot(page, name, selector = null, options = {}) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (!SAVE_SHOTS) {
    if (!selector) return;
    const el = page.locator(selector);
    await el.waitFor({ state: 'visible' });
    const box = await el.boundingBox();
    if (!box || box.width < 1 || box.height < 1) throw new Error(`screenshot ${name}: ${selector} has no size (${JSON.stringify(box)})`);
    return;
  }
  await (selector
    ? page.locator(selector).screenshot({ path: file, ...options })
    : page.screenshot({ path: file, fullPage: true, ...options }));
}

/**
 * Waits and timings for the family views of the page that `getPage()` returns (a getter: suites
 * open their page in beforeAll). `views` lists the view ids whose update(state) time setField
 * records. Returns { dataOf, drawn, drawnAfter, renders, showKind, setField, timingLines }.
 */
export function viewKit(getPage, { views = [] } = {}) {
  /** A data-* value of a view's body. */
  const dataOf = (sel, key) => getPage().evaluate(([s, k]) => document.querySelector(`${s} .view-body`)?.dataset[k], [sel, key]);
  /** How many times a view has drawn. */
  const drawn = async (sel) => Number((await dataOf(sel, 'drawn')) || 0);
  /** Scroll a view into sight (views draw only on screen) and wait until it has drawn more than n times. */
  async function drawnAfter(sel, n = 0) {
    await waitDrawn(getPage(), sel, n);
  }
  /** How many times the page has rendered (recomputed). */
  const renders = () => getPage().evaluate(() => Number(document.getElementById('main')?.dataset.renders || 0));
  /** Show a kind through the catalogue (nothing when it is already shown). */
  async function showKind(kind) {
    const page = getPage();
    if (await page.evaluate((k) => document.getElementById('main')?.dataset.kind === k, kind)) return;
    await page.click(`#catalogue a[data-kind="${kind}"]`);
    await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k, kind);
  }
  const samples = new Map(); // 'scenario · view' → update times (ms) of the changes made there
  /**
   * Set a parameter field and wait for the page to recompute and the view `sel` to draw (a new
   * shape remounts it). With a scenario name, records how long the view drew and how long each
   * view of `views` on the page took in update(state).
   */
  async function setField(id, value, sel, scenario = null) {
    const page = getPage();
    // The view's body and draw count now: a new shape remounts the view (a new body, counting from 0).
    await page.evaluate((s) => {
      const el = document.querySelector(`${s} .view-body`);
      window.__viewWatch = { el, n: Number(el?.dataset.drawn || 0) };
    }, sel);
    const n = await renders();
    await page.fill(`#${id}`, String(value));
    await page.waitForFunction((k) => Number(document.getElementById('main')?.dataset.renders || 0) > k, n);
    // Kept in sight while waiting (see waitDrawn): views draw only on screen.
    await page.waitForFunction((s) => {
      const el = document.querySelector(`${s} .view-body`);
      const w = window.__viewWatch;
      if (el && Number(el.dataset.drawn || 0) > (el === w.el ? w.n : 0)) return true;
      const section = document.querySelector(s);
      const fold = section?.querySelector(':scope > details.view-fold');
      if (fold && !fold.open) fold.open = true;
      if (section) {
        const r = section.getBoundingClientRect();
        if (r.bottom < 0 || r.top > window.innerHeight) section.scrollIntoView({ block: 'start' });
      }
      return false;
    }, sel);
    if (!scenario) return;
    const r = await page.evaluate(([s, ids]) => ({
      draw: Number(document.querySelector(`${s} .view-body`).dataset.ms),
      updates: Object.entries(window.__peLab.viewMs)
        .filter(([v]) => ids.includes(v) && document.getElementById(`view-${v}`))
        .map(([v, xs]) => [v, xs[xs.length - 1]]),
    }), [sel, views]);
    const add = (key, ms) => {
      if (!samples.has(key)) samples.set(key, []);
      samples.get(key).push(ms);
    };
    add(`${scenario.padEnd(34)} ${sel.slice(6)} draw`, r.draw);
    for (const [v, ms] of r.updates) add(`${scenario.padEnd(34)} ${v} update()`, ms);
  }
  /** One line per recorded scenario and view: median and minimum time. */
  const timingLines = () => [...samples].map(([key, xs]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    return `  ${key.padEnd(62)} median ${sorted[Math.floor(sorted.length / 2)].toFixed(1).padStart(5)} ms, min ${sorted[0].toFixed(1).padStart(5)} ms (${xs.length} changes)`;
  });
  return { dataOf, drawn, drawnAfter, renders, showKind, setField, timingLines };
}

/** True for URLs the page may load: the local server, and inline data/blob URLs. */
export function isLocalUrl(url, origin) {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    const u = new URL(url);
    return u.origin === origin && u.hostname === '127.0.0.1';
  } catch {
    return false;
  }
}

/**
 * Record console errors, page errors, failed requests, HTTP errors and non-local requests of a page;
 * non-local requests are also aborted so nothing leaves the machine.
 */
export async function watchPage(page, origin) {
  const log = { consoleErrors: [], pageErrors: [], failedRequests: [], httpErrors: [], external: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => log.pageErrors.push(String(e)));
  page.on('requestfailed', (r) => log.failedRequests.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) log.httpErrors.push(`${r.status()} ${r.url()}`);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocalUrl(url, origin)) return route.continue();
    log.external.push(url);
    return route.abort('blockedbyclient');
  });
  return log;
}

/** The lists of a watchPage log that logProblems checks by default: page and console errors, non-local requests, HTTP errors. */
export const CLEAN_LOG = ['pageErrors', 'consoleErrors', 'external', 'httpErrors'];

/**
 * The lists `keys` of a watchPage log that are not empty, by name: {} for a clean page, so a test
 * expects `logProblems(log)` toEqual({}) (no vitest import here: bench/page.js loads this module).
 */
export function logProblems(log, keys = CLEAN_LOG) {
  return Object.fromEntries(keys.filter((k) => !(Array.isArray(log[k]) && log[k].length === 0)).map((k) => [k, log[k]]));
}

/** Pixel statistics of a canvas: distinct colours and a hash of the RGBA bytes. */
export async function canvasStats(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    if (!c) return null;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let hash = 2166136261;
    let painted = 0;
    for (let i = 0; i < px.length; i += 4) {
      const v = ((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]) >>> 0;
      if (colours.size < 100000) colours.add(v);
      if (px[i + 3]) painted++;
      hash = Math.imul(hash ^ v ^ (px[i + 3] << 24), 16777619) >>> 0;
    }
    return { width: c.width, height: c.height, distinct: colours.size, painted, hash };
  }, selector);
}

/** Resolves after two animation frames of the page: whatever a change scheduled has been drawn. */
export function nextFrames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/**
 * Clicks an element once it holds still. On a busy machine the views above it may still be
 * redrawing and changing height; a shift between Playwright's scroll and its click sends the click
 * elsewhere. Scrolls the element to the middle, waits until its position is the same two frames
 * apart, then clicks.
 */
export async function clickSteady(page, selector) {
  await page.locator(selector).first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((sel) => new Promise((resolve) => {
    const top = () => document.querySelector(sel)?.getBoundingClientRect().top;
    const before = top();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(before !== undefined && top() === before)));
  }), selector);
  await page.click(selector);
}

/**
 * Waits until the view `section`'s body has data-`key` equal to String(value) (without a value:
 * any non-empty one), keeping the view in sight meanwhile:
 * views off screen do not update, and a fill or click elsewhere may have scrolled it away.
 */
export function waitViewData(page, section, key, value) {
  return page.waitForFunction(([s, k, v]) => {
    const el = document.querySelector(s);
    const got = el?.querySelector('.view-body')?.dataset[k];
    if (v === null ? !!got : got === v) return true;
    if (el) {
      const r = el.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) el.scrollIntoView({ block: 'start' });
    }
    return false;
  }, [section, key, value === undefined ? null : String(value)]);
}

/** Waits until the view `section`'s body has a non-empty data-`key` (a worker's "done", say), as waitViewData does. */
export const waitViewSet = (page, section, key) => waitViewData(page, section, key);

/**
 * Runs `wait()` (a page.waitForFunction …) while keeping `selector` in sight: views draw only on
 * screen, and a single scroll is not enough on a busy machine, where the page can still grow above
 * the element (late views mounting) and push it out of sight again. Returns what `wait()` returns.
 */
export async function inSight(page, selector, wait) {
  const scroll = () => page.evaluate((s) => {
    const el = document.querySelector(s);
    const r = el?.getBoundingClientRect();
    if (r && (r.bottom < 0 || r.top > window.innerHeight)) el.scrollIntoView({ block: 'start' });
  }, selector).catch(() => {});
  let waiting = true;
  const keeper = (async () => {
    while (waiting) {
      await scroll();
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    return await wait();
  } finally {
    waiting = false;
    await keeper;
  }
}

/**
 * Waits until the view `section` (a selector of its <section>) has drawn more than `n` times
 * (data-drawn of its .view-body), keeping it on screen while waiting: views draw only in sight,
 * and on a busy machine the page can still grow above the section after a single scroll (lazy
 * views mounting), which would push it out of sight again.
 */
export function waitDrawn(page, section, n = 0) {
  return page.waitForFunction(([s, k]) => {
    const el = document.querySelector(s);
    const body = el?.querySelector('.view-body');
    if (Number(body?.dataset.drawn || 0) > k) return true;
    // An advanced view is folded until opened (web/app/views.js ADVANCED): open it to draw.
    const fold = el?.querySelector(':scope > details.view-fold');
    if (fold && !fold.open) fold.open = true;
    if (el) {
      const r = el.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) el.scrollIntoView({ block: 'start' });
    }
    return false;
  }, [section, n]);
}
