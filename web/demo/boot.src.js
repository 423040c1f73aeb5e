// The demo page's start (web/index.html loads it, built, as
// page-boot.js, before its stylesheet and its modules): it starts
// the translation worker, its WebAssembly module and the first model now,
// while the page's modules load; translator.js hands all three to the
// package's createTranslator (window.__s2sBoot). A classic script, not a
// module: a module would wait for the document and for its own imports.
// Where the page cannot run (no module workers, no WebAssembly, opened from
// a file), nothing starts here and app.js explains why. A model given by
// ?model-url= (same origin only, see page-url.js) is loaded by the worker
// itself, by its URL.
//
// This is the source; scripts/write-page-boot.mjs (a step of the wasm build)
// writes web/demo/page-boot.js (git-ignored) from it with the two lists filled
// in from their owners: the models the page offers, default first
// (web/figures/page-model-list.js over the package's data), and the page's start-up modules (the import graph of
// web/demo/app.js and of the package modules it loads as it starts). A named
// model lives at models/NAME.s2s beside dist/ (models.js's modelUrl).
(function () {
  try {
    if (typeof Worker !== 'function' || typeof WebAssembly !== 'object' || location.protocol === 'file:') return;
    var PAGE_MODELS = /*@PAGE_MODELS*/[];
    var params = new URLSearchParams(location.search);
    var model = PAGE_MODELS.indexOf(params.get('model')) >= 0 ? params.get('model') : PAGE_MODELS[0];
    // The package's translation worker, bundled with its imports (one
    // fetch, no module graph).
    var worker = new Worker(new URL('../dist/model-worker.bundle.js', document.baseURI), { type: 'module', name: 'seq2seq-attention' });
    performance.mark('s2s:worker-created');
    // cacheName: the Cache API cache of downloads below, named once here
    // (translator.js reads it to drop a bad copy).
    var boot = window.__s2sBoot = { worker: worker, model: model, wasm: null, bytes: null, translator: null, cacheName: 's2s-files' };
    // Compile the WebAssembly module here, while the worker starts and the
    // model downloads (null when this fails: the worker then loads the
    // file itself and reports any problem). Without
    // compileStreaming, or when the server sends another MIME type than
    // application/wasm, it compiles from the downloaded bytes.
    //
    // Repeat visits: the .wasm and the model are kept in the Cache API
    // (cache "s2s-files"), and their ETags in localStorage ("s2s-etags",
    // URL -> ETag, written once the cached copy is stored), so that the
    // request goes out at once, without waiting for the cache: with
    // If-None-Match when there is a tag. A 304 (no body) reads the cached
    // copy; if that copy is gone, the file is downloaded again without the
    // header. A changed file (a new ETag: 200) is downloaded, used at once
    // and replaces the cached copy and its tag. Offline (the fetch fails):
    // the cached copy, when there is one. No ETag, no Cache API (an
    // insecure origin) or no localStorage: a plain fetch, as before.
    var ETAGS = 's2s-etags';
    var readTags = function () {
      try {
        var tags = JSON.parse(localStorage.getItem(ETAGS) || '{}');
        return tags && typeof tags === 'object' ? tags : {};
      } catch (error) {
        return {};
      }
    };
    var writeTag = function (href, tag) {
      try {
        var tags = readTags();  // read again: another tab may have written
        if (tag) tags[href] = tag;
        else delete tags[href];
        localStorage.setItem(ETAGS, JSON.stringify(tags));
      } catch (error) {
        // no localStorage (or full): the next visit downloads again
      }
    };
    var tags = readTags();
    // The .wasm and the model are asked for at high priority, the page's
    // modules (below) at low: on a page of 30 small modules the model's
    // download otherwise shares the connections with all of them and
    // arrives last (bench/history.md, cold start with priority hints).
    var cachedFetch = function (url) {
      if (typeof caches !== 'object' || !caches) return fetch(url, { priority: 'high' });
      // Opened meanwhile; only a 304 or a failed fetch waits for it.
      var opening = caches.open(boot.cacheName).catch(function () { return null; });
      var cachedCopy = function () {
        return opening.then(function (store) { return store ? store.match(url.href) : null; })
          .catch(function () { return null; });
      };
      // A 200 with an ETag: kept (a copy of the stream, read as the page
      // reads the original), and its tag recorded once it is stored.
      var keep = function (response) {
        var tag = response.ok ? response.headers.get('ETag') : null;
        if (!tag) return response;
        var copy = response.clone();
        opening.then(function (store) {
          if (!store) return;
          return store.put(url.href, copy).then(function () {
            writeTag(url.href, tag);
            performance.mark('s2s:cached ' + url.pathname);
          });
        }).catch(function () { writeTag(url.href, null); });
        return response;
      };
      var download = function () {
        return fetch(url, { cache: 'no-store', priority: 'high' }).then(keep);
      };
      var tag = tags[url.href];
      if (!tag) {
        return download().catch(function (error) {
          return cachedCopy().then(function (entry) {
            if (entry) return entry;
            throw error;
          });
        });
      }
      return fetch(url, { headers: { 'If-None-Match': tag }, cache: 'no-store', priority: 'high' }).then(function (response) {
        if (response.status !== 304) return keep(response);
        return cachedCopy().then(function (entry) {
          if (entry && entry.headers.get('ETag') === tag) {
            performance.mark('s2s:from-cache ' + url.pathname);
            return entry;
          }
          // The tag outlived its copy (the cache was cleared): again, in full.
          writeTag(url.href, null);
          performance.mark('s2s:cache-missing ' + url.pathname);
          return download();
        });
      }, function (error) {
        // Offline or the server down: the cached copy, when there is one.
        return cachedCopy().then(function (entry) {
          if (entry) return entry;
          throw error;
        });
      });
    };
    var wasmUrl = new URL('../dist/s2s-core.wasm', document.baseURI);
    var compileBytes = function () {
      return cachedFetch(wasmUrl).then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.arrayBuffer();
      }).then(function (bytes) { return WebAssembly.compile(bytes); });
    };
    var compiling = typeof WebAssembly.compileStreaming === 'function'
      ? WebAssembly.compileStreaming(cachedFetch(wasmUrl)).catch(compileBytes) : compileBytes();
    boot.wasm = compiling.catch(function () { return null; }).then(function (module) {
      performance.mark('s2s:wasm-compiled');
      return module;
    });
    if (params.get('model-url')) {
      boot.model = null;
      return;
    }
    // The model's download starts here too, while the worker starts up
    // (null if it fails: the model is then loaded by name, which
    // reports the problem).
    boot.bytes = cachedFetch(new URL('../models/' + model + '.s2s', document.baseURI))
      .then(function (response) { return response.ok ? response.arrayBuffer() : null; })
      .catch(function () { return null; })
      .then(function (bytes) {
        performance.mark('s2s:model-downloaded');
        return bytes;
      });
    // The package's translator for this model, created as soon as its
    // module arrives: the worker then gets the compiled runtime and the
    // bytes the moment each is ready, instead of when the page's own
    // modules have loaded and asked (web/figures/translator.js adopts it). The
    // bytes, or the model by name when the download failed (which reports
    // the problem). null when the package cannot be imported: translator.js
    // then starts from the worker and explains.
    boot.translator = import(new URL('../dist/translator.js', document.baseURI).href).then(function (api) {
      performance.mark('s2s:loading:' + model);
      var translator = api.createTranslator(boot.bytes.then(function (bytes) { return bytes || model; }),
        { worker: worker, wasm: boot.wasm.then(function (module) { return module || undefined; }) });
      translator.catch(function () {});  // its failure is web/figures/translator.js's to report
      return { translator: translator };
    }, function () { return null; });
  } catch (error) {
    // app.js starts the worker itself and reports any problem
  } finally {
    // app.js's imports, fetched at once instead of after app.js arrives.
    // Added here, after the worker, the .wasm and the model have been
    // asked for: as <link> tags in the HTML, Chromium's preload scanner
    // queued them first, and on its 6 HTTP/1.1 connections per host they
    // held back the worker's script and the model's download.
    /*@PRELOAD*/[].forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.fetchPriority = 'low';
      link.href = href;
      document.head.appendChild(link);
    });
  }
})();
