// The app's document taking over the prerendered one in place, with no second drawing.
//
// The worker builds the app with the same model ids as the prerendered document (Bokeh's simple
// ids, counted from the same start), so the two are the same models: the app's document differs
// only in values (what the visitor did, the dark theme's style sheets). Those values are set on
// the page's models, each through Bokeh's own patch, and the page is then linked to Python as it
// stands: no view is built again, the focus, the caret and the scroll stay where they are.
// Drawing the app's document anew took 0.2-0.9 s of the page's thread, after which the page came
// back in one swap (first_screen.js). If the two documents' models differ in any id or type, this
// says so and the page draws the app's document as before.
"use strict";
window.bpeAdopt = (() => {
  // Every model's attributes in a document's JSON, by id; a model inside a value becomes a reference.
  function attributesById(roots) {
    const found = new Map();
    const walk = (value) => {
      if (Array.isArray(value)) return value.map(walk);
      if (value === null || typeof value !== "object") return value;
      if (value.type === "object" && typeof value.id === "string") {
        if (!found.has(value.id)) {
          const attributes = {};
          found.set(value.id, { name: value.name, attributes });
          for (const [key, inner] of Object.entries(value.attributes || {})) attributes[key] = walk(inner);
        }
        return { id: value.id };
      }
      const copy = {};
      for (const [key, inner] of Object.entries(value)) copy[key] = walk(inner);
      return copy;
    };
    walk(roots);
    return found;
  }

  // A style sheet's address: the page's is relative, the worker's absolute (the same file).
  const sameAddress = (model, attr, value) => attr === "url" && typeof value === "string" &&
    typeof model[attr] === "string" && new URL(model[attr], document.baseURI).href === new URL(value, document.baseURI).href;

  // The patch that brings `doc` (drawn) to `json` (the app's), or why it cannot. `touched` ("id attr")
  // are the attributes the first screen set on the drawn document; `later` ("id attr") those that
  // the app's own patch sets afterwards, left out here.
  function patchTo(doc, json, touched, later) {
    const app = Object.values(json)[0];
    const roots = doc.roots().map((model) => model.id);
    if (!app || JSON.stringify((app.roots || []).map((root) => root.id)) !== JSON.stringify(roots)) return { why: "other roots" };
    const models = attributesById(app.roots);
    if (models.size !== doc.all_models.size) return { why: `${models.size} models, not ${doc.all_models.size}` };
    const events = [];
    for (const [id, { name, attributes }] of models) {
      const model = doc.get_model_by_id(id);
      if (!model || model.type !== name) return { why: `model ${id} is ${model ? model.type : "missing"}, not ${name}` };
      for (const [attr, value] of Object.entries(attributes)) {
        if (!sameAddress(model, attr, value) && !later.has(`${id} ${attr}`)) {
          events.push({ kind: "ModelChanged", model: { id }, attr, new: value });
        }
      }
    }
    // An attribute the first screen set that the app leaves at its default (so its JSON omits it)
    // goes back to it. Not the others the page holds apart from the app's JSON: the browser's own
    // (the address, the browser's settings, which the page reports to Python once linked), and a
    // text box's `value_input`, which its view shows: an app not typed into (Python's "") would
    // empty a box that shows its `value` (the corpus).
    const defaults = [];
    for (const key of touched) {
      const [id, attr] = key.split(" ");
      if (attr !== "value_input" && !(attr in models.get(id).attributes) && !later.has(key)) {
        const model = doc.get_model_by_id(id);
        defaults.push([model, attr, model.property(attr)]);
      }
    }
    return { events, defaults };
  }

  // The attributes ("id attr") a patch of the app's sets.
  const setBy = (patch) => new Set((patch ? patch.events : [])
    .filter((event) => event.kind === "ModelChanged").map((event) => `${event.model.id} ${event.attr}`));

  // Bring the prerendered document to the app's: its JSON as written, then `after`, the app's patch
  // of what changed since (bpe_app/page_patch.py) or null. True if done, false (and why) if the
  // app's must be drawn.
  return (doc, json, touched = new Set(), after = null) => {
    if (!doc) return false;
    let patch;
    try {
      patch = patchTo(doc, json, touched, setBy(after));
    } catch (error) {
      patch = { why: String(error) };
    }
    if (patch.why) {
      console.log(`[bpe] the app's document is drawn anew: ${patch.why}`);
      return false;
    }
    doc.apply_json_patch({ events: patch.events }, new Map());
    for (const [model, attr, property] of patch.defaults) {
      const value = property.default_value(model);
      if (typeof value !== "symbol") model.setv({ [attr]: value }, { sync: false });  // not Bokeh's `unset`
    }
    if (after) doc.apply_json_patch(after, new Map());
    console.log("[bpe] the prerendered document became the app's, in place");
    return true;
  };
})();
