// The Learn path's strings (web/pages/learn/), English and Korean, same keys; registered with the
// page's dictionaries when the path loads. Sentences under a figure are functions of the numbers
// the step computed (never a fixed verdict).
import { registerStrings } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';

const n = formatInt;

const en = {
  'learn.title': 'Learn: positions in a transformer, step by step',
  'learn.intro': 'Twelve short steps, from why a transformer needs positions at all to how long-context models stretch them. Each step shows one idea with a live figure: move its control, read the sentence under it (it is computed from what you see), try the question, then open the same setting in the explorer.',
  'learn.start': 'Start with step 1',
  'learn.all': 'All steps',
  'learn.count': (i, total) => `Step ${i} of ${total}`,
  'learn.nav': 'Learn path',
  'learn.try': 'Try this:',
  'learn.explore': 'Open this in the explorer',
  'learn.unknown': (id) => `There is no step called “${id}”. Here are all the steps.`,
  'learn.colour': (what) => `Colour: ${what}`,
  'learn.failed': (msg) => `This figure could not be computed: ${msg}`,

  'learn.axis.dimension': 'dimension',
  'learn.axis.position': 'position',
  'learn.axis.value': 'value',
  'learn.axis.length': 'length (Euclidean norm)',
  'learn.axis.distance': 'distance k',
  'learn.axis.delta': 'distance δ',
  'learn.axis.dot': 'PE(p) · PE(p + k)',
  'learn.axis.key': 'key j',
  'learn.axis.query': 'query i',
  'learn.axis.bias': 'bias added to the score',
  'learn.axis.bucket': 'bucket',
  'learn.axis.index': 'index of the learned vector',
  'learn.axis.keyPos': 'key position n',
  'learn.axis.queryPos': 'query position m',
  'learn.axis.score': 'score q_m · k_n',
  'learn.axis.meanCos': 'score of q = k (1 at distance 0)',
  'learn.axis.pair': 'frequency pair i (fast → slow)',
  'learn.axis.stretch': 'wavelength stretched by (×)',
  'learn.axis.col': 'patch column',
  'learn.axis.row': 'patch row',
  'learn.axis.cos': 'cosine similarity',
  'learn.axis.token': 'token',
  'learn.axis.posId': 'position id',

  'learn.control.base': 'Base',
  'learn.control.dim': 'Dimension d',
  'learn.control.k': 'Shift k',
  'learn.control.p': 'Position p',
  'learn.control.table': 'Table',
  'learn.control.seed': 'Random seed',
  'learn.control.scheme': 'Scheme',
  'learn.control.length': 'Length',
  'learn.control.factor': 'Scaling factor',
  'learn.control.method': 'Method',
  'learn.control.patchRow': 'Patch row',
  'learn.control.patchCol': 'Patch column',
  'learn.control.imgH': 'Image height (patches)',
  'learn.control.imgW': 'Image width (patches)',

  // 1
  'learn.order.title': 'Why order gets lost',
  'learn.order.summary': '“I love AI” and “AI love I” look the same to attention without positions.',
  'learn.order.lead': [
    'Attention compares every word with every other word and mixes them by how well they match. Nothing in that computation says which word came first: shuffle the words and every score just moves along with them.',
    'Below, the same words in two orders. With no positional encoding and no mask, what each word receives is exactly the same in both, so the model cannot tell the sentences apart. Pick an encoding, or switch on the causal mask, and watch the bars part.',
  ],
  'learn.order.try': 'Choose ALiBi with the mask off and compare “I love AI” with “AI love I”, then with “love I AI”. Why does only one of them change?',

  // 2
  'learn.sinusoids.title': 'Sinusoids and wavelengths',
  'learn.sinusoids.summary': 'Each pair of columns is a sine and a cosine with its own wavelength.',
  'learn.sinusoids.lead': [
    'The original Transformer gives position p a vector of sines and cosines: column 2i holds sin(p·ωᵢ) and column 2i + 1 holds cos(p·ωᵢ), with ωᵢ = base^(−2i/d).',
    'The left columns oscillate fast and tell neighbours apart; the right columns change slowly and tell the beginning from the end. Read down a column to see its wave.',
  ],
  'learn.sinusoids.derived': ({ first, lastIndex, lastCols, last, L, slow, pairs }) => `Pair 0 (columns 0, 1) repeats every ${first} positions; pair ${lastIndex} (columns ${lastCols}) every ${last}. ${slow} of the ${pairs} pairs ${slow === 1 ? 'has a wavelength' : 'have wavelengths'} over four times the ${L} positions shown, so ${slow === 1 ? 'it barely moves' : 'they barely move'} here.`,
  'learn.sinusoids.try': 'Set the base to 20000. Which columns change, and which stay as they were? (The wavelength is 2π·base^(2i/d): for i = 0 the base does not enter.)',
  'learn.sinusoids.magnitudes': 'How big is P next to the word vectors?',
  'learn.sinusoids.magnitudesLink': 'Open the magnitudes view (d = 512, with and without √d_model)',
  'learn.scaling.finetune': 'Models are fine-tuned a little at the longer length with the scaling on (Chen et al. 2023). Does it help more than scaling alone?',
  'learn.scaling.finetuneLink': 'Try it in the Arena: fine-tune at twice the length, with and without position interpolation, over seeds',
  'learn.patches.vit': 'ViT itself learns a 1-D table over the patches, and resizes it when the image grows.',
  'learn.patches.vitLink': 'Open a learned table on the grid and its bicubic resize (14 × 14 → 24 × 24)',

  // 3
  'learn.shift.title': 'Every position is unique, and a shift is a rotation',
  'learn.shift.summary': 'PE(p + k) = M_k · PE(p), with M_k the same for every p.',
  'learn.shift.lead': [
    'Two things make the sinusoidal table useful. No two positions get the same vector, and moving by k positions is one fixed linear map: each (sin, cos) pair is rotated by the angle k·ωᵢ, whatever p is.',
    'The figure draws PE(p) and PE(p + k) across the dimensions, and dashed over it, M_k applied to PE(p). If the dashed curve lies on PE(p + k), the rotation is exact.',
  ],
  'learn.shift.series.p': (p) => `PE(${p})`,
  'learn.shift.series.target': (q) => `PE(${q})`,
  'learn.shift.series.moved': (k, p) => `M_${k} · PE(${p})`,
  'learn.shift.derived': ({ p, k, err, q, dist, L }) => `Largest gap between M_${k}·PE(${p}) and PE(${p + k}): ${err}, float32 rounding. Among the first ${n(L)} positions, the one closest to ${p} is ${q}, still ${dist} away: no two rows coincide.`,
  'learn.shift.try': 'Keep k and move p to 100 or beyond. Does the dashed curve still land on PE(p + k)? What does that say about how attention can find “the word k positions back”?',

  // 4
  'learn.dot.title': 'Dot product against distance',
  'learn.dot.summary': 'PE(p)·PE(p + k) depends on k only, and falls with it, not smoothly.',
  'learn.dot.lead': [
    'Attention scores are dot products. For sinusoidal vectors, PE(p)·PE(p + k) = Σᵢ cos(k·ωᵢ): the position p cancels and only the distance k is left.',
    'The figure draws this dot product against k from three starting points p. The curves lie on top of each other. Since every row has the same length, distance tells the same story: ‖PE(p) − PE(p + k)‖² = d − 2·PE(p)·PE(p + k).',
  ],
  'learn.dot.series': (p) => `from p = ${p}`,
  'learn.dot.derived': ({ spread, top, kdrop, drop, kback, back }) => `The three curves differ by at most ${spread}. The dot product starts at d/2 = ${top} and falls below half of that at k = ${kdrop} (${drop}), yet at k = ${kback} it is back up to ${back}: farther is not always less alike.`,
  'learn.dot.derivedSteady': ({ spread, top, kdrop, drop, kback, back }) => `The three curves differ by at most ${spread}. The dot product starts at d/2 = ${top}, falls below half of that at k = ${kdrop} (${drop}) and never climbs above ${back} (k = ${kback}) again.`,
  'learn.dot.derivedSlow': ({ spread, top, K }) => `The three curves differ by at most ${spread}. The dot product starts at ${top} and stays above half of that for all ${K} distances shown: with this base the waves are too slow to tell these distances apart well.`,
  'learn.dot.try': 'Lower the dimension to 16. How much bumpier does the curve get, and why would a model prefer many frequencies?',

  // 5
  'learn.learned.title': 'Learned position tables',
  'learn.learned.summary': 'BERT and GPT-2 learn one vector per position, starting from noise.',
  'learn.learned.lead': [
    'Instead of a formula, BERT and GPT-2 keep a table with one trainable vector per position and add it to the word embedding. It starts as small random numbers (standard deviation 0.02) and training shapes it.',
    'The figure starts with the table before training. Nothing in it says that position 5 is next to position 6; that has to be learned from data, and a position beyond the table\'s last row simply has no vector. The Table menu also holds three tables the Arena trained: see what training made of them.',
  ],
  'learn.learned.derived': ({ near, far, rms, L }) => `Neighbouring rows have an average |cosine| of ${near}; rows 32 apart, ${far}: before training, neighbours are no more alike than strangers. The entries are about ${rms} in size, and there are exactly ${n(L)} rows.`,
  'learn.learned.derivedChance': ({ near, far, rms, L }) => `Neighbouring rows have an average |cosine| of ${near}; rows 32 apart, ${far}. With this seed neighbours happen to be a little more alike, by chance: nothing in the initialisation asks for it. The entries are about ${rms} in size, and there are exactly ${n(L)} rows.`,
  'learn.learned.untrained': 'before training (random)',
  'learn.learned.trainedSeed': (k) => `trained in the Arena, seed ${k}`,
  'learn.learned.derivedTrained': ({ seed, steps, n, d, rows, acc, near, far, m, all, noise, sin, wave, aboveNoise, seeds }) => `Trained by the Arena on its k-back task (an encoder, ${n} positions and the start token's, so ${rows} rows; d_model ${d}; ${steps} steps), with seed ${seed} it gets ${acc} of test sequences right. Neighbouring rows have an average |cosine| of ${near}, rows 32 apart ${far}. One sine wave explains a median ${m} of a column's variance (the ${seeds} seeds: ${all}), against ${noise} for an untrained table of this size and ${sin} for the sinusoidal one. ${wave > 0 ? `Sine-like in ${wave} of ${seeds} seeds.` : aboveNoise > 0 ? `Above the untrained table’s range in ${aboveNoise} of ${seeds} seeds, but sine-like in none.` : `No more sine-like than an untrained table, in ${seeds} of ${seeds} seeds.`} A learned table may become wave-like, as some large models’ are; nothing in training forces it.`,
  'learn.learned.try': 'Change the seed a few times. Does any seed give neighbours more alike than distant rows? Then pick a table trained in the Arena: did training make it wave-like? (A trained GPT-2 table can be loaded in the explorer.)',

  // 6
  'learn.naive.title': 'Integer and binary positions, and why they fail',
  'learn.naive.summary': 'The obvious encodings are too big, depend on the length, or jump.',
  'learn.naive.lead': [
    'The simplest idea is to write the position itself into the vector: p in every column, or p divided by the length, or the bits of p.',
    'Each has a flaw you can see here. Switch between them and change the length.',
  ],
  'learn.naive.integer': 'integer p',
  'learn.naive.series.size': 'length of the position vector',
  'learn.naive.series.step': 'distance to the previous position',
  'learn.naive.series.word': (d) => `length of a word vector (√${d}, entries ±1)`,
  'learn.naive.normalized': 'p / (length − 1)',
  'learn.naive.binary': 'binary bits of p',
  'learn.naive.derived.integer': ({ max, norm, D, word }) => `The last row holds ${n(max)} in every column: a vector of length ${norm}, against ${word} (√${D}) for a word vector whose entries are around ±1. The position drowns the meaning, and grows without bound.`,
  'learn.naive.derived.normalized': ({ step, p10 }) => `Neighbours now differ by only ${step}, and position 10 is written as ${p10} here, but as something else in a sentence of another length: the same position gets different codes.`,
  'learn.naive.derived.binary': ({ p, q, flips }) => `Going from ${n(p)} to ${n(q)} flips ${flips} bits, while most steps flip one: neighbouring positions are not equally far apart, and the values only ever take 0 or 1.`,
  'learn.naive.try': 'Set the length to 512 with the integer scheme. How large is the last row compared with a word vector of ±1 entries?',

  // 7
  'learn.relative.title': 'Relative biases: Shaw, T5, ALiBi',
  'learn.relative.summary': 'Add to each score something that depends on the distance j − i only.',
  'learn.relative.lead': [
    'Relative schemes leave the word vectors alone and change the score of query i for key j by something that depends only on j − i. The figure shows that quantity for every (query, key) pair.',
    'Shaw et al. clip the distance to ±k and learn one vector per clipped distance. T5 puts distances into buckets (exact nearby, logarithmic farther) with a learned bias per bucket. ALiBi learns nothing: it subtracts m·(i − j), a fixed slope m per head.',
  ],
  'learn.relative.param.shaw': 'Clip distance k',
  'learn.relative.param.t5': 'Number of buckets',
  'learn.relative.param.alibi': 'ALiBi head',
  'learn.relative.derived.alibi': ({ head, m, at10, steep, flat, hi, lo }) => `Head ${head} has slope ${m}: a key 10 positions back loses ${at10} from its score. The slopes halve from head to head, from ${steep} (head ${hi}, the steepest) to ${flat} (head ${lo}, the flattest).`,
  'learn.relative.derived.shaw': ({ k, distinct, own, L }) => `Seen from the last query, the ${n(L)} keys get only ${distinct} different indices: every key more than ${own} back shares one vector, so beyond k = ${k} all distances look alike.`,
  'learn.relative.derived.t5': ({ distinct, own, L }) => `Seen from the last query, the ${n(L)} keys fall into ${distinct} buckets; the last new bucket starts ${own} positions back, and everything farther shares it.`,
  'learn.relative.try': 'In ALiBi, step through the heads. Which head can still see a word 40 positions back, and which one barely looks past its neighbours?',

  // 8
  'learn.rope.title': 'RoPE: rotate the query and the key',
  'learn.rope.play': 'Play',
  'learn.rope.rotorTitle': 'The query’s pairs as the position moves: the fast pair races round, the slow one barely turns',
  'learn.rope.pause': 'Pause',
  'learn.rope.rotorPair': ({ i, deg }) => `pair ${i}: turned ${deg}°`,
  'learn.rope.rotorAria': ({ p, turns }) => `The query's pairs at position ${p}, turned since position 0: ${turns}.`,
  'learn.rope.summary': 'Rotating q by m·θ and k by n·θ leaves a score that depends on m − n.',
  'learn.rope.lead': [
    'RoPE does not add anything. It splits q and k into pairs of numbers and rotates each pair by an angle proportional to the position: by m·θᵢ for a query at m, by n·θᵢ for a key at n.',
    'A dot product only sees the angle between two vectors, so the score depends on (m − n)·θᵢ: the relative position, with no extra table. The figure takes one fixed q and one fixed k, puts them at every position, and colours every score q_m·k_n.',
  ],
  'learn.rope.derived': ({ dev, scale, first, last, turn, pairs }) => `Along each diagonal (one value of m − n), the score changes by at most ${dev}, against scores up to ${scale}: only the distance matters. Of the ${pairs} pairs, the fastest turns ${first} rad per position and the slowest ${last} rad, a full turn every ${turn} positions.`,
  'learn.rope.try': 'Set the base to 100. What happens to the stripes, and why would a small base make far-apart tokens hard to tell apart?',

  // 9
  'learn.decay.title': 'Long-range decay',
  'learn.decay.summary': 'With RoPE, the score of two equal vectors tends to fall with their distance.',
  'learn.decay.lead': [
    'Put the same vector q = k at two positions δ apart. After rotation their score is the average of cos(δ·θᵢ) over the pairs: 1 at δ = 0, and smaller as the fast pairs fall out of step.',
    'The base decides how many pairs are slow. A larger base keeps more pairs in step for longer, so the score stays high farther out; this is one reason long-context models raise the base.',
  ],
  'learn.decay.series': (base) => `base ${base}`,
  'learn.decay.derived': ({ half, back, N, base }) => `With base ${base}, the score first drops below one half at distance ${n(half)}. Beyond that it never comes back above ${back} within ${n(N)} positions.`,
  'learn.decay.derivedBack': ({ half, back, kback, base }) => `With base ${base}, the score first drops below one half at distance ${n(half)}, yet it climbs back to ${back} at distance ${n(kback)}: the decay is a trend, not a rule.`,
  'learn.decay.derivedNever': ({ N, base }) => `With base ${base}, the score stays above one half for all ${n(N)} positions shown.`,
  'learn.decay.try': 'Compare base 500 with base 500,000. Where does each curve cross one half?',

  // 10
  'learn.scaling.title': 'Stretching RoPE for long context',
  'learn.scaling.summary': 'PI, NTK, YaRN and Llama 3 stretch the wavelengths in different ways.',
  'learn.scaling.lead': [
    'A model trained on 4,096 tokens has never seen the angles that position 30,000 would give its slow pairs. Scaling methods stretch the wavelengths so that a longer text maps back into angles the model knows.',
    'Position interpolation (PI) stretches every pair by the same factor, which also blurs the fast pairs that carry local word order. NTK-aware scaling raises the base instead: the fast pairs stay, the slow ones stretch. YaRN and Llama 3 leave the fast pairs exactly as they were, stretch the slow ones fully and blend in between.',
  ],
  'learn.scaling.linear': 'PI (linear)',
  'learn.scaling.ntk': 'NTK-aware',
  'learn.scaling.derived': ({ name, kept, full, pairs, f, first, last, context }) => `${name} at ${f}×: ${kept} of ${pairs} pairs ${kept === 1 ? 'keeps its' : 'keep their'} wavelength, ${full} ${full === 1 ? 'is' : 'are'} stretched the full ${f}×; pair 0 by ${first}×, the last pair by ${last}×. Trained on 4,096 tokens, the model should then reach about ${context}.`,
  'learn.scaling.derivedOne': 'At factor 1 nothing is stretched: every curve lies at 1×.',
  'learn.scaling.note': 'LongRoPE (used by Phi-3) goes a step further: instead of a formula, a search picks a stretch factor for every pair, with one list for short inputs and one for long ones (short_factor and long_factor in config.json). Its curve is jagged, set pair by pair, and it has no single factor to slide, so it is not drawn here. In the explorer, choose RoPE with rope_type "longrope" (or load Phi-3.5-mini’s published factors): its own view, “LongRoPE: a factor for every pair”, draws both lists.',
  'learn.scaling.try': 'Choose PI and then YaRN at factor 8. Which pairs does PI change that YaRN leaves alone, and why might that keep short-range word order intact?',

  // 11
  'learn.patches.title': '2-D positions for image patches',
  'learn.patches.summary': 'A vision transformer encodes a patch\'s row and column separately.',
  'learn.patches.lead': [
    'An image is cut into a grid of patches, and each patch needs a position with two coordinates. MAE-style encodings spend half of the vector on the column and half on the row, each a 1-D sinusoidal code.',
    'The figure shows how similar every patch\'s position is to the one you pick (cosine similarity). Similar patches are close on the grid, in both directions.',
  ],
  'learn.patches.derived': ({ r, c, br, bc, best, side, diag }) => `Patch (${r}, ${c}) is most similar to its neighbour (${br}, ${bc}), at ${best}. One step along the row gives ${side}; one step diagonally, ${diag}, lower, because both halves of the vector change.`,
  'learn.patches.try': 'Move the patch to a corner and then to the centre. Does the bright area keep its shape?',

  // 12
  'learn.mrope.title': 'M-RoPE: text and images in one sequence',
  'learn.mrope.summary': 'Qwen2-VL gives every token three position ids: time, height and width.',
  'learn.mrope.lead': [
    'In a multimodal model, text and image patches share one sequence. M-RoPE (Qwen2-VL) splits RoPE\'s frequency pairs into three bands, rotated by three ids: t (time), h (row) and w (column).',
    'Text tokens use the same id on all three axes, so for text M-RoPE is ordinary RoPE. An image keeps one t and spreads h and w over its grid; the text after it continues from the largest id used so far.',
  ],
  'learn.mrope.t': 't (time)',
  'learn.mrope.h': 'h (row)',
  'learn.mrope.w': 'w (column)',
  'learn.mrope.derived': ({ image, gh, gw, start, resume, plain, before }) => `The image becomes ${gh} × ${gw} = ${n(image)} tokens after 2 × 2 merging. Its t id stays at ${start}, right after the ${before} text tokens, while h and w count along its grid. The text after it resumes at ${resume}, one past the largest id, not at ${plain}, its place in the sequence.`,
  'learn.mrope.try': 'Make the image wider. Why does the text after it resume at a smaller id than its place in the sequence?',
};

const ko = {
  'learn.title': '배우기: 트랜스포머의 위치, 한 단계씩',
  'learn.intro': '트랜스포머에 왜 위치가 필요한지에서 시작해, 긴 문맥 모델이 위치를 어떻게 늘리는지까지 열두 단계로 살펴봅니다. 단계마다 한 가지 생각과 살아 있는 그림이 하나씩 있습니다. 컨트롤을 움직이고, 그림 아래 문장을 읽고 (화면의 숫자에서 바로 계산한 문장입니다), 질문을 직접 풀어 본 뒤, 같은 설정을 탐색기에서 열어 보세요.',
  'learn.start': '1단계부터 시작하기',
  'learn.all': '전체 단계',
  'learn.count': (i, total) => `${total}단계 중 ${i}단계`,
  'learn.nav': '배우기 경로',
  'learn.try': '직접 해 보기:',
  'learn.explore': '탐색기에서 열기',
  'learn.unknown': (id) => `“${id}”라는 단계는 없습니다. 전체 단계를 보여 드립니다.`,
  'learn.colour': (what) => `색: ${what}`,
  'learn.failed': (msg) => `이 그림을 계산하지 못했습니다: ${msg}`,

  'learn.axis.dimension': '차원',
  'learn.axis.position': '위치',
  'learn.axis.value': '값',
  'learn.axis.length': '길이 (유클리드 노름)',
  'learn.axis.distance': '거리 k',
  'learn.axis.delta': '거리 δ',
  'learn.axis.dot': 'PE(p) · PE(p + k)',
  'learn.axis.key': '키 j',
  'learn.axis.query': '쿼리 i',
  'learn.axis.bias': '점수에 더하는 바이어스',
  'learn.axis.bucket': '버킷',
  'learn.axis.index': '학습 벡터의 번호',
  'learn.axis.keyPos': '키 위치 n',
  'learn.axis.queryPos': '쿼리 위치 m',
  'learn.axis.score': '점수 q_m · k_n',
  'learn.axis.meanCos': 'q = k일 때의 점수 (거리 0에서 1)',
  'learn.axis.pair': '주파수 쌍 i (빠름 → 느림)',
  'learn.axis.stretch': '파장이 늘어난 배수 (×)',
  'learn.axis.col': '패치 열',
  'learn.axis.row': '패치 행',
  'learn.axis.cos': '코사인 유사도',
  'learn.axis.token': '토큰',
  'learn.axis.posId': '위치 id',

  'learn.control.base': '밑(base)',
  'learn.control.dim': '차원 d',
  'learn.control.k': '이동 거리 k',
  'learn.control.p': '위치 p',
  'learn.control.table': '표',
  'learn.control.seed': '난수 시드',
  'learn.control.scheme': '방식',
  'learn.control.length': '길이',
  'learn.control.factor': '스케일 배수',
  'learn.control.method': '방법',
  'learn.control.patchRow': '패치 행',
  'learn.control.patchCol': '패치 열',
  'learn.control.imgH': '이미지 높이 (패치 수)',
  'learn.control.imgW': '이미지 너비 (패치 수)',

  // 1
  'learn.order.title': '순서는 왜 사라질까',
  'learn.order.summary': '위치 정보가 없으면 어텐션에게 “I love AI”와 “AI love I”는 똑같습니다.',
  'learn.order.lead': [
    '어텐션은 모든 단어를 다른 모든 단어와 비교하고, 잘 맞는 정도에 따라 섞습니다. 이 계산 어디에도 어느 단어가 먼저 왔는지는 들어 있지 않습니다. 단어를 섞으면 점수도 단어를 따라 자리만 옮길 뿐입니다.',
    '아래에 같은 단어를 두 가지 순서로 놓았습니다. 위치 인코딩도 마스크도 없으면 두 문장에서 단어마다 받는 것이 완전히 같아서, 모델은 두 문장을 구별하지 못합니다. 인코딩을 고르거나 인과 마스크를 켜고 막대가 갈라지는 것을 지켜보세요.',
  ],
  'learn.order.try': '마스크를 끈 채 ALiBi를 고르고 “I love AI”를 “AI love I”와, 이어서 “love I AI”와 비교해 보세요. 왜 한쪽만 달라질까요?',

  // 2
  'learn.sinusoids.title': '사인파와 파장',
  'learn.sinusoids.summary': '두 열이 한 쌍을 이루어, 파장이 저마다 다른 사인과 코사인을 담습니다.',
  'learn.sinusoids.lead': [
    '원래 트랜스포머는 위치 p에 사인과 코사인으로 이루어진 벡터를 줍니다. 2i번째 열에는 sin(p·ωᵢ), 2i + 1번째 열에는 cos(p·ωᵢ)가 들어가고, ωᵢ = base^(−2i/d)입니다.',
    '왼쪽 열은 빠르게 진동해서 이웃한 위치를 구별하고, 오른쪽 열은 천천히 변해서 문장의 앞과 뒤를 구별합니다. 열 하나를 위에서 아래로 따라가면 그 열의 파동이 보입니다.',
  ],
  'learn.sinusoids.derived': ({ first, lastIndex, lastCols, last, L, slow, pairs }) => `0번 쌍(0, 1열)은 ${first}칸마다 한 번 반복되고, ${lastIndex}번 쌍(${lastCols}열)은 ${last}칸마다 반복됩니다. ${pairs}쌍 가운데 ${slow}쌍은 파장이 화면에 보이는 ${L}칸의 네 배를 넘어서, 여기서는 거의 변하지 않습니다.`,
  'learn.sinusoids.try': 'base를 20000으로 바꿔 보세요. 어느 열이 달라지고 어느 열이 그대로일까요? (파장은 2π·base^(2i/d)이므로 i = 0에서는 base가 들어가지 않습니다.)',
  'learn.sinusoids.magnitudes': 'P는 단어 벡터에 비해 얼마나 클까요?',
  'learn.sinusoids.magnitudesLink': '크기 비교 보기 열기 (d = 512, √d_model 배율을 곱할 때와 안 곱할 때)',
  'learn.scaling.finetune': '모델은 보통 스케일링을 켠 채 더 긴 길이에서 조금 더 학습합니다 (Chen 외 2023). 스케일링만 할 때보다 나을까요?',
  'learn.scaling.finetuneLink': '아레나에서 직접 해 보기: 두 배 길이에서 위치 보간을 켜고 끈 채 미세 조정해 시드별로 비교',
  'learn.patches.vit': 'ViT는 패치 위의 1차원 표를 학습하고, 이미지가 커지면 그 표의 크기를 조절합니다.',
  'learn.patches.vitLink': '격자 위의 학습형 표와 바이큐빅 크기 조절 보기 (14 × 14 → 24 × 24)',

  // 3
  'learn.shift.title': '위치마다 유일하고, 이동은 회전입니다',
  'learn.shift.summary': 'PE(p + k) = M_k · PE(p)이고, M_k는 p와 상관없이 같습니다.',
  'learn.shift.lead': [
    '사인파 표가 쓸모 있는 이유는 두 가지입니다. 두 위치가 같은 벡터를 받는 일이 없고, k칸 이동은 하나의 고정된 선형 변환입니다. p가 무엇이든 (sin, cos) 쌍마다 k·ωᵢ만큼 회전하면 됩니다.',
    '그림은 차원을 가로축으로 PE(p)와 PE(p + k)를 그리고, 그 위에 PE(p)에 M_k를 적용한 결과를 점선으로 겹쳐 그립니다. 점선이 PE(p + k)와 포개지면 회전이 정확하다는 뜻입니다.',
  ],
  'learn.shift.series.p': (p) => `PE(${p})`,
  'learn.shift.series.target': (q) => `PE(${q})`,
  'learn.shift.series.moved': (k, p) => `M_${k} · PE(${p})`,
  'learn.shift.derived': ({ p, k, err, q, dist, L }) => `두 벡터 M_${k}·PE(${p}), PE(${p + k})의 최대 차이는 ${err}로, float32 반올림 수준입니다. 처음 ${n(L)}개 위치 중 ${p}에 가장 가까운 위치는 ${q}이고, 그래도 거리가 ${dist}만큼 떨어져 있습니다. 겹치는 행은 없습니다.`,
  'learn.shift.try': 'k는 그대로 두고 p를 100 이상으로 옮겨 보세요. 점선은 여전히 PE(p + k)에 놓일까요? 이 사실은 어텐션이 “k칸 앞의 단어”를 찾는 방식에 관해 무엇을 알려 줄까요?',

  // 4
  'learn.dot.title': '내적과 거리',
  'learn.dot.summary': 'PE(p)·PE(p + k)는 k에만 달려 있고, k가 커지면 줄어들지만 매끄럽게 줄지는 않습니다.',
  'learn.dot.lead': [
    '어텐션 점수는 내적입니다. 사인파 벡터에서는 PE(p)·PE(p + k) = Σᵢ cos(k·ωᵢ)이므로 위치 p는 사라지고 거리 k만 남습니다.',
    '그림은 세 시작점 p에서 잰 내적을 k에 따라 그립니다. 세 곡선이 그대로 겹칩니다. 모든 행의 길이가 같으므로 거리로 봐도 이야기는 같습니다: ‖PE(p) − PE(p + k)‖² = d − 2·PE(p)·PE(p + k).',
  ],
  'learn.dot.series': (p) => `p = ${p}에서`,
  'learn.dot.derived': ({ spread, top, kdrop, drop, kback, back }) => `세 곡선의 차이는 많아야 ${spread}입니다. 내적은 d/2 = ${top}에서 시작해 k = ${kdrop}에서 그 절반 아래(${drop})로 떨어지지만, k = ${kback}에서 다시 ${back}까지 올라갑니다. 멀다고 늘 덜 닮은 것은 아닙니다.`,
  'learn.dot.derivedSteady': ({ spread, top, kdrop, drop, kback, back }) => `세 곡선의 차이는 많아야 ${spread}입니다. 내적은 d/2 = ${top}에서 시작해 k = ${kdrop}에서 그 절반 아래(${drop})로 떨어지고, 그 뒤로는 ${back}(k = ${kback})보다 높이 올라오지 않습니다.`,
  'learn.dot.derivedSlow': ({ spread, top, K }) => `세 곡선의 차이는 많아야 ${spread}입니다. 내적은 ${top}에서 시작해 보이는 거리 ${K}까지 내내 그 절반 위에 머뭅니다. 이 base에서는 파동이 너무 느려서 이 정도 거리는 잘 구별하지 못합니다.`,
  'learn.dot.try': '차원을 16으로 낮춰 보세요. 곡선이 얼마나 더 울퉁불퉁해질까요? 주파수를 여럿 쓰는 편이 모델에 유리한 이유는 무엇일까요?',

  // 5
  'learn.learned.title': '학습된 위치 표',
  'learn.learned.summary': 'BERT와 GPT-2는 위치마다 벡터를 하나씩 학습하며, 시작은 잡음입니다.',
  'learn.learned.lead': [
    'BERT와 GPT-2는 공식 대신, 위치마다 학습 가능한 벡터를 하나씩 둔 표를 쓰고 이를 단어 임베딩에 더합니다. 처음에는 작은 난수(표준편차 0.02)로 채우고, 학습이 모양을 잡아 갑니다.',
    '그림은 먼저 학습 전의 표를 보여 줍니다. 5번 위치가 6번 위치 옆이라는 사실은 어디에도 없습니다. 그것은 데이터에서 배워야 하고, 표의 마지막 행을 넘어선 위치에는 아예 벡터가 없습니다. ‘표’ 메뉴에는 아레나에서 학습한 표도 세 개 있으니, 학습이 표를 어떻게 바꿨는지 확인해 보세요.',
  ],
  'learn.learned.derived': ({ near, far, rms, L }) => `이웃한 행끼리의 |코사인| 평균은 ${near}이고, 32칸 떨어진 행끼리는 ${far}입니다. 학습 전에는 이웃이라고 남보다 더 닮지 않았습니다. 값의 크기는 ${rms} 안팎이고, 행은 딱 ${n(L)}개입니다.`,
  'learn.learned.derivedChance': ({ near, far, rms, L }) => `이웃한 행끼리의 |코사인| 평균은 ${near}이고, 32칸 떨어진 행끼리는 ${far}입니다. 이 시드에서는 이웃이 우연히 조금 더 닮았을 뿐, 초기화에는 그런 규칙이 없습니다. 값의 크기는 ${rms} 안팎이고, 행은 딱 ${n(L)}개입니다.`,
  'learn.learned.untrained': '학습 전 (무작위)',
  'learn.learned.trainedSeed': (k) => `아레나에서 학습, 시드 ${k}`,
  'learn.learned.derivedTrained': ({ seed, steps, n, d, rows, acc, near, far, m, all, noise, sin, wave, aboveNoise, seeds }) => `아레나가 ‘k칸 전’ 과제로 학습시킨 표입니다 (인코더, 위치 ${n}개에 시작 토큰 자리까지 ${rows}행, d_model ${d}, ${steps}단계). 시드 ${seed}에서는 시험 시퀀스의 ${acc}를 맞힙니다. 이웃한 행끼리의 |코사인| 평균은 ${near}, 32칸 떨어진 행끼리는 ${far}입니다. 사인파 하나가 열 분산의 ${m}를 설명합니다 (중앙값, 시드 ${seeds}개: ${all}). 같은 크기의 학습 전 표는 ${noise}, 사인파 표는 ${sin}입니다. ${wave > 0 ? `시드 ${seeds}개 중 ${wave}개에서 사인파에 가깝습니다.` : aboveNoise > 0 ? `시드 ${seeds}개 중 ${aboveNoise}개에서 학습 전 표의 범위보다 높지만, 사인파에 가까운 시드는 없습니다.` : `시드 ${seeds}개 모두에서 학습 전 표보다 더 사인파에 가깝지 않습니다.`} 학습된 표는 일부 대형 모델처럼 물결 모양이 될 수도 있지만, 학습이 반드시 그렇게 만드는 것은 아닙니다.`,
  'learn.learned.try': '시드를 몇 번 바꿔 보세요. 이웃한 행이 먼 행보다 더 닮게 나오는 시드가 있을까요? 그다음 아레나에서 학습한 표를 골라 보세요. 학습이 표를 물결 모양으로 만들었을까요? (학습을 마친 GPT-2의 표는 탐색기에서 불러올 수 있습니다.)',

  // 6
  'learn.naive.title': '정수와 이진수 위치, 그리고 실패하는 이유',
  'learn.naive.summary': '가장 먼저 떠오르는 방법은 값이 너무 크거나, 길이에 따라 바뀌거나, 들쭉날쭉합니다.',
  'learn.naive.lead': [
    '가장 단순한 생각은 위치 자체를 벡터에 적는 것입니다. 모든 열에 p를 적거나, p를 길이로 나누거나, p의 비트를 적을 수 있습니다.',
    '세 방법 모두 여기서 눈으로 확인할 수 있는 약점이 있습니다. 방식을 바꾸고 길이도 움직여 보세요.',
  ],
  'learn.naive.integer': '정수 p',
  'learn.naive.series.size': '위치 벡터의 길이',
  'learn.naive.series.step': '바로 앞 위치까지의 거리',
  'learn.naive.series.word': (d) => `단어 벡터의 길이 (√${d}, 값은 ±1 정도)`,
  'learn.naive.normalized': 'p / (길이 − 1)',
  'learn.naive.binary': 'p의 이진 비트',
  'learn.naive.derived.integer': ({ max, norm, D, word }) => `마지막 행은 모든 열이 ${n(max)}입니다. 벡터 길이는 ${norm}인데, 값이 ±1 정도인 단어 벡터의 길이는 ${word}(√${D})에 불과합니다. 위치가 의미를 덮어 버리고, 문장이 길어질수록 끝없이 커집니다.`,
  'learn.naive.derived.normalized': ({ step, p10 }) => `이제 이웃끼리는 ${step}밖에 차이 나지 않고, 10번 위치는 여기서 ${p10}로 적히지만 길이가 다른 문장에서는 다른 값이 됩니다. 같은 위치가 다른 코드를 받습니다.`,
  'learn.naive.derived.binary': ({ p, q, flips }) => `${n(p)}에서 ${n(q)}로 갈 때는 비트 ${flips}개가 뒤집히지만, 대부분은 한 개만 뒤집힙니다. 이웃한 위치 사이의 거리가 고르지 않고, 값도 0과 1뿐입니다.`,
  'learn.naive.try': '정수 방식에서 길이를 512로 올려 보세요. 값이 ±1 정도인 단어 벡터와 비교하면 마지막 행은 얼마나 클까요?',

  // 7
  'learn.relative.title': '상대 위치 바이어스: Shaw, T5, ALiBi',
  'learn.relative.summary': '점수마다 거리 j − i에만 달린 값을 더합니다.',
  'learn.relative.lead': [
    '상대 위치 방식은 단어 벡터는 건드리지 않고, 쿼리 i가 키 j를 볼 때의 점수를 j − i에만 달린 값으로 바꿉니다. 그림은 모든 (쿼리, 키) 쌍에 대해 그 값을 보여 줍니다.',
    'Shaw 등은 거리를 ±k로 잘라 잘린 거리마다 벡터를 하나씩 학습합니다. T5는 거리를 버킷에 나눠 담고 (가까우면 하나씩, 멀면 로그 간격으로) 버킷마다 바이어스를 학습합니다. ALiBi는 아무것도 학습하지 않고, 헤드마다 정해진 기울기 m으로 m·(i − j)를 뺍니다.',
  ],
  'learn.relative.param.shaw': '자르는 거리 k',
  'learn.relative.param.t5': '버킷 수',
  'learn.relative.param.alibi': 'ALiBi 헤드',
  'learn.relative.derived.alibi': ({ head, m, at10, steep, flat, hi, lo }) => `${head}번 헤드의 기울기는 ${m}입니다. 10칸 앞의 키는 점수가 ${at10}만큼 깎입니다. 기울기는 헤드마다 절반씩 줄어, ${steep}(${hi}번 헤드, 가장 가파름)에서 ${flat}(${lo}번 헤드, 가장 완만함)까지 갑니다.`,
  'learn.relative.derived.shaw': ({ k, distinct, own, L }) => `마지막 쿼리에서 보면 키 ${n(L)}개가 받는 번호는 ${distinct}가지뿐입니다. ${own}칸보다 먼 키는 모두 벡터 하나를 나눠 쓰므로, k = ${k}를 넘으면 거리가 모두 같아 보입니다.`,
  'learn.relative.derived.t5': ({ distinct, own, L }) => `마지막 쿼리에서 보면 키 ${n(L)}개가 버킷 ${distinct}개에 나뉘어 들어갑니다. 새 버킷은 ${own}칸 앞에서 마지막으로 시작하고, 그보다 먼 키는 모두 그 버킷을 함께 씁니다.`,
  'learn.relative.try': 'ALiBi에서 헤드를 하나씩 넘겨 보세요. 40칸 앞의 단어를 아직 볼 수 있는 헤드는 어느 것이고, 바로 옆 말고는 거의 보지 않는 헤드는 어느 것일까요?',

  // 8
  'learn.rope.title': 'RoPE: 쿼리와 키를 회전합니다',
  'learn.rope.play': '재생',
  'learn.rope.rotorTitle': '위치가 움직일 때 쿼리의 쌍들: 빠른 쌍은 빙글빙글 돌고, 느린 쌍은 거의 돌지 않습니다',
  'learn.rope.pause': '멈춤',
  'learn.rope.rotorPair': ({ i, deg }) => `${i}번 쌍: ${deg}° 회전`,
  'learn.rope.rotorAria': ({ p, turns }) => `위치 ${p}에서 쿼리의 쌍들이 위치 0부터 돈 각도: ${turns}.`,
  'learn.rope.summary': 'q를 m·θ, k를 n·θ만큼 돌리면 점수는 m − n에만 달립니다.',
  'learn.rope.lead': [
    'RoPE는 아무것도 더하지 않습니다. q와 k의 숫자를 두 개씩 묶어 쌍을 만들고, 쌍마다 위치에 비례하는 각도만큼 돌립니다. 위치 m의 쿼리는 m·θᵢ, 위치 n의 키는 n·θᵢ만큼 돌아갑니다.',
    '내적은 두 벡터 사이의 각도만 보므로, 점수는 (m − n)·θᵢ에만 달립니다. 별도의 표 없이 상대 위치가 생기는 셈입니다. 그림은 고정된 q 하나와 k 하나를 모든 위치에 놓고, 점수 q_m·k_n을 색으로 칠합니다.',
  ],
  'learn.rope.derived': ({ dev, scale, first, last, turn, pairs }) => `대각선 하나(m − n이 같은 칸)를 따라가면 점수는 많아야 ${dev}만큼 변하고, 점수 자체는 ${scale}까지 갑니다. 거리만 중요하다는 뜻입니다. ${pairs}쌍 가운데 가장 빠른 쌍은 위치마다 ${first} rad, 가장 느린 쌍은 ${last} rad씩 돌아서 ${turn}칸마다 한 바퀴를 돕니다.`,
  'learn.rope.try': 'base를 100으로 낮춰 보세요. 줄무늬는 어떻게 변할까요? base가 작으면 멀리 떨어진 토큰끼리 구별하기 어려운 이유는 무엇일까요?',

  // 9
  'learn.decay.title': '멀어질수록 약해지는 점수',
  'learn.decay.summary': 'RoPE에서 같은 벡터 두 개의 점수는 거리가 멀어질수록 대체로 작아집니다.',
  'learn.decay.lead': [
    '같은 벡터 q = k를 δ만큼 떨어진 두 위치에 놓아 봅시다. 회전한 뒤의 점수는 쌍마다의 cos(δ·θᵢ)를 평균한 값입니다. δ = 0에서는 1이고, 빠른 쌍들의 박자가 어긋나면서 작아집니다.',
    '느린 쌍이 몇 개인지는 base가 정합니다. base가 크면 더 많은 쌍이 오래 박자를 맞추므로 점수가 멀리까지 높게 유지됩니다. 긴 문맥 모델이 base를 키우는 이유 가운데 하나입니다.',
  ],
  'learn.decay.series': (base) => `base ${base}`,
  'learn.decay.derivedBack': ({ half, back, kback, base }) => `base ${base}에서는 거리 ${n(half)}에서 점수가 처음으로 절반 아래로 내려가지만, 거리 ${n(kback)}에서 다시 ${back}까지 올라옵니다. 줄어드는 것은 경향일 뿐, 규칙은 아닙니다.`,
  'learn.decay.derived': ({ half, back, N, base }) => `base ${base}에서는 거리 ${n(half)}에서 점수가 처음으로 절반 아래로 내려갑니다. 그 뒤로는 ${n(N)}칸까지 ${back}을 넘어 다시 올라오지 않습니다.`,
  'learn.decay.derivedNever': ({ N, base }) => `base ${base}에서는 보이는 ${n(N)}칸 내내 점수가 절반 위에 머뭅니다.`,
  'learn.decay.try': 'base 500과 base 500,000을 비교해 보세요. 각각 어디에서 절반을 지날까요?',

  // 10
  'learn.scaling.title': '긴 문맥을 위해 RoPE 늘리기',
  'learn.scaling.summary': 'PI, NTK, YaRN, Llama 3은 파장을 저마다 다르게 늘립니다.',
  'learn.scaling.lead': [
    '4,096토큰으로 학습한 모델은 30,000번째 위치가 느린 쌍에 만들어 내는 각도를 본 적이 없습니다. 스케일링 방법은 파장을 늘려서, 더 긴 글도 모델이 아는 각도 안에 들어오게 합니다.',
    '위치 보간(PI)은 모든 쌍을 같은 배수로 늘리는데, 그러면 가까운 단어 순서를 담당하는 빠른 쌍까지 흐려집니다. NTK 방식은 대신 base를 키워서 빠른 쌍은 두고 느린 쌍만 늘립니다. YaRN과 Llama 3은 빠른 쌍은 그대로 두고, 느린 쌍은 끝까지 늘리고, 그 사이는 섞습니다.',
  ],
  'learn.scaling.linear': 'PI (선형)',
  'learn.scaling.ntk': 'NTK 방식',
  'learn.scaling.derived': ({ name, kept, full, pairs, f, first, last, context }) => `${name}, ${f}배: ${pairs}쌍 가운데 ${kept}쌍은 파장이 그대로이고, ${full}쌍은 ${f}배를 다 늘립니다. 0번 쌍은 ${first}배, 마지막 쌍은 ${last}배입니다. 4,096토큰으로 학습한 모델이 대략 ${context}토큰까지 닿게 됩니다.`,
  'learn.scaling.derivedOne': '배수가 1이면 아무것도 늘어나지 않습니다. 모든 곡선이 1배에 놓입니다.',
  'learn.scaling.note': 'LongRoPE(Phi-3에서 사용)는 한 걸음 더 나아갑니다. 공식 대신 쌍마다 늘릴 배수를 탐색으로 찾고, 짧은 입력용과 긴 입력용 목록을 따로 둡니다 (config.json의 short_factor, long_factor). 곡선이 쌍마다 들쭉날쭉하고 움직일 배수 하나가 따로 없어서 이 단계에서는 그리지 않습니다. 탐색기에서 RoPE를 고르고 rope_type을 "longrope"로 바꾸거나 공개된 Phi 모델의 배수를 불러오면, 전용 보기 “LongRoPE: 쌍마다 다른 배수”가 두 목록을 그려 줍니다.',
  'learn.scaling.try': '배수 8에서 PI와 YaRN을 차례로 골라 보세요. PI는 바꾸는데 YaRN은 그대로 두는 쌍은 어느 것이고, 그 덕분에 가까운 단어 순서가 어떻게 지켜질까요?',

  // 11
  'learn.patches.title': '이미지 패치의 2차원 위치',
  'learn.patches.summary': '비전 트랜스포머는 패치의 행과 열을 따로 인코딩합니다.',
  'learn.patches.lead': [
    '이미지는 패치 격자로 잘리고, 패치마다 좌표가 두 개인 위치가 필요합니다. MAE 방식 인코딩은 벡터의 절반을 열에, 나머지 절반을 행에 쓰고, 각각은 1차원 사인파 코드입니다.',
    '그림은 고른 패치와 모든 패치의 위치가 얼마나 닮았는지(코사인 유사도)를 보여 줍니다. 격자에서 가까운 패치일수록, 어느 방향으로든 더 닮았습니다.',
  ],
  'learn.patches.derived': ({ r, c, br, bc, best, side, diag }) => `(${r}, ${c}) 패치와 가장 닮은 것은 이웃 (${br}, ${bc})이고 유사도는 ${best}입니다. 행을 따라 한 칸 가면 ${side}, 대각선으로 한 칸 가면 ${diag}로 더 낮습니다. 벡터의 두 절반이 모두 바뀌기 때문입니다.`,
  'learn.patches.try': '패치를 모서리로 옮겼다가 가운데로 옮겨 보세요. 밝은 영역의 모양이 그대로일까요?',

  // 12
  'learn.mrope.title': 'M-RoPE: 텍스트와 이미지를 한 시퀀스에',
  'learn.mrope.summary': 'Qwen2-VL은 토큰마다 시간, 높이, 너비 세 가지 위치 id를 줍니다.',
  'learn.mrope.lead': [
    '멀티모달 모델에서는 텍스트와 이미지 패치가 한 시퀀스를 이룹니다. M-RoPE(Qwen2-VL)는 RoPE의 주파수 쌍을 세 구간으로 나누고, 각 구간을 t(시간), h(행), w(열) 세 id로 돌립니다.',
    '텍스트 토큰은 세 축 모두 같은 id를 쓰므로, 텍스트만 보면 M-RoPE는 보통의 RoPE와 같습니다. 이미지는 t 하나를 유지하면서 h와 w를 격자 위에 펼치고, 이미지 뒤의 텍스트는 지금까지 쓴 가장 큰 id 다음부터 이어집니다.',
  ],
  'learn.mrope.t': 't (시간)',
  'learn.mrope.h': 'h (행)',
  'learn.mrope.w': 'w (열)',
  'learn.mrope.derived': ({ image, gh, gw, start, resume, plain, before }) => `이미지는 2 × 2로 합친 뒤 ${gh} × ${gw} = ${n(image)}개 토큰이 됩니다. t id는 텍스트 토큰 ${before}개 바로 다음인 ${start}에 머물고, h와 w는 격자를 따라 셉니다. 이미지 뒤의 텍스트는 시퀀스에서의 자리(${plain})가 아니라, 가장 큰 id보다 하나 큰 ${resume}에서 다시 시작합니다.`,
  'learn.mrope.try': '이미지를 더 넓게 만들어 보세요. 이미지 뒤의 텍스트가 시퀀스에서의 자리보다 작은 id에서 다시 시작하는 이유는 무엇일까요?',
};

registerStrings({ en, ko });
export default { en, ko };
