// The body of the "Share & export" view (./share.js): the permalink of what is on screen,
// copy-paste snippets to embed the live figure in a blog (<pe-plot> or an iframe), the figure as
// PNG and SVG, the tensor as CSV and .npy, and a NumPy / PyTorch snippet that recreates it: the
// tensor itself, or the nn.Module a tutorial writes (where the kind has one), each ending with a
// line whose output the reader can predict and then reveal.
// The page's own modules (permalinks, the figure's data) come in as `deps`.
import { h, uid } from '../plot/dom.js';
import { codeFor, hasCode, hasModule, sci } from './codegen.js';
import { canvasBlob, copyText, download, fileStem, svgToPng, toCsv, toNpy } from './export.js';
import { heatmapCanvas, linesTree, svgString } from '../plot/svg.js';
import { heatmapKernels } from '../model/pixels.js';

const LINES_SIZE = { width: 760, height: 440 };

/** The page URL without its query's embed flag and fragment. */
function pageBase() {
  return location.href.split(/[?#]/)[0];
}

/**
 * Where embeds load PE Lab from. Served over http(s): this page's own folder. Opened from a file
 * (the offline single file): no other page can load a file:// script, so the snippets name a
 * placeholder site to replace, and the note says so.
 */
const OFFLINE_BASE = 'https://your-site.example/pe-lab/';
const isOffline = () => location.protocol === 'file:';
function embedBase() {
  return isOffline() ? OFFLINE_BASE : pageBase().replace(/[^/]*$/, '');
}

/** The package's version, written in by scripts/bundle.js (undefined when unbundled). */
/* global __PE_LAB_VERSION__ */
const PACKAGE_VERSION = typeof __PE_LAB_VERSION__ === 'string' ? __PE_LAB_VERSION__ : null;
/** <pe-plot> from the published npm package pe-lab at `version`, through a package CDN. */
export const packageUrl = (version) => `https://cdn.jsdelivr.net/npm/pe-lab@${version}/web/dist/pe-plot.js`;

/** HTML attribute text (double-quoted). */
const attr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The <pe-plot> markup of a state: the spec's non-default fields (compactSpec) and the view state. */
export function peplotSnippet({ spec, shared = {}, lang = 'en', scriptUrl, selfHosted = null, view = 'both' }, compactSpec) {
  const attrs = [['kind', spec.kind]];
  for (const [k, v] of Object.entries(compactSpec(spec))) {
    attrs.push([k, v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  }
  if (view !== 'both') attrs.push(['view', view]);
  if (shared.colormap && shared.colormap !== 'viridis') attrs.push(['colormap', shared.colormap]);
  if (shared.scale && shared.scale !== 'auto') attrs.push(['color-scale', shared.scale]);
  if (shared.head) attrs.push(['head', String(shared.head)]);
  if (shared.transform) attrs.push(['transform', shared.transform]);
  if (shared.series?.list) attrs.push([shared.series.mode === 'rows' ? 'rows' : 'cols', shared.series.list.join(',')]);
  if (lang !== 'en') attrs.push(['lang', lang]);
  const tag = `<pe-plot ${attrs.map(([k, v]) => `${k}="${attr(v)}"`).join(' ')}></pe-plot>`;
  const script = (src) => `<script type="module" src="${attr(src)}"></script>`;
  // An HTML comment, its opening spelt in two parts: the offline single file inlines this
  // script, and an inline script may not hold the opening of a comment.
  const comment = ['<!', '--'].join('');
  const alternative = selfHosted && selfHosted !== scriptUrl
    ? `\n${comment} or from your own host (the package's web/dist/pe-plot.js beside web/wasm/):\n${script(selfHosted)} -->` : '';
  return `${script(scriptUrl)}${alternative}\n${tag}`;
}

/** The <iframe> markup for a permalink fragment. */
export function iframeSnippet({ base, fragment, title, lang = 'en' }) {
  const src = `${base}?embed${lang !== 'en' ? `&lang=${lang}` : ''}${fragment}`;
  return `<iframe src="${attr(src)}" title="${attr(title)}" width="760" height="620" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}

/**
 * Builds the view in `el`; deps = { encodePermalink, compactSpec, figureOf } from the page.
 * Returns { update, destroy } as a view's mount does.
 */
export function mountPanel(el, ctx, { encodePermalink, compactSpec, figureOf }) {
  const { t, pe } = ctx;
  const id = uid('share');
  let state = null;
  let codeLang = 'numpy';
  let codeForm = 'tensor';   // or 'module'; kept while the page is open, as the language is
  let embedKind = 'element';

  const status = h('p', { class: 'share-status', role: 'status', 'aria-live': 'polite' });
  let statusTimer = 0;
  const say = (text) => {
    status.textContent = text;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => {
      status.textContent = '';
    }, 5000);
  };
  const copyButton = (label, text, what) => h('button', {
    type: 'button', class: 'button', text: label,
    on: { click: async () => say((await copyText(text())) ? t('share.copiedWhat', what) : t('share.copyFailed')) },
  });

  // --- link
  const linkInput = h('input', { id: `${id}-link`, class: 'share-link', type: 'text', readonly: true, spellcheck: 'false', 'aria-label': t('share.link') });
  linkInput.addEventListener('focus', () => linkInput.select());
  const linkBox = h('section', { class: 'share-part share-link-part', 'aria-labelledby': `${id}-link-title` },
    h('h4', { id: `${id}-link-title`, text: t('share.link') }),
    h('p', { class: 'help', text: t('share.linkHelp') }),
    h('div', { class: 'share-row' }, linkInput, copyButton(t('share.copyLink'), () => linkInput.value, t('share.link'))));

  // --- downloads
  const dl = (key, fn) => h('button', { type: 'button', class: 'button', 'data-export': key, text: t(`share.dl.${key}`), on: { click: () => run(key, fn) } });
  async function run(key, fn) {
    if (!state) return;
    try {
      const { blob, name } = await fn();
      download(blob, name);
      say(t('share.saved', name));
    } catch (err) {
      console.warn(err);
      say(t('share.failed', err?.message ?? String(err)));
    }
  }
  const stem = () => fileStem(state.spec, pe.defaults(state.spec.kind));
  const fig = () => figureOf(state, t, pe);
  const downloads = h('section', { class: 'share-part', 'aria-labelledby': `${id}-dl-title` },
    h('h4', { id: `${id}-dl-title`, text: t('share.download') }),
    h('p', { class: 'help', text: t('share.downloadHelp') }),
    h('div', { class: 'share-row share-buttons' },
      dl('heatmapPng', async () => ({ blob: await canvasBlob(heatmapCanvas(heatmapKernels(pe), fig().heatmap)), name: `${stem()}-heatmap.png` })),
      dl('linesPng', async () => {
        const svg = svgString(linesTree(fig().lines, LINES_SIZE).tree);
        return { blob: await svgToPng(svg, LINES_SIZE.width, LINES_SIZE.height), name: `${stem()}-curves.png` };
      }),
      dl('linesSvg', async () => ({ blob: new Blob([svgString(linesTree(fig().lines, LINES_SIZE).tree)], { type: 'image/svg+xml' }), name: `${stem()}-curves.svg` })),
      dl('csv', async () => ({ blob: new Blob([toCsv(state.result.data, state.result.shape, `PE Lab ${state.spec.kind}: ${link()}`)], { type: 'text/csv' }), name: `${stem()}.csv` })),
      dl('npy', async () => ({ blob: new Blob([toNpy(state.result.data, state.result.shape)], { type: 'application/octet-stream' }), name: `${stem()}.npy` }))));

  // --- code
  const codeBox = h('code', { class: 'share-code-text' });
  const codePre = h('pre', { class: 'share-code', tabindex: 0, 'aria-label': t('share.code') }, codeBox);
  const codeNote = h('p', { class: 'help share-code-note' });
  const langs = h('fieldset', { class: 'tool-field segmented' }, h('legend', { class: 'sr-only', text: t('share.codeLang') }));
  for (const [value, label] of [['numpy', 'NumPy'], ['torch', 'PyTorch']]) {
    const input = h('input', { type: 'radio', name: `${id}-lang`, id: `${id}-lang-${value}`, value, checked: value === codeLang });
    input.addEventListener('input', () => {
      codeLang = value;
      renderCode();
    });
    langs.append(input, h('label', { for: input.id, text: label }));
  }
  const forms = h('fieldset', { class: 'tool-field segmented share-forms' }, h('legend', { class: 'sr-only', text: t('share.codeForm') }));
  const formInputs = {};
  for (const [value, label] of [['tensor', t('share.formTensor')], ['module', t('share.formModule')]]) {
    const input = h('input', { type: 'radio', name: `${id}-form`, id: `${id}-form-${value}`, value, checked: value === codeForm });
    input.addEventListener('input', () => {
      codeForm = value;
      renderCode();
    });
    formInputs[value] = input;
    forms.append(input, h('label', { for: input.id, text: label }));
  }
  // "What does this print?": the snippet's last line, its output behind a click.
  const checkAnswer = h('code', { class: 'share-check-answer' });
  const checkAsk = h('summary');
  const check = h('details', { class: 'share-check' }, checkAsk, h('p', {}, h('span', { text: t('share.checkAnswer') }), ' ', checkAnswer));
  const codeCopy = copyButton(t('share.copyCode'), () => codeBox.textContent, t('share.code'));
  const code = h('section', { class: 'share-part share-code-part', 'aria-labelledby': `${id}-code-title` },
    h('h4', { id: `${id}-code-title`, text: t('share.code') }),
    h('div', { class: 'share-row' }, forms, langs, codeCopy),
    codePre, check, codeNote);

  // --- embed
  const embedCode = h('code', { class: 'share-code-text' });
  const embedPre = h('pre', { class: 'share-code share-embed-code', tabindex: 0, 'aria-label': t('share.embed') }, embedCode);
  const embedTabs = h('fieldset', { class: 'tool-field segmented' }, h('legend', { class: 'sr-only', text: t('share.embedHow') }));
  for (const [value, label] of [['element', t('share.embedElement')], ['iframe', t('share.embedIframe')]]) {
    const input = h('input', { type: 'radio', name: `${id}-embed`, id: `${id}-embed-${value}`, value, checked: value === embedKind });
    input.addEventListener('input', () => {
      embedKind = value;
      renderEmbed();
    });
    embedTabs.append(input, h('label', { for: input.id, text: label }));
  }
  const embedNote = h('p', { class: 'help' });
  const embed = h('section', { class: 'share-part', 'aria-labelledby': `${id}-embed-title` },
    h('h4', { id: `${id}-embed-title`, text: t('share.embed') }),
    h('div', { class: 'share-row' }, embedTabs, copyButton(t('share.copyEmbed'), () => embedCode.textContent, t('share.embed'))),
    embedPre, embedNote);

  el.append(h('div', { class: 'share-grid' }, linkBox, downloads, embed, code), status);

  function link() {
    const fragment = encodePermalink({ kind: state.spec.kind, spec: state.spec, view: state.shared, lang: t.lang });
    const search = new URLSearchParams(location.search);
    search.delete('embed');
    const q = search.toString();
    return `${pageBase()}${q ? `?${q}` : ''}${fragment}`;
  }

  function renderCode() {
    if (!state) return;
    const loaded = !!state.result.format;
    const kind = state.spec.kind;
    const moduleOk = !loaded && hasModule(kind);
    formInputs.module.disabled = !moduleOk;
    forms.title = moduleOk || loaded ? '' : t('share.moduleNone', kind);
    const form = moduleOk ? codeForm : 'tensor';
    // The module is PyTorch: the language shows PyTorch and NumPy is greyed; the choice made for
    // the tensor comes back with it.
    for (const input of langs.querySelectorAll('input')) {
      input.disabled = form === 'module' && input.value === 'numpy';
      input.checked = input.value === (form === 'module' ? 'torch' : codeLang);
    }
    langs.title = form === 'module' ? t('share.moduleTorch') : '';
    if (loaded || !hasCode(kind)) {
      codeBox.textContent = '';
      codePre.hidden = true;
      check.hidden = true;
      codeCopy.disabled = true;
      codeNote.textContent = loaded ? t('share.codeLoaded') : t('share.codeNone', kind);
      return;
    }
    const { code: text, tolerance, check: sc } = codeFor(state.spec, codeLang, { link: link(), result: state.result, form });
    codePre.hidden = false;
    codeCopy.disabled = false;
    codeBox.textContent = text;
    codePre.dataset.form = form;
    check.hidden = false;
    if (checkAnswer.textContent !== sc.expected) check.open = false;   // a new answer starts hidden
    checkAsk.textContent = t('share.checkAsk', sc.index.join(', '), sc.digits);
    checkAnswer.textContent = sc.expected;
    const close = tolerance.exact ? t('share.codeExact') : t('share.codeTolerance', sci(tolerance.abs ?? tolerance.rel), tolerance.rel ? 'rel' : 'abs');
    // Said in words too (not only by the greyed choice): why this kind has no module.
    const about = form === 'module' ? t('share.moduleHelp') : moduleOk ? '' : t('share.moduleNone', kind);
    codeNote.textContent = about ? `${about} ${close}` : close;
  }

  function renderEmbed() {
    if (!state) return;
    const fragment = encodePermalink({ kind: state.spec.kind, spec: state.spec, view: { ...state.shared, compare: null }, lang: t.lang });
    const title = `PE Lab: ${t.tr(ctx.schema.label) || state.spec.kind}`;
    const offline = isOffline() ? ` ${t('share.embedOffline', OFFLINE_BASE)}` : '';
    if (embedKind === 'iframe') {
      embedCode.textContent = iframeSnippet({ base: isOffline() ? OFFLINE_BASE : pageBase(), fragment, title, lang: t.lang });
      embedNote.textContent = t('share.embedIframeHelp') + offline;
    } else {
      // The published package at this page's version (an old post keeps the component it was
      // written with), with this page's own copy as the self-hosted alternative.
      const selfHosted = new URL('./dist/pe-plot.js', embedBase()).href;
      const scriptUrl = PACKAGE_VERSION ? packageUrl(PACKAGE_VERSION) : selfHosted;
      embedCode.textContent = peplotSnippet({ spec: state.spec, shared: state.shared, lang: t.lang, scriptUrl, selfHosted }, compactSpec);
      embedNote.textContent = t('share.embedElementHelp') + offline;
    }
  }

  return {
    update(next) {
      state = next;
      if (!['result', 'shared', 'all'].some((c) => next.changed.has(c))) return;
      linkInput.value = link();
      renderCode();
      renderEmbed();
    },
    destroy() {
      clearTimeout(statusTimer);
    },
  };
}
