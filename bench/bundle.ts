// What a browser downloads, compressed as the server sends it (brotli), to reach the login screen and a list.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

export async function bundleSizes(): Promise<void> {
  const path = join('dist', '.vite', 'manifest.json');
  if (!existsSync(path)) {
    console.log('bundle: run `npm run build` first');
    return;
  }
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Chunk>;
  const size = new Map<string, number>();
  const brotli = (file: string) => {
    if (!size.has(file)) size.set(file, brotliCompressSync(readFileSync(join('dist', file))).length);
    return size.get(file)!;
  };
  // A chunk and everything it imports statically: what loading it costs.
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const kb = (keys: Set<string>) => ([...keys].reduce((sum, k) => sum + brotli(manifest[k].file), 0) / 1024).toFixed(1);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const find = (name: string) => Object.keys(manifest).find((k) => k.endsWith(name))!;
  const login = closure([entry, find('LoginScreen.tsx')]);
  const list = closure([entry, find('Shell.tsx'), find('EntityScreen.tsx')]);
  const form = closure([find('FormModal.tsx')]);
  for (const k of list) form.delete(k);
  console.log(`bundle (brotli): login ${kb(login)} kB; a list screen ${kb(list)} kB; the form code on top ${kb(form)} kB`);
}
