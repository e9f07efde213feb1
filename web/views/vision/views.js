// The vision views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import similarity from './similarity.js';
import mropeBuilder from './mrope-builder.js';
import learnedGrid from './learned-grid.js';
import sumConcat from './sum-concat.js';

export const byId = Object.fromEntries([mropeBuilder, similarity, learnedGrid, sumConcat].map((v) => [v.id, v]));
