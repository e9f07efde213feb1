// Strings of the Arena's fine-tuning experiment (finetune.js, finetune-view.js), en + ko, same
// keys; registered when the page's code arrives.
import { registerStrings } from '../../i18n/index.js';

const enList = (names) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
const seedsEn = (n) => (n === 2 ? 'both seeds' : `all ${n} seeds`);

const en = {
  'arena.ft.title': 'Fine-tune with position interpolation (Chen et al. 2023)',
  'arena.ft.explain': (p) => `Chen et al. extend LLaMA's context by position interpolation (PI): RoPE's positions are divided by the factor, so a sequence twice as long keeps its rotation angles inside those seen in training; they report that PI needs a short fine-tuning (about 1000 steps) at the new length, that it then beats fine-tuning at that length without scaling, and that PI without fine-tuning is poor. Here: rope trained on ${p.task} in a decoder at length ${p.L} (${p.steps} steps), then at ${p.L2} four ways: (a) no scaling, (b) PI at evaluation only (NTK-aware and YaRN beside it), (c) ${p.ftSteps} more steps at ${p.L2} with PI, (d) ${p.ftSteps} more steps at ${p.L2} without scaling, the same extra compute. ${p.seeds} seeds.`,
  'arena.ft.steps': 'fine-tuning steps at 2L',
  'arena.ft.run': 'Run the fine-tuning experiment',
  'arena.ft.runAgain': 'Run it again',
  'arena.ft.cancel': 'Cancel',
  'arena.ft.status.idle': 'Not run yet. It trains one model per seed in your browser (Web Workers) and fine-tunes each twice.',
  'arena.ft.status.running': (p) => `Running: ${p.done} of ${p.n} seeds done, ${p.steps} of ${p.total} steps, ${p.sec} s.`,
  'arena.ft.status.done': (p) => `Done: ${p.n} seeds in ${p.sec} s.`,
  'arena.ft.status.paused': (p) => `Paused while you were away: ${p.done} of ${p.n} seeds done, ${p.steps} of ${p.total} steps.`,
  'arena.ft.status.cancelled': 'Cancelled.',
  'arena.ft.status.error': (msg) => `A run failed: ${msg}`,
  'arena.ft.caption': (p) => `At ${p.L2} symbols (2× the training length) and, for the fine-tuned models, back at ${p.L}: mean [min–max] over ${p.n} seeds, ${p.samples} examples each.`,
  'arena.ft.col.cond': 'model',
  'arena.ft.col.at2': (L2) => `at ${L2} (2×)`,
  'arena.ft.col.at1': (L) => `at ${L} (1×), after`,
  'arena.ft.cond.none': '(a) no scaling, evaluation only',
  'arena.ft.cond.linear': '(b) PI at evaluation only',
  'arena.ft.cond.ntk': '(b) NTK-aware at evaluation only',
  'arena.ft.cond.yarn': '(b) YaRN at evaluation only',
  'arena.ft.cond.ftPI': (s) => `(c) fine-tuned ${s} steps with PI`,
  'arena.ft.cond.ftPlain': (s) => `(d) fine-tuned ${s} steps, no scaling`,
  'arena.ft.find.fit': (p) => `At the training length (${p.L} symbols, ${p.steps} steps), rope fits ${p.task} in ${p.k} of ${p.n} seeds (tokens right ${p.at}; at least 0.9 counts as a fit).`,
  'arena.ft.pair.above': (p) => `At ${p.L2} symbols, ${p.a} gets ${p.sa} of the ${p.unit} right against ${p.sb} for ${p.b}: higher in ${p.k} of ${p.n} seeds, beyond the seeds' spread.`,
  'arena.ft.pair.below': (p) => `At ${p.L2} symbols, ${p.a} gets ${p.sa} of the ${p.unit} right against ${p.sb} for ${p.b}: lower in ${p.n - p.k} of ${p.n} seeds, beyond the seeds' spread.`,
  'arena.ft.pair.overlap': (p) => `At ${p.L2} symbols, ${p.a} gets ${p.sa} of the ${p.unit} right against ${p.sb} for ${p.b} (higher in ${p.k} of ${p.n} seeds): the ranges overlap, so no difference is shown.`,
  'arena.ft.find.others': (p) => `The other scalings at evaluation only, at ${p.L2} (${p.unit} right, ${p.n} seeds): ${enList(p.list)}.`,
  'arena.ft.find.at1': (p) => `Back at the training length ${p.L} (${p.unit} right): ${p.before} before fine-tuning; after it, ${enList(p.after)}. ${p.lost.length ? `Below the model before fine-tuning in every seed, beyond the spread: ${enList(p.lost)}; fine-tuning at the longer length (with PI, on scaled positions) costs the length the model first learned.` : 'Neither fine-tune falls below the model before it beyond the seeds\' spread.'}`,
  'arena.ft.find.unfit': (p) => `The model did not learn the task at the training length in ${p.n - p.k} of ${p.n} seeds (too few steps: ${p.steps}), so what follows compares models that cannot do the task at all; give the training more steps first.`,
  'arena.ft.find.chenUnfit': (p) => `Chen et al.'s claims are not checked here: the model fits the task at the training length in only ${p.k} of ${p.n} seeds.`,
  'arena.ft.find.chen': (p) => {
    const say = { agrees: 'agrees', disagrees: 'is reversed here, beyond the spread', unresolved: 'is not resolved here (the ranges overlap)' };
    return `Chen et al. report that PI with fine-tuning beats fine-tuning without scaling: that ${say[p.ft]}; and that PI without fine-tuning falls short of PI with it: that ${say[p.evalOnly]} (over ${seedsEn(p.n)}).`;
  },
  'arena.ft.find.setup': (p) => `How this differs from Chen et al.: they fine-tune LLaMA (7B to 65B parameters) from a 2048-token context to up to 32768 (factor up to 16) for 1000 steps, and measure perplexity on long documents and passkey retrieval; here a ${p.params}-parameter model learns ${p.task} on synthetic sequences of ${p.L} symbols in ${p.steps} steps, is fine-tuned ${p.ftSteps} steps at ${p.L2} (factor 2, the same learning rate, no warm-up) and is scored on the tokens it gets right. The direction of a result can carry over; its size cannot.`,
};

const ko = {
  'arena.ft.title': '위치 보간(PI)으로 미세 조정하기 (Chen 외, 2023)',
  'arena.ft.explain': (p) => `Chen 외는 위치 보간(PI)으로 LLaMA의 문맥을 늘립니다. RoPE의 위치를 배율로 나누어, 두 배 긴 시퀀스도 학습 때 본 회전각 안에 머물게 합니다. 논문에 따르면 PI는 새 길이에서 짧은 미세 조정(약 1000스텝)이 필요하고, 그러고 나면 스케일링 없이 그 길이에서 미세 조정한 모델보다 낫습니다. 미세 조정 없는 PI는 성능이 떨어집니다. 여기서는 RoPE를 디코더에서 ${p.task} 과제로 길이 ${p.L}에서 ${p.steps}스텝 학습한 뒤, 길이 ${p.L2}에서 네 가지를 비교합니다. (a) 스케일링 없음, (b) 평가 때만 PI (옆에 NTK-aware와 YaRN), (c) PI를 켜고 길이 ${p.L2}에서 ${p.ftSteps}스텝 더 학습, (d) 스케일링 없이 길이 ${p.L2}에서 ${p.ftSteps}스텝 더 학습(추가 계산량이 같은 대조군). 시드는 ${p.seeds}개입니다.`,
  'arena.ft.steps': '2L에서의 미세 조정 스텝',
  'arena.ft.run': '미세 조정 실험 실행',
  'arena.ft.runAgain': '다시 실행',
  'arena.ft.cancel': '취소',
  'arena.ft.status.idle': '아직 실행하지 않았습니다. 시드마다 모델을 하나씩 브라우저의 웹 워커에서 학습하고, 각각을 두 가지 방식으로 미세 조정합니다.',
  'arena.ft.status.running': (p) => `실행 중: 시드 ${p.n}개 중 ${p.done}개 완료, ${p.total}스텝 중 ${p.steps}스텝, ${p.sec}초.`,
  'arena.ft.status.done': (p) => `완료: 시드 ${p.n}개, ${p.sec}초.`,
  'arena.ft.status.paused': (p) => `다른 페이지에 있는 동안 멈췄습니다: 시드 ${p.n}개 중 ${p.done}개 완료, ${p.total}스텝 중 ${p.steps}스텝.`,
  'arena.ft.status.cancelled': '취소했습니다.',
  'arena.ft.status.error': (msg) => `실행 하나가 실패했습니다: ${msg}`,
  'arena.ft.caption': (p) => `기호 ${p.L2}개(학습 길이의 2배)에서, 미세 조정한 모델은 다시 길이 ${p.L}에서도 잰 값입니다. 시드 ${p.n}개의 평균 [최소–최대], 시드마다 예제 ${p.samples}개.`,
  'arena.ft.col.cond': '모델',
  'arena.ft.col.at2': (L2) => `길이 ${L2} (2배)`,
  'arena.ft.col.at1': (L) => `길이 ${L} (1배), 미세 조정 후`,
  'arena.ft.cond.none': '(a) 스케일링 없음, 평가만',
  'arena.ft.cond.linear': '(b) 평가 때만 PI',
  'arena.ft.cond.ntk': '(b) 평가 때만 NTK-aware',
  'arena.ft.cond.yarn': '(b) 평가 때만 YaRN',
  'arena.ft.cond.ftPI': (s) => `(c) PI로 ${s}스텝 미세 조정`,
  'arena.ft.cond.ftPlain': (s) => `(d) 스케일링 없이 ${s}스텝 미세 조정`,
  'arena.ft.find.fit': (p) => `학습 길이(기호 ${p.L}개, ${p.steps}스텝)에서 RoPE는 시드 ${p.n}개 중 ${p.k}개에서 ${p.task} 과제를 맞춥니다 (토큰 정확도 ${p.at}, 0.9 이상을 맞춘 것으로 칩니다).`,
  'arena.ft.pair.above': (p) => `길이 ${p.L2}에서 ${p.unit} 정확도는 ‘${p.a}’ ${p.sa}, ‘${p.b}’ ${p.sb}입니다. 시드 ${p.n}개 중 ${p.k}개에서 더 높고, 시드 편차를 넘어섭니다.`,
  'arena.ft.pair.below': (p) => `길이 ${p.L2}에서 ${p.unit} 정확도는 ‘${p.a}’ ${p.sa}, ‘${p.b}’ ${p.sb}입니다. 시드 ${p.n}개 중 ${p.n - p.k}개에서 더 낮고, 시드 편차를 넘어섭니다.`,
  'arena.ft.pair.overlap': (p) => `길이 ${p.L2}에서 ${p.unit} 정확도는 ‘${p.a}’ ${p.sa}, ‘${p.b}’ ${p.sb}입니다 (시드 ${p.n}개 중 ${p.k}개에서 더 높음). 범위가 겹치므로 차이가 있다고 말할 수 없습니다.`,
  'arena.ft.find.others': (p) => `평가 때만 쓴 다른 스케일링의 길이 ${p.L2}에서의 ${p.unit} 정확도(시드 ${p.n}개): ${p.list.join(', ')}.`,
  'arena.ft.find.at1': (p) => `학습 길이(${p.L})로 돌아가 보면 ${p.unit} 정확도는 미세 조정 전 ${p.before}, 미세 조정 후 ${p.after.join(', ')}입니다. ${p.lost.length ? `모든 시드에서 시드 편차를 넘어 미세 조정 전보다 낮아진 쪽: ${p.lost.join(', ')}. 더 긴 길이에서(PI라면 스케일링된 위치에서) 미세 조정하면 모델이 처음 배운 길이에서 대가를 치릅니다.` : '어느 쪽도 시드 편차를 넘어 미세 조정 전보다 낮아지지는 않습니다.'}`,
  'arena.ft.find.unfit': (p) => `시드 ${p.n}개 중 ${p.n - p.k}개에서 모델이 학습 길이의 과제를 익히지 못했습니다 (학습 ${p.steps}스텝은 너무 적습니다). 그래서 아래 비교는 과제를 전혀 풀지 못하는 모델끼리의 비교입니다. 먼저 학습 스텝을 늘려 주세요.`,
  'arena.ft.find.chenUnfit': (p) => `여기서는 Chen 외의 주장을 확인하지 않습니다. 학습 길이에서 과제를 익힌 시드가 ${p.n}개 중 ${p.k}개뿐입니다.`,
  'arena.ft.find.chen': (p) => {
    const say = { agrees: '여기서도 그렇습니다', disagrees: '여기서는 시드 편차를 넘어 반대입니다', unresolved: '여기서는 가려지지 않습니다(범위가 겹침)' };
    return `Chen 외에 따르면 PI로 미세 조정한 모델이 스케일링 없이 미세 조정한 모델보다 낫습니다. 이 점은 ${say[p.ft]}. 또 미세 조정 없는 PI는 미세 조정한 PI에 못 미칩니다. 이 점은 ${say[p.evalOnly]} (시드 ${p.n}개 기준).`;
  },
  'arena.ft.find.setup': (p) => `Chen 외와 다른 점: 논문은 LLaMA(파라미터 70억~650억 개)를 문맥 2048토큰에서 최대 32768토큰(배율 최대 16)까지 1000스텝 미세 조정하고, 긴 문서의 퍼플렉서티와 패스키 찾기로 잽니다. 여기서는 파라미터 ${p.params}개짜리 모델이 기호 ${p.L}개짜리 합성 시퀀스로 ${p.task} 과제를 ${p.steps}스텝 배우고, 길이 ${p.L2}에서 ${p.ftSteps}스텝(배율 2, 같은 학습률, 워밍업 없음) 미세 조정한 뒤 맞힌 토큰 비율로 평가합니다. 결과의 방향은 옮겨 올 수 있어도, 크기는 옮겨 올 수 없습니다.`,
};

registerStrings({ en, ko });
export default { en, ko };
