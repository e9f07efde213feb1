// The load view of the `learned` kind: open a trained position table from a .npy or .safetensors
// file (e.g. GPT-2's wpe.weight) and explore it with every other view in place of the random
// initialisation. The file is read in the browser (pe.loadMatrix, parsed in C); nothing is sent.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';

/**
 * What kind of refusal the C reader's message is (its words are English, from c/npy.c,
 * c/safetensors.c and c/matrix.c), so the page can say it in its own language:
 * notFile, truncated, tooLong, values, dtype, offsets, header, noTensors, noName, shape, or other.
 */
export function refusalReason(message) {
  const m = String(message);
  if (/^not a \.(npy|safetensors) file/.test(m)) return 'notFile';
  if (/truncated file/.test(m)) return 'truncated';
  if (/longer than its header/.test(m)) return 'tooLong';
  if (/is NaN|is infinite|outside the float32 range/.test(m)) return 'values';
  if (/dtype|structured array/.test(m)) return 'dtype';
  if (/data_offsets/.test(m)) return 'offsets';
  if (/holds no tensors/.test(m)) return 'noTensors';
  if (/no tensor named/.test(m)) return 'noName';
  if (/has shape/.test(m)) return 'shape';
  if (/header|version|key/.test(m)) return 'header';
  return 'other';
}

/** Tensor names that look like a position table, tried first in a file with several. */
const POSITION_NAMES = /(^|\.)(wpe|position_embeddings?|pos_embed(ding)?s?|positional_embeddings?)(\.weight)?$/i;

export default {
  id: 'load',
  kinds: (info) => info.kind === 'learned',
  title: both('view.load.title'),
  explain: both('view.load.explain'),

  mount(el, ctx) {
    const { t, pe } = ctx;
    const id = uid('load');
    let bytes = null;
    let fileName = '';
    const file = h('input', { id: `${id}-file`, type: 'file', accept: '.npy,.safetensors,application/octet-stream' });
    const pick = h('select', { id: `${id}-name` });
    const pickBox = h('div', { class: 'tool-field' }, h('label', { for: pick.id, text: t('view.load.tensor') }), pick);
    pickBox.hidden = true;
    const status = h('p', { class: 'help', role: 'status' });
    const error = h('p', { class: 'field-error', role: 'status' });
    error.hidden = true;
    el.append(h('div', { class: 'file-row' },
      h('div', { class: 'tool-field' }, h('label', { for: file.id, text: t('view.load.file') }), file), pickBox), status, error);

    function fail(msg) {
      error.textContent = msg ? t('view.load.why', refusalReason(msg), msg) : '';
      error.hidden = !msg;
      // A refused file is not being read any more: the status line must not say it still is.
      if (msg) status.textContent = t('view.load.refused', fileName);
    }

    function load(name) {
      fail('');
      try {
        const r = pe.loadMatrix(bytes, name ? { name } : undefined);
        const label = `${fileName}${r.name ? ` · ${r.name}` : ''} [${r.shape.map(formatInt).join(' × ')}, ${r.dtype}]`;
        status.textContent = t('view.load.done', label);
        ctx.showResult(r, label);
      } catch (err) {
        if (err?.param === 'name' && Array.isArray(err.names) && err.names.length) {
          // Several tensors: let the user choose, starting with one that looks like positions.
          pick.replaceChildren(...err.names.map((n) => h('option', { value: n, text: n })));
          pickBox.hidden = false;
          const guess = err.names.find((n) => POSITION_NAMES.test(n));
          if (guess) {
            pick.value = guess;
            load(guess);
          } else {
            status.textContent = t('view.load.choose', err.names.length);
          }
          return;
        }
        fail(err?.message ?? String(err));
      }
    }

    file.addEventListener('change', async () => {
      const f = file.files?.[0];
      if (!f) return;
      fileName = f.name;
      pickBox.hidden = true;
      status.textContent = t('view.load.reading', f.name);
      fail('');
      try {
        bytes = new Uint8Array(await f.arrayBuffer());
      } catch (err) {
        fail(err?.message ?? String(err));
        return;
      }
      load();
    });
    pick.addEventListener('input', () => load(pick.value));

    return {
      update() {},
      destroy() {},
    };
  },
};
