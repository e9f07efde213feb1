// The rope views' strings, registered before any of the views' modules runs (views.js imports
// this first).
import strings from '../../i18n/rope.js';
import { registerStrings } from '../../i18n/index.js';

registerStrings(strings);
