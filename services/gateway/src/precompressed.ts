import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import express, { type Request, type RequestHandler, type Response } from 'express';

/** The codings the frontend build writes a copy in, beside each text file, best first. */
const encodings = [
  {
    coding: 'br',
    extension: '.br',
    compress: (bytes: Buffer) =>
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }),
  },
  {
    coding: 'gzip',
    extension: '.gz',
    compress: (bytes: Buffer) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  },
] as const;

export type Coding = (typeof encodings)[number]['coding'];

/** The files the frontend build may have compressed copies of. */
const compressible = /\.(js|mjs|css|html|json|svg|webmanifest|txt)$/;

/**
 * The codings an Accept-Encoding header lets the gateway send, in the order to try them:
 * highest q-value first, br before gzip at equal q; none the client gave q=0 (or left out
 * without a `*`), none it ranks below an explicit `identity`.
 */
export const acceptedCodings = (header: string | undefined): Coding[] => {
  const quality = new Map<string, number>();
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    quality.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const identity = quality.get('identity') ?? 0;
  return encodings
    .map(({ coding }) => ({ coding, q: quality.get(coding) ?? quality.get('*') ?? 0 }))
    .filter(({ q }) => q > 0 && q >= identity)
    .sort((a, b) => b.q - a.q)
    .map(({ coding }) => coding);
};

/** A body compressed once in every coding that makes it smaller, to send the one accepted. */
export const precompress = (body: string) => {
  const plain = Buffer.from(body);
  const copies = new Map<Coding, Buffer>();
  for (const { coding, compress } of encodings) {
    const copy = compress(plain);
    if (copy.length < plain.length) copies.set(coding, copy);
  }
  return {
    /** Sends the body in the best coding the request accepts; the caller sets its type. */
    send: (req: Request, res: Response) => {
      res.vary('Accept-Encoding');
      const coding = acceptedCodings(req.headers['accept-encoding']).find((accepted) =>
        copies.has(accepted),
      );
      if (coding) res.setHeader('content-encoding', coding);
      res.send(coding ? copies.get(coding) : plain);
    },
  };
};

/**
 * express.static that sends the build's `.br` or `.gz` copy of a file when the request accepts
 * that coding, with the headers of the file itself, and the file as it is otherwise.
 * Hand-written: express-static-gzip lists the copies once at start (so not those of a rebuild
 * under a running app) and its orderPreference overrides the client's q-values.
 */
export const staticPrecompressed = (
  root: string,
  setHeaders: (res: Response, file: string) => void,
): RequestHandler => {
  const plain = express.static(root, { index: false, setHeaders });
  const copies = encodings.map(({ coding, extension }) => ({
    coding,
    extension,
    serve: express.static(root, {
      index: false,
      redirect: false,
      setHeaders: (res, file) => {
        const original = file.slice(0, -extension.length);
        setHeaders(res, original);
        res.type(path.extname(original));
        res.setHeader('content-encoding', coding);
      },
    }),
  }));

  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !compressible.test(req.path)) {
      plain(req, res, next);
      return;
    }
    res.vary('Accept-Encoding');
    const accepted = acceptedCodings(req.headers['accept-encoding']);
    const url = req.url;
    const queryAt = url.indexOf('?');
    const [pathname, query] = queryAt < 0 ? [url, ''] : [url.slice(0, queryAt), url.slice(queryAt)];
    const serve = (index: number) => {
      const copy = copies.find((candidate) => candidate.coding === accepted[index]);
      if (!copy) {
        plain(req, res, next);
        return;
      }
      // serve-static reads the path at once; the request keeps its URL for what runs after.
      req.url = `${pathname}${copy.extension}${query}`;
      copy.serve(req, res, (error?: unknown) => {
        if (error) next(error);
        else serve(index + 1);
      });
      req.url = url;
    };
    serve(0);
  };
};
