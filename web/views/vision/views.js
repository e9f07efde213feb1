// The vision views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import similarity from './similarity.js';
import mropeBuilder from './mrope-builder.js';

export const byId = Object.fromEntries([mropeBuilder, similarity].map((v) => [v.id, v]));
