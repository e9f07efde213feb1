// The absolute family's views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import './embed-scale-strings.js';
import simple from './simple.js';
import similarity from './similarity.js';
import embedScale from './embed-scale.js';
import sineLikeness from './sine-likeness.js';

export const byId = Object.fromEntries([simple, similarity, embedScale, sineLikeness].map((v) => [v.id, v]));
