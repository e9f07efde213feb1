// The relative family's views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import distance from './distance.js';
import heads from './alibi-heads.js';

export const byId = Object.fromEntries([distance, heads].map((v) => [v.id, v]));
