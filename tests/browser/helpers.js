// Shared helpers for the browser tests: the system Chromium through playwright-core (never a downloaded
// browser), with everything that could reach the network switched off.

import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

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
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: WAIT_MS });
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
