'use strict'
// What a bench run found: the targets (PASS/MISS) and the markdown sections of
// benchmark/results.md, each tagged with its section's place in the document (the sections
// run in another order than they are shown).

class Report {
  constructor() {
    this.targets = [] // { order, name, target, value, status }
    this.markdown = [] // { order, text }
  }

  /** The recorder for the section shown at position `order`. */
  section(order) {
    return {
      target: (name, target, value, pass) =>
        this.targets.push({
          order,
          name,
          target,
          value,
          status: pass === 'info' ? 'INFO' : pass == null ? 'SKIP' : pass ? 'PASS' : 'MISS',
        }),
      markdown: (text) => this.markdown.push({ order, text }),
    }
  }

  /** Targets in document order (each section's own order kept). */
  sortedTargets() {
    return [...this.targets].sort((a, b) => a.order - b.order)
  }

  sortedMarkdown() {
    return [...this.markdown].sort((a, b) => a.order - b.order).map((m) => m.text)
  }
}

module.exports = { Report }
