"""The app's document as the page gets it: written once as JSON, then changed by a patch.

In the browser the worker writes the app's document (Panel's `write_doc`) once it is built, and a
snapshot of Python holds that JSON. When the app's state then takes over what the visitor did on
the first screen (`first_screen.hand_over`), the page needs the document as it now is: writing all
of it again took 0.4-0.7 s of the worker's thread on 2 cores, while the changes are a handful of
models. So `written` keeps the changes made from then on apart, and `since_written` gives them as a
Bokeh patch, which the page applies on top of the JSON (adopt.js).

Panel holds a document's changes until the page is linked (`init_doc` holds it, and linking sends
everything held since). The changes kept apart are given back to that hold, so that linking sends
what it always did.

>>> from bokeh.document import Document
>>> from bokeh.models import Div
>>> doc = Document(); div = Div(text="a"); doc.add_root(div); doc.hold()
>>> json_before = doc.to_json(); written(doc)
>>> div.text = "b"; div.text = "c"
>>> patch = json.loads(since_written(doc))
>>> [(event["kind"], event["attr"], event["new"]) for event in patch["events"]]
[('ModelChanged', 'text', 'c')]
>>> since_written(doc) is None  # nothing kept apart any more
True
"""
from __future__ import annotations

import json

from bokeh.core.serialization import Serializer
from bokeh.document import Document

#: The changes Bokeh held before the document was written (None: not written, or given back).
_held: list | None = None


def written(doc: Document) -> None:
    """The document was just written: its changes from now on are kept apart. Only a held
    document's changes wait to be kept; one not held is written again instead (`kept_apart`).

    >>> written(Document()); kept_apart()
    False
    """
    global _held
    if doc.callbacks.hold_value is None:
        _held = None
        return
    _held = doc.callbacks._held_events
    doc.callbacks._held_events = []


def kept_apart() -> bool:
    """Whether changes are being kept apart (`written`, and not yet `since_written`)."""
    return _held is not None


def since_written(doc: Document) -> str | None:
    """The changes to `doc` since `written`, as the JSON of a Bokeh patch (None if there are none,
    or if the document was not `written`), given back to Bokeh's hold with the ones before."""
    global _held
    if _held is None:
        return None
    since = doc.callbacks._held_events
    doc.callbacks._held_events = _held + since
    _held = None
    if not since:
        return None
    # Models the page has (all that were written) are sent by reference, new ones whole; binary
    # data inline, since the patch travels as text.
    serializer = Serializer(references=doc.models.synced_references, deferred=False)
    events = serializer.encode(since)
    doc.models.flush_synced(lambda model: not serializer.has_ref(model))
    return json.dumps({"events": events})
