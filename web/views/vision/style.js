// The vision views' stylesheets (vision.css, and learned.css for the learned-table views, beside
// this file), added to the page once, when the first view that needs one mounts. Each returns a
// promise that settles once it has loaded (for canvases that read colours from it).
import { ensureStyles } from '../common.js';

export const ensureVisionStyles = () => ensureStyles(new URL('./vision.css', import.meta.url));
export const ensureLearnedStyles = () => Promise.all([ensureVisionStyles(), ensureStyles(new URL('./learned.css', import.meta.url))]);
