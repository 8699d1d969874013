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
#: What the page calls each, and the model whose context window it shows a text's cost against
#: (the window in tokens, as the model's maker published it).
LABELS = {"cl100k_base": "GPT-4's cl100k_base", "o200k_base": "GPT-4o's o200k_base",
          "r50k_base": "GPT-3's r50k_base (GPT-2's vocabulary)", "p50k_base": "Codex's p50k_base",
          "claude_legacy": "Claude 1–2's tokenizer (before Claude 3)"}
CONTEXTS = {"cl100k_base": ("GPT-4", 8_192), "o200k_base": ("GPT-4o", 128_000), "r50k_base": ("GPT-3 davinci", 2_049),
            "p50k_base": ("text-davinci-003", 4_097), "claude_legacy": ("Claude 2", 100_000)}
NAMES = tuple(SPECS)
