// Writes a gzip twin (name.gz) beside every text file of the build, for atout-server to send when
// the browser accepts gzip. Prints the total compressed size of the JS and CSS.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const text = /\.(html|js|mjs|css|svg|json|txt|map|webmanifest)$/;
let code_bytes = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (text.test(name)) {
      const gz = gzipSync(readFileSync(path), { level: constants.Z_BEST_COMPRESSION });
      writeFileSync(`${path}.gz`, gz);
      if (/\.(js|css)$/.test(name)) code_bytes += gz.length;
    }
  }
}

walk(root);
console.log(`compress: JS+CSS ${(code_bytes / 1024).toFixed(1)} KiB gzipped`);
