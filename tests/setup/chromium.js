// Vitest global setup: one Chromium for the whole run. Launching the browser costs seconds (more
// on a busy machine) and every browser suite used to launch its own; now each suite connects to
// this one (tests/helpers/browser.js startBrowser) and opens its own contexts in it, which are
// as isolated from each other as separate browsers (cookies, storage, permissions, viewport).
// The endpoint reaches the test workers through provide/inject. Without Chromium nothing is
// launched: the suites then skip or fail on their own, with the reason.
import { chromium } from 'playwright-core';
import { browserAvailability, CHROMIUM, CHROMIUM_ARGS, WAIT_MS } from '../helpers/browser.js';

export default async function setup({ provide }) {
  // npm run test:quick runs no browser suite (PE_TEST_QUICK): nothing to launch.
  if (process.env.PE_TEST_QUICK || process.env.PE_TEST_OWN_BROWSER || !browserAvailability().run) return undefined;
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: WAIT_MS });
  provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
