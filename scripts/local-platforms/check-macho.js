#!/usr/bin/env node
// check-macho.js FILE ARCH MIN_MACOS: checks a macOS .node that cannot run
// here by its structure: a 64-bit Mach-O dylib for ARCH (arm64 | x86_64),
// a minimum macOS of at most MIN_MACOS (LC_BUILD_VERSION), the module entry
// `napi_register_module_v1` exported, and every `napi_*` function it calls
// left undefined for Node to bind at load time (linked with
// `-undefined dynamic_lookup`). Prints one line per check; exits 1 on a failure.
'use strict'
const fs = require('node:fs')

const [file, arch, minMacos] = process.argv.slice(2)
const bytes = fs.readFileSync(file)
const CPU = { arm64: 0x0100000c, x86_64: 0x01000007 }
const MH_DYLIB = 6
const LC_SYMTAB = 0x2
const LC_BUILD_VERSION = 0x32
const N_EXT = 0x01
const N_TYPE = 0x0e
const N_UNDF = 0x0
const N_SECT = 0xe

const failures = []
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)
  if (!ok) failures.push(what)
}

const version = (packed) => `${packed >>> 16}.${(packed >>> 8) & 0xff}`
const versionNumber = (text) => text.split('.').reduce((acc, part, i) => acc + Number(part) * [65536, 256, 1][i], 0)

check(bytes.readUInt32LE(0) === 0xfeedfacf, `${file}: a 64-bit Mach-O`)
check(bytes.readUInt32LE(4) === CPU[arch], `architecture ${arch}`)
check(bytes.readUInt32LE(12) === MH_DYLIB, 'a dynamic library (MH_DYLIB), as Node loads with dlopen')

const commands = bytes.readUInt32LE(16)
let offset = 32
let minos = null
let symtab = null
for (let i = 0; i < commands; i++) {
  const cmd = bytes.readUInt32LE(offset)
  const size = bytes.readUInt32LE(offset + 4)
  if (cmd === LC_BUILD_VERSION) minos = bytes.readUInt32LE(offset + 12)
  if (cmd === LC_SYMTAB) {
    symtab = {
      symoff: bytes.readUInt32LE(offset + 8),
      nsyms: bytes.readUInt32LE(offset + 12),
      stroff: bytes.readUInt32LE(offset + 16),
    }
  }
  offset += size
}
check(
  minos !== null && versionNumber(version(minos)) <= versionNumber(minMacos),
  `minimum macOS ${minos === null ? 'missing' : version(minos)} <= ${minMacos}`,
)

const defined = new Set()
const undefinedSymbols = new Set()
if (symtab) {
  for (let i = 0; i < symtab.nsyms; i++) {
    const entry = symtab.symoff + i * 16
    const strx = bytes.readUInt32LE(entry)
    const type = bytes.readUInt8(entry + 4)
    const end = bytes.indexOf(0, symtab.stroff + strx)
    const name = bytes.toString('latin1', symtab.stroff + strx, end)
    if (!(type & N_EXT)) continue
    if ((type & N_TYPE) === N_SECT) defined.add(name)
    if ((type & N_TYPE) === N_UNDF) undefinedSymbols.add(name)
  }
}
check(defined.has('_napi_register_module_v1'), 'napi_register_module_v1 exported')
const napiUndefined = [...undefinedSymbols].filter((name) => name.startsWith('_napi_'))
const napiDefined = [...defined].filter((name) => name.startsWith('_napi_') && name !== '_napi_register_module_v1')
check(
  napiUndefined.length > 10 && napiDefined.length === 0,
  `${napiUndefined.length} napi_* functions left undefined for Node, none defined in the addon`,
)
if (failures.length > 0) process.exit(1)
