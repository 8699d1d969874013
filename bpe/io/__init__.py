"""Files: text read byte for byte as strict UTF-8 and outputs written all or none (`textio`),
bpe's own tokenizer file (`files`), and an imported file's own ids (`file_ids`).

Imports `trainers` and `encoding` (a saved file holds a training's merges); other libraries'
formats are in `bpe.formats`, beside it.
"""
