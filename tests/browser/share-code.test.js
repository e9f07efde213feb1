// "Copy as code" in Chromium: the tensor / nn.Module choice, the module turned off (with the reason
// said) for kinds that have none, and the "What does this print?" line whose answer opens on a
// click, in English and Korean.
//   npx vitest run tests/browser/share-code.test.js
// Screenshots: tests/artifacts/share-code-{en,ko}.png.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { createPE } from '../../web/pe.js';
import { codeFor } from '../../web/share/codegen.js';
import { ARTIFACTS, gotoApp, inSight, suiteAvailability } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('share-code.test');
const PART = '#view-share .share-code-part';

/** The code panel of `hash` drawn, scrolled into view. */
async function openCode(s, hash) {
  await gotoApp(s.page, `${s.server.url}${hash}`, { state: null });
  // Kept in sight while waiting: the share view draws only on screen, and the page may still grow above it.
  await inSight(s.page, '#view-share', () => s.page.waitForFunction((sel) => document.querySelector(sel)?.textContent.length > 0, `${PART} .share-code-text`));
}

/** The first line of the code without the link (the page's own URL). */
const withoutLink = (code) => code.split('\n').filter((l) => !/^# (https?|file):/.test(l)).join('\n');

describe.skipIf(avail.skip)('copy as code: tensor or nn.Module, and what it prints (Chromium)', () => {
  const s = usePage({ avail });

  it('shows the module form of a sinusoid, PyTorch only, with its self-check answer behind a click', async () => {
    const pe = await createPE();
    await openCode(s, '#v1/sinusoidal?length=37&dim=16');
    const { page } = s;
    await page.click(`${PART} label:has-text("nn.Module")`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.form === 'module', `${PART} .share-code`);
    const code = await page.textContent(`${PART} .share-code-text`);
    const result = pe.compute({ kind: 'sinusoidal', length: 37, dim: 16 });
    const want = codeFor(result.spec, 'torch', { form: 'module', result, link: 'X' });
    expect(withoutLink(code)).toBe(withoutLink(want.code).replace('\n# X', ''));
    expect(code).toContain("self.register_buffer('pe'");
    expect(code).toContain('x = pos(embed(tokens) * math.sqrt(d_model))');
    // The language is PyTorch only here: PyTorch shown, NumPy turned off.
    expect(await page.isDisabled(`${PART} input[value="numpy"]`)).toBe(true);
    expect(await page.isChecked(`${PART} input[value="torch"]`)).toBe(true);
    // The answer is hidden until the summary is clicked, and is what the last line prints.
    const answer = page.locator(`${PART} .share-check-answer`);
    expect(await answer.isVisible()).toBe(false);
    expect(await page.textContent(`${PART} .share-check summary`)).toContain(`pe[${want.check.index.join(', ')}]`);
    await page.click(`${PART} .share-check summary`);
    expect(await answer.isVisible()).toBe(true);
    expect(await answer.textContent()).toBe(want.check.expected);
    expect(code.trimEnd().split('\n').at(-1)).toContain(want.check.print);
    await page.locator(PART).screenshot({ path: path.join(ARTIFACTS, 'share-code-en.png') });
    // Back to the tensor: NumPy again (the language chosen for it), and the same self-check.
    await page.click(`${PART} label:has-text("Tensor")`);
    expect(await page.isDisabled(`${PART} input[value="numpy"]`)).toBe(false);
    expect(await page.isChecked(`${PART} input[value="numpy"]`)).toBe(true);
    expect(await page.textContent(`${PART} .share-check-answer`)).toBe(want.check.expected);
    expect(await page.textContent(`${PART} .share-code-text`)).toContain('pe = pe.astype(np.float32)');
    expect(s.log.pageErrors).toEqual([]);
  });

  it('turns the module off where a kind has none and says why (attention), in Korean too', async () => {
    await openCode(s, '#v1/attention?length=16&~lang=ko');
    const { page } = s;
    expect(await page.isDisabled(`${PART} input[value="module"]`)).toBe(true);
    expect(await page.getAttribute(`${PART} .share-forms`, 'title')).toContain('nn.Module 형태가 없습니다');
    expect(await page.textContent(`${PART} .share-code-note`)).toContain('어텐션 계산 전체');
    await page.locator(PART).screenshot({ path: path.join(ARTIFACTS, 'share-code-ko-attention.png') });
    expect(await page.textContent(`${PART} .share-check summary`)).toContain('무엇을 출력할까요');
    // A kind with a module, in Korean: RoPE's module, its answer opened.
    await openCode(s, '#v1/rope?length=64&dim=32&~lang=ko');
    await page.click(`${PART} label:has-text("nn.Module")`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.form === 'module', `${PART} .share-code`);
    expect(await page.textContent(`${PART} .share-code-text`)).toContain('def rotate_half(x)');
    expect(await page.textContent(`${PART} .share-code-note`)).toContain('튜토리얼');
    await page.click(`${PART} .share-check summary`);
    expect(await page.textContent(`${PART} .share-check`)).toContain('출력:');
    await page.locator(PART).screenshot({ path: path.join(ARTIFACTS, 'share-code-ko.png') });
    expect(s.log.pageErrors).toEqual([]);
  });
});
