// Runs the work given for one key one at a time, in arrival order; different keys run in
// parallel. Two messages of one chat arriving together must not both read the log before
// either appended to it (each would think the backend holds what the other is adding).

export function createKeyedQueue() {
  const tails = new Map()
  return {
    /** Runs `work()` after every earlier task of `key` has settled; its result or error. */
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(work, work)
      const tail = result.then(
        () => {},
        () => {},
      )
      tails.set(key, tail)
      tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
    get size() {
      return tails.size
    },
  }
}
