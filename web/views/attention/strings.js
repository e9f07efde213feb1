// The attention views' strings, registered before any of the views' modules runs (views.js imports
// this first).
import strings from '../../i18n/attention.js';
import { registerStrings } from '../../i18n/index.js';

registerStrings(strings);
