#!/usr/bin/env node
// A read-only npm registry on 127.0.0.1 serving the tarballs of one folder, so
// that pack-check installs the root package the way a user does: npm itself
// resolves `optionalDependencies` and keeps the platform package whose os, cpu
// and libc fit. Usage: local-registry.js TARBALL_DIR PORT_FILE [LOCKFILE]
// (writes the port, serves until killed). Nothing is fetched from anywhere else.
//
// With LOCKFILE (the repo's package-lock.json) it also serves, metadata only,
// every package the lock names: `npm install --omit dev` (what `openclaw plugins
// install` runs in the unpacked package) still resolves the devDependencies'
// manifests to build its tree, though it never downloads them. Their tarballs
// are not served: a download of one fails the install.
'use strict'
const { execFileSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')

const [dir, portFile, lockFile] = process.argv.slice(2)
if (!dir || !portFile) {
  console.error('usage: local-registry.js TARBALL_DIR PORT_FILE [LOCKFILE]')
  process.exit(2)
}

const packuments = new Map()
const tarballs = new Map()
let base = ''

for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.tgz'))) {
  const full = path.join(dir, file)
  const bytes = fs.readFileSync(full)
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', full, 'package/package.json'], { encoding: 'utf8' }))
  const dist = {
    tarball: `/tarballs/${encodeURIComponent(file)}`,
    integrity: `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`,
    shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
  }
  const packument = packuments.get(manifest.name) || { name: manifest.name, versions: {}, 'dist-tags': {} }
  packument.versions[manifest.version] = { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist }
  packument['dist-tags'].latest = manifest.version
  packuments.set(manifest.name, packument)
  tarballs.set(file, full)
}

if (lockFile) {
  const served = new Set(packuments.keys())
  const { packages } = JSON.parse(fs.readFileSync(lockFile, 'utf8'))
  for (const [where, entry] of Object.entries(packages)) {
    const at = where.lastIndexOf('node_modules/')
    if (at < 0 || entry.link) continue
    // An alias (`"@jest/react-is-18": "npm:react-is@^18.3.1"`) records the real name.
    const name = entry.name ?? where.slice(at + 'node_modules/'.length)
    if (served.has(name)) continue
    const { dev, optional, peer, devOptional, inBundle, resolved, integrity, ...manifest } = entry
    const packument = packuments.get(name) || { name, versions: {}, 'dist-tags': {} }
    packument.versions[entry.version] = {
      ...manifest,
      name,
      _id: `${name}@${entry.version}`,
      dist: { tarball: `/metadata-only/${encodeURIComponent(name)}-${entry.version}.tgz`, integrity },
    }
    packument['dist-tags'].latest = entry.version
    packuments.set(name, packument)
  }
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0])
  if (url.startsWith('/tarballs/')) {
    const file = tarballs.get(url.slice('/tarballs/'.length))
    if (file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      return fs.createReadStream(file).pipe(res)
    }
  } else {
    const packument = packuments.get(url.slice(1))
    if (packument) {
      // Absolute tarball URLs: npm records them in the lock file.
      const body = JSON.parse(JSON.stringify(packument))
      for (const version of Object.values(body.versions)) version.dist.tarball = base + version.dist.tarball
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(body))
    }
  }
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: 'not found' }))
})

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  base = `http://127.0.0.1:${port}`
  fs.writeFileSync(portFile, String(port))
})
