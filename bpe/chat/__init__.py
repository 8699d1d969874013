"""A conversation counted as the model sees it: messages rendered by each tokenizer's own chat
template into ids, the template's special tokens marked, each message's tokens counted.

| tokenizer | template | checked against |
|---|---|---|
| tekken, mistral_v3 | Mistral's v3 instruct format: `<s>[INST]…[/INST]…</s>`, the system prompt joined to the last user message | `mistral_common` 1.13.1, `encode_chat_completion` |
| mistral_v1 | Mistral's v1 format: `[INST]` as plain text, the system prompt joined to the first user message | the same |
| cl100k_base, o200k_base | ChatML as OpenAI's counting recipe counts it: `<|im_start|>role<|im_sep|>content<|im_end|>`, the reply primed with `<|im_start|>assistant<|im_sep|>` | the recipe's count |
| dolma2 | OLMo 2 Instruct's published template (`<|user|>\\n…`), encoded as `tokenizers` encodes its text | `tokenizers` on the template's text |
| any other with `<|im_start|>` and `<|im_end|>` specials (trained with `--specials chatml`, a file) | Hugging Face's ChatML template: `<|im_start|>role\\ncontent<|im_end|>\\n`, the reply primed with `<|im_start|>assistant\\n` | `tokenizers` on the template's text |

>>> from bpe import real
>>> told = chat(real.load("cl100k_base"), messages_from([{"role": "user", "content": "Hi"}]))
>>> told.count, told.per_message, [part.text for part in told.parts]
(8, [5], ['<|im_start|>', 'user', '<|im_sep|>', 'Hi', '<|im_end|>', '<|im_start|>', 'assistant', '<|im_sep|>'])
"""
from .messages import ROLES, ChatError, Message, messages_from, read_messages
from .render import FORMATS, Chat, NoChatFormat, Part, chat, chat_format, format_of

__all__ = ["FORMATS", "ROLES", "Chat", "ChatError", "Message", "NoChatFormat", "Part", "chat", "chat_format",
           "format_of", "messages_from", "read_messages"]
