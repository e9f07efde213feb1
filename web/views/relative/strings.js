// Strings of the relative family's views, web/views/relative/ (distance.js: every bias against distance;
// alibi-heads.js: every ALiBi head), in every language (same
// keys in en and ko), registered with the page's dictionaries when the family's code arrives
// (views.js imports this first). Numbers arrive formatted unless noted.
import { registerStrings } from '../../i18n/index.js';

const DIST_NAMES = { en: { linear: 'linear', log: 'log', gaussian: 'gaussian', exponential: 'exponential' },
  ko: { linear: '선형', log: '로그', gaussian: '가우스', exponential: '지수' } };

const strings = {
  en: {
    // --- bias against distance
    'relative.dist.title': 'Bias against distance, every scheme',
    'relative.dist.explain': 'Each scheme as a function of the relative position r = key − query (negative: the key comes before the query). ALiBi and the distance biases add the number on the left axis to the attention score. T5 and Shaw add a bias that is learned, so what they fix is which learned parameter each distance uses (right axis): distances on the same step share one, and beyond the last step all distances look alike. The current setting is drawn thick; switch the others on and off.',
    'relative.dist.leftGroup': 'Added to the score (left axis)',
    'relative.dist.rightGroup': 'Which learned parameter (right axis)',
    'relative.dist.x': 'key − query',
    'relative.dist.yLeft': 'bias added to the score',
    'relative.dist.yRight': 'index of the learned parameter',
    'relative.dist.aria': 'Line chart of every bias scheme against the relative position key − query. + and − zoom, arrow keys move, 0 shows everything.',
    'relative.dist.alibiHead': (hd, m) => `ALiBi head ${hd} (m = ${m})`,
    'relative.dist.distLabel': (fn) => `distance bias, ${DIST_NAMES.en[fn]}`,
    'relative.dist.t5bi': 'T5 bucket, bidirectional',
    'relative.dist.t5causal': 'T5 bucket, causal',
    'relative.dist.shawLabel': (k) => `Shaw index (k = ${k})`,
    'relative.dist.alibiSwitch': (heads) => `ALiBi, ${heads} heads`,
    'relative.dist.shawSwitch': 'Shaw index',
    'relative.dist.leftDetail': (strength, scale) => `ALiBi: −m·|r| per head. Distance biases: strength ${strength}, scale ${scale}.`,
    'relative.dist.rightDetail': (nb, md, k) => `T5: ${nb} buckets, max distance ${md}. Shaw: clip(r, −${k}, ${k}) + ${k}.`,
    'relative.dist.masked': 'masked (−∞):\nkeys after the query',
    'relative.dist.maskNote': 'Causal mode: keys after the query (hatched) are masked, so ALiBi and the distance biases have no value there.',
    'relative.dist.t5Note': 'T5, causal: every key after the query falls in bucket 0 (a decoder masks those keys anyway), so all buckets describe the past, twice as finely. Bidirectional: half of the buckets for each side. Both stop telling distances apart at max distance.',
    'relative.dist.someHeads': (n, heads) => `${n} of the ${heads} heads are drawn, evenly spread.`,
    'relative.dist.sameLine': (hd, m) => `The linear distance bias lies exactly on ALiBi head ${hd}: with strength/scale = ${m} it is that head.`,
    'relative.dist.tableCaption': (L) => `Every scheme against key − query, length ${L}`,

    // --- ALiBi heads
    'relative.heads.title': 'Every head at once',
    'relative.heads.explain': 'All heads of the table side by side: the same ramp away from the diagonal, only the slope m differs. Steep heads see only the last few tokens; gentle heads look far back, so together they cover short and long ranges. Which heads are the steep ones is read from the slopes below: with a head count that is not a power of two, the slopes are not in head order. The hatched triangle is the causal mask. Choose a head to show it in the big heatmap above.',
    'relative.heads.scale': 'Colours',
    'relative.heads.scaleShared': 'one scale for all heads',
    'relative.heads.scaleOwn': 'each head its own',
    'relative.heads.gridLabel': 'Heads (choose one to show it above)',
    'relative.heads.head': (hd) => `head ${hd}`,
    'relative.heads.thumbLabel': (hd, m, lo, L) => `Head ${hd}: slope m = ${m}; bias from 0 on the diagonal to ${lo} at distance ${L - 1}. Show this head above.`,
    'relative.heads.legendShared': 'bias, the same scale for every head',
    'relative.heads.legendOwn': 'each head from its farthest key to 0',
    'relative.heads.farthest': 'farthest key',
    'relative.heads.someHeads': (n, heads) => `Showing ${n} of the ${heads} heads, evenly spread; the slope list has them all.`,
    'relative.heads.slopesTitle': 'Slopes m_h',
    'relative.heads.formulaPow2': (heads, ratio, e) => `${heads} heads, a power of two: the slopes are a geometric sequence, m_h = 2^(${e}). The first is ${ratio}, and each next head’s slope is the one before times ${ratio}.`,
    'relative.heads.formulaOther': (heads, c) => `${heads} is not a power of two: the first ${c} slopes are those of ${c} heads; the others are every second slope of ${2 * c} heads, which sit halfway between the first ones on a log scale.`,
    'relative.heads.order': ({ sorted, steep, mSteep, gentle, mGentle, order }) => (sorted
      ? `The steepest is head ${steep} (m = ${mSteep}) and the gentlest head ${gentle} (m = ${mGentle}); the slope falls from each head to the next.`
      : `The slopes are not in head order: the steepest is head ${steep} (m = ${mSteep}), the gentlest head ${gentle} (m = ${mGentle}). From steepest to gentlest: heads ${order}.`),
    'relative.heads.stats': (count, P, ms) => `${count} heads · ${P} × ${P} samples each · drawn in ${ms} ms`,
    'relative.heads.tableCaption': (heads) => `Slopes of the ${heads} heads and the bias they give at a few distances`,
    'relative.heads.power': 'as a power of 2',
    'relative.heads.atDistance': (d) => `bias at distance ${d}`,
  },
  ko: {
    // --- 거리에 따른 편향
    'relative.dist.title': '거리에 따른 편향: 모든 방식 한눈에',
    'relative.dist.explain': '각 방식을 상대 위치 r = 키 − 쿼리의 함수로 그렸습니다 (음수면 키가 쿼리보다 앞에 있습니다). ALiBi와 거리 편향은 왼쪽 축의 값을 어텐션 점수에 그대로 더합니다. T5와 Shaw가 더하는 편향은 학습으로 정해지므로, 방식 자체가 정하는 것은 거리마다 어떤 학습 파라미터를 쓰는가(오른쪽 축)입니다. 같은 계단 위의 거리들은 파라미터 하나를 함께 쓰고, 마지막 계단 너머의 거리는 모두 똑같이 보입니다. 현재 설정은 굵게 그렸고, 나머지는 켜고 끌 수 있습니다.',
    'relative.dist.leftGroup': '점수에 더하는 값 (왼쪽 축)',
    'relative.dist.rightGroup': '어떤 학습 파라미터를 쓰는가 (오른쪽 축)',
    'relative.dist.x': '키 − 쿼리',
    'relative.dist.yLeft': '점수에 더하는 편향',
    'relative.dist.yRight': '학습 파라미터 번호',
    'relative.dist.aria': '상대 위치(키 − 쿼리)에 따른 모든 편향 방식의 선 그래프. + 와 − 로 확대·축소, 화살표 키로 이동, 0 으로 전체 보기.',
    'relative.dist.alibiHead': (hd, m) => `ALiBi 헤드 ${hd} (m = ${m})`,
    'relative.dist.distLabel': (fn) => `거리 편향, ${DIST_NAMES.ko[fn]}`,
    'relative.dist.t5bi': 'T5 버킷, 양방향',
    'relative.dist.t5causal': 'T5 버킷, 단방향(causal)',
    'relative.dist.shawLabel': (k) => `Shaw 번호 (k = ${k})`,
    'relative.dist.alibiSwitch': (heads) => `ALiBi, 헤드 ${heads}개`,
    'relative.dist.shawSwitch': 'Shaw 번호',
    'relative.dist.leftDetail': (strength, scale) => `ALiBi: 헤드마다 −m·|r|. 거리 편향: 세기 ${strength}, 스케일 ${scale}.`,
    'relative.dist.rightDetail': (nb, md, k) => `T5: 버킷 ${nb}개, 최대 거리 ${md}. Shaw: clip(r, −${k}, ${k}) + ${k}.`,
    'relative.dist.masked': '마스킹됨 (−∞):\n쿼리 뒤의 키',
    'relative.dist.maskNote': 'causal 모드에서는 쿼리 뒤의 키(빗금 영역)가 마스킹되므로, ALiBi와 거리 편향은 그곳에 값이 없습니다.',
    'relative.dist.t5Note': 'T5 단방향: 쿼리 뒤의 키는 모두 버킷 0에 들어갑니다 (어차피 디코더가 마스킹하는 키입니다). 그래서 버킷 전부를 과거에 써서 두 배 더 촘촘하게 나눕니다. 양방향은 앞뒤에 버킷을 절반씩 씁니다. 둘 다 최대 거리부터는 거리를 구별하지 못합니다.',
    'relative.dist.someHeads': (n, heads) => `헤드 ${heads}개 중 고르게 뽑은 ${n}개만 그렸습니다.`,
    'relative.dist.sameLine': (hd, m) => `선형 거리 편향은 ALiBi 헤드 ${hd}와 정확히 겹칩니다. 세기/스케일 = ${m}이면 바로 그 헤드와 같습니다.`,
    'relative.dist.tableCaption': (L) => `키 − 쿼리에 따른 모든 방식, 길이 ${L}`,

    // --- ALiBi 헤드
    'relative.heads.title': '모든 헤드를 한 번에',
    'relative.heads.explain': '표의 모든 헤드를 나란히 놓았습니다. 대각선에서 멀어질수록 내려가는 모양은 같고, 기울기 m만 다릅니다. 기울기가 가파른 헤드는 바로 앞 몇 토큰만 보고, 완만한 헤드는 멀리까지 봅니다. 어느 헤드가 가파른지는 아래 기울기 목록에서 읽습니다. 헤드 수가 2의 거듭제곱이 아니면 기울기가 헤드 번호 순서대로 놓이지 않습니다. 그래서 헤드들이 함께 가까운 거리와 먼 거리를 모두 맡습니다. 빗금 친 삼각형은 causal 마스크입니다. 헤드를 고르면 위의 큰 히트맵에 나타납니다.',
    'relative.heads.scale': '색',
    'relative.heads.scaleShared': '모든 헤드에 같은 눈금',
    'relative.heads.scaleOwn': '헤드마다 따로',
    'relative.heads.gridLabel': '헤드 (하나를 고르면 위에 표시)',
    'relative.heads.head': (hd) => `헤드 ${hd}`,
    'relative.heads.thumbLabel': (hd, m, lo, L) => `헤드 ${hd}: 기울기 m = ${m}. 편향은 대각선의 0부터 거리 ${L - 1}의 ${lo}까지. 이 헤드를 위에 표시합니다.`,
    'relative.heads.legendShared': '편향, 모든 헤드에 같은 눈금',
    'relative.heads.legendOwn': '헤드마다 가장 먼 키부터 0까지',
    'relative.heads.farthest': '가장 먼 키',
    'relative.heads.someHeads': (n, heads) => `헤드 ${heads}개 중 고르게 뽑은 ${n}개를 보여 줍니다. 기울기 목록에는 모두 있습니다.`,
    'relative.heads.slopesTitle': '기울기 m_h',
    'relative.heads.formulaPow2': (heads, ratio, e) => `헤드 ${heads}개 (2의 거듭제곱): 기울기는 등비수열 m_h = 2^(${e})입니다. 첫 기울기는 ${ratio}이고, 다음 헤드의 기울기는 앞 기울기에 ${ratio}를 곱한 값입니다.`,
    'relative.heads.formulaOther': (heads, c) => `${heads}는 2의 거듭제곱이 아닙니다. 앞의 ${c}개는 헤드 ${c}개일 때의 기울기이고, 나머지는 헤드 ${2 * c}개일 때의 기울기를 하나 걸러 가져온 것으로, 로그 눈금에서 앞의 기울기들 사이 한가운데에 놓입니다.`,
    'relative.heads.order': ({ sorted, steep, mSteep, gentle, mGentle, order }) => (sorted
      ? `가장 가파른 헤드는 ${steep}번(m = ${mSteep}), 가장 완만한 헤드는 ${gentle}번(m = ${mGentle})입니다. 기울기는 헤드 번호를 따라 차례로 줄어듭니다.`
      : `기울기가 헤드 번호 순서대로 놓이지 않습니다. 가장 가파른 헤드는 ${steep}번(m = ${mSteep}), 가장 완만한 헤드는 ${gentle}번(m = ${mGentle})입니다. 가파른 것부터 차례로 놓으면 ${order}번 헤드입니다.`),
    'relative.heads.stats': (count, P, ms) => `헤드 ${count}개 · 헤드마다 ${P} × ${P} 표본 · 그리는 데 ${ms} ms`,
    'relative.heads.tableCaption': (heads) => `헤드 ${heads}개의 기울기와 몇몇 거리에서의 편향`,
    'relative.heads.power': '2의 거듭제곱으로',
    'relative.heads.atDistance': (d) => `거리 ${d}의 편향`,
  },
};

registerStrings(strings);
export default strings;
