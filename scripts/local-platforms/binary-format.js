#!/usr/bin/env node
// Prints a binary's format and architecture from its header: "ELF aarch64",
// "ELF x86_64", "Mach-O arm64", "Mach-O x86_64", "PE x86_64", "wasm", or
// "unknown". pack-check uses it on the packages it cannot load here.
'use strict'
const fs = require('node:fs')

const bytes = fs.readFileSync(process.argv[2])
const elfMachines = { 62: 'x86_64', 183: 'aarch64' }
const machoCpus = { 16777223: 'x86_64', 16777228: 'arm64' }
const peMachines = { 34404: 'x86_64', 43620: 'arm64' }

function format() {
  if (bytes.readUInt32BE(0) === 0x7f454c46) return `ELF ${elfMachines[bytes.readUInt16LE(18)] || 'unknown'}`
  if (bytes.readUInt32LE(0) === 0xfeedfacf) return `Mach-O ${machoCpus[bytes.readUInt32LE(4)] || 'unknown'}`
  if (bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c)
    if (bytes.toString('latin1', pe, pe + 4) === 'PE\0\0')
      return `PE ${peMachines[bytes.readUInt16LE(pe + 4)] || 'unknown'}`
  }
  if (bytes.readUInt32BE(0) === 0x0061736d) return 'wasm'
  return 'unknown'
}
console.log(format())
