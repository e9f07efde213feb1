// The absolute family's views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import simple from './simple.js';
import similarity from './similarity.js';

export const byId = Object.fromEntries([simple, similarity].map((v) => [v.id, v]));
