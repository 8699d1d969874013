// Run by the build in Chromium (still.py), on the built page once Bokeh has drawn its prerendered
// document: that document as HTML, for the page to show before any script has run.
//
// Shadow roots are written as declarative shadow DOM (<template shadowrootmode>). The widgets'
// values, which live in properties, are written into attributes first, so that the HTML holds them.
// Bokeh gives every shadow root its own copies of the same style sheets (1,200 <style> elements,
// 3.3 MB, of 60 different texts): each is written as a number into a table of those texts.
// Returns {roots: [{id, html}], styles: [text], head: [text], panes: {class: html}}: each root
// element's HTML by its id, the table, the style sheets Bokeh added to the document's <head>, and
// each pane's HTML as Python rendered it (its model's text, which Panel holds escaped), so that an
// answer that leaves a pane as it is does not draw it again.
async (pageHtml) => {
  const shadowRoots = [];
  const walk = (root) => {
    for (const node of root.querySelectorAll("*")) {
      if (node.shadowRoot) {
        shadowRoots.push(node.shadowRoot);
        walk(node.shadowRoot);
      }
    }
  };
  walk(document);
  for (const root of [document, ...shadowRoots]) {
    for (const input of root.querySelectorAll("input")) {
      if (input.type === "checkbox" || input.type === "radio") input.toggleAttribute("checked", input.checked);
      else if (input.type !== "file") input.setAttribute("value", input.value);
    }
    for (const box of root.querySelectorAll("textarea")) box.textContent = box.value;
    for (const select of root.querySelectorAll("select")) {
      for (const option of select.options) option.toggleAttribute("selected", option.selected);
    }
  }
  const table = new Map();
  for (const root of shadowRoots) {
    for (const style of root.querySelectorAll("style")) {
      const text = style.textContent;
      if (!table.has(text)) table.set(text, table.size);
      style.textContent = "";
      style.setAttribute("data-still", String(table.get(text)));
    }
  }
  const head = [...document.head.querySelectorAll("style")].map((style) => style.textContent)
    .filter((text) => !pageHtml.includes(text));
  const roots = [...document.querySelectorAll("[data-root-id]")]
    .map((element) => ({ id: element.id, html: element.getHTML({ shadowRoots }) }));
  // (Panel escapes a pane's HTML as Python's html.escape does; first_screen.js compares with the same)
  const unescape = (text) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
  const panes = {};
  for (const model of window.Bokeh.documents[0].all_models) {
    for (const name of model.css_classes || []) {
      if (/^bpe-.*-pane$/.test(name) && typeof model.text === "string") panes[name] = unescape(model.text);
    }
  }
  return { roots, styles: [...table.keys()], head, panes };
}
