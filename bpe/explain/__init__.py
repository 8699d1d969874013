"""What the page tells a learner: the story of a training and the seed tours, how two
trainings differ, merge trees, encoding step by step, the vocabulary table, the cost of the
same text across languages, and how SentencePiece cuts a text unlike byte-level BPE.

The top of the core: it may import every other package (`real` included), and none imports it.
"""
