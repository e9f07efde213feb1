// The page-level pieces of sharing that web/app/app.js uses: the "copy link" button beside the kind's
// title, the notice for a link that could not be read, the ?embed mode's choice of views, and
// the WebAssembly module carried inside the offline single file.
//
// Everything that comes from a URL reaches the DOM as text (textContent), never as HTML.
import './strings.js';
import { h } from '../plot/dom.js';
import { copyText } from './export.js';
import { simdSupported } from '../api/pe.js';

const EMBED_VIEWS = { all: ['heatmap', 'lines'], heatmap: ['heatmap'], lines: ['lines'], both: ['heatmap', 'lines'] };

/** The views ?embed shows (all views when not embedded). */
export function embedViews(views, embed) {
  if (!embed) return views;
  const ids = EMBED_VIEWS[embed] ?? EMBED_VIEWS.all;
  return views.filter((v) => ids.includes(v.id));
}

/**
 * The kind head's action: "Copy link" (the current permalink to the clipboard), or in ?embed
 * mode a link back to the full explorer. `link()` returns the current URL.
 */
export function copyLinkButton({ t, embed, link }) {
  if (embed) {
    const a = h('a', { class: 'open-full', id: 'open-full', target: '_blank', rel: 'noopener', text: t('share.openFull') });
    const refresh = () => {
      a.href = link();
    };
    a.addEventListener('pointerenter', refresh);
    a.addEventListener('focus', refresh);
    a.addEventListener('click', refresh);
    queueMicrotask(refresh);
    return h('div', { class: 'kind-actions' }, a);
  }
  const status = h('span', { class: 'copy-status', role: 'status', 'aria-live': 'polite' });
  let timer = 0;
  const button = h('button', {
    type: 'button', class: 'button copy-link', id: 'copy-link', text: t('share.copyLink'),
    on: {
      click: async () => {
        const url = link();
        const ok = await copyText(url);
        button.dataset.link = url;
        status.textContent = ok ? t('share.copied') : t('share.copyFailed');
        clearTimeout(timer);
        timer = setTimeout(() => {
          status.textContent = '';
        }, 4000);
      },
    },
  });
  return h('div', { class: 'kind-actions' }, button, status);
}

/** What a field allows (PEError.expected, web/api/spec.js), in the words of t's language. */
function expectedText(t, x) {
  const quoted = (values) => values.map((v) => `"${v}"`).join(t('share.expect.or'));
  let text;
  switch (x?.type) {
    case 'int': text = t('share.expect.int', x); break;
    case 'number': text = t('share.expect.number', x); break;
    case 'enum': text = t('share.expect.enum', quoted(x.values)); break;
    case 'bool': text = t('share.expect.bool'); break;
    case 'list': text = t('share.expect.list', x.minItems === x.maxItems ? `${x.minItems}` : `${x.minItems}–${x.maxItems}`, expectedText(t, x.item)); break;
    case 'object': text = t('share.expect.object', x.tag, quoted(x.values)); break;
    case 'named': text = t('share.expect.named', quoted(x.values), x.keys.join(', ')); break;
    case 'string': text = t('share.expect.string', x); break;
    case 'spec': text = t('share.expect.spec', quoted(x.values)); break;
    default: text = t('share.expect.other');
  }
  return x?.nullable ? t('share.expect.nullable', text) : text;
}

/** A value given in a link, as a notice quotes it. */
const gotText = (why) => {
  if (!Object.hasOwn(why, 'got')) return null;
  return typeof why.got === 'string' ? `“${why.got}”` : String(why.got);
};

/**
 * Why a link or one of its fields was refused, in t's language: `detail` is the API's English
 * message, shown as it is on the English page; other languages compose the same reason from
 * `why` (decodePermalink's data: web/share/permalink.js); `key`, for a dropped field. Without a
 * `why` (a rule between fields, say), the English detail is all there is.
 */
export function reasonText(t, { key, detail, why }) {
  const english = String(detail ?? '');
  if (!why || t.lang === 'en') return english;
  switch (why.code) {
    // A dropped field already named by its key is not named again.
    case 'value': return t('share.why.value', why.param === key ? null : why.param, expectedText(t, why.expected), gotText(why));
    case 'parse': return t('share.why.parse', why, t(`share.why.what.${why.what}`, why.key));
    case 'compare': return t('share.why.compare', why.inner ? reasonText(t, { detail: why.message, why: why.inner }) : why.message);
    default: return t.has(`share.why.${why.code}`) ? t(`share.why.${why.code}`, why) : english;
  }
}

/**
 * Shows why a link was not used: decoded = decodePermalink's { reason, detail, why }; fallback
 * 'defaults' (on load) or 'kept' (the view on screen stays). The detail is shown as text.
 */
export function showNotice(t, decoded, fallback) {
  let box = document.getElementById('link-notice');
  if (!box) {
    box = h('div', { id: 'link-notice', class: 'link-notice', role: 'alert' });
    const anchor = document.querySelector('.layout') ?? document.body.firstElementChild;
    if (anchor) anchor.before(box);
    else document.body.prepend(box);
  }
  const key = `share.notice.${decoded.reason}`;
  const detail = decoded.reason === 'partial' ? String(decoded.detail ?? '') : reasonText(t, decoded);
  const what = t.has(key) ? t(key, detail) : t('share.notice.syntax', detail);
  const text = h('p', { class: 'link-notice-text' });
  const after = { kept: t('share.notice.kept'), defaults: t('share.notice.defaults') }[fallback] ?? '';
  text.textContent = after ? `${what} ${after}` : what;
  const close = h('button', { type: 'button', class: 'button link-notice-close', text: t('share.notice.dismiss'), on: { click: hideNotice } });
  box.replaceChildren(text, close);
  box.dataset.reason = decoded.reason;
  box.hidden = false;
}

/** The notice for a link that opened without some of its settings (decodePermalink's `dropped`). */
export function showDroppedNotice(t, dropped) {
  const detail = dropped.map((d) => t('share.notice.item', d.key, reasonText(t, d))).join('; ');
  showNotice(t, { reason: 'partial', detail }, 'none');
}

export function hideNotice() {
  const box = document.getElementById('link-notice');
  if (box) box.hidden = true;
}

/** Base64 text to bytes. */
export function base64Bytes(text) {
  const bin = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The WebAssembly module embedded in the page (the offline file): <script type="application/wasm"
 * id="pe-wasm-simd|pe-wasm-scalar"> data blocks holding base64 (inert text, never run). null when
 * the page has none, and the modules are fetched next to web/pe.js as usual.
 */
export function inlineWasm() {
  const pick = simdSupported() ? ['pe-wasm-simd', 'pe-wasm-scalar'] : ['pe-wasm-scalar'];
  for (const id of pick) {
    const el = document.getElementById(id);
    if (el && el.tagName === 'SCRIPT' && el.type === 'application/wasm') return base64Bytes(el.textContent);
  }
  return null;
}
