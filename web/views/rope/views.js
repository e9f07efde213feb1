// The rope views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import config from './config.js';
import wavelengths from './wavelengths.js';
import scaling from './scaling.js';
import relative from './relative.js';
import pair from './pair.js';
import longrope from './longrope.js';

export const byId = Object.fromEntries([config, wavelengths, scaling, longrope, relative, pair].map((v) => [v.id, v]));
