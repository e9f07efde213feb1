// Browser tests of the page host (web/app/pages.js): the sections beside the explorer (#learn,
// #arena) open from a link, keep the explorer's state while away, switch language in place and
// write the language into their route. What each page shows is tested in its own suite.
//   npx vitest run tests/browser/pages.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, gotoApp, logProblems } from '../helpers/browser.js';

const avail = suiteAvailability('pages.test');

describe.skipIf(avail.skip)('pages beside the explorer, in Chromium', () => {
  let page;
  let log;
  let close;
  let base;

  beforeAll(async () => {
    let server;
    ({ page, log, close, server } = await openPage({ avail }));
    base = server.url;
  });
  afterAll(async () => {
    await close?.();
  });

  // On a timeout, say what the page host was showing instead.
  const pageReady = (id) => page.waitForFunction((p) => document.documentElement.dataset.page === p
    && document.documentElement.dataset.pageState === 'ready', id).catch(async (err) => {
    const seen = await page.evaluate(() => ({
      hash: location.hash,
      page: document.documentElement.dataset.page,
      state: document.documentElement.dataset.pageState,
      host: document.getElementById('page')?.textContent.slice(0, 200),
    })).catch(() => null);
    throw new Error(`page ${id} not ready: ${JSON.stringify(seen)}; ${err.message}`);
  });
  const current = () => page.getAttribute('#sections [aria-current="page"]', 'data-section');

  it.each(['learn', 'arena'])('a link to #%s opens that page, the explorer hidden', async (id) => {
    await gotoApp(page, `${base}?lang=en#${id}`);
    await pageReady(id);
    expect(await current()).toBe(id);
    expect(await page.isVisible('#page')).toBe(true);
    expect(await page.isHidden('.layout')).toBe(true);
    expect(await page.textContent(`#sections [data-section="${id}"]`)).toBe(id === 'learn' ? 'Learn' : 'Arena');
  });

  it('goes back to the explorer as it was left, and back again with the browser history', async () => {
    await gotoApp(page, `${base}?lang=en#v1/rope?base=20000`);
    expect(await current()).toBe('explorer');
    await page.click('#sections [data-section="learn"]');
    await pageReady('learn');
    expect(page.url()).toMatch(/#learn$/);
    // The explorer link holds the explorer's state.
    expect(await page.getAttribute('#sections [data-section="explorer"]', 'href')).toContain('base=20000');
    await page.click('#sections [data-section="explorer"]');
    await page.waitForFunction(() => !document.documentElement.dataset.page && !document.querySelector('.layout').hidden);
    expect(await page.getAttribute('#main', 'data-kind')).toBe('rope');
    await page.waitForFunction(() => Number(document.querySelector('input[id$="base"]')?.value) === 20000);
    await page.goBack();
    await pageReady('learn');
    await page.goBack();
    await page.waitForFunction(() => !document.documentElement.dataset.page);
    expect(await page.getAttribute('#main', 'data-kind')).toBe('rope');
  });

  it('a page\'s link to the explorer at its defaults draws the explorer (it was never drawn)', async () => {
    await gotoApp(page, `${base}?lang=en#learn`);
    await pageReady('learn');
    await page.evaluate(() => { location.hash = '#v1/sinusoidal'; });
    await page.waitForFunction(() => !document.documentElement.dataset.page && Number(document.getElementById('main').dataset.renders) > 0);
    expect(await page.getAttribute('#main', 'data-kind')).toBe('sinusoidal');
  });

  it('switches language in place and writes it into the route; a link carries it', async () => {
    await gotoApp(page, `${base}?lang=en#arena`);
    await pageReady('arena');
    await page.click('#lang [lang="ko"]');
    await page.waitForFunction(() => location.hash === '#arena?~lang=ko');
    await pageReady('arena');
    expect(await page.textContent('#sections [data-section="arena"]')).toBe('아레나');
    expect(await page.getAttribute('html', 'lang')).toBe('ko');
    // A fresh load of a Korean link, from an English browser.
    await gotoApp(page, `${base}#learn?~lang=ko`);
    await pageReady('learn');
    expect(await page.getAttribute('html', 'lang')).toBe('ko');
    expect(await page.textContent('#sections [data-section="learn"]')).toBe('배우기');
  });

  // The skip link was "#main", a fragment the router reads as a route: on Learn it left the page.
  it.each([
    ['learn', 'en', '#learn', 'page', 'Skip to the content'],
    ['arena', 'ko', '#arena', 'page', '본문으로 바로 가기'],
    ['explorer', 'en', '#rope', 'main', 'Skip to the explorer'],
  ])('the skip link on %s (%s) moves focus to what is shown and keeps the route', async (id, lang, hash, target, text) => {
    await gotoApp(page, `${base}?lang=${lang}${hash}`);
    if (id !== 'explorer') await pageReady(id);
    // The explorer writes its state into the address bar after it draws (#rope → #v1/rope).
    else await page.waitForFunction(() => location.hash.startsWith('#v1/'));
    const before = await page.evaluate(() => location.hash);
    expect(await page.textContent('#skip')).toBe(text);
    await page.focus('#skip');
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => document.activeElement?.id === t, target);
    expect(await page.evaluate(() => location.hash)).toBe(before);
    if (id === 'explorer') expect(await page.evaluate(() => document.documentElement.dataset.page)).toBeUndefined();
    else expect(await page.evaluate(() => document.documentElement.dataset.page)).toBe(id);
  });

  it('an unknown section is not a page: the explorer says the link is damaged and shows its defaults', async () => {
    await gotoApp(page, `${base}?lang=en#nosuchpage/step`);
    expect(await page.evaluate(() => document.documentElement.dataset.page)).toBeUndefined();
    expect(await page.isHidden('.layout')).toBe(false);
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(logProblems(log)).toEqual({});
  });
});
