// The model gallery: real models' RoPE-relevant config.json keys, written from the published
// files on the Hugging Face Hub (each entry names its repo). Pure data plus small helpers; the
// config reader (./hfconfig.js) turns each config into a spec, so a gallery model opens exactly as
// its pasted config.json would.

// microsoft/Phi-3.5-mini-instruct, config.json rope_scaling (type "longrope"): 48 factors each,
// one per frequency pair of the 96-channel head.
export const PHI35_SHORT_FACTOR = [
  1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
  1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842,
  1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094,
  1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
  1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
  1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
  2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
  2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
  2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
  2.729999542236328, 2.749999523162842, 2.8399994373321533,
];
export const PHI35_LONG_FACTOR = [
  1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
  1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661,
  3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
  7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945,
  24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
  32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
  50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305,
  58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992,
  63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992,
  63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469,
  64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688,
  64.839996337890625, // 64.839996337890625 in the file: the same float32 value, written exactly
];

/** Phi-3.5-mini-instruct's config.json, the keys RoPE reads. */
export const PHI35_MINI_CONFIG = {
  model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, num_key_value_heads: 32,
  max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000.0,
  rope_scaling: { long_factor: PHI35_LONG_FACTOR, short_factor: PHI35_SHORT_FACTOR, type: 'longrope' },
};

/** The rope spec of Phi-3.5-mini at `length` positions (what the config reader gives it). */
export function phi35Spec(length = 4096) {
  return {
    kind: 'rope', length, dim: 96, base: 10000, layout: 'half', partial_rotary_factor: 1,
    max_position_embeddings: 131072,
    rope_scaling: {
      rope_type: 'longrope', short_factor: PHI35_SHORT_FACTOR.slice(), long_factor: PHI35_LONG_FACTOR.slice(),
      original_max_position_embeddings: 4096,
    },
  };
}

// microsoft/Phi-3-vision-128k-instruct, config.json rope_scaling (type "su", LongRoPE's early name).
const PHI3_VISION_LONG = [
  1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
  1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
  1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164,
  5.489999771118164, 9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
  15.789999961853027, 18.3600006103515625, 21.989999771118164, 23.079999923706055, 30.009998321533203,
  32.35000228881836, 32.590003967285156, 35.56000518798828, 39.95000457763672, 53.840003967285156,
  56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094, 59.920005798339844,
  61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
  63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625,
  64.80001068115234, 64.81001281738281, 64.81001281738281,
];
const PHI3_VISION_SHORT = [
  1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004,
  1.4500000000000004, 1.5500000000000005, 1.8500000000000008, 1.9000000000000008, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.1000000000000005, 2.1000000000000005, 2.2,
  2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3999999999999995,
  2.3999999999999995, 2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975,
  3.049999999999997, 3.049999999999997, 3.049999999999997,
];

const llama = (extra) => ({ model_type: 'llama', rope_theta: 10000.0, ...extra });

/**
 * The gallery: { id, label, repo (the Hugging Face repo the keys were written from), family,
 * config (its RoPE-relevant config.json keys), note? (en/ko, when the config is used with a
 * model-card addition) }. Each opens through fromHFConfig (./hfconfig.js).
 */
export const GALLERY = [
  { id: 'llama-2-7b', label: 'Llama 2 7B', repo: 'meta-llama/Llama-2-7b-hf', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 32, max_position_embeddings: 4096, rope_scaling: null }) },
  { id: 'codellama-7b', label: 'CodeLlama 7B', repo: 'codellama/CodeLlama-7b-hf', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 16384, rope_theta: 1000000 }) },
  { id: 'llama-3-8b', label: 'Llama 3 8B', repo: 'meta-llama/Meta-Llama-3-8B', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 8192, rope_theta: 500000.0 }) },
  { id: 'llama-3.1-8b', label: 'Llama 3.1 8B', repo: 'meta-llama/Llama-3.1-8B', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } }) },
  { id: 'llama-3.2-1b', label: 'Llama 3.2 1B', repo: 'meta-llama/Llama-3.2-1B', family: 'Llama',
    config: llama({ hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 64, max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 32.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } }) },
  { id: 'llama-4-scout', label: 'Llama 4 Scout (10M context)', repo: 'meta-llama/Llama-4-Scout-17B-16E', family: 'Llama',
    config: { model_type: 'llama4', vision_config: { model_type: 'llama4_vision_model' },
      text_config: { model_type: 'llama4_text', hidden_size: 5120, num_attention_heads: 40, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 10485760,
        rope_theta: 500000.0, rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } } } },
  { id: 'smollm-1.7b', label: 'SmolLM 1.7B', repo: 'HuggingFaceTB/SmolLM-1.7B', family: 'Llama',
    config: llama({ hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 32, max_position_embeddings: 2048 }) },
  { id: 'olmo-2-7b', label: 'OLMo 2 7B', repo: 'allenai/OLMo-2-1124-7B', family: 'OLMo',
    config: { model_type: 'olmo2', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 500000, rope_scaling: null } },
  { id: 'mistral-7b-v0.1', label: 'Mistral 7B v0.1', repo: 'mistralai/Mistral-7B-v0.1', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 10000.0, sliding_window: 4096 } },
  { id: 'mistral-7b-v0.3', label: 'Mistral 7B v0.3', repo: 'mistralai/Mistral-7B-v0.3', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: null } },
  { id: 'mixtral-8x7b', label: 'Mixtral 8x7B', repo: 'mistralai/Mixtral-8x7B-v0.1', family: 'Mistral',
    config: { model_type: 'mixtral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1e6 } },
  { id: 'mistral-nemo', label: 'Mistral Nemo 12B', repo: 'mistralai/Mistral-Nemo-Base-2407', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 5120, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 1024000, rope_theta: 1000000.0 } },
  { id: 'qwen2-7b', label: 'Qwen2 7B Instruct', repo: 'Qwen/Qwen2-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 32768, rope_theta: 1000000.0 } },
  { id: 'qwen2.5-7b-yarn', label: 'Qwen2.5 7B Instruct (YaRN, 128K)', repo: 'Qwen/Qwen2.5-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } },
    note: { en: 'rope_scaling as the model card says to add it for contexts past 32,768.', ko: 'rope_scaling은 32,768보다 긴 문맥을 위해 모델 카드가 추가하라고 한 값입니다.' } },
  { id: 'qwen3-8b-yarn', label: 'Qwen3 8B (YaRN, 131K)', repo: 'Qwen/Qwen3-8B', family: 'Qwen',
    config: { model_type: 'qwen3', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000,
      rope_scaling: { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 } },
    note: { en: 'rope_scaling as the model card says to add it for contexts up to 131,072.', ko: 'rope_scaling은 131,072까지의 문맥을 위해 모델 카드가 추가하라고 한 값입니다.' } },
  { id: 'qwen2.5-vl-7b', label: 'Qwen2.5-VL 7B (M-RoPE)', repo: 'Qwen/Qwen2.5-VL-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2_5_vl', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 128000, rope_theta: 1000000.0,
      rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] }, vision_config: { spatial_merge_size: 2, tokens_per_second: 2 } } },
  { id: 'gemma-7b', label: 'Gemma 7B', repo: 'google/gemma-7b', family: 'Gemma',
    config: { model_type: 'gemma', hidden_size: 3072, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0 } },
  { id: 'gemma-2-9b', label: 'Gemma 2 9B', repo: 'google/gemma-2-9b', family: 'Gemma',
    config: { model_type: 'gemma2', hidden_size: 3584, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0, sliding_window: 4096 } },
  { id: 'gemma-3-27b', label: 'Gemma 3 27B (two bases)', repo: 'google/gemma-3-27b-it', family: 'Gemma',
    config: { model_type: 'gemma3', vision_config: { model_type: 'siglip_vision_model' },
      text_config: { model_type: 'gemma3_text', hidden_size: 5376, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 131072, rope_theta: 1000000.0,
        rope_local_base_freq: 10000.0, rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024, query_pre_attn_scalar: 168 } } },
  { id: 'phi-2', label: 'Phi-2 (partial rotary)', repo: 'microsoft/phi-2', family: 'Phi',
    config: { model_type: 'phi', hidden_size: 2560, num_attention_heads: 32, partial_rotary_factor: 0.4, max_position_embeddings: 2048, rope_theta: 10000.0 } },
  { id: 'phi-3.5-mini', label: 'Phi-3.5 mini (LongRoPE)', repo: 'microsoft/Phi-3.5-mini-instruct', family: 'Phi', config: PHI35_MINI_CONFIG },
  { id: 'phi-3-vision-128k', label: 'Phi-3 vision 128K (LongRoPE "su")', repo: 'microsoft/Phi-3-vision-128k-instruct', family: 'Phi',
    config: { model_type: 'phi3_v', hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000.0,
      rope_scaling: { long_factor: PHI3_VISION_LONG, short_factor: PHI3_VISION_SHORT, type: 'su' } } },
  { id: 'deepseek-v2-lite', label: 'DeepSeek-V2-Lite (MLA)', repo: 'deepseek-ai/DeepSeek-V2-Lite', family: 'DeepSeek',
    config: { model_type: 'deepseek_v2', hidden_size: 2048, num_attention_heads: 16, qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, kv_lora_rank: 512,
      max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 0.707, mscale_all_dim: 0.707, original_max_position_embeddings: 4096, type: 'yarn' } } },
  { id: 'deepseek-v3', label: 'DeepSeek-V3 (MLA)', repo: 'deepseek-ai/DeepSeek-V3', family: 'DeepSeek',
    config: { model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, kv_lora_rank: 512, q_lora_rank: 1536,
      max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' } } },
  { id: 'stablelm-2-1.6b', label: 'StableLM 2 1.6B (partial rotary)', repo: 'stabilityai/stablelm-2-1_6b', family: 'StableLM',
    config: { model_type: 'stablelm', hidden_size: 2048, num_attention_heads: 32, partial_rotary_factor: 0.25, max_position_embeddings: 4096, rope_theta: 10000 } },
  { id: 'internlm2.5-7b', label: 'InternLM2.5 7B (dynamic NTK)', repo: 'internlm/internlm2_5-7b-chat', family: 'InternLM',
    config: { model_type: 'internlm2', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1000000,
      rope_scaling: { type: 'dynamic', factor: 2.0 } } },
  { id: 'chatglm3-6b', label: 'ChatGLM3 6B (half rotary)', repo: 'THUDM/chatglm3-6b', family: 'GLM',
    config: { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 8192, original_rope: true } },
  { id: 'glm-4-9b', label: 'GLM-4 9B Chat (rope_ratio 500)', repo: 'THUDM/glm-4-9b-chat', family: 'GLM',
    config: { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 131072, rope_ratio: 500, original_rope: true } },
  { id: 'aya-23-8b', label: 'Aya 23 8B', repo: 'CohereForAI/aya-23-8B', family: 'Cohere',
    config: { model_type: 'cohere', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 8192, rope_theta: 10000 } },
  { id: 'command-r', label: 'Command R', repo: 'CohereForAI/c4ai-command-r-v01', family: 'Cohere',
    config: { model_type: 'cohere', hidden_size: 8192, num_attention_heads: 64, num_key_value_heads: 64, max_position_embeddings: 131072, rope_theta: 8000000.0 } },
  { id: 'gpt-j-6b', label: 'GPT-J 6B (interleaved)', repo: 'EleutherAI/gpt-j-6b', family: 'EleutherAI',
    config: { model_type: 'gptj', n_embd: 4096, n_head: 16, n_positions: 2048, rotary_dim: 64 } },
  { id: 'gpt-neox-20b', label: 'GPT-NeoX 20B (partial rotary)', repo: 'EleutherAI/gpt-neox-20b', family: 'EleutherAI',
    config: { model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 } },
  { id: 'redpajama-7b', label: 'RedPajama-INCITE 7B', repo: 'togethercomputer/RedPajama-INCITE-7B-Base', family: 'EleutherAI',
    config: { model_type: 'gpt_neox', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 2048, rotary_pct: 1.0, rotary_emb_base: 10000 } },
  { id: 'falcon-7b', label: 'Falcon 7B', repo: 'tiiuae/falcon-7b', family: 'Falcon',
    config: { model_type: 'falcon', hidden_size: 4544, num_attention_heads: 71, alibi: false, rope_theta: 10000.0, max_position_embeddings: 2048 } },
  { id: 'bloom', label: 'BLOOM 176B (ALiBi)', repo: 'bigscience/bloom', family: 'BLOOM',
    config: { model_type: 'bloom', hidden_size: 14336, n_head: 112, n_layer: 70 } },
  { id: 'mpt-7b', label: 'MPT 7B (ALiBi)', repo: 'mosaicml/mpt-7b', family: 'MPT',
    config: { model_type: 'mpt', d_model: 4096, n_heads: 32, max_seq_len: 2048, attn_config: { alibi: true, alibi_bias_max: 8 } } },
];
