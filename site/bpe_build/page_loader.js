// Runs at the top of the page (a template: ship.py fills in shipped.js and the scripts). Bokeh's and
// Panel's scripts are shipped compressed, so the page cannot name them in <script src>: each is
// loaded with bpeShipped.load (read from the cache while the page is parsed, or fetched once the
// first screen lets them: first_screen.js, `fetchMay`), then every script the build marked
// "text/x-bpe-later" runs in the order the page had it, the fetched ones as their text (the
// prerendered document's JSON, shipped too, is put back into its element first).
(() => {
  __SHIPPED__
  const base = new URL(".", location.href).href;
  const scripts = __SCRIPTS__;
  const fetchAfter = () => window.bpeFirstScreen.fetchMay;
  const texts = scripts.map((entry) => bpeShipped.load(entry, base, { fetchAfter })
    .then((bytes) => new TextDecoder().decode(bytes)));
  texts.forEach((promise) => promise.catch(() => {}));  // reported below
  const parsed = new Promise((resolve) => {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve);
    else resolve();
  });

  function fail(error) {
    console.error(error);
    const message = document.createElement("p");
    message.setAttribute("role", "alert");
    message.style.cssText = "font: 16px system-ui, sans-serif; margin: 2em; color: #9a1c1c";
    message.textContent = `The page could not load its scripts: ${error.message}. Reload to try again.`;
    document.body.prepend(message);
  }

  (async () => {
    await parsed;
    const loaded = await Promise.all(texts);
    console.log(`[bpe-timing] page:scripts-loaded ${Math.round(performance.now())} ms`);
    // With a still page, not before the first screen has answered and the visitor has paused
    // (first_screen.js): on two cores they would slow Python's start, a kept snapshot's restore too.
    await window.bpeFirstScreen.bokehMay;
    console.log(`[bpe-timing] page:scripts-start ${Math.round(performance.now())} ms`);
    for (const data of document.querySelectorAll('script[type="application/json"][data-shipped]')) {
      data.textContent = loaded[Number(data.dataset.shipped)];
    }
    for (const later of document.querySelectorAll('script[type="text/x-bpe-later"]')) {
      const script = document.createElement("script");
      // An inline script inserted into the document runs at once, so the order is the page's.
      script.text = later.dataset.shipped === undefined ? later.text : loaded[Number(later.dataset.shipped)];
      later.replaceWith(script);
      // Between two scripts the still page answers what the visitor did meanwhile (without one,
      // nobody types before Bokeh has drawn, and the yields only delay it).
      if (window.bpeFirstScreen.still.root()) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    console.log(`[bpe-timing] page:scripts-run ${Math.round(performance.now())} ms`);
  })().catch(fail);
})();
