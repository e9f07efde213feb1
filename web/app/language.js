// The page's language: the first one (a link's ~lang, then ?lang=, the user's last choice, or
// navigator.languages), the buttons that switch it (the choice is remembered), and a switch to a
// link's language (not remembered). What a switch redraws is the router's (web/app/router.js).
import { LANGS, LANG_NAMES, pickLang, translator } from '../i18n/index.js';
import { DEFAULT_LANG } from '../share/permalink.js';
import { h } from '../plot/dom.js';
import { renderCatalogue, renderHeader } from './catalogue.js';
import { app } from './state.js';

const LANG_KEY = 'pe-lab-lang';

let onPick = () => {};

/**
 * The language the page starts in: a versioned link's own (unless it has none and ?lang= says
 * one), a page route's, else ?lang=, the stored choice or the browser's.
 */
export function startLang({ link, route, search }) {
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch { /* private mode */ }
  return link.status === 'ok' && link.version >= 1 && (link.lang || !search.get('lang'))
    ? link.lang ?? DEFAULT_LANG
    : route?.lang && LANGS.includes(route.lang) ? route.lang
      : pickLang({ query: search.get('lang'), stored, languages: navigator.languages ?? [navigator.language] });
}

/** `pick(lang)` runs when the reader presses a language button. */
export function onLangPicked(pick) {
  onPick = pick;
}

/** The header, its language buttons and the catalogue, in the page language. */
export function renderChrome() {
  renderHeader();
  renderLangButtons();
}

function renderLangButtons() {
  const langBox = document.getElementById('lang');
  langBox.replaceChildren();
  langBox.setAttribute('aria-label', app.t('app.language'));
  for (const lang of LANGS) {
    langBox.append(h('button', {
      type: 'button', class: 'lang-button', lang, 'aria-pressed': String(lang === app.lang), text: LANG_NAMES[lang],
      on: { click: () => onPick(lang) },
    }));
  }
}

function useLang(lang) {
  app.lang = lang;
  app.t = translator(lang);
  renderChrome();
  renderCatalogue();
}

/** The reader's choice: switches and remembers it. False when it is the language already shown. */
export function chooseLang(lang) {
  if (lang === app.lang) return false;
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch { /* private mode */ }
  useLang(lang);
  return true;
}

/** Switches to a link's language without remembering it as the user's choice. */
export function applyLinkLang(lang) {
  if (!lang || lang === app.lang) return false;
  useLang(lang);
  return true;
}
