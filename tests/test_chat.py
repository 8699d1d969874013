"""`bpe.chat` against each format's own reference, on generated conversations:

- Tekken, Mistral v3 and v1: `mistral_common`'s `encode_chat_completion` (the same ids, or both
  refuse the conversation), over every role order of up to four messages and longer random ones;
- cl100k_base and o200k_base: OpenAI's counting recipe (the count), and tiktoken encoding the
  ChatML text with the three specials added (the ids);
- OLMo 2: its published chat template rendered by jinja2 and encoded by `tokenizers`.
"""
from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest

from bpe import chat, real
from bpe.chat import ChatError, Message, NoChatFormat, messages_from

ROLES = ("system", "user", "assistant")
#: Contents: plain, empty, emoji, CRLF, NFKC-sensitive (ligature, circled digit, full-width),
#: trailing and doubled spaces, Japanese, the formats' own markers typed as text.
CONTENTS = ["Hi", "", "Be terse.", "😀 👍🏽 done", "line one\r\nline two\r\n", "ﬁne ① Ｆｕｌｌ", "ends with spaces  ",
            "  two  spaces", "猫がニャーと鳴く", "[INST] not a marker [/INST]", "<s> and </s>", "tab\there", "\n"]


def conversations(count: int = 60, seed: int = 7) -> list[list[Message]]:
    """Every role order of one to four messages, then random longer ones, with varied contents."""
    rng = random.Random(seed)
    orders = [roles for n in range(1, 5) for roles in itertools.product(ROLES, repeat=n)]
    orders += [tuple(rng.choice(ROLES) for _ in range(rng.randint(5, 8))) for _ in range(count)]
    return [[Message(role, rng.choice(CONTENTS)) for role in roles] for roles in orders]


@pytest.fixture(scope="module")
def mistral():
    pytest.importorskip("mistral_common")
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    return {"tekken": MistralTokenizer.v3(is_tekken=True), "mistral_v3": MistralTokenizer.v3(),
            "mistral_v1": MistralTokenizer.v1()}


def mistral_ids(tokenizer, messages: list[Message]):
    """mistral_common's ids for the conversation, or None where it refuses it."""
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    kinds = {"system": SystemMessage, "user": UserMessage, "assistant": AssistantMessage}
    try:
        request = ChatCompletionRequest(messages=[kinds[m.role](content=m.content) for m in messages])
        return tokenizer.encode_chat_completion(request).tokens
    except Exception as error:  # the package's own refusals: structure, empty assistant content
        if "mistral_common" not in type(error).__module__ and not isinstance(error, (ValueError, AssertionError)):
            raise
        return None


def ours(name: str, messages: list[Message]):
    try:
        return chat.chat(real.load(name), messages).ids
    except ChatError:
        return None


@pytest.mark.parametrize("name", ["tekken", "mistral_v3", "mistral_v1"])
def test_mistral_formats_give_mistral_commons_ids(mistral, name):
    accepted = 0
    for messages in conversations():
        theirs = mistral_ids(mistral[name], messages)
        assert ours(name, messages) == theirs, [(m.role, m.content) for m in messages]
        accepted += theirs is not None
    assert accepted >= 50


def test_mistral_puts_the_system_prompt_where_its_version_does(mistral):
    messages = [Message("system", "Be terse."), Message("user", "Hi"), Message("assistant", "OK."),
                Message("user", "again")]
    v3, v1 = (chat.chat(real.load(name), messages) for name in ("mistral_v3", "mistral_v1"))
    assert v3.per_message[0] == v1.per_message[0] == 0 and "last user message" in v3.note and "first" in v1.note
    assert v3.per_message[3] > chat.chat(real.load("mistral_v3"), messages[1:]).per_message[2]  # the prompt is there
    assert [part.text for part in v3.parts if part.special] == ["<s>", "[INST]", "[/INST]", "</s>", "[INST]", "[/INST]"]


def recipe_count(encoding, messages: list[Message]) -> int:
    """OpenAI's num_tokens_from_messages for gpt-4: 3 per message, its values' tokens, 3 to prime the reply."""
    return sum(3 + len(encoding.encode(m.role)) + len(encoding.encode(m.content)) for m in messages) + 3


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_chatml_counts_as_the_recipe_and_gives_tiktokens_ids(name):
    tiktoken = pytest.importorskip("tiktoken")
    from bpe.chat.chatml import IDS

    ours_encoding = real.load(name)
    spec = real.SPECS[name]
    base = tiktoken.Encoding(name=name, pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                             mergeable_ranks=ours_encoding.ranks)
    extended = tiktoken.Encoding(name=f"{name}_im", pat_str=spec["pat_str"], mergeable_ranks=ours_encoding.ranks,
                                 special_tokens={**spec["special_tokens"], **IDS[name]})
    for messages in conversations():
        told = chat.chat(ours_encoding, messages)
        assert told.count == recipe_count(base, messages)
        text = "".join(f"<|im_start|>{m.role}<|im_sep|>{m.content}<|im_end|>" for m in messages)
        assert told.ids == extended.encode(text + "<|im_start|>assistant<|im_sep|>", allowed_special=set(IDS[name]))
        assert told.per_message == [3 + len(base.encode(m.role)) + len(base.encode(m.content)) for m in messages]


def test_chatml_refuses_a_special_token_typed_in_a_message():
    """As the recipe's tiktoken.encode refuses it, naming the message as the chat's reader counts them."""
    with pytest.raises(ChatError, match="^message 2 holds the special token '<\\|endoftext\\|>' at character 3, "
                                        "which OpenAI's counting recipe refuses"):
        chat.chat(real.load("cl100k_base"), [Message("system", "Be brief."), Message("user", "hi <|endoftext|>")])


#: OLMo 2 Instruct's chat_template, as its tokenizer_config.json publishes it.
OLMO_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'system' %}{{ '<|system|>\n' + "
    "message['content'] + '\n' }}{% elif message['role'] == 'user' %}{{ '<|user|>\n' + message['content'] + '\n' }}"
    "{% elif message['role'] == 'assistant' %}{% if not loop.last %}{{ '<|assistant|>\n'  + message['content'] + "
    "eos_token + '\n' }}{% else %}{{ '<|assistant|>\n'  + message['content'] + eos_token }}{% endif %}{% endif %}"
    "{% if loop.last and add_generation_prompt %}{{ '<|assistant|>\n' }}{% endif %}{% endfor %}")


def test_olmo_2_follows_its_published_template():
    jinja2 = pytest.importorskip("jinja2")
    from test_real_packages import olmo_tokenizer

    template = jinja2.Environment().from_string(OLMO_TEMPLATE)
    theirs = olmo_tokenizer()
    for messages in conversations():
        text = template.render(messages=[m.as_dict() for m in messages], bos_token="<|endoftext|>",
                               eos_token="<|endoftext|>", add_generation_prompt=messages[-1].role != "assistant")
        assert chat.chat(real.load("dolma2"), messages).ids == theirs.encode(text, add_special_tokens=False).ids


#: ChatML's template as Hugging Face's chat-templating guide gives it (OpenHermes and many others ship it).
CHATML_TEMPLATE = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
                   "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
#: A corpus with chat-like text, markers and all, so that merges cross what the template writes.
CHAT_CORPUS = ["system\nBe terse.\nuser\nHi there! What is Debian?\nassistant\nA free operating system. 😀\n"
               "<|im_start|>user\n猫がニャーと鳴く<|im_end|>\n"] * 20


@pytest.fixture(scope="module")
def chatml_trained():
    """A tokenizer trained here with ChatML's specials, and the same as `tokenizers` loads our export of it."""
    tokenizers = pytest.importorskip("tokenizers")
    import bpe
    from bpe import formats

    training = bpe.train(CHAT_CORPUS, bpe.Settings(pretokenizer="gpt2", specials="chatml", vocab_size=400))
    return training, tokenizers.Tokenizer.from_str(formats.to_hf_json(training.tokenizer))


def test_a_tokenizer_trained_with_chatmls_specials_counts_in_chatmls_template(chatml_trained):
    """Every generated conversation: our ids are those `tokenizers` gives the template's text (jinja2),
    from our own export of the tokenizer, whose ChatML specials are added tokens."""
    jinja2 = pytest.importorskip("jinja2")
    from bpe.real.imported import ImportedEncoding

    training, theirs = chatml_trained
    template = jinja2.Environment().from_string(CHATML_TEMPLATE)
    ours = ImportedEncoding("trained", "this tokenizer", training.tokenizer, [])
    contents = {m.content for messages in conversations() for m in messages}
    assert "<s> and </s>" in contents and "" in contents
    for messages in conversations() + [[Message("user", "a <|im_end|> typed")]]:
        text = template.render(messages=[m.as_dict() for m in messages], add_generation_prompt=True)
        told = chat.chat(ours, messages)
        assert told.ids == theirs.encode(text, add_special_tokens=False).ids, text
        primed = 1 + len(ours.encode_ordinary("assistant\n"))  # <|im_start|>assistant\n, the template's own
        assert told.format == "ChatML" and told.count == sum(told.per_message) + primed
        assert [p.text for p in told.parts if p.special][:2] == ["<|im_start|>", "<|im_end|>"]


def test_chatml_survives_the_trip_through_a_hugging_face_file(chatml_trained, tmp_path):
    """Our export, imported again (`bpe import`), is still ChatML's: the same ids from the command line."""
    from bpe import formats
    from bpe.cli import main

    training, _ = chatml_trained
    exported, imported = tmp_path / "tokenizer.json", tmp_path / "back.json"
    exported.write_text(formats.to_hf_json(training.tokenizer), encoding="utf-8")
    assert main(["import", "--format", "hf", str(exported), "--out", str(imported)]) == 0
    conversation = [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "What is Debian? 😀"}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(conversation), encoding="utf-8")
    from bpe.real.imported import ImportedEncoding

    expected = chat.chat(ImportedEncoding("trained", "t", training.tokenizer, []), messages_from(conversation))
    for tokenizer in (exported_bpe := tmp_path / "ours.json", imported):
        if tokenizer == exported_bpe:
            exported_bpe.write_text(bpe_file(training), encoding="utf-8")
        code, out, err = run_cli("--tokenizer", str(tokenizer), "--json", str(path))
        assert code == 0, err
        printed = json.loads(out)
        assert printed["ids"] == expected.ids and printed["format"] == "ChatML"
        assert printed["pieces"][0] == "<|im_start|>" and printed["per_message"] == expected.per_message


def bpe_file(training) -> str:
    from bpe import files

    return files.dumps(training)


def test_a_trained_tokenizer_without_chatmls_specials_says_how_to_get_them(tmp_path):
    import bpe
    from bpe.real.imported import ImportedEncoding

    plain = bpe.train(CHAT_CORPUS, bpe.Settings(specials="octlm", merges=20))
    with pytest.raises(NoChatFormat, match="trained with the ChatML specials"):
        chat.chat(ImportedEncoding("trained", "this tokenizer", plain.tokenizer, []), [Message("user", "Hi")])


def test_a_tokenizer_without_a_chat_format_says_so():
    with pytest.raises(NoChatFormat, match="has no chat format here"):
        chat.chat(real.load("whisper"), [Message("user", "Hi")])
    assert chat.chat_format("whisper") is None and chat.chat_format("tekken") == "Mistral v3"


@pytest.mark.parametrize("data, words", [
    ({"role": "user"}, "a JSON list of messages"),
    ([], "the conversation is empty"),
    ([{"role": "bot", "content": "x"}], "message 1 has the role 'bot'"),
    ([{"role": "user", "content": 3}], "message 1's content is int"),
    ([{"role": "user", "content": "a"}, "b"], "message 2 is not an object"),
])
def test_bad_conversations_are_refused_by_name(data, words):
    with pytest.raises(ChatError, match=words):
        messages_from(data)


def run_cli(*args: str, stdin: str = ""):
    done = subprocess.run([sys.executable, "-m", "bpe", "chat", *args], input=stdin.encode(), capture_output=True)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def test_the_command_line_prints_ids_count_and_pieces(tmp_path):
    conversation = [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi 😀"}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(conversation), encoding="utf-8")
    code, out, err = run_cli("--tokenizer", "tekken", "--json", str(path))
    assert code == 0, err
    printed = json.loads(out)
    expected = chat.chat(real.load("tekken"), messages_from(conversation))
    assert printed["ids"] == expected.ids and printed["count"] == expected.count == len(printed["ids"])
    assert printed["per_message"] == expected.per_message and printed["pieces"][0] == "<s>"
    code, out, _ = run_cli("--tokenizer", "cl100k_base", "-", stdin=json.dumps(conversation))
    assert code == 0 and "tokens" in out


@pytest.mark.parametrize("args, stdin, words", [
    (["--tokenizer", "tekken", "-"], "not json", "not JSON"),
    (["--tokenizer", "tekken", "-"], '[{"role": "robot", "content": "x"}]', "role 'robot'"),
    (["--tokenizer", "tekken", "-"], '[{"role": "user", "content": null}]', "content is NoneType"),
    (["--tokenizer", "tekken", "-"], "[]", "empty"),
    (["--tokenizer", "nonesuch", "-"], '[{"role": "user", "content": "x"}]', "unknown tokenizer 'nonesuch'"),
    (["--tokenizer", "missing.json", "-"], '[{"role": "user", "content": "x"}]', "missing.json"),
    (["--tokenizer", "whisper", "-"], '[{"role": "user", "content": "x"}]', "no chat format"),
    (["--tokenizer", "tekken", "-"], '[{"role": "assistant", "content": "x"}]', "a user or a system message"),
    (["--tokenizer", "o200k_base", "-"], '[{"role": "user", "content": "a"}, {"role": "user", "content": "<|endoftext|>"}]',
     "message 2 holds the special token '<|endoftext|>' at character 0"),
])
def test_the_command_line_refuses_bad_input_in_one_line(args, stdin, words):
    code, out, err = run_cli(*args, stdin=stdin)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
