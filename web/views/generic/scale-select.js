// The colour-scale choice of a heatmap (auto, linear, √, log: SCALES of web/model/view-state.js) as
// the explorer's heatmap view (./heatmap.js) and the Learn path's heatmaps (web/pages/learn/
// figures.js) show it: a labelled select whose "auto" names the scale it chose. Strings:
// ./scale-strings.js.
import { h, uid } from '../../plot/dom.js';
import { SCALES } from '../../model/view-state.js';
import './scale-strings.js';

/** { select, label, showChosen(scale, used) }: showChosen makes "auto" say the scale it drew with. */
export function scaleSelect(t, { id = uid('scale'), cls = null } = {}) {
  const select = h('select', { id, class: cls, title: t('scale.help') }, ...SCALES.map((name) => h('option', { value: name, text: t(`scale.${name}`) })));
  const label = h('label', { for: id, text: t('view.heatmap.scale') });
  const showChosen = (scale, used) => {
    select.options[0].textContent = scale === 'auto' ? t('scale.auto.chosen', t(`scale.${used}`)) : t('scale.auto');
  };
  return { select, label, showChosen };
}
