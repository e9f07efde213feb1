// The rope views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import config from './config.js';
import wavelengths from './wavelengths.js';
import scaling from './scaling.js';
import relative from './relative.js';
import pair from './pair.js';
import longrope from './longrope.js';
import gallery from './gallery.js';

export const byId = Object.fromEntries([config, gallery, wavelengths, scaling, longrope, relative, pair].map((v) => [v.id, v]));
