// A tiny static file server for the demo page, with no dependencies.
//
//   node scripts/serve.mjs                serves the page; it is at /web/
//   node scripts/serve.mjs --port 9000    a fixed port (or PORT=9000; default: the
//                                         first free one from 8080)
//   node scripts/serve.mjs FOLDER         serves FOLDER instead (a tutorial's site)
//
// From the repository it serves only what the page and the embed need:
// web/, dist/ and models/. Never a dotfile or dot-folder (.git/), and
// never node_modules/, so a page open in the same browser cannot read the
// checkout through localhost (the files carry Access-Control-Allow-Origin:
// *, which the embed on another origin needs).
//
// The page needs nothing special from its host: plain files with the right
// MIME types (application/wasm matters for streaming compilation), so any
// static host works. This server exists so `npm start` needs no download.
// The end-to-end tests import `startServer` and start it on port 0; their
// `mounts` option serves another folder at a URL prefix (they put a folder of
// small test models at /models/ while the shipped models are missing).
//
// Repeat visits: every file is sent with Cache-Control: no-cache and an ETag
// (its size and modification time), so a browser asks again each time and
// gets 304 Not Modified, without the body, until the file changes: a new
// model or build is never served stale.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.s2s': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.tsv': 'text/plain; charset=utf-8',
};

const repositoryRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

function send(response, status, message, headers = {}) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  response.end(`${message}\n`);
}

// Maps a URL path to a file below `root` (or below a mount), or null when the
// path tries to leave it. The decoded path is resolved and must stay inside.
function fileFor(urlPath, root, mounts, only) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((segment) => segment.startsWith('.') || segment === 'node_modules')) return null;
  const mounted = mounts.some(([prefix]) => decoded.startsWith(prefix));
  if (only && !mounted && !only.includes(segments[0])) return null;
  let base = root;
  let rest = decoded;
  for (const [prefix, folder] of mounts) {
    if (decoded.startsWith(prefix)) {
      base = folder;
      rest = decoded.slice(prefix.length);
      break;
    }
  }
  const file = resolve(join(base, rest));
  if (file !== base && !file.startsWith(base.endsWith(sep) ? base : base + sep)) return null;
  return file;
}

function handler(root, mounts, only, cors) {
  return async (request, response) => {
    const url = new URL(request.url, 'http://localhost');
    // Every response carries the CORS header, errors and redirects too, so
    // that a page on another origin reads a missing file as the 404 it is,
    // not as a CORS failure (the element then says "not found").
    const corsHeaders = cors(url.pathname) ? { 'Access-Control-Allow-Origin': '*' } : {};
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'method not allowed', { Allow: 'GET, HEAD', ...corsHeaders });
      return;
    }
    if (url.pathname === '/') {
      response.writeHead(302, { Location: '/web/', ...corsHeaders });
      response.end();
      return;
    }
    let file = fileFor(url.pathname, root, mounts, only);
    if (file === null) {
      send(response, 404, 'not found', corsHeaders);
      return;
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          response.writeHead(301, { Location: `${url.pathname}/${url.search}`, ...corsHeaders });
          response.end();
          return;
        }
        file = join(file, 'index.html');
        info = await stat(file);
      }
      if (!info.isFile()) throw new Error('not a file');
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const common = {
        'Cache-Control': 'no-cache',
        ETag: etag,
        ...(cors(url.pathname) ? { 'Access-Control-Allow-Origin': '*' } : {}),
      };
      if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
        response.writeHead(304, common);
        response.end();
        return;
      }
      response.writeHead(200, {
        'Content-Type': MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': info.size,
        ...common,
        'X-Content-Type-Options': 'nosniff',
        // (Access-Control-Allow-Origin in `common`: public static files, so
        // pages on other origins can embed the demo; a cross-origin module
        // script, its worker and its fetches need CORS.)
      });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      createReadStream(file).on('error', () => response.destroy()).pipe(response);
    } catch {
      send(response, 404, 'not found', corsHeaders);
    }
  };
}

function listen(server, port, host) {
  return new Promise((resolvePromise, reject) => {
    const onError = (error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolvePromise(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Starts the server. `port`: a number (0 = any free port) or undefined for
 * the first free port from 8080. `mounts`: { '/models/': '/some/folder' }.
 * `folders`: the top-level folders of `root` served (default: web, dist and
 * models for the repository, everything for another root). `cors`: whether
 * a file is sent with Access-Control-Allow-Origin: * (true, false, or a
 * function of the URL path; the tests play a host without it).
 * Resolves to { url, port, close() }; `url` is the page's address.
 */
export const SERVED_FOLDERS = ['web', 'dist', 'models'];

export async function startServer({ root = repositoryRoot, port, host = '127.0.0.1', mounts = {}, folders, cors = true } = {}) {
  const mountList = Object.entries(mounts).map(([prefix, folder]) => [prefix, resolve(folder)]);
  // The repository: only the page's folders (`folders` adds others, e.g.
  // bench/ for the benchmarks); another folder: all of it (but dotfiles).
  const only = folders ?? (resolve(root) === repositoryRoot ? SERVED_FOLDERS : null);
  const server = createServer(handler(resolve(root), mountList, only, typeof cors === 'function' ? cors : () => cors));
  let boundPort;
  if (port !== undefined) {
    boundPort = await listen(server, port, host);
  } else {
    for (let candidate = 8080; ; candidate += 1) {
      try {
        boundPort = await listen(server, candidate, host);
        break;
      } catch (error) {
        if (error.code !== 'EADDRINUSE' || candidate > 8180) throw error;
      }
    }
  }
  const origin = `http://${host === '127.0.0.1' || host === '::1' || host === '0.0.0.0' ? 'localhost' : host}:${boundPort}`;
  return {
    port: boundPort,
    origin,
    url: `${origin}/web/`,
    close: () => new Promise((done) => {
      server.closeAllConnections?.();
      server.close(() => done());
    }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const usage = 'usage: node scripts/serve.mjs [--port N] [FOLDER]';
  let parsed;
  try {
    parsed = parseArgs({ options: { port: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`serve: ${error.message}\n${usage}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (parsed.positionals.length > 1) {
    console.error(`serve: one folder at most, got ${parsed.positionals.join(' ')}\n${usage}`);
    process.exit(2);
  }
  const portText = parsed.values.port ?? process.env.PORT;
  const port = portText !== undefined ? Number(portText) : undefined;
  if (port !== undefined && !(portText.trim() !== '' && Number.isInteger(port) && port >= 0 && port < 65536)) {
    console.error(`serve: the port must be a number from 0 to 65535, got "${portText}"`);
    process.exit(2);
  }
  const root = parsed.positionals[0] ? resolve(parsed.positionals[0]) : repositoryRoot;
  const { url } = await startServer({ root, port });
  console.log(root === repositoryRoot ? `Serving ${SERVED_FOLDERS.map((f) => `${f}/`).join(', ')} of ${root}` : `Serving ${root}`);
  console.log(`The demo page: ${url}`);
  console.log('Press Ctrl+C to stop.');
}
