/**
 * Run inside the image by deploy/image/check.sh, with `--experimental-import-meta-resolve` (for
 * resolving from a given file; Node.js strips the types itself): every package that
 * a file of the program imports, statically or by `import()`, resolves from where that file is.
 * The image installs only the program's production dependencies, and a package that a service
 * uses without declaring it would otherwise be found missing only when that path first runs (a
 * worker thread, a capture). Then sharp, the one native addon, makes an image. Prints what it
 * checked; exits 1 naming what did not resolve.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2] ?? '/app';
// tsc writes each static import or re-export on lines of its own; `import('…')` anywhere.
const SPECIFIERS = [
  /^(?:import|export)\s[\w$*{},\s]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const builtins = new Set(builtinModules);

const jsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : jsFiles(path);
    return /\.(m?js)$/.test(entry.name) ? [path] : [];
  });

const dists = ['libs', 'services'].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(root, group, name, 'dist')),
);
const files = dists.flatMap((dist) => {
  try {
    return jsFiles(dist);
  } catch {
    return [];
  }
});
const checked = new Set<string>();
const missing: string[] = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)])) {
    if (!specifier || /^(\.|\/|node:)/.test(specifier) || builtins.has(specifier)) continue;
    checked.add(specifier);
    try {
      import.meta.resolve(specifier, pathToFileURL(file).href);
    } catch {
      missing.push(`${specifier} (imported by ${file})`);
    }
  }
}
if (missing.length > 0) {
  console.error(`not resolvable in the image:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
// The native addon, built for one platform, loads and works on this one (images, OCR, PDFs).
const { default: sharp } = await import(
  import.meta.resolve('sharp', pathToFileURL(join(root, 'services/notes/dist/')).href)
);
const png = await sharp({
  create: { width: 2, height: 2, channels: 3, background: '#ffffff' },
})
  .png()
  .toBuffer();
console.log(
  `${files.length} files of the program import ${checked.size} packages: all resolve; ` +
    `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}) made a ${png.length}-byte PNG`,
);
