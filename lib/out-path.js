'use strict'
// What a command writes with `--out`: the forms it writes, told apart from those it does not,
// so that `backup --out x.tar.gz` is refused with the supported forms instead of making a
// folder named `x.tar.gz`, and `export --out x.jsonl.gz` instead of an uncompressed file under
// a compressed name.
const path = require('node:path')

// Compressed or archive suffixes this package never writes (the longest first).
const NOT_WRITTEN = ['.tar.gz', '.tar.xz', '.tar.bz2', '.tar.zst', '.tgz', '.txz', '.tbz2', '.zip', '.7z', '.rar']
const COMPRESSED = ['.gz', '.xz', '.bz2', '.zst', '.br', '.lz4']

/** The compressed or archive suffix `file` ends with (case ignored), or undefined. */
function unwrittenSuffix(file) {
  const name = path.basename(String(file)).toLowerCase()
  return [...NOT_WRITTEN, ...COMPRESSED].find((suffix) => name.endsWith(suffix) && name.length > suffix.length)
}

module.exports = { unwrittenSuffix }
