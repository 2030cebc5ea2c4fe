#!/usr/bin/env node
// An npm registry on 127.0.0.1 serving the tarballs of one folder, so that pack-check installs
// the root package the way a user does: npm itself resolves `optionalDependencies` and keeps
// the platform package whose os, cpu and libc fit. Usage: local-registry.js TARBALL_DIR
// PORT_FILE [LOCKFILE] (writes the port, serves until killed). Nothing is fetched from anywhere
// else.
//
// It also takes `npm publish` (a PUT of the packument with the tarball attached, as npm sends it;
// any bearer token): the release assembly publishes the nine packages to it with `napi
// prepublish` and `npm publish`, as the release workflow does to npm. A published tarball is
// written to TARBALL_DIR and served like the others; a version published twice is refused (409).
//
// With LOCKFILE (the repo's package-lock.json) it also serves, metadata only, every package the
// lock names: `npm install --omit dev` (what `openclaw plugins install` runs in the unpacked
// package) still resolves the devDependencies' manifests to build its tree, though it never
// downloads them. Their tarballs are not served: a download of one fails the install.
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

/** Serves one tarball (its package.json read from the tarball itself). */
function addTarball(file, bytes, manifest) {
  const dist = {
    tarball: `/tarballs/${encodeURIComponent(file)}`,
    integrity: `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`,
    shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
  }
  const packument = packuments.get(manifest.name) || { name: manifest.name, versions: {}, 'dist-tags': {} }
  packument.versions[manifest.version] = { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist }
  packument['dist-tags'].latest = manifest.version
  packuments.set(manifest.name, packument)
  tarballs.set(file, path.join(dir, file))
}

for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.tgz'))) {
  const full = path.join(dir, file)
  addTarball(
    file,
    fs.readFileSync(full),
    JSON.parse(execFileSync('tar', ['-xOzf', full, 'package/package.json'], { encoding: 'utf8' })),
  )
}

/** `npm publish`: { versions: { V: manifest }, _attachments: { FILE: { data: base64 } } }. */
function publish(body) {
  const [version, manifest] = Object.entries(body.versions || {})[0] || []
  const [attachment] = Object.values(body._attachments || {})
  if (!manifest || !attachment) return [400, { error: 'a publish carries one version and its tarball' }]
  if (packuments.get(manifest.name)?.versions[version])
    return [409, { error: `${manifest.name}@${version} is already published` }]
  const file = `${manifest.name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`
  const bytes = Buffer.from(attachment.data, 'base64')
  fs.writeFileSync(path.join(dir, file), bytes)
  const { _id, _rev, dist, ...rest } = manifest
  addTarball(file, bytes, rest)
  return [201, { ok: true, id: manifest.name }]
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
  if (req.method === 'PUT') {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      let answer
      try {
        answer = publish(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      } catch (error) {
        answer = [400, { error: String(error.message) }]
      }
      res.writeHead(answer[0], { 'content-type': 'application/json' })
      res.end(JSON.stringify(answer[1]))
    })
    return
  }
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
