// The bias views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import distance from './distance.js';
import heads from './heads.js';
import simple from './simple.js';
import similarity from './similarity.js';

export const byId = Object.fromEntries([distance, heads, simple, similarity].map((v) => [v.id, v]));
