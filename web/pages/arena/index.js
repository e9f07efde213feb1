// The arena page (#arena): mounted by web/app/pages.js. Placeholder until the page lands.
import { h } from '../../plot/dom.js';

export default {
  id: 'arena',
  mount(container, ctx) {
    container.append(h('h2', { id: 'page-title', tabindex: -1, text: ctx.t('app.section.arena') }));
    return { update() {}, destroy() {} };
  },
};
