// The attention views' code, loaded on demand (see index.js and ../lazy.js).
import './strings.js';
import heads from './heads.js';
import row from './row.js';
import sentence from './sentence.js';
import extrapolation from './extrapolation.js';

export const byId = Object.fromEntries([heads, row, sentence, extrapolation].map((v) => [v.id, v]));
