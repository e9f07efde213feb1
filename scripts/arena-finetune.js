// Runs the Arena's fine-tuning experiment (web/pages/arena/finetune.js; Chen et al. 2023's position
// interpolation at the Arena's scale) headless in Node, with the page's own runner
// (finetune-run.js) and worker code (worker.js handle) in one thread, and prints the page's table
// and findings in English or Korean.
//
//   node scripts/arena-finetune.js [--lang en|ko] [--set ftn=1000] [--set fts=300] [--set ftseeds=3] [--json FILE]
import { writeFileSync } from 'node:fs';
import { createPE } from '../web/api/pe.js';
import { translator } from '../web/i18n/index.js';
import { CONDITIONS, finetuneFindings, readFinetune, resultRows } from '../web/pages/arena/finetune.js';
import { FinetuneRunner } from '../web/pages/arena/finetune-run.js';
import { fmtSpread } from '../web/pages/arena/findings.js';
import { handle } from '../web/pages/arena/worker.js';
import '../web/pages/arena/strings.js';
import '../web/pages/arena/finetune-strings.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const params = new URLSearchParams(args.flatMap((a, i) => (args[i - 1] === '--set' ? [a.split('=')] : [])));
const lang = opt('--lang', 'en');
const t = translator(lang);
const pe = await createPE();

/** A stand-in for a Web Worker: the page's handler, answered on the next turn of the event loop. */
function fakeWorker() {
  const w = {
    onmessage: null,
    postMessage(msg) {
      setTimeout(() => {
        let out;
        try {
          out = handle(msg, pe);
        } catch (err) {
          w.onmessage({ data: { op: msg.op, id: msg.id, error: String(err?.message ?? err) } });
          return;
        }
        if (out !== null) w.onmessage({ data: { op: msg.op, id: msg.id, ...out } });
      });
    },
    terminate() {},
  };
  return w;
}

const { settings } = readFinetune(params);
const runner = await new Promise((resolve) => {
  const r = new FinetuneRunner({
    concurrency: 1,
    makeWorker: fakeWorker,
    onUpdate: (what) => {
      if (what === 'done' || what === 'error') resolve(r);
    },
  });
  r.start(settings);
});
if (runner.state === 'error') throw new Error(runner.error);

const tr = pe.trainer({ kind: 'arena', task: settings.task, causal: settings.causal, train_length: settings.len });
const paramCount = tr.paramCount;
tr.free();
const rows = resultRows(runner.runs, 'token_accuracy');
const seq = resultRows(runner.runs, 'accuracy');
console.log(`${JSON.stringify(settings)}  (${(runner.wallMs / 1000).toFixed(1)} s in one thread)`);
console.log(`condition | ${t('arena.metric.short.tok')} @${2 * settings.len} | ${t('arena.metric.short.seq')} @${2 * settings.len} | ${t('arena.metric.short.tok')} @${settings.len} after`);
CONDITIONS.forEach((c, i) => {
  console.log(`${t(`arena.ft.cond.${c}`, settings.ftSteps)} | ${fmtSpread(rows[i].at2)} | ${fmtSpread(seq[i].at2)} | ${rows[i].after1 ? fmtSpread(rows[i].after1) : '—'}`);
});
console.log('');
for (const line of finetuneFindings(runner.runs, settings, t, 'token_accuracy', String(paramCount))) console.log(`- ${line}`);
if (opt('--json', null)) writeFileSync(opt('--json'), JSON.stringify({ settings, runs: runner.runs }, null, 1));
