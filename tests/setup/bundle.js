// Vitest global setup: the page bundle (web/dist) is built once for the whole run, before any
// suite starts, so no browser suite rebuilds it under another's feet.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/bundle.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

export default async function setup() {
  if (process.env.PE_TEST_QUICK) return; // npm run test:quick: no browser suite, no page to bundle
  for (const f of ['pe_simd.wasm', 'pe_scalar.wasm']) {
    if (!existsSync(path.join(WEB, 'wasm', f))) throw new Error(`web/wasm/${f} is missing: run \`bash build.sh\` first`);
  }
  await bundle({ webDir: WEB });
}
