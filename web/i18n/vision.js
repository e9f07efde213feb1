// Strings of the vision views, in every language (same keys in en and ko); merged into the page's
// dictionaries by web/i18n/index.js.
export default {
  en: {},
  ko: {},
};
