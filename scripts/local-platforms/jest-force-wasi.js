// jest --setupFiles for the WASI runs: selects the WASI build inside the test
// environment only. Set for the whole jest process, NAPI_RS_FORCE_WASI would
// also switch jest's own napi-rs resolver (unrs-resolver) to a WASI build it
// does not have. Child processes the specs start inherit it.
process.env.NAPI_RS_FORCE_WASI = process.env.OCCN_FORCE_WASI || 'error'
