// ESLint flat config: the recommended rules for every JS module of the project, with the globals
// each part runs under (the page and its workers in browsers, scripts/tests/benches in Node).
// npm test runs it (scripts/test.js, layer "lint"); a warning fails the run.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'web/dist/', 'web/dist.*/', 'web/wasm/', 'dist/', 'build/', 'tests/artifacts/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all' }],
    },
  },
  { files: ['web/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // pe.js also runs under Node (it reads the .wasm files with node:fs there).
  { files: ['web/api/pe.js'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  { files: ['web/**/*-worker.js'], languageOptions: { globals: { ...globals.worker } } },
  {
    files: ['scripts/**/*.js', 'tests/**/*.js', 'bench/**/*.js', '*.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Browser tests hand functions to page.evaluate: their bodies run in the page.
  { files: ['tests/browser/**/*.js', 'tests/helpers/browser.js', 'tests/helpers/axe.js', 'bench/page.js'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
