// The ids each real tokenizer's own npm package gives for a text: js-tiktoken for OpenAI's tables,
// @anthropic-ai/tokenizer (tiktoken's WebAssembly build underneath) for Claude's, with the NFKC
// its countTokens applies. Run with NODE_PATH set to a node_modules holding the pinned packages:
//   node tests/real_ids.js < {"text": "...", "names": ["r50k_base", ...]}   ->   {"r50k_base": [ids], ...}
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const {text, names} = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const out = {};
  for (const name of names) {
    if (name === 'claude_legacy') {
      const tokenizer = require('@anthropic-ai/tokenizer').getTokenizer();
      out[name] = Array.from(tokenizer.encode_ordinary(text.normalize('NFKC')));
      tokenizer.free();
    } else {
      const {Tiktoken} = require('js-tiktoken/lite');
      const ranks = require('js-tiktoken/ranks/' + name);
      out[name] = new Tiktoken(ranks.default || ranks).encode(text, [], []);
    }
  }
  process.stdout.write(JSON.stringify(out));
});
