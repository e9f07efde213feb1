// The vision views' stylesheet (vision.css beside this file), added to the page once, when the
// first of them mounts. Returns a promise that settles once it has loaded (for canvases that read
// colours from it).
import { ensureStyles } from '../common.js';

export const ensureVisionStyles = () => ensureStyles(new URL('./vision.css', import.meta.url));
