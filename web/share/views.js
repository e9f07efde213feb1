// The share view's code, loaded on demand (see index.js and ../lazy.js); its strings are always
// there (web/i18n/index.js registers them for the shell's link notices).
import share from './view.js';

export const byId = { [share.id]: share };
