(() => {
  if (window.bpeBench) return;
  const B = window.bpeBench = {armed: false, input: null, patches: [], idle: null};
  B.roots = () => {
    const out = [document];
    const walk = (root) => {
      for (const node of root.querySelectorAll('*')) {
        if (node.shadowRoot) { out.push(node.shadowRoot); walk(node.shadowRoot); }
      }
    };
    walk(document);
    return out;
  };
  B.find = (selector) => {
    for (const root of B.roots()) { const found = root.querySelector(selector); if (found) return found; }
    return null;
  };
  // The input that starts a step: the browser's own timestamp of the event (same clock as performance.now()).
  for (const type of ['keydown', 'mousedown']) {
    document.addEventListener(type, (event) => {
      if (B.armed && B.input === null) B.input = event.timeStamp;
    }, true);
  }
  // The page's handler of the worker's messages, wrapped: how long applying each patch takes (synchronous).
  const worker = window.bpeWorker;
  const handler = worker.onmessage;
  worker.onmessage = (event) => {
    const start = performance.now();
    const result = handler(event);
    if (B.armed) {
      if (event.data.type === 'patch') B.patches.push([start, performance.now()]);
      else if (event.data.type === 'idle' && B.idle === null) B.idle = start;
    }
    return result;
  };
  // Arm before the input: resolves B.done once `selector`'s text has changed (or matches `wanted`),
  // the worker has said idle, and the DOM has been quiet for `quiet` ms.
  B.arm = (selector, wanted, quiet) => {
    const first = B.find(selector);
    const before = first ? first.textContent : null;
    let root = first ? first.getRootNode() : document;
    const pattern = wanted ? new RegExp(wanted) : null;
    Object.assign(B, {armed: true, input: null, patches: [], idle: null, changed: null, frame: null,
                      last: null, armedAt: performance.now()});
    const check = () => {
      const now = performance.now();
      B.last = now;
      if (B.changed !== null) return;
      let element = root.querySelector(selector);
      if (!element || !element.isConnected) {
        element = B.find(selector);
        if (element) root = element.getRootNode();
      }
      if (!element) return;
      const text = element.textContent;
      if (pattern ? pattern.test(text) : text !== before) {
        B.changed = now;
        requestAnimationFrame(() => { B.frame = performance.now(); });
      }
    };
    const observer = new MutationObserver(check);
    for (const r of B.roots()) observer.observe(r, {subtree: true, childList: true, characterData: true});
    B.done = new Promise((resolve) => {
      const poll = () => {
        const now = performance.now();
        const finished = B.changed !== null && B.frame !== null && B.idle !== null && !worker.busy
                         && now - B.last >= quiet;
        if (finished || now - B.armedAt > 120000) {
          observer.disconnect();
          B.armed = false;
          resolve({input: B.input, changed: B.changed, frame: B.frame, last: B.last, idle: B.idle,
                   patches: B.patches, timeout: !finished, origin: performance.timeOrigin});
        } else {
          setTimeout(poll, 10);
        }
      };
      setTimeout(poll, 10);
    });
  };
  // Resolves once the worker is idle and the DOM has not changed for `quiet` ms.
  B.quiet = (quiet) => new Promise((resolve) => {
    let last = performance.now();
    const observer = new MutationObserver(() => { last = performance.now(); });
    for (const r of B.roots()) observer.observe(r, {subtree: true, childList: true, characterData: true, attributes: true});
    const poll = () => {
      if (!worker.busy && performance.now() - last >= quiet) { observer.disconnect(); resolve(true); }
      else setTimeout(poll, 20);
    };
    setTimeout(poll, 20);
  });
  B.blurActive = () => {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    if (active && active.blur) active.blur();
  };
})()
