// Moved to tests/helpers/browser.js; kept for bench/page.js, which imports this path.
export * from '../helpers/browser.js';
