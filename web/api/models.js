// The model gallery: real models' RoPE-relevant config.json keys, as published on the Hugging Face
// Hub (each entry names its repo). Pure data plus small helpers; the config reader (./hfconfig.js)
// turns each config into a spec, so a gallery model opens exactly as its pasted config.json would.
//
// Audited (Nov 2026) against public mirrors of each config.json; the Hub itself was not reachable,
// so the source of every entry is a public GitHub file that copies or prints the config (named in the
// comment above each entry; "MLC" is mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, which
// holds verbatim config.json copies). A key the source did not show is said to be unconfirmed
// beside its entry; a key the published file lacks but the model's transformers class supplies
// by default is marked as such.

// microsoft/Phi-3.5-mini-instruct, config.json rope_scaling (type "longrope"): 48 factors each,
// one per frequency pair of the 96-channel head. Every key and factor checked, value for value,
// against two copies: MLC "phi-3_5" and the Phi-3.5 rope block of thunder_model_blocks
// (phi35_cfg_str, "_name_or_path": "microsoft/Phi-3.5-mini-instruct").
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
// Both lists checked value for value against the copy of this config ("_name_or_path":
// "Phi-3-vision-128k-instruct") in huggingface/diffusers tests/pipelines/omnigen/
// test_pipeline_omnigen.py. The long list is the same as the first Phi-3-mini-128k release's.
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

// microsoft/Phi-3-mini-128k-instruct as first released (April 2024, transformers 4.39.3, type "su"),
// copied in dotnet/machinelearning src/Microsoft.ML.GenAI.Phi/Resource/Config/
// phi-3-mini-128k-instruct-config.json. Its long_factor is PHI3_VISION_LONG value for value; the short
// list differs. The repo's later update (mid-2024, type "longrope") changed both lists; no public
// copy of the updated file was found, so this entry is the first release's config.
const PHI3_MINI_128K_SHORT = [
  1.05, 1.05, 1.05, 1.1, 1.1,
  1.1500000000000001, 1.2000000000000002, 1.2500000000000002, 1.3000000000000003, 1.3500000000000003,
  1.5000000000000004, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
  2.1000000000000005, 2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.1500000000000004,
  2.3499999999999996, 2.549999999999999, 2.5999999999999988, 2.5999999999999988, 2.7499999999999982,
  2.849999999999998, 2.849999999999998, 2.9499999999999975,
];

// microsoft/Phi-4-mini-instruct, config.json rope_scaling (type "longrope"): 48 factors each, one per
// pair of the 96 rotating channels (head 3072 / 24 = 128, partial_rotary_factor 0.75). The same lists
// in three copies, value for value: MLC "phi-4" ("_name_or_path": "Phi-4-mini-instruct"), the
// Phi-4-multimodal config in NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_phi4mm.py
// (its language model is Phi-4-mini's), and the phi4_mini presets "extracted from
// microsoft/phi-4-mini-instruct config.json" in vijay-dabur/kerashub-model-implementation.
const PHI4_MINI_LONG = [
  1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897,
  1.956131817, 2.187582649, 2.446418898, 2.735880826, 3.059592084, 3.421605075,
  3.826451687, 4.279200023, 4.785517845, 5.351743533, 5.984965424, 6.693110555,
  7.485043894, 8.370679318, 9.36110372, 10.4687158, 11.70738129, 13.09260651,
  14.64173252, 16.37415215, 18.31155283, 20.47818807, 22.90118105, 25.61086418,
  28.64115884, 32.03, 32.1, 32.13, 32.23, 32.6,
  32.61, 32.64, 32.66, 32.7, 32.71, 32.93,
  32.97, 33.28, 33.49, 33.5, 44.16, 47.77,
];
const PHI4_MINI_SHORT = new Array(48).fill(1.0);

const llama = (extra) => ({ model_type: 'llama', rope_theta: 10000.0, ...extra });

/**
 * The gallery: { id, label, repo (the Hugging Face repo the keys were written from), family,
 * config (its RoPE-relevant config.json keys), note? (en/ko, when the config is used with a
 * model-card addition) }. Each opens through fromHFConfig (./hfconfig.js). The comment above each
 * entry names where its keys were checked (see the file header).
 */
export const GALLERY = [
  // Copies of the file (transformers 4.31.0.dev0) in several repos: hidden 4096, 32/32 heads, 4096
  // positions, rope_scaling null, and no rope_theta key (the reader's default 10000 is Llama's).
  { id: 'llama-2-7b', label: 'Llama 2 7B', repo: 'meta-llama/Llama-2-7b-hf', family: 'Llama',
    config: { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 32, max_position_embeddings: 4096, rope_scaling: null } },
  // MLC "codellama_7b" ("_name_or_path": "codellama/CodeLlama-7b-hf"): all keys.
  { id: 'codellama-7b', label: 'CodeLlama 7B', repo: 'codellama/CodeLlama-7b-hf', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 16384, rope_theta: 1000000 }) },
  // A planner's presets "copied from the public config.json" (LLAMA_3_8B) and a Meta-Llama-3-8B-Instruct
  // config string: all keys (rope_scaling null).
  { id: 'llama-3-8b', label: 'Llama 3 8B', repo: 'meta-llama/Meta-Llama-3-8B', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 8192, rope_theta: 500000.0 }) },
  // MLC "llama3_1_8b" and a printed LlamaConfig "_name_or_path": "meta-llama/Llama-3.1-8B": all keys.
  { id: 'llama-3.1-8b', label: 'Llama 3.1 8B', repo: 'meta-llama/Llama-3.1-8B', family: 'Llama',
    config: llama({ hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } }) },
  // MLC "llama3_2_1b" and several embedded copies: all keys.
  { id: 'llama-3.2-1b', label: 'Llama 3.2 1B', repo: 'meta-llama/Llama-3.2-1B', family: 'Llama',
    config: llama({ hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 64, max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 32.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } }) },
  // text_config: hidden 5120, 40/8 heads, 10485760 positions, rope_theta 500000 from a Scout mock
  // config in aws-neuron's neuronx-distributed-inference tests; head_dim 128 from a Scout config test;
  // rope_scaling from Meta's own code (meta-llama/llama-models models/llama4/args.py: "Only
  // Llama-4-Scout uses scaled rope", factor 16, high_freq_factor 1; model.py: low_freq_factor 1,
  // original 8192) and a test that writes the same llama3 block in config.json form.
  { id: 'llama-4-scout', label: 'Llama 4 Scout (10M context)', repo: 'meta-llama/Llama-4-Scout-17B-16E', family: 'Llama',
    config: { model_type: 'llama4', vision_config: { model_type: 'llama4_vision_model' },
      text_config: { model_type: 'llama4_text', hidden_size: 5120, num_attention_heads: 40, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 10485760,
        rope_theta: 500000.0, rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } } } },
  // MLC "smollm_1_7b": all keys.
  { id: 'smollm-1.7b', label: 'SmolLM 1.7B', repo: 'HuggingFaceTB/SmolLM-1.7B', family: 'Llama',
    config: llama({ hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 32, max_position_embeddings: 2048 }) },
  // A Megatron-Bridge test fixture, "Mirror of allenai/OLMo-2-1124-7B/config.json": hidden 4096,
  // 32 heads, 4096 positions, rope_theta 500000. It shows no rope_scaling key (null here: the same).
  { id: 'olmo-2-7b', label: 'OLMo 2 7B', repo: 'allenai/OLMo-2-1124-7B', family: 'OLMo',
    config: { model_type: 'olmo2', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 500000, rope_scaling: null } },
  // MLC "mistral_7b" and a printed MistralConfig "_name_or_path": "mistralai/Mistral-7B-v0.1": all keys.
  { id: 'mistral-7b-v0.1', label: 'Mistral 7B v0.1', repo: 'mistralai/Mistral-7B-v0.1', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 10000.0, sliding_window: 4096 } },
  // MLC "mistral_7b_v03": all keys.
  { id: 'mistral-7b-v0.3', label: 'Mistral 7B v0.3', repo: 'mistralai/Mistral-7B-v0.3', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: null } },
  // MLC "Mixtral-8x7B-v0.1": all keys.
  { id: 'mixtral-8x7b', label: 'Mixtral 8x7B', repo: 'mistralai/Mixtral-8x7B-v0.1', family: 'Mistral',
    config: { model_type: 'mixtral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1e6 } },
  // NVIDIA NeMo's MistralNeMoConfig12B (hidden 5120, kv_channels 128, rotary_base 1e6, "but
  // max_position_embeddings: 1024000") and a Nemo config-parsing test (32/8 heads, head_dim 128).
  { id: 'mistral-nemo', label: 'Mistral Nemo 12B', repo: 'mistralai/Mistral-Nemo-Base-2407', family: 'Mistral',
    config: { model_type: 'mistral', hidden_size: 5120, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 1024000, rope_theta: 1000000.0 } },
  // MLC "qwen2_7b" (Qwen2 7B's shape; the preset does not say base or Instruct, which share it).
  { id: 'qwen2-7b', label: 'Qwen2 7B Instruct', repo: 'Qwen/Qwen2-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 32768, rope_theta: 1000000.0 } },
  // Base keys: config strings "_name_or_path": "Qwen/Qwen2.5-7B-Instruct" (thunder model blocks; a
  // printed vLLM hf_config). rope_scaling: the card's YaRN block as quoted by verl's RoPE-override docs.
  { id: 'qwen2.5-7b-yarn', label: 'Qwen2.5 7B Instruct (YaRN, 128K)', repo: 'Qwen/Qwen2.5-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } },
    note: { en: 'rope_scaling as the model card says to add it for contexts past 32,768.', ko: 'rope_scaling은 32,768보다 긴 문맥을 위해 모델 카드가 추가하라고 한 값입니다.' } },
  // Base keys: MLC "qwen3_8b" (hidden 4096, 32/8 heads, head_dim 128, 40960 positions, rope_theta
  // 1000000, rope_scaling null). Long context: QwenLM/Qwen3 docs/source/inference/transformers.md
  // ("Enabling Long Context") sets max_position_embeddings to 131072 together with the YaRN block.
  // Fixed: max_position_embeddings was 40960 (the file's own value, kept with the added block).
  { id: 'qwen3-8b-yarn', label: 'Qwen3 8B (YaRN, 131K)', repo: 'Qwen/Qwen3-8B', family: 'Qwen',
    config: { model_type: 'qwen3', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 131072, rope_theta: 1000000,
      rope_scaling: { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 } },
    note: { en: 'max_position_embeddings and rope_scaling as Qwen’s documentation says to set them for contexts up to 131,072 (the published config.json has 40,960 and no rope_scaling).',
      ko: 'max_position_embeddings와 rope_scaling은 131,072까지의 문맥을 위해 Qwen 문서가 설정하라고 한 값입니다 (공개된 config.json에는 40,960이고 rope_scaling이 없습니다).' } },
  // A Qwen2.5-VL-7B config loaded in a text-encoder loader (transformers 4.53.1: 128000 positions,
  // 28/4 heads, rope_theta 1e6, mrope_section [16, 24, 24], vision spatial_merge_size 2,
  // tokens_per_second 2, out_hidden_size 3584) and a patch that writes rope_scaling back as
  // { type: 'mrope', mrope_section: [16, 24, 24] } (newer transformers rewrite the type to "default").
  { id: 'qwen2.5-vl-7b', label: 'Qwen2.5-VL 7B (M-RoPE)', repo: 'Qwen/Qwen2.5-VL-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2_5_vl', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4, max_position_embeddings: 128000, rope_theta: 1000000.0,
      rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] }, vision_config: { spatial_merge_size: 2, tokens_per_second: 2 } } },
  // A printed GemmaConfig "_name_or_path": "google/gemma-7b": all keys.
  { id: 'gemma-7b', label: 'Gemma 7B', repo: 'google/gemma-7b', family: 'Gemma',
    config: { model_type: 'gemma', hidden_size: 3072, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0 } },
  // MLC "gemma2_9b": all keys.
  { id: 'gemma-2-9b', label: 'Gemma 2 9B', repo: 'google/gemma-2-9b', family: 'Gemma',
    config: { model_type: 'gemma2', hidden_size: 3584, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0, sliding_window: 4096 } },
  // The published text_config (NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3.py,
  // GEMMA3_27B_MINI_CONFIG, transformers 4.50.0.dev0) has head_dim 128, hidden 5376, 32 heads,
  // rope_scaling linear ×8, sliding_window 1024 and query_pre_attn_scalar 168, and no rope_theta,
  // rope_local_base_freq or max_position_embeddings: the reader fills those three in from
  // Gemma3TextConfig's defaults (1_000_000, 10_000, 131_072), as transformers does, and says so.
  { id: 'gemma-3-27b', label: 'Gemma 3 27B (two bases)', repo: 'google/gemma-3-27b-it', family: 'Gemma',
    config: { model_type: 'gemma3', vision_config: { model_type: 'siglip_vision_model' },
      text_config: { model_type: 'gemma3_text', hidden_size: 5376, num_attention_heads: 32, head_dim: 128,
        rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024, query_pre_attn_scalar: 168 } } },
  // dotnet/machinelearning src/Microsoft.ML.GenAI.Phi/Resource/Config/phi-2-config.json: all keys.
  { id: 'phi-2', label: 'Phi-2 (partial rotary)', repo: 'microsoft/phi-2', family: 'Phi',
    config: { model_type: 'phi', hidden_size: 2560, num_attention_heads: 32, partial_rotary_factor: 0.4, max_position_embeddings: 2048, rope_theta: 10000.0 } },
  { id: 'phi-3.5-mini', label: 'Phi-3.5 mini (LongRoPE)', repo: 'microsoft/Phi-3.5-mini-instruct', family: 'Phi', config: PHI35_MINI_CONFIG },
  // Keys and factors: the diffusers OmniGen copy (see PHI3_VISION_LONG). model_type there is "phi3"
  // (OmniGen's); "phi3_v" is the vision model's type (as in Phi-3.5-vision's config in MLC), not
  // confirmed from a copy of this file.
  { id: 'phi-3-vision-128k', label: 'Phi-3 vision 128K (LongRoPE "su")', repo: 'microsoft/Phi-3-vision-128k-instruct', family: 'Phi',
    config: { model_type: 'phi3_v', hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000.0,
      rope_scaling: { long_factor: PHI3_VISION_LONG, short_factor: PHI3_VISION_SHORT, type: 'su' } } },
  // The first release's config (see PHI3_MINI_128K_SHORT): all keys.
  { id: 'phi-3-mini-128k', label: 'Phi-3 mini 128K (first release, "su")', repo: 'microsoft/Phi-3-mini-128k-instruct', family: 'Phi',
    config: { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, num_key_value_heads: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096,
      rope_theta: 10000.0, rope_scaling: { long_factor: PHI3_VISION_LONG, short_factor: PHI3_MINI_128K_SHORT, type: 'su' } } },
  // See PHI4_MINI_LONG: all keys in all three copies.
  { id: 'phi-4-mini', label: 'Phi-4 mini (partial LongRoPE)', repo: 'microsoft/Phi-4-mini-instruct', family: 'Phi',
    config: { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 24, num_key_value_heads: 8, partial_rotary_factor: 0.75, max_position_embeddings: 131072,
      original_max_position_embeddings: 4096, rope_theta: 10000.0, rope_scaling: { long_factor: PHI4_MINI_LONG, short_factor: PHI4_MINI_SHORT, type: 'longrope' } } },
  // A dump of the V2-Lite config (transformers 5.7, rope_parameters form) and MLC "deepseek_v2_lite":
  // all keys.
  { id: 'deepseek-v2-lite', label: 'DeepSeek-V2-Lite (MLA)', repo: 'deepseek-ai/DeepSeek-V2-Lite', family: 'DeepSeek',
    config: { model_type: 'deepseek_v2', hidden_size: 2048, num_attention_heads: 16, qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, kv_lora_rank: 512,
      max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 0.707, mscale_all_dim: 0.707, original_max_position_embeddings: 4096, type: 'yarn' } } },
  // A reference implementation's DeepSeek-V3 constants "from the checkpoint's config.json"
  // (163840 positions, rope_theta 10000, YaRN ×40 over 4096, beta 32/1, mscale 1/1) and an annotated
  // copy of the config (hidden 7168, 128 heads, q_lora_rank 1536, kv_lora_rank 512, 128/64/128 dims).
  { id: 'deepseek-v3', label: 'DeepSeek-V3 (MLA)', repo: 'deepseek-ai/DeepSeek-V3', family: 'DeepSeek',
    config: { model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, kv_lora_rank: 512, q_lora_rank: 1536,
      max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' } } },
  // MLC "stablelm-2-zephyr-1_6b", the chat model built on this base (hidden 2048, 32 heads, 4096
  // positions, partial_rotary_factor 0.25, rope_theta 10000); the base repo's own file not seen.
  { id: 'stablelm-2-1.6b', label: 'StableLM 2 1.6B (partial rotary)', repo: 'stabilityai/stablelm-2-1_6b', family: 'StableLM',
    config: { model_type: 'stablelm', hidden_size: 2048, num_attention_heads: 32, partial_rotary_factor: 0.25, max_position_embeddings: 4096, rope_theta: 10000 } },
  // MLC "internlm2_5_7b" (rope_scaling { type: 'dynamic', factor: 2.0 }): all keys; the preset is
  // the 7B base, which the chat model shares these keys with (the chat file itself not seen).
  { id: 'internlm2.5-7b', label: 'InternLM2.5 7B (dynamic NTK)', repo: 'internlm/internlm2_5-7b-chat', family: 'InternLM',
    config: { model_type: 'internlm2', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 32768, rope_theta: 1000000,
      rope_scaling: { type: 'dynamic', factor: 2.0 } } },
  // MLC "chatglm" and a copy of the file ("_name_or_path": "THUDM/chatglm3-6b"): all keys, no rope_ratio.
  { id: 'chatglm3-6b', label: 'ChatGLM3 6B (half rotary)', repo: 'THUDM/chatglm3-6b', family: 'GLM',
    config: { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 8192, original_rope: true } },
  // The config of THUDM/glm-4-9b-chat as printed in a LLaMA-Factory run log: all keys.
  { id: 'glm-4-9b', label: 'GLM-4 9B Chat (rope_ratio 500)', repo: 'THUDM/glm-4-9b-chat', family: 'GLM',
    config: { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 131072, rope_ratio: 500, original_rope: true } },
  // MLC "aya-23" and mlc-llm's Cohere test config: all keys.
  { id: 'aya-23-8b', label: 'Aya 23 8B', repo: 'CohereForAI/aya-23-8B', family: 'Cohere',
    config: { model_type: 'cohere', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, max_position_embeddings: 8192, rope_theta: 10000 } },
  // A Command-R config-parsing test whose config has this model's shape (hidden 8192, 64/64 heads,
  // FFN 22528, logit_scale 0.0625, rope_theta 8000000.0) lists max_position_embeddings 8192.
  // Fixed: max_position_embeddings was 131072, the advertised context, not the file's value.
  // One source only (two versions of the same project).
  { id: 'command-r', label: 'Command R', repo: 'CohereForAI/c4ai-command-r-v01', family: 'Cohere',
    config: { model_type: 'cohere', hidden_size: 8192, num_attention_heads: 64, num_key_value_heads: 64, max_position_embeddings: 8192, rope_theta: 8000000.0 } },
  // MLC "gpt_j": all keys.
  { id: 'gpt-j-6b', label: 'GPT-J 6B (interleaved)', repo: 'EleutherAI/gpt-j-6b', family: 'EleutherAI',
    config: { model_type: 'gptj', n_embd: 4096, n_head: 16, n_positions: 2048, rotary_dim: 64 } },
  // A copy of the file (transformers 4.19.0.dev0, vocab 50432) in a layer-by-layer loader: all keys.
  { id: 'gpt-neox-20b', label: 'GPT-NeoX 20B (partial rotary)', repo: 'EleutherAI/gpt-neox-20b', family: 'EleutherAI',
    config: { model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 } },
  // Lightning-AI litgpt's config for "RedPajama-INCITE-7B-{}" (from this config.json): n_embd 4096,
  // 32 heads, block_size 2048, rotary_percentage 1.0. rotary_emb_base not confirmed (10000 is
  // GPTNeoXConfig's default and the 3B sibling's value in MLC "redpajama_3b_v1").
  { id: 'redpajama-7b', label: 'RedPajama-INCITE 7B', repo: 'togethercomputer/RedPajama-INCITE-7B-Base', family: 'EleutherAI',
    config: { model_type: 'gpt_neox', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 2048, rotary_pct: 1.0, rotary_emb_base: 10000 } },
  // hidden 4544, 71 heads, alibi false: falcon-7b configs in several tests and Cerebras' converter.
  // rope_theta 10000 and max_position_embeddings 2048 are FalconConfig's defaults (the converter's
  // defaults for this model); whether the published file writes them out is not confirmed.
  { id: 'falcon-7b', label: 'Falcon 7B', repo: 'tiiuae/falcon-7b', family: 'Falcon',
    config: { model_type: 'falcon', hidden_size: 4544, num_attention_heads: 71, alibi: false, rope_theta: 10000.0, max_position_embeddings: 2048 } },
  // A metadata test's copy of bigscience/bloom's config: hidden 14336, 112 heads, 70 layers.
  { id: 'bloom', label: 'BLOOM 176B (ALiBi)', repo: 'bigscience/bloom', family: 'BLOOM',
    config: { model_type: 'bloom', hidden_size: 14336, n_head: 112, n_layer: 70 } },
  // "The original config" of MPT-7B copied in a TVM port's README: all keys.
  { id: 'mpt-7b', label: 'MPT 7B (ALiBi)', repo: 'mosaicml/mpt-7b', family: 'MPT',
    config: { model_type: 'mpt', d_model: 4096, n_heads: 32, max_seq_len: 2048, attn_config: { alibi: true, alibi_bias_max: 8 } } },
];

/**
 * The config view's quick picks (web/views/rope/config.js), in the order it shows them: entries
 * of GALLERY, so each opens exactly as in the gallery. fromPreset (./hfconfig.js) takes their ids.
 */
export const PRESETS = ['llama-3.1-8b', 'qwen2.5-7b-yarn', 'mistral-7b-v0.1', 'gpt-neox-20b', 'gpt-j-6b']
  .map((id) => GALLERY.find((g) => g.id === id));
