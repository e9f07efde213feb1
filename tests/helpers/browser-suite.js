// The hooks every browser suite that shares one session would otherwise write again: let server;
// let browser; beforeAll(start), afterAll(close). A module of its own because it imports Vitest,
// which throws outside a test file, and tests/helpers/browser.js is also loaded by the globalSetup
// (tests/setup/chromium.js) and by bench/page.js.
import { beforeAll, afterAll } from 'vitest';
import { openPage, startBrowser } from './browser.js';
import { axeKit } from './axe.js';

/**
 * Registers, in the enclosing describe, a beforeAll that runs `start()` and an afterAll that closes
 * what it returned; returns an object whose getters `keys` read that session once beforeAll has run.
 * Called before the suite's own hooks, its beforeAll runs first and its afterAll last (Vitest runs
 * beforeAll hooks in order and afterAll hooks in reverse).
 */
function useSession(start, keys) {
  let session;
  beforeAll(async () => {
    session = await start();
  });
  afterAll(async () => {
    await session?.close();
  });
  const view = {};
  for (const key of keys) Object.defineProperty(view, key, { get: () => session?.[key], enumerable: true });
  return view;
}

/**
 * startBrowser(options) for the enclosing describe: returns { server, browser } (getters, set once
 * the suite's beforeAll has run); its afterAll stops both.
 */
export function useBrowser(options = {}) {
  return useSession(() => startBrowser(options), ['server', 'browser']);
}

/**
 * openPage(options) for the enclosing describe: returns { server, browser, context, page, log }
 * (getters, set once the suite's beforeAll has run); its afterAll closes them all.
 */
export function usePage(options = {}) {
  return useSession(() => openPage(options), ['server', 'browser', 'context', 'page', 'log']);
}

/**
 * usePage(options) with axe-core injected (tests/helpers/axe.js): returns { session, kit } where
 * kit holds check, open, drawEveryView and fullKinds once the suite's beforeAll has run; its
 * afterAll prints one line per audit.
 */
export function useAxePage(options = {}) {
  const session = usePage(options);
  const report = [];
  const kit = {};
  beforeAll(async () => {
    Object.assign(kit, await axeKit(session.page, session.server.url, report));
  });
  afterAll(() => {
    if (report.length) console.log(`\naxe-core\n${report.join('\n')}\n`);
  });
  return { session, kit };
}
