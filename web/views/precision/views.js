// The precision lab's views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import position from './position.js';
import pair from './pair.js';
import collisions from './collisions.js';
import drift from './drift.js';
import compare from './compare.js';
import model from './model.js';

export const byId = Object.fromEntries([position, pair, collisions, drift, compare, model].map((v) => [v.id, v]));
