// Where a control is, so that the same control can be found in the full page's document: the
// nearest element around it (through shadow roots) with a class of the page's own (not Bokeh's or
// Panel's), and among that one's elements of the same kind and text, which. (Not by the index of
// each element: a shadow root holds a different number of style sheets in the two documents.)
// The first screen keeps the clicks that wait for the full page, and the focus, as places (first_screen.js).
"use strict";
(() => {
  const ours = (node) => node.classList && [...node.classList].find((name) => !/^(bk|pn)-/.test(name));
  function deepAll(selector, root = document) {
    const found = [...root.querySelectorAll(selector)];
    for (const node of root.querySelectorAll("*")) if (node.shadowRoot) found.push(...deepAll(selector, node.shadowRoot));
    return found;
  }
  const inside = (host, tag, text) =>
    deepAll(tag, host.shadowRoot || host).filter((node) => node.textContent.trim() === text);
  // (`within`: the root its elements are counted in; the still page's are counted in its own.)
  function where(element, within = document) {
    let host = element.parentNode instanceof ShadowRoot ? element.parentNode.host : element.parentNode;
    while (host && !ours(host)) host = host.parentNode instanceof ShadowRoot ? host.parentNode.host : host.parentNode;
    if (!host || host === document) return null;
    const name = ours(host), tag = element.tagName.toLowerCase(), text = element.textContent.trim();
    return { name, host: deepAll(`.${name}`, within).indexOf(host), tag, text, index: inside(host, tag, text).indexOf(element) };
  }
  function find(place) {
    const host = place && deepAll(`.${place.name}`)[place.host];
    return (host && inside(host, place.tag, place.text)[place.index]) || null;
  }
  window.bpePlaces = { deepAll, where, find };
})();
