// Strings of the Learn path's claim checks (./claims.js), English and Korean, same keys; the
// sentences are functions of the numbers ./claims-compute.js computes. SOURCES (one list, both
// languages: authors and titles are cited as published) names where each correction comes from.
import { registerStrings } from '../../i18n/index.js';

const VASWANI = { text: 'Vaswani et al. 2017, “Attention Is All You Need”, §3.5', href: 'https://arxiv.org/abs/1706.03762' };
const PRESS = { text: 'Press et al. 2022, “Train Short, Test Long” (ALiBi)', href: 'https://arxiv.org/abs/2108.12409' };
const XIONG = { text: 'Xiong et al. 2023, “Effective Long-Context Scaling of Foundation Models” (Llama 2 Long)', href: 'https://arxiv.org/abs/2309.16039' };

export const SOURCES = {
  slowDims: [VASWANI],
  base10000: [VASWANI],
  tables: [VASWANI, { text: 'TensorFlow, “Neural machine translation with a Transformer”', href: 'https://www.tensorflow.org/text/tutorials/transformer' }],
  fourier: [VASWANI],
  diffs: [VASWANI],
  sinExtrapolate: [{ ...PRESS, text: `${PRESS.text}, §2` }],
  raiseBase: [{ text: 'Rozière et al. 2023, “Code Llama”, §2.4', href: 'https://arxiv.org/abs/2308.12950' }, XIONG],
  ropeExtrapolate: [{ ...PRESS, text: `${PRESS.text}, §2` }, { text: 'Kazemnejad et al. 2023, “The Impact of Positional Encoding on Length Generalization in Transformers”', href: 'https://arxiv.org/abs/2305.19466' }],
  yarnLlama2: [XIONG, { text: 'Peng et al. 2023, “YaRN: Efficient Context Window Extension of Large Language Models”', href: 'https://arxiv.org/abs/2309.00071' }],
  alibi: [{ ...PRESS, text: `${PRESS.text}, App. B` }],
  bagOfWords: [{ text: 'Haviv et al. 2022, “Transformer Language Models without Positional Encodings Still Learn Positional Information”', href: 'https://arxiv.org/abs/2203.16634' }],
  mropeThirds: [{ text: 'Wang et al. 2024, “Qwen2-VL”; config.json mrope_section', href: 'https://arxiv.org/abs/2409.12191' }],
  rowCol: [{ text: 'He et al. 2022, “Masked Autoencoders Are Scalable Vision Learners”; util/pos_embed.py', href: 'https://github.com/facebookresearch/mae/blob/main/util/pos_embed.py' }],
  vitLearned: [{ text: 'Dosovitskiy et al. 2021, “An Image is Worth 16x16 Words”, §3.1, App. D.4', href: 'https://arxiv.org/abs/2010.11929' }],
  sineLike: [{ text: 'Wang & Chen 2020, “What Do Position Embeddings Learn?”', href: 'https://arxiv.org/abs/2010.04903' }],
};

/**
 * The Latin-script names the Korean claim checks use as they are (authors, models, a package,
 * number formats):
 * tests that look for English words in Korean text allow them, and the cited sources (<cite>).
 */
export const LATIN_NAMES = ['Press', 'Kazemnejad', 'Haviv', 'Dosovitskiy', 'Wang', 'Chen', 'NousResearch', 'Code', 'Long', 'ViT', 'tensor2tensor', 'float32', 'bfloat16', 'float16'];

const en = {
  'claim.label': 'Claim check',
  'claim.usual': 'Often said:',
  'claim.source': 'Source:',
  'claim.arena': 'Train it in the Arena: sinusoidal and learned against T5 and RoPE past the training length',
  'claim.precisionLab': ({ d, base }) => `Count how far positions stay apart in float32, bfloat16 or float16: sinusoidal’s angles p·ωᵢ are RoPE’s, so the precision lab measures them (it opens at d = ${d}, base ${base})`,
  'claim.read.title': 'Read the values',
  'claim.read.p': 'Position',
  'claim.read.d': 'd',
  'claim.read.from': 'From column',
  'claim.read.count': 'Columns',
  'claim.read.base': 'Base',
  'claim.read.layout': 'Layout',
  'claim.read.interleaved': 'interleaved (paper)',
  'claim.read.concat': 'concat (sines, then cosines)',
  'claim.read.tensor2tensor': 'tensor2tensor',
  'claim.read.col': (c) => `column ${c}`,
  'claim.read.error': (msg) => `Cannot compute this: ${msg}`,

  'claim.slowDims.claim': '“The low dimensions are the slow ones.”',
  'claim.slowDims.right': ({ w0, wl0, d }) => `The reverse. ωᵢ = base^(−2i/d) shrinks as i grows, so pair 0 (columns 0 and 1) is the fastest: it turns ${w0} rad per position and repeats every 2π ≈ ${wl0} positions, at any base and any d (here d = ${d}). The slow pairs are the last ones, on the right of the figure.`,
  'claim.base10000.claim': '“Base 10000 means about 10,000 positions.”',
  'claim.base10000.right': ({ wlLast, cols, d }) => `No. In exact arithmetic no two integer positions ever share a vector: pair 0 alone never repeats, since its wavelength 2π is irrational. The longest wavelength (columns ${cols} at d = ${d}) is 2π·10000^((d−2)/d) ≈ ${wlLast} positions, not 10,000. The real limits are resolution (far-apart positions differ only in slow pairs that barely move) and float precision.`,
  'claim.tables.claim': '“Here is a table of PE values.”',
  'claim.tables.right': ({ p, d, from, to, values }) => `Check a printed table here. At position ${p}, d = ${d}, columns ${from}–${to} read ${values}. Columns count from 0, in the paper's interleaved order (column 2i is sin, 2i + 1 cos); many tutorials put all the sines first: choose “concat” to compare.`,
  'claim.fourier.claim': '“Sinusoidal PE is a Fourier basis.”',
  'claim.fourier.right': ({ ratio, d, L, a, b, g }) => `Not quite. A Fourier basis uses whole multiples of one frequency, orthogonal over its period; here each frequency is ${ratio} times the one before (d = ${d}): a geometric series, not harmonics. Over the ${L} positions of the figure the columns are far from orthogonal: columns ${a} and ${b} have cosine similarity ${g}. A clock with many hands turning at different speeds is the better picture.`,
  'claim.diffs.claim': '“PE(5) − PE(3) ≈ PE(105) − PE(103).”',
  'claim.diffs.right': ({ cos, na, nb, d }) => `Only their lengths agree. As vectors the two differences are nearly orthogonal: cosine ${cos} at d = ${d}. Their lengths are equal (${na} and ${nb}) because ‖PE(p + k) − PE(p)‖ depends on k alone: the later difference is the earlier one rotated by M₁₀₀, and a rotation keeps lengths, not directions.`,
  'claim.sinExtrapolate.claim': '“Sinusoidal PE extrapolates to any length.”',
  'claim.sinExtrapolate.right': ({ far, len, len0, max }) => `The formula does: PE(${far}) is computed like PE(0), every entry within ±${max}, length ${len} (PE(0): ${len0}). The model does not: defined and bounded everywhere is not the same as generalizing. Press et al. found sinusoidal models degrade within about 20–50 tokens past the training length.`,
  'claim.raiseBase.claim': '“Raising the base does not help long sequences.”',
  'claim.raiseBase.right': ({ codeLlama, llama3, rope, raised, models }) => `It is the standard long-context fix, together with training on longer texts: Code Llama uses base ${codeLlama}, Llama 2 Long raised Llama 2's 10,000 to 500,000, and Llama 3 uses ${llama3}. Of the ${rope} RoPE models in this lab's gallery (${models} models), ${raised} use a base above 10,000.`,
  'claim.ropeExtrapolate.claim': '“RoPE extrapolates far better.”',
  'claim.ropeExtrapolate.right': ({ L, slow, pairs }) => `Only a little. Press et al. found rotary models degrade within about 100–200 tokens past the training length, and Kazemnejad et al. rank Rotary with the absolute encodings. PI, NTK and YaRN exist because unscaled RoPE fails past it: in a ${L}-token model with d = 128, ${slow} of the ${pairs} pairs never complete a turn within training, so later positions give them angles it never saw.`,
  'claim.yarnLlama2.claim': '“Llama 2\'s long-context version used YaRN.”',
  'claim.yarnLlama2.right': ({ base, context }) => `No. Llama 2 (base ${base}, ${context} positions) became Llama 2 Long by raising the base to 500,000 (“adjusted base frequency”) and training further on long texts. YaRN came with community fine-tunes of Llama 2 (NousResearch's Yarn-Llama-2, 64k and 128k).`,
  'claim.alibi.claim': '“ALiBi extrapolates strongly.”',
  'claim.alibi.right': ({ k, behind, ahead, causalAhead }) => `True in perplexity, but Press et al. trace much of the gain to avoiding the early-token curse, not to using the longer context. ALiBi is causal by definition: a key ${k} ahead gets ${causalAhead}. The symmetric |i − j| form used in encoders has no direction: in head 0, a key ${k} behind gets ${behind} and a key ${k} ahead ${ahead}.`,
  'claim.bagOfWords.claim': '“Without positions attention is a bag of words: order is lost because it runs in parallel.”',
  'claim.bagOfWords.right': ({ open, masked }) => `Only without a causal mask. With no encoding, reordering “I love AI” into “AI love I” changes what a word receives by ${open} % with the mask off, but by up to ${masked} % with it on: each word sees how many come before it, and Haviv et al. found such language models learn positions anyway. Parallelism is not the cause: attention's weighted sum ignores order however it is computed.`,
  'claim.mropeThirds.claim': '“M-RoPE splits the head into thirds.”',
  'claim.mropeThirds.right': ({ section, pairs, t, h, w, pt, ph, pw, third }) => `Not equal thirds. Qwen2-VL's mrope_section is [${section}] of its ${pairs} frequency pairs: ${t} for time (${pt} %), ${h} for height (${ph} %), ${w} for width (${pw} %). A third would be ${third} each.`,
  'claim.rowCol.claim': '“Add a row code to a column code, and each patch has its place.”',
  'claim.rowCol.right': ({ r, c, sumDiff, maeDist }) => `With one code on both axes the sum forgets which is which: patch (${r}, ${c}) and patch (${c}, ${r}) get the same vector (largest difference ${sumDiff}). That is why MAE gives the column and the row their own halves of the channels: there the two patches are ${maeDist} apart.`,
  'claim.vitLearned.claim': '“ViT uses a learned 2-D position table.”',
  'claim.vitLearned.right': ({ rows, h, w }) => `ViT's default is a learned 1-D table over the patch index: the ${h} × ${w} patches of a 224-pixel image are simply rows 1 … ${rows}, after the class token. Dosovitskiy et al. tried 2-D-aware variants and found no gain. The 2-D sinusoids drawn here are MAE's later choice.`,
  'claim.sineLike.claim': '“Learned position embeddings become sine waves.”',
  'claim.sineLike.right': ({ sin, init, d }) => `They may. Wang and Chen compared the tables of several pre-trained models and found smooth, wave-like patterns in some and much less in others: a tendency of some trained models, not a rule, and nothing in training asks for it. A sine-like table makes neighbouring rows alike (the sinusoidal one at d = ${d}: average |cosine| ${sin}); the table above, before training, has ${init}.`,
};

const ko = {
  'claim.label': '통념 점검',
  'claim.usual': '흔히 하는 말:',
  'claim.source': '출처:',
  'claim.arena': '아레나에서 직접 학습해 보기: 학습 길이를 넘어서면 사인파·학습 표와 T5·RoPE가 어떻게 다른지',
  'claim.precisionLab': ({ d, base }) => `float32, bfloat16, float16에서 위치가 어디까지 서로 구별되는지 세어 보기: 사인파 인코딩의 각도 p·ωᵢ는 RoPE의 각도와 같아서 정밀도 실험실에서 그대로 잴 수 있습니다 (d = ${d}, base ${base}로 엽니다)`,
  'claim.read.title': '값 읽기',
  'claim.read.p': '위치',
  'claim.read.d': 'd',
  'claim.read.from': '시작 열',
  'claim.read.count': '열 개수',
  'claim.read.base': '밑(base)',
  'claim.read.layout': '배치',
  'claim.read.interleaved': '번갈아 (논문)',
  'claim.read.concat': '이어 붙임 (사인 먼저, 코사인 나중)',
  'claim.read.tensor2tensor': 'tensor2tensor',
  'claim.read.col': (c) => `${c}열`,
  'claim.read.error': (msg) => `계산할 수 없습니다: ${msg}`,

  'claim.slowDims.claim': '“낮은 차원이 느리게 변한다.”',
  'claim.slowDims.right': ({ w0, wl0, d }) => `반대입니다. ωᵢ = base^(−2i/d)는 i가 커질수록 작아지므로, 0번 쌍(0, 1열)이 가장 빠릅니다. 위치마다 ${w0} rad씩 돌고 2π ≈ ${wl0}칸마다 반복하며, base나 d와 상관없이 늘 그렇습니다(여기서는 d = ${d}). 느린 쌍은 마지막 쌍들, 그림의 오른쪽입니다.`,
  'claim.base10000.claim': '“base 10000이면 위치를 1만 개쯤 구별한다.”',
  'claim.base10000.right': ({ wlLast, cols, d }) => `아닙니다. 정확한 산술에서는 서로 다른 두 정수 위치가 같은 벡터를 받는 일이 없습니다. 0번 쌍만 해도 파장 2π가 무리수라서 결코 반복되지 않습니다. 가장 긴 파장(d = ${d}에서 ${cols}열)은 2π·10000^((d−2)/d) ≈ ${wlLast}칸으로, 1만이 아닙니다. 진짜 한계는 분해능(멀리 떨어진 위치는 거의 움직이지 않는 느린 쌍에서만 차이 납니다)과 부동소수점 정밀도입니다.`,
  'claim.tables.claim': '“위치 인코딩 값은 이 표와 같다.”',
  'claim.tables.right': ({ p, d, from, to, values }) => `책이나 튜토리얼의 표를 여기서 확인해 보세요. 위치 ${p}, d = ${d}에서 ${from}–${to}열은 ${values}입니다. 열 번호는 0부터 세고, 논문처럼 번갈아 놓는 순서입니다(2i열은 sin, 2i + 1열은 cos). 사인을 모두 앞에 두는 튜토리얼도 많으니, 비교하려면 “이어 붙임”을 고르세요.`,
  'claim.fourier.claim': '“사인파 위치 인코딩은 푸리에 기저다.”',
  'claim.fourier.right': ({ ratio, d, L, a, b, g }) => `꼭 그렇지는 않습니다. 푸리에 기저는 한 주파수의 정수배를 쓰고 한 주기 위에서 서로 직교합니다. 여기서는 각 주파수가 바로 앞 주파수의 ${ratio}배입니다(d = ${d}). 배음이 아니라 등비수열입니다. 그림의 ${L}개 위치에서 열들은 직교와는 거리가 멉니다. ${a}열과 ${b}열의 코사인 유사도는 ${g}입니다. 속도가 저마다 다른 바늘이 여럿 달린 시계로 보는 편이 더 정확합니다.`,
  'claim.diffs.claim': '“PE(5) − PE(3) ≈ PE(105) − PE(103).”',
  'claim.diffs.right': ({ cos, na, nb, d }) => `같은 것은 길이뿐입니다. 벡터로 보면 두 차이는 거의 직교합니다. d = ${d}에서 코사인이 ${cos}입니다. 길이가 같은(${na}, ${nb}) 이유는 ‖PE(p + k) − PE(p)‖가 k에만 달려 있기 때문입니다. 뒤의 차이는 앞의 차이를 M₁₀₀만큼 회전한 것이고, 회전은 길이는 지키지만 방향은 바꿉니다.`,
  'claim.sinExtrapolate.claim': '“사인파 위치 인코딩은 어떤 길이로도 외삽된다.”',
  'claim.sinExtrapolate.right': ({ far, len, len0, max }) => `공식은 그렇습니다. PE(${far})도 PE(0)처럼 계산되고, 값은 모두 ±${max} 안에 있으며 길이는 ${len}입니다(PE(0)은 ${len0}). 모델은 그렇지 않습니다. 어디서나 정의되고 유계라는 것과 일반화된다는 것은 다른 이야기입니다. Press 등은 사인파 모델이 학습 길이를 20–50토큰쯤만 넘어도 성능이 떨어진다는 것을 보였습니다.`,
  'claim.raiseBase.claim': '“base를 키워도 긴 시퀀스에는 도움이 안 된다.”',
  'claim.raiseBase.right': ({ codeLlama, llama3, rope, raised, models }) => `긴 글로 추가 학습하는 것과 함께, base를 키우는 것이 긴 문맥을 위한 표준 해법입니다. Code Llama는 base ${codeLlama}를 쓰고, Llama 2 Long은 Llama 2의 10,000을 500,000으로 올렸으며, Llama 3은 ${llama3}을 씁니다. 이 랩의 갤러리(모델 ${models}개)에 있는 RoPE 모델 ${rope}개 가운데 ${raised}개가 10,000보다 큰 base를 씁니다.`,
  'claim.ropeExtrapolate.claim': '“RoPE는 외삽을 훨씬 잘한다.”',
  'claim.ropeExtrapolate.right': ({ L, slow, pairs }) => `조금 나을 뿐입니다. Press 등은 RoPE 모델도 학습 길이를 100–200토큰쯤 넘으면 성능이 떨어진다는 것을 보였고, Kazemnejad 등의 순위에서도 RoPE는 절대 위치 인코딩과 같은 자리에 있습니다. PI, NTK, YaRN이 나온 것도 스케일링 없는 RoPE가 학습 길이를 넘으면 무너지기 때문입니다. d = 128로 ${L}토큰을 학습한 모델에서는 ${pairs}쌍 가운데 ${slow}쌍이 학습 길이 안에서 한 바퀴도 돌지 못하므로, 그 뒤의 위치는 이 쌍들에 한 번도 본 적 없는 각도를 줍니다.`,
  'claim.yarnLlama2.claim': '“Llama 2의 긴 문맥 버전은 YaRN을 썼다.”',
  'claim.yarnLlama2.right': ({ base, context }) => `아닙니다. Llama 2(base ${base}, 위치 ${context}개)는 base를 500,000으로 올리고(“조정된 기본 주파수”) 긴 글로 더 학습해서 Llama 2 Long이 되었습니다. YaRN은 커뮤니티가 Llama 2를 미세 조정한 모델(NousResearch의 64k, 128k 모델)과 함께 나왔습니다.`,
  'claim.alibi.claim': '“ALiBi는 외삽을 잘한다.”',
  'claim.alibi.right': ({ k, behind, ahead, causalAhead }) => `퍼플렉서티로는 맞습니다. 다만 Press 등의 분석을 보면 그 이득의 상당 부분은 긴 문맥을 활용해서가 아니라, 앞쪽 토큰일수록 문맥이 모자라 손해 보는 문제를 피한 데서 나옵니다. ALiBi는 정의부터 인과적입니다. ${k}칸 뒤의 키는 ${causalAhead}를 받습니다. 인코더용 대칭 형태 |i − j|에는 방향이 없습니다. 0번 헤드에서 ${k}칸 앞의 키는 ${behind}, ${k}칸 뒤의 키는 ${ahead}를 받습니다.`,
  'claim.bagOfWords.claim': '“위치가 없으면 어텐션은 단어 주머니다. 병렬로 계산하기 때문에 순서를 잃는다.”',
  'claim.bagOfWords.right': ({ open, masked }) => `인과 마스크가 없을 때만 맞습니다. 인코딩 없이 “I love AI”를 “AI love I”로 바꾸면, 마스크를 끄면 단어마다 받는 것이 ${open} % 바뀌지만 켜면 최대 ${masked} %까지 바뀝니다. 단어마다 앞에 몇 개가 있는지 보이기 때문이고, Haviv 등은 이런 언어 모델이 위치를 스스로 배운다는 것을 보였습니다. 병렬 계산은 원인이 아닙니다. 어텐션의 가중합은 어떻게 계산하든 순서를 보지 않습니다.`,
  'claim.mropeThirds.claim': '“M-RoPE는 헤드를 삼등분한다.”',
  'claim.mropeThirds.right': ({ section, pairs, t, h, w, pt, ph, pw, third }) => `똑같이 셋으로 나누지 않습니다. Qwen2-VL의 mrope_section은 주파수 쌍 ${pairs}개를 [${section}]의 세 구간으로 나눕니다. 시간에 ${t}쌍(${pt} %), 높이에 ${h}쌍(${ph} %), 너비에 ${w}쌍(${pw} %)입니다. 삼등분이라면 ${third}쌍씩이어야 합니다.`,
  'claim.rowCol.claim': '“행 코드와 열 코드를 더하면 패치마다 자리가 정해진다.”',
  'claim.rowCol.right': ({ r, c, sumDiff, maeDist }) => `두 축에 같은 코드를 쓰면 더한 결과로는 어느 쪽이 행인지 알 수 없습니다. (${r}, ${c}) 패치와 (${c}, ${r}) 패치가 같은 벡터를 받습니다(최대 차이 ${sumDiff}). 그래서 MAE는 채널의 절반씩을 열과 행에 따로 줍니다. 그렇게 하면 두 패치는 ${maeDist}만큼 떨어집니다.`,
  'claim.vitLearned.claim': '“ViT는 학습된 2차원 위치 표를 쓴다.”',
  'claim.vitLearned.right': ({ rows, h, w }) => `ViT의 기본값은 패치 번호에 대한 학습된 1차원 표입니다. 224픽셀 이미지의 ${h} × ${w} 패치는 클래스 토큰 다음의 1 … ${rows}번 행일 뿐입니다. Dosovitskiy 등은 2차원을 반영한 변형도 시험했지만 나아지지 않았습니다. 여기 그린 2차원 사인파는 나중에 MAE가 고른 방식입니다.`,
  'claim.sineLike.claim': '“학습된 위치 임베딩은 사인파가 된다.”',
  'claim.sineLike.right': ({ sin, init, d }) => `그럴 수도 있습니다. Wang과 Chen이 사전 학습된 여러 모델의 표를 비교해 보니, 매끄러운 물결 모양이 뚜렷한 모델도 있었지만 훨씬 덜한 모델도 있었습니다. 학습된 일부 모델의 경향일 뿐 규칙이 아니고, 학습이 그런 모양을 요구하지도 않습니다. 사인파 같은 표라면 이웃한 행끼리 닮습니다(d = ${d}인 사인파 표에서 |코사인| 평균 ${sin}). 위의 학습 전 표는 ${init}입니다.`,
};

registerStrings({ en, ko });
export default { en, ko };
