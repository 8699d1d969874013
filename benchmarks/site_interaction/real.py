# Each real tokenizer as a first use costs it: its table read (in the page's worker, fetched from
# dist/assets; in CPython, from the package) and parsed, then the cost-across-languages passage in
# all seven languages encoded with a fresh chunk cache, then again with it warm. The tokenizer
# trained here is not timed. No globals needed. Runs in CPython and in the page's worker.
import json, sys, time
from bpe import real
from bpe.explain import languages
if sys.platform == "emscripten":
    from bpe_app.state import real_tokenizers
    _read = lambda name: real_tokenizers.fetch(real_tokenizers.ASSETS + real.data_file(name))
else:
    from importlib import resources
    _read = lambda name: resources.files("bpe.real").joinpath(real.data_file(name)).read_bytes()
_out = {}
for _name in real.NAMES:
    _start = time.perf_counter()
    _encoding = real.load(_name, data=_read(_name))
    _loaded = time.perf_counter()
    _tokens = sum(languages.counts(_encoding.encode_ordinary).values())
    _cold = time.perf_counter()
    languages.counts(_encoding.encode_ordinary)
    _out[_name] = {"load": _loaded - _start, "cold": _cold - _loaded, "warm": time.perf_counter() - _cold,
                   "tokens": _tokens}
_result = json.dumps(_out)
_result
