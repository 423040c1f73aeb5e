// A tiny static file server for the demo page, with no dependencies.
//
//   node scripts/serve.mjs            serves the repository root; the page is at /web/
//   PORT=9000 node scripts/serve.mjs  a fixed port (default: the first free one from 8080)
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
function fileFor(urlPath, root, mounts) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
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

function handler(root, mounts) {
  return async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === '/') {
      response.writeHead(302, { Location: '/web/' });
      response.end();
      return;
    }
    let file = fileFor(url.pathname, root, mounts);
    if (file === null) {
      send(response, 403, 'forbidden');
      return;
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          response.writeHead(301, { Location: `${url.pathname}/${url.search}` });
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
        'Access-Control-Allow-Origin': '*',
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
      send(response, 404, 'not found');
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
 * Resolves to { url, port, close() }; `url` is the page's address.
 */
export async function startServer({ root = repositoryRoot, port, host = '127.0.0.1', mounts = {} } = {}) {
  const mountList = Object.entries(mounts).map(([prefix, folder]) => [prefix, resolve(folder)]);
  const server = createServer(handler(resolve(root), mountList));
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
  const port = process.env.PORT ? Number(process.env.PORT) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    console.error(`serve: PORT must be a port number, got "${process.env.PORT}"`);
    process.exit(2);
  }
  const root = process.argv[2] ? resolve(process.argv[2]) : repositoryRoot;
  const { url } = await startServer({ root, port });
  console.log(`Serving ${root}`);
  console.log(`The demo page: ${url}`);
  console.log('Press Ctrl+C to stop.');
}
