"""The chat box in a real browser: a conversation written message by message, counted as the
model receives it, gives the ids and the count that CPython's `bpe chat` gives, in the light
and the dark colour scheme and on a phone; a share link brings the conversation back."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from bpe import real
from conftest import DEEP_HELPERS, OUTPUT, new_page, open_site

CONVERSATION = [{"role": "user", "content": "How many tokens? 😀"}, {"role": "assistant", "content": "Seven, or so."},
                {"role": "user", "content": "Be terse.\nReally: how many?"}]


def bpe_chat(name: str, messages: list[dict], tmp_path) -> dict:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bpe", "chat", "--tokenizer", name, "--json", str(path)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def write_conversation(page, name: str, messages: list[dict]) -> None:
    """Choose the tokenizer and write the messages as a person would: the rows there, then one more."""
    page.locator(".chat-tokenizer select").first.select_option(label=real.LABELS[name])
    rows = page.locator(".chat-message")
    expect(rows).to_have_count(2)  # the conversation the box opens with
    for count in range(3, len(messages) + 1):
        page.locator(".chat-add button").first.click()
        expect(rows).to_have_count(count)
    for k, message in enumerate(messages):
        page.locator(".chat-role select").nth(k).select_option(message["role"])
        box = page.locator(".chat-content textarea").nth(k)
        box.fill(message["content"])
        box.press("Tab")


def page_chat(page) -> tuple[int, list[int]]:
    count = page.locator(".bpe-chat-count").first.inner_text()
    ids = page.locator(".bpe-chat-ids").first.inner_text()
    return int(count.split()[0].replace(",", "")), [int(i) for i in ids.split()]


@pytest.mark.parametrize("scheme, viewport", [("light", {"width": 1400, "height": 1000}),
                                              ("dark", {"width": 1400, "height": 1000}),
                                              ("light", {"width": 390, "height": 844})],
                         ids=["light", "dark", "phone"])
def test_a_written_conversation_counts_as_bpe_chat_counts_it(profile, site_url, tmp_path, scheme, viewport):
    page = new_page(profile, viewport=viewport, color_scheme=scheme, script=DEEP_HELPERS)
    open_site(page, site_url)
    name = "tekken" if scheme != "dark" else "cl100k_base"
    write_conversation(page, name, CONVERSATION)
    expected = bpe_chat(name, CONVERSATION, tmp_path)
    expect(page.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
    assert page_chat(page) == (expected["count"], expected["ids"])
    rows = page.locator(".bpe-chat-counts tbody tr")
    assert [int(rows.nth(k).locator("td").nth(2).inner_text()) for k in range(3)] == expected["per_message"]
    assert page.locator(".bpe-chat-chips .bpe-special").count() >= 3  # the template's specials, marked
    OUTPUT.mkdir(exist_ok=True)
    page.locator(".bpe-chat-pane").first.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / f"chat-{scheme}-{viewport['width']}.png"))
    page.close()


def test_switching_the_tokenizer_keeps_the_messages_and_a_link_restores_them(profile, site_url, tmp_path):
    page = new_page(profile, script=DEEP_HELPERS)
    open_site(page, site_url)
    write_conversation(page, "tekken", CONVERSATION)
    expect(page.locator(".bpe-chat-count").first).to_have_text(
        f"{bpe_chat('tekken', CONVERSATION, tmp_path)['count']:,} tokens", timeout=30_000)
    page.locator(".chat-tokenizer select").first.select_option(label=real.LABELS["mistral_v1"])
    expected = bpe_chat("mistral_v1", CONVERSATION, tmp_path)
    expect(page.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
    assert [page.locator(".chat-content textarea").nth(k).input_value() for k in range(3)] == [
        m["content"] for m in CONVERSATION]
    page.locator(".chat-tokenizer select").first.select_option(label=f"{real.LABELS['whisper']} (no chat format)")
    expect(page.locator(".bpe-chat-note").first).to_contain_text("has no chat format", timeout=30_000)
    page.locator(".chat-tokenizer select").first.select_option(label=real.LABELS["mistral_v1"])
    expect(page.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
    page.wait_for_function("() => location.search.includes('chat_with=mistral_v1&chat=')", timeout=10_000)
    link = page.url

    page.close()
    again = new_page(profile, script=DEEP_HELPERS)
    open_site(again, link)
    expect(again.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
    assert page_chat(again) == (expected["count"], expected["ids"])
    again.close()
