#!/usr/bin/env node
// pe-exports.js FILE [PREFIX...]: the names a PE executable (node.exe)
// exports, one a line, optionally only those starting with a PREFIX. The
// windows build links against an import library made from node.exe's
// napi_* / node_api_* exports (build-all.sh).
'use strict'
const fs = require('node:fs')

const [file, ...prefixes] = process.argv.slice(2)
const bytes = fs.readFileSync(file)
const pe = bytes.readUInt32LE(0x3c)
if (bytes.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error(`${file} is not a PE file`)
const sectionCount = bytes.readUInt16LE(pe + 6)
const optionalSize = bytes.readUInt16LE(pe + 20)
const optional = pe + 24
if (bytes.readUInt16LE(optional) !== 0x20b) throw new Error(`${file} is not PE32+`)
const exportRva = bytes.readUInt32LE(optional + 112)
const sections = []
for (let i = 0; i < sectionCount; i++) {
  const at = optional + optionalSize + i * 40
  sections.push({
    rva: bytes.readUInt32LE(at + 12),
    size: bytes.readUInt32LE(at + 16),
    raw: bytes.readUInt32LE(at + 20),
    virtualSize: bytes.readUInt32LE(at + 8),
  })
}
const offset = (rva) => {
  const section = sections.find((s) => rva >= s.rva && rva < s.rva + Math.max(s.size, s.virtualSize))
  if (!section) throw new Error(`RVA ${rva} is in no section`)
  return rva - section.rva + section.raw
}
const directory = offset(exportRva)
const nameCount = bytes.readUInt32LE(directory + 24)
const names = offset(bytes.readUInt32LE(directory + 32))
for (let i = 0; i < nameCount; i++) {
  const at = offset(bytes.readUInt32LE(names + i * 4))
  const name = bytes.toString('latin1', at, bytes.indexOf(0, at))
  if (prefixes.length === 0 || prefixes.some((prefix) => name.startsWith(prefix))) console.log(name)
}
