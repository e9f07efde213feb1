// Strings of the Learn path's exercises (./exercises.js, ./exercises-code.js, drawn by
// ./exercises-ui.js), English and Korean, same keys. learn.ex.<step>.done is a function of the
// facts the exercise computes for the state on screen: what to notice, with its numbers. Values
// under float32 rounding are said as rounding, never as a difference.
import { registerStrings } from '../../i18n/index.js';

const minus = (s) => String(s).replace(/^-/, '−');

const en = {
  'learn.ex.reached': 'You got there.',
  'learn.ex.waiting': 'Not there yet: the page checks as you move the controls.',
  'learn.ex.show': 'Show the answer',
  'learn.ex.answer': 'What you would see:',

  'learn.ex.order.done': ({ reversed, revPct, revMax, other, movPct, x, y, was, now }) => `With ALiBi and the mask off, “${reversed}” ${revPct === null ? `changes nothing a word receives (largest change ${revMax}: float32 rounding)` : `changes what a word receives by ${revPct} %`}, while “${other}” moves ${movPct} % of a word’s attention. Reversing a sentence keeps every distance |i − j|, and without a mask ALiBi sees nothing but distances. In “${other}”, ${x} and ${y} are ${now} apart instead of ${was}: their bias changes, and so does the attention.`,
  'learn.ex.sinusoids.done': ({ base, d, same, changed, col, by, pair, before, after, first }) => `At base ${base} (d = ${d}), columns ${same} are exactly what they were at base 10,000 (largest change 0): pair 0 turns by ω₀ = base⁰ = 1 rad per position whatever the base, and repeats every ${first} positions. The other ${changed} columns all change, column ${col} the most (by up to ${by}); the slowest pair, ${pair}, now repeats every ${after} positions instead of ${before}. A larger base slows the slow pairs down.`,
  'learn.ex.shift.done': ({ p, k, q, here, rows, worst, top }) => `M_${k} is made from PE(${k}) alone: pair i of PE(${k}) is (sin ${k}ωᵢ, cos ${k}ωᵢ), the rotation itself, with no p in it. Applied to PE(${p}) it lands on PE(${q}) to within ${here}, and the same matrix takes every one of the ${rows} rows p = 0 … ${top} to p + ${k} with a gap of at most ${worst}: float32 rounding. So one fixed linear map can point from any word to “the word ${k} back”, wherever it stands.`,
  'learn.ex.dot.done': ({ d, base, drop, back, backPct, travel, refDrop, refBackPct, refTravel, slow }) => (slow
    ? `At d = ${d} and base ${base}, the curves stay above half their start over all 100 distances: the waves are too slow to show bumps here. Lower the base to see them.`
    : `At d = ${d} the dot product falls below half its start at k = ${drop}, then climbs back to ${backPct} % of it at k = ${back}; over the 100 distances it rises and falls by ${travel} times its start in all. At d = 64 with the same base, ${base}: below half at k = ${refDrop}, back up to at most ${refBackPct} %, ${refTravel} times in all. With few frequencies a far token can look as close as a near one; with many, their waves average out and the dot product tells near from far more reliably.`),
  'learn.ex.learned.done': ({ seeds, near, far, all, more, less, lo, hi }) => `Seeds ${seeds}: neighbouring rows have an average |cosine| of ${near}; rows 32 apart, ${far}. Over all ${all} seeds of the slider, neighbours come out more alike in ${more} and less alike in ${less}, and the gap runs from ${minus(lo)} to ${hi}, either sign: chance, not a pattern. No seed makes neighbours alike before training; whatever likeness a trained table shows, training put there.`,
  'learn.ex.naive.done': ({ L, D, value, size, word, times }) => `At length ${L} the last row holds ${value} in each of its ${D} columns: a vector of length ${size}, against ${word} for a word vector with entries of ±1, ${times} times as long. Added together, the position swamps the word, and a longer text only makes it worse.`,
  'learn.ex.relative.done': ({ dist, hi, mHi, biasHi, keepHi, lo, mLo, biasLo, keepLo, kept }) => `A key ${dist} positions back: head ${hi} (slope ${mHi}) takes ${biasHi} off its score, so it gets ${keepHi} times the weight of an equally good match at distance 0. That head looks at its neighbours only. Head ${lo} (slope ${mLo}) takes off just ${biasLo} and keeps ${keepLo} % of that weight: it still sees the word. Heads ${kept} keep more than half at ${dist} back.`,
  'learn.ex.rope.done': ({ base, pairs, L, half, refHalf, turn, refTurn }) => `At base ${base}, ${half} of the ${pairs} pairs turn more than half a circle across the ${L} positions shown (at base 10,000: ${refHalf}), so the stripes crowd together. Even the slowest pair comes full circle every ${turn} positions (at base 10,000: every ${refTurn}). Past ${turn} positions every pair has gone round at least once, and no pair is left to measure long distances: that is why far-apart tokens become hard to tell apart.`,
  'learn.ex.decay.done': ({ d, N, halfA, halfB, times, slowA, slowB, pairs }) => `With d = ${d}, the score of q = k drops below one half at distance ${halfA} for base 500, and only at ${halfB} for base 500,000: about ${times} times farther. At base 500,000, ${slowB} of the ${pairs} pairs have wavelengths longer than the ${N} positions drawn; at base 500, ${slowA}. Slow pairs stay in step, so the score stays high.`,
  'learn.ex.scaling.done': ({ pairs, pi0, wl0, wl0pi, kept, lastKept, wlKept, full }) => `At factor 8, PI stretches all ${pairs} pairs by ${pi0}×: pair 0, which repeated every ${wl0} positions, now repeats every ${wl0pi}, so neighbouring words are an eighth of the angle apart that the model learned. YaRN keeps pairs 0–${lastKept} exactly as trained (${kept} pairs, wavelengths up to ${wlKept} positions) and stretches ${full} slow pairs the full 8×: word order within a sentence reads at the angles of training.`,
  'learn.ex.patches.done': ({ a, b, stepA, stepB, both, worst, brightA, brightB }) => `At the corner (${a}) and at the centre (${b}), the same offset gives the same similarity: one step along the row is ${stepA} at the corner and ${stepB} at the centre, and over the ${both} offsets both can show the largest difference is ${worst}, float32 rounding. The bright area keeps its shape; at the corner the edges of the image cut it off: ${brightA} patches at 0.9 or above there, ${brightB} at the centre.`,
  'learn.ex.mrope.done': ({ h, w, gh, gw, tokens, start, top, ids, resume, place, gap }) => `At ${h} × ${w} patches the image becomes ${gh} × ${gw} = ${tokens} tokens, yet its ids run only from ${start} to ${top}: t stays at ${start}, and the rows (${gh}) and columns (${gw}) count on their own axes, so it spends ${ids}. The text after it resumes at ${resume}, one past the largest id, while ${place} tokens come before it: ${gap} ids fewer than places. The image takes ${tokens} places in the sequence but only ${ids} ids.`,

  'learn.quiz.title': 'Check yourself in code',
  'learn.quiz.intro.sinusoids': 'In the explorer, “Copy as code” in its nn.Module form writes this table as a PyTorch module, SinusoidalPositionalEncoding, that keeps the table in its buffer pe. Work out what these lines print without running them; each answer is checked against PE Lab’s numbers as you type.',
  'learn.quiz.intro.learned': 'BERT and GPT-2 keep their position table in an nn.Embedding: one trainable row per position. What do these lines print?',
  'learn.quiz.code': 'Code',
  'learn.quiz.right': 'Right.',
  'learn.quiz.wrong': 'Not yet.',
  'learn.quiz.digits': (n) => `Close: write ${n} decimals, as PyTorch prints them.`,
  'learn.quiz.sinShape.ask': 'What does it print?',
  'learn.quiz.sinShape.why': ({ shape, rows, cols }) => `torch.Size([${shape}]): the buffer is built once for max_len = ${rows} positions of d_model = ${cols} channels, with a batch axis of 1 in front so that it adds to x of shape (N, S, d_model).`,
  'learn.quiz.sinShape.hint': 'Three axes: a batch axis, then positions, then channels.',
  'learn.quiz.sinValues.ask': 'What does it print? (PyTorch prints 4 decimals.)',
  'learn.quiz.sinValues.why': ({ values, p, cols, d }) => `tensor([${values}]): position ${p}, columns ${cols}, that is sin(${p}·ω₁), cos(${p}·ω₁) and sin(${p}·ω₂), with ωᵢ = 10000^(−2i/${d}).`,
  'learn.quiz.sinValues.hint': 'Column 2i holds sin(p·ωᵢ), column 2i + 1 holds cos(p·ωᵢ), with ωᵢ = 10000^(−2i/64).',
  'learn.quiz.sinParams.ask': 'How many trainable numbers does it print?',
  'learn.quiz.sinParams.why': ({ count }) => `0: the table is a buffer (register_buffer), not an nn.Parameter. Nothing in it is trained; it holds ${count} fixed numbers.`,
  'learn.quiz.sinParams.hint': 'Is the table an nn.Parameter, or a buffer?',
  'learn.quiz.sinCheck.ask': 'This is the code’s own last line, its self-check. What does it print?',
  'learn.quiz.sinCheck.why': ({ expected, row, col, fn, i }) => `${expected}: pos_enc.pe[0] drops the batch axis, and entry [${row}, ${col}] is ${fn}(${row}·ω${i === 0 ? '₀' : `_${i}`}).`,
  'learn.quiz.sinCheck.hint': 'The shape without the batch axis, then one value to 4 decimals.',
  'learn.quiz.embParams.ask': 'How many parameters does it print? (This is BERT-base’s position table.)',
  'learn.quiz.embParams.why': ({ count, rows, cols }) => `${count} = ${rows} × ${cols}: one trainable vector of ${cols} numbers for each of ${rows} positions. A sinusoidal table adds none.`,
  'learn.quiz.embParams.hint': 'One row per position, one column per channel, and every entry is trained.',
  'learn.quiz.embShape.ask': 'What does it print?',
  'learn.quiz.embShape.why': ({ shape, n, rows }) => `torch.Size([${shape}]): one row looked up for each of the ${n} positions. Position ${rows} or beyond has no row: the lookup fails with an IndexError.`,
  'learn.quiz.embShape.hint': 'One row of the table per position looked up.',
};

const ko = {
  'learn.ex.reached': '도달했습니다.',
  'learn.ex.waiting': '아직 도달하지 않았습니다. 값을 바꾸는 대로 페이지가 확인합니다.',
  'learn.ex.show': '정답 보기',
  'learn.ex.answer': '그 상태에서 보이는 것:',

  'learn.ex.order.done': ({ reversed, revPct, revMax, other, movPct, x, y, was, now }) => `마스크를 끈 ALiBi에서 “${reversed}”의 경우 ${revPct === null ? `각 단어가 받아 오는 값이 전혀 바뀌지 않습니다(최대 변화 ${revMax}, float32 반올림 수준)` : `각 단어가 받아 오는 값이 ${revPct} % 바뀝니다`}. 반면 “${other}”에서는 한 단어의 어텐션 중 ${movPct} %가 옮겨 갑니다. 문장을 뒤집어도 단어 사이의 거리 |i − j|는 모두 그대로이고, 마스크가 없는 ALiBi는 거리만 봅니다. “${other}”에서는 ${x}, ${y} 두 단어의 거리가 ${was}칸에서 ${now}칸으로 바뀌므로 편향이 달라지고, 어텐션도 달라집니다.`,
  'learn.ex.sinusoids.done': ({ base, d, same, changed, col, by, pair, before, after, first }) => `base ${base}(d = ${d})에서 ${same}열은 base 10,000일 때와 완전히 같습니다(최대 변화 0). 0번 쌍은 base와 상관없이 위치마다 ω₀ = base⁰ = 1 rad씩 돌아서 ${first}칸마다 반복하기 때문입니다. 나머지 열 ${changed}개는 모두 달라지고, 가장 크게 달라지는 열은 ${col}열(최대 ${by})입니다. 가장 느린 ${pair}번 쌍은 이제 ${before}칸이 아니라 ${after}칸마다 반복합니다. base가 커지면 느린 쌍이 더 느려집니다.`,
  'learn.ex.shift.done': ({ p, k, q, here, rows, worst, top }) => `회전 행렬 M_${k}의 재료는 PE(${k})뿐입니다. PE(${k})의 i번째 쌍 (sin ${k}ωᵢ, cos ${k}ωᵢ)가 곧 회전이고, 여기에는 p가 들어 있지 않습니다. 이 행렬을 PE(${p})에 적용하면 PE(${q})와의 차이가 ${here} 이내이고, 같은 행렬이 p = 0 … ${top}의 행 ${rows}개를 모두 p + ${k}로 옮길 때 최대 차이도 ${worst}입니다. float32 반올림 수준입니다. 그래서 고정된 선형 변환 하나로, 단어가 어디에 있든 “${k}칸 앞의 단어”를 가리킬 수 있습니다.`,
  'learn.ex.dot.done': ({ d, base, drop, back, backPct, travel, refDrop, refBackPct, refTravel, slow }) => (slow
    ? `d = ${d}, base ${base}에서는 보이는 거리 100까지 내내 곡선이 시작값의 절반 위에 머뭅니다. 파동이 너무 느려서 여기서는 울퉁불퉁함이 드러나지 않습니다. base를 낮춰 보세요.`
    : `d = ${d}에서는 내적이 k = ${drop}에서 시작값의 절반 아래로 떨어졌다가, k = ${back}에서 시작값의 ${backPct} %까지 다시 올라옵니다. 거리 100까지 오르내린 폭을 모두 더하면 시작값의 ${travel}배입니다. base는 ${base} 그대로 두고 d = 64로 하면 k = ${refDrop}에서 절반 아래로 내려가고, 그 뒤로는 많아야 ${refBackPct} %까지 올라오며, 오르내린 폭은 모두 ${refTravel}배입니다. 주파수가 적으면 먼 토큰이 가까운 토큰만큼 닮아 보일 수 있습니다. 주파수가 많으면 파동들이 서로 평균을 이루어, 내적이 가까운 것과 먼 것을 더 믿을 만하게 구별합니다.`),
  'learn.ex.learned.done': ({ seeds, near, far, all, more, less, lo, hi }) => `시드 ${seeds}: 이웃한 행끼리의 |코사인| 평균은 ${near}, 32칸 떨어진 행끼리는 ${far}입니다. 슬라이더의 시드 ${all}개를 모두 보면 이웃이 더 닮은 시드가 ${more}개, 덜 닮은 시드가 ${less}개이고, 그 차이는 ${minus(lo)}에서 ${hi}까지 양쪽으로 흩어집니다. 패턴이 아니라 우연입니다. 학습 전에는 어떤 시드도 이웃을 닮게 만들지 않습니다. 학습된 표에서 이웃이 닮아 보인다면, 그것은 학습이 만든 것입니다.`,
  'learn.ex.naive.done': ({ L, D, value, size, word, times }) => `길이 ${L}에서 마지막 행은 열 ${D}개가 모두 ${value}입니다. 벡터 길이는 ${size}이고, 값이 ±1인 단어 벡터의 길이 ${word}의 ${times}배입니다. 둘을 더하면 위치가 단어를 덮어 버리고, 글이 길어질수록 더 심해집니다.`,
  'learn.ex.relative.done': ({ dist, hi, mHi, biasHi, keepHi, lo, mLo, biasLo, keepLo, kept }) => `${dist}칸 앞의 키를 봅시다. ${hi}번 헤드(기울기 ${mHi})에서는 점수가 ${biasHi}만큼 깎여서, 거리 0에 있는 똑같이 잘 맞는 키에 비해 가중치가 ${keepHi}배밖에 되지 않습니다. 이 헤드는 바로 옆만 봅니다. ${lo}번 헤드(기울기 ${mLo})에서는 ${biasLo}만큼만 깎여 가중치의 ${keepLo} %가 남습니다. 이 헤드는 그 단어를 여전히 봅니다. ${dist}칸 앞에서도 가중치가 절반 넘게 남는 헤드는 ${kept}번입니다.`,
  'learn.ex.rope.done': ({ base, pairs, L, half, refHalf, turn, refTurn }) => `base ${base}에서는 ${pairs}쌍 가운데 ${half}쌍이 보이는 ${L}칸 안에서 반 바퀴 넘게 돕니다(base 10,000에서는 ${refHalf}쌍). 그래서 줄무늬가 촘촘해집니다. 가장 느린 쌍도 ${turn}칸마다 한 바퀴를 돕니다(base 10,000에서는 ${refTurn}칸마다). ${turn}칸을 넘으면 모든 쌍이 적어도 한 바퀴를 돌았기 때문에, 먼 거리를 재 줄 쌍이 남지 않습니다. 멀리 떨어진 토큰끼리 구별하기 어려워지는 이유입니다.`,
  'learn.ex.decay.done': ({ d, N, halfA, halfB, times, slowA, slowB, pairs }) => `d = ${d}에서 q = k의 점수는 base 500이면 거리 ${halfA}에서, base 500,000이면 거리 ${halfB}에서야 절반 아래로 내려갑니다. 약 ${times}배 먼 거리입니다. base 500,000에서는 ${pairs}쌍 가운데 ${slowB}쌍의 파장이 그려진 ${N}칸보다 길고, base 500에서는 ${slowA}쌍입니다. 느린 쌍은 오래 박자를 맞추므로 점수가 높게 유지됩니다.`,
  'learn.ex.scaling.done': ({ pairs, pi0, wl0, wl0pi, kept, lastKept, wlKept, full }) => `배율 8에서 PI는 ${pairs}쌍을 모두 ${pi0}배로 늘입니다. ${wl0}칸마다 반복하던 0번 쌍이 이제 ${wl0pi}칸마다 반복하므로, 이웃한 단어 사이의 각도가 모델이 배운 각도의 8분의 1이 됩니다. YaRN은 0–${lastKept}번 쌍(${kept}쌍, 파장 ${wlKept}칸까지)을 학습 때 그대로 두고, 느린 쌍 ${full}개만 8배로 온전히 늘입니다. 그래서 문장 안의 단어 순서는 학습 때와 같은 각도로 읽힙니다.`,
  'learn.ex.patches.done': ({ a, b, stepA, stepB, both, worst, brightA, brightB }) => `모서리 (${a})에서도 가운데 (${b})에서도, 간격이 같으면 유사도가 같습니다. 행을 따라 한 칸 가면 모서리에서 ${stepA}, 가운데에서 ${stepB}이고, 두 곳 모두에서 보이는 간격 ${both}가지의 최대 차이는 ${worst}로 float32 반올림 수준입니다. 밝은 영역의 모양은 그대로이고, 모서리에서는 이미지 가장자리가 그 영역을 잘라 냅니다. 유사도가 0.9 이상인 패치는 모서리에서 ${brightA}개, 가운데에서 ${brightB}개입니다.`,
  'learn.ex.mrope.done': ({ h, w, gh, gw, tokens, start, top, ids, resume, place, gap }) => `${h} × ${w} 패치 이미지는 합친 뒤 ${gh} × ${gw} = ${tokens}개 토큰이 되지만, id는 ${start}부터 ${top}까지만 씁니다. t는 ${start}에 머물고 행(${gh}개)과 열(${gw}개)은 각자의 축에서 세므로, 쓰는 id는 ${ids}개입니다. 이미지 뒤의 텍스트는 가장 큰 id보다 하나 큰 ${resume}에서 다시 시작하지만, 그 앞에는 토큰이 ${place}개 있습니다. 자리보다 id가 ${gap}만큼 작습니다. 이미지는 시퀀스에서 ${tokens}자리를 차지하지만 id는 ${ids}개만 씁니다.`,

  'learn.quiz.title': '코드로 확인하기',
  'learn.quiz.intro.sinusoids': '탐색기의 “코드로 복사”에서 모듈 형태를 고르면 이 표를 PyTorch 모듈로 써 줍니다. 표는 그 모듈의 버퍼 pe에 담깁니다. 아래 코드가 무엇을 출력할지 실행하지 말고 따져 보세요. 입력하는 동안 PE Lab이 계산한 값과 바로 비교합니다.',
  'learn.quiz.intro.learned': 'BERT와 GPT-2는 위치 표를 임베딩 레이어에 담습니다. 위치마다 학습되는 행이 하나씩 있습니다. 아래 코드는 무엇을 출력할까요?',
  'learn.quiz.code': '코드',
  'learn.quiz.right': '맞습니다.',
  'learn.quiz.wrong': '아직 아닙니다.',
  'learn.quiz.digits': (n) => `거의 맞았습니다. PyTorch가 출력하는 대로 소수점 아래 ${n}자리까지 써 주세요.`,
  'learn.quiz.sinShape.ask': '무엇이 출력될까요?',
  'learn.quiz.sinShape.why': ({ shape, rows, cols }) => `torch.Size([${shape}]): 버퍼는 max_len = ${rows}개 위치, d_model = ${cols}개 채널로 한 번만 만들어지고, (N, S, d_model) 모양의 x에 더해지도록 맨 앞에 크기 1인 배치 축이 붙습니다.`,
  'learn.quiz.sinShape.hint': '축은 세 개입니다. 배치 축, 위치, 채널 순서입니다.',
  'learn.quiz.sinValues.ask': '무엇이 출력될까요? (PyTorch는 소수점 아래 4자리까지 출력합니다.)',
  'learn.quiz.sinValues.why': ({ values, p, cols, d }) => `tensor([${values}]): 위치 ${p}의 ${cols}열, 곧 sin(${p}·ω₁), cos(${p}·ω₁), sin(${p}·ω₂)이고, ωᵢ = 10000^(−2i/${d})입니다.`,
  'learn.quiz.sinValues.hint': '2i열에는 sin(p·ωᵢ), 2i + 1열에는 cos(p·ωᵢ)가 있고, ωᵢ = 10000^(−2i/64)입니다.',
  'learn.quiz.sinParams.ask': '학습되는 값은 몇 개라고 출력될까요?',
  'learn.quiz.sinParams.why': ({ count }) => `0: 표는 nn.Parameter가 아니라 버퍼(register_buffer)입니다. 학습되는 값은 하나도 없고, 고정된 값 ${count}개를 담고 있을 뿐입니다.`,
  'learn.quiz.sinParams.hint': '표는 nn.Parameter일까요, 버퍼일까요?',
  'learn.quiz.sinCheck.ask': '코드의 마지막 줄, 곧 자체 검사 줄입니다. 무엇이 출력될까요?',
  'learn.quiz.sinCheck.why': ({ expected, row, col, fn, i }) => `${expected}: pos_enc.pe[0]에서 배치 축이 빠지고, [${row}, ${col}] 값은 ${fn}(${row}·ω${i === 0 ? '₀' : `_${i}`})입니다.`,
  'learn.quiz.sinCheck.hint': '배치 축을 뺀 모양, 그리고 소수점 아래 4자리까지의 값 하나입니다.',
  'learn.quiz.embParams.ask': '파라미터 수는 몇 개라고 출력될까요? (BERT-base의 위치 표입니다.)',
  'learn.quiz.embParams.why': ({ count, rows, cols }) => `${count} = ${rows} × ${cols}: 위치 ${rows}개마다 학습되는 값 ${cols}개짜리 벡터가 하나씩 있습니다. 사인파 표는 파라미터를 하나도 더하지 않습니다.`,
  'learn.quiz.embParams.hint': '위치마다 행 하나, 채널마다 열 하나이고, 모든 값이 학습됩니다.',
  'learn.quiz.embShape.ask': '무엇이 출력될까요?',
  'learn.quiz.embShape.why': ({ shape, n, rows }) => `torch.Size([${shape}]): 위치 ${n}개마다 행을 하나씩 찾아옵니다. 위치 ${rows} 이상에는 행이 없어서 IndexError가 납니다.`,
  'learn.quiz.embShape.hint': '찾아오는 위치마다 표의 행이 하나씩입니다.',
};

registerStrings({ en, ko });
export default { en, ko };
